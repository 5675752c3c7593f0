"""CM007 checkpoint: remind the orchestrator to update its state file.

Every ``checkpoint_every`` completed sub-agents (SubagentStops that really end
the agent) a reminder falls due. It is delivered once, on the orchestrator's next
PreToolUse Agent or PostToolBatch — never on SubagentStop, where any context
restarts the sub-agent — and only if no state file changed since the previous
checkpoint: an orchestrator that keeps its state up to date never sees it.

State files are the protocol's ``state-YYYYMMDD-HHMMSS.json`` in a reports folder
(``.<skill>-reports/``) at the project root or one level below it. The count itself is
kept by ``return_budget.count_completed`` on SubagentStop, so that hot path does not load this
module.
"""

from __future__ import annotations

from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.call import Answer, Call

CODE = "CM007"


def deliver(call: Call, answer: Answer, data: dict[str, Any]) -> None:
    """On an orchestrator event: give a due reminder unless a state file moved since."""
    if not data.get("checkpoint_due"):
        return
    since = data.get("checkpoint_since", data.get("created", 0))
    since = since if isinstance(since, (int, float)) else 0
    data["checkpoint_due"] = False
    data["checkpoint_since"] = call.now
    if call.mode(CODE) == "off":
        return
    newest = newest_state_file(call.project)
    if newest is not None and newest > since:
        return
    spec = protocol.load()
    answer.add_context(
        f"spawnkit checkpoint ({CODE}): {data.get('completed')} sub-agents have finished in this "
        f"session and no state file ({spec['state_file_pattern']} in a "
        f"{spec['reports_dir_pattern'].format(skill='<skill>')} folder) has changed since the "
        f"last checkpoint. Record every completed step in the state file now, before launching "
        f"more sub-agents, so the run can resume after a context reset."
    )


def newest_state_file(project: str) -> float | None:
    """Modification time of the newest state file in the project's reports folders."""
    import os
    import re

    spec = protocol.load()
    state = re.compile(spec["state_file_regex"])
    head, _, tail = spec["reports_dir_pattern"].rstrip("/").partition("{skill}")
    newest: float | None = None
    for folder in _subdirs(project):
        name = os.path.basename(folder)
        if not (
            len(name) > len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
        ):
            continue
        for where in [folder, *_subdirs(folder)]:
            try:
                entries = list(os.scandir(where))
            except OSError:
                continue
            for entry in entries:
                if state.match(entry.name):
                    try:
                        mtime = entry.stat().st_mtime
                    except OSError:
                        continue
                    newest = mtime if newest is None else max(newest, mtime)
    return newest


def _subdirs(path: str) -> list[str]:
    import os

    try:
        return [e.path for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
