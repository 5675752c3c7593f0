"""CM006 no-full-report-reads: the orchestrator must not Read a sub-agent's full report.

Applies to PreToolUse ``Read`` calls (Copilot CLI: ``view``) of the orchestrator only
(payload without an agent id; sub-agents may read reports). A path is a report when a folder on it
is a reports folder (the standard's ``.<skill>-reports/``), the hook's own
``.spawnkit/reports/`` or the saved returns in ``.spawnkit/returns/``. The
orchestrator's own bookkeeping in those folders stays readable: state files
(``state-YYYYMMDD-HHMMSS.json``) and handoff files (``handoff-<step>.json``).

Warn: ``additionalContext``. Enforce: deny the Read with the reason.

Gemini CLI's payloads name no agent (a sub-agent's tools carry the parent's session): there a
read is the orchestrator's only while none of the session's launches runs (its sub-agents run
in the foreground, so the orchestrator waits for them); a read while one runs may be the
sub-agent's own and is let be.
"""

from __future__ import annotations

from spawnkit.base import lightos
from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from spawnkit.hook.call import Answer, Call

CODE = "CM006"


# No system opens a longer path (Linux PATH_MAX is 4096 bytes), so a Read of one fails
# by itself: the check skips it rather than spend time on it.
MAX_PATH = 4096


def is_report(path: str) -> bool:
    """True if ``path`` (absolute, normalised) is a report the orchestrator should not read.

    Substring searches only, so the cost is linear in the path's length.
    """
    spec = protocol.load()
    folders_end = path.rfind(lightos.SEP)  # everything before it is folders
    head, _, tail = spec["reports_dir_pattern"].rstrip("/").partition("{skill}")
    inside = False
    if tail:
        probe = tail + lightos.SEP
        at = path.find(probe)
        while at != -1 and at < folders_end:
            name_start = path.rfind(lightos.SEP, 0, at) + 1
            name = path[name_start : at + len(tail)]
            if len(name) > len(head) + len(tail) and name.startswith(head):
                inside = True
                break
            at = path.find(probe, at + 1)
    if not inside:
        for key in ("returns_dir", "hook_reports_dir"):
            probe = lightos.SEP + spec[key].strip("/") + lightos.SEP
            at = path.find(probe)
            if at != -1 and at + len(probe) - 1 < folders_end + 1:
                inside = True
                break
    return inside and not _bookkeeping(path[folders_end + 1 :], spec)


def _bookkeeping(name: str, spec: dict) -> bool:
    import re

    if re.match(spec["state_file_regex"], name):
        return True
    head, _, tail = spec["handoff_file_pattern"].partition("{step}")
    return len(name) > len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


def before_read(call: Call, answer: Answer) -> None:
    if call.agent_id or not call.host.read_path_field:
        return
    raw = call.tool_input().get(call.host.read_path_field)
    if not isinstance(raw, str) or not raw or len(raw) > MAX_PATH or "\0" in raw:
        return
    path = lightos.absolute(raw, call.cwd)
    if not is_report(path):
        return
    mode = call.mode(CODE)
    if mode == "off":
        return
    if not call.host.agent_events and _launch_running(call):
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


def _launch_running(call: Call) -> bool:
    """Whether a launch of this session runs (the parallel cap's table; fails open to yes)."""
    if not call.has_state:
        return False
    from spawnkit.hook import parallel_cap
    from spawnkit.hook.store import LockedState

    with LockedState(call) as data:
        if data is None:
            return True
        parallel_cap.prune(data, call.now)
        return bool(parallel_cap.running_entries(data))
