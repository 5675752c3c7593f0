"""``spawnkit lint``: find the files, lint each, render the report, return the exit code."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from spawnkit.base.shown import shown
from spawnkit.errors import ERROR_PREFIX, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, SpawnkitError
from spawnkit.files import bounded, contain, reading
from spawnkit.lint import config as lint_config
from spawnkit.lint.discovery import Walk, default_roots, discover, is_lintable, location_profile
from spawnkit.lint.engine import FileResult, lint_document
from spawnkit.lint.report import render
from spawnkit.lint.rules import selector

if TYPE_CHECKING:
    from collections.abc import Callable


def split_codes(values: tuple[str, ...] | list[str] | None) -> list[str] | None:
    """``("CM001,CM002", "SP")`` -> ``["CM001", "CM002", "SP"]``; None when not given."""
    if not values:
        return None
    codes = []
    for token in (c.strip() for v in values for c in v.split(",")):
        if not token:
            continue
        code = selector(token)
        if code is None:
            raise SpawnkitError(
                f"--select/--ignore: {token!r} is neither a rule name nor a code prefix; run "
                "'spawnkit rule' for the list"
            )
        codes.append(code)
    return codes


# what an option left out means; the click command and the plain fast path both use these
DEFAULTS: dict[str, object] = {
    "fmt": "text",
    "select": None,
    "ignore": None,
    "profile": None,
    "config_path": None,
    "max_file_size": None,
    "pre_commit": False,
    "preview": None,
    "observed": False,
    "since": None,
}


def size_option(value: str | None) -> int | None:
    """``--max-file-size`` in bytes; a usage error when it is not a size."""
    if value is None:
        return None
    try:
        return lint_config.parse_size(value)
    except ValueError:
        raise SpawnkitError(
            f"--max-file-size {value!r} is not a size; use e.g. 4MB, 500k or 1000000"
        ) from None


def run(
    paths: list[Path],
    fmt: str = "text",
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    profile: str | None = None,
    config_path: Path | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    cwd: Path | None = None,
    max_file_size: int | None = None,
    pre_commit: bool = False,
    preview: bool | None = None,
    observed: bool = False,
    since: str | None = None,
) -> int:
    """Lint ``paths`` (or the default roots); the exit code.

    ``observed``: also the rules each skill broke in its runs, as ``spawnkit audit`` reads them
    from this user's transcripts (``since`` a date or 7d-style age), in the tier ``observed``.

    ``preview``: show the preview tier's findings too (None: as the config file says, off by
    default); a preview rule selected by its exact code or name shows either way.

    ``pre_commit``: the mode the pre-commit hook runs in. Files pre-commit passes that Claude
    Code would not load (an ``agents/`` file outside ``.claude/``, a plugin or the config dir)
    are skipped without a word, and a commit with nothing to check passes.
    """
    out = out or sys.stdout
    err = err or sys.stderr

    def say(line: str) -> None:
        """One line on stderr through the output gate (paths and messages come from files)."""
        err.write(shown(line) + "\n")

    cwd = cwd or Path.cwd()
    if select is not None and not select:
        raise SpawnkitError("--select '' selects no rule; name codes or prefixes, e.g. CM,SP")
    if since is not None and not observed:
        raise SpawnkitError("--since goes with --observed: add --observed, or leave --since out")
    if config_path is not None and not os.path.lexists(config_path):
        raise SpawnkitError(
            f"config file {config_path} does not exist; pass an existing .spawnkit.toml or "
            f"pyproject.toml"
        )
    found = None if config_path is not None else lint_config.find(cwd)
    cfg = lint_config.load(config_path or found, found.parent if found else None)
    limit = max_file_size or cfg.max_file_size or lint_config.DEFAULT_MAX_FILE_SIZE
    use_preview = bool(cfg.preview) if preview is None else preview
    for path in paths:
        _check_given(path)
    roots = paths or default_roots(cwd)
    if not roots:
        err.write(
            "spawnkit: nothing to lint: no path given and neither the Claude config dir, "
            "./.claude nor a Codex skills folder exists\n"
        )
        return EXIT_USAGE
    seen = {}
    if observed:
        from spawnkit.commands import observed as runs

        seen = runs.observations(since)  # before any output: a bad --since writes nothing
    walk = Walk()
    named = [p for p in paths if not p.is_dir()]
    if pre_commit:
        roots = [p for p in roots if p.is_dir() or is_lintable(p)]
    files = list(discover(roots, cfg.exclude, walk, cwd))
    for path, reason in walk.unreadable:
        say(f"spawnkit: warning: cannot read folder {path}: {reason}; it was not checked")
    for path in walk.cycles:
        say(
            f"spawnkit: warning: {path} links back to a folder already checked (or one"
            " holding it); skipped"
        )
    if walk.stopped:
        say(f"spawnkit: warning: {walk.stopped}")
    results: list[FileResult] = []
    unreadable = 0
    # files not linted on purpose (links out of the project, special, too big): warnings
    skips: list[str] = [str(contain.outside(path, root)) for path, root in walk.outside]
    for path in files:
        text, problem, skipped = _read(path, limit)
        if problem is not None:
            if skipped:
                skips.append(problem)
            else:
                say(f"{ERROR_PREFIX}{problem}")
                unreadable += 1
            continue
        try:
            result = lint_document(
                text or "",
                _display(path, cwd),
                profile=profile or cfg.profile or location_profile(path),
                select=select if select is not None else cfg.select,
                ignore=(ignore or []) + (cfg.ignore or []) if (ignore or cfg.ignore) else None,
                reader="pyyaml",
                preview=use_preview,
            )
        except (
            bounded.OverLimit
        ) as exc:  # too deep or an alias bomb: it cannot be judged: one line (naming it)
            say(f"{ERROR_PREFIX}{exc}")
            unreadable += 1
            continue
        except SpawnkitError as exc:  # a workflow script with no JavaScript parser installed
            say(f"{ERROR_PREFIX}{path}: {exc}")
            unreadable += 1
            continue
        if seen:
            result = _with_runs(result, seen, path, select, ignore, cfg)
        results.append(result)
    if not results and not unreadable:
        if pre_commit:  # nothing to check passes, but what was skipped is still said
            _warn_skips(skips, say)
            return EXIT_OK
        if len(skips) == 1:  # one line saying it all
            say(f"{ERROR_PREFIX}no file was checked: {skips[0]}")
            return EXIT_USAGE
        _warn_skips(skips, say)
        say(_why_nothing(roots, named, walk, len(skips)))
        return EXIT_USAGE
    _warn_skips(skips, say)
    if results and not unreadable:  # exit 2 writes nothing, not even the cache
        from spawnkit.lint import regexcache

        regexcache.save()  # patterns compiled in this run, for the next one (see regexcache)
    text = render(results, fmt, unreadable + len(skips))
    if text:
        out.write(text + "\n")
    if unreadable:
        return EXIT_USAGE
    return EXIT_FINDINGS if any(r.diagnostics for r in results) else EXIT_OK


_SHOWN_SKIPS = 20  # a project planting thousands of links gets a count, not a screenful


def _warn_skips(skips: list[str], say: Callable[[str], None]) -> None:
    for skip in skips[:_SHOWN_SKIPS]:
        say(f"spawnkit: warning: {skip}")
    if len(skips) > _SHOWN_SKIPS:
        say(f"spawnkit: warning: … and {len(skips) - _SHOWN_SKIPS:,} more files skipped")


def _with_runs(result, seen, path: Path, select, ignore, cfg):  # noqa: ANN001, ANN202
    """``result`` with the rules its skill broke at run time, within ``--select``/``--ignore``."""
    from spawnkit.commands import observed as runs
    from spawnkit.lint import observed
    from spawnkit.lint.engine import selected

    chosen = select if select is not None else cfg.select
    dropped = (ignore or []) + (cfg.ignore or []) if (ignore or cfg.ignore) else None
    kept = [o for o in runs.for_file(seen, path) if selected(o.code, chosen, dropped)]
    return observed.add(result, kept)


def _read(path: Path, limit: int) -> tuple[str | None, str | None, bool]:
    """(text, None, False), or (None, why it was not linted, whether it was skipped on purpose).

    The one reader of user files (``reading``) never opens a FIFO or device named like a
    skill (it would hang the run), and reads at most ``limit`` bytes.
    """
    try:
        return reading.read_text(path, limit=limit), None, False
    except reading.NotRegular:
        return None, f"{path} {reading.NOT_REGULAR}; skipped", True
    except reading.TooLarge as exc:
        return (
            None,
            f"{path} has {exc.size:,} bytes, over the {limit:,}-byte limit; skipped (raise it "
            "with --max-file-size or max-file-size in the config)",
            True,
        )
    except SpawnkitError as exc:
        return None, str(exc), False


def _why_nothing(roots: list[Path], named: list[Path], walk: Walk, skipped: int) -> str:
    """One line saying why a run checked no file, and what to do."""
    if skipped:
        return f"{ERROR_PREFIX}no file was checked: every file found was skipped (see above)"
    for path in named:
        if path.suffix not in (".md", ".js"):
            return (
                f"{ERROR_PREFIX}{path} is neither Markdown nor a workflow script (.js); pass a "
                "SKILL.md, a workflow .js, a commands/ or "
                "agents/ .md file, or a folder"
            )
    if walk.unreadable and len(walk.unreadable) >= len([r for r in roots if r.is_dir()]):
        return (
            f"{ERROR_PREFIX}no file was checked: the folder could not be read; check its "
            "permissions"
        )
    where = ", ".join(str(r) for r in roots)
    hint = ""
    if walk.not_agents:
        hint = (
            f" ({walk.not_agents[0]} is under agents/ but not in .claude/, a plugin or the "
            "Claude config dir, so it is not a Claude Code agent)"
        )
    return (
        f"{ERROR_PREFIX}no SKILL.md, commands/*.md, agents/*.md or workflow script found under "
        f"{where}{hint}; "
        "pass a skill, command or agent file, or a folder holding them"
    )


def _check_given(path: Path) -> None:
    """A path named on the command line is a folder to search or a regular file to lint."""
    if not os.path.lexists(path):
        raise SpawnkitError(
            f"{path} does not exist; pass a SKILL.md, a commands/ or agents/ file, or a folder"
        )
    if not path.exists():
        return  # a dangling link: reported when it is read
    if path.is_file():
        return  # an unreadable file is reported when it is read, with the others
    reading.check_named(path, "pass a SKILL.md or a folder")


def _display(path: Path, cwd: Path) -> str:
    """Paths relative to the working directory when below it, as given otherwise.

    Links are not resolved: a skill linked into ``~/.claude/skills`` shows where it was found.
    """
    import os

    here = os.path.abspath(cwd)
    absolute = os.path.abspath(path)
    if absolute.startswith(here + os.sep):
        return absolute[len(here) + 1 :]
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)
