"""Run a workflow script with stubbed ``agent()`` calls, before any token is spent.

The script runs in quickjs-ng (an embedded JavaScript engine: no files, no network, no Node
API — the same sandbox a workflow has), in a child process of its own under hard limits
(``spawnkit.workflow.sandbox``), with the workflow globals stubbed: ``agent()`` answers, after
a turn of the event loop, with the largest answer its schema allows (every string at its
``maxLength``, every array at its ``maxItems``; without a schema, a free-text answer of
``FREE_TEXT_CHARS`` characters, marked unbounded); ``parallel()`` and ``pipeline()`` behave as
Claude Code documents them; ``Date.now()``, ``Math.random()`` and an argument-less
``new Date()`` throw, as there. Agents finish one at a time, oldest first, so the most agents
in flight at once is what the script itself lets start together. The counts are kept by the
host side of ``agent()`` (Python, in the child), out of the script's reach.

What comes out: how many agents ran, the most in flight at once, and the size of the returned
value with those worst-case answers, against the standard's cap and return budget.

Bounds, all of them on the whole run (reading the script, compiling it, running it and turning
its result into JSON): ``--seconds`` of wall clock (the child's own timer ends it at the
deadline, its CPU limit soon after, and the parent kills its process group ``GRACE`` later
whatever happens), the child's address space (``ADDRESS_SPACE``, of which the engine's heap is
``HEAP``), the engine's stack, a result nested at most ``bounded.MAX_DEPTH`` levels and at most
``MAX_RESULT_CHARS`` long, and Claude Code's own 1,000 agents per run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from spawnkit.base.shown import shown  # the one output gate, for the script's own text
from spawnkit.errors import SpawnkitError
from spawnkit.files import bounded

FREE_TEXT_CHARS = 4000
MAX_AGENTS = 1000  # Claude Code's cap per workflow run
ADDRESS_SPACE = 256 * 1024 * 1024  # the whole child process: its RSS cannot pass this
HEAP = 192 * 1024 * 1024  # the engine's own allocations, inside ADDRESS_SPACE
STACK_BYTES = 1024 * 1024
MAX_RESULT_CHARS = 1_000_000  # Claude Code passes on at most 100,000 characters of a result
DEFAULT_SECONDS = 10.0
GRACE = 1.0  # seconds past the deadline before the child is killed (its own stop comes first)
HEAD_CHARS = 64 * 1024  # a longer script: only its head is parsed here, to find the meta
ENGINE = "quickjs-ng"
SANDBOX = Path(__file__).resolve().with_name("sandbox.py")

EXIT_SIGNALS = {signal.SIGKILL, getattr(signal, "SIGXCPU", 0), getattr(signal, "SIGALRM", 0)} - {0}

# How to add the engine to each kind of install (it is a default dependency wherever
# quickjs-ng publishes a wheel; elsewhere it builds from source with a C compiler).
INSTALL_ENGINE = (
    "pip install quickjs-ng (in spawnkit's environment), pipx inject spawnkit quickjs-ng, "
    "or uv tool install --force --with quickjs-ng <what you installed: spawnkit, or . in a clone>"
)


class Run(NamedTuple):
    agents: int
    peak: int  # most agents in flight at once
    result: str | None  # the returned value as JSON (None: nothing returned)
    unbounded: int  # answers (or parts) with no size bound in their schema
    phases: list[str]
    notes: list[str]
    error: str | None  # what the script threw, or why it did not finish
    threw: bool = False  # the error is the script's own exception (else a limit stopped it)


def too_slow(seconds: float) -> SpawnkitError:
    return SpawnkitError(
        f"the script did not finish within {seconds:g} s, reading and serialising its result "
        "included (a loop that never ends?); raise the limit with --seconds"
    )


def body_of(text: str, seconds: float = DEFAULT_SECONDS) -> str:
    """The script with its leading ``export`` dropped (a workflow's body runs as a function).

    A script of up to ``HEAD_CHARS`` characters (every real one) is parsed whole with
    tree-sitter, as lint does, and refused on a syntax error; of a longer one only the head is
    parsed, to find the ``export const meta`` statement, and the engine judges the rest in the
    sandbox: parsing 4 MB with tree-sitter takes seconds and hundreds of MB here, out of the
    child's limits."""
    from spawnkit.lint.workflow import parse
    from spawnkit.lint.workflow.script import Script, meta_declarator

    whole = len(text) <= HEAD_CHARS
    head = text if whole else text[:HEAD_CHARS]
    parsed = parse.parse(head, seconds)
    if parsed.tree is None:
        if parsed.problem and parsed.problem.startswith("parsing it took longer"):
            raise too_slow(seconds)
        raise SpawnkitError(f"the script could not be read: {parsed.problem}")
    script = Script(parsed.source, parsed.tree)
    if whole and script.error is not None:
        line, _ = script.position(script.error)
        raise SpawnkitError(
            f"the script is not plain JavaScript (line {line}); run `spawnkit lint` on it first"
        )
    statements = script.statements
    first = statements[0] if statements else None
    # in a head, the first statement is whole once the parser has read past its end
    settled = whole or (
        first is not None
        and not first.has_error
        and any(node.start_byte >= first.end_byte for node in script.root.named_children)
    )
    if first is None or meta_declarator(first, parsed.source) is None or not settled:
        raise SpawnkitError(
            "the script does not start with `export const meta = {…}`; run `spawnkit lint` on it"
        )
    keyword = first.child(0)  # `export`; the head's bytes are the start of the whole script's
    source = text.encode("utf-8", "surrogatepass")
    out = source[: keyword.start_byte] + source[keyword.end_byte :]
    return out.decode("utf-8", "replace")


def engine() -> str:
    """The file of quickjs-ng's ``_quickjs`` extension (the sandbox loads it by path: the old
    ``quickjs`` package ships a module of the same name, which must not stand in for it)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(ENGINE)
    except metadata.PackageNotFoundError:
        old = _installed("quickjs")
        raise SpawnkitError(
            "`spawnkit workflow check` needs the quickjs-ng package"
            + (
                " (the quickjs package installed here is its unmaintained predecessor, which a"
                " hostile script can crash)"
                if old
                else ", which is not installed here"
            )
            + f"; install it: {INSTALL_ENGINE}"
        ) from None
    for entry in dist.files or ():
        name = entry.name
        if name.startswith("_quickjs.") and name.endswith((".so", ".pyd")):
            path = Path(str(dist.locate_file(entry)))
            if path.is_file():
                return str(path)
    raise SpawnkitError(
        f"the quickjs-ng package is installed but its engine file is missing; reinstall it: "
        f"{INSTALL_ENGINE}"
    )


def _installed(name: str) -> bool:
    from importlib import metadata

    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def run(text: str, args: Any = None, seconds: float = DEFAULT_SECONDS) -> Run:
    """Run the workflow script ``text`` with stubbed agents (see the module docstring)."""
    deadline = time.monotonic() + seconds
    body = body_of(text, seconds)
    request = {
        "engine": engine(),
        "body": body,
        "args": json.dumps(args) if args is not None else None,
        "seconds": max(0.0, deadline - time.monotonic()),
        "address_space": ADDRESS_SPACE,
        "heap": HEAP,
        "stack": STACK_BYTES,
        "max_agents": MAX_AGENTS,
        "free_chars": FREE_TEXT_CHARS,
        "max_depth": bounded.MAX_DEPTH,
        "max_result": MAX_RESULT_CHARS,
    }
    reply = _sandboxed(request, deadline, seconds)
    if reply.get("stop") == "syntax":
        line = reply.get("line") or 0
        where = f"line {line}: " if line else ""
        raise SpawnkitError(
            f"the script is not plain JavaScript ({where}{shown(str(reply.get('error')))}); "
            "run `spawnkit lint` on it first"
        )
    return Run(
        int(reply.get("agents") or 0),
        int(reply.get("peak") or 0),
        reply.get("result"),
        int(reply.get("unbounded") or 0),
        [str(p) for p in reply.get("phases", [])],
        [str(n) for n in reply.get("notes", [])],
        reply.get("error") or None,
        bool(reply.get("threw")),
    )


def _sandboxed(request: dict[str, Any], deadline: float, seconds: float) -> dict[str, Any]:
    """The child's reply to ``request``; the child is killed at ``deadline`` (plus ``GRACE``)
    and on any way out of here (Ctrl-C and SIGTERM included)."""
    if not sys.executable:
        raise SpawnkitError(
            "no Python interpreter to run the sandbox with (sys.executable is empty)"
        )
    posix = os.name == "posix"
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(SANDBOX)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=posix,
    )
    try:
        left = max(0.0, deadline - time.monotonic()) + GRACE
        out, err = proc.communicate(json.dumps(request).encode("utf-8"), timeout=left)
    except subprocess.TimeoutExpired:
        raise too_slow(seconds) from None
    finally:
        if proc.poll() is None:
            _kill(proc, posix)
    code = proc.returncode
    if code == 0:
        try:
            reply = json.loads(out)
        except ValueError:
            reply = None
        if isinstance(reply, dict):
            return reply
    if code is not None and code < 0 and -code in EXIT_SIGNALS:
        raise too_slow(seconds)  # the CPU limit, the alarm, or the kernel's OOM killer's kill
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        raise SpawnkitError(
            f"the JavaScript engine crashed on this script ({name}); nothing else was affected;"
            " please report it with the script"
        )
    last = shown(err.decode("utf-8", "replace").strip().splitlines()[-1]) if err.strip() else ""
    raise SpawnkitError(
        f"the sandbox process failed (exit {code}{': ' + last[:200] if last else ''}); "
        "please report it with the script"
    )


def _kill(proc: subprocess.Popen, posix: bool) -> None:
    try:
        if posix:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
