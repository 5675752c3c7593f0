"""SCRATCH (not committed): what the real client sends for workflows and TaskStop."""
from __future__ import annotations
import json, re
from .fake_api import agent, text, tool_use

EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStart", "SubagentStop",
          "UserPromptSubmit", "Stop", "PostToolBatch"]

def _record_all(claude):
    rec = claude.recorder("all")
    hooks = {}
    for ev in EVENTS:
        group = {"hooks": [{"type": "command", "command": rec, "timeout": 10}]}
        if ev.startswith(("Pre", "PostToolUse")):
            group["matcher"] = "*"
        hooks[ev] = [group]
    claude.write_settings({"hooks": hooks})

def _dump(claude, name):
    out = claude.recorded("all")
    with open(f"/tmp/i20-explore-{name}.json", "w") as fh:
        json.dump(out, fh, indent=1)

SCRIPT = """export const meta = { name: 'probe-wf', description: 'probe workflow' }
const a = await agent('WFX-PLAIN: audit every module.', {label: 'plain'})
const b = await agent('WFX-TYPED: explore the code.', {label: 'typed', agentType: 'Explore'})
return { a: (a || '').length, b: (b || '').length }"""

def test_workflow(claude, fake_api):
    _record_all(claude)
    wf = tool_use("Workflow", {"script": SCRIPT})
    main = fake_api.conversation("WFX-ORCH", wf, "Waiting.", "All done.")
    fake_api.conversation("WFX-PLAIN", "PLAIN-ANSWER " + "x" * 3000)
    fake_api.conversation("WFX-TYPED", "TYPED-ANSWER")
    run = claude.run("WFX-ORCH: run it")
    _dump(claude, "workflow")
    with open("/tmp/i20-explore-workflow-reqs.txt", "w") as fh:
        for r in main.requests:
            fh.write(f"--- turn {r.turn}\n{r.new_text[:3000]}\n")
        fh.write("TOOLS: " + ",".join(main.requests[0].tools))

def test_taskstop(claude, fake_api):
    _record_all(claude)
    one = agent("TSX-ONE: long task", "long one", background=True)
    two = agent("TSX-TWO: long task", "long two", background=True)
    main = fake_api.conversation("TSX-ORCH", [one, two])
    subs = [fake_api.conversation("TSX-ONE"), fake_api.conversation("TSX-TWO")]
    search = tool_use("ToolSearch", {"query": "select:TaskStop", "max_results": 1})
    ids = {}
    def after_launch(req):
        assert fake_api.wait_for(lambda: all(s.requests for s in subs), timeout=60)
        return search
    def stops(req):
        for call in (one, two):
            res = req.tool_result(call["id"])
            m = re.search(r"agentId: (\w+)", res.text) if res else None
            ids[call["id"]] = m.group(1) if m else None
        return [tool_use("TaskStop", {"task_id": ids[one["id"]]}), tool_use("TaskStop", {"task_id": ids[two["id"]]})]
    main.then(after_launch, stops, "stopped both", "done")
    def hang(req):
        fake_api.wait_for(lambda: len(main.requests) >= 4, timeout=40)
        return "SUB-LATE"
    for s in subs:
        s.then(hang)
    run = claude.run("TSX-ORCH: go", check=False)
    _dump(claude, "taskstop")
    with open("/tmp/i20-explore-taskstop-reqs.txt", "w") as fh:
        for r in main.requests:
            fh.write(f"--- turn {r.turn}\n{r.new_text[:3000]}\n")
        fh.write(f"TOOLS: {','.join(main.requests[0].tools)}\nrc={run.returncode}\n{run.stderr[-2000:]}")


def test_bg_lists_and_ups_output(claude, fake_api):
    rec = claude.recorder("all")
    ups = claude.root / "ups.py"
    ups.write_text("import sys,json\nd=json.load(sys.stdin)\nif d.get('prompt','').startswith('<task-notification>'):\n    print(json.dumps({'hookSpecificOutput':{'hookEventName':'UserPromptSubmit','additionalContext':'CTX-MARK-UPS'},'systemMessage':'SYS-MARK-UPS'}))\n")
    import sys
    hooks = {}
    for ev in EVENTS:
        group = {"hooks": [{"type": "command", "command": rec, "timeout": 10}]}
        if ev.startswith(("Pre", "PostToolUse")):
            group["matcher"] = "*"
        hooks[ev] = [group]
    hooks["UserPromptSubmit"][0]["hooks"].append({"type": "command", "command": f"{sys.executable} {ups}", "timeout": 10})
    claude.write_settings({"hooks": hooks})
    one = agent("BGX-ONE: task", "bg one", background=True)
    two = agent("BGX-TWO: task", "bg two", background=True)
    main = fake_api.conversation("BGX-ORCH", [one, two], "waiting", "got one", "got two", "end")
    s1 = fake_api.conversation("BGX-ONE")
    s2 = fake_api.conversation("BGX-TWO")
    s1.then(lambda req: (fake_api.wait_for(lambda: bool(s2.requests), timeout=30), "RESULT-ONE " + "y" * 100)[1])
    s2.then(lambda req: (fake_api.wait_for(lambda: len(main.requests) >= 3, timeout=30), "RESULT-TWO")[1])
    run = claude.run("BGX-ORCH: go", check=False)
    _dump(claude, "bglists")
    with open("/tmp/i20-explore-bglists-reqs.txt", "w") as fh:
        for r in main.requests:
            fh.write(f"--- turn {r.turn}\n{r.new_text[-1500:]}\n")
        fh.write(f"rc={run.returncode}\n{run.stderr[-2000:]}\nSYS={run.system_messages()}")


SKILL = """---
name: hookskill
description: HOOKSKILL probe
hooks:
  UserPromptSubmit:
    - hooks:
        - type: command
          command: REC
  Stop:
    - hooks:
        - type: command
          command: REC
  PostToolUse:
    - matcher: "Agent|Task|TaskStop|Workflow"
      hooks:
        - type: command
          command: REC
---
Body of hookskill. Launch things.
"""


def test_frontmatter_events(claude, fake_api):
    rec = claude.recorder("fm")
    d = claude.config_dir / "skills" / "hookskill"
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(SKILL.replace("REC", json.dumps(rec)))
    one = agent("FMX-ONE: task", "fm one", background=True)
    main = fake_api.conversation("FMX-ORCH", tool_use("Skill", {"skill": "hookskill"}), one, "waiting", "end")
    fake_api.conversation("FMX-ONE", "RESULT-FM")
    run = claude.run("FMX-ORCH: go", check=False)
    with open("/tmp/i20-explore-fm.json", "w") as fh:
        json.dump(claude.recorded("fm"), fh, indent=1)
