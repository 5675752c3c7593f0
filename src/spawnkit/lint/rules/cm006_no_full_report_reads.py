"""CM006 no-full-report-reads: the orchestrator never reads sub-agents' reports back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from spawnkit.lint.analysis import AGENT_NOUN, NEGATION, STATE_FILE, imperative
from spawnkit.lint.patterns import AnyOf, Gated, Keywords, lazy
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
from spawnkit.lint.rules.cm002_results_on_disk import written_paths

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
    r"(?:[\w-]+\s+)?(?:notes|outputs?|results?\s+files?|findings|files)\b"
    # files named by how they came about: "the saved documentation files"
    r"|\b(?:saved|written|generated|produced|fetched)\s+(?:[\w-]+\s+){0,2}(?:files|documents|docs"
    r"|outputs|reports|notes)\b",
    re.I,
)
# the object of a read ends with its clause: "read frontmatter and report:" reads no report
_CLAUSE_END = lazy(r"\s+(?:and|then|so|before|after|to)\s+|[,;:]\s|\)", re.I)
# the skill's own reference files are read as instructions, not as reports
_SKILL_FILE = lazy(
    r"^\W*(?:the\s+)?(?:[\w{}$.-]*/)?(?:references?|templates?|examples?|assets?)/", re.I
)
# the orchestrator itself, named as an agent: "the lead agent reads …"
_SELF = lazy(r"\b(?:lead|main|parent|orchestrat\w*|coordinat\w*|primary)\s+agent\s*$", re.I)
# a report pasted into a later prompt: "[Include the scan results]", "insert the full contents of"
_PASTE_SLOT = lazy(
    r"\[\s*(?:include|insert|paste|add)\b[^\]\n]{0,60}?\b(?:results?|reports?|outputs?|findings"
    r"|contents?)\b[^\]\n]*\]"
    # a slot that is an earlier step's output: "[Investigation JSON output]", "[… $STEP_2_OUTPUT …]"
    # (not an item taken from one: "[entry point 1 from explorer findings]")
    r"|\[(?![^\]\n]{0,60}\bfrom\b)[^\]\n]{0,60}?\b(?:json\s+output|output|results|report|findings|json)\s*\]"
    r"|\[[^\]\n]{0,80}?\$\w*output\w*[^\]\n]{0,80}\]"
    # "${JSON.stringify(findings.fixes)}" in a prompt string
    r"|\$\{[^}\n]{0,40}?\b(?:findings|results?|outputs?|reports?|fixes|issues)\b[^}\n]{0,40}\}",
    re.I,
)
# an earlier agent's output handed on whole: "complete reviewer finding objects verbatim"
_VERBATIM = Gated(
    lazy(
        r"\b(?:findings?|finding\s+objects?|outputs?|results?|reports?|json)\b[^.\n]{0,40}?\b(?:verbatim"
        r"|unchanged)\b|\b(?:verbatim|unchanged)\b[^.\n]{0,20}?\b(?:findings?|outputs?|results?|reports?)\b",
        re.I,
    ),
    *("verbatim", "unchanged"),
)
# "Research findings: <paste>": the label before a paste slot, looked for only before one
_PASTE_LABEL = lazy(r"\b(?:findings|results?|outputs?|reports?|analysis)\s*:\s*$")
_PASTE_MARK = lazy(r"[<\[]paste\b")


def _paste_label(lower: str) -> re.Match[str] | None:
    if "[paste" not in lower and "<paste" not in lower:
        return None  # no mark: two substring tests cost a 10 MB block far less than the regex
    for mark in _PASTE_MARK.finditer(lower):
        if _PASTE_LABEL.search(lower, max(0, mark.start() - 40), mark.start()):
            return mark
    return None


_PASTE = Gated(
    lazy(
        r"\b(?:insert|paste|include|embed|inline)\s+(?:the\s+)?(?:full\s+|whole\s+|complete\s+"
        r"|entire\s+)?(?:contents?|text|output|report)\s+of\b",
        re.I,
    ),
    *("insert", "paste", "include", "embed", "inline"),
    also=("of",),
    exact=True,
)
# the words a pasting sentence needs: prose_where skips the blocks holding neither (most)
_PASTED = AnyOf(_PASTE, _VERBATIM)
# output of a tool or a person, not of a sub-agent: "[test output]", "[PASTE THE git diff]"
_NOT_AGENT_OUTPUT = lazy(
    r"\b(?:command|script|cli|tool|user|\$arguments|tests?|build|lint|logs?|errors?|stack|trace"
    r"|diff|git|compiler|ci)\b",
    re.I,
)
_REDIRECT = lazy(r"(?:^|[^>])>\s*\S")
_PARTIAL = lazy(
    r"\b(?:first|last)\s+\d+\s+lines?\b|\bhead\b|\btail\b|\bonly\s+the\s+(?:summary|status|first)\b"
    r"|\bgrep\s+-c\b|\bwc\b",
    re.I,
)
_SHELL_READ = lazy(r"^\s*(?:cat|less|more|bat)\s+[^|>\n]*reports?/[^|>\n]*$", re.I | re.M)


_WRITES = Keywords("writ", "save", "store", "output", "append", "record", "persist", "dump")
_STEM_WORD = lazy(r"[a-z][a-z0-9]+")
_PLACEHOLDER = lazy(r"\$?\{[^}]*\}|<[^>]*>|\[[^\]]*\]|\$\w+")


_MAX_WRITTEN = 500  # paths looked at: a skill names a few; a huge file does not cost more


def _written_by_agents(a: Any) -> list[tuple[str, ...]]:
    """The words naming each file sub-agents are told to write ("error-analysis.md" -> error,
    analysis), from their prompts and from sentences that say an agent writes it."""
    memo = a.memo.get("written_by_agents")
    if memo is not None:
        return memo  # type: ignore[no-any-return]
    texts = [(b.text, b.lower) for p in a.prompts for b in p.blocks]
    texts += [
        (s.text, s.lower)
        for s in a.prose_where(AGENT_NOUN)
        if ("agent" in s.lower or "worker" in s.lower) and _WRITES.any_in(s.lower)
    ]
    stems: list[tuple[str, ...]] = []
    seen = 0
    for text, lower in texts:
        for where in written_paths(text, lower):
            seen += 1
            if seen > _MAX_WRITTEN:
                break
            if STATE_FILE.search(where):
                continue
            name = _PLACEHOLDER.sub(" ", where.rstrip("/").rsplit("/", 1)[-1].lower())
            name = name.rsplit(".", 1)[0] if "." in name else name
            stem = tuple(_STEM_WORD.findall(name))
            if (len(stem) >= 2 or (stem and len(stem[0]) >= 8)) and stem not in stems:
                stems.append(stem)
    a.memo["written_by_agents"] = stems
    return stems


def _names_written(obj: str, written: list[tuple[str, ...]]) -> bool:
    """Whether a read's object names a file a sub-agent wrote ("the domain analysis output")."""
    if not written:
        return False
    said = " ".join(_STEM_WORD.findall(obj.lower()))
    return any(f" {' '.join(stem)} " in f" {said} " for stem in written)  # the name, in order


READ = "read-back"
PASTE = "paste-into-prompt"
SHELL = "shell-read"


def _seen(line: int, what: str, text: str) -> tuple[Evidence, ...]:
    return (Evidence(line, f"{what}: {quote(text)}"),)


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
            if m is None and "paste" in block.lower:
                m = _paste_label(block.lower)
            if m and not STATE_FILE.search(m.group(0)) and not _NOT_AGENT_OUTPUT.search(m.group(0)):
                line = a.report_line(block, block.line_of(m.start()))
                yield _pasted_finding(line, message, "pasted", m.group(0))
                seen = True
                break
    if seen:
        return
    for s in a.prose_where(_PASTED):
        line = a.report_line(s.block, s.line)
        m = _PASTE.search(s.text, s.lower)
        if m and imperative(s.text, m.start()) and not NEGATION.search(s.text[m.end() :][:60]):
            yield _pasted_finding(line, message, "pasted", s.text)
            return
        m = _VERBATIM.search(s.text, s.lower)
        if m and not NEGATION.search(s.text[: m.start()]) and "user" not in s.lower:
            yield _pasted_finding(line, message, "handed on", s.text)
            return


def _pasted_finding(line: int, message: str, how: str, said: str) -> Finding:
    return Finding(
        line, message, family=PASTE, evidence=_seen(line, how, said), looked_for=LOOKED_FOR
    )


LOOKED_FOR = (
    "the orchestrator taking in a sub-agent's full output: reading its report file back, "
    "pasting it into a later prompt, or printing it with a shell command (the standard wants "
    "only the short reply and the report's path)"
)


class NoFullReportReads(Rule):
    code = "CM006"
    protocol_rule = True
    tier = PREVIEW  # below 0.9 precision on the tuning half (docs/lint-accuracy.md)
    families = (
        Family(READ, DEFAULT, "the orchestrator told to read, open or load a sub-agent's report"),
        Family(PASTE, DEFAULT, "an earlier sub-agent's output pasted into a later prompt"),
        Family(SHELL, DEFAULT, "a shell command that prints reports (cat reports/*.md)"),
    )
    what = """
Finds instructions to the orchestrator itself to read, open, load or `cat` the
report files its sub-agents wrote — named as reports, or as the very files a
prompt told a sub-agent to write ("read error-analysis.md") — and to paste an
earlier sub-agent's output into a later prompt (`[Include the scan results]`,
`Findings: <paste>`, "the reviewer's findings verbatim"). A sub-agent that reads
earlier reports (for example a final "merge" sub-agent, or the steps listed under
"Spawn fix-planner:") is fine, and so are partial reads such as `head -n 5`, the
state file and the skill's own reference files.
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
        briefs = a.briefs
        for s in a.prose_where(_READ):
            if id(s.block) in briefs or not _READ.hit(s.text, s.lower):
                continue  # a sub-agent's brief ("Spawn fix-planner:" over "- Read all reports")
            for m in _READ.finditer(s.text, s.lower):
                obj = _CLAUSE_END.split(s.text[m.end() : m.end() + 90], maxsplit=1)[0]
                if (
                    not (_REPORT.search(obj) or _names_written(obj, _written_by_agents(a)))
                    or STATE_FILE.search(obj)
                    or _SKILL_FILE.match(obj)
                    or _PARTIAL.search(s.text)
                ):
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
                line = a.report_line(s.block, s.line)
                yield Finding(
                    line,
                    "the orchestrator reads a sub-agent's full report back into its own context",
                    family=READ,
                    evidence=_seen(line, "reads back", s.text),
                    looked_for=LOOKED_FOR,
                )
                break
        yield from _pasted(a)
        for block in a.shell_blocks:
            m = _SHELL_READ.search(block.text)
            if m and not STATE_FILE.search(m.group(0)):
                line = block.line_of(m.start() + len(m.group(0)) - len(m.group(0).lstrip()))
                line = a.report_line(block, line)
                yield Finding(
                    line,
                    "this command prints sub-agents' full reports into the orchestrator's context",
                    family=SHELL,
                    evidence=_seen(line, "prints", m.group(0)),
                    looked_for=LOOKED_FOR,
                )
