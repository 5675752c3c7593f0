"""Reproduction 3: the hook followed symlinks planted where it writes.

A sub-agent with a shell can write in the project and in the user's config
folder, and the block message tells it its own returns folder. Planted links made
an over-budget SubagentStop overwrite a file outside the project (a link at the
predictable temp name ``.<agent>.<pid>.tmp``, or a linked ``returns`` or session
folder), a link at ``<config>/.spawnkit/sessions/<sid>.json`` got its target
overwritten, and a payload ``cwd`` chose where replies were written. Now every
folder below the project or config folder is opened without following links,
temp files get random names and O_EXCL, files must be plain with one link, and
the project comes from Claude Code, never from the payload.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import unprivileged

from spawnkit.hook import main as hook_main

from .conftest import HOOK

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"
VICTIM = b"a file of the user's, outside the project\n"


def _stop(session: str = "s1", agent: str = "agent1", cwd: str = "") -> dict:
    data = json.loads((PAYLOADS / "SubagentStop_first_blocked.json").read_text())
    data.update(
        session_id=session,
        agent_id=agent,
        stop_hook_active=False,
        last_assistant_message="word " * 4000,  # far over the 500-token budget
        cwd=cwd,
    )
    return data


def _start(session: str = "s1", agent: str = "agent1") -> dict:
    data = json.loads((PAYLOADS / "SubagentStart.json").read_text())
    data.update(session_id=session, agent_id=agent)
    return data


class Setup:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.config = root / "claude"
        self.project = root / "proj"
        self.outside = root / "outside"
        for folder in (self.config, self.project, self.outside):
            folder.mkdir()
        self.victim = self.outside / "victim.txt"
        self.victim.write_bytes(VICTIM)
        self.env = {
            "HOME": str(root),
            "CLAUDE_CONFIG_DIR": str(self.config),
            "CLAUDE_PROJECT_DIR": str(self.project),
            "SPAWNKIT_MODE": "enforce",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }

    def run(self, payload: dict) -> dict | None:
        payload.setdefault("cwd", str(self.project))
        out = hook_main.run(json.dumps(payload).encode(), self.env)
        return json.loads(out) if out else None

    def outside_untouched(self) -> None:
        assert self.victim.read_bytes() == VICTIM
        assert sorted(p.name for p in self.outside.iterdir()) == ["victim.txt"]


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_a_link_at_the_temp_name_is_not_followed(setup: Setup, monkeypatch):
    """The temp name is random (``os.urandom``); made known here, a link is planted exactly where
    the hook's temporary file goes. Opened with O_EXCL and O_NOFOLLOW, it is refused."""
    returns = setup.project / ".spawnkit" / "returns" / "s1"
    returns.mkdir(parents=True)
    monkeypatch.setattr(os, "urandom", lambda n: bytes(range(1, n + 1)))
    planted = returns / f".agent1.spawnkit-tmp-{bytes(range(1, 7)).hex()}.tmp"
    planted.symlink_to(setup.victim)
    answer = setup.run(_stop())
    setup.outside_untouched()
    assert planted.is_symlink() and not (returns / "agent1.md").exists()
    # not saved, so not held back: the reply goes through with a warning, nothing is lost
    assert "decision" not in answer and "could not be saved" in answer["systemMessage"]


def test_the_temp_name_is_where_the_link_test_plants(setup: Setup, monkeypatch):
    """The test above plants at the right name: without the link the reply is saved through
    a temporary file of exactly that name."""
    returns = setup.project / ".spawnkit" / "returns" / "s1"
    returns.mkdir(parents=True)
    monkeypatch.setattr(os, "urandom", lambda n: bytes(range(1, n + 1)))
    made = []
    real_link = os.link

    def link(src, dst, *args, **kwargs):
        made.append(src)
        return real_link(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", link)
    assert setup.run(_stop())["decision"] == "block"
    assert made == [f".agent1.spawnkit-tmp-{bytes(range(1, 7)).hex()}.tmp"]


@pytest.mark.parametrize("linked", ["returns", "session"])
def test_a_linked_returns_or_session_folder_is_not_followed(setup: Setup, linked: str):
    state = setup.project / ".spawnkit"
    if linked == "returns":
        state.mkdir()
        (state / "returns").symlink_to(setup.outside)
    else:
        (state / "returns").mkdir(parents=True)
        (state / "returns" / "s1").symlink_to(setup.outside)
    answer = setup.run(_stop())
    setup.outside_untouched()
    assert "decision" not in answer  # not saved, so not blocked: the reply goes through
    assert "could not be saved" in answer["systemMessage"]


def test_a_linked_session_state_file_is_not_written_through(setup: Setup):
    sessions = setup.config / ".spawnkit" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "s1.json").symlink_to(setup.victim)
    setup.run(_start())
    setup.run(_stop())
    setup.outside_untouched()


def test_a_hard_link_at_the_session_state_file_is_not_written_through(setup: Setup):
    sessions = setup.config / ".spawnkit" / "sessions"
    sessions.mkdir(parents=True)
    os.link(setup.victim, sessions / "s1.json")
    setup.run(_start())
    setup.outside_untouched()


def test_the_payload_cwd_does_not_choose_where_replies_go(setup: Setup, monkeypatch):
    """Without CLAUDE_PROJECT_DIR the project is the folder Claude Code runs the hook in."""
    del setup.env["CLAUDE_PROJECT_DIR"]
    monkeypatch.chdir(setup.project)
    answer = setup.run(_stop(cwd=str(setup.outside)))
    assert answer["decision"] == "block"
    setup.outside_untouched()
    assert (setup.project / ".spawnkit" / "returns" / "s1" / "agent1.md").is_file()


@pytest.mark.parametrize("linked", ["returns", "session"])
def test_as_an_ordinary_user_planted_links_reach_none_of_their_files(linked: str):
    """The same attacks through the real script, run as a user whose files the links target.

    One link at a time: a linked session file makes the state lock fail before the reply is
    saved, so with both planted the returns link would never be reached."""
    root = unprivileged.private_dir()
    try:
        setup = Setup(root)
        (setup.config / ".spawnkit" / "sessions").mkdir(parents=True)
        (setup.project / ".spawnkit").mkdir()
        if linked == "session":
            (setup.config / ".spawnkit" / "sessions" / "s1.json").symlink_to(setup.victim)
        else:
            (setup.project / ".spawnkit" / "returns").symlink_to(setup.outside)
        (setup.config / ".spawnkit" / "hook.log").symlink_to(setup.outside / "log-target")
        unprivileged.give_away(root)
        for payload in (_start(), _stop()):
            payload["cwd"] = str(setup.project)
            proc = unprivileged.run(
                [sys.executable, "-I", "-S", str(unprivileged.script(HOOK))],
                input=json.dumps(payload).encode(),
                capture_output=True,
                env=setup.env,
                cwd=setup.project,
                timeout=60,
            )
            assert proc.returncode == 0, proc.stderr
        # the hook ran (one that failed to start would also exit 0) and refused the planted link
        answer = json.loads(proc.stdout)
        assert "decision" not in answer
        if linked == "session":
            assert "cannot be used safely" in answer["systemMessage"]
        else:  # the state was fine: the hook got as far as saving the reply, and refused
            assert "could not be saved" in answer["systemMessage"]
            assert (setup.config / ".spawnkit" / "sessions" / "s1.json").is_file()
        setup.outside_untouched()
    finally:
        unprivileged.cleanup(root)


def test_the_hook_never_writes_under_the_file_system_root(tmp_path: Path):
    from spawnkit.hook import return_budget

    with pytest.raises(OSError):
        return_budget.save_reply("/", [".spawnkit", "returns", "s"], "a", "text")
    assert not os.path.exists("/.spawnkit/returns/s")


def test_a_killed_hooks_temp_files_are_swept(setup: Setup):
    returns = setup.project / ".spawnkit" / "returns" / "s1"
    returns.mkdir(parents=True)
    stale = returns / ".agent1.spawnkit-tmp-0123456789ab.tmp"
    stale.write_text("half")
    os.utime(stale, (1, 1))  # long ago
    setup.run(_stop())
    assert not stale.exists()
