"""``spawnkit lint``: find the files, lint each, render the report, return the exit code."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import TextIO

from spawnkit import reading
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, SpawnkitError
from spawnkit.lint import config as lint_config
from spawnkit.lint.discovery import default_roots, discover
from spawnkit.lint.engine import FileResult, lint_document
from spawnkit.lint.report import render
from spawnkit.lint.rules import selector


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
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    cwd = cwd or Path.cwd()
    if config_path is not None and not os.path.lexists(config_path):
        raise SpawnkitError(
            f"config file {config_path} does not exist; pass an existing .spawnkit.toml or "
            f"pyproject.toml"
        )
    cfg = lint_config.load(config_path or lint_config.find(cwd))
    for path in paths:
        _check_given(path)
    roots = paths or default_roots(cwd)
    if not roots:
        err.write(
            "spawnkit: nothing to lint: no path given and neither the Claude config dir nor "
            "./.claude exists\n"
        )
    files = list(discover(roots, cfg.exclude))
    if roots and not files:
        err.write(
            "spawnkit: no SKILL.md, commands/*.md or agents/*.md found under "
            + ", ".join(str(r) for r in roots)
            + "\n"
        )
    results: list[FileResult] = []
    unreadable = 0
    for path in files:
        try:
            text = reading.read_text(path)
        except SpawnkitError as exc:
            err.write(f"spawnkit: error: {exc}\n")
            unreadable += 1
            continue
        results.append(
            lint_document(
                text,
                _display(path, cwd),
                profile=profile or cfg.profile,
                select=select if select is not None else cfg.select,
                ignore=(ignore or []) + (cfg.ignore or []) if (ignore or cfg.ignore) else None,
                reader="pyyaml",
            )
        )
    text = render(results, fmt, unreadable)
    if text:
        out.write(text + "\n")
    if unreadable:
        return EXIT_USAGE
    return EXIT_FINDINGS if any(r.diagnostics for r in results) else EXIT_OK


def _check_given(path: Path) -> None:
    """A path named on the command line is a folder to search or a regular file to lint."""
    if not os.path.lexists(path):
        raise SpawnkitError(
            f"{path} does not exist; pass a SKILL.md, a commands/ or agents/ file, or a folder"
        )
    try:
        info = path.stat()
    except OSError as exc:
        raise SpawnkitError(reading.open_error(str(path), exc)) from None
    if stat.S_ISDIR(info.st_mode):
        if not os.access(path, os.R_OK | os.X_OK):
            raise SpawnkitError(
                f"cannot read the folder {path}: permission denied; check its permissions"
            )
    elif not stat.S_ISREG(info.st_mode):
        raise SpawnkitError(
            f"{path} is not a regular file (a pipe, socket or device); pass a SKILL.md or a folder"
        )


def _display(path: Path, cwd: Path) -> str:
    """Paths relative to the working directory when below it, as given otherwise."""
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)
