"""The harness works with the real client: answers, hooks, foreground and background agents."""

from __future__ import annotations

from .fake_api import agent, text, tool_use


def test_plain_answer_round_trips(claude, fake_api):
    fake_api.conversation("SMOKE-PLAIN", "The scripted answer, verbatim.")

    run = claude.run("SMOKE-PLAIN: say something")

    assert run.result == "The scripted answer, verbatim."
    (req,) = fake_api.messages_requests("SMOKE-PLAIN")
    assert req.query == "beta=true" and req.body["stream"] is True
    assert "SMOKE-PLAIN: say something" in req.last_user_text
    assert {"Agent", "Skill", "Bash", "Write"} <= set(req.tools)
    assert fake_api.unmatched == []


def test_unscripted_request_gets_a_harmless_answer_and_is_recorded(claude, fake_api):
    run = claude.run("nobody scripted this")

    assert run.result == "Done."
    (req,) = fake_api.unmatched
    assert req.conversation is None and req.reply == [text("Done.")]


def test_raw_settings_hooks_fire_on_pretooluse_agent_and_subagent_stop(claude, fake_api):
    record = claude.recorder("raw")
    claude.write_settings(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Agent|Task",
                        "hooks": [{"type": "command", "command": record, "timeout": 10}],
                    }
                ],
                "SubagentStop": [
                    {"hooks": [{"type": "command", "command": record, "timeout": 10}]}
                ],
            }
        }
    )
    call = agent("SMOKE-SUB: count the files", background=False)
    fake_api.conversation("SMOKE-HOOKS", call, "main done")
    fake_api.conversation("SMOKE-SUB", "There are 3 files.")

    claude.run("SMOKE-HOOKS: delegate")

    (pre,) = claude.recorded("raw", "PreToolUse")
    assert (
        pre["tool_name"] == "Agent" and pre["tool_input"]["prompt"] == "SMOKE-SUB: count the files"
    )
    (stop,) = claude.recorded("raw", "SubagentStop")
    assert stop["last_assistant_message"] == "There are 3 files."
    assert stop["agent_id"] and stop["stop_hook_active"] is False


def test_foreground_agent_runs_a_scripted_subagent_and_returns_to_the_parent(claude, fake_api):
    call = agent("SMOKE-FG: write a marker file", background=False)
    main = fake_api.conversation("SMOKE-MAIN", [text("delegating"), call], "all done")
    bash = tool_use(
        "Bash", {"command": "echo from-subagent > marker.txt", "description": "write marker"}
    )
    sub = fake_api.conversation("SMOKE-FG", bash, "Marker written.")

    run = claude.run("SMOKE-MAIN: go")

    assert run.result == "all done"
    assert (claude.project / "marker.txt").read_text().strip() == "from-subagent"
    assert [r.turn for r in sub.requests] == [0, 1]
    assert sub.requests[1].tool_result(bash["id"]) is not None
    # The parent's very next request carries exactly the sub-agent's final message.
    nxt = main.request_with_agent_result(call["id"])
    assert nxt.turn == 1 and nxt.agent_result(call["id"]) == "Marker written."


def test_background_agents_reach_the_parent_as_notifications(claude, fake_api):
    one = agent("SMOKE-BG-ONE: task", background=True)
    two = agent("SMOKE-BG-TWO: task", background=True)
    main = fake_api.conversation("SMOKE-BG-MAIN", [one, two], "waiting for both")
    fake_api.conversation("SMOKE-BG-ONE", "result one")
    fake_api.conversation("SMOKE-BG-TWO", "result two")

    claude.run("SMOKE-BG-MAIN: fan out")

    launched = main.requests[1]
    assert launched.tool_result(one["id"]).text.startswith("Async agent launched")
    assert launched.agent_result(one["id"]) is None
    assert main.request_with_agent_result(one["id"]).agent_result(one["id"]) == "result one"
    assert main.request_with_agent_result(two["id"]).agent_result(two["id"]) == "result two"
