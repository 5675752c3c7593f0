"""CM001 return budget on SubagentStop: the one place the budget can really be enforced.

When a SubagentStop hook blocks, the sub-agent writes a new final message and the
parent receives only that one. So in enforce mode an over-budget reply is first
saved in full to ``<project>/.spawnkit/returns/<session>/<agent_id>.md`` (nothing
is lost), then blocked with a reason that names the saved copy, the budget and the
standard's reply format. Each agent gets at most ``max_retries`` blocks in a row
(config, default 2, capped at 5); after that it is let through with a warning, far
from Claude Code's cap of 8 consecutive blocks. Codex has no cap of its own (a hook
that always blocks loops for ever), so there this limit is the only one. Warn mode
only tells the user.

Where the host passes SubagentStart context on to the sub-agent (Codex), enforce
mode also states the budget and the reply format there, before the sub-agent's
first turn, so a well-behaved sub-agent never needs the block.

This is also where a sub-agent is counted as finished — only when its stop really
happens — for the parallel cap and the checkpoint reminder.

Which agents it binds is the scope (``agents`` in the config, see ``config``): a type
the scope caps at ``warn`` is never blocked, one capped at ``off`` is not measured.
A workflow's agents (``Call.is_workflow_agent``) are never measured, blocked or
counted here: their answers are the script's data, and blocking one would change what
the script computes with; the workflow's result is measured when it reaches the
orchestrator (``task_results``). A background agent's long reply is reported to the
user when its notification arrives, not twice; enforce still blocks it here.

Two loop guards: the agent's retry count, and ``stop_hook_active`` — a repeated stop
(one that follows a block) that the agent's count knows nothing of (the fresh agent id
Claude Code sometimes sends, a lost count) is counted in one count per session instead,
so even an agent whose id changes on every stop gets at most ``max_retries`` more blocks.
"""

from __future__ import annotations

from spawnkit import tokens
from spawnkit.base import lightos
from spawnkit.hook import parallel_cap
from spawnkit.hook.call import running_of_type, safe_name
from spawnkit.hook.store import LockUnavailable, SessionState
from spawnkit.standard import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.call import Answer, Call

CODE = "CM001"
CHECKPOINT = "CM007"  # checkpoint.CODE: that module loads only when a reminder is due
_DONE_KEEP = 256  # agent ids remembered, so a repeated stop is not counted twice
UNKNOWN_RETRIES = "unknown_retries"  # blocks of repeated stops no agent's own count knows


def on_start(call: Call, answer: Answer) -> None:
    """SubagentStart (hosts with ``start_context``): tell the sub-agent its budget up front."""
    if call.mode(CODE) != "enforce":
        return
    budget = protocol.return_budget()
    folder = protocol.load()["hook_reports_dir"].strip("/").split("/")
    report = lightos.join(
        call.project, *folder, call.session, f"{safe_name(call.agent_id or 'subagent')}.md"
    )
    reply_format = "\n".join(protocol.load()["return_format"])
    answer.add_context(
        f"spawnkit return budget ({CODE}): your final answer goes back to the agent that "
        f"started you and may be at most {budget} tokens; a longer one is held back and you "
        f"will be asked to answer again. Write your full output (findings, logs, file lists, "
        f"code) to a report file first - the one your task names, else {report} - and end "
        f"with a reply in exactly this format:\n{reply_format}"
    )


def on_stop(call: Call, answer: Answer) -> None:
    agent_type = call.text(call.host.agent_type_field)
    message = call.text(call.host.answer_field)
    budget = protocol.return_budget()
    mode = call.config.mode_for_agent(CODE, agent_type)
    over = mode != "off" and tokens.exceeds(message, budget)
    agent = agent_type or "sub-agent"
    size = tokens.estimate(message) if over else 0
    listed = call.background_tasks()
    background = listed is not None and call.agent_id in running_of_type(listed, "subagent")
    # its notification is measured when it reaches the orchestrator, where a hook sees it
    reported_later = background and call.host.notification_event
    if over and mode == "warn" and not reported_later:
        how = call.config.hold_back_hint(CODE, agent_type, "replies")
        answer.add_system(
            f"spawnkit: the {agent} sub-agent returned ~{size} tokens, over the {budget}-token "
            f"return budget ({CODE}); its whole reply went into the orchestrator's context. {how}"
        )
    blocking = over and mode == "enforce"
    capping = call.mode(parallel_cap.CODE) != "off"
    counting = capping or call.mode(CHECKPOINT) != "off"
    if not (blocking or counting):
        return
    try:
        with SessionState(call.state_dir, call.session, call.now, project=call.project) as data:
            if capping and listed is not None:
                parallel_cap.reconcile(call, data, listed, turn_ended=False)
            if blocking and _block(call, answer, data, message, size, budget, agent):
                return  # the agent goes on: not finished
            _forget_retries(call, data)
            parallel_cap.stopped(call, data)
            count_completed(call, data)
    except LockUnavailable as exc:
        from spawnkit.hook.log import append as log

        log(call.state_dir, f"SubagentStop: {exc}; let the stop through")
        if blocking:
            answer.add_system(
                f"spawnkit: the {agent} sub-agent returned ~{size} tokens (budget {budget}) but "
                f"its retry count could not be read ({exc}); let it through."
            )


def _block(
    call: Call,
    answer: Answer,
    data: dict[str, Any],
    message: str,
    size: int,
    budget: int,
    agent: str,
) -> bool:
    """Save the reply and block it, unless this agent used up its retries. True if blocked."""
    retries = data.get("retries")
    if not isinstance(retries, dict):
        retries = data["retries"] = {}
    key = call.agent_id or "unknown-agent"
    folder = returns_folder(call)
    # A stop without stop_hook_active starts a new round: earlier counts are stale.
    repeated = call.payload.get(call.host.retry_field) is True
    recorded = retries.get(key)
    known = isinstance(recorded, int) and not isinstance(recorded, bool) and recorded > 0
    # The second guard: a repeated stop this agent's count knows nothing of (a fresh agent id
    # on each stop, a lost count) is counted in one count per session, so it cannot loop.
    unknown = data.get(UNKNOWN_RETRIES)
    unknown = unknown if isinstance(unknown, int) and not isinstance(unknown, bool) else 0
    used = (recorded if known else unknown) if repeated else 0
    limit = call.config.max_retries
    if used >= limit:
        if repeated and not known:
            data.pop(UNKNOWN_RETRIES, None)
        why = (
            f" (max_retries; {call.host.label} has no limit of its own)"
            if call.host.own_block_cap is None
            else ""
        )
        answer.add_system(
            f"spawnkit: the {agent} sub-agent still replied ~{size} tokens (budget {budget}) "
            f"after {used} retries{why}; let it through so the session is not stuck. Its "
            f"earlier full replies are in {folder}."
        )
        return False
    try:
        saved = save_reply(call.project, returns_parts(call), safe_name(key), message)
    except OSError as exc:
        from spawnkit.hook.log import append as log

        log(call.state_dir, f"SubagentStop: could not save the reply in {folder}: {exc!r}")
        answer.add_system(
            f"spawnkit: the {agent} sub-agent returned ~{size} tokens (budget {budget}); it was "
            f"let through because its reply could not be saved in {folder} ({exc.strerror})."
        )
        return False
    retries[key] = used + 1
    if repeated and not known:
        data[UNKNOWN_RETRIES] = unknown + 1
    reply_format = "\n".join(protocol.load()["return_format"])
    answer.block(
        f"spawnkit return budget ({CODE}): your reply is ~{size} tokens but a sub-agent may "
        f"return at most {budget} tokens, so it was NOT delivered. It is saved in full at "
        f"{saved} - do not repeat it. Reply again with at most {budget} tokens in exactly this "
        f"format (REPORT: that file, or your own fuller report file):\n{reply_format}"
    )
    return True


# --- a sub-agent's finishing tool (Gemini CLI's complete_task) ----------------------------------

# What Gemini CLI 0.61.0 tells a sub-agent that ran out of turns or time before its last, grace
# turn: a complete_task denied then would leave the parent with no answer at all.
GRACE_MARK = "You have one final chance to complete the task"
GRACE_FILES = 8  # sub-agent chat files looked at, the newest first
GRACE_TAIL = 64 * 1024  # bytes read from the end of each
GRACE_AGE = 30 * 60.0  # a chat file untouched for longer belongs to no running sub-agent


def finish_answer(tool_input: dict[str, Any]) -> str:
    """The answer in a ``complete_task`` call: ``result`` as text (``generalist``'s
    ``{"response": …}``, a structured result as its JSON)."""
    result = tool_input.get("result")
    if isinstance(result, dict) and len(result) == 1 and isinstance(result.get("response"), str):
        return result["response"]
    if isinstance(result, str):
        return result
    from spawnkit.base import fastjson

    return fastjson.dumps(result) if result is not None else ""


def on_finish(call: Call, answer: Answer) -> None:
    """BeforeTool of the finishing tool (Gemini CLI's ``complete_task``): a sub-agent's answer.

    Over the budget in enforce mode it is saved whole, then the call is denied with the
    re-answer instruction, so the sub-agent calls the tool again with a short answer. The
    payload names no sub-agent (it carries the parent's session), so the denies are counted
    on the launches running (``parallel_cap``'s table): each deny counts against every launch
    it may belong to, and one more is refused once any of them used ``max_retries``; a
    sub-agent in its grace turn (out of turns or time: denying it would leave the parent with
    no answer) is never denied. What is let through is said to the user.
    """
    agent_type = ""
    message = finish_answer(call.tool_input())
    budget = protocol.return_budget()
    mode = call.config.mode_for_agent(CODE, agent_type)
    if mode == "off" or not tokens.exceeds(message, budget):
        return
    size = tokens.estimate(message)
    if mode == "warn":
        answer.add_system(
            f"spawnkit: a sub-agent answered ~{size} tokens, over the {budget}-token return "
            f"budget ({CODE}); its whole answer goes into the orchestrator's context. "
            + call.config.hold_back_hint(CODE, agent_type, "answers")
        )
        return
    folder = returns_folder(call)
    if in_grace_turn(call):
        answer.add_system(
            f"spawnkit: a sub-agent answered ~{size} tokens (budget {budget}) in its last turn "
            f"({call.host.label} gives it no other); let it through so the orchestrator gets an "
            f"answer. Earlier full answers, if any, are in {folder}."
        )
        return
    try:
        with SessionState(call.state_dir, call.session, call.now) as data:
            _deny_finish(call, answer, data, message, size, budget, folder)
    except LockUnavailable as exc:
        from spawnkit.hook.log import append as log

        log(call.state_dir, f"{call.host.finish_tool}: {exc}; let the answer through")
        answer.add_system(
            f"spawnkit: a sub-agent answered ~{size} tokens (budget {budget}) but its retry "
            f"count could not be read ({exc}); let it through."
        )


def _deny_finish(
    call: Call,
    answer: Answer,
    data: dict[str, Any],
    message: str,
    size: int,
    budget: int,
    folder: str,
) -> None:
    parallel_cap.prune(data, call.now)
    launches = [
        entry
        for entry in parallel_cap.running_entries(data)
        if not entry.get("bg") and not entry.get("sub")
    ]
    types = {str(e.get("type") or "") for e in launches}
    if len(types) == 1:  # the scope of the one agent type that may be answering
        (agent_type,) = types
        mode = call.config.mode_for_agent(CODE, agent_type)
        if mode != "enforce":
            if mode == "warn":
                answer.add_system(
                    f"spawnkit: the {agent_type or 'sub-agent'} sub-agent answered ~{size} "
                    f"tokens, over the {budget}-token return budget ({CODE}); its whole answer "
                    f"goes into the orchestrator's context. "
                    + call.config.hold_back_hint(CODE, agent_type, "answers")
                )
            return
    orphan = data.get(UNKNOWN_RETRIES)
    orphan = orphan if isinstance(orphan, int) and not isinstance(orphan, bool) else 0
    counts = [_denies(e) for e in launches] or [orphan]
    used = max(counts)
    limit = call.config.max_retries
    if used >= limit:
        answer.add_system(
            f"spawnkit: a sub-agent still answered ~{size} tokens (budget {budget}) after {used} "
            f"retries (max_retries; {call.host.label} has no limit of its own, and a sub-agent "
            f"that runs out of turns gives no answer at all); let it through. Its earlier full "
            f"answers are in {folder}."
        )
        return
    name = (types.pop() if len(types) == 1 else "") or "subagent"  # the agent type, if one
    try:
        saved = save_reply(call.project, returns_parts(call), safe_name(name), message)
    except OSError as exc:
        from spawnkit.hook.log import append as log

        log(
            call.state_dir,
            f"{call.host.finish_tool}: could not save the answer in {folder}: {exc!r}",
        )
        answer.add_system(
            f"spawnkit: a sub-agent answered ~{size} tokens (budget {budget}); it was let "
            f"through because its answer could not be saved in {folder} ({exc.strerror})."
        )
        return
    for entry in launches:
        entry["denies"] = _denies(entry) + 1
    if not launches:
        data[UNKNOWN_RETRIES] = orphan + 1
    reply_format = "\n".join(protocol.load()["return_format"])
    answer.deny(
        f"spawnkit return budget ({CODE}): your answer is ~{size} tokens but a sub-agent may "
        f"return at most {budget} tokens, so it was NOT delivered. It is saved in full at "
        f"{saved} - do not repeat it. Call {call.host.finish_tool} again now with an answer of "
        f"at most {budget} tokens in exactly this format (REPORT: that file, or your own fuller "
        f"report file):\n{reply_format}"
    )


def _denies(entry: dict[str, Any]) -> int:
    value = entry.get("denies")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def in_grace_turn(call: Call) -> bool:
    """Whether a sub-agent of this session is in its grace turn (Gemini CLI).

    Gemini CLI records each sub-agent's conversation in ``chats/<session id>/<agent id>.jsonl``
    beside the session's own file (the payload's ``transcript_path``), the warning that opens
    the grace turn included, before the model answers it. The newest few files are read from
    their end; the folder must be inside the host's config folder, and nothing is followed
    out of it.
    """
    import os

    transcript = call.text("transcript_path")
    chats = lightos.dirname(transcript) if lightos.isabs(transcript) else ""
    if not chats or not call.session_id or "\0" in transcript:
        return False
    folder = lightos.join(chats, call.session)
    try:
        if not lightos.inside(folder, call.config_dir):  # the one containment test
            return False
        real = os.path.realpath(folder)
        entries = [
            e
            for e in os.scandir(real)
            if e.name.endswith(".jsonl") and e.is_file(follow_symlinks=False)
        ]
    except OSError:
        return False
    fresh = []
    for entry in entries:
        try:
            mtime = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if call.now - mtime < GRACE_AGE:
            fresh.append((mtime, entry.path))
    for _, path in sorted(fresh, reverse=True)[:GRACE_FILES]:
        if _last_user_text_marks_grace(path):
            return True
    return False


def _last_user_text_marks_grace(path: str) -> bool:
    try:  # a plain file only, never through a link, never blocking on a FIFO
        fd, size = lightos.open_regular(path, follow=False)
    except OSError:
        return False
    try:
        lightos.native.lseek(fd, max(0, size - GRACE_TAIL), 0)
        tail = lightos.native.read(fd, GRACE_TAIL).decode("utf-8", "replace")
    except OSError:
        return False
    finally:
        lightos.native.close(fd)
    for line in reversed(tail.splitlines()):
        if '"type":"user"' in line or '"type": "user"' in line:
            return GRACE_MARK in line
    return False


def _forget_retries(call: Call, data: dict[str, Any]) -> None:
    retries = data.get("retries")
    if isinstance(retries, dict):
        retries.pop(call.agent_id or "unknown-agent", None)


def returns_folder(call: Call) -> str:
    return lightos.join(call.project, *returns_parts(call))


def returns_parts(call: Call) -> list[str]:
    return [*protocol.load()["returns_dir"].strip("/").split("/"), call.session]


STALE_TEMP_SECONDS = 600.0


def save_reply(project: str, parts: list[str], name: str, text: str) -> str:
    """Write ``text`` to ``<project>/<parts…>/<name>.md`` (``<name>-2.md``, … if taken).

    Atomic and fsynced; never replaces an earlier copy; never follows a symlink or
    hard link planted on the way (a sub-agent can write in the project): the folders
    below ``project`` are opened with ``O_NOFOLLOW``, the temporary file gets a
    random name and ``O_EXCL``. Temporary files left by a killed hook are removed.
    """
    import os

    if project.rstrip(lightos.SEP) == "":
        raise OSError(1, "refusing to write under the file-system root", project)
    folder = lightos.open_folder(project, parts)
    shown = lightos.join(project, *parts)
    try:
        _sweep_temps(folder)
        tmp = f".{name}.spawnkit-tmp-{os.urandom(6).hex()}.tmp"
        fd = lightos.open_plain(folder, tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            lightos.write_all(fd, text.encode("utf-8", "replace"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            for n in range(1, 1000):
                target = f"{name}.md" if n == 1 else f"{name}-{n}.md"
                try:  # atomic, and never replaces an earlier copy
                    os.link(
                        tmp, target, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False
                    )
                    return lightos.join(shown, target)
                except FileExistsError:
                    continue
                except OSError:  # no hard links on this file system
                    try:
                        os.stat(target, dir_fd=folder, follow_symlinks=False)
                        continue
                    except FileNotFoundError:
                        os.rename(tmp, target, src_dir_fd=folder, dst_dir_fd=folder)
                        return lightos.join(shown, target)
            raise FileExistsError(17, f"too many saved replies for {name}", shown)
        finally:
            try:
                os.unlink(tmp, dir_fd=folder)
            except FileNotFoundError:
                pass
    finally:
        os.close(folder)


def _sweep_temps(folder: int) -> None:
    """Drop temporary files a killed hook left behind (older than a few minutes)."""
    import os
    import time

    cutoff = time.time() - STALE_TEMP_SECONDS
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if (
            entry.name.startswith(".")
            and ".spawnkit-tmp-" in entry.name
            and entry.name.endswith(".tmp")
        ):
            try:
                if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(entry.name, dir_fd=folder)
            except OSError:
                pass


def count_completed(call: Call, data: dict[str, Any]) -> None:
    """Count one finished sub-agent (once per agent id); every ``checkpoint_every``-th makes a
    CM007 reminder due, which ``checkpoint.deliver`` gives on the orchestrator's next event."""
    done = data.get("done")
    if not isinstance(done, list):
        done = data["done"] = []
    agent = call.agent_id or ""
    if agent and agent in done:
        return
    done.append(agent)
    del done[:-_DONE_KEEP]
    count = data.get("completed")
    count = (count if isinstance(count, int) else 0) + 1
    data["completed"] = count
    if count % max(1, protocol.checkpoint_every()) == 0:
        data["checkpoint_due"] = True
