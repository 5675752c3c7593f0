"""CM004 resume-check: at start-up, resume from a recent unfinished state file."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.patterns import Gated, lazy
from spawnkit.lint.rules.base import DEFAULT, PREVIEW, Context, Family, Finding, Rule
from spawnkit.lint.rules.cm003_state_file import runs_steps, state_evidence, state_places

_RESUME = Gated(
    lazy(
        r"\bresum(?:e|es|ing)\b|\bpick(?:s|ing)?\s+up\b|\bcontinue\s+(?:from|with)\b|\bleft\s+off\b"
        r"|\bskip\b[^.;]{0,50}\b(?:completed|finished|done)\b|\bunfinished\b|\bincomplete\b|\b-mmin\b"
        r"|\balready\s+(?:done|completed|finished|marked)\b",
        re.I,
    ),
    *("resum", "pick", "continue", "left", "skip", "unfinished", "incomplete", "-mmin", "already"),
    exact=True,
)


NO_RESUME = "no-resume"


class ResumeCheck(Rule):
    code = "CM004"
    protocol_rule = True
    tier = PREVIEW  # below 0.9 precision on the tuning half (docs/lint-accuracy.md)
    families = (Family(NO_RESUME, DEFAULT, "a state file that nothing reads back at start-up"),)
    what = """
Checks that an orchestrator with a state file looks for a recent unfinished one
at start-up and resumes from it (skipping completed steps) instead of starting
over. Judged only once a state file exists — without one, CM003 reports the root
cause. A reference to the installed standard counts.
"""
    why = """
A state file nobody reads back does not save any work: after a reset the skill
would redo every completed sub-agent.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Create `.demo-audit-reports/state-<timestamp>.json` and update it after every package.

For each package, one at a time, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""
    good = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
At start, look for `.demo-audit-reports/state-*.json` younger than 2 hours that is
unfinished and resume from it; otherwise create a new one. Update it after every package.

For each package, one at a time, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""

    fix = (
        "At start-up, look for an unfinished state file from the last {resume_window_minutes} "
        "minutes and resume from its next step."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        if not runs_steps(a) or a.references_standard:
            return
        places = state_places(a)
        if not places:
            return
        if any(_RESUME.search(s.text, s.lower) for s in a.prose) or any(
            _RESUME.search(b.text, b.lower) for b in a.shell_blocks
        ):
            return
        yield Finding(
            places[0][0],
            "the state file is never checked at start-up to resume an unfinished run",
            family=NO_RESUME,
            evidence=state_evidence(places),
            looked_for='a start-up step that resumes an unfinished run ("resume", "pick up '
            'where it left off", "skip completed steps", "continue from")',
        )
