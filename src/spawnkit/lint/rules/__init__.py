"""The rule registry: every rule, in the order diagnostics are reported."""

from __future__ import annotations

from spawnkit.lint.rules.base import DEFAULT_PROFILE, PROFILES, Context, Finding, Rule
from spawnkit.lint.rules.cm001_return_budget import ReturnBudget
from spawnkit.lint.rules.cm002_results_on_disk import ResultsOnDisk
from spawnkit.lint.rules.cm003_state_file import StateFile
from spawnkit.lint.rules.cm004_resume_check import ResumeCheck
from spawnkit.lint.rules.cm005_max_parallel import MaxParallel
from spawnkit.lint.rules.cm006_no_full_report_reads import NoFullReportReads
from spawnkit.lint.rules.cm007_checkpoint import Checkpoint
from spawnkit.lint.rules.cm008_lean_progress import LeanProgress
from spawnkit.lint.rules.spec_body import BodyTooLong
from spawnkit.lint.rules.spec_conflicts import ConflictMarkers
from spawnkit.lint.rules.spec_description import (
    DescriptionAngleBrackets,
    DescriptionLength,
    DescriptionMissing,
)
from spawnkit.lint.rules.spec_frontmatter import (
    FrontmatterInvalid,
    FrontmatterMissing,
    FrontmatterUnsupported,
)
from spawnkit.lint.rules.spec_keys import CompatibilityLength, UnknownKey
from spawnkit.lint.rules.spec_name import NameFolderMismatch, NameFormat, NameLength, NameMissing
from spawnkit.lint.rules.wf001_script_syntax import ScriptSyntax
from spawnkit.lint.rules.wf002_meta_first import MetaFirst
from spawnkit.lint.rules.wf003_meta_literal import MetaLiteral
from spawnkit.lint.rules.wf004_phase_titles import PhaseTitles
from spawnkit.lint.rules.wf005_deterministic import Deterministic
from spawnkit.lint.rules.wf006_bounded_result import BoundedResult
from spawnkit.lint.rules.wf007_no_whole_answers import NoWholeAnswers
from spawnkit.lint.rules.wf008_parallel_cap import ParallelCap
from spawnkit.lint.rules.wf009_report_file import ReportFile

ALL: tuple[Rule, ...] = (
    FrontmatterMissing(),
    FrontmatterInvalid(),
    FrontmatterUnsupported(),
    NameMissing(),
    NameFormat(),
    NameLength(),
    NameFolderMismatch(),
    DescriptionMissing(),
    DescriptionLength(),
    DescriptionAngleBrackets(),
    UnknownKey(),
    BodyTooLong(),
    CompatibilityLength(),
    ConflictMarkers(),
    ReturnBudget(),
    ResultsOnDisk(),
    StateFile(),
    ResumeCheck(),
    MaxParallel(),
    NoFullReportReads(),
    Checkpoint(),
    LeanProgress(),
    # workflow scripts (.js): Claude Code's format, then the protocol in code
    ScriptSyntax(),
    MetaFirst(),
    MetaLiteral(),
    PhaseTitles(),
    Deterministic(),
    BoundedResult(),
    NoWholeAnswers(),
    ParallelCap(),
    ReportFile(),
)
BY_CODE = {rule.code: rule for rule in ALL}
BY_NAME = {rule.name: rule for rule in ALL}


def get(code_or_name: str) -> Rule | None:
    """A rule by code (``CM005``) or name (``max-parallel``, ``max_parallel``), any case."""
    key = code_or_name.strip()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower().replace("_", "-"))


def selector(token: str) -> str | None:
    """What ``--select``/``ignore`` take: a rule name or code becomes its code, a code prefix
    (``CM``) or ``ALL`` stays as it is; None when it matches no rule."""
    rule = get(token)
    if rule is not None:
        return rule.code
    prefix = token.strip().upper()
    if prefix == "ALL" or (prefix and any(r.code.startswith(prefix) for r in ALL)):
        return prefix
    return None


__all__ = [
    "ALL",
    "BY_CODE",
    "BY_NAME",
    "DEFAULT_PROFILE",
    "PROFILES",
    "Context",
    "Finding",
    "Rule",
    "get",
    "selector",
]
