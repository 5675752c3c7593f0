"""The protocol's numbers and patterns, read from ``standards/protocol.json``.

This is the single source the template, the linter and the hooks share.
Standard library only and import-light: the hook imports it on every tool call,
so it avoids ``json``, ``dataclasses``, ``typing`` and ``pathlib`` at import time
(see ``spawnkit.base.fastjson``).
"""

from __future__ import annotations

from spawnkit.base import fastjson
from spawnkit.standard.resources import protocol_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Rule:
    """One rule of the standard (code, kebab-case name, severity, one-line summary)."""

    __slots__ = ("code", "name", "severity", "summary")

    def __init__(self, code: str, name: str, severity: str, summary: str) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.summary = summary

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __hash__(self) -> int:
        return hash((self.code, self.name, self.severity, self.summary))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__)
        return f"Rule({fields})"


_cache: dict[str, dict[str, Any]] = {}


def load(path: str | None = None) -> dict[str, Any]:
    """The raw protocol data (cached; pass ``path`` only in tests)."""
    key = path or protocol_file()
    data = _cache.get(key)
    if data is None:
        data = _cache[key] = fastjson.load_file(key)
    return data


def return_budget() -> int:
    return int(load()["return_budget_tokens"])


def max_parallel() -> int:
    return int(load()["max_parallel"])


def checkpoint_every() -> int:
    return int(load()["checkpoint_every"])


def resume_window_minutes() -> int:
    return int(load()["resume_window_minutes"])


def numbers() -> dict[str, int]:
    """The protocol's numbers by name, for texts written as ``{max_parallel}`` templates."""
    return {
        "return_budget": return_budget(),
        "max_parallel": max_parallel(),
        "checkpoint_every": checkpoint_every(),
        "resume_window_minutes": resume_window_minutes(),
    }


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
