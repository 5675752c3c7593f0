"""CM008 lean-progress: progress to the user is one short line per step."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import imperative
from spawnkit.lint.patterns import Gated, Keywords, lazy
from spawnkit.lint.rules.base import (
    DEFAULT,
    PREVIEW,
    Context,
    Evidence,
    Family,
    Finding,
    Rule,
    quote,
)

_RELAY = Gated(
    lazy(
        r"\b(show|print|paste|relay|echo|copy|display|forward|repeat|output|give|present)\b[^.\n]{0,80}?"
        r"(?:\b(?:complete|full|whole|entire|every|all)\b[^.\n]{0,30}?\b(?:response|reply|replies|output"
        r"|report|findings|details|results?|answer)\b|\bverbatim\b|\bword\s+for\s+word\b|\bin\s+full\b)",
        re.I,
    ),
    *("show", "print", "paste", "relay", "echo", "copy", "display", "forward", "repeat"),
    *("output", "give", "present"),
    also=("complete", "full", "whole", "entire", "every", "all", "verbatim", "word"),
    exact=True,
)
_DETAIL = Gated(
    lazy(
        r"\b(add|write|give|explain|describe|summari[sz]e)\b[^.\n]{0,60}?(?:\bparagraph\b|\bin\s+detail\b"
        r"|\bat\s+length\b)[^.\n]{0,60}?\b(?:each|every)\b",
        re.I,
    ),
    *("add", "write", "give", "explain", "describe", "summari"),
    also=("paragraph", "detail", "length"),
    exact=True,
)


_HINT = Keywords(
    "complete",
    "full",
    "whole",
    "entire",
    "every",
    "all",
    "verbatim",
    "word for",
    "detail",
    "paragraph",
    "length",
)


RELAY = "relay-at-length"


class LeanProgress(Rule):
    code = "CM008"
    protocol_rule = True
    tier = PREVIEW  # below 0.9 precision on the tuning half (docs/lint-accuracy.md)
    families = (Family(RELAY, DEFAULT, "the user shown sub-agents' output whole or at length"),)
    what = """
Finds instructions to relay sub-agents' results to the user at length: show the
complete reply, paste it verbatim, print every finding, add a paragraph on each
one. A progress line per step (`[3/8] step: metric — report path`) passes.
"""
    why = """
What the orchestrator writes to the user also stays in its context. Echoing each
sub-agent's output doubles the cost of every return; one line per step keeps the
user informed and the context lean.
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

After each sub-agent, show the user its complete reply.
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

After each sub-agent, print one line: `[n/total] {package}: counts — report path`.
"""
    fix = (
        'Print one line per step, e.g. "[3/8] step: key metric — report path"; the user opens the '
        "report for details."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        for s in a.prose_where(_HINT):
            if not _HINT.any_in(s.lower):
                continue
            for pattern in (_RELAY, _DETAIL):
                m = pattern.search(s.text, s.lower)
                if m and imperative(s.text, m.start()):
                    line = a.report_line(s.block, s.line)
                    yield Finding(
                        line,
                        "progress to the user repeats sub-agent output at length; keep it to one "
                        "line per step",
                        family=RELAY,
                        evidence=(Evidence(line, f"relays: {quote(s.text)}"),),
                        looked_for="progress lines that repeat what sub-agents said (their "
                        "findings, reports or answers in full) rather than one line per step",
                    )
                    break
