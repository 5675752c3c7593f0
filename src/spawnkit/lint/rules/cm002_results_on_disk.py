"""CM002 results-on-disk: sub-agents write their full results to a file."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import AGENT_NOUN, STATE_FILE
from spawnkit.lint.markdown import Block
from spawnkit.lint.patterns import Gated, lazy
from spawnkit.lint.rules.base import CALIBRATED, Context, Family, Finding, Rule
from spawnkit.lint.rules.cm001_return_budget import prompt_evidence

_EXTENSIONS = (
    "md|markdown|json|jsonl|txt|log|csv|tsv|ya?ml|toml|html|sarif|xml|png|jpe?g|svg|pdf|webp|gif"
)
_PATH = (
    r"[`'\"]?(?:[\w.{}$~<>*@-]*/"
    # a file name, placeholders and globs included: "task-*.md", "[feature]/validation.md"
    r"|[\w{}$<>.@*\[\]-]+\.(?:" + _EXTENSIONS + r")\b"
    # a placeholder that names a path: "[output file]", "${reviewQueuePath}", "{report_path}"
    r"|[\[{<$]\{?[\w\s-]{0,30}?(?:path|file|dir|folder)\w*\s*[\]}>]"
    # ... or a variable that does: "artifact_path", "$OUTPUT_FILE"
    r"|\$?\w+_(?:path|file|dir)\b)"
)
_DISK = Gated(
    lazy(
        r"\b(?:write|writes|written|save|saves|saved|store|stores|stored|put|puts|record|records"
        r"|recorded|log|logs|logged|append|appends|appended|dump|dumps|persist|persists|list|go|goes"
        r"|land|lands|note|notes)\b[^.!?]{0,160}?\b(?:to|in|into|under|at)\s*:?\s+"
        # "to shared `findings.jsonl`", "to its own tmp/ subdirectory"
        r"(?:(?:the|a|its|their)\s+)?(?:(?:own|shared|separate|dedicated)\s+)?"
        + _PATH
        # "combine the findings into out/summary.md": a file name with an extension or a path
        # placeholder must follow (not "into one table", nor "into NPV/IRR analysis")
        + r"|\b(?:combine|combines|merge|merges|collect|collects|compile|compiles|consolidate"
        r"|consolidates|gather|gathers|aggregate|aggregates|summari[sz]e|summari[sz]es)\b"
        r"[^.!?]{0,120}?\binto\s*:?\s+(?:(?:the|a|its|their)\s+)?"
        r"(?=[`'\"]?[\w.{}$~<>*@/\[\]-]*\.(?:"
        + _EXTENSIONS
        + r")\b|[\[{<$]|\$?\w+_(?:path|file))"
        + _PATH
        + r"|\boutputs?\s+(?:to|into)\s*:?\s+"  # "Output to: .ralph/tasks/"
        + _PATH
        # "write findings.md", "(3) writes `.specs/[feature]/validation.md`"
        + r"|\b(?:write|writes|save|saves|create|creates|produce|produces|generate|generates|emit|emits)"
        r"\s+(?:a\s+|an\s+|the\s+|its\s+|their\s+)?"
        + _PATH
        # "Output path: {source}_edited.png", "report file: …"
        + r"|\b(?:outputs?|reports?|results?)\s+(?:file|path)\s*:?\s+"
        + _PATH
        + r"|\b(?:to|in|into|under)\s+(?:the\s+|a\s+|its\s+|their\s+|your\s+)?(?:reports?|results?|output|logs?)"
        r"\s+(?:folder|directory|dir|file)\b"
        # a file kept by the run under another name: "appends its summary to the tracker"
        r"|\b(?:append|appends|write|writes|add|adds|record|records|log|logs)\b[^.!?]{0,80}?\b(?:to|in|into)"
        r"\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+)?(?:tracker|ledger|journal|scratchpad)\b"
        r"|\b(?:on|to)\s+disk\b"
        # a folder named by what it holds: "writes its markdown file to the session directory"
        r"|\b(?:write|writes|save|saves|store|stores|put|puts|place|places|drop|drops|output|outputs)"
        r"\b[^.!?]{0,80}?\b(?:to|in|into|under)\s+(?:the\s+|a\s+|its\s+|their\s+|your\s+|own\s+)?"
        r"(?:[\w-]+\s+){0,2}(?:folder|directory|dir|subdirectory)\b"
        # results posted where the orchestrator does not read them: PR comments, an issue
        r"|\bposts?\b[^.!?]{0,80}?\b(?:as|to|on|in)\s+(?:the\s+|a\s+)?(?:pr|pull\s+request|github"
        r"|issue|jira|linear)\s*(?:comments?|reviews?|threads?)?\b",
        re.I,
    ),
    # a path (a slash or a file extension), a placeholder, a folder or file, the disk, a tracker
    *("/", ".md", ".json", ".txt", ".log", ".csv", ".yml", ".yaml", ".html", ".sarif", ".xml"),
    *(".tsv", ".toml", ".png", ".jpg", ".jpeg", ".svg", ".pdf", ".webp", ".gif", ".markdown"),
    *("folder", "dir", "file", "path", "disk", "tracker", "ledger", "journal", "scratchpad"),
    "post",
    exact=True,
)
# a step that writes findings somewhere: its path is read by written_paths
_FINDINGS = Gated(
    lazy(
        r"\b(?:write|writes|save|saves|append|appends|log|logs)\s+(?:\w+\s+)?(?:findings|results|outputs?)\b",
        re.I,
    ),
    "findings",
    "results",
    "output",
)
_REST_OF_PATH = lazy(r"[^\s`'\")\]]{0,200}")


def written_paths(text: str, lower: str | None = None) -> Iterator[str]:
    """Each path ``text`` tells someone to write results to (the whole path, not its folder)."""
    if lower is None:
        lower = text.lower()
    if not _DISK.hit(text, lower):
        return
    if "\\n" in text:
        text = text.replace("\\n", "  ")  # a prompt in a JSON string: "…\\n\\nWrite your …"
        lower = text.lower()
    for m in _DISK.finditer(text, lower):
        rest = _REST_OF_PATH.match(text, m.end())
        yield (m.group(0).split() or [""])[-1].strip("`'\":") + (rest.group(0) if rest else "")


def writes_to_disk(blocks: list[Block]) -> bool:
    """Whether ``blocks`` tell someone to write results to a file — not only to the state or
    progress file ("each agent writes to: agent-X-progress.md" is a checkpoint, not a report)."""
    return any(
        not STATE_FILE.search(where) for b in blocks for where in written_paths(b.text, b.lower)
    )


def _top_list(blocks: list[Block], block: Block) -> int | None:
    """The list id of the top-level item ``block`` sits in (None outside lists)."""
    seen = 0
    while block.parent is not None and seen < 20:
        block, seen = blocks[block.parent], seen + 1
    return block.list_id if block.kind == "item" else None


PROMPT = "prompt-without-file"
SPAWN = "spawn-without-file"
LOOKED_FOR = (
    'an instruction to write the full results to a file ("write your findings to '
    '.<skill>-reports/<step>.md", a path placeholder, a tracker the run keeps), in the prompt '
    "or stated once for every sub-agent"
)


class ResultsOnDisk(Rule):
    code = "CM002"
    protocol_rule = True
    tier = CALIBRATED  # each finding's tier from its probability (spawnkit.lint.calibration)
    families = (
        Family(
            PROMPT, CALIBRATED, "a sub-agent prompt, found in the file, that names no file to write"
        ),
        Family(SPAWN, CALIBRATED, "spawn steps with no prompt text that name no file to write"),
    )
    what = """
Checks that every sub-agent prompt (or a rule stated once for all sub-agents)
tells the sub-agent to write its full output — findings, logs, file lists — to a
file on disk, such as `.<skill>-reports/<step>.md`. A placeholder that names a
path (`[output file]`, `${reportPath}`) or a tracker the run keeps counts; the
state or progress file does not, since it records steps, not results.
"""
    why = """
A reply capped at a few hundred tokens can only stay short if the details have
somewhere else to go. Results on disk survive a context reset, and the user can
read them without the orchestrator ever loading them.
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
Audit {package} and reply with the complete list of findings, at most 400 tokens.
```
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
Reply with at most 400 tokens: STATUS, counts, and the report path.
```
"""
    fix = (
        "Tell each sub-agent to write its full output to a report file, e.g. "
        '".<skill>-reports/<step>.md", and to return only the path.'
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        general = [b for b in a.global_units if id(b) not in a.prompt_block_ids]
        # ... and code that speaks of the agents ("# Each agent writes to its own tmp/ dir")
        general += [
            b
            for _, blocks in a.groups
            for b in blocks
            if b.kind == "code"
            and id(b) not in a.prompt_block_ids
            and AGENT_NOUN.hit(b.text, b.lower)
        ]
        if writes_to_disk(general):
            return
        if a.prompts:
            for prompt in a.prompts:
                if not writes_to_disk(prompt.blocks):
                    yield Finding(
                        prompt.line,
                        "this sub-agent prompt does not tell the sub-agent to write its full "
                        "results to a file on disk",
                        family=PROMPT,
                        evidence=(prompt_evidence(prompt), *ctx.spawn_evidence(1)),
                        looked_for=LOOKED_FOR,
                    )
            return
        blocks = ctx.doc.blocks
        spawn_blocks = [b for b in blocks if a.spawns_in(b)]
        # the steps of the list that holds a spawn step say where its results go ("2. Spawn
        # researcher subagents …", "4. Save findings to notes/")
        # ... and so does any step that says where findings go ("Write findings to shared
        # `findings.jsonl`" under a coordination step)
        lists = {_top_list(blocks, b) for b in spawn_blocks} - {None}
        spawn_blocks += [
            b
            for b in blocks
            if b.kind == "item"
            and (_top_list(blocks, b) in lists or _FINDINGS.search(b.text, b.lower))
        ]
        if not writes_to_disk(spawn_blocks):
            yield Finding(
                a.first_line,
                "the sub-agents spawned here are never told to write their full results "
                "to a file on disk",
                family=SPAWN,
                evidence=ctx.spawn_evidence(),
                looked_for=LOOKED_FOR + "; the file hands over no prompt text",
            )
