"""Issue 31: ``spawnkit audit --by skill`` on what the real Claude Code 2.1.330 wrote.

Each scenario runs a skill, then a second prompt in the same session (``--continue``) that
launches one sub-agent ad hoc; the audit, run from a folder that is not the project, must give
the skill's returns to the skill (with the path of its file) and the ad hoc one to no skill.
The skill is invoked by the model through the Skill tool, by the user typing ``/name``, as a
workflow skill made by ``spawnkit new --engine workflow``, and across a compaction the client
makes in the middle of the skill's run.
"""

from __future__ import annotations

import json
from pathlib import Path

from spawnkit.standard import protocol

from .audit_checks import audit_by_skill, check_skill
from .fake_api import Request, agent, text, tool_use
from .scenarios import SKILL, ad_hoc, hand_written_skill, long_answer, once_started, reviewers
from .workflow_scenarios import Overlap, orchestrate, workflow_agents

ANSWER = 3000  # tokens of each long answer (by the estimate): far over the budget either way


def _ids_of(doc: dict, skill: str | None) -> set[str]:
    return {r["tool_use_id"] for s in doc["sessions"] for r in s["returns"] if r["skill"] == skill}


def test_a_skill_the_model_invokes_owns_its_two_returns_not_the_ad_hoc_one(claude, fake_api):
    skill_md = hand_written_skill(claude.project / ".claude" / "skills")
    calls = reviewers(fake_api, "FT", ANSWER)
    main = fake_api.conversation(
        "FT-ORCH", tool_use("Skill", {"skill": SKILL}), [text("Two reviewers."), *calls], "Done."
    )
    prompt, loose = ad_hoc(fake_api, [main], "FT", ANSWER)

    claude.run("FT-ORCH: review the code with the fan-two skill")
    claude.run(prompt, extra_args=("--continue",))

    doc = audit_by_skill(claude)
    (session,) = doc["sessions"]  # --continue wrote into the same session
    check_skill(doc, SKILL, skill_md, returns=2, outside=1)
    assert _ids_of(doc, SKILL) == {c["id"] for c in calls}
    assert _ids_of(doc, None) == {loose["id"]}
    assert session["skills"] == [
        {"name": SKILL, "runs": 1, "path": str(skill_md), "base_dir": str(skill_md.parent)}
    ]
    # the text view says the same, from the same folder elsewhere
    shown = claude.spawnkit(
        "audit", "--by", "skill", check=False, cwd=claude.root / "elsewhere"
    ).stdout
    assert str(skill_md) in shown and "outside any skill" in shown
    row = next(line for line in shown.splitlines() if line.startswith(f"  {SKILL} "))
    assert row.split()[1:3] == ["1", "2"]  # one run, two returns


def test_a_skill_the_user_types_as_slash_name_owns_its_returns(claude, fake_api):
    skill_md = hand_written_skill(
        claude.config_dir / "skills", body="FT-SLASH: launch two reviewers."
    )
    calls = reviewers(fake_api, "FS", ANSWER)
    main = fake_api.conversation("FT-SLASH", [text("Two reviewers."), *calls], "Done.")
    prompt, loose = ad_hoc(fake_api, [main], "FS", ANSWER)

    claude.run(f"/{SKILL}")
    claude.run(prompt, extra_args=("--continue",))

    doc = audit_by_skill(claude)
    check_skill(doc, SKILL, skill_md, returns=2, outside=1)
    assert _ids_of(doc, None) == {loose["id"]}


def test_a_generated_workflow_skill_owns_its_run_and_its_result(claude, fake_api):
    name, steps = "wf-audit", ["survey", "analyze", "verify", "summarize"]
    claude.spawnkit("new", name, "--engine", "workflow", "--defaults", "--scope", "user")
    skill_dir = claude.config_dir / "skills" / name
    main = orchestrate(fake_api, "WF-ORCH", name)
    workflow_agents(fake_api, claude.project, steps, Overlap())
    prompt, loose = ad_hoc(fake_api, [main.conversation], "WF", ANSWER)

    claude.run(f"WF-ORCH: run the {name} skill")
    claude.run(prompt, extra_args=("--continue",))

    doc = audit_by_skill(claude)
    (skill,) = doc["skills"]
    assert skill["name"] == name and skill["path"] == str(skill_dir / "SKILL.md")
    assert skill["runs"] == 1 and skill["workflow_runs"] == 1
    (run,) = [w for s in doc["sessions"] for w in s["workflows"]]
    assert run["skill"] == name and run["script_path"] == str(skill_dir / "workflow.js")
    assert skill["returns"] == 1 and _ids_of(doc, name) == {main.calls["workflow"]["id"]}
    # the generated skill keeps its result short; the ad hoc answer is long and no skill's
    assert skill["over_budget"] == 0 and "CM001" not in skill["findings"]
    assert _ids_of(doc, None) == {loose["id"]}
    assert doc["unattributed"]["findings"]["CM001"] == 1


# Auto-compaction: Claude Code compacts once a request would pass this share of a window
# (its smallest accepted window is 100k tokens). The fake reports a request's size / 4 as its
# usage: the skill's first request is ~12k, so the first long answer crosses 13k.
COMPACT_SOON = {
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "13",
}
SUMMARY = "This session is being continued from a previous conversation"
SUMMARISE = "Your task is to create a detailed summary"  # the client's compaction request


def _summarising(req: Request) -> bool:
    return SUMMARISE in req.last_user_text


def test_a_compaction_in_the_middle_of_a_skill_keeps_its_later_launch(claude, fake_api):
    """2.1.330 carries a running skill across a compaction (it re-injects the skill and goes on
    tagging its launches): the launch after the boundary is still the skill's. The ad hoc one,
    after the next prompt, is not."""
    skill_md = hand_written_skill(claude.project / ".claude" / "skills")
    first, second = reviewers(fake_api, "CP", ANSWER)
    made: list[str] = []

    def move(req: Request):
        if req.tool_result(second["id"]) is not None or "second" in made:
            made.append("done")
            return "Both reviews are in."
        if "first" in made:
            made.append("second")
            return [text("The second reviewer."), second]
        if "skill" in made:
            made.append("first")
            return [text("The first reviewer."), first]
        made.append("skill")
        return tool_use("Skill", {"skill": SKILL})

    main, after = (
        fake_api.conversation(match)
        .when(_summarising, "Summary: a skill reviews the code in two parts.")
        .when(lambda req: True, move)
        for match in ("CP-ORCH", SUMMARY)
    )
    prompt, loose = ad_hoc(fake_api, [main, after], "CP", ANSWER)

    claude.run("CP-ORCH: review the code with the fan-two skill", env=COMPACT_SOON)
    run = claude.run(prompt, extra_args=("--continue",))

    entries = run.transcript_entries()
    boundary = next(i for i, e in enumerate(entries) if e.get("subtype") == "compact_boundary")
    launches = [
        i
        for i, e in enumerate(entries)
        for block in (e.get("message") or {}).get("content") or []
        if isinstance(block, dict) and block.get("id") in (first["id"], second["id"])
    ]
    assert launches[0] < boundary < launches[-1], "no compaction between the skill's launches"
    doc = audit_by_skill(claude)
    check_skill(doc, SKILL, skill_md, returns=2, outside=1)
    assert _ids_of(doc, SKILL) == {first["id"], second["id"]}
    assert _ids_of(doc, None) == {loose["id"]}
    budget = protocol.return_budget()
    assert all(e["tokens"] > budget for e in doc["skills"][0]["evidence"] if e["tokens"])

    # The same transcript without the client's tags, as a client before ``attributionSkill``
    # would have written it: the compaction boundary ends the skill's span (the cautious
    # reading), so the launch after it belongs to no skill, the one before it to the skill.
    untagged = claude.root / "untagged"
    for path in (claude.home / ".claude" / "projects").rglob("*"):
        copy = untagged / path.relative_to(claude.home / ".claude" / "projects")
        if path.is_dir():
            copy.mkdir(parents=True, exist_ok=True)
        elif path.suffix == ".jsonl":
            records = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
            for record in records:
                record.pop("attributionSkill", None)
            copy.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
        else:
            copy.write_bytes(path.read_bytes())
    assert "attributionSkill" not in "".join(p.read_text() for p in untagged.rglob("*.jsonl"))
    plain = audit_by_skill(claude, str(untagged))
    assert _ids_of(plain, SKILL) == {first["id"]}
    assert _ids_of(plain, None) == {second["id"], loose["id"]}


def test_lint_observed_reports_what_the_skill_did_at_run_time(claude, fake_api):
    """``spawnkit lint --observed`` on the skill: the rules its run broke (CM001 and CM002:
    long answers, no file written; CM003: no state file; CM005: three sub-agents at once, over
    the cap of two) as
    findings of the tier ``observed`` with the session as evidence, in every format; a skill
    that never ran gets none. The static lint of the same file finds nothing: its words say
    too little."""
    skill_md = hand_written_skill(claude.project / ".claude" / "skills")
    idle_md = hand_written_skill(claude.project / ".claude" / "skills", name="idle-skill")
    n = protocol.max_parallel() + 1
    calls, subs = [], []
    for i in range(1, n + 1):
        name = f"LO-SUB-{i}"
        calls.append(agent(f"{name}: review part {i}.", f"review part {i}", background=False))
        subs.append(
            fake_api.conversation(name, once_started(fake_api, subs, n, long_answer(name, ANSWER)))
        )
    fake_api.conversation(
        "LO-ORCH", tool_use("Skill", {"skill": SKILL}), [text("Reviewers."), *calls], "Done."
    )
    claude.run("LO-ORCH: review the code with the fan-two skill")
    session = audit_by_skill(claude)["sessions"][0]

    def lint(*args: str, exit_code: int = 1) -> str:
        proc = claude.spawnkit("lint", *args, str(skill_md), str(idle_md), check=False)
        assert proc.returncode == exit_code, proc.stderr
        return proc.stdout

    files = {
        Path(f["path"]).parent.name: f
        for f in json.loads(lint("--observed", "--format", "json"))["files"]
    }
    observed = {d["code"]: d for d in files[SKILL]["diagnostics"] if d["tier"] == "observed"}
    # CM003 too: three sub-agents returned and no state file was ever written
    assert set(observed) == {"CM001", "CM002", "CM003", "CM005"}
    assert "count" not in observed and observed["CM001"]["message"].startswith(
        f"broken at run time, {n} times"
    )
    for code, finding in observed.items():
        runs = finding["observed"]
        assert {r["session"] for r in runs} == {session["id"]}
        assert all(r["date"][:19] == session["started"][:19] for r in runs)
        if code == "CM005":
            assert runs[0]["agent"] == f"{n} sub-agents at once" and runs[0]["tokens"] is None
        elif code in ("CM001", "CM002"):
            assert {r["agent"] for r in runs} == {f"review part {i}" for i in range(1, n + 1)}
            assert all(r["tokens"] > protocol.return_budget() for r in runs)
    assert not [d for d in files["idle-skill"]["diagnostics"] if d["tier"] == "observed"]
    static = json.loads(lint("--format", "json", exit_code=0))["files"]
    assert not [d for f in static for d in f["diagnostics"]]  # the words alone say nothing
    # every format carries the tier and the session
    shown = lint("--observed")
    assert "CM005 broken at run time" in shown and "observed]" in shown
    assert f"seen: session {session['id']}" in shown
    sarif = json.loads(lint("--observed", "--format", "sarif"))["runs"][0]["results"]
    seen = [r for r in sarif if r["properties"]["tier"] == "observed"]
    assert {r["ruleId"] for r in seen} == set(observed)
    assert all(r["properties"]["observed"][0]["session"] == session["id"] for r in seen)
    github = lint("--observed", "--format", "github")
    assert github.count("observed).") == 4 and f"Seen: session {session['id']}" in github
