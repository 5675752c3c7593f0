"""WF004 phase-titles: the titles in ``meta.phases`` are the ones ``phase()`` uses."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Finding
from spawnkit.lint.rules.wf003_meta_literal import meta_data
from spawnkit.lint.rules.wf_base import WorkflowContext, WorkflowRule
from spawnkit.lint.workflow.script import call_arguments
from spawnkit.lint.workflow.values import Lit, Obj, get_prop, options


class PhaseTitles(WorkflowRule):
    code = "WF004"
    name = "phase-titles"
    severity = "warning"
    summary = "Every `phase()` title is declared in `meta.phases`, and every declared phase is used."
    what = """
        Compares the titles in `meta.phases` with the titles the script passes to `phase()`
        and to agents' `phase` option. Reports a title used but not declared, and a declared
        title no call uses (when every call's title is a literal the linter can read).
        A script whose meta declares no phases is not checked.
    """
    why = """
        Claude Code shows the declared phases in the permission dialog and groups the agents'
        progress under them, matching titles exactly. A `phase('Verfiy')` typo gets a progress
        group of its own, and the declared phase stays empty: the user sees a run that never
        reached a step it did run.
    """
    bad = """
        export const meta = {
          name: 'review',
          description: 'Review the diff',
          phases: [{ title: 'Review' }, { title: 'Verify' }],
        }
        phase('Review')
        phase('Verfiy')
        return { ok: true }
    """
    good = """
        export const meta = {
          name: 'review',
          description: 'Review the diff',
          phases: [{ title: 'Review' }, { title: 'Verify' }],
        }
        phase('Review')
        phase('Verify')
        return { ok: true }
    """
    fix = "Use the same titles, letter for letter, in meta.phases and in phase() calls."

    def check(self, ctx: WorkflowContext) -> Iterator[Finding]:
        meta = meta_data(ctx)
        phases = meta.get("phases") if meta else None
        if not isinstance(phases, list) or not phases:
            return
        declared = [p["title"] for p in phases if isinstance(p, dict) and isinstance(p.get("title"), str)]
        script, ev = ctx.script, ctx.flow.ev
        used: list[tuple[str, object]] = []
        dynamic = False
        for call in script.by_type["call_expression"]:
            args = call_arguments(call)
            if ev.is_global_call(call, "phase"):
                titles = [o.value for o in options(ev.value(args[0])) if isinstance(o, Lit)] if args else []
                if not titles or any(not isinstance(t, str) for t in titles):
                    dynamic = True
                used += [(t, call) for t in titles if isinstance(t, str)]
            elif ev.is_global_call(call, "agent") and len(args) > 1:
                opts = ev.value(args[1])
                for option in options(opts):
                    if not isinstance(option, Obj) or "phase" not in option.fields:
                        continue
                    for title in options(get_prop(option, "phase")):
                        if isinstance(title, Lit) and isinstance(title.value, str):
                            used.append((title.value, call))
                        else:
                            dynamic = True
        reported: set[str] = set()
        for title, call in used:
            if title not in declared and title not in reported:
                reported.add(title)
                line, col = script.position(call)
                near = [d for d in declared if d.lower() == title.lower()]
                hint = f" (did you mean '{near[0]}'?)" if near else ""
                yield Finding(
                    line,
                    f"phase '{title}' is not in meta.phases{hint}: its agents get a progress "
                    "group of their own",
                    col=col,
                )
        if dynamic:
            return
        titles_used = {t for t, _ in used}
        line, col = script.position(script.meta)
        for title in declared:
            if title not in titles_used:
                yield Finding(
                    line,
                    f"meta.phases declares '{title}', but no phase() call or agent uses it",
                    col=col,
                )
