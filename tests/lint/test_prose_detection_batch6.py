"""Wordings met on batch 6 of benchmarks/data/lint-real (scored once blind, then tuned on; see
docs/lint-accuracy.md): instructions in French, Portuguese, Spanish, Italian and German around the
borrowed "subagent", the English verb kept in Japanese prose, "invoke the executor agent", a
later "to" that names the agent, "route … to the agent", the spawn tool named beside a job; and
the look-alikes that must stay quiet."""

from __future__ import annotations

import pytest
from prose import result

from spawnkit.lint.analysis import latin_spawn


@pytest.mark.parametrize(
    "body",
    [
        "Delega cada tarefa a subagent.\n",  # Portuguese
        "Spawne EN PARALLÈLE des subagents pour explorer le code.\n",  # French
        "Bei Bedarf delegiere an Explore Subagent.\n",  # German
        "Lanza un subagente por cada módulo.\n",  # Spanish
        "Avvia un sub-agent per ogni file.\n",  # Italian
        "複雑な場合はインラインで追跡せずExploreエージェントを spawn する。\n",
        "Then invoke the executor agent with the plan.\n",
        "Then hand each checklist group (A to J) and the architecture map to its own subagent.\n",
        "Route each request to the correct agent.\n",
        'Dispatch the Sonnet renderer (Agent tool, model: "sonnet") with the spec.\n',
    ],
)
def test_batch6_spawn_wordings_make_an_orchestrator(body):
    # a reading finds the file spawning; whether the default tier asserts it is the
    # calibrated decision's (test_calibration.py)
    got = result(body)
    assert got.orchestrator and got.spawn_tier in ("default", "preview"), body


@pytest.mark.parametrize(
    "body",
    [
        "Ne lance pas de sub-agent pour cela.\n",  # negated (French)
        "Não delega a subagent nenhuma tarefa.\n",  # negated (Portuguese)
        "Lance le serveur puis vérifie les agents de build.\n",  # no sub-agent noun
        "エージェントを spawn しない。\n",  # negated (Japanese)
        "Invoke the user agent string parser.\n",
        "Route traffic to the load balancer.\n",
        "Hand the results to the user and to the reviewer.\n",
        "Dispatch accepts the legacy Task array as one wave.\n",  # a noun, subject of a verb
        "Include activation commands that encourage Claude to invoke the subagent.\n",
    ],
)
def test_batch6_look_alikes_are_not_spawning(body):
    assert not result(body).orchestrator, body


@pytest.mark.parametrize(
    "body",
    [
        "Spawn agents the moment a task is ready.\n",
        "Launch subagents each with its own file.\n",
        "Spawn helpers that each review a file.\n",
        "Dispatch reviewers to each module.\n",
    ],
)
def test_a_plural_object_before_a_determiner_is_still_the_object(body):
    assert result(body).orchestrator, body


def test_other_languages_need_the_verb_just_before_the_noun():
    assert latin_spawn("delega cada tarefa a subagent")
    assert not latin_spawn(
        "delega cada tarefa e depois, muito mais tarde no texto, fale do subagent"
    )
    assert not latin_spawn("no sub-agent here")  # a noun with no verb
