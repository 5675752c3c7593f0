"""CM006 no-full-report-reads: the orchestrator never reads sub-agents' reports back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from spawnkit.lint.analysis import AGENT_NOUN, NEGATION, STATE_FILE, imperative
from spawnkit.lint.patterns import Gated, Keywords, lazy
from spawnkit.lint.rules.base import Context, Finding, Rule

_READ = Gated(
    lazy(
        r"\b(reads?|opens?|loads?|cat|ingests?|view|parse|go\s+through|look\s+(?:at|through))\b",
        re.I,
    ),
    *("read", "open", "load", "cat", "ingest", "view", "parse", "go", "look"),
    exact=True,
)
_REPORT = lazy(
    r"[\w.{}$<>*-]*-reports?/|\breports?\b|\bfindings\s+files?\b|\boutput\s+files?\b"
    # what sub-agents wrote, by another name: "all task notes", "each agent's output"
    r"|\b(?:sub-?agents?|subagents?|agents?|workers?|reviewers?|task|their)(?:'s|s')?\s+"
    r"(?:[\w-]+\s+)?(?:notes|outputs?|results?\s+files?|findings|files)\b",
    re.I,
)
# the orchestrator itself, named as an agent: "the lead agent reads …"
_SELF = lazy(r"\b(?:lead|main|parent|orchestrat\w*|coordinat\w*|primary)\s+agent\s*$", re.I)
# a report pasted into a later prompt: "[Include the scan results]", "insert the full contents of"
_PASTE_SLOT = lazy(
    r"\[\s*(?:include|insert|paste|add)\b[^\]\n]{0,60}?\b(?:results?|reports?|outputs?|findings"
    r"|contents?)\b[^\]\n]*\]",
    re.I,
)
_PASTE = lazy(
    r"\b(?:insert|paste|include|embed|inline)\s+(?:the\s+)?(?:full\s+|whole\s+|complete\s+|entire\s+)"
    r"?(?:contents?|text|output|report)\s+of\b",
    re.I,
)
# words _REPORT cannot match without: sentences lacking all of them are skipped cheaply
_OBJECT_WORDS = Keywords("report", "findings", "output", "notes", "results", "files")
_NOT_AGENT_OUTPUT = lazy(r"\b(?:command|script|cli|tool|user|\$arguments)\b", re.I)
_REDIRECT = lazy(r"(?:^|[^>])>\s*\S")
_PARTIAL = lazy(
    r"\b(?:first|last)\s+\d+\s+lines?\b|\bhead\b|\btail\b|\bonly\s+the\s+(?:summary|status|first)\b"
    r"|\bgrep\s+-c\b|\bwc\b",
    re.I,
)
_SHELL_READ = lazy(r"^\s*(?:cat|less|more|bat)\s+[^|>\n]*reports?/[^|>\n]*$", re.I | re.M)


def _pasted(a: Any) -> Iterator[Finding]:
    """Reports pasted into a later sub-agent's prompt: the orchestrator had to read them."""
    message = (
        "the orchestrator pastes a sub-agent's report into a later prompt, reading it into its "
        "own context first"
    )
    seen = False
    for prompt in a.prompts:
        for block in prompt.blocks:
            m = _PASTE_SLOT.search(block.text)
            if m and not STATE_FILE.search(m.group(0)) and not _NOT_AGENT_OUTPUT.search(m.group(0)):
                yield Finding(a.report_line(block, block.line_of(m.start())), message)
                seen = True
                break
    if seen:
        return
    for s in a.prose:
        m = _PASTE.search(s.text) if "of" in s.lower else None
        if m and imperative(s.text, m.start()) and not NEGATION.search(s.text[m.end() :][:60]):
            yield Finding(a.report_line(s.block, s.line), message)
            return


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
        for s in a.prose_where(_OBJECT_WORDS):
            if not _OBJECT_WORDS.any_in(s.lower):
                continue
            for m in _READ.finditer(s.text, s.lower):
                obj = s.text[m.end() : m.end() + 90]
                if not _REPORT.search(obj) or STATE_FILE.search(obj) or _PARTIAL.search(s.text):
                    continue
                if _REDIRECT.search(obj.split(",")[0]):
                    continue  # "cat reports/*.md > ALL.md" writes a file, reads nothing back
                lead = s.text[: m.start()].split(",")[-1]
                by_self = bool(_SELF.search(lead))
                if not by_self and (
                    not imperative(s.text, m.start()) or NEGATION.search(obj.split(",")[0])
                ):
                    continue
                if not by_self and AGENT_NOUN.search(lead):
                    continue  # "a sub-agent that reads …", "ask the sub-agent to read …"
                yield Finding(
                    a.report_line(s.block, s.line),
                    "the orchestrator reads a sub-agent's full report back into its own context",
                )
                break
        yield from _pasted(a)
        for block in a.shell_blocks:
            m = _SHELL_READ.search(block.text)
            if m and not STATE_FILE.search(m.group(0)):
                line = block.line_of(m.start() + len(m.group(0)) - len(m.group(0).lstrip()))
                yield Finding(
                    a.report_line(block, line),
                    "this command prints sub-agents' full reports into the orchestrator's context",
                )
