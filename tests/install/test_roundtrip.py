"""install → install again → uninstall over settings.json files shaped like real ones.

For every variant: the first install keeps every user key, hook and their
order and satisfies Claude Code's hook schema; the second changes no byte
anywhere; uninstall gives back the original settings.json byte for byte and
leaves no spawnkit file behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs

from .conftest import run_cli, snapshot, without_backups

RECORDER = "python3 ~/.claude/hooks/log_agents.py"

STATUS_LINE = {"type": "command", "command": "~/.claude/statusline.sh", "padding": 0}
PERMISSIONS = {
    "allow": ["Bash(git status:*)", "Bash(npm run test:*)", "Read(~/notes/**)"],
    "deny": ["Read(./.env)", "Bash(rm -rf:*)"],
    "defaultMode": "acceptEdits",
}


def _dump(data: object, indent: int | str | None = 2, newline: bool = True) -> bytes:
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    return (text + ("\n" if newline else "")).encode("utf-8")


def _user_hooks() -> dict:
    """Hooks a user already has on the very events and matchers spawnkit uses."""
    return {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard-bash"}]},
            {
                "matcher": "Agent|Task",
                "hooks": [{"type": "command", "command": RECORDER, "timeout": 5}],
            },
        ],
        "PostToolUse": [
            {
                "matcher": "Write|Edit|MultiEdit",
                "hooks": [{"type": "command", "command": 'prettier --write "$FILE"'}],
            },
        ],
        "SubagentStop": [{"hooks": [{"type": "command", "command": RECORDER}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    }


def _many_hooks() -> dict:
    """A power user's file: dozens of hooks over many events (what careless installers wiped)."""
    hooks: dict[str, list] = {}
    for event in (
        "PreToolUse",
        "PostToolUse",
        "SessionStart",
        "Stop",
        "Notification",
        "UserPromptSubmit",
        "PreCompact",
        "SubagentStop",
    ):
        hooks[event] = [
            {
                "matcher": m,
                "hooks": [{"type": "command", "command": f"~/h/{event}-{i}.sh", "timeout": 30}],
            }
            for i, m in enumerate(("Bash", "Read", "Write|Edit", "Agent|Task", "Glob"))
        ]
    return hooks


VARIANTS: dict[str, bytes | None] = {
    "missing file": None,
    "empty file": b"",
    "only a newline": b"\n",
    "empty object": b"{}",
    "empty object, newline": b"{}\n",
    "claude code defaults": _dump(
        {
            "$schema": "https://json.schemastore.org/claude-code-settings.json",
            "model": "opus",
            "feedbackSurveyState": {"lastShownTime": 1},
        }
    ),
    "permissions env statusLine model, 4 spaces": _dump(
        {
            "permissions": PERMISSIONS,
            "env": {"ANTHROPIC_MODEL": "claude-opus-4-1", "DEBUG": "1"},
            "statusLine": STATUS_LINE,
            "model": "sonnet",
            "includeCoAuthoredBy": False,
        },
        indent=4,
    ),
    "tab indent": _dump({"model": "haiku", "env": {"FOO": "bar"}}, indent="\t"),
    "no trailing newline": _dump({"model": "opus", "permissions": PERMISSIONS}, newline=False),
    "CRLF line endings": _dump({"model": "opus", "env": {"A": "1"}}).replace(b"\n", b"\r\n"),
    "unicode raw and escaped": (
        '{\n  "env": {"GREETING": "grüß dich – 你好 🚀", "ESC": "caf\\u00e9"},\n'
        '  "model": "opus"\n}\n'
    ).encode(),
    "user hooks on the same events and matchers": _dump({"model": "opus", "hooks": _user_hooks()}),
    "user hooks, 4 spaces, hooks first": _dump(
        {"hooks": _user_hooks(), "model": "opus", "env": {"X": "y"}}, indent=4
    ),
    "dozens of user hooks": _dump(
        {"permissions": PERMISSIONS, "hooks": _many_hooks(), "statusLine": STATUS_LINE}
    ),
    "empty hooks object": _dump({"model": "opus", "hooks": {}}),
    "empty event lists": _dump({"hooks": {"PreToolUse": [], "SubagentStop": []}}),
    "minified on one line": json.dumps(
        {
            "model": "opus",
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say hi"}]}]},
        },
        separators=(",", ":"),
    ).encode(),
    "one line with spaces": b'{ "model" : "opus" , "env" : { "A" : "1" } }\n',
    "byte order mark": b"\xef\xbb\xbf" + _dump({"model": "opus"}),
    "blank lines and odd spacing": (
        b'{\n\n  "model":   "opus",\n\n\n  "env": {\n      "A": "1"\n  }\n}\n\n'
    ),
    "escapes in strings": _dump(
        {"env": {"WIN": "C:\\\\Users\\\\me", "Q": 'say "hi"', "URL": "http://x/y"}, "model": "opus"}
    ),
    "mixed group: user hook beside a matcher spawnkit uses": _dump(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Agent|Task",
                        "hooks": [
                            {"type": "command", "command": RECORDER},
                            {
                                "type": "prompt",
                                "prompt": "Is this agent call safe? $ARGUMENTS",
                                "timeout": 20,
                            },
                        ],
                    },
                    {
                        "matcher": "Read",
                        "hooks": [
                            {"type": "command", "command": "audit-read", "if": "Read(./secrets/**)"}
                        ],
                    },
                ]
            }
        }
    ),
    "plugins and marketplaces": _dump(
        {
            "enabledPlugins": {"formatter@tools": True},
            "extraKnownMarketplaces": {
                "tools": {"source": {"source": "github", "repo": "acme/tools"}}
            },
            "cleanupPeriodDays": 30,
            "disableAllHooks": False,
        }
    ),
    "trailing whitespace after the object": b'{\n  "model": "opus"\n}   \n\n',
}


def _parsed(data: bytes | None) -> dict:
    if data is None or not data.strip():
        return {}
    return json.loads(data.decode("utf-8").lstrip("\ufeff"))


def test_there_are_at_least_twenty_variants():
    assert len(VARIANTS) >= 20


@pytest.mark.parametrize("name", list(VARIANTS))
def test_install_twice_then_uninstall_gives_back_the_original(
    cfg: Path, name: str, validate_settings
):
    original = VARIANTS[name]
    settings = cfg / "settings.json"
    if original is not None:
        settings.write_bytes(original)

    first = run_cli("install", "--config-dir", str(cfg))
    assert first.exit_code == 0, first.output

    data = validate_settings(settings)
    before = _parsed(original)
    # every user key survives, in order, with its value
    assert [k for k in data if k != "hooks"] == [k for k in before if k != "hooks"]
    assert {k: v for k, v in data.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    # every user hook survives, in order, ahead of spawnkit's
    for event, groups in before.get("hooks", {}).items():
        assert data["hooks"][event][: len(groups)] == groups
    # spawnkit's entries are all there, once each
    mine = [
        (e, g.get("matcher"), h["timeout"])
        for e, gs in data["hooks"].items()
        for g in gs
        for h in g["hooks"]
        if regs.is_managed(h.get("command"))
    ]
    assert sorted(mine, key=str) == sorted(
        ((r.event, r.matcher, r.timeout) for r in regs.registrations()), key=str
    )
    if original and b"\r\n" in original:
        assert b"\n" not in settings.read_bytes().replace(b"\r\n", b"")

    installed = snapshot(cfg)
    second = run_cli("install", "--config-dir", str(cfg))
    assert second.exit_code == 0, second.output
    assert "already installed and up to date" in second.stdout
    assert snapshot(cfg) == installed

    gone = run_cli("uninstall", "--config-dir", str(cfg))
    assert gone.exit_code == 0, gone.output
    if original is None:
        assert not settings.exists()
    else:
        assert settings.read_bytes() == original
    assert set(without_backups(snapshot(cfg))) == (
        {"settings.json"} if original is not None else set()
    )
