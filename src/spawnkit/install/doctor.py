"""``spawnkit doctor``: is spawnkit installed, wired up and working? One small check per item.

Each check is a function taking the ``Context`` and returning a ``CheckResult``
(ok / warn / broken, what was found, how to fix it). Adding a check means
writing one function and listing it in ``CHECKS``.

doctor reads settings files, never runs them: a project's settings arrive with
``git clone``. The one thing it runs is this installation's own hook (an argv it
builds itself, no shell), and only when the registered command is byte for byte
what spawnkit writes for this installation; for the project and local scopes
only when asked (``--run-hook``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path

from spawnkit import __version__, hosts
from spawnkit.errors import SpawnkitError
from spawnkit.files import bounded
from spawnkit.hook.call import WORKFLOW_AGENT_TYPE
from spawnkit.hook.command import hook_argv
from spawnkit.hook.config import DEFAULT_MODE
from spawnkit.hook.config import MODES as HOOK_MODES
from spawnkit.hosts import paths
from spawnkit.install import codex_config, codex_trust, copilot_policy, gemini_qwen, guard, journal
from spawnkit.install import manifest as mf
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.install import (
    MODES,
    SKILL,
    STANDARD,
    Target,
    _own_trust,
    decode,
    not_a_folder,
    read_bytes,
    resolve_target,
    skill_rel,
)
from spawnkit.standard import resources

OK, WARN, BROKEN = "ok", "warn", "broken"
SKILL_LIMIT = 1024 * 1024  # the lint-on-write hook reads no more of a skill either
HOOK_TRIAL_TIMEOUT = 10.0  # seconds; a hook slower than this on an empty payload is broken


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str  # OK | WARN | BROKEN
    detail: str
    fix: str = ""


CONFIG_LIMIT = 64 * 1024  # what the hook itself reads of spawnkit.json


class Context:
    """What the checks look at; parsed once, shared by all."""

    def __init__(self, target: Target, run_hook: bool = False) -> None:
        self.target = target
        self.folder_problem = not_a_folder(target)
        self.install_hint = _install_command(target)
        # The user's own folder is trusted; a project's hook runs only when asked.
        self.run_hook = run_hook or target.scope == "user"
        # What doctor reads of a project resolves inside it (a link out is never opened);
        # None: the user's own folder, whose links are the user's.
        self.boundary = None if target.trusted else target.settings_bounds

    def read(self, path: Path, limit: int = guard.MAX_FILE_BYTES) -> bytes | None:
        """A file of the target's (None when missing), never through a link out of it."""
        return guard.read_file(path, limit, self.boundary)

    @cached_property
    def settings_text(self) -> str | None:
        return decode(self.read(self.target.settings_path), self.target.settings_path)

    @cached_property
    def manifest(self) -> mf.Manifest | None:
        try:
            return mf.read(self.target.config_dir, self.target.local, self.boundary)
        except SpawnkitError:
            return None

    @cached_property
    def trust_config(self) -> dict:
        """The parsed config.toml holding the hook trust (Codex); {} when missing."""
        path = self.target.trust_path
        if path is None:
            return {}
        return codex_config.parse(decode(read_bytes(path), path), str(path))

    @cached_property
    def managed(self) -> list[sm.ManagedHook]:
        try:
            return sm.managed_hooks(self.settings_text, client=self.target.label)
        except sm.SettingsError:
            return []


Check = Callable[[Context], CheckResult]


def check_version(ctx: Context) -> CheckResult:
    python = sys.version.split()[0]
    return CheckResult("version", OK, f"spawnkit {__version__} (Python {python}, {sys.executable})")


def check_config_dir(ctx: Context) -> CheckResult:
    folder = ctx.target.config_dir
    if folder.is_dir():
        return CheckResult("config folder", OK, f"{folder} ({ctx.target.scope} scope)")
    if ctx.folder_problem:
        return CheckResult("config folder", BROKEN, f"{folder} is not a folder", ctx.folder_problem)
    return CheckResult("config folder", BROKEN, f"{folder} does not exist", ctx.install_hint)


def check_mode(ctx: Context) -> CheckResult:
    path = ctx.target.config_dir / ctx.target.config_name
    try:
        raw = ctx.read(path, CONFIG_LIMIT)
        data = None if raw is None else bounded.json_loads(raw.decode("utf-8"), str(path))
    except (SpawnkitError, ValueError) as exc:
        return CheckResult(
            "mode",
            BROKEN,
            f"{path} is unreadable: {exc}",
            f"delete {path}, then {ctx.install_hint}",
        )
    if raw is None:
        return CheckResult(
            "mode",
            BROKEN,
            f"{path} is missing (hooks fall back to warn)",
            f"{ctx.install_hint} --mode warn",
        )
    mode = data.get("mode", DEFAULT_MODE) if isinstance(data, dict) else None
    if mode not in HOOK_MODES:
        return CheckResult(
            "mode",
            BROKEN,
            f"{path} has mode {mode!r}; the hooks ignore it",
            f"{ctx.install_hint} --mode warn (or enforce)",
        )
    if mode not in MODES:
        return CheckResult(
            "mode",
            WARN,
            f"{mode} ({path.name}): the hooks check nothing",
            f"{ctx.install_hint} --mode warn (or enforce)",
        )
    return CheckResult("mode", OK, f"{mode} ({path.name})")


def check_interrupted(ctx: Context) -> CheckResult:
    """A journal left by an install or uninstall that was killed midway."""
    path = journal.find(ctx.target.config_dir)
    if path is None:
        return CheckResult("interrupted run", OK, "none")
    return CheckResult(
        "interrupted run",
        BROKEN,
        f"an install or uninstall was interrupted ({path}); its changes are half applied",
        f"{ctx.install_hint} (rolls it back, then installs), or spawnkit uninstall",
    )


def check_hooks_registered(ctx: Context) -> CheckResult:
    name = "hooks registered"
    path = ctx.target.settings_path
    try:
        problems = sm.hook_problems(ctx.settings_text, str(path), ctx.target.label)
    except sm.SettingsError as exc:
        return CheckResult(
            name,
            BROKEN,
            str(exc),
            f"correct {path} where the line above says (or move it aside: install then starts a"
            f" new one), then run `{ctx.install_hint}`",
        )
    if ctx.target.host != hosts.DEFAULT:
        problems = []  # what a malformed entry costs is observed for Claude Code only
    fatal = [p for p in problems if p.fatal]
    if fatal:
        return CheckResult(name, BROKEN, f"{path}: {fatal[0]}", _entry_fix(ctx, fatal[0]))
    table = regs.registrations(ctx.target.host)
    present = {(h.event, h.matcher) for h in ctx.managed}
    missing = [
        f"{r.event}{' ' + r.matcher if r.matcher else ''}"
        for r in table
        if (r.event, r.matcher) not in present
    ]
    if missing:
        older = " (registered by an older spawnkit?)" if present else ""
        return CheckResult(
            name,
            BROKEN,
            f"{len(missing)} of {len(table)} missing in {path}{older}: {', '.join(missing)}",
            f"{ctx.install_hint} (adds the missing ones and updates the rest in place)"
            if present
            else ctx.install_hint,
        )
    changed = [h for h in ctx.managed if not regs.is_generated(h.command)]
    if changed:
        return CheckResult(
            name,
            WARN,
            f"{len(changed)} entry(ies) marked as spawnkit's in {path} run a command spawnkit did"
            f" not write ({changed[0].event}: {changed[0].command[:80]}); doctor does not run them",
            f"check them; {ctx.install_hint} --force replaces them with spawnkit's",
        )
    expected = regs.installed_commands(host=ctx.target.host)
    if any(h.command not in expected for h in ctx.managed):
        return CheckResult(
            name,
            WARN,
            f"{len(table)} registered in {path}, but they run another spawnkit"
            f" installation than this one ({sys.executable})",
            f"{ctx.install_hint} (points them at this installation)",
        )
    if problems:
        return CheckResult(
            name,
            WARN,
            f"{len(table)} of {len(table)} in {path}, but {problems[0]}",
            _entry_fix(ctx, problems[0]),
        )
    return CheckResult(name, OK, f"{len(table)} of {len(table)} in {path}")


def _entry_fix(ctx: Context, problem: sm.HookProblem) -> str:
    """Where the bad hook entry is and what it lacks, and what to do about it."""
    where, _, lacks = problem.message.partition(" ")
    return (
        f"in {ctx.target.settings_path}, correct {where} ({lacks}) or remove it, then"
        f" start a new {ctx.target.label} session"
    )


_SCOPE_LABELS = {"*": "every other type (*)", "*:*": "plugin agents (*:*)"}


def check_scope(ctx: Context) -> CheckResult:
    """Which sub-agents the return budget binds here: CM001's mode, capped per agent type."""
    from spawnkit.hook import config as hook_config
    from spawnkit.standard import protocol

    desc = hosts.get(ctx.target.host)
    project = str(ctx.target.config_dir.parent) if ctx.target.scope != "user" else os.getcwd()
    user = str(ctx.target.config_dir) if ctx.target.scope == "user" else desc.config_dir(os.environ)
    aliases = {r["name"]: r["code"] for r in protocol.load()["rules"]}
    cfg = hook_config.load(os.environ, user, project, aliases, desc.project_folder)
    mode = cfg.mode("CM001")
    by_effect: dict[str, list[str]] = {"enforce": [], "warn": [], "off": []}
    workflow_keys: list[tuple[str, str]] = []
    for key, _, source in cfg.scope():
        if key.lower() == WORKFLOW_AGENT_TYPE:
            workflow_keys.append((key, source))
            continue
        effect = cfg.mode_for_agent("CM001", key)
        label = _SCOPE_LABELS.get(key, key)
        if source != hook_config.default_scope().source:
            label += f" ({source})"
        by_effect[effect].append(label)
    words = {"enforce": "blocks", "warn": "warns about", "off": "leaves alone"}
    parts = [f"{words[e]} {', '.join(keys)}" for e, keys in by_effect.items() if keys]
    detail = (
        f"CM001 {mode}: {'; '.join(parts)}; never a workflow's agents (their answers go to the"
        " script; the workflow's result is measured instead)"
    )
    problems = [(str(p), getattr(p, "fix", "")) for p in cfg.problems]
    for key, source in workflow_keys:  # an entry for them does nothing: said, never listed
        problems.append(
            (
                f"ignored agent type {key!r} in {source}: a workflow's agents are outside every"
                " scope",
                f'remove {key!r} from "agents" in {source}',
            )
        )
    if problems:
        (problem, fix), more = problems[0], len(problems) - 1
        if more:
            problem += f" (and {more} more, shown once this one is fixed)"
        return CheckResult("return budget scope", WARN, f"{detail}; {problem}", fix)
    return CheckResult("return budget scope", OK, detail)


def check_hooks_run(ctx: Context) -> CheckResult:
    """This installation's hook answers an empty payload with exit 0, quickly.

    Only a registered command equal, byte for byte, to the one spawnkit writes for
    this installation counts; it is run as the argv spawnkit builds itself, never
    through a shell and never as read from the file.
    """
    name = "hooks run"
    commands = list(dict.fromkeys(h.command for h in ctx.managed))
    if not commands:
        return CheckResult(name, BROKEN, "no spawnkit hook registered to run", ctx.install_hint)
    for command in commands:  # read, not run: which paths a spawnkit-shaped command names
        missing = _missing_parts(command) if regs.is_generated(command) else None
        if missing:
            return CheckResult(
                name,
                BROKEN,
                f"hook command names {missing}, which does not exist",
                ctx.install_hint,
            )
    expected = regs.installed_commands(host=ctx.target.host)
    if not expected.intersection(commands):
        return CheckResult(
            name,
            WARN,
            "not run: no registered command is this installation's own (doctor runs nothing else)",
            f"{ctx.install_hint} (registers this installation's hook)",
        )
    argv = hook_argv()
    missing = next((p for p in (argv[0], argv[-1]) if not os.path.exists(p)), None)
    if ctx.target.host != hosts.DEFAULT:
        argv += ["--host", ctx.target.host]
    if missing:
        return CheckResult(
            name, BROKEN, f"hook command names {missing}, which does not exist", ctx.install_hint
        )
    if not ctx.run_hook:
        return CheckResult(
            name,
            OK,
            f"not run for the {ctx.target.scope} scope (its command is this installation's own:"
            f" {shlex.join(argv)}); `spawnkit doctor --scope {ctx.target.scope} --run-hook`"
            " runs it once on an empty payload",
        )
    ok, detail = _trial_run(argv)
    if not ok:
        return CheckResult(
            name, BROKEN, detail, f"reinstall spawnkit in {sys.prefix}, then {ctx.install_hint}"
        )
    return CheckResult(name, OK, f"{shlex.join(argv)} {detail}")


def check_hooks_trusted(ctx: Context) -> CheckResult:
    """Codex runs a hook only when config.toml trusts it with the hash of its current text."""
    name = "hooks trusted"
    path, trust = ctx.target.settings_path, ctx.target.trust_path
    fix = f"{ctx.install_hint} (rewrites the trust entries)"
    if not ctx.managed:
        return CheckResult(name, BROKEN, "no spawnkit hook registered to trust", ctx.install_hint)
    try:
        trusted = codex_config.trust_entries(ctx.trust_config)
    except codex_config.ConfigError as exc:
        return CheckResult(
            name,
            BROKEN,
            str(exc),
            f"correct {trust} where the line above says (Codex cannot read it either), then"
            f" run `{ctx.install_hint}`",
        )
    data = json.loads(ctx.settings_text or "{}")
    hooks = data.get("hooks") if isinstance(data, dict) else None
    hooks = hooks if isinstance(hooks, dict) else {}
    own = _own_trust(str(path), ctx.settings_text or "")
    stale = [k for k, v in own.items() if trusted.get(k) != v]
    theirs = [k for k in codex_trust.untrusted(str(path), hooks, trusted) if k not in own]
    if stale:
        return CheckResult(
            name,
            BROKEN,
            f"Codex skips {len(stale)} of spawnkit's {len(own)} hooks as untrusted: {trust} has no"
            f" entry, or one whose hash no longer matches the hook (first: {stale[0]})",
            fix,
        )
    disabled = codex_trust.hooks_disabled(ctx.trust_config)
    if disabled:
        return CheckResult(
            name,
            BROKEN,
            f"{trust} turns hooks off ({disabled})",
            f"remove `{disabled}` from {trust}",
        )
    detail = f"{len(own)} of {len(own)} trusted in {trust}"
    if theirs:
        return CheckResult(
            name,
            WARN,
            f"{detail}; {len(theirs)} hook(s) of yours in {path.name} are not, so Codex skips"
            f" them (first: {theirs[0]})",
            "review and trust them in Codex, or remove them",
        )
    return CheckResult(name, OK, detail)


def check_project_trusted(ctx: Context) -> CheckResult:
    """Codex loads a project's .codex folder only when the project is trusted."""
    name = "project trusted"
    project = str(ctx.target.config_dir.parent)
    entry = ctx.trust_config.get("projects", {}).get(project, {})
    level = entry.get("trust_level") if isinstance(entry, dict) else None
    if level == "trusted":
        return CheckResult(name, OK, f"{project} is trusted in {ctx.target.trust_path}")
    return CheckResult(
        name,
        BROKEN,
        f"{project} is {'marked ' + repr(level) if level else 'not trusted'} in"
        f" {ctx.target.trust_path}: Codex ignores its .codex/hooks.json",
        'start Codex in the project and trust it when asked (or set trust_level = "trusted"'
        f' under [projects."{project}"])',
    )


def check_hooks_policy(ctx: Context) -> CheckResult:
    """Copilot CLI: a device policy that lets only managed hooks (or skills) load."""
    name = "policy"
    path = copilot_policy.policy_path(hosts.get(ctx.target.host).policy_file)
    try:
        policy = copilot_policy.read_jsonc(path) if path is not None else None
    except SpawnkitError as exc:
        return CheckResult(
            name,
            WARN,
            f"{exc}; Copilot CLI may not read it either",
            f"{path} is the device policy: ask whoever manages this machine's Copilot policy to"
            " correct it",
        )
    if policy is None:
        return CheckResult(name, OK, f"no device policy ({path} does not exist)")
    hooks_off = copilot_policy.hooks_blocked(policy)
    if hooks_off:
        return CheckResult(
            name,
            BROKEN,
            f"{path} sets {hooks_off}: Copilot CLI loads only managed hooks, so spawnkit's"
            " (like any of your own) never run",
            "ask whoever manages this machine's Copilot policy to allow user hooks",
        )
    skills_off = copilot_policy.skills_blocked(policy)
    if skills_off:
        return CheckResult(
            name,
            WARN,
            f"{path} sets {skills_off}: Copilot CLI loads no user or project skill, spawnkit's"
            " included (the hooks still run)",
            "ask whoever manages this machine's Copilot policy to allow skills",
        )
    return CheckResult(name, OK, f"{path} lets user and repository hooks load")


def check_folder_trusted(ctx: Context) -> CheckResult:
    """Copilot CLI loads a project's .github/hooks only in a folder the user trusts."""
    name = "folder trusted"
    project = ctx.target.config_dir.parent
    desc = hosts.get(ctx.target.host)
    path = paths.config_dir(ctx.target.host) / (desc.folder_trust_file or "")
    try:
        config = copilot_policy.read_jsonc(path) or {}
    except SpawnkitError as exc:
        return CheckResult(
            name,
            WARN,
            str(exc),
            f"correct {path} ({desc.label}'s own settings: JSON after its comment lines), or"
            f" start `{desc.binary}` in {project} and trust the folder when asked",
        )
    entry = copilot_policy.trusted_by(config, project)
    if entry is not None:
        return CheckResult(name, OK, f"{project} is trusted ({entry!r} in {path})")
    return CheckResult(
        name,
        WARN,
        f"{project} is not among the trusted folders in {path}: {desc.label} does not load"
        f" {ctx.target.settings_path.relative_to(project)} until it is",
        f"start `{desc.binary}` in {project} and trust the folder when asked (`{desc.binary} -p`"
        " runs load it only with --trust-folder)",
    )


def _project_of(ctx: Context) -> Path:
    """The folder whose trust decides: the project of a project install, else where doctor
    runs (a user install's hooks load, or not, wherever the client starts)."""
    return ctx.target.config_dir.parent if ctx.target.scope != "user" else Path.cwd()


def check_folder_trust(ctx: Context) -> CheckResult:
    """Gemini CLI loads no hook in an untrusted folder; Qwen Code no project hook."""
    name = "folder trusted"
    desc = hosts.get(ctx.target.host)
    folder = _project_of(ctx)
    try:
        trust = gemini_qwen.folder_trust(ctx.target.host, folder, folder)
    except SpawnkitError as exc:
        return CheckResult(name, WARN, f"{exc}; {desc.label} stops on it too", "fix that file")
    which = "no hook (yours neither)" if ctx.target.host == "gemini" else "no project hook"
    if trust.trusted:
        return CheckResult(name, OK, trust.why)
    fix = (
        f"start `{desc.binary}` in {folder} and trust the folder when it asks (or add"
        f' "{folder}": "TRUST_FOLDER" to trustedFolders.json)'
    )
    if trust.trusted is None:
        return CheckResult(
            name, WARN, f"{trust.why}: {desc.label} runs {which} there until it is trusted", fix
        )
    return CheckResult(name, BROKEN, f"{trust.why}: {desc.label} runs {which} there", fix)


def check_hooks_enabled(ctx: Context) -> CheckResult:
    """Gemini CLI's hooksConfig, Qwen Code's disableAllHooks (and its block cap)."""
    name = "hooks enabled"
    project = _project_of(ctx)
    commands = regs.installed_commands(host=ctx.target.host)
    off = gemini_qwen.hooks_turned_off(ctx.target.host, project, commands)
    if off:
        return CheckResult(name, BROKEN, off, "remove that setting (or that entry of the list)")
    if ctx.target.host == "qwen":
        from spawnkit.hook import config as hook_config
        from spawnkit.standard import protocol

        cap, where = gemini_qwen.qwen_block_cap(project)
        aliases = {r["name"]: r["code"] for r in protocol.load()["rules"]}
        user = hosts.QWEN.config_dir(os.environ)
        retries = hook_config.load(os.environ, user, str(project), aliases, ".qwen").max_retries
        if cap <= retries:
            return CheckResult(
                name,
                WARN,
                f"hooks on; Qwen Code honours {cap} SubagentStop block(s) in a row ({where}),"
                f" no more than spawnkit's max_retries ({retries}): it lets a long answer"
                " through before spawnkit would",
                f"raise stopHookBlockingCap above {retries}",
            )
        return CheckResult(
            name, OK, f"hooks on; Qwen Code honours {cap} SubagentStop blocks in a row ({where})"
        )
    return CheckResult(name, OK, "hooks on (hooksConfig and its disabled list allow spawnkit's)")


def check_settings_version(ctx: Context) -> CheckResult:
    """Qwen Code rewrites a settings.json that lacks its ``"$version"`` key when it starts."""
    from spawnkit.install.install import version_missing

    name = "settings version"
    path = ctx.target.settings_path
    try:
        data = json.loads(ctx.settings_text) if ctx.settings_text else None
    except ValueError:
        data = None
    if data is None:
        return CheckResult(name, OK, f"{path.name} is absent or unreadable (see above)")
    problem = version_missing(ctx.target.host, data)
    if problem:
        return CheckResult(
            name, WARN, f"{path} {problem}", "start Qwen Code once, or add it yourself"
        )
    key, value = hosts.get(ctx.target.host).version_key or ("", "")
    return CheckResult(name, OK, f"{path.name} has {json.dumps(key)}: {value}")


def check_standard(ctx: Context) -> CheckResult:
    rel = ctx.target.rel(ctx.target.config_dir / STANDARD)
    return _bundled_file_check(ctx, "standard", rel, resources.standard_doc_path())


def check_spawnkit_skill(ctx: Context) -> CheckResult:
    return _bundled_file_check(
        ctx,
        "spawnkit skill",
        skill_rel(ctx.target) / "SKILL.md",
        resources.bundled_skills_dir() / SKILL.name / "SKILL.md",
    )


def check_skills_lint(ctx: Context) -> CheckResult:
    """Skills, commands and agents in the config folder, linted against the standard."""
    from spawnkit.lint.discovery import Walk, discover
    from spawnkit.lint.engine import lint_text

    name = "skills"
    roots = [ctx.target.skill_root]
    lint_root = ctx.target.skill_root
    if ctx.target.host == hosts.DEFAULT:
        roots += [ctx.target.config_dir / d for d in ("commands", "agents")]
        lint_root = ctx.target.config_dir
    state = Walk()
    found = list(
        discover([r for r in roots if r.is_dir()], walk_state=state, boundary=ctx.boundary)
    )
    outside = len(state.outside)
    if not found and not outside:
        return CheckResult(name, OK, "no skills found")
    errors = warnings = 0
    flagged: list[str] = []
    unreadable = 0
    for path in found:
        try:
            raw = ctx.read(path, SKILL_LIMIT)
        except SpawnkitError:  # not a plain file, a link out of the project
            raw = None
        if raw is None:
            unreadable += 1
            flagged.append(path.parent.name if path.name == "SKILL.md" else path.stem)
            continue
        # too deep or an alias bomb: bounded.OverLimit, the check's one line names the file
        diagnostics = lint_text(raw.decode("utf-8", errors="replace"), str(path), reader="pyyaml")
        errors += sum(d.severity == "error" for d in diagnostics)
        warnings += sum(d.severity != "error" for d in diagnostics)
        if diagnostics:
            flagged.append(path.parent.name if path.name == "SKILL.md" else path.stem)
    summary = (
        f"{len(found)} found, {len(found) - len(flagged)} clean;"
        f" {errors} error(s), {warnings} warning(s)"
        + (f", {unreadable} not a readable plain file" if unreadable else "")
        + (f", {outside} link(s) out of {ctx.boundary} skipped, never opened" if outside else "")
        + (f"; {state.stopped}" if state.stopped else "")
    )
    if not flagged and not outside:
        return CheckResult(name, OK, summary)
    where = f" in {', '.join(flagged)}" if flagged else ""
    return CheckResult(name, WARN, f"{summary}{where}", f"spawnkit lint {lint_root}")


def check_plugin_overlap(ctx: Context) -> CheckResult:
    """The spawnkit plugin and installed hooks together would run every hook twice."""
    name = "plugin overlap"
    if ctx.target.host != hosts.DEFAULT:
        return CheckResult(name, OK, "not a Claude Code install")
    user = resolve_target("user").settings_path
    sources = {ctx.target.settings_path: ctx.boundary, user: None}  # None: the user's own
    enabled = []
    for path, boundary in sources.items():
        try:
            raw = guard.read_file(path, root=boundary)
            enabled += sm.spawnkit_plugins(raw.decode("utf-8") if raw else None, str(path))
        except (SpawnkitError, ValueError):
            continue
    if enabled and ctx.managed:
        return CheckResult(
            name,
            WARN,
            f"plugin {enabled[0]} is enabled and the hooks are also"
            " installed in settings: each hook runs twice",
            f"claude plugin disable {enabled[0]}, or spawnkit uninstall",
        )
    return CheckResult(name, OK, f"plugin {enabled[0]} only" if enabled else "none")


def _user_config(ctx: Context) -> Path:
    """The template store and the Claude Code transcripts live in the user's Claude Code folder
    whatever the scope or host."""
    user_claude = ctx.target.scope == "user" and ctx.target.host == hosts.DEFAULT
    return ctx.target.config_dir if user_claude else paths.claude_config_dir()


def check_template_store(ctx: Context) -> CheckResult:
    """`spawnkit update` re-renders the version each skill was made from: they live in the store."""
    from spawnkit.template.store import inspect

    level, detail, fix = inspect(_user_config(ctx))
    return CheckResult("template store", level, detail, fix)


def check_skill_updates(ctx: Context) -> CheckResult:
    """Managed skills (user and current project) made from an older template version."""
    from spawnkit.template.update import available_updates

    pending = available_updates(_user_config(ctx), Path.cwd())
    if not pending:
        return CheckResult("skill updates", OK, "no managed skill has an update")
    names = ", ".join(f"{s.name} ({s.version})" for s in pending)
    return CheckResult(
        "skill updates",
        WARN,
        f"{len(pending)} skill(s) can take template {pending[0].target}: {names}",
        "spawnkit update --all",
    )


def check_uninstall(ctx: Context) -> CheckResult:
    """What ``spawnkit uninstall`` would take back and what it would keep (planned, not run):
    the README's promise, checked against this folder."""
    from spawnkit.install import leftovers
    from spawnkit.install.uninstall import plan_uninstall

    name = "uninstall"
    if ctx.manifest is None and not ctx.managed:
        return CheckResult(name, OK, "nothing of spawnkit's installed here to take back")
    try:
        plan = plan_uninstall(ctx.target)
    except SpawnkitError as exc:
        problem, fix = _split_fix(str(exc))
        return CheckResult(
            name,
            WARN,
            f"`spawnkit uninstall` would refuse: {problem}",
            f"{fix}; then `spawnkit uninstall{_host_args(ctx.target)}` can take everything back",
        )
    changes = plan.all_pending
    backups = [c for c in changes if c.label.startswith("install's backup")]
    hooks = next((c for c in changes if c.path == ctx.target.settings_path), None)
    files = [c for c in changes if c not in backups and c is not hooks and c.after is None]
    parts = [f"{len(files)} file(s)"]
    if hooks is not None:
        again = hooks.after is None or hooks.backup_stamp is None
        parts.append(
            f"spawnkit's entries in {hooks.path.name}"
            + (" (back as it was before install)" if again else " (your edits since stay)")
        )
    if backups:
        parts.append(f"{len(backups)} backup(s) install made")
    found = leftovers.survey(ctx.target.config_dir) if ctx.target.scope == "user" else None
    if found is not None and found.sessions and not plan.hooks_stay:
        parts.append(f"the hook's state ({len(found.sessions)} session file(s))")
    kept = [n.removeprefix("kept ").split(":")[0] for n in plan.notes if n.startswith("kept ")]
    kept += [str(path) for path, _ in (found.kept if found is not None else [])]
    detail = f"`spawnkit uninstall{_host_args(ctx.target)}` takes back {', '.join(parts)}"
    if kept:
        detail += f"; keeps {', '.join(kept)}"
    return CheckResult(name, OK, detail)


def _host_args(target: Target) -> str:
    """The options after ``spawnkit install`` or ``uninstall`` that name ``target``."""
    return _install_command(target).removeprefix("spawnkit install")


def check_transcripts(ctx: Context) -> CheckResult:
    """Session transcripts exist: say that ``spawnkit audit`` can show what returns cost."""
    from spawnkit.audit import discovery

    roots = {
        "Claude Code session": _user_config(ctx) / "projects",
        "Codex rollout": discovery.codex_sessions(),
        "Copilot CLI session": discovery.copilot_sessions(),
        "Gemini CLI chat": discovery.gemini_chats(),
        "Qwen Code session": discovery.qwen_projects(),
    }
    found = {name: discovery.has_transcripts(root) for name, root in roots.items()}
    if not any(found.values()):
        return CheckResult("transcripts", OK, "no session transcripts yet")
    counts = ", ".join(f"{n:,} {name}{'s' if n > 1 else ''}" for name, n in found.items() if n)
    return CheckResult(
        "transcripts",
        OK,
        f"{counts} on disk: `spawnkit audit --since 7d` shows what sub-agent returns cost",
    )


CHECKS: list[Check] = [
    check_version,
    check_config_dir,
    check_interrupted,
    check_mode,
    check_scope,
    check_hooks_registered,
    check_hooks_run,
    check_plugin_overlap,
    check_standard,
    check_spawnkit_skill,
    check_skills_lint,
    check_template_store,
    check_skill_updates,
    check_uninstall,
    check_transcripts,
]


# Per host, after "hooks registered": what else decides whether its hooks run, for every scope
# and for the project scope. Codex: trust, and a trusted project. Copilot CLI: the device
# policy, and a trusted folder. Gemini CLI and Qwen Code: see ``gemini_qwen``.
HOST_CHECKS: dict[str, tuple[list[Check], list[Check]]] = {
    "codex": ([check_hooks_trusted], [check_project_trusted]),
    "copilot": ([check_hooks_policy], [check_folder_trusted]),
    # Gemini CLI: hooks on, and (every scope: it loads no hook in an untrusted folder) trust
    "gemini": ([check_hooks_enabled, check_folder_trust], []),
    # Qwen Code: hooks on, its settings version, and trust for a project's hooks
    "qwen": ([check_hooks_enabled, check_settings_version], [check_folder_trust]),
}


def checks_for(target: Target) -> list[Check]:
    if target.host == hosts.DEFAULT:
        return [c for c in CHECKS]
    every, project = HOST_CHECKS[target.host]
    extra = every + (project if target.scope == "project" else [])
    at = CHECKS.index(check_hooks_registered) + 1
    # The template store belongs to Claude Code's folder; another host's install does not set
    # it up.
    skip = (check_plugin_overlap, check_template_store)
    return [c for c in CHECKS[:at] + extra + CHECKS[at:] if c not in skip]


def run_checks(
    target: Target, checks: list[Check] | None = None, run_hook: bool = False
) -> list[CheckResult]:
    ctx = Context(target, run_hook)
    results = []
    chosen = checks_for(target) if checks is None else checks
    if ctx.folder_problem:  # a file stands where the folder goes: nothing else can be checked
        chosen = [c for c in chosen if c in (check_version, check_config_dir)]
    for check in chosen:
        try:
            results.append(check(ctx))
        except SpawnkitError as exc:
            problem, fix = _split_fix(str(exc))
            results.append(
                CheckResult(
                    check.__name__.removeprefix("check_").replace("_", " "),
                    BROKEN,
                    problem,
                    f"{fix}, then run `spawnkit doctor` again",
                )
            )
    return results


def _split_fix(message: str) -> tuple[str, str]:
    """A refusal's problem and its fix: spawnkit writes them as ``problem; fix``. A fix that
    says "it" gets the file the problem names."""
    for said in ("; nothing was changed", "; nothing was written"):  # true of doctor anyway
        message = message.removesuffix(said)
    problem, _, fix = message.rpartition("; ")
    if not problem or not fix:
        problem, fix = message, "correct what the line above names"
    fix = fix.removesuffix(".").removesuffix(", then run the command again")
    named = re.search(r"(?<![\w.])/[^\s:;,()'\"]+", problem)  # the file the refusal is about
    if named and named.group(0) not in fix:
        fix = f"{fix} ({named.group(0)})"
    return problem, fix


def as_dict(result: CheckResult) -> dict[str, str]:
    return asdict(result)


def _bundled_file_check(ctx: Context, name: str, rel: Path, packaged: Path) -> CheckResult:
    if ctx.target.local:  # the local scope uses the user's own copy (it copies none)
        path = paths.claude_config_dir() / rel
        current = read_bytes(path)
        if current is None:
            return CheckResult(name, WARN, f"{path} is missing", "spawnkit install")
        fresh = packaged.is_file() and current == packaged.read_bytes()
        return CheckResult(
            name,
            OK if fresh else WARN,
            f"{'current' if fresh else 'not current'} ({path}, the user scope's)",
            "" if fresh else "spawnkit install",
        )
    path = ctx.target.root / rel
    current = ctx.read(path)
    if current is None:
        return CheckResult(name, BROKEN, f"{path} is missing", ctx.install_hint)
    if packaged.is_file() and current == packaged.read_bytes():
        return CheckResult(name, OK, f"current ({path})")
    record = ctx.manifest.files.get(rel.as_posix()) if ctx.manifest else None
    if record is not None and record.sha256 == mf.sha256(current):
        return CheckResult(
            name,
            WARN,
            f"{path} is from spawnkit {ctx.manifest.version},"  # type: ignore[union-attr]
            " older than this one",
            ctx.install_hint,
        )
    return CheckResult(
        name,
        WARN,
        f"{path} differs from spawnkit's copy (edited by hand?)",
        f"{ctx.install_hint} (saves your copy as a .bak first)",
    )


def _missing_parts(command: str) -> str | None:
    """The first absolute path a spawnkit-shaped command names that does not exist."""
    for arg in shlex.split(command, comments=True):
        if os.path.isabs(arg) and not os.path.exists(arg):
            return arg
    return None


def _trial_run(argv: list[str]) -> tuple[bool, str]:
    """Run the hook as Claude Code would, with an empty payload, in a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="spawnkit-doctor-") as scratch:
        env = {**os.environ, "CLAUDE_PROJECT_DIR": scratch}  # Codex: the scratch cwd
        started = time.perf_counter()
        try:
            proc = subprocess.run(
                argv,
                input="{}",
                check=False,
                capture_output=True,
                text=True,
                cwd=scratch,
                env=env,
                timeout=HOOK_TRIAL_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            return False, f"hook did not answer within {HOOK_TRIAL_TIMEOUT:.0f} s"
        except OSError as exc:
            return False, f"hook could not start: {exc.strerror or exc}"
        elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode != 0:
        err = (proc.stderr or proc.stdout).strip().splitlines()
        return False, (
            f"hook exited {proc.returncode} on an empty payload{': ' + err[-1] if err else ''}"
        )
    return True, f"answers an empty payload in {elapsed:.0f} ms"


def _install_command(target: Target) -> str:
    parts = ["spawnkit install"]
    if target.host != hosts.DEFAULT:
        parts.append(f"--host {target.host}")
    if target.scope != "user":
        parts.append(f"--scope {target.scope}")
    if target.config_dir != resolve_target(target.scope, host=target.host).config_dir:
        parts.append(f"--config-dir {shlex.quote(str(target.config_dir))}")
    return " ".join(parts)
