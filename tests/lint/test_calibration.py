"""The calibrated decision (issue 34): one probability that a file starts sub-agents, one for
each finding of CM001, CM002, CM003 and CM005, and the thresholds the default tier asserts
from. The weights are data (src/spawnkit/lint/calibration.json) fitted by
benchmarks/lint_calibrate.py; these tests check the mechanism with fixed models, that the
shipped file is well formed and read as the fit wrote it, and the fitting script itself.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
from samples import HEAD

from spawnkit.lint import analysis, calibration
from spawnkit.lint.document import Document
from spawnkit.lint.engine import lint_document
from spawnkit.lint.evidence import DEFAULT, PREVIEW
from spawnkit.lint.report import as_json, as_text
from spawnkit.lint.rules import BY_CODE

ROOT = Path(__file__).resolve().parents[2]
PATH = "skills/demo-audit/SKILL.md"
TOOL = HEAD + "Use the Task tool to spawn one reviewer sub-agent per package.\n"
PROSE = HEAD + "Spawn three sub-agents, one per package.\n"


def codes(result, tier: str | None = None) -> list[str]:
    return sorted(d.code for d in result.diagnostics if tier is None or d.tier == tier)


# --- the mechanism, on fixed models ---------------------------------------------------------


def test_the_probability_is_the_logistic_of_the_weighted_features(calibrated):
    model = calibrated(detection={"bias": -1.0, "reading:agent-object": 2.0, "size": 0.5})
    a = analysis.analyse(Document(PATH, PROSE))
    x = analysis.spawn_features(a)
    z = -1.0 + 2.0 * x["reading:agent-object"] + 0.5 * x["size"]
    assert x["reading:agent-object"] == pytest.approx(math.log(2))  # one mark: log(1 + 1)
    assert a.spawn_probability == pytest.approx(1 / (1 + math.exp(-z)))
    assert calibration.logistic(model["detection"]["weights"], x) == a.spawn_probability
    # a feature the weights do not name weighs nothing; no candidate has probability 0
    assert calibration.logistic({"bias": 0.0}, {"unknown": 9.0}) == 0.5
    assert analysis.analyse(Document(PATH, HEAD + "Format the code.\n")).spawn_probability == 0


def test_the_default_tier_asserts_from_the_threshold_itself(calibrated):
    """p equal to the threshold is asserted; p a hair under it is offered."""
    model = calibrated(detection={"bias": 0.0})  # every candidate: p = 0.5 exactly
    for threshold, tier in ((0.5, DEFAULT), (0.5 + 1e-9, PREVIEW), (0.5 - 1e-9, DEFAULT)):
        model["detection"]["threshold"] = threshold
        result = lint_document(PROSE, PATH)
        assert (result.spawn_tier, result.spawn_probability) == (tier, 0.5), threshold
        assert result.orchestrator is (tier == DEFAULT)
    model["detection"]["threshold"] = None  # no threshold reached the target: nothing asserted
    assert lint_document(PROSE, PATH).spawn_tier == PREVIEW


def test_a_finding_is_asserted_only_when_the_file_and_the_finding_both_are(calibrated):
    # the file surely spawns, the finding does not clear its threshold: offered
    calibrated(rules={"CM001": {"bias": -1.0}})
    result = lint_document(TOOL, PATH, preview=True)
    cm001 = next(d for d in result.diagnostics if d.code == "CM001")
    assert result.spawn_tier == DEFAULT and (cm001.tier, cm001.severity) == (PREVIEW, "warning")
    assert cm001.probability == round(1 / (1 + math.exp(1)), 3)
    # the finding is sure, the file is not asserted: offered too
    calibrated(detection={"bias": -10.0})
    result = lint_document(TOOL, PATH, preview=True)
    assert result.spawn_tier == PREVIEW
    assert {d.tier for d in result.diagnostics if d.code.startswith("CM")} == {PREVIEW}
    # both sure: asserted, an error
    calibrated()
    cm001 = next(d for d in lint_document(TOOL, PATH).diagnostics if d.code == "CM001")
    assert (cm001.tier, cm001.severity, cm001.probability) == (DEFAULT, "error", 0.993)


def test_a_reading_the_model_was_not_fitted_on_is_offered_without_a_probability(calibrated):
    model = calibrated()
    model["CM001"]["readings"] = ["prompt-without-cap"]  # spawn-without-cap never seen
    result = lint_document(TOOL, PATH, preview=True)
    cm001 = next(d for d in result.diagnostics if d.code == "CM001")
    assert (cm001.family, cm001.tier, cm001.probability) == ("spawn-without-cap", PREVIEW, None)
    assert "CM001" not in codes(lint_document(TOOL, PATH))


def test_structural_mode_asserts_only_the_structural_readings(calibrated):
    """The fallback the fit writes when no threshold gives useful recall at the target."""
    model = calibrated()
    model["detection"]["mode"] = "structural"
    assert lint_document(TOOL, PATH).spawn_tier == DEFAULT  # names the spawn tool
    assert lint_document(PROSE, PATH).spawn_tier == PREVIEW  # a verb and an agent: offered
    granted = PROSE.replace("description:", "allowed-tools: Agent, Read\ndescription:")
    assert lint_document(granted, PATH).spawn_tier == DEFAULT  # an order where the tool is granted
    fork = HEAD.replace("description:", "context: fork\ndescription:") + "Review the diff.\n"
    assert lint_document(fork, PATH).spawn_tier == DEFAULT


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2]"])
def test_a_missing_or_broken_model_file_asserts_nothing_and_fails_nobody(
    tmp_path, monkeypatch, content
):
    path = tmp_path / "calibration.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    monkeypatch.setattr(calibration, "MODEL_FILE", path)
    monkeypatch.setattr(calibration, "_model", None)
    result = lint_document(TOOL, PATH, preview=True)
    assert result.orchestrator and result.spawn_tier == PREVIEW
    assert result.spawn_probability == 0.5
    assert {d.tier for d in result.diagnostics} == {PREVIEW}
    assert lint_document(TOOL, PATH).diagnostics == []


def test_a_calibrated_rule_that_cannot_be_asserted_is_not_read_by_default(calibrated, monkeypatch):
    """The engine skips a calibrated rule (without --preview) when no finding of it could
    reach its threshold in this file; at the threshold itself it still runs."""
    model = calibrated(rules={"CM003": {"bias": 0.0}})  # CM003's probability: 0.5 everywhere
    rule = type(BY_CODE["CM003"])
    calls = []
    original = rule.check

    def counted(self, ctx):
        calls.append(ctx.doc.path)
        return original(self, ctx)

    monkeypatch.setattr(rule, "check", counted)
    model["CM003"]["threshold"] = 0.5
    assert "CM003" in codes(lint_document(TOOL, PATH)) and len(calls) == 1
    model["CM003"]["threshold"] = 0.5 + 1e-9
    assert "CM003" not in codes(lint_document(TOOL, PATH)) and len(calls) == 1  # skipped
    assert "CM003" in codes(lint_document(TOOL, PATH, preview=True)) and len(calls) == 2
    model["CM003"]["weights"]["findings"] = 0.1  # more findings could raise it: read
    lint_document(TOOL, PATH)
    assert len(calls) == 3


def test_the_default_tier_is_exactly_the_default_part_of_the_preview_run():
    """Whatever the engine skips by default, it never hides a finding the default tier shows
    (the synthetic corpus, with the shipped model)."""
    corpus = Path(__file__).parent / "corpus"
    for path in sorted(corpus.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        default = lint_document(text, str(path)).diagnostics
        shown = lint_document(text, str(path), preview=True).diagnostics
        assert default == [d for d in shown if d.tier == DEFAULT], path


def test_json_text_and_rule_docs_show_the_calibration(sure):
    result = lint_document(TOOL, PATH)
    data = json.loads(as_json([result]))["files"][0]
    assert data["spawn_probability"] == 0.993
    cm001 = next(d for d in data["diagnostics"] if d["code"] == "CM001")
    assert cm001["probability"] == 0.993
    text = as_text([result])
    assert "    calibrated: p = 0.99 that this finding is right (asserted from 0.50)" in text
    doc = BY_CODE["CM005"].doc()
    assert "## Tier: calibrated" in doc and "at least 0.50" in doc


# --- the shipped model --------------------------------------------------------------------


def shipped() -> dict:
    return json.loads(calibration.MODEL_FILE.read_text(encoding="utf-8"))


def test_the_shipped_model_is_well_formed_and_names_only_known_features():
    model = shipped()
    assert model["target_precision"] == 0.95 and model["corpus_files"] >= 841
    det = model["detection"]
    assert det["mode"] in ("calibrated", "structural")
    if det["mode"] == "calibrated":
        assert 0 < det["threshold"] < 1 and det["cv"]["recall"] >= model["min_recall"]
    families = {f.name for f in analysis.DETECTION_FAMILIES}
    known_prefixes = ("reading:", "where:", "kind:", "frontmatter:", "mood:")
    for name in det["weights"]:
        assert name in ("bias", "structural", "size", "strong-lines", "strong-sections") or (
            name.startswith(known_prefixes)
        ), name
        if name.startswith("reading:"):
            assert name.split(":", 1)[1] in families, name
    for code in calibration.CALIBRATED_RULES:
        fitted = model[code]
        names = {f.name for f in BY_CODE[code].families}
        assert set(fitted["readings"]) <= names, code
        assert fitted["threshold"] is None or 0 < fitted["threshold"] < 1
        for name in fitted["weights"]:
            if name.startswith("reading:"):
                assert name.split(":", 1)[1] in names, (code, name)


def test_the_shipped_model_asserts_a_spawn_tool_order_and_offers_a_guide():
    """Two shapes far from the threshold either way, so a refit should not move them: an
    instruction that names the spawn tool, and spawning told only under a guide heading."""
    assert lint_document(TOOL, PATH).spawn_tier == DEFAULT
    guide = (
        HEAD + "# Agents\n\n## Setup\n\nRead the docs.\n\n## Multi-Agent Patterns\n\n"
        "Spawn three sub-agents, one per source.\n"
    )
    result = lint_document(guide, PATH)
    assert result.spawn_tier == PREVIEW and result.spawn_probability < 0.8


# --- the fitting script ---------------------------------------------------------------------


def bench():
    spec = importlib.util.spec_from_file_location(
        "lint_calibrate", ROOT / "benchmarks" / "lint_calibrate.py"
    )
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["lint_calibrate"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_folds_never_split_a_repository_and_stay_even():
    b = bench()
    rows = [
        b.Row(f"r{i}/x:{j}.md", f"r{i}/x", 1, "skill", True, {})
        for i in range(30)
        for j in range(1 + i % 4)
    ]
    folds = b.grouped_folds(rows, 5, "seed")
    assert set(folds) == {r.repo for r in rows} and set(folds.values()) == set(range(5))
    sizes = [sum(1 for r in rows if folds[r.repo] == k) for k in range(5)]
    assert max(sizes) - min(sizes) <= 4  # the largest repository's files at most
    assert b.grouped_folds(rows, 5, "seed") == folds  # seeded: the same every run


def test_the_threshold_is_the_largest_set_that_reaches_the_target():
    b = bench()
    scores = [0.9, 0.8, 0.7, 0.7, 0.6, 0.5]
    labels = [True, True, True, False, True, False]
    # 0.9, 0.8: 1.0; 0.7 (both): 3/4; 0.6: 4/5 = 0.8; 0.5: 4/6
    assert b.choose_threshold(scores, labels, 0.8) == 0.6
    assert b.choose_threshold(scores, labels, 0.81) == 0.8  # not between the tied 0.7s
    assert b.choose_threshold(scores, labels, 1.0) == 0.8
    assert b.choose_threshold([0.9], [False], 0.5) is None


def test_the_fit_writes_a_model_that_lint_reads_as_fitted(tmp_path, monkeypatch):
    """End to end on a small corpus of its own: fit, cross-validate, write; then lint reads
    the file and computes, in the standard library, what numpy fitted."""
    b = bench()
    pytest.importorskip("numpy")
    spawn = (
        "---\nname: s{n}\ndescription: d\n---\nUse the Task tool to spawn a reviewer per file.\n"
    )
    mention = "---\nname: m{n}\ndescription: d\n---\nSpawn three sub-agents for the {n} review.\n"
    plain = "---\nname: p{n}\ndescription: d\n---\nFormat the code of file {n}.\n"
    guide = (
        "---\nname: g{n}\ndescription: d\n---\n# Guide\n\n## Patterns\n\n"
        "Spawn sub-agents, one per package, for report {n}.\n"
    )
    files, texts = [], tmp_path / "texts"
    for n in range(24):
        for kind, text, label in (
            ("s", spawn, True),
            ("m", mention, n % 3 != 0),
            ("p", plain, False),
            ("g", guide, n % 4 == 0),
        ):
            data = text.format(n=n).encode()
            repo, path = f"o{n}/r{n}", f"skills/{kind}{n}/SKILL.md"
            dest = texts / repo / path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            rules = {
                r: {"label": ("positive" if label else "n.a."), "reason": "x"}
                for r in ("CM001", "CM002", "CM003", "CM004", "CM005", "CM006", "CM007", "CM008")
            }
            files.append(
                {
                    "repo": repo,
                    "path": path,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "kind": "skill",
                    "orchestrator": {"label": label, "reason": "x"},
                    "rules": rules,
                }
            )
    corpus = tmp_path / "corpus.yaml"
    corpus.write_text(json.dumps({"files": files}), encoding="utf-8")  # JSON is YAML
    out = tmp_path / "model.json"
    args = ["--corpus", str(corpus), "--texts", str(texts), "--folds", "4", "--inner", "2"]
    args += ["--bootstrap", "50"]
    assert b.main([*args, "--write", "--output", str(out), "--target", "0.9"]) == 0
    model = json.loads(out.read_text(encoding="utf-8"))
    assert model["corpus_files"] == 96 and model["folds"] == 4
    weights = model["detection"]["weights"]
    assert weights["reading:spawn-tool"] > 0 > weights["reading:guide-section"]
    monkeypatch.setattr(calibration, "_model", model)
    import numpy as np

    for text in (spawn, mention, guide):
        a = analysis.analyse(Document(PATH, text.format(n=99)))
        x = analysis.spawn_features(a)
        names = list(weights)
        z = float(
            np.dot(
                [weights[k] for k in names], [x.get(k, 1.0 if k == "bias" else 0.0) for k in names]
            )
        )
        assert a.spawn_probability == pytest.approx(1 / (1 + math.exp(-z)), rel=1e-12)
    # too few repositories for the folds: one line, exit 2, nothing written
    few = tmp_path / "few.yaml"
    few.write_text(json.dumps({"files": files[:8]}), encoding="utf-8")
    assert (
        b.main(
            [
                "--corpus",
                str(few),
                "--texts",
                str(texts),
                "--write",
                "--output",
                str(tmp_path / "none.json"),
            ]
        )
        == 2
    )
    assert not (tmp_path / "none.json").exists()
