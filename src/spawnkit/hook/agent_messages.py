"""Agent messages: what a sub-agent's ``SendMessage`` to the orchestrator becomes (Claude Code).

Claude Code (2.1.330 and 2.1.332, observed) gives every sub-agent a deferred ``SendMessage``
tool. ``SendMessage({to: "main", message})`` queues the text for the orchestrator, which gets
it uncut on its next turn, beside the agent's final answer: as a user block
``Another Claude session sent a message: <agent-message from="mate1">…</agent-message>`` (or
a system message while it is busy). Its ``UserPromptSubmit`` fires for each delivery with
``prompt`` = the ``<agent-message from="…">`` blocks alone (several queued messages arrive
merged in one prompt). ``from`` is the agent's name, or its agent id when it has none. The
client neutralises agent-message tags inside a body (``<\\/agent-message>``), so a body runs
to the first closing tag.

Which ``to`` reaches the orchestrator, as the client resolves it: ``main`` in any case and
spacing (the client compares names lower-cased, trimmed, NFKC-normalised, with blank runs as
``-``), also with the ref it lists (``main [920fed]``). ``team-lead`` is the legacy lead name:
it reaches the lead's mailbox where a team file exists (neither version can create one; it
fails otherwise), and counts as the lead here too. Any other name is another agent's: a
message between agents never enters the orchestrator's context.

Pure parsing, standard library only, bounded (``MAX_MESSAGES`` per prompt, senders cut at
``MAX_SENDER`` characters). Imported only for a prompt or tool call that holds one.
"""

from __future__ import annotations

OPEN = "<agent-message"
CLOSE = "</agent-message>"
TOOL = "SendMessage"  # Claude Code's; only its hooks table registers it
LEAD_NAMES = ("main", "team-lead")  # as the client normalises them
MAX_MESSAGES = 64
MAX_SENDER = 64
HEAD = 4096  # a delivered prompt opens with its first item within this many characters
_HEX = frozenset("0123456789abcdef")


class AgentMessage:
    """One ``<agent-message from="…">`` block: who sent it and the text the orchestrator got."""

    __slots__ = ("sender", "body")

    def __init__(self, sender: str, body: str) -> None:
        self.sender = sender
        self.body = body


def delivered(prompt: str) -> bool:
    """Whether a UserPromptSubmit prompt opens with an agent message (a person's prompt does
    not: it is left alone)."""
    return OPEN + " " in prompt[:HEAD]


def split(prompt: str) -> tuple[list[AgentMessage], str]:
    """The agent messages a prompt carries, and the prompt without them (where a task
    notification may follow: a message's body never counts as one)."""
    found: list[AgentMessage] = []
    if not delivered(prompt):
        return found, prompt
    rest: list[str] = []
    at = 0
    start = prompt.find(OPEN + " ")
    while start != -1 and len(found) < MAX_MESSAGES:
        head_end = prompt.find(">", start)
        if head_end == -1:
            break
        end = prompt.find(CLOSE, head_end)
        stop = len(prompt) if end == -1 else end
        body = prompt[head_end + 1 : stop]
        body = body[1:] if body.startswith("\n") else body
        body = body[:-1] if body.endswith("\n") else body
        found.append(AgentMessage(_sender(prompt[start:head_end]), body))
        rest.append(prompt[at:start])
        at = len(prompt) if end == -1 else end + len(CLOSE)
        start = prompt.find(OPEN + " ", at)
    rest.append(prompt[at:])
    return found, "".join(rest)


def _sender(head: str) -> str:
    """The ``from`` attribute of an opening tag, or ""."""
    start = head.find('from="')
    if start == -1:
        return ""
    start += len('from="')
    end = head.find('"', start)
    return head[start : end if end != -1 else len(head)][:MAX_SENDER]


def to_lead(to: object) -> bool:
    """Whether a ``SendMessage`` ``to`` reaches the orchestrator (see the module doc)."""
    if not isinstance(to, str) or len(to) > 256:
        return False
    return normal(without_ref(to)) in LEAD_NAMES


def without_ref(name: str) -> str:
    """``main [920fed]`` → ``main``: the client's listing adds a 6 to 12 digit hex ref."""
    text = name.strip()
    if not text.endswith("]"):
        return name
    open_at = text.rfind("[")
    ref = text[open_at + 1 : -1]
    if open_at < 1 or not 6 <= len(ref) <= 12 or not set(ref) <= _HEX:
        return name
    return text[:open_at]


def normal(name: str) -> str:
    """A name as the client compares it: NFKC, no control or format characters, trimmed,
    lower-cased, each run of blanks one ``-``."""
    if not name.isascii():
        import unicodedata

        name = unicodedata.normalize("NFKC", name)
        name = "".join(
            c for c in name if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs")
        )
    else:
        name = "".join(c for c in name if c.isspace() or " " <= c <= "~")
    return "-".join(name.lower().split())
