"""The protocol's numbers and patterns, read from ``standards/protocol.json``.

This is the single source the template, the linter and the hooks share.
Standard library only: the hook path imports it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from spawnkit.resources import protocol_path


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str


@lru_cache(maxsize=4)
def load(path: str | None = None) -> dict[str, Any]:
    """The raw protocol data (cached; pass ``path`` only in tests)."""
    with open(path or protocol_path(), encoding="utf-8") as fh:
        return json.load(fh)


def return_budget() -> int:
    return int(load()["return_budget_tokens"])


def max_parallel() -> int:
    return int(load()["max_parallel"])


def checkpoint_every() -> int:
    return int(load()["checkpoint_every"])


def resume_window_minutes() -> int:
    return int(load()["resume_window_minutes"])


def reports_dir(skill: str) -> str:
    """The reports folder a skill named ``skill`` uses, e.g. ``.demo-reports/``."""
    return load()["reports_dir_pattern"].format(skill=skill)


def rules() -> list[Rule]:
    return [Rule(**r) for r in load()["rules"]]


def rule(code: str) -> Rule | None:
    code = code.upper()
    return next((r for r in rules() if r.code == code), None)


def return_block(budget: int | None = None, report: str = "<reports dir>/<step>.md") -> str:
    """The return contract appended to every sub-agent prompt."""
    data = load()
    fmt = "\n".join(data["return_format"])
    return "\n".join(data["return_block"]).format(
        budget=budget if budget is not None else data["return_budget_tokens"],
        report=report,
        format=fmt,
    )


def handoff_block(
    budget: int | None = None,
    report: str = "<reports dir>/<step>.md",
    handoff: str = "<reports dir>/handoff-<step>.json",
) -> str:
    """The status-only variant: the reply is one status line, the details go to a handoff file."""
    data = load()
    return "\n".join(data["handoff_block"]).format(
        budget=budget if budget is not None else data["return_budget_tokens"],
        report=report,
        handoff=handoff,
        format=data["status_only_format"],
    )


def skill_spec() -> dict[str, Any]:
    return load()["skill_spec"]


def data_file() -> Path:
    return protocol_path()
