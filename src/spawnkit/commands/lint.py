"""``spawnkit lint``: find the files, lint each, render the report, return the exit code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, SpawnkitError
from spawnkit.lint import config as lint_config
from spawnkit.lint.discovery import default_roots, discover
from spawnkit.lint.engine import FileResult, lint_document
from spawnkit.lint.report import render
from spawnkit.lint.rules import ALL


def split_codes(values: tuple[str, ...] | list[str] | None) -> list[str] | None:
    """``("CM001,CM002", "SP")`` -> ``["CM001", "CM002", "SP"]``; None when not given."""
    if not values:
        return None
    codes = [c.strip().upper() for v in values for c in v.split(",") if c.strip()]
    for code in codes:
        if code != "ALL" and not any(rule.code.startswith(code) for rule in ALL):
            raise SpawnkitError(
                f"--select/--ignore: no rule code starts with {code!r}; run 'spawnkit rule' for "
                f"the list"
            )
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
    if config_path is not None and not config_path.is_file():
        raise SpawnkitError(
            f"config file {config_path} does not exist; pass an existing .spawnkit.toml or "
            f"pyproject.toml"
        )
    cfg = lint_config.load(config_path or lint_config.find(cwd))
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise SpawnkitError(
            f"{missing[0]} does not exist; pass a SKILL.md, a commands/ or agents/ file, or a "
            f"folder"
        )
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
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            err.write(
                f"spawnkit: error: cannot read {path}: {reason}; check the file's permissions and "
                f"encoding\n"
            )
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


def _display(path: Path, cwd: Path) -> str:
    """Paths relative to the working directory when below it, as given otherwise."""
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)
