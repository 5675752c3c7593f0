"""What every rule is: a code, a name, a severity, a doc, and a check.

Protocol rules (CM…) take their name, severity and summary from
``standards/protocol.json`` (the class names only the code) and write the
protocol's numbers in their fix hint as ``{max_parallel}``-style fields, filled
from the same file; spec rules (SP…) carry their own metadata. A rule's doc has
the four parts ``spawnkit rule CODE`` prints: what it does, why it matters, a bad
example and a good one (both complete files the tests lint).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, NamedTuple

from spawnkit import protocol
from spawnkit.lint.analysis import Analysis, analyse
from spawnkit.lint.document import Document
from spawnkit.lint.memo import cached_property

PROFILES = ("claude-code", "portable")
DEFAULT_PROFILE = "claude-code"


class Finding(NamedTuple):
    line: int
    message: str
    fix: str | None = None  # overrides the rule's default fix hint
    col: int = 1


class Context:
    """One file under lint, with its analysis computed on first use."""

    def __init__(self, doc: Document, profile: str) -> None:
        self.doc = doc
        self.profile = profile

    @cached_property
    def analysis(self) -> Analysis:
        return analyse(self.doc)

    @cached_property
    def spec(self) -> dict[str, Any]:
        return protocol.skill_spec()


class Rule:
    """Base class; subclasses set the class attributes and implement :meth:`check`."""

    code: ClassVar[str]
    name: ClassVar[str] = ""
    severity: ClassVar[str] = "error"
    summary: ClassVar[str] = ""
    what: ClassVar[str]
    why: ClassVar[str]
    bad: ClassVar[str]
    good: ClassVar[str]
    fix: ClassVar[str]
    example_path: ClassVar[str] = "skills/demo-audit/SKILL.md"
    protocol_rule: ClassVar[bool] = False  # runs only on orchestrators

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if getattr(cls, "protocol_rule", False):
            data = protocol.rule(cls.code)
            if data is None:
                raise RuntimeError(f"{cls.code} is missing from standards/protocol.json")
            cls.name, cls.severity, cls.summary = data.name, data.severity, data.summary
            # fix hints name the protocol's numbers as {return_budget}, {max_parallel}, ...
            cls.fix = cls.fix.format(**protocol.numbers())

    def check(self, ctx: Context) -> Iterator[Finding]:  # pragma: no cover - abstract
        raise NotImplementedError

    def doc(self) -> str:
        """The text ``spawnkit rule CODE`` prints."""
        return (
            f"{self.code} {self.name} ({self.severity})\n\n{self.summary}\n\n"
            f"## What it does\n{self.what.strip()}\n\n"
            f"## Why is this bad?\n{self.why.strip()}\n\n"
            f"## Example (bad)\n{_indent(self.bad)}\n\n"
            f"## Use instead (good)\n{_indent(self.good)}\n\n"
            f"## Fix\n{self.fix.strip()}\n"
        )


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line else "" for line in text.strip("\n").split("\n"))
