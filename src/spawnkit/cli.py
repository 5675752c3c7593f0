"""The ``spawnkit`` command line: click wiring only.

Each verb parses its options and hands them to ``spawnkit.commands.<verb>.run``, which
returns the exit code; ``spawnkit.commands.edge`` turns every refusal (spawnkit's, click's,
the operating system's) into one ``spawnkit: error: …`` line and Ctrl-C into exit 130. Verb
modules are imported inside the commands, so heavy modules (copier above all) load only
for the verbs that need them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from spawnkit import __version__
from spawnkit.commands import edge, helptext
from spawnkit.errors import EXIT_USAGE
from spawnkit.standard import protocol
from spawnkit.tokens import CALIBRATED_MODEL


class _Group(click.Group):
    """One way out for every verb: exit codes 0/1/2/130 and one-line errors (``commands.edge``)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        def call() -> object:
            return super(_Group, self).main(
                args, prog_name, complete_var, standalone_mode=False, **extra
            )

        return edge.run(call, standalone_mode)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        with edge.past_click():
            return super().invoke(ctx)


@click.group(
    "spawnkit",
    cls=_Group,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=f"""Scaffold, lint and guard agent skills that spawn sub-agents, for
    {helptext.labels()}.

    Every sub-agent's final answer lands in the orchestrator's context window;
    spawnkit keeps those answers short and the full results on disk.

    Exit codes: 0 done, 1 problems found, 2 refused (usage error, unreadable
    input, nothing written), 130 aborted (Ctrl-C, SIGTERM, or no at a prompt).
    """,
)
@click.version_option(__version__, prog_name="spawnkit")
@click.pass_context
def cli(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


# --- new (issue 2) -----------------------------------------------------------

_QUESTIONS = """\b
Template questions (answer with -d/--data KEY=VALUE):
  purpose           what the skill orchestrates, one line
  description       frontmatter description, 1-{description_max_length} characters, no < >
  steps             YAML list of {{name, job}}, e.g. '[{{name: scan, job: Scan the code}}]'
  engine            prompt (default) or workflow: the same as --engine
  return_budget     token budget per sub-agent reply (default and maximum: {return_budget})
  max_parallel      1 (strictly sequential, default) to {max_parallel}
  checkpoint_every  1 to {checkpoint_every} completed steps between checkpoints
  reports_dir       default .NAME-reports/
  profile           portable (default) or claude-code
  return_style      summary (default) or status-only
  skill_hooks       true: register spawnkit-hook in the frontmatter (needs profile=claude-code)
""".format(
    **protocol.numbers(), description_max_length=protocol.skill_spec()["description_max_length"]
)

_NEW_EPILOG = (
    helptext.new_where()
    + "\n"
    + _QUESTIONS
    + """
\b
Which engine:
  prompt            the orchestrating model starts every sub-agent itself with
                    its sub-agent tool; works in every host
  workflow          Claude Code only: workflow.js runs the steps through the
                    Workflow tool, caps parallel agents in code and hands the
                    model only statuses, counts and report paths (the least
                    context); SKILL.md keeps the prompt steps as its fallback
                    for when workflows are turned off

\b
Questions are asked on a terminal; with --defaults, or when stdin is not a
terminal, the defaults are used. Nothing is written when an answer is refused.
"""
)


@cli.command("new", epilog=_NEW_EPILOG)
@click.argument("name")
@click.option(
    "--dest", metavar="DIR", help="Create the skill in DIR (its folder name must equal NAME)."
)
@click.option(
    "--scope",
    type=click.Choice(["user", "project"]),
    help="Create it in the user's or the project's skills folder (default: project).",
)
@click.option(
    "--host",
    type=click.Choice(helptext.host_choices()),
    help="Whose skills folder --scope means (default: claude-code). The skill works on all.",
)
@click.option(
    "--engine",
    type=click.Choice(["prompt", "workflow"]),
    help="How the steps run (default: prompt); workflow is for Claude Code only.",
)
@click.option(
    "--data", "-d", multiple=True, metavar="KEY=VALUE", help="Answer a template question."
)
@click.option("--defaults", is_flag=True, help="Ask nothing; use the default for every question.")
@click.option(
    "--force",
    is_flag=True,
    help="Write over a non-empty folder (replaced files are backed up to <config>/.spawnkit/backups).",
)
def new(
    name: str,
    dest: str | None,
    scope: str | None,
    host: str | None,
    engine: str | None,
    data: tuple[str, ...],
    defaults: bool,
    force: bool,
) -> None:
    """Create the agent-spawning skill NAME from spawnkit's template."""
    from spawnkit.commands import new as command

    sys.exit(command.run(name, dest, scope, data, defaults, force, host, engine=engine))


# --- tokens (issue 3) --------------------------------------------------------


@cli.command("tokens")
@click.argument("source", required=False, metavar="[FILE|-]")
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object instead of the number."
)
@click.option(
    "--exact",
    is_flag=True,
    help="Ask Anthropic's count_tokens API (needs ANTHROPIC_API_KEY; honours ANTHROPIC_BASE_URL; "
    "3 s timeout). On any failure, falls back to the estimate and says why on stderr.",
)
@click.option(
    "--model",
    default=CALIBRATED_MODEL,
    show_default=True,
    metavar="MODEL",
    help="Model whose tokenizer --exact asks about. The offline estimate is calibrated to "
    "claude-opus-4-7, which counts more than older models, so it bounds them too.",
)
@click.option(
    "--budget",
    type=click.IntRange(min=0),
    metavar="N",
    help="Exit 1 (and say by how much on stderr) when the count is over N tokens.",
)
def tokens_command(
    source: str | None,
    as_json: bool,
    exact: bool,
    model: str,
    budget: int | None,
) -> None:
    """Count the tokens of FILE, or of standard input when FILE is - or piped in.

    Prints a conservative offline estimate: it errs high (on the calibration texts it never
    under-counts claude-opus-4-7); --exact asks the API instead. Invalid UTF-8 bytes are
    counted as U+FFFD. Exit 0, 1 when over --budget, 2 when the input cannot be read.

    \b
    Examples:
      spawnkit tokens reply.md
      git diff | spawnkit tokens --json
      spawnkit tokens --budget 500 .audit-reports/summary.md
    """
    from spawnkit.commands import tokens as command

    sys.exit(command.run(source, as_json, exact, model, budget))


# --- lint, rule (issue 4) ----------------------------------------------------


_LINT_HELP = f"""Check skills, commands, agents and workflow scripts against the protocol and the spec.

    PATHS are files or folders (skill folders, plugin folders, .claude/); folders are searched for
    SKILL.md, commands/*.md and agents/*.md (agents only under .claude/, a plugin or the Claude
    config dir), and for Claude Code workflow scripts: workflows/*.js there and a skill's
    workflow.js (WF rules; a .js file named on the command line is linted as one). Without
    PATHS, the folders {helptext.labels()} read them from, those present:
    {helptext.lint_folders()}. Each protocol finding shows what it
    found (with lines) and what it looked for; findings the linter cannot judge reliably are in
    the preview tier, shown with --preview. Whether a file starts sub-agents, and the findings
    of CM001, CM002, CM003 and CM005, carry a calibrated probability: they are asserted only
    where it clears the threshold measured on labelled real files (`spawnkit rule CODE` shows
    it; docs/lint-accuracy.md). With --observed, the rules a skill broke in its
    runs (read from the transcripts) are findings of the tier observed. FIFOs and devices are
    never read; files over --max-file-size are skipped with a warning. Exit 0 clean, 1 problems
    found, 2 usage or I/O error (also when no file could be checked).
    """


@cli.command("lint", help=_LINT_HELP)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "github"]),
    default="text",
    show_default=True,
    help="Output format: ruff-like text, JSON (version 1), SARIF 2.1.0, or GitHub annotations.",
)
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Only these rules (codes or prefixes, comma-separated: CM001,SP). Overrides the config file.",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="CODES",
    help="Skip these rules (codes or prefixes, comma-separated); adds to the config file's ignore.",
)
@click.option(
    "--profile",
    type=click.Choice(["claude-code", "portable", "copilot", "gemini", "qwen"]),
    default=None,
    help="Which frontmatter keys are allowed: Claude Code's (default), the portable Agent Skills"
    " spec's, or Copilot CLI's, Gemini CLI's or Qwen Code's (the spec's and those the client"
    " reads; agent files in the client's own format).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, readable=False),
    default=None,
    help="Settings file (default: nearest .spawnkit.toml or pyproject.toml [tool.spawnkit]).",
)
@click.option(
    "--max-file-size",
    "max_file_size",
    metavar="SIZE",
    default=None,
    help="Skip (and report) files larger than this, e.g. 4MB (the default) or 500k.",
)
@click.option(
    "--preview/--no-preview",
    default=None,
    help="Also show the preview tier: rules and readings that are offered, not asserted "
    "(warnings). Default: the config file's preview setting, else off. A preview rule named "
    "in --select shows either way.",
)
@click.option(
    "--pre-commit",
    "pre_commit",
    is_flag=True,
    help="The pre-commit hook's mode: skip named files Claude Code would not load; nothing to "
    "check passes.",
)
@click.option(
    "--observed",
    is_flag=True,
    help="Also report the rules each skill broke when it ran (tier 'observed'), read from this "
    "user's Claude Code, Codex and Copilot CLI transcripts as `spawnkit audit` reads them, with "
    "the runs (session, date, sub-agent, tokens) as evidence.",
)
@click.option(
    "--since",
    metavar="WHEN",
    help="With --observed: only runs since then (7d, 12h, 2w, or a date such as 2026-11-01).",
)
def lint_command(
    paths: tuple[Path, ...],
    fmt: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    profile: str | None,
    config_path: Path | None,
    max_file_size: str | None,
    pre_commit: bool,
    preview: bool | None,
    observed: bool,
    since: str | None,
) -> None:
    from spawnkit.commands import lint as command

    code = command.run(
        list(paths),
        fmt=fmt,
        select=command.split_codes(select),
        ignore=command.split_codes(ignore),
        profile=profile,
        config_path=config_path,
        max_file_size=command.size_option(max_file_size),
        pre_commit=pre_commit,
        preview=preview,
        observed=observed,
        since=since,
    )
    sys.exit(code)


@cli.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print the documentation of every rule.")
def rule_command(code: str | None, show_all: bool) -> None:
    """Explain a lint rule such as CM005; without CODE, list every rule."""
    from spawnkit.commands import rule as command

    sys.exit(command.run(code, show_all))


# --- workflow check (issue 23) ----------------------------------------------


@cli.group("workflow")
def workflow_group() -> None:
    """Claude Code workflow scripts (.js): check what a run would cost."""


@workflow_group.command("check")
@click.argument("script", type=click.Path(path_type=Path, readable=False))
@click.option("--args", "args_json", metavar="JSON", help="The workflow's `args`, as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.1, max=600),
    default=None,
    help="Stop the run after this long, reading and serialising included (default 10; exit 2).",
)
def workflow_check_command(
    script: Path, args_json: str | None, as_json: bool, seconds: float | None
) -> None:
    """Run SCRIPT with stubbed agent() calls and print how many agents it starts, the most at
    once, and the size of its result with the largest answers the schemas allow — before any
    token is spent. The script runs in an embedded JavaScript engine (quickjs-ng) with no file
    or network access, in a child process under hard limits: --seconds for the whole run
    (reading and serialising included), 256 MiB of address space, a result nested at most 64
    levels, 1,000 agents. The cap and budget are the standard's, or the skill's own
    (max_parallel, return_budget) when SCRIPT sits beside a skill's .copier-answers.yml.

    Exit 0 within the cap and the return budget; 1 over either, or when the script throws, runs
    out of memory or returns a result nested too deeply; 2 when it cannot be run to its end (not
    plain JavaScript, or still running after --seconds).
    """
    from spawnkit.commands import workflow as command

    sys.exit(command.check(script, args_json, as_json, seconds))


# --- install, uninstall, doctor (issue 6) ------------------------------------

_SCOPE_HELP = helptext.scope_help()
_SCOPES = ("user", "project", "local")
_HOST_HELP = helptext.host_help()


def _scope_options(func):
    func = click.option(
        "--config-dir",
        type=click.Path(file_okay=False),
        help="Use this folder (the host's own: Claude Code's, or the one --host names) instead of"
        " the scope's default.",
    )(func)
    func = click.option(
        "--host",
        type=click.Choice(helptext.host_choices(with_all=True)),
        default="claude-code",
        show_default=True,
        help=_HOST_HELP,
    )(func)
    return click.option(
        "--scope", type=click.Choice(_SCOPES), default="user", show_default=True, help=_SCOPE_HELP
    )(func)


def _change_options(force_does: str):
    """--dry-run, --yes, --json and --force: how install and uninstall apply a change.
    ``force_does`` completes --force's help ("replace", "remove")."""

    def decorate(func):
        for option in (
            click.option(
                "--force",
                is_flag=True,
                help=f"Also {force_does} hook entries marked as spawnkit's whose command you"
                " changed (by default they are kept and listed).",
            ),
            click.option(
                "--json", "as_json", is_flag=True, help="Print a JSON summary instead of text."
            ),
            click.option(
                "--yes",
                "-y",
                is_flag=True,
                help="Apply without asking (the question is only asked on a terminal).",
            ),
            click.option(
                "--dry-run",
                is_flag=True,
                help="Print a unified diff of every change; write nothing.",
            ),
        ):
            func = option(func)
        return func

    return decorate


def _targets(scope: str, config_dir: str | None, host: str):
    from spawnkit.install.install import resolve_targets

    return resolve_targets(scope, config_dir, host)


@cli.command(
    "install",
    help=f"""Install the standard, hooks, spawnkit skill and mode into
    {helptext.labels("or")} (--host; Claude Code by default).

    Merges hook registrations into the host's hooks file ({helptext.hooks_files()}) without
    touching anything of yours: your keys, hooks and formatting stay as they are, the previous
    file is backed up (last 5 kept), and running it again changes nothing.
    """,
)
@_scope_options
@click.option(
    "--mode",
    type=click.Choice(("warn", "enforce")),
    help="warn: hooks advise; enforce: hooks block protocol violations."
    " Default: keep the configured mode, else warn.",
)
@_change_options("replace")
def install_command(
    scope: str,
    host: str,
    config_dir: str | None,
    mode: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
    force: bool,
) -> None:
    from spawnkit.commands import install as command

    code = command.run(
        _targets(scope, config_dir, host),
        mode,
        dry_run,
        yes,
        as_json,
        force,
        explicit_dir=config_dir is not None,
    )
    sys.exit(code)


@cli.command(
    "uninstall",
    help=f"""Remove exactly what `spawnkit install` added to {helptext.labels("or")} (--host).

    Files you edited since the install are kept (and named); your own skills and settings are
    never touched. A hooks file that comes back byte for byte as before the install takes
    install's backups of it along; one you edited since keeps them, and gets a backup first.
    The user scope also removes spawnkit's runtime state in the host's folder (the hook's
    session files, its log); it keeps, and names, backups of your skills and the replies the
    hook saved in your projects (<project>/.spawnkit/returns).
    """,
)
@_scope_options
@_change_options("remove")
def uninstall_command(
    scope: str,
    host: str,
    config_dir: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
    force: bool,
) -> None:
    from spawnkit.commands import uninstall as command

    sys.exit(command.run(_targets(scope, config_dir, host), dry_run, yes, as_json, force))


@cli.command(
    "doctor",
    help=f"""Check the installation in {helptext.labels("or")} (--host): hooks registered, trusted
    (Codex CLI) and running, standard, mode, skills, and what uninstall would take back.

    Reads the settings, never runs a command from them: only this installation's
    own hook, and only when the registered command is byte for byte what spawnkit
    writes. Exits 1 when anything is broken; each broken item names its fix.
    """,
)
@_scope_options
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
@click.option(
    "--run-hook",
    is_flag=True,
    help="For the project and local scopes: also run this installation's own hook command"
    " (<this python> -I -S <spawnkit>/hook/__main__.py, no shell) once on an empty payload"
    " in a scratch folder. The user scope always does; a command found in a settings file"
    " is never run.",
)
def doctor_command(
    scope: str, host: str, config_dir: str | None, as_json: bool, run_hook: bool
) -> None:
    from spawnkit.commands import doctor as command

    sys.exit(command.run(_targets(scope, config_dir, host), as_json, run_hook))


# --- update, adopt (issue 7) -------------------------------------------------


@cli.command("update")
@click.argument("skills", nargs=-1, metavar="[NAME|PATH]...")
@click.option(
    "--all", "all_skills", is_flag=True, help="Every managed skill in the user and project scopes."
)
@click.option("--check", is_flag=True, help="Only list available updates; writes nothing at all.")
@click.option(
    "--dry-run", is_flag=True, help="Show what would change; writes no skill and no backup."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report for scripts.")
def update_cmd(
    skills: tuple[str, ...],
    all_skills: bool,
    check: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Update skills made by `spawnkit new`/`adopt` to this spawnkit's template.

    Your edits are merged in; where they overlap a template change, the file gets
    inline conflict markers and the command exits 1. Every skill is backed up to
    <config>/.spawnkit/backups/ first. Name skills by folder name (user or project
    scope) or path, or pass --all. --check lists updates for all skills by default.
    """
    from spawnkit.commands import update as command

    sys.exit(command.run(skills, all_skills, check, dry_run, as_json))


@cli.command("adopt", epilog=_QUESTIONS)
@click.argument("path", type=click.Path(path_type=Path, readable=False))
@click.option(
    "--data",
    "-d",
    "pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="Answer a template question (repeatable).",
)
@click.option(
    "--retrofit", is_flag=True, help="Also add the protocol sections SKILL.md lacks, then lint it."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report for scripts.")
def adopt_cmd(path: Path, pairs: tuple[str, ...], retrofit: bool, as_json: bool) -> None:
    """Put a hand-written skill under spawnkit management, so `spawnkit update` can update it.

    Without --retrofit the skill's files stay exactly as they are: only the answers
    file is added (one left by plain copier is replaced, its answers kept). The skill
    name is the folder's name; the other answers come from that answers file, the
    SKILL.md description, --data, then the template's defaults. With --retrofit the
    skill is backed up, missing protocol sections are added (never a line that would
    hide a finding of yours) and what the linter still reports is listed (exit 1).
    """
    from spawnkit.commands import adopt as command

    sys.exit(command.run(path, pairs, retrofit, as_json))


# --- audit (issue 16) -------------------------------------------------------

_AUDIT_EPILOG = """\b
Where it looks (without PATH):
  Claude Code  $CLAUDE_CONFIG_DIR/projects (or ~/.claude/projects): <project>/<session>.jsonl,
               <project>/<session>/subagents/agent-<id>.jsonl (2.0.x: beside the session)
               and workflow runs in <session>/subagents/workflows/<runId>/
  Codex        $CODEX_HOME/sessions (or ~/.codex/sessions): YYYY/MM/DD/rollout-*.jsonl
  Copilot CLI  $COPILOT_HOME/session-state (or ~/.copilot/session-state): <id>/events.jsonl
  Gemini CLI   ~/.gemini/tmp: <project>/chats/session-*.jsonl, a sub-agent's in
               chats/<session id>/<agent id>.jsonl
  Qwen Code    $QWEN_HOME/projects (or ~/.qwen/projects): <project>/chats/<session>.jsonl,
               <project>/subagents/<session>/agent-<id>.jsonl

\b
Per session: every sub-agent return (what it cost the orchestrator: its share of the
growth of the next prompt as the client recorded it, else spawnkit's estimate, marked ~;
whether spawnkit blocked it and where it saved the full answer), the orchestrator's
context after each response, peak parallel sub-agents, workflow runs (their agents and
the result received), report read-backs, state-file writes, and the standard's rules
broken (CM001 budget, CM002 results on disk, CM003/CM007 state file and checkpoints,
CM005 parallel cap, CM006 report read-back).

\b
Per skill (--by skill): each launch goes to the skill it ran in (Claude Code's own
attributionSkill tag where it writes one; else the last skill or custom command invoked
in the same turn, until the next prompt, a compaction or another skill; a workflow whose
script lies in a skill's folder is that skill's), then one row per skill: its SKILL.md
(found from what the session recorded, never from this folder), runs, returns, tokens
(total and largest), over budget, peak at once, workflow runs, rules broken with the
sessions as evidence; then the returns outside any skill. docs/audit.md has the rules.

\b
Unreadable input (binary files, truncated or malformed lines, unknown record types),
sub-agents without their session and duplicate sessions are counted and reported on
stderr, never fatal. Symlinks under a root are not followed.
Exit 0 no findings, 1 findings, 2 usage error (nothing written).

\b
Examples:
  spawnkit audit --since 7d
  spawnkit audit --project . --format html -o audit.html
  spawnkit audit --by skill --since 30d
  spawnkit audit ~/.claude/projects/-home-me-app/1b2c....jsonl --format json
"""


@cli.command("audit", epilog=_AUDIT_EPILOG)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), metavar="[PATH]...")
@click.option(
    "--project",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Only the sessions run in this working directory.",
)
@click.option(
    "--since",
    metavar="WHEN",
    help="Only sessions written since then: 7d, 12h, 30m, 2w, or a date (2026-11-01).",
)
@click.option("--session", metavar="ID", help="Only the session whose id starts with ID.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default="text",
    show_default=True,
    help="text: a table per session (or per skill, --by skill); json: version 3 "
    "(standards/schemas/audit.schema.json); "
    "html: one self-contained page with charts.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE",
    help="Write the report to FILE (atomically) instead of standard output.",
)
@click.option(
    "--by",
    type=click.Choice(["session", "skill"]),
    default="session",
    show_default=True,
    help="session: a table per session; skill: one row per skill (what its runs cost, the "
    "rules they broke, its SKILL.md) and one for the returns outside any skill. JSON holds "
    "both views either way.",
)
@click.option(
    "--context-window",
    type=click.IntRange(min=1),
    metavar="TOKENS",
    help="The model's context window, for 'closest to the limit' (default: what Codex "
    "records, else unknown; 200000 for Claude Code, whose transcripts do not say).",
)
def audit_command(**options: Any) -> None:
    """Show what sub-agent returns cost the orchestrator, from the session transcripts.

    PATH is a transcript or a folder of them (a Claude Code project folder, a config
    folder, Codex's sessions). Without PATH or --project: every session of this user.
    """
    from spawnkit.commands import audit as command

    sys.exit(command.run(**options))  # the options' names and types: commands.audit.run


def main() -> None:
    cli(prog_name="spawnkit")


__all__ = ["cli", "main", "EXIT_USAGE"]
