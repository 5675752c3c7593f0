"""What a skill says about sub-agents, read from its structure.

The questions every protocol rule asks are answered here once: is this file an
orchestrator, where does it spawn sub-agents, which blocks are prompts handed to
a sub-agent, which statements apply to every sub-agent (a "Rules" section, a
sibling file), and which sentences say what about caps, disk, state, parallelism.

Sentences count as instructions only in the imperative ("Spawn …", "Then use the
Agent tool …", "you call …"), never when negated ("do not spawn") or descriptive
("an orchestrator spawns workers"), so a file that merely talks about agents is
not an orchestrator.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import NamedTuple

from spawnkit.lint import calibration
from spawnkit.lint import vocabulary as V
from spawnkit.lint.document import Document
from spawnkit.lint.evidence import CALIBRATED, DEFAULT, PREVIEW, Evidence, Family, quote
from spawnkit.lint.markdown import Block
from spawnkit.lint.memo import cached_property
from spawnkit.lint.patterns import AnyOf, Gated, Keywords, folded, lazy

# --- how a file is found to spawn sub-agents: the families of readings ---------------

TOOL = "spawn-tool"
AGENT_OBJECT = "agent-object"
ROLE_OBJECT = "role-object"
NAMED_OBJECT = "named-object"
GRANTED = "granted-tool"
FRONTED = "fronted-agent"
IN_AGENT = "work-in-agent"
USING_NAMED = "using-named-agent"
SELF = "orchestrator-spawns"
PROMPT_HEADER = "prompt-header"
CJK = "cjk-instruction"
LATIN = "other-language"
PROSE_CALL = "call-in-prose"
CODE_CALL = "call-in-code"
WEAK = "agent-mention"
FORK = "context-fork"
HEADING = "heading"
GUIDE = "guide-section"
GUIDE_WEAK = "guide-section-mention"

# the readings; none decides alone: their counts, where they sit, the file's kind and
# frontmatter are weighed into one calibrated probability (spawnkit.lint.calibration)
DETECTION_FAMILIES: tuple[Family, ...] = (
    Family(
        TOOL,
        CALIBRATED,
        'an instruction that names the spawn tool ("use the Agent tool", "via Task")',
    ),
    Family(
        AGENT_OBJECT, CALIBRATED, 'a spawn verb whose object is an agent ("spawn three sub-agents")'
    ),
    Family(ROLE_OBJECT, CALIBRATED, 'a spawn verb whose object is a job ("dispatch a reviewer")'),
    Family(
        NAMED_OBJECT, CALIBRATED, 'a spawn verb whose object is a name ("dispatch fix-planner")'
    ),
    Family(
        GRANTED,
        CALIBRATED,
        "a looser object, where the spawn tool is granted or the section is about sub-agents",
    ),
    Family(FRONTED, CALIBRATED, 'the agent first: "for each sub-agent, delegate its task"'),
    Family(IN_AGENT, CALIBRATED, 'work placed in a sub-agent ("run each mission in a subagent")'),
    Family(USING_NAMED, CALIBRATED, 'a named agent as the instrument ("using the Explore agent")'),
    Family(
        SELF,
        CALIBRATED,
        'the orchestrator in the third person ("the orchestrator dispatches a verifier")',
    ),
    Family(PROMPT_HEADER, CALIBRATED, 'a prompt handed over ("each sub-agent gets this prompt:")'),
    Family(CJK, CALIBRATED, "a spawn instruction in Japanese, Korean or Chinese"),
    Family(
        LATIN,
        CALIBRATED,
        'a spawn instruction in French, Portuguese, Spanish, Italian or German ("délègue au sub-agent")',
    ),
    Family(PROSE_CALL, CALIBRATED, 'a call written into prose ("Task(subagent_type=...)")'),
    Family(CODE_CALL, CALIBRATED, "a code sketch that calls the spawn tool"),
    Family(
        WEAK,
        CALIBRATED,
        'a remark about how agents run ("one agent per file", "3 parallel agents")',
    ),
    Family(FORK, CALIBRATED, "context: fork in the frontmatter (the body is a sub-agent's prompt)"),
    Family(HEADING, CALIBRATED, 'a heading that names spawning ("## Step 4: Spawn Subagents")'),
    Family(
        GUIDE,
        CALIBRATED,
        'spawning named under a guide-like heading ("Patterns", "Examples", "Best practices")',
    ),
    Family(
        GUIDE_WEAK, CALIBRATED, "a code sketch or remark about agents under a guide-like heading"
    ),
)
_SHOWN_SPAWNS = 5  # spawn steps kept as evidence
_STRONG = {TOOL, AGENT_OBJECT, ROLE_OBJECT, NAMED_OBJECT, GRANTED, FRONTED, IN_AGENT}
_STRONG |= {USING_NAMED, SELF, PROMPT_HEADER, CJK, LATIN, PROSE_CALL, HEADING, GUIDE}
STRONG = frozenset(_STRONG)  # the readings that name a spawn step (the rest are hints)
# shown last as evidence: a title, a guide, a prompt header, a call written into a sentence
_LESSER = {HEADING, GUIDE, GUIDE_WEAK, PROMPT_HEADER, PROSE_CALL}
# headings of sections that describe or teach rather than instruct: a spawn step under one of
# them is read as an example, a pattern or advice
_GUIDE_SECTION = lazy(
    r"\b(?:patterns?|examples?|best\s+practices?|tips|guides?|guidelines|overview|reference|concepts?"
    r"|theory|recipes?|decision\s+tree|index|faq|troubleshoot\w*|anti-?patterns?|pitfalls"
    r"|checklist|when\s+to\s+use|comparison|background|introduction|built-in\s+tools|glossary)\b",
    re.I,
)


# where a reading sits: the file's own text ...
INSTRUCTION = "instruction"  # prose: a paragraph or a list item
TABLE = "table"  # a table cell
TITLE = "heading"  # a heading
CODE = "code"  # a code sketch
IN_GUIDE = "guide"  # under a guide-like heading ("Patterns", "Reference")
# ... or text that is not the file's own instruction, never read as one (issue 34)
TEMPLATE = "template"  # text the file writes into another file
SCHEMA = "schema"  # a type definition, an interface, a schema
EXAMPLE = "example"  # an example ("For example:", "e.g.") under guidance
NOT_OWN = (TEMPLATE, SCHEMA, EXAMPLE)


class Mark(NamedTuple):
    """A place the file spawns sub-agents (or hints at it), and the reading that found it."""

    line: int
    family: str
    text: str  # the sentence, or the code block's first line
    header: bool = False  # a prompt header, not a spawn verb
    tool: bool = False  # names the spawn tool itself
    section: tuple[str, ...] = ()  # the headings above it
    where: str = INSTRUCTION  # where it sits (INSTRUCTION, TABLE, … or one of NOT_OWN)


# --- vocabulary -------------------------------------------------------------------


class _AgentNoun(Gated):
    """sub-agent, agent, worker — but not a "user agent" string."""

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        for m in self.finditer(text, lower):
            if not text[max(0, m.start() - 5) : m.start()].lower().rstrip(" -").endswith("user"):
                return m
        return None


AGENT_NOUN = _AgentNoun(
    lazy(r"\b(?:sub-?agents?|subagents?|agents?|workers?)\b", re.I), "agent", "worker"
)
_TOOLS = V.alternation(V.SPAWN_TOOLS)
_TOOL_NAMES = V.alternation(V.SPAWN_TOOL_NAMES)
_TOOL = lazy(
    r"\b(?:"
    + _TOOLS
    + r")\s+tool\b|\b(?:"
    + _TOOLS
    + r")\(|(?<![A-Za-z0-9])(?:"
    + _TOOL_NAMES
    + r")\b"
)
_QUANT = V.alternation(V.QUANTIFIERS)
# the three patterns that name the instrument (_TOOL_USE, _IN_AGENT, _USING_NAMED) are gated
# on the words they cannot match without: most sentences with "agent" in them hold none, and
# each pattern was tried on every one of them
_TOOL_USE = Gated(
    lazy(
        r"\b(?:with|via|through|using)\s+(?:the\s+)?(?:"
        + _TOOLS.lower()
        + r")\s+tool\b"
        # the spawn tool by a name every host shares: "start each step with your sub-agent tool"
        + r"|\b(?:with|via|through|using)\s+(?:the\s+|your\s+)(?:sub-?agent|subagent)\s+tool\b"
        + r"|\busing\s+(?:(?:"
        + _QUANT
        + r"|\d+)\s+){1,3}(?:sub-?agents|subagents|agents)\b",
        re.I,
    ),
    *("with", "via", "through", "using"),
    also=("tool", "agents"),
    exact=True,
)
_SPAWN_VERB = folded(
    r"\b(" + V.alternation(V.ANY_OBJECT_VERBS + V.SPAWN_VERBS) + r")\b",
)
_ANY_OBJECT_VERBS = set(V.ANY_OBJECT_VERBS)
_TOOL_VERBS = set(V.NAMING_VERBS)
_TO_VERBS = set(V.TO_VERBS)
_AGENT_HEAD = r"(?:sub-?agents?|subagents?|agents?|workers?)"
# the verb's object is a noun phrase whose head is an agent noun: "three parallel agents",
# "the `code-reviewer` agent", "a fresh subagent" — not "pressure scenarios with subagents"
_OBJECT = lazy(
    r"^\W*((?:(?!(?:"
    + V.alternation(V.PHRASE_BREAKS)
    + r")\b)[\w`'\"$:{}.*+&-]+\s+){0,4}?)"
    + _AGENT_HEAD
    + r"(?![\w/`'\"-])(?!\s+(?:"
    + V.alternation(V.NOT_AGENT_HEADS)
    + r")\b)",
    re.I,
)
_BREAKS = V.alternation(V.PHRASE_BREAKS)
_ROLES = V.alternation(V.ROLE_NOUNS)
# the object names an agent by its job: "three code reviewers", "a fresh Verifier"
_ROLE_OBJECT = lazy(
    r"^\W*(?:(?!(?:" + _BREAKS + r")\b)[\w`'\".:{}*$-]+\s+){0,4}?(?:" + _ROLES + r")s?\b(?![\w-])",
    re.I,
)
# ... or by name, an identifier heading the phrase: "spawn fix-planner", "dispatch dev:debugger"
_NAMED_OBJECT = lazy(
    r"^\W*(?:(?:the|a|an|one|each|every|all|both)\s+)?@?[A-Za-z]\w*(?:[-_:/]\w+)+"
    r"(?=\W*$|\W*[.,;:()\[\]!?]|\s+(?:"
    + _BREAKS
    + r")\b|\s+(?:sub-?agents?|subagents?|agents?)\b"
    # or an adverbial: "dispatch `component-reviewer` rather than deciding here"
    + r"|\s+(?:rather\s+than|instead\s+of|now|first|next|immediately|again|once)\b)",
    re.I,
)
# "give each agent its own workspace": the agent receives something, it is not started
_SECOND_OBJECT = lazy(r"\s+(?:its|their|his|her|the|a|an|own|this|that|these|those)\b", re.I)
# work placed in a sub-agent: "run every remaining mission in a subagent"
_IN_AGENT = Gated(
    lazy(
        r"\b(?:in|inside|within|via|through)\s+(?:(?:a|an|its|their|own|one|each|the|"
        + _QUANT
        + r"|\d+)\s+){0,3}(?:sub-?agents?|subagents?)(?![\w.-])",
        re.I,
    ),
    *("subagent", "sub-agent"),
    exact=True,
)
_WORK_VERB = lazy(r"(?:" + V.alternation(V.WORK_VERBS) + r")\b", re.I)
_CLAUSE_START = lazy(r"[,;:—–(]|\n")
# a named agent used as the instrument: "Explore using Explore agent", "using `x` subagent"
_USING_NAMED = Gated(
    lazy(
        r"\b(?:[Uu]sing|[Vv]ia|[Tt]hrough)\s+(?:the\s+|an?\s+)?(?:[A-Z][\w-]*|[A-Za-z]\w*(?:[-_:]\w+)+)"
        r"\s+(?:[Ss]ub-?agents?|[Ss]ubagents?|[Aa]gents?)\b"
    ),
    *("using", "via", "through"),
    exact=True,
)
# the agent that reads the file, named in the third person: "the orchestrator dispatches ..."
# (with "the": "an orchestrator spawns workers" defines a word)
_THIRD_PERSON = {
    "spawns": "spawn",
    "dispatches": "dispatch",
    "launches": "launch",
    "starts": "start",
    "runs": "run",
    "delegates": "delegate",
    "invokes": "invoke",
    "calls": "call",
    "uses": "use",
    "deploys": "deploy",
    "hands": "hand",
    "sends": "send",
    "creates": "create",
    "assigns": "assign",
    "fans out": "fan out",
    "spins up": "spin up",
    "kicks off": "kick off",
}
_SELF_SPAWN = folded(
    r"\b(?:the\s+(?:" + V.alternation(V.SELF_SUBJECTS) + r")|this\s+(?:skill|command|workflow)"
    # "this skill spawns specialist subagents" (not "this skill uses the sandbox pattern")
    r"(?=\s+(?:then\s+|also\s+)?(?:spawns|dispatches|launches|delegates)\b))\s+(?:(?:then|always|automatically|immediately"
    r"|now|also|first|simply|just)\s+)?(" + V.alternation(tuple(_THIRD_PERSON)) + r")\b"
)
# the recipient stated first: "For each sub-agent, clearly delegate its task"
_FRONTED_AGENT = lazy(
    r"^\W*(?:for|to)\s+(?:each|every|the|a|an|all)\s+(?:[\w-]+\s+){0,2}"
    r"(?:sub-?agents?|subagents?|agents?|workers?)\s*,",
    re.I,
)
# "Agents are subprocesses spawned via the Task tool": a definition, not an instruction
_DESCRIPTIVE = folded(
    r"\b(?:sub-?agents|subagents|agents|workers)\s+(?:are|were|get)\b"
    # how something works, told of a third party: "Claude invokes them via the Task tool"
    r"|\b(?:claude|it|which|the\s+model|the\s+system)\s+(?:\w+\s+)?(?:invokes|calls|uses|spawns"
    r"|launches|runs|delegates|dispatches)\b"
)
_FAN_OUT = lazy(r"^\s*(?:with|across|over|into|to)\s+", re.I)
_AS_OBJECT = lazy(r"^[^.;:]{0,60}?\bas\s+(?=\S)", re.I)
_TO_OBJECT = lazy(r"^[^.;:]{0,60}?\bto\s+(?=\S)", re.I)
_LATER_TO = lazy(r"\bto\s+(?=\S)", re.I)
# a verb in the third person right after the sentence's first word, then its object
_VERB_AS_SUBJECT = lazy(r"^\s+[a-z]{3,}(?:es|[^s\W]s)\s+(?:the|a|an|its|their|this|that|each)\b")
_CLAUSE_STOP = lazy(r"[.;:]")


def _clause_end(obj: str, limit: int = 100) -> int:
    """Where the object's clause ends (a full stop, semicolon or colon), at most ``limit``."""
    stop = _CLAUSE_STOP.search(obj, 0, limit)
    return stop.start() if stop else min(limit, len(obj))


_COUNTED = lazy(r"\b(?:" + _QUANT + r"|\d+|sub-?agents?|subagents?)\b", re.I)
_NAMED = lazy(r"[`'\"]|\w[-_:]\w|(?:^|\s)[A-Z]")
_NOT_AGENT_OBJECT = lazy(
    r"^\W*(?:an?\s+|the\s+)?(?:\w+\s+)?(?:process|processes|shell|thread|threads|server|job|jobs|container|command|script)\b"
    # another program run as a worker: "spawn headless grok workers", "Codex CLI subagents"
    r"|^[^.;:]{0,40}?\b(?:cli|headless|tmux)\b[^.;:]{0,20}?\b(?:sub-?agents?|subagents?|agents?|workers?)\b",
    re.I,
)
# an agent that is another program or lives elsewhere ("a peer Codex agent", "spawn Gemini as a
# sub-agent", "the node-local agent"), or a worker that is not an agent ("Shared Workers")
_OTHER_AGENT = lazy(
    r"^[^.;:]{0,40}?\b(?:"
    + V.alternation(V.OTHER_AGENT_PROGRAMS)
    + r")\b[^.;:]{0,24}?\b(?:sub-?agents?|subagents?|agents?|workers?)\b"
    r"|^\W*(?:an?\s+|the\s+)?(?:" + V.alternation(V.NOT_AGENT_WORKERS) + r")[\s-]+workers?\b",
    re.I,
)
# an agent written as a definition file, not started: "create sub-agents as Markdown files"
_AS_DEFINITION = lazy(
    r"^[^.;:]{0,60}?\b(?:as|in)\s+(?:\w+\s+){0,2}(?:markdown|\.md|yaml|definition|files?)\b",
    re.I,
)
NEGATION = folded(
    r"\b(?:not|never|no need|without|instead of|rather than|avoid|don't|doesn't|cannot|can't|no)\b",
)
_LEAD_OK = folded(
    r"(?:^|[,;:—–(-]|\b(?:and|then|or|first|next|finally|now|also|please|always|just|simply|immediately|again)"
    r"|\byou(?:\s+(?:must|should|will|then|now|always|first|need\s+to|have\s+to|are\s+to|'ll))?)"
    r"\s*$",
)
# a bare modal leads an instruction ("MUST spawn these agents", "Should use the Task tool"),
# unless a sub-agent is its subject ("each subagent must use ...")
_LEAD_MODAL = folded(r"\b(?:must|should|shall|need\s+to|have\s+to)\s*$")
_LEAD_MODAL_BAD = folded(
    r"\b(?:sub-?agents?|subagents?|agents?|workers?|it|they|each|every|which|that|who)\s+"
    r"(?:\w+\s+)?(?:must|should|shall|need\s+to|have\s+to)\s*$",
)
_LEAD_TO = folded(r"\bto\s*$")
# a capability, not an instruction: "Goose can also delegate to …" ("you will then …" instructs)
_CAPABILITY = folded(
    r"(?<!you )\b(?:can|could|may|might|would|will|cannot|can't)\s+"
    r"(?:also|then|now|just|simply|first|always|again|next|immediately)\s*$"
)
_TRAILING_ADVERB = lazy(r"\s\w+ly\s*$", re.I)
_LEAD_TO_BAD = folded(
    r"(?:\b(?:how|whether|when|where|what|not|never|it|them|agent|agents|sub-?agents?|subagents?|worker|workers"
    # a third party told to do it: "encourage Claude to invoke the subagent"
    r"|reviewer|reviewers|claude|model|users?)\s+to"
    # a request to someone else: "ask the orchestrator to spawn two more developers" (a
    # persona asking its lead), "tell the user to launch …" (issue 34)
    r"|\b(?:ask|asks|asking|request|requests|requesting|tell|tells|remind|reminds|prompt|prompts"
    r"|signal|signals|notify|notifies|recommend|recommends|suggest|suggests|instruct|instructs"
    r"|invite|invites|expect|expects|want|wants|allow|allows)\s+(?:(?!to\b)[\w'-]+\s+){1,3}to)\s*$",
)
_STEP_LABEL = lazy(r"^\s*(?:(?:step|phase|stage)\s*\d+\s*[:.)—–-]|\d+\s*[.)]|[-*+])\s*", re.I)
_CELL = lazy(r"[^|\n]+")
_LEADING_PUNCTUATION = lazy(r"^[\W_]+")
_AFTER_STOP = lazy(r"(?<=[.!?;])\s")
_TOOL_OBJECT = lazy(r"\W*(?:the\s+)?(?:Agent|Task)\s+tool")
_SENTENCE_END = lazy(r"[.!?;]\s+|:\s+(?=[A-Z\"'“>])|\n(?=\s*\n)")
_PROMPT_WORD = Gated(
    lazy(r"\bprompts?\b|\binstructions?\b|\bbrief(?:ing)?\b", re.I),
    "prompt",
    "instruction",
    "brief",
    exact=True,
)
_PROMPT_HEADER = Gated(
    lazy(
        r"\b(?:sub-?agent|agent|worker|reviewer|checker|writer|auditor|explorer)(?:'s|s')?\s+prompts?\b"
        r"|\bprompts?\s+(?:for|to)\s+(?:each|every|the|a)\s+(?:[\w-]+\s+){0,2}(?:sub-?agent|agent|worker)s?\b"
        r"|\b(?:gets?|receives?|with)\s+(?:this|the\s+following)\s+prompt\b"
        r"|\b(?:gets?|receives?)\s+(?:the|that)\s+prompt\s+(?:above|below)\b",
        re.I,
    ),
    "prompt",
)
_PROMPT_BELOW = folded(
    r"\b(?:the|this)\s+prompt\s+(?:below|that\s+follows)\b"
    r"|\bthe\s+following\s+prompt\b|\bwith\s+this\s+prompt\b",
)
_SHELL_INFO = {"bash", "sh", "shell", "console", "zsh", "powershell", "ps1", "cmd", "fish"}


class _CodeCall(Gated):
    """An Agent/Task tool call in code: ``Agent(``, ``subagent_type``, ``"name": "Task"``.

    The pattern has no leading word-boundary assertion (one there costs the regex engine its
    first-character skip: 3-4x slower on long blocks); the boundary is checked here instead.
    """

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        for m in self.finditer(text, lower):
            if m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
                return m
        return None


_CODE_CALL = _CodeCall(
    lazy(
        r"(?:"
        + V.alternation(V.SPAWN_CALL_KEYS)
        + r")\b|(?:"
        + _TOOLS
        + r")\(|\"name\"\s*:\s*\"(?:"
        + _TOOLS
        + r")\""
    ),
    *(k.lower() for k in V.SPAWN_CALL_KEYS + V.SPAWN_TOOLS),
)
# a call written into prose: "3. Task(subagent_type="milestone-planner"): You are a planner"
_PROSE_CALL = lazy(r"\b(?:" + _TOOLS + r")\(\s*(?:subagent_type|description|prompt)\s*[=:]")
# a call's key with its value, or the spawn tool called, in a sentence: "via the Agent tool
# (`subagent_type: "Explore"`)", "before every `Agent()` call"
_INLINE_CALL = lazy(
    r"\bsubagent_type\s*[=:]\s*(?:[\"'`]?[A-Za-z][\w:.-]*|$)|\b(?:" + _TOOLS + r")\(\)"
)


def _prose_call(s: Sentence) -> bool:
    """A spawn call written into a sentence: ``Task(subagent_type="planner"): …``, "via the
    Agent tool (`subagent_type: "Explore"`)", "before every `Agent()` call"."""
    if "subagent_type" in s.lower and _PROSE_CALL.search(s.text):
        return True
    return bool(_INLINE_CALL.search(s.text)) and not NEGATION.search(s.text, s.lower)


# the agent a call starts: an agent file showing how it is itself invoked starts nothing
_CALLED = lazy(r"subagent_type\s*[=:]\s*[\"']?([\w:.-]+)")


def _ident(name: str) -> str:
    """An agent name as calls spell it many ways: "QualityGuard", "quality-guard", "quality_guard"."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _calls_itself(doc: Document, text: str) -> bool:
    """An agent file's code sketch that starts only the agent itself ("Invocation:
    Task("Validate …", subagent_type="quality-guard") in quality-guard's own file)."""
    if doc.kind != "agent" or "subagent_type" not in text:
        return False
    called = {_ident(m.group(1)) for m in _CALLED.finditer(text)}
    name = str(doc.data.get("name") or "") if isinstance(doc.data, dict) else ""
    own = name or doc.path.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return called == {_ident(own)}


# code in these languages calls its own libraries' Agent(...) classes, not Claude Code's tool
_PROGRAM_INFO = {"python", "py", "javascript", "js", "typescript", "ts", "tsx", "jsx", "go", "rust"}
_TOOL_NAME = lazy(r"[A-Za-z_][\w-]*")
_CODE_PROMPT_KEY = lazy(r"\bprompt\s*[:=]", re.I)
_WEAK = Gated(
    lazy(
        r"\bone\s+(?:[\w-]+\s+){0,2}?(?:sub-?agent|agent|worker)\s+(?:at\s+a\s+time|per|for\s+each)\b"
        r"|\b(?:sub-?agents?|agents?|workers?)\s+(?:run|are\s+run|runs)\s+"
        r"(?:sequentially|in\s+parallel|one\s+at\s+a\s+time)"
        r"|\((?:agent|task)\s+tool\)"
        r"|(?:^|[(;:])\W*sub-?agents?\s+(?:per|for\s+each)\b"
        r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+|multiple|several)\s+parallel\s+"
        r"(?:sub-?agents|subagents|agents)\b"
        r"|\b(?:audited|reviewed|checked|handled|written|processed|done)\s+(?:[\w-]+\s+){0,4}by\s+"
        r"(?:a\s+)?sub-?agents?\b",
        re.I,
    ),
    # a word of each alternative: "per"/"for" and "parallel" stand for the fourth and fifth,
    # not "agent", which nearly every sentence that reaches this holds
    *("one", "run", "(agent", "(task", "per", "for", "parallel", "by"),
    exact=True,
)
_NEGATED_WORDS = Keywords("not", "n't", "never", "no need")
_SELF_NEGATION = folded(
    r"\b(?:do not|don't|never|no need to)\s+(?:\w+\s+){0,2}"
    r"(?:start|spawn|launch|use|hand|delegate|dispatch|run|call|invoke|emit)"
    r"\b[^.]{0,40}?(?:agents?|sub-?agents?|agent tool|task tool|spawn_agent)",
)
_LONG_QUOTE = lazy(r"[\"“]([^\"”]{60,})[\"”]", re.S)
STANDARD_REF = "CONTEXT_MANAGEMENT.md"
_MAX_BRIEF = 20  # list items read as a sub-agent's brief under one spawn step

# a state file the orchestrator keeps (shared by CM002/CM003/CM004/CM007). Runs of
# alternatives share one leading \b, in their original order (the same matches): an
# alternative that starts with a letter is skipped on its first character, one that starts
# with \b has to be tried, so this reads three times faster than a \b on each
_STATE_NAMED = Gated(
    lazy(
        r"\b(?:state[- ]files?\b|state-[\w<{*]|state\.jsonl?\b"
        r"|progress[- ]files?\b|checkpoint[- ]files?\b"
        r"|(?:progress|state)\b[^.]{0,40}\.jsonl?\b)"
        # the same kept under other names: a run log, a ticked task list, a status file
        r"|\.?memlog(?:\.md)?\b"
        # ... a status board or folder, a workflow's state ("status board (.claude/status/x.json)")
        r"|\b(?:(?:status|tracking)[- ]files?\b|session\s+state\b|progress\.(?:md|json|log|txt)\b"
        r"|status[- ]board\b|workflow[- ]state\b)"
        r"|(?<![\w-])status(?:\.(?:md|json)\b|/[\w${}<>*.-]+\.json\b)"
        r"|\b(?:state\.(?:md|ya?ml|toml)\b"
        # a tracker the run writes to (not one it only names: "written next to progress-tracker.md")
        r"|(?:updates?|updated|append\w*|checks?\s+off|marks?|ticks?|writes?|records?)\b[^.\n]{0,80}?"
        r"\b(?:progress[- ])?tracker\b)",
        re.I,
    ),
    *("state", "progress", "checkpoint", "memlog", "status", "tracking", "tracker"),
    exact=True,
)
# a plan or task file whose items are marked done: "mark the fix complete in FIXES.md",
# "update task checkboxes in phase-N.md", "tick it [x] in tasks.md"
_STATE_MARKED = Gated(
    lazy(
        r"\b(?:mark|marks|marked|tick|ticks|ticked|check\s+off|checks\s+off|update|updates)\b"
        r"[^.\n]{0,60}?(?:\[x\]|\bcompleted?\b|\bdone\b|\bstatus\b|\bcheckbox(?:es)?\b)"
        r"[^.\n]{0,40}?\b(?:in|on)\s+[`'\"]?[\w./{}<>*$-]+\.(?:md|json|ya?ml)\b",
        re.I,
    ),
    *("mark", "tick", "check", "update"),
    also=(".md", ".json", ".yml", ".yaml"),
    exact=True,
)
STATE_FILE = AnyOf(_STATE_NAMED, _STATE_MARKED)
# state kept by other means than a named state file (issue 25: state and progress in any form
# count): a database or a memory tool the run records to, a command that records a task's
# status, a status field set as work moves on, a progress log the run appends to
# (several patterns, each behind the words it cannot match without: "status", "task" and
# "mark" alone would open one big pattern on most sentences of a long file)
_STORE_DB = Gated(
    lazy(
        # a database the run records to: "record each task's status in the Context DB"
        r"\b(?:record|records|recorded|store|stores|stored|save|saves|saved|write|writes|insert"
        r"|inserts|update|updates|updated|log|logs|logged|persist\w*|track|tracks|tracked)\b"
        r"[^.\n]{0,60}?\b(?:in|to|into)\s+(?:the\s+|a\s+|its\s+)?(?:[\w-]+\s+)?(?:database|sqlite|db)\b"
        r"|\b[\w-]+\.(?:db|sqlite3?)\b",
        re.I,
    ),
    *("database", "sqlite", ".db", " db", "`db", "(db"),
)
_STORE_MEMORY = Gated(
    lazy(
        # a memory tool the run writes to
        r"\bmcp__\w*memory\w*(?:save|store|write|create|add|update)\w*|\bmem_(?:save|store|write)\b"
        r"|\b(?:save|saves|store|stores|write|writes|record|records|log|logs)\b[^.\n]{0,40}?"
        r"\b(?:to|in|into)\s+(?:the\s+)?(?:[\w-]+\s+)?memory\b",
        re.I,
    ),
    "memory",
    "mem_",
)
_STORE_COMMAND = Gated(
    lazy(
        # a command or call that records a task's status
        r"--status[ =]|\bset-status\b|\bupdate[-_]status\b|\bmark[-_](?:done|complete)\b"
        r"|\btask[-_](?:done|complete)\b|--mode\s+complete\b",
        re.I,
    ),
    *("--status", "set-status", "update-status", "update_status", "mark-", "mark_"),
    *("task-", "task_", "--mode"),
)
_STORE_FIELD = Gated(
    lazy(
        # a status field set as the work moves on
        r"\b(?:set|sets|update|updates|mark|marks|change|changes|flip|flips)\b[^.\n]{0,40}?\bstatus\b"
        r"[^.\n]{0,30}?\b(?:to|as)\s+[`'\"]?(?:done|complete[d]?|in[-_ ]?progress|finished|fixed|failed|shipped)\b"
        r"|\bstatus\b[^.\n]{0,20}?(?:→|->)\s*[`'\"]?(?:done|complete[d]?|fixed|failed)",
        re.I,
    ),
    "status",
)
_STORE_LOG = Gated(
    lazy(
        # a progress log the run appends to
        r"\b(?:append|appends|appended|emit|emits|write|writes)\b[^.\n]{0,60}?\.(?:jsonl|log)\b",
        re.I,
    ),
    ".jsonl",
    ".log",
)
STATE_STORE = AnyOf(_STORE_DB, _STORE_MEMORY, _STORE_COMMAND, _STORE_FIELD, _STORE_LOG)
# state in any form: what CM003, CM004 and CM007 read as the orchestrator's state
STATE_ANY = AnyOf(_STATE_NAMED, _STATE_MARKED, *STATE_STORE.parts)
# a run that can be resumed keeps its state somewhere, even when the rule cannot tell where
RESUME_TALK = Gated(
    lazy(
        r"\bresum(?:e|es|ed|ing|able)\b|\bpick(?:s|ed)?\s+up\s+where\b|\bcontinu(?:e|es|ation)\s+"
        r"(?:from|where)\b|\bleft\s+off\b|--resume\b",
        re.I,
    ),
    *("resum", "pick", "continu", "left"),
    exact=True,
)
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "single": 1,
}
NUM = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"


def number(word: str) -> int:
    word = word.lower().replace(",", "")
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word, 0)


# --- sentences ----------------------------------------------------------------------


# any spawn instruction or prompt header names one of these; other text is skipped cheaply
_CJK_HINTS = tuple(n for n in V.CJK_AGENT_NOUNS + V.ZH_AGENT_NOUNS if not n.isascii())
_HINT = Keywords("agent", "worker", "task", "spawn", "dispatch", wide=_CJK_HINTS)
_HINT_OR_PROMPT = Keywords(
    "agent", "worker", "task", "spawn", "dispatch", "prompt", wide=_CJK_HINTS
)

# Japanese and Korean: the agent noun, its object/target particle, then the verb ("以下の
# エージェントを並列で起動してください", "서브에이전트를 병렬로 실행"), or with no particle a verb
# that only starts something ("Explore agent 위임", "サブエージェント起動"); not "this agent"
# (the file describing itself: "このエージェントを使用して")
_JA_KO_SPAWN = lazy(
    r"(?<!この)(?<!本)(?<!이 )(?:"
    + V.alternation(V.CJK_AGENT_NOUNS)
    + r")s?(?:\s*(?:"
    + V.alternation((*V.OBJECT_PARTICLES, "で"))
    + r")[^。．！？!?\n]{0,16}?(?:"
    + V.alternation(V.JA_KO_SPAWN_VERBS)
    + r")|\s?(?:"
    + V.alternation(V.CJK_STRONG_VERBS)
    + r"))"
)
# Chinese: the verb, then the agent ("并行启动3个子代理", "调用 code-reviewer 智能体")
_ZH_SPAWN = lazy(
    r"(?:"
    + V.alternation(V.ZH_SPAWN_VERBS)
    + r")[^。．！？!?\n，,]{0,12}?(?:"
    + V.alternation(V.ZH_AGENT_NOUNS)
    + r")"
)


# a character of these scripts: the patterns below run only on text that holds one
CJK_CHAR = lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def cjk_spawn(lower: str) -> bool:
    """An un-negated spawn instruction in Japanese, Korean or Chinese in ``lower`` (lowered)."""
    if lower.isascii() or not CJK_CHAR.search(lower):
        return False
    for m in _JA_KO_SPAWN.finditer(lower):
        after = lower[m.end() : m.end() + 8]
        if not any(n in after for n in V.JA_KO_NEGATIONS):
            return True
    for m in _ZH_SPAWN.finditer(lower):
        before = lower[max(0, m.start() - 3) : m.start()]
        # "不要仅因…就主动创建子 agent": a clause that opens with a prohibition negates its verb
        clause = re.split(r"[，。；,;:：]", lower[max(0, m.start() - 30) : m.start()])[-1]
        if not any(n in before for n in V.ZH_NEGATIONS) and not any(
            n in clause for n in V.ZH_CLAUSE_NEGATIONS
        ):
            return True
    return False


# a sub-agent noun (the loanword, sous-agent, Subagent), and a native verb within a few words
# before it: the noun is found first (a literal start), the verb in the short stretch before
_LATIN_NOUN = lazy(r"(?<![\w-])(?:sub-?agent\w*|sous-agents?)(?![\w-])")
_LATIN_VERB = lazy(
    r"(?<![\w-])(" + V.alternation(V.LATIN_SPAWN_VERBS) + r")(?![\w-])[^.;:!?]{0,50}$"
)


def latin_spawn(lower: str) -> bool:
    """An un-negated spawn instruction in French, Portuguese, Spanish, Italian or German in
    ``lower`` (lowered): one of their verbs with a sub-agent noun just after it."""
    if not ("subagent" in lower or "sub-agent" in lower or "sous-agent" in lower):
        return False  # the noun every match needs (most sentences lack it)
    for noun in _LATIN_NOUN.finditer(lower):
        before = lower[max(0, noun.start() - 60) : noun.start()]
        verb = _LATIN_VERB.search(before)
        if verb is None:
            continue
        at = len(before) - len(verb.group(0))  # the verb's place in ``before``
        clause = re.split(r"[,;:(]", before[max(0, at - 40) : at])[-1]
        if not any(n in clause for n in V.LATIN_NEGATIONS):
            return True
    return False


def _hinted(lower: str, with_prompt: bool = False) -> bool:
    return (_HINT_OR_PROMPT if with_prompt else _HINT).any_in(lower)


class Sentence(NamedTuple):
    block: Block
    offset: int  # in block.text
    text: str  # markdown emphasis blanked out, same length as the source
    lower: str  # text.lower(), computed once for the keyword pre-checks of every rule

    @property
    def line(self) -> int:
        return self.block.line_of(self.offset)


MAX_SENTENCE = 2000  # characters


def plain(text: str) -> str:
    """Markdown emphasis blanked out, offsets unchanged."""
    return text.replace("*", " ").replace("`", " ")


def sentences(block: Block) -> list[Sentence]:
    """Sentences of a prose block (table cells count as sentences), computed once per block."""
    cached = block.memo.get("sentences")
    if cached is None:
        cached = block.memo["sentences"] = _split(block)
    return cached  # type: ignore[return-value]


def _split(block: Block) -> list[Sentence]:
    text = block.text
    out: list[Sentence] = []
    if block.kind == "table":
        # emphasis blanked and case lowered once for the whole table, then cut into cells
        flat = plain(text)
        low = flat.lower()
        for cell in _CELL.finditer(flat):
            cell_text = cell.group()
            if not cell_text.isspace():
                out.append(Sentence(block, cell.start(), cell_text, low[cell.start() : cell.end()]))
        return out
    flat = plain(text)
    start = 0
    for m in _SENTENCE_END.finditer(flat) if _may_end_sentence(flat) else ():
        end = m.start()
        if flat[end] in ".!?;:":
            end += 1  # the stop belongs to the sentence
        _add(out, block, flat, start, end)
        start = m.end()
    _add(out, block, flat, start, len(flat))
    return out


def _add(out: list[Sentence], block: Block, flat: str, start: int, end: int) -> None:
    """Append ``flat[start:end]`` as a sentence, cut at spaces into pieces of at most
    ``MAX_SENTENCE`` characters: every rule's work on a sentence grows with the square of its
    length (each verb looks back to the sentence's start), and no real sentence is that long."""
    while end - start > MAX_SENTENCE:
        cut = flat.rfind(" ", start + MAX_SENTENCE // 2, start + MAX_SENTENCE)
        if cut < 0:
            cut = start + MAX_SENTENCE
        piece = flat[start:cut]
        if piece.strip():
            out.append(Sentence(block, start, piece, piece.lower()))
        start = cut
    piece = flat[start:end]
    if piece.strip():
        out.append(Sentence(block, start, piece, piece.lower()))


def holding(block: Block, found: list[Sentence], keys: tuple[str, ...]) -> list[Sentence]:
    """The sentences of ``block`` (``found``: its sentences) that may hold one of ``keys``.

    Each key is looked for once in the block's lowered text and its finds are placed in
    sentences by offset, instead of every sentence being searched for every key: a large
    table is thousands of cells. Offsets agree only where lowering keeps every character one
    character (ASCII text), and blanked emphasis can make a key with a space, so otherwise all
    of ``found`` is returned. The caller still tests each sentence: this only leaves out those
    that hold no key.
    """
    lower = block.lower
    if len(found) < 8 or not lower.isascii() or any(" " in key for key in keys):
        return found  # a short block: testing each sentence costs no more
    starts = [s.offset for s in found]
    picked: set[int] = set()
    for key in keys:
        at = lower.find(key)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            end = starts[k] + len(found[k].text) if k >= 0 else 0
            if at + len(key) <= end:
                picked.add(k)
                at = lower.find(key, end)  # the rest of a kept sentence needs no search
            else:
                at = lower.find(key, at + 1)
    return [found[k] for k in sorted(picked)]


def _may_end_sentence(text: str) -> bool:
    """Whether ``text`` holds a character that _SENTENCE_END needs (most list items hold none)."""
    for mark in ".!?;:\n":
        if mark in text:
            return True
    return False


def _lead_ok(prefix: str) -> bool:
    if "\n" in prefix:
        label, _, rest = prefix.rpartition("\n")
        label = label.rsplit("\n", 1)[-1]
        # a short line that ends in bold (blanked to spaces) or a colon is a label
        if label.endswith(("  ", ":")) and len(label.strip()) <= 60 and _lead_ok(rest):
            return True  # "Step 2: Execute with Agent" on its own line, then the instruction
    prefix = _STEP_LABEL.sub("", prefix.replace("\n", " ")).strip()
    prefix = _LEADING_PUNCTUATION.sub("", prefix)
    if not prefix:
        return True
    adverb = _TRAILING_ADVERB.search(prefix)
    if adverb and adverb.start() > 0:  # "…, clearly delegate": the lead is what precedes it
        return _lead_ok(prefix[: adverb.start()])
    if _LEAD_TO.search(prefix):
        return not _LEAD_TO_BAD.search(prefix)
    if _LEAD_MODAL.search(prefix):
        return not _LEAD_MODAL_BAD.search(prefix)
    if _CAPABILITY.search(prefix):
        return False
    return bool(_LEAD_OK.search(prefix))


def _after_last(text: str, marks: str) -> str:
    """What follows the last of ``marks`` in ``text`` (all of it when none occurs)."""
    return text[max(map(text.rfind, marks)) + 1 :]


_NEGATED_LIST = folded(
    r"\b(?:not|never|don't|do\s+not|must\s+not|mustn't|cannot|can't|no)\s+"
    r"(?:\w+,?\s+(?:(?:or|and|nor)\s+)?){0,4}$"
)


_LOOK_BACK = 120  # characters before a verb that decide whether it is an instruction


def imperative(sentence: str, verb_start: int) -> bool:
    """True when the verb at ``verb_start`` is an un-negated instruction.

    Only the last ``_LOOK_BACK`` characters before the verb are read (a lead such as "then",
    "you must", a step label, or a negation is short), so a sentence's cost grows with its
    length, not with its length times its verbs.
    """
    if verb_start > _LOOK_BACK + 40:
        prefix = "… " + sentence[verb_start - _LOOK_BACK : verb_start]
    else:
        prefix = sentence[:verb_start]
    clause = _after_last(prefix, ",;:—–")
    if NEGATION.search(clause) or sentence.rstrip().endswith("?"):
        return False
    if "," in prefix and _NEGATED_LIST.search(prefix):
        return False  # "do not dispatch, spawn, or delegate …"
    return _lead_ok(prefix)


def spawn_hits(s: Sentence, granted: bool = False) -> list[tuple[int, str]]:
    """The offset (in the sentence) and the family (``DETECTION_FAMILIES``) of its first
    imperative spawn instruction, in a list, or [].

    ``granted``: the frontmatter grants the spawn tool, so a looser object counts
    ("run the agents below" rather than "run three parallel agents").
    """
    key = f"spawn:{s.offset}:{granted}"
    cached = s.block.memo.get(key)
    if cached is None:
        told: list[int] = []
        cached = s.block.memo[key] = (
            _spawn_hits(s.text, s.lower, granted or _agents_section(s.block), told)
            if _hinted(s.lower)
            else []
        )
        if told and not cached:
            s.block.memo[f"told:{s.offset}"] = True
    return cached  # type: ignore[return-value]


def described(s: Sentence) -> bool:
    """Whether :func:`spawn_hits` (already asked) found a spawn verb with an agent as its
    object in ``s`` that is not an order to the reader: a description ("the lead spawns …" in
    another's voice, "agents are dispatched when …"), a question, a negation."""
    return bool(s.block.memo.get(f"told:{s.offset}"))


def _agents_section(block: Block) -> bool:
    """Whether a heading above ``block`` names sub-agents ("### With Subagents"): its steps
    may say "dispatch the tasks" and mean sub-agents, as under a granted spawn tool."""
    return any(_SUB_AGENT.search(title) for title in block.section)


def _spawn_hits(
    text: str, lower: str, granted: bool = False, told: list[int] | None = None
) -> list[tuple[int, str]]:
    """See :func:`spawn_hits`; ``told`` collects the offsets of spawn verbs with an agent as
    their object that are not instructions (the mood of the file's text about sub-agents)."""
    quoted = quoted_spans(text) if '"' in text or "“" in text else ()
    if "agent" in lower or "task" in lower:
        for pattern, family in ((_TOOL_USE, TOOL), (_USING_NAMED, USING_NAMED)):
            for m in pattern.finditer(text, lower):
                if _CONDITION.match(text, _clause_start(text, m.start())):
                    continue  # "when spawning teammates with the Agent tool, choose …"
                if not inside(quoted, m.start()) and _plain_clause(text, m.start()):
                    if family == TOOL and "tool" not in m.group(0).lower():
                        family = AGENT_OBJECT  # "using three agents"
                    return [(m.start(), family)]  # callers ask whether there is one
        for m in _IN_AGENT.finditer(text, lower) if "in" in lower or "through" in lower else ():
            start = _clause_start(text, m.start())
            if (
                _WORK_VERB.match(text, start)
                and not inside(quoted, m.start())
                and imperative(text, start)
            ):
                return [(start, IN_AGENT)]  # "run every remaining mission in a subagent"
    for m in _SPAWN_VERB.finditer(text, lower):
        if text[m.start() - 1 : m.start()] == "-" or text[m.end() : m.end() + 1] in ("-", "_"):
            continue  # "ready-to-use", "run-agents"
        if inside(quoted, m.start()):
            continue  # quoted speech or a quoted prompt: not this file's instruction
        verb = " ".join(m.group(1).lower().split())  # "kick  off" -> "kick off"
        obj = text[m.end() : m.end() + 90]
        if (
            not text[: m.start()].strip(" *_-#>")
            and _VERB_AS_SUBJECT.match(obj)
            and not (_OBJECT.match(obj) or _ROLE_OBJECT.match(obj))
        ):
            continue  # "Dispatch accepts the task array": the noun, subject of a verb
        obj = _AFTER_STOP.split(obj)[0]
        # the object test first: it rules out most verbs ("run the tests") more cheaply
        family = _spawns_agent(verb, obj, granted) or (
            FRONTED if verb in _TO_VERBS and _FRONTED_AGENT.match(text) else ""
        )
        if family and imperative(text, m.start()):
            return [(m.start(), family)]
        if family and told is not None:
            told.append(m.start())
    for m in _SELF_SPAWN.finditer(text, lower) if _SELF_WORDS.any_in(lower) else ():
        verb = _THIRD_PERSON[" ".join(m.group(1).lower().split())]
        obj = _AFTER_STOP.split(text[m.end() : m.end() + 90])[0]
        if _spawns_agent(verb, obj, granted) and _plain_clause(text, m.start()):
            return [(m.start(), SELF)]  # "the orchestrator dispatches a fresh Verifier sub-agent"
    return []


_SELF_WORDS = Keywords(*(w.split()[0] for w in V.SELF_SUBJECTS), "this")
# a clause that states when, not what: "When spawning teammates with the Agent tool, choose …"
# (the order is in the main clause, and here it is not a spawn)
_CONDITION = lazy(r"(?:when|whenever|while|before|after|once|if|by)\s+\w+ing\b", re.I)


def _plain_clause(text: str, at: int) -> bool:
    """The clause before ``at`` neither negates nor defines, and the sentence asks nothing."""
    clause = _after_last(text[max(0, at - _LOOK_BACK) : at], ",;")
    return not (
        NEGATION.search(clause) or _DESCRIPTIVE.search(clause) or text.rstrip().endswith("?")
    )


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding ``at`` begins: after the last , ; : — ( or line break, past a
    list marker, step label and emphasis."""
    start = max(0, at - _LOOK_BACK)
    for m in _CLAUSE_START.finditer(text, start, at):
        start = m.end()
    label = _STEP_LABEL.match(text, start)
    if label:
        start = label.end()
    while start < at and not text[start].isalnum():
        start += 1
    return start


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Spans between double quotes ("…" or “…”)."""
    spans = []
    opened = -1
    for k, ch in enumerate(text):
        if ch in '"“”':
            if opened < 0 and ch != "”":
                opened = k
            elif opened >= 0 and ch != "“":
                spans.append((opened, k))
                opened = -1
    return spans


def inside(spans: tuple | list, at: int) -> bool:
    return any(a < at < b for a, b in spans)


def _spawns_agent(verb: str, obj: str, granted: bool = False) -> str:
    """The family by which ``verb`` followed by ``obj`` acts on a sub-agent or the spawn tool
    (``TOOL``, ``AGENT_OBJECT``, ``ROLE_OBJECT``, ``NAMED_OBJECT``, ``GRANTED``), or ""."""
    if " of " in obj[:30]:
        obj = _PARTITIVE.sub("", obj, count=1)  # "spawn all of the following agents"
    if _OTHER_AGENT.match(obj):
        return ""  # another program's agent, a peer session, a browser worker
    if verb in _ANY_OBJECT_VERBS:
        if _NOT_AGENT_OBJECT.match(obj):
            return ""
        if _TOOL.search(obj[:60]) and not _TOOL_OBJECT.match(obj):
            return TOOL  # "dispatch the Sonnet renderer (Agent tool, model: sonnet)"
        # "spawn a reviewer", "dispatch fix-planner" — not "spawn the next cycle"
        if _OBJECT.match(obj):
            return AGENT_OBJECT
        if _ROLE_OBJECT.match(obj):
            return ROLE_OBJECT
        if _NAMED_OBJECT.match(obj):
            return NAMED_OBJECT
        to = _TO_OBJECT.match(obj)  # "dispatch each task to a subagent"
        if to and _OBJECT.match(obj[to.end() :]):
            return AGENT_OBJECT
        if to and _ROLE_OBJECT.match(obj[to.end() :]):
            return ROLE_OBJECT
        as_ = _AS_OBJECT.match(obj)  # "dispatch each lens as a parallel Task agent"
        if as_ and _OBJECT.match(obj[as_.end() :]):
            return AGENT_OBJECT
        # the file grants the spawn tool, or the section is about sub-agents
        return GRANTED if granted else ""
    if _TOOL.search(obj[:40] if verb in _TOOL_VERBS else obj[:70]):
        return "" if verb not in _TOOL_VERBS and _TOOL_OBJECT.match(obj) else TOOL
    if verb == "fan out":
        obj = _FAN_OUT.sub("", obj, count=1)  # "fan out with parallel subagents"
    phrase = _OBJECT.match(obj)
    if phrase is not None and verb in _TO_VERBS and _SECOND_OBJECT.match(obj, phrase.end()):
        return ""  # "give each agent its own workspace": the agents exist already
    if phrase is None and verb in _TO_VERBS:
        to = _TO_OBJECT.match(obj)
        phrase = _OBJECT.match(obj[to.end() :]) if to else None
        if phrase is None and to and verb == "delegate" and _ROLE_OBJECT.match(obj[to.end() :]):
            return ROLE_OBJECT  # "delegate to a planning specialist" (not "hand it to the user")
        if phrase is None and to and "agent" in obj.lower():
            # a later "to" ("hand each group (A to J) and the map to its own subagent")
            for later in _LATER_TO.finditer(obj, to.end(), _clause_end(obj)):
                phrase = _OBJECT.match(obj[later.end() :])
                if phrase is not None:
                    break
    if phrase is None and verb not in _TOOL_VERBS:
        as_ = _AS_OBJECT.match(obj)  # "launch three voices as fresh subagents"
        phrase = _OBJECT.match(obj[as_.end() :]) if as_ else None
    if phrase is None:
        if granted and verb not in _TOOL_VERBS and verb != "create":
            loose = AGENT_NOUN.search(obj[:70]) and not _TOOL_OBJECT.match(obj)
            return GRANTED if loose else ""
        return ""
    head = phrase.group(0)
    if not phrase.group(1).strip() and _POLICY.match(obj, phrase.end()):
        return ""  # "use subagents for complex work", "run agents in parallel when ...": advice
    if verb == "create":
        # not "create agents" (files), nor "create sub-agents as Markdown files"
        defined = _AS_DEFINITION.match(obj[phrase.end() :])
        return AGENT_OBJECT if "sub" in head.lower() and not defined else ""
    if verb in _TOOL_VERBS:
        # "use parallel agents", "use the `code-reviewer` agent", "use a subagent"
        words = phrase.group(1)
        if _COUNTED.search(head) or _NAMED.search(words):
            return AGENT_OBJECT
        # "invoke the executor agent": an agent named by its job
        return AGENT_OBJECT if verb == "invoke" and _JOB_WORD.search(words) else ""
    return AGENT_OBJECT


# a job before "agent" ("the executor agent", "the programmer agent"), not "the user agent"
_JOB_WORD = lazy(r"\b(?:" + _ROLES + r"|\w{3,}(?:er|or))\s*$", re.I)


# what follows a bare plural object in advice: a condition or an alternative, not a task
_POLICY = lazy(
    r"(?<=s)(?:\s+in\s+parallel)?\s*(?:,\s*)?(?:when|whenever|if|where|or|for(?!\s+(?:each|every|all)\b))\b",
    re.I,
)
_PARTITIVE = lazy(
    r"^\W*(?:all|each|both|any|some|one|two|three|four|five|\d+)\s+of\s+(?:the|these|those)?\s*",
    re.I,
)
_SUB_AGENT = lazy(r"\bsub-?agents?\b|\bsubagents?\b", re.I)


# --- the analysis -------------------------------------------------------------------


class Prompt:
    """Text handed to a sub-agent: a fenced/quoted block, an inline quote, or a forked body."""

    def __init__(self, blocks: list[Block], line: int, source: str = "") -> None:
        self.blocks = blocks
        self.line = line  # where to report (in the linted file)
        self.source = source  # sibling name when it lives in a referenced file

    @property
    def text(self) -> str:
        return "\n".join(b.text for b in self.blocks)


class Analysis:
    """The facts about one document that the protocol rules share."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.spawn_lines: list[int] = []
        self.weak_lines: list[int] = []
        self.self_negated = False
        self.forked = False
        self.granted = False  # the frontmatter grants the spawn tool (allowed-tools / tools)
        self.cannot_spawn = False  # it denies the spawn tool, or an agent's tools list lacks it
        # a skill's or command's allowed-tools lists whole tools but not the spawn tool: it
        # pre-approves others, it does not forbid spawning, so only weak evidence is ruled out
        self.unlisted = False
        self.tool_lines: list[int] = []  # spawn instructions that name the spawn tool itself
        self.header_lines: list[int] = []  # spawn lines that are prompt headers, not verbs
        self.memo: dict[str, object] = {}  # facts several rules share (e.g. the state file's lines)
        self.marks: list[Mark] = []  # every spawn step and hint, with the reading that found it
        # readings in text that is not the file's own instruction (Mark.where in NOT_OWN): kept
        # for the calibration's features and the benchmarks, never evidence of spawning
        self.foreign: list[Mark] = []
        self.not_own: dict[int, str] = {}  # id(block) -> where, for blocks that are not its own
        self.described = 0  # sentences that speak of spawning without ordering it (the mood)

    @cached_property
    def orchestrator(self) -> bool:
        """Whether the readings find the file spawning sub-agents at all: a candidate, which
        the calibrated decision (:attr:`spawn_tier`) asserts or only offers."""
        return self._spawns()

    @cached_property
    def spawn_probability(self) -> float:
        """The calibrated probability that the file starts sub-agents (0 when no reading finds
        it spawning at all)."""
        if not self.orchestrator:
            return 0.0
        return calibration.detection_probability(spawn_features(self))

    @cached_property
    def spawn_tier(self) -> str:
        """``default`` when the calibrated decision asserts that the file starts sub-agents,
        ``preview`` when the readings find it spawning but the decision is not sure enough,
        "" when no reading does."""
        if not self.orchestrator:
            return ""
        sure = calibration.detection_asserted(self.spawn_probability, structural(self))
        return DEFAULT if sure else PREVIEW

    def _spawns(self) -> bool:
        """The readings' verdict: a spawn step, or hints the file does not negate."""
        marks = self.marks
        if self.forked:
            return True
        if self.cannot_spawn:
            return False  # whatever the prose says, the tool is not there
        strong = [m for m in marks if m.family in _STRONG]
        if self.unlisted:
            # only an instruction that names the spawn tool outweighs the list ("Spawn agents
            # in parallel using multiple Task tool calls")
            return any(m.tool for m in strong)
        if strong:
            # an agent file whose only evidence is prompt talk is itself the prompt handed
            # over ("# Failure-analysis subagent prompt", "You will receive … in the Agent
            # prompt"), not a file that hands one on
            return not (self.doc.kind == "agent" and all(m.header for m in strong))
        return bool(marks) and not self.self_negated

    @cached_property
    def spawn_evidence(self) -> tuple[Evidence, ...]:
        """Where the file spawns sub-agents, the surest readings first: the first few marks'
        lines and what they say, for findings and for the JSON report."""
        ranked = sorted(
            self.marks, key=lambda m: (m.family in _LESSER, m.family not in _STRONG, m.line)
        )
        out: list[Evidence] = []
        if self.forked:
            out.append(
                Evidence(self.doc.key_line("context"), "context: fork (runs as a sub-agent)")
            )
        seen: set[int] = set()
        for m in ranked:
            if len(out) >= _SHOWN_SPAWNS:
                break  # a long file has thousands of spawn steps; findings show two or three
            if m.line not in seen:
                seen.add(m.line)
                out.append(Evidence(m.line, f"spawns sub-agents: {quote(m.text)}"))
        return tuple(out)

    def add_mark(
        self,
        line: int,
        family: str,
        text: str,
        header: bool = False,
        tool: bool = False,
        section: tuple[str, ...] = (),
        where: str = INSTRUCTION,
    ) -> None:
        """Record a spawn step (or a weaker hint) found by ``family``; one in text that is not
        the file's own instruction (``where`` in NOT_OWN) is kept apart and proves nothing."""
        if where in NOT_OWN:
            self.foreign.append(Mark(line, family, text, header, tool, section, where))
            return
        self.marks.append(Mark(line, family, text, header, tool, section, where))
        if family in _STRONG:
            self.spawn_lines.append(line)
            if header:
                self.header_lines.append(line)
            if tool:
                self.tool_lines.append(line)
        else:
            self.weak_lines.append(line)

    @property
    def first_line(self) -> int:
        """Where document-level findings are reported: the first spawn instruction."""
        lines = self.spawn_lines or self.weak_lines
        if lines:
            return min(lines)
        if self.forked:
            return self.doc.key_line("context")
        return self.doc.body_start + 1

    # groups of blocks: the file's own, then each referenced sibling's
    @cached_property
    def groups(self) -> list[tuple[str, list[Block]]]:
        return [("", self.doc.blocks)] + [(s.name, s.blocks) for s in self.doc.siblings]

    def report_line(self, block: Block, line: int | None = None) -> int:
        if block.source:
            return self.doc.sibling_line(block.source)
        return block.start if line is None else line

    @cached_property
    def prompts(self) -> list[Prompt]:
        """Every prompt handed to a sub-agent, in document order."""
        if self.forked and not self.spawn_lines:
            body = [b for b in self.doc.blocks]
            return [Prompt(body, self.doc.body_start + 1)] if body else []
        found: list[Prompt] = []
        for sib in self.doc.siblings:
            if self._hands_over(sib.name, sib.line):
                found.append(Prompt(sib.blocks, sib.line, sib.name))
        handed = {id(b) for p in found for b in p.blocks}
        for source, blocks in self.groups:
            for idx, block in enumerate(blocks):
                if id(block) in handed or id(block) in self.not_own:
                    continue  # a type definition or another file's text is handed to no one
                if block.kind == "tag" and _PROMPT_WORD.search(
                    block.info.replace("-", " ").replace("_", " ")
                ):
                    found.append(Prompt([block], self.report_line(block), source))
                elif block.kind in ("code", "quote", "tag") and self._is_prompt_block(blocks, idx):
                    found.append(Prompt([block], self.report_line(block), source))
                elif block.kind in ("item", "paragraph") and self._is_inline_prompt(block):
                    found.append(Prompt([block], self.report_line(block), source))
        return found

    def _hands_over(self, name: str, line: int) -> bool:
        """A linked sibling is a sub-agent's prompt if its link or name says so ("worker brief")."""
        for block in self.doc.blocks:
            if block.start <= line <= block.end:
                link = re.search(r"\[([^\]]*)\]\(\s*<?" + re.escape(name), block.text)
                label = (link.group(1) if link else "") + " " + re.sub(r"[-_./]", " ", name)
                return bool(_PROMPT_WORD.search(label))
        return False

    @cached_property
    def prompt_block_ids(self) -> set[int]:
        return {id(b) for p in self.prompts for b in p.blocks}

    def _intro(self, blocks: list[Block], idx: int) -> list[Block]:
        """Prose introducing block ``idx``: its list item, then earlier blocks up to the heading."""
        block = blocks[idx]
        intro: list[Block] = []
        if block.parent is not None:
            intro.append(blocks[block.parent])
        j = idx - 1
        while j >= 0 and len(intro) < 6:
            prev = blocks[j]
            if prev.kind in ("code", "quote", "tag") and prev.parent == block.parent:
                break
            if j != block.parent:
                intro.append(prev)
            if prev.kind == "heading":
                break
            j -= 1
        return intro

    def _is_prompt_block(self, blocks: list[Block], idx: int) -> bool:
        block = blocks[idx]
        text = block.text
        if (
            block.kind == "code"
            and _CODE_CALL.search(text, block.lower)
            and _CODE_PROMPT_KEY.search(text)
        ):
            return True
        if block.kind == "code" and block.info in _SHELL_INFO:
            return False
        n = 0
        for intro in self._intro(blocks, idx):
            text = plain(intro.text)
            tail = text.rstrip()
            if (
                n == 0
                and intro.kind == "paragraph"
                and tail.endswith(":")
                and len(tail) <= 40
                and not _PROMPT_WORD.search(text)
                and not any(spawn_hits(s, self.granted) for s in sentences(intro))
            ):
                continue  # a label on its own ("**Advocate:**"): the lead is the line above it
            if intro.kind == "heading":
                return bool(_PROMPT_WORD.search(text))
            if _PROMPT_HEADER.search(text) or _PROMPT_BELOW.search(text):
                return True
            if (
                n == 0
                and tail.endswith(":")
                and (
                    _PROMPT_WORD.search(text)
                    or any(spawn_hits(s, self.granted) for s in sentences(intro))
                )
            ):
                return True
            n += 1
        return False

    def _is_inline_prompt(self, block: Block) -> bool:
        """A spawn step that quotes the prompt it hands over."""
        text = block.text
        return (
            ('"' in text or "“" in text)
            and bool(_LONG_QUOTE.search(text))
            and any(spawn_hits(s, self.granted) for s in sentences(block))
        )

    # prose outside prompts: what the orchestrator itself is told
    @cached_property
    def prose_blocks(self) -> list[tuple[Block, list[Sentence]]]:
        """What the orchestrator itself is told: prose outside prompts (inline quotes blanked),
        block by block with each block's sentences."""
        out: list[tuple[Block, list[Sentence]]] = []
        inline = {id(b) for p in self.prompts for b in p.blocks if b.kind not in ("code", "quote")}
        for _, blocks in self.groups:
            for block in blocks:
                if block.kind in ("code", "quote", "tag"):
                    continue
                if id(block) in inline:
                    block = _masked(block)
                elif id(block) in self.prompt_block_ids:
                    continue
                out.append((block, sentences(block)))
        return out

    @cached_property
    def prose(self) -> list[Sentence]:
        """The sentences of :attr:`prose_blocks`, in order."""
        return [s for _, found in self.prose_blocks for s in found]

    def prose_where(self, words: Keywords | Gated | AnyOf) -> Iterator[Sentence]:
        """Sentences of :attr:`prose` that may hold one of ``words`` (its ``keys``), in order, for
        the caller to test: those of the blocks holding one (no sentence holds a word its block
        lacks, and most blocks lack them all), less those :func:`holding` rules out. It walks the
        blocks, not every sentence: five rules ask, and a large file has 400k sentences."""
        for block, found in self.prose_blocks:
            lower = block.lower
            if words.any_in(lower) if type(words) is Keywords else words.hit(block.text, lower):
                yield from holding(block, found, words.keys)

    @cached_property
    def shell_blocks(self) -> list[Block]:
        """Code the orchestrator runs or follows: shell, and sketches that call the Agent tool."""
        return [
            b
            for _, blocks in self.groups
            for b in blocks
            if b.kind == "code"
            and (id(b) not in self.prompt_block_ids or _CODE_CALL.search(b.text, b.lower))
        ]

    @cached_property
    def global_units(self) -> list[Block]:
        """Prose about every sub-agent (rules sections, sibling files, "each sub-agent …")."""
        out = []
        for _, blocks in self.groups:
            for block in blocks:
                if (
                    block.kind in ("code", "quote", "tag", "heading")
                    or id(block) in self.prompt_block_ids
                ):
                    continue
                if AGENT_NOUN.search(block.text, block.lower) or _PROMPT_WORD.search(
                    block.text, block.lower
                ):
                    out.append(block)
        return out

    @cached_property
    def _spawn_order(self) -> list[int]:
        return sorted(set(self.spawn_lines))

    def spawns_in(self, block: Block) -> bool:
        """Whether a spawn instruction sits on one of ``block``'s lines.

        The sorted spawn lines are searched by bisection: scanning them all for every block
        made a file's cost grow with its blocks times its spawn steps.
        """
        spawn = self._spawn_order
        k = bisect_left(spawn, block.start)
        return k < len(spawn) and spawn[k] <= block.end

    @cached_property
    def briefs(self) -> set[int]:
        """Ids of list items that brief a sub-agent: the items under a spawn step that ends
        with a colon ("Spawn `fix-planner`:" over "- Read all audit reports")."""
        out: set[int] = set()
        if not self.spawn_lines:
            return out
        for _, blocks in self.groups:
            for idx, block in enumerate(blocks):
                if block.kind not in ("item", "paragraph") or not block.text.rstrip().endswith(":"):
                    continue
                if not self.spawns_in(block):
                    continue
                for b in blocks[idx + 1 : idx + 1 + _MAX_BRIEF]:
                    if b.kind != "item" or (block.kind == "item" and b.parent != idx):
                        break
                    out.add(id(b))
        return out

    @cached_property
    def references_standard(self) -> bool:
        return any(STANDARD_REF in b.text for b in self.doc.blocks)


def _in_guide(section: tuple[str, ...]) -> bool:
    """Whether the innermost headings (not the document's title) name a guide-like section."""
    titles = section[1:][-2:] if len(section) > 1 else ()
    return any(_GUIDE_SECTION.search(title) for title in titles)


def _masked(block: Block) -> Block:
    """A copy of ``block`` with its long quoted passages blanked (line breaks kept)."""
    text = _LONG_QUOTE.sub(lambda m: _blank(m.group(0)), block.text)
    return block.copy(lines=text.split("\n"))


def _blank(text: str) -> str:
    """``text`` with every character but a line break turned into a space (line by line: a
    regex substitution made one match per character)."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def _tool_names(value: object) -> set[str] | None:
    """Tool names in a frontmatter tools value ("Read, Task(x)", a list), None when absent."""
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    names: set[str] = set()
    for item in items:
        for m in _TOOL_NAME.finditer(str(item)):
            names.add(m.group(0))
    return names


def _bare_tools(value: object) -> bool:
    """Whether a tools value names a whole tool ("Read"), not only scoped grants ("Bash(x *)")."""
    items = value if isinstance(value, list) else str(value or "").split(",")
    return any(_BARE_TOOL.match(str(item).strip()) for item in items)


_BARE_TOOL = lazy(r"[A-Za-z_][\w-]*$")
_TOP_KEY = lazy(r"^([A-Za-z][\w-]*)\s*:\s*(.*)$")


def _lenient(doc: Document) -> dict[str, object]:
    """Top-level ``key: value`` lines of a frontmatter YAML cannot read.

    Claude Code reads such frontmatter leniently (a description holding ": " still loads), so
    the tool keys are taken line by line rather than ignored.
    """
    if doc.front_error is None or doc.body_start < 2:
        return {}
    out: dict[str, object] = {}
    for line in doc.lines[1 : doc.body_start - 1]:
        m = _TOP_KEY.match(line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _spawn_tools(doc: Document, result: Analysis) -> None:
    spawn = set(V.SPAWN_TOOLS) | set(V.HOST_SPAWN_TOOLS)
    data = doc.data or _lenient(doc)
    for key in V.DENY_KEYS:
        denied = _tool_names(data.get(key))
        if denied and denied & spawn:
            result.cannot_spawn = True
    for key in V.GRANT_KEYS:
        granted = _tool_names(data.get(key))
        if granted is None:
            continue
        if granted & spawn:
            result.granted = True
        elif key == "tools" and doc.kind == "agent" and granted:
            result.cannot_spawn = True  # an agent runs with exactly the tools it lists
        elif key == "allowed-tools" and _bare_tools(data.get(key)):
            # a skill or command that lists the tools it works with ("Read, Grep, Bash") and
            # leaves the spawn tool out plans no sub-agent; a list of scoped grants only
            # ("Bash(python3 state.py *)") pre-approves commands and says nothing of that.
            # Claude Code reads allowed-tools as permissions granted while the skill runs, not
            # as a limit, so a plain spawn instruction still outweighs it
            result.unlisted = True


def _hands_prompt(text: str, lower: str | None = None) -> bool:
    """A prompt header ("Agent prompt:", "each worker gets this prompt") that is not about
    writing one ("Write the Subagent Prompt", "Designing agent prompts")."""
    m = _PROMPT_HEADER.search(text, lower)
    return m is not None and not _AUTHORING.search(text[: m.start()])


_AUTHORING = lazy(
    r"\b(?:write|writing|create|creating|draft|drafting|design|designing|craft|crafting"
    r"|generate|generating|author|authoring|improve|improving|optimi[sz]e|optimi[sz]ing)\b",
    re.I,
)


# --- what the calibrated decision weighs (spawnkit.lint.calibration) ------------------


def spawn_features(a: Analysis) -> dict[str, float]:
    """What the readings found in the file, as numbers for the calibrated model: each
    reading's count and where the readings sit (as log(1 + n)), the file's kind, its
    frontmatter tools, its mood, and its size."""
    counts: dict[str, int] = {}
    strong_lines: set[int] = set()
    sections: set[tuple[str, ...]] = set()
    for m in a.marks:
        key = f"reading:{m.family}"
        counts[key] = counts.get(key, 0) + 1
        if m.where == TABLE:
            counts["where:table"] = counts.get("where:table", 0) + 1
        if m.family in _STRONG:
            strong_lines.add(m.line)
            sections.add(m.section)
    for m in a.foreign:
        key = f"where:{m.where}"
        counts[key] = counts.get(key, 0) + 1
    x = {name: math.log1p(n) for name, n in counts.items()}
    x["strong-lines"] = math.log1p(len(strong_lines))
    x["strong-sections"] = math.log1p(len(sections))
    x[f"kind:{a.doc.kind}"] = 1.0
    x["frontmatter:granted"] = float(a.granted)
    x["frontmatter:unlisted"] = float(a.unlisted)
    x["frontmatter:fork"] = float(a.forked)
    x["mood:self-negated"] = float(a.self_negated)
    x["mood:persona"] = float(persona(a.doc))
    x["mood:described"] = math.log1p(a.described)
    x["structural"] = float(structural(a))
    x["size"] = math.log1p(len(a.doc.body_text) / 1000)
    return x


def structural(a: Analysis) -> bool:
    """The readings that need no judgement of wording: an instruction that names the spawn
    tool, a spawn call (in a sketch or a sentence, ``subagent_type``), ``context: fork``, or an
    order to spawn where the frontmatter grants the spawn tool."""
    if a.forked:
        return True
    families = {m.family for m in a.marks}
    if families & {TOOL, CODE_CALL, PROSE_CALL}:
        return True
    return a.granted and bool(families & (_STRONG - {HEADING, GUIDE, PROMPT_HEADER}))


# --- text that is not the file's own instruction (issue 34) ---------------------------

# a spawn-call key given a type rather than a value: an interface, a schema, a typed field
# (`subagent_type: string`, `"subagent_type": {"type": "string"}`, `subagent_type?: str`)
_TYPED_KEY = lazy(
    r"[\"']?\b(?:"
    + V.alternation(V.SPAWN_CALL_KEYS)
    + r")[\"']?\??\s*:\s*(?:\{|\n\s+type\s*:|(?:string|str|number|int|integer|float|bool|boolean"
    r"|any|unknown|Optional|Literal|List|list|dict|Dict|Record|z\.\w+|t\.\w+|Type\.\w+)\b"
    # a named type ends its field with ; , or } (a YAML sketch's `subagent_type: Explore` is a
    # value: it ends the line)
    r"|[A-Z]\w*(?:\[\])?[ \t]*[;,}])"
    # ... or named in a list of keys: a schema's "required": ["subagent_type", "prompt"]
    r"|[\[,]\s*[\"'](?:" + V.alternation(V.SPAWN_CALL_KEYS) + r")[\"']\s*(?=[,\]])"
)


def _schema(block: Block) -> bool:
    """A code block whose spawn-call keys are all given types, not values: a TypeScript
    interface, a JSON Schema, a typed record. It defines a call's shape and makes none."""
    if not _TYPED_KEY.search(block.text):
        return False
    rest = _TYPED_KEY.sub(" ", block.text)
    return _CODE_CALL.search(rest, rest.lower()) is None


# a lead that introduces text written into another file: "create `.claude/commands/x.md` with
# this content:", "append these lines to each file in `.claude/commands/`:"
_WRITES_FILE = lazy(
    r"\b(?:create|write|add|append|prepend|insert|save|put|paste|place|generate)\b[^:]{0,160}?"
    r"(?:[\w.<>{}*\[\]-]+\.(?:md|mdc|markdown|txt|ya?ml|json|toml)\b|\bfiles?\b|/)[^:]{0,80}:$",
    re.I,
)
# a lead that introduces examples: "For example:", "e.g.:", "Examples of good delegation:"
_EXAMPLES_LEAD = lazy(
    r"(?:\bfor\s+(?:example|instance)\b|\be\.g\.|\bexamples?\b|\bsuch\s+as\b)[^:]{0,60}:$", re.I
)
# a sentence that gives an example: "For example, spawn …", "e.g. launch …"
_EXAMPLE_SENTENCE = lazy(r"^\W*(?:for\s+(?:example|instance)\b|e\.g\.|example\s*:)", re.I)
# a heredoc that writes a file: `cat > .claude/commands/x.md <<'EOF'` … `EOF`
_HEREDOC = lazy(
    r"(?:(?:>>?|\btee\b(?:\s+-a)?)\s*[^\s<>|;&]+\s*<<-?\s*['\"]?(\w+)['\"]?"
    r"|<<-?\s*['\"]?(\w+)['\"]?\s*(?:>>?|\|\s*tee\b(?:\s+-a)?)\s*[^\s<>|;&]+)[^\n]*\n"
)
# a whole skill, command or agent file in a fence: its frontmatter first
_FILE_TEMPLATE = lazy(r"\s*---[ \t]*\n(?:[^\n]*\n){0,12}?[ \t]*(?:name|description)\s*:")


# a persona: the body opens by telling the model who it is ("You are the project manager …")
_PERSONA = lazy(r"(?:\s*#[^\n]*\n)*\s*(?:\*\*)?you\s+are\s+(?:an?|the|my)\b", re.I)


def persona(doc: Document) -> bool:
    """Whether the body opens as a persona ("You are the project manager of this team")."""
    return bool(_PERSONA.match(doc.body_text[:400]))


def _lead_context(block: Block | None) -> str:
    """TEMPLATE or EXAMPLE when ``block`` is prose that ends with a colon introducing text the
    file writes into another file, or examples; "" otherwise."""
    if block is None or block.kind not in ("paragraph", "item"):
        return ""
    cached = block.memo.get("lead")
    if cached is None:
        cached = block.memo["lead"] = _lead_kind(plain(block.text).rstrip())
    return cached  # type: ignore[return-value]


def _lead_kind(text: str) -> str:
    if not text.endswith(":"):
        return ""
    last = _AFTER_STOP.split(text)[-1]
    if _EXAMPLES_LEAD.search(last):
        return EXAMPLE
    if _WRITES_FILE.search(last) and not _PROMPT_WORD.search(last):
        lower = last.lower()
        if not _spawn_hits(last, lower) and not _TOOL.search(last):
            return TEMPLATE
    return ""


def _written_elsewhere(block: Block) -> bool:
    """A code block whose spawn calls are all text it writes into another file: a whole
    skill, command or agent file (its frontmatter first), or the body of a heredoc that a
    command writes (`cat > .claude/commands/x.md <<'EOF'`)."""
    if _FILE_TEMPLATE.match(block.text):
        return True
    if "<<" not in block.text:
        return False
    rest, at = [], 0
    text = block.text
    for m in _HEREDOC.finditer(text):
        marker = m.group(1) or m.group(2)
        end = re.search(r"^[ \t]*" + re.escape(marker) + r"[ \t]*$", text[m.end() :], re.M)
        stop = m.end() + (end.start() if end else len(text) - m.end())
        rest.append(text[at : m.end()])
        at = stop
    if not rest:
        return False
    rest.append(text[at:])
    left = "".join(rest)
    return _CODE_CALL.search(left, left.lower()) is None


def _contexts(blocks: list[Block]) -> list[str]:
    """For each block, where it sits when that is not the file's own instruction: under a lead
    that introduces another file's text (TEMPLATE) or examples (EXAMPLE); "" otherwise. A list
    item inherits its parent's, the items of a list the paragraph's before them, a code block
    the paragraph's right above it."""
    out: list[str] = []
    list_lead: dict[int | None, str] = {}
    for idx, block in enumerate(blocks):
        here = ""
        if block.parent is not None and block.parent < idx:
            here = out[block.parent] or _lead_context(blocks[block.parent])
        elif block.kind == "item":
            if block.list_id not in list_lead:
                list_lead[block.list_id] = _lead_context(blocks[idx - 1]) if idx else ""
            here = list_lead[block.list_id]
        elif block.kind == "code" and idx:
            here = _lead_context(blocks[idx - 1]) if blocks[idx - 1].kind == "paragraph" else ""
        out.append(here)
    return out


def analyse(doc: Document) -> Analysis:
    result = Analysis(doc)
    result.forked = str(doc.data.get("context", "")).strip().lower() == "fork"
    _spawn_tools(doc, result)
    # a key word already in lower case in the body is in its lowered text too: most bodies
    # show one, and then need no lowering whole (a tenth of a second for 10 MB)
    body = doc.body_text
    hinted = _hinted(body, with_prompt=True) or _hinted(body.lower(), with_prompt=True)
    if not hinted and not doc.siblings:
        return result  # nothing in the text can spawn a sub-agent
    guides: dict[tuple[str, ...], bool] = {}  # section -> under a guide-like heading

    def mark(
        block: Block,
        line: int,
        family: str,
        text: str,
        header: bool = False,
        tool: bool = False,
        where: str = "",
    ) -> None:
        if where not in NOT_OWN:
            where = (
                TABLE if block.kind == "table" else CODE if block.kind == "code" else INSTRUCTION
            )
            if family != PROMPT_HEADER:
                if block.kind == "heading" and family in _STRONG:
                    family, where = HEADING, TITLE  # a title over the steps, not a step
                else:
                    guide = guides.get(block.section)
                    if guide is None:
                        guide = guides[block.section] = _in_guide(block.section)
                    if guide:
                        family = GUIDE if family in _STRONG else GUIDE_WEAK
                        where = IN_GUIDE
        result.add_mark(line, family, text, header, tool, block.section, where)

    for _, blocks in result.groups:
        contexts = _contexts(blocks)
        for block, context in zip(blocks, contexts, strict=True):

            def line_for(line: int, block: Block = block) -> int:
                return doc.sibling_line(block.source) if block.source else line

            if block.kind == "code":
                if _calls_itself(doc, block.text) or _reads_payload(block.text):
                    continue
                if _CODE_CALL.search(block.text, block.lower) and (
                    block.info.split()[:1] != []
                    and block.info.split()[0] not in _PROGRAM_INFO
                    or block.info == ""
                    or any(k in block.text for k in V.SPAWN_CALL_KEYS)
                ):
                    at, said = _code_call(block)
                    if _schema(block):
                        context = SCHEMA
                    elif not context and _written_elsewhere(block):
                        context = TEMPLATE
                    if context:
                        result.not_own[id(block)] = context
                    mark(block, line_for(at), CODE_CALL, said, where=context)
                elif result.granted and block.info not in _SHELL_INFO and _TOOL.search(block.text):
                    # a sketch that names the granted spawn tool ("Task tool を並列起動:")
                    if context:
                        result.not_own[id(block)] = context
                    mark(
                        block,
                        line_for(block.start),
                        CODE_CALL,
                        block.text.strip().split("\n", 1)[0],
                        where=context,
                    )
                elif context == TEMPLATE:
                    result.not_own[id(block)] = context
                continue
            if block.kind in ("quote", "tag"):
                continue
            if block.kind == "heading" and _hands_prompt(plain(block.text)):
                mark(block, line_for(block.start), PROMPT_HEADER, block.text, header=True)
                continue
            if not _hinted(block.lower, with_prompt=True):
                continue  # no sentence of the block can hold a key word the block lacks
            for s in sentences(block):
                if not _hinted(s.lower, with_prompt=True):
                    continue
                hits = spawn_hits(s, result.granted)
                where = context or (EXAMPLE if _EXAMPLE_SENTENCE.match(s.text) else "")
                if hits:
                    tool = result.unlisted and bool(_TOOL.search(s.text))
                    mark(block, line_for(s.line), hits[0][1], s.text, tool=tool, where=where)
                elif _hands_prompt(s.text, s.lower) and not NEGATION.search(s.text, s.lower):
                    mark(block, line_for(s.line), PROMPT_HEADER, s.text, header=True, where=where)
                elif cjk_spawn(s.lower):
                    mark(block, line_for(s.line), CJK, s.text, where=where)
                elif latin_spawn(s.lower):
                    mark(block, line_for(s.line), LATIN, s.text, where=where)
                elif _prose_call(s) and not _calls_itself(doc, s.text):
                    mark(block, line_for(s.line), PROSE_CALL, s.text, tool=True, where=where)
                elif _WEAK.search(s.text, s.lower):
                    mark(block, line_for(s.line), WEAK, s.text, where=where)
                elif not where and described(s):
                    result.described += 1  # spawning told of, not ordered
                if _NEGATED_WORDS.any_in(s.lower) and _SELF_NEGATION.search(s.text, s.lower):
                    result.self_negated = True
    return result


# a hook script reading the key from its JSON input: `jq -r '.subagent_type'`, `t=$(…)`
_PAYLOAD_READ = lazy(
    r"\.subagent_type\b|\bsubagent_type=\$\(|\$\{?subagent_type\b|\[[\"']subagent_type[\"']\]"
)


def _reads_payload(code: str) -> bool:
    """Whether every spawn-call key in ``code`` is a hook script reading its input (a hook
    that looks at which agent starts), and nothing in it calls the spawn tool."""
    if "subagent_type" not in code:
        return False
    rest = _PAYLOAD_READ.sub("", code)
    return not _CODE_CALL.search(rest, rest.lower())


def _code_call(block: Block) -> tuple[int, str]:
    """The line number and text of the first spawn call in a code sketch."""
    m = _CODE_CALL.search(block.text, block.lower)
    at = m.start() if m else 0
    start = block.text.rfind("\n", 0, at) + 1
    end = block.text.find("\n", at)
    return block.line_of(at), block.text[start : end if end >= 0 else len(block.text)]
