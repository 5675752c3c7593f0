"""Run the end-to-end tests against another client version than the one CI pins.

    python scripts/e2e_claude_version.py [--client NAME] [VERSION] [-- PYTEST ARGS...]

``--client`` is ``claude-code`` (the default), ``gemini`` or ``qwen``. VERSION is an npm version
of the client's package (``@anthropic-ai/claude-code``: ``2.1.332``; ``@google/gemini-cli``;
``@qwen-code/qwen-code``) or ``latest`` (the default: the newest published one, asked of
``npm view``). The client is installed once into ``~/.cache/spawnkit/<package name>-<VERSION>`` (the
folder CI uses for its pinned one), then ``python -m pytest`` runs the client's end-to-end
tests with its ``SPAWNKIT_*_BIN`` pointing at it: for Claude Code every test in tests/e2e but
Codex's, Gemini CLI's and Qwen Code's (the message channel's, ``tests/e2e/test_agent_messages.py``: SendMessage to
main held to the return budget, among them); for Gemini CLI and Qwen Code theirs
(``tests/e2e/test_gemini*.py``, ``test_qwen*.py``, and the audit of both). Arguments after
``--`` go to pytest (``-k workflow``, ``-x``, ``-n 2``, or test files to run instead of all of
them). The exit code is pytest's (0 all passed, 1 failures); 2 when the client cannot be found
or installed (a failed install leaves no folder behind). npm needs the network; the tests
themselves do not.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


class Client:
    """One client the script can fetch: its npm package, binary, variable, pin and tests."""

    def __init__(
        self, name: str, label: str, package: str, binary: str, pinned: str, tests: list[str]
    ) -> None:
        self.name, self.label, self.package = name, label, package
        self.binary, self.pinned, self.tests = binary, pinned, tests
        self.variable = f"SPAWNKIT_{binary.upper()}_BIN"
        self.folder = package.rsplit("/", 1)[-1]  # claude-code, gemini-cli, qwen-code: as CI


# what CI (.ci/run) and the e2e sandboxes pin
CLIENTS = {
    c.name: c
    for c in (
        Client(
            "claude-code",
            "Claude Code",
            "@anthropic-ai/claude-code",
            "claude",
            "2.1.330",
            [
                "tests/e2e",
                "--ignore-glob=tests/e2e/test_codex_*",
                "--ignore-glob=tests/e2e/test_gemini*",
                "--ignore-glob=tests/e2e/test_qwen*",
            ],
        ),
        Client(
            "gemini",
            "Gemini CLI",
            "@google/gemini-cli",
            "gemini",
            "0.61.0",
            ["tests/e2e/test_gemini.py", "tests/e2e/test_gemini_qwen_audit.py", "-k", "gemini"],
        ),
        Client(
            "qwen",
            "Qwen Code",
            "@qwen-code/qwen-code",
            "qwen",
            "0.24.4",
            ["tests/e2e/test_qwen.py", "tests/e2e/test_gemini_qwen_audit.py", "-k", "qwen"],
        ),
    )
}
PACKAGE = CLIENTS["claude-code"].package
PINNED = CLIENTS["claude-code"].pinned
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


def resolve(version: str, client: Client = CLIENTS["claude-code"]) -> str:
    if version == "latest":
        version = npm("view", client.package, "version", timeout=120).splitlines()[-1].strip()
    if not _VERSION.match(version):
        raise Refused(f"{version!r} is not a version like {client.pinned} (or 'latest')")
    return version


def install(version: str, client: Client = CLIENTS["claude-code"]) -> Path:
    """The client's binary, installed into the cache folder when it is not there yet."""
    prefix = CACHE / f"{client.folder}-{version}"
    binary = prefix / "node_modules" / ".bin" / client.binary
    if os.access(binary, os.X_OK):
        return binary
    print(f"installing {client.package}@{version} into {prefix} …", file=sys.stderr, flush=True)
    created = not prefix.exists()
    prefix.mkdir(parents=True, exist_ok=True)
    try:
        spec = f"{client.package}@{version}"
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
        epilog="Examples: python scripts/e2e_claude_version.py latest -- -n 2 -k workflow;"
        " python scripts/e2e_claude_version.py --client qwen latest",
    )
    parser.add_argument("version", nargs="?", default="latest", help="npm version or 'latest'")
    parser.add_argument(
        "--client",
        choices=sorted(CLIENTS),
        default="claude-code",
        help="which client to fetch and test (default: claude-code)",
    )
    args = parser.parse_args(argv)
    client = CLIENTS[args.client]
    try:
        version = resolve(args.version, client)
        binary = install(version, client)
    except Refused as exc:
        print(f"e2e_claude_version: error: {exc}", file=sys.stderr)
        return 2
    shown = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False
    ).stdout.strip()
    print(f"running tests/e2e against {client.label} {shown or version} ({binary})", flush=True)
    # test files named after -- replace the default of every test of the client
    named = [a for a in extra if not a.startswith("-") and (REPO / a.split("::")[0]).exists()]
    default = [] if named else client.tests
    command = [sys.executable, "-m", "pytest", *default, *extra]
    env = {**os.environ, client.variable: str(binary)}
    try:
        return subprocess.run(command, cwd=REPO, env=env, check=False).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
