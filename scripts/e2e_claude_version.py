"""Run the end-to-end tests against another Claude Code version than the one CI pins.

    python scripts/e2e_claude_version.py [VERSION] [-- PYTEST ARGS...]

VERSION is an npm version of ``@anthropic-ai/claude-code`` (``2.1.332``) or ``latest``
(the default: the newest published one, asked of ``npm view``). The client is installed
once into ``~/.cache/spawnkit/claude-code-<VERSION>`` (the folder CI uses for its pinned
one), then ``python -m pytest tests/e2e`` runs with ``SPAWNKIT_CLAUDE_BIN`` pointing at it;
Codex's tests are left out; every Claude Code scenario runs, the message channel's
(``tests/e2e/test_agent_messages.py``: SendMessage to main held to the return budget) among
them. Arguments after ``--`` go to pytest (``-k workflow``, ``-x``, ``-n 2``, or test files to
run instead of all of them). The exit code is pytest's (0 all
passed, 1 failures); 2 when the client cannot be found or installed (a failed install leaves
no folder behind). npm needs the network; the tests themselves do not.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"
PINNED = "2.1.330"  # what CI and tests/e2e/sandbox.py pin
REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("SPAWNKIT_CLIENT_CACHE", Path.home() / ".cache" / "spawnkit"))
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+([.+-][0-9A-Za-z.-]+)?$")


class Refused(Exception):
    """A one-line reason to stop (exit 2)."""


def npm(*args: str, timeout: float) -> str:
    try:
        proc = subprocess.run(
            ["npm", *args], capture_output=True, text=True, timeout=timeout, check=False
        )
    except FileNotFoundError:
        raise Refused("npm is not installed; install Node.js and npm first") from None
    except subprocess.TimeoutExpired:
        raise Refused(f"npm {args[0]} did not finish within {timeout:.0f} s") from None
    if proc.returncode != 0:
        last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise Refused(f"npm {' '.join(args)} failed: {last[0]}")
    return proc.stdout.strip()


def resolve(version: str) -> str:
    if version == "latest":
        version = npm("view", PACKAGE, "version", timeout=120).splitlines()[-1].strip()
    if not _VERSION.match(version):
        raise Refused(f"{version!r} is not a version like {PINNED} (or 'latest')")
    return version


def install(version: str) -> Path:
    """The client's binary, installed into the cache folder when it is not there yet."""
    prefix = CACHE / f"claude-code-{version}"
    binary = prefix / "node_modules" / ".bin" / "claude"
    if os.access(binary, os.X_OK):
        return binary
    print(f"installing {PACKAGE}@{version} into {prefix} …", file=sys.stderr, flush=True)
    created = not prefix.exists()
    prefix.mkdir(parents=True, exist_ok=True)
    try:
        spec = f"{PACKAGE}@{version}"
        npm("install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec, timeout=900)
        if not os.access(binary, os.X_OK):
            raise Refused(f"{binary} is missing after npm install")
    except BaseException:
        if created:  # a failed or stopped install leaves nothing behind
            shutil.rmtree(prefix, ignore_errors=True)
        raise
    return binary


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(
        prog="scripts/e2e_claude_version.py",
        description=__doc__.split("\n\n")[0],
        epilog="Example: python scripts/e2e_claude_version.py latest -- -n 2 -k workflow",
    )
    parser.add_argument("version", nargs="?", default="latest", help="npm version or 'latest'")
    args = parser.parse_args(argv)
    try:
        version = resolve(args.version)
        binary = install(version)
    except Refused as exc:
        print(f"e2e_claude_version: error: {exc}", file=sys.stderr)
        return 2
    shown = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False
    ).stdout.strip()
    print(f"running tests/e2e against Claude Code {shown or version} ({binary})", flush=True)
    # test files named after -- replace the default of every Claude Code test
    named = [a for a in extra if not a.startswith("-") and (REPO / a.split("::")[0]).exists()]
    default = [] if named else ["tests/e2e", "--ignore-glob=tests/e2e/test_codex_*"]
    command = [sys.executable, "-m", "pytest", *default, *extra]
    env = {**os.environ, "SPAWNKIT_CLAUDE_BIN": str(binary)}
    try:
        return subprocess.run(command, cwd=REPO, env=env, check=False).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
