"""CM006 no-full-report-reads: the orchestrator never reads sub-agents' reports back."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import AGENT_NOUN, NEGATION, STATE_FILE, imperative
from spawnkit.lint.patterns import Gated, lazy
from spawnkit.lint.rules.base import Context, Finding, Rule

_READ = Gated(
    lazy(r"\b(read|open|load|cat|ingest|view|parse|go\s+through|look\s+(?:at|through))\b", re.I),
    *("read", "open", "load", "cat", "ingest", "view", "parse", "go", "look"),
    exact=True,
)
_REPORT = lazy(
    r"[\w.{}$<>*-]*-reports?/|\breports?\b|\bfindings\s+files?\b|\boutput\s+files?\b", re.I
)
_PARTIAL = lazy(
    r"\b(?:first|last)\s+\d+\s+lines?\b|\bhead\b|\btail\b|\bonly\s+the\s+(?:summary|status|first)\b"
    r"|\bgrep\s+-c\b|\bwc\b",
    re.I,
)
_SHELL_READ = lazy(r"^\s*(?:cat|less|more|bat)\s+[^|>\n]*reports?/[^|>\n]*$", re.I | re.M)


class NoFullReportReads(Rule):
    code = "CM006"
    protocol_rule = True
    what = """
Finds instructions to the orchestrator itself to read, open, load or `cat` the
report files its sub-agents wrote. A sub-agent that reads earlier reports (for
example a final "merge" sub-agent) is fine, and so are partial reads such as
`head -n 5` or the state file.
"""
    why = """
Reading a report back pulls the full text into the orchestrator's context —
exactly what the short return was meant to avoid. The reply already carries
what the orchestrator needs; the user reads the reports.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start. One sub-agent at a time.

For each package, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```

Then read `.demo-audit-reports/{package}.md` and summarise it for the user.
"""
    good = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start. One sub-agent at a time.

For each package, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```

Tell the user the counts from the reply and the report path; do not open the report.
"""
    fix = (
        "Work from the sub-agent's short reply; leave the full report to the user, or hand it to "
        "another "
        "sub-agent (e.g. a final merge step) with its own return cap."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        for s in a.prose:
            if "report" not in s.lower and "findings" not in s.lower and "output" not in s.lower:
                continue
            for m in _READ.finditer(s.text, s.lower):
                obj = s.text[m.end() : m.end() + 90]
                if not _REPORT.search(obj) or STATE_FILE.search(obj) or _PARTIAL.search(s.text):
                    continue
                if not imperative(s.text, m.start()) or NEGATION.search(obj.split(",")[0]):
                    continue
                if AGENT_NOUN.search(s.text[: m.start()].split(",")[-1]):
                    continue  # "a sub-agent that reads …", "ask the sub-agent to read …"
                yield Finding(
                    a.report_line(s.block, s.line),
                    "the orchestrator reads a sub-agent's full report back into its own context",
                )
                break
        for block in a.shell_blocks:
            m = _SHELL_READ.search(block.text)
            if m and not STATE_FILE.search(m.group(0)):
                line = block.line_of(m.start() + len(m.group(0)) - len(m.group(0).lstrip()))
                yield Finding(
                    a.report_line(block, line),
                    "this command prints sub-agents' full reports into the orchestrator's context",
                )
