"""A cloned repository built to turn spawnkit's reads on its user (issue 30), and how to watch
a run of spawnkit over it: its output, its time and its peak memory.

The secrets live outside the project (the user's ``~/.netrc``, ``~/.profile``, a private key,
a skill-shaped Markdown file and a script that parse cleanly, so lint would quote them as
evidence); the project links to them where lint, doctor, ``update --check``, ``workflow
check`` and ``audit`` look. A run passes when no secret reaches any of its output.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SECRETS = {
    "netrc": "machine github.com login octo password SECRET-NETRC-7f1e9a\n",
    "profile": "export GITHUB_TOKEN=SECRET-TOKEN-51ab0c\n",
    "id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-b3c2d4e5\n",
    "skill.md": (
        "---\nname: s\ndescription: Reviews SECRET-MD-d41f every file with helpers.\n---\n\n"
        "Use the Task tool to spawn a sub-agent for each SECRET-MD-d41f file and read its"
        " full report.\n"
    ),
    "script.js": (
        'export const meta = { name: "SECRET-JS-aa01" };\n'
        'const parts = await parallel([1, 2, 3].map(() => agent("SECRET-JS-aa01 " + "x")));\n'
        "return parts;\n"
    ),
    "settings.json": json.dumps(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Read",
                        "hooks": [
                            {
                                "type": "command",
                                "command": "echo SECRET-SETTINGS-77aa # spawnkit-managed:v1",
                            }
                        ],
                    }
                ]
            },
            "enabledPlugins": {"spawnkit@SECRET-PLUGIN-1234": True},
        }
    ),
    "spawnkit.json": json.dumps(
        {"version": 1, "mode": "warn", "agents": {"SECRET-AGENT-KEY-9c": "off"}}
    ),
    "config.toml": 'select = ["SECRET-TOML-1a2b"]\n',
    "answers.yml": "_commit: SECRET-ANSWERS-0d0d\n_src_path: SECRET-SRC-0e0e\nmax_parallel: 3\n",
    "transcript.jsonl": json.dumps(
        {"type": "user", "sessionId": "SECRET-SESSION-5151", "message": "SECRET-JSONL-5151"}
    )
    + "\n",
}
SECRET = re.compile(r"SECRET-[A-Z]+")

# control characters no text output may carry raw: C0 but LF (and tab, which spawnkit never
# lays out itself), DEL, C1, the bidirectional controls, the Unicode line separators
RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def outside_secrets(folder: Path) -> dict[str, Path]:
    """Every secret as a file of the user's in ``folder`` (outside the project), by name."""
    folder.mkdir(parents=True, exist_ok=True)
    found = {}
    for name, text in SECRETS.items():
        path = folder / name
        path.write_text(text)
        found[name] = path
    skills = folder / "skills-folder" / "held"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text(SECRETS["skill.md"])
    (skills / ".copier-answers.yml").write_text(SECRETS["answers.yml"])
    found["skills-folder"] = folder / "skills-folder"
    found["skill-folder"] = skills
    return found


CLEAN_SKILL = """---
name: clean
description: Reviews the code with helpers, one per folder.
---

# clean

Spawn 2 agents in parallel, one per folder. Each replies in at most 300 tokens and writes
its full report to reports/<folder>.md.
"""


def plant(project: Path, secret: dict[str, Path]) -> dict[str, Path]:
    """Links from every place a read-only command reads in ``project`` to the secrets; a clean
    skill beside them so the run has something to check. Returns the links by role."""
    claude = project / ".claude"
    for sub in ("skills/clean", "skills/wf", "skills/s", "skills/m", "workflows", "agents"):
        (claude / sub).mkdir(parents=True, exist_ok=True)
    (claude / "commands").mkdir(exist_ok=True)
    (claude / "skills" / "clean" / "SKILL.md").write_text(CLEAN_SKILL)
    (claude / "skills" / "wf" / "SKILL.md").write_text(CLEAN_SKILL.replace("clean", "wf"))
    (claude / "skills" / "m" / "SKILL.md").write_text(CLEAN_SKILL.replace("clean", "m"))
    links = {
        "workflow script": (claude / "workflows" / "x.js", secret["netrc"]),
        "parsing workflow script": (claude / "workflows" / "y.js", secret["script.js"]),
        "skill workflow.js": (claude / "skills" / "wf" / "workflow.js", secret["profile"]),
        "SKILL.md": (claude / "skills" / "s" / "SKILL.md", secret["skill.md"]),
        "agent": (claude / "agents" / "a.md", secret["skill.md"]),
        "command": (claude / "commands" / "c.md", secret["id_rsa"]),
        "skill folder": (claude / "skills" / "linked", secret["skill-folder"]),
        "answers file": (claude / "skills" / "m" / ".copier-answers.yml", secret["answers.yml"]),
        "settings": (claude / "settings.json", secret["settings.json"]),
        "config": (claude / "spawnkit.json", secret["spawnkit.json"]),
        "root": (claude / "skills" / "root", Path("/")),
    }
    for link, target in links.values():
        link.symlink_to(target)
    return {role: link for role, (link, _) in links.items()}


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float

    @property
    def text(self) -> str:
        return self.out + self.err


# Runs one command and reports its exit code, output and peak memory: the one child this
# process waits for is the command itself, so RUSAGE_CHILDREN is its own high-water mark.
_WATCH = r"""
import json, resource, subprocess, sys
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                      timeout=float(sys.argv[1]))
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps([proc.returncode, proc.stdout, proc.stderr, peak]))
"""


def watched(*args: str, cwd: Path, timeout: float = 120, env: dict | None = None) -> Run:
    """``spawnkit ARGS`` as its own process in ``cwd``: output, wall time and peak RSS (MB)."""
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _WATCH, str(timeout), sys.executable, "-m", "spawnkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env if env is not None else dict(os.environ),
        timeout=timeout + 30,
        check=False,
    )
    seconds = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr  # the watcher itself (a timeout is a failure)
    code, out, err, peak = json.loads(proc.stdout)
    return Run(code, out, err, seconds, peak)


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.text and "internal error" not in run.text, run.text
