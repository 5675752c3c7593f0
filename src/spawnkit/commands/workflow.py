"""``spawnkit workflow check``: run a workflow script with stubbed agents and report its cost."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from spawnkit.base.shown import shown
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.files import bounded, reading
from spawnkit.standard import protocol

MAX_SCRIPT_BYTES = 4 * 1024 * 1024
JSON_VERSION = 1


def check(
    path: Path,
    args_json: str | None = None,
    as_json: bool = False,
    seconds: float | None = None,
    out: TextIO | None = None,
) -> int:
    """Exit 0 when the run stays within the cap and the return budget, 1 when it does not (or
    the script throws), 2 when it cannot be run at all."""
    from spawnkit.tokens import estimate
    from spawnkit.workflow import check as checker

    out = out or sys.stdout
    if path.suffix != ".js":
        raise SpawnkitError(f"{path} is not a workflow script; pass a .js file")
    # a script in the project (or named inside it) must not lead out of it: never opened
    root = managed_root(path)
    text = reading.read_text(path, limit=MAX_SCRIPT_BYTES, root=root)
    args = None
    if args_json is not None:
        try:
            args = bounded.json_loads(args_json, "--args")
        except json.JSONDecodeError as exc:
            raise SpawnkitError(
                f"--args is not JSON ({exc.msg}); e.g. --args '{{\"skip\": []}}'"
            ) from None
    run = checker.run(text, args, seconds if seconds is not None else checker.DEFAULT_SECONDS)
    cap, budget, source = limits(path, root)
    tokens = estimate(run.result) if run.result is not None else 0
    problems = []
    if run.error:
        problems.append(f"the script threw: {run.error}" if run.threw else run.error)
    if run.peak > cap:
        problems.append(f"{run.peak} agents ran at once, over the cap of {cap}")
    if tokens > budget:
        problems.append(f"the result is ~{tokens:,} tokens, over the {budget}-token return budget")
    if as_json:
        data = {
            "version": JSON_VERSION,
            "path": str(path),
            "agents": run.agents,
            "peak_concurrency": run.peak,
            "max_parallel": cap,
            "result_chars": len(run.result) if run.result is not None else 0,
            "result_tokens": tokens,
            "return_budget": budget,
            "limits_from": source,
            "unbounded_answers": run.unbounded,
            "phases": run.phases,
            "notes": run.notes,
            "error": run.error,
            "problems": problems,
        }
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        origin = "" if source == "standard" else f"; limits from the skill's {source}"
        size = (
            f"result {len(run.result):,} characters, ~{tokens:,} tokens (budget {budget})"
            if run.result is not None
            else "no result"
        )
        at_least = (
            f"; {run.unbounded} answer part(s) have no size bound, so the result can be larger"
            if run.unbounded
            else ""
        )
        # each line through the output gate: the path, the script's notes and what it threw
        lines = [
            f"{path}: {run.agents} agent{'s' * (run.agents != 1)}, at most {run.peak} at once "
            f"(cap {cap}); {size}{at_least}{origin}",
            *(f"note: {note}" for note in run.notes),
            *(f"problem: {problem}" for problem in problems),
        ]
        out.write("".join(shown(line) + "\n" for line in lines))
    return EXIT_FINDINGS if problems else EXIT_OK


def managed_root(path: Path) -> Path | None:
    """The folder reads for the script ``path`` keep to (``managed.read_root``)."""
    from spawnkit.template import managed

    return managed.read_root(path, Path.cwd())


def limits(path: Path, root: Path | None = None) -> tuple[int, int, str]:
    """(cap, return budget, where they come from) for the script at ``path``.

    A workflow.js that spawnkit generated sits beside its skill's answers file, whose
    ``max_parallel`` and ``return_budget`` are the limits that skill promises (a skill may ask
    for less than the standard); anything else is held to the standard's numbers.
    """
    from spawnkit.template import managed

    cap, budget = protocol.max_parallel(), protocol.return_budget()
    try:
        skill = managed.read_skill(path.absolute().parent, "path", root)
    except (SpawnkitError, OSError):
        skill = None  # an answers file spawnkit cannot read does not decide the limits
    if skill is None:
        return cap, budget, "standard"
    own_cap, own_budget = skill.answers.get("max_parallel"), skill.answers.get("return_budget")
    if not (_positive(own_cap) and _positive(own_budget)):
        return cap, budget, "standard"
    return min(own_cap, cap), min(own_budget, budget), skill.answers_file.name


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
