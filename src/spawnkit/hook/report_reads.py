"""CM006 no-full-report-reads: the orchestrator must not Read a sub-agent's full report.

Applies to PreToolUse ``Read`` calls of the orchestrator only (payload without
``agent_id``; sub-agents may read reports). A path is a report when a folder on it
is a reports folder (the standard's ``.<skill>-reports/``), the hook's own
``.spawnkit/reports/`` or the saved returns in ``.spawnkit/returns/``. The
orchestrator's own bookkeeping in those folders stays readable: state files
(``state-YYYYMMDD-HHMMSS.json``) and handoff files (``handoff-<step>.json``).

Warn: ``additionalContext``. Enforce: deny the Read with the reason.
"""

from __future__ import annotations

from spawnkit import protocol
from spawnkit.hook import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.hook.call import Answer, Call

CODE = "CM006"


def is_report(path: str) -> bool:
    """True if ``path`` (absolute, normalised) is a report the orchestrator should not read."""
    spec = protocol.load()
    parts = path.split(lightos.SEP)
    folders = parts[:-1]
    head, _, tail = spec["reports_dir_pattern"].rstrip("/").partition("{skill}")
    inside = any(
        len(name) > len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
        for name in folders
    )
    if not inside:
        for key in ("returns_dir", "hook_reports_dir"):
            seq = spec[key].strip("/").split("/")
            if any(folders[i : i + len(seq)] == seq for i in range(len(folders))):
                inside = True
                break
    return inside and not _bookkeeping(parts[-1], spec)


def _bookkeeping(name: str, spec: dict) -> bool:
    import re

    if re.match(spec["state_file_regex"], name):
        return True
    head, _, tail = spec["handoff_file_pattern"].partition("{step}")
    return len(name) > len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


def before_read(call: Call, answer: Answer) -> None:
    if call.agent_id:
        return
    raw = call.tool_input().get("file_path")
    if not isinstance(raw, str) or not raw or "\0" in raw:
        return
    path = lightos.absolute(raw, call.cwd)
    if not is_report(path):
        return
    mode = call.mode(CODE)
    if mode == "off":
        return
    shown = call.display_path(path)
    reason = (
        f"spawnkit no-full-report-reads ({CODE}): {shown} is a sub-agent's full report. Reading "
        f"it puts the whole report into your context, which the sub-agent's short reply exists "
        f"to prevent. Work from that reply; if you need a detail, launch a sub-agent to read "
        f"the report and answer within the return budget."
    )
    if mode == "enforce":
        answer.deny(reason)
    else:
        answer.add_context(reason)
