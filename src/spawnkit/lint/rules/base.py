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

from spawnkit.lint import calibration
from spawnkit.lint.analysis import Analysis, analyse
from spawnkit.lint.document import Document
from spawnkit.lint.evidence import (
    CALIBRATED,
    DEFAULT,
    PREVIEW,
    TIERS,
    Evidence,
    Family,
    quote,
    tier_of,
)
from spawnkit.lint.memo import cached_property
from spawnkit.standard import protocol

PROFILES = ("claude-code", "portable", "copilot", "gemini", "qwen")
DEFAULT_PROFILE = "claude-code"


class Finding(NamedTuple):
    """What a rule reports, and its grounds.

    ``family`` names the way of reading that produced it (one of the rule's
    :attr:`Rule.families`; its tier decides whether the finding shows by default);
    ``evidence`` lists the places it rests on and ``looked_for`` says what the rule searched
    for and did not find. A protocol finding carries both, so the user sees why.
    """

    line: int
    message: str
    fix: str | None = None  # overrides the rule's default fix hint
    col: int = 1
    severity: str | None = None  # overrides the rule's severity for this finding
    family: str = ""
    evidence: tuple[Evidence, ...] = ()
    looked_for: str = ""


class Context:
    """One file under lint, with its analysis computed on first use."""

    def __init__(self, doc: Document, profile: str) -> None:
        self.doc = doc
        self.profile = profile

    def spawn_evidence(self, limit: int = 2) -> tuple[Evidence, ...]:
        """Where the file spawns sub-agents (its first ``limit`` spawn steps): the ground every
        protocol finding shares, since the protocol rules judge only orchestrators."""
        return self.analysis.spawn_evidence[:limit]

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
    # how sure the rule is (see spawnkit.lint.evidence): the rule's own tier, and the tiers of
    # its ways of reading where they differ; a finding names its family. CALIBRATED: each
    # finding's tier comes from its calibrated probability (spawnkit.lint.calibration)
    tier: ClassVar[str] = DEFAULT
    families: ClassVar[tuple[Family, ...]] = ()
    files: ClassVar[str] = "markdown"  # what it reads: "markdown" or "workflow" (JavaScript)
    # File kinds for which Claude Code fails on (or misreads) what the rule finds. A spec
    # rule's finding is an error for those kinds and for skills under the portable profile
    # (the Agent Skills spec); elsewhere Claude Code 2.1.330 loads the file all the same
    # (tests/e2e/test_frontmatter_client.py), so it is a warning.
    client_fails: ClassVar[tuple[str, ...]] = ("skill", "command", "agent")

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

    def tier_of(self, family: str = "") -> str:
        """The tier of a finding of ``family``: preview when the rule or the family is (a
        calibrated rule's findings take theirs from their probability, in the engine)."""
        if self.tier == PREVIEW:
            return PREVIEW
        return tier_of(self.families, family, self.tier)

    def severity_for(self, ctx: Context) -> str:
        """The severity of this rule's findings in ``ctx`` (see :attr:`client_fails`)."""
        if self.severity != "error" or ctx.doc.kind in self.client_fails:
            return self.severity
        if ctx.profile == "portable" and ctx.doc.kind == "skill":
            return self.severity
        return "warning"

    def severity_label(self) -> str:
        """The severity as the rule tables show it: "error", "warning", or where each applies."""
        if self.tier == PREVIEW and self.severity == "error":
            return "warning (the standard's error once it leaves preview)"
        if self.tier == CALIBRATED and self.severity == "error":
            if calibration.threshold(self.code) is None:
                return "warning (the standard's error once a threshold is reached)"
            return "error where asserted, warning where offered"
        if self.severity != "error" or len(self.client_fails) == 3:
            return self.severity
        where = "".join(f"{k}s, " for k in self.client_fails)
        return f"warning (error for {where}portable skills)"

    def severity_note(self) -> str:
        if self.severity != "error" or len(self.client_fails) == 3:
            return ""
        fails = " and ".join(f"{k}s" for k in self.client_fails)
        where = f"for {fails} (Claude Code does not load them) and " if fails else ""
        return (
            f"\n\nSeverity: error {where}for skills under the portable profile (the Agent Skills "
            "spec); a warning otherwise, because Claude Code loads the file all the same."
        )

    def doc(self) -> str:
        """The text ``spawnkit rule CODE`` prints."""
        tier = "" if self.tier == DEFAULT else f", {self.tier}"
        return (
            f"{self.code} {self.name} ({self.severity}{tier})\n\n{self.summary}\n\n"
            f"## What it does\n{self.what.strip()}\n\n"
            f"## Why is this bad?\n{self.why.strip()}\n\n"
            f"## Example (bad)\n{_indent(self.bad)}\n\n"
            f"## Use instead (good)\n{_indent(self.good)}\n\n"
            f"## Fix\n{self.fix.strip()}{self.severity_note()}\n{self.tier_note()}"
        )

    def tier_label(self) -> str:
        """The tier as the rule tables show it: "default", "preview", or which readings are."""
        if self.tier == CALIBRATED:
            t = calibration.threshold(self.code)
            if t is None:
                return "calibrated: preview (no threshold reaches the target precision)"
            return f"calibrated: default from p ≥ {t:.2f}"
        preview = [f.name for f in self.families if f.tier == PREVIEW]
        if self.tier == PREVIEW or not preview:
            return self.tier
        return f"default; preview: {', '.join(preview)}"

    def tier_note(self) -> str:
        """The rule's tier and its families' tiers, for ``spawnkit rule``."""
        if self.tier == CALIBRATED:
            return calibrated_note(self)
        if self.tier == PREVIEW:
            head = (
                "\n## Tier: preview\nOffered, not asserted: its findings show with --preview "
                f"or `--select {self.code}`, and are warnings.\n"
            )
        elif any(f.tier == PREVIEW for f in self.families):
            head = "\n## Tier: default, with preview readings\n"
        else:
            return ""
        rows = "".join(f"- {f.name} ({self.tier_of(f.name)}): {f.what}\n" for f in self.families)
        return head + rows


def calibrated_note(rule: Rule) -> str:
    """``spawnkit rule``'s account of a calibrated rule: the threshold and, for each reading,
    its precision cross-validated on the labelled corpus (repositories left out)."""
    fitted = calibration.part(rule.code)
    t = calibration.threshold(rule.code)
    target = calibration.model().get("target_precision", 0.95)
    files = calibration.model().get("corpus_files", "the")
    head = "\n## Tier: calibrated\n"
    if t is None:
        head += (
            f"No threshold reaches a cross-validated precision of {target} on {files} labelled "
            "real files: every finding is offered (preview, a warning) with its probability.\n"
        )
    else:
        cv = fitted.get("cv", {})
        head += (
            f"A finding is asserted (default) only where the file is asserted to start "
            f"sub-agents and the finding's probability of being right is at least {t:.2f}: the "
            f"threshold whose precision, cross-validated on {files} labelled real files with "
            f"each file's repository left out of the fit, is {target}"
        )
        if cv.get("precision") is not None and cv.get("recall") is not None:
            head += f" (there: precision {cv['precision']:.2f}, recall {cv['recall']:.2f})"
        head += ". Below it the finding is offered with --preview. Each finding shows its probability.\n"
    head += "Readings (precision on the labelled files where the reading fires):\n"
    rows = ""
    for f in rule.families:
        measured = calibration.reading_precision(rule.code, f.name)
        fires = fitted.get("reading_files", {}).get(f.name)
        if measured is None:
            said = "fired on no labelled file: not calibrated, so always offered"
        elif f.name not in fitted.get("readings", ()):
            said = f"{measured:.2f} on {fires} files, too few to calibrate: always offered"
        else:
            said = f"{measured:.2f} on {fires} files"
        rows += f"- {f.name} ({said}): {f.what}\n"
    return head + rows


__all__ = [
    "CALIBRATED",
    "DEFAULT",
    "PREVIEW",
    "TIERS",
    "Context",
    "Evidence",
    "Family",
    "Finding",
    "Rule",
    "quote",
]


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line else "" for line in text.strip("\n").split("\n"))
