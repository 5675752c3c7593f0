"""Building blocks for small orchestrator skills in the rule tests."""

HEAD = """\
---
name: demo-audit
description: Audit each package with a sub-agent.
---
"""

GOOD_HOUSEKEEPING = """\
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start. One sub-agent at a time.
"""

GOOD_PROMPT = """\
For each package, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""
