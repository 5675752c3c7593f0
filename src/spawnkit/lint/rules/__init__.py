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
)
BY_CODE = {rule.code: rule for rule in ALL}


def get(code: str) -> Rule | None:
    return BY_CODE.get(code.strip().upper())


__all__ = ["ALL", "BY_CODE", "DEFAULT_PROFILE", "PROFILES", "Context", "Finding", "Rule", "get"]
