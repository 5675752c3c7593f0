"""SP011 unknown-key and SP013 compatibility-length."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.document import AGENT, COMMAND, SKILL
from spawnkit.lint.rules.base import Context, Finding, Rule

# Per profile: the skill keys its client reads besides the spec's, its agent files' keys (None:
# Claude Code's format), and the client's name.
_SKILL_KEYS = {
    "claude-code": "claude_code_keys",
    "copilot": "copilot_keys",
    "gemini": "gemini_keys",
    "qwen": "qwen_keys",
}
_AGENT_KEYS = {"gemini": "gemini_agent_keys", "qwen": "qwen_agent_keys"}
_CLIENTS = {"copilot": "Copilot CLI", "gemini": "Gemini CLI", "qwen": "Qwen Code"}


def allowed_keys(ctx: Context) -> set[str]:
    spec = ctx.spec
    if ctx.doc.kind == AGENT:
        return set(spec[_AGENT_KEYS.get(ctx.profile, "claude_code_agent_keys")])
    if ctx.doc.kind == COMMAND:
        return set(spec["claude_code_command_keys"])
    keys = set(spec["portable_keys"])
    if ctx.profile in _SKILL_KEYS:
        keys |= set(spec[_SKILL_KEYS[ctx.profile]])
    return keys


def _client(ctx: Context) -> str:
    """The client whose reading of the file the profile stands for."""
    if ctx.doc.kind == SKILL or (ctx.doc.kind == AGENT and ctx.profile in _AGENT_KEYS):
        return _CLIENTS.get(ctx.profile, "Claude Code")
    return "Claude Code"


def ignored(ctx: Context, key: str) -> bool:
    """Whether the profile's client (``_client``) reads nothing from ``key`` here (Gemini CLI
    refuses an agent file with a key it does not know: not ignored, refused)."""
    spec = ctx.spec
    if ctx.doc.kind == SKILL:
        extra = spec[_SKILL_KEYS.get(ctx.profile, "claude_code_keys")]
        return key not in set(spec["portable_keys"]) | set(extra)
    return not (ctx.doc.kind == AGENT and ctx.profile == "gemini")


class UnknownKey(Rule):
    code = "SP011"
    name = "unknown-key"
    severity = "error"
    client_fails = ()
    summary = "Every frontmatter key is one the profile knows."
    what = """
Checks each top-level frontmatter key against the profile. For skills,
`portable` allows the Agent Skills spec's six keys (name, description, license,
allowed-tools, metadata, compatibility); `claude-code` (the default) also allows
the keys Claude Code documents for skills (when_to_use, argument-hint,
disable-model-invocation, user-invocable, model, effort, context, agent, hooks,
paths, shell, disallowed-tools, background); `copilot` allows the spec's keys and
the three Copilot CLI reads besides (argument-hint, disable-model-invocation,
user-invocable); `gemini` the spec's keys (Gemini CLI reads name and description
only); `qwen` the spec's and the ones Qwen Code reads (allowedTools, argument-hint,
when_to_use, disable-model-invocation, hooks, model, paths, priority). Agent files
are checked against Gemini CLI's keys under `gemini` (it refuses an agent with any
other key), Qwen Code's under `qwen`, Claude Code's otherwise; commands against
Claude Code's keys for them under every profile.
"""
    why = """
An unknown key is usually a typo (`allowed_tools`) that silently drops a setting,
or a setting that another client rejects on upload. Free-form data belongs under
`metadata`.
"""
    bad = """
---
name: deploy-preview
description: Deploy the branch to a preview environment.
author: web-platform
---
Deploy.
"""
    good = """
---
name: deploy-preview
description: Deploy the branch to a preview environment.
metadata:
  author: web-platform
---
Deploy.
"""
    example_path = "skills/deploy-preview/SKILL.md"
    fix = (
        "Fix the key's spelling, move free-form data under 'metadata:', or lint with --profile "
        "claude-code."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        if doc.front is None or not isinstance(doc.front.data, dict):
            return
        known = allowed_keys(ctx)
        for key in doc.data:
            if str(key) in known:
                continue
            hint = None
            if doc.kind != SKILL:
                keys = ", ".join(sorted(known))
                hint = f"Use only the keys {_client(ctx)} reads for {doc.kind}s: {keys}."
            if (
                ctx.profile == "portable"
                and doc.kind == SKILL
                and str(key) in ctx.spec["claude_code_keys"]
            ):
                hint = (
                    f"'{key}' is a Claude Code extension; drop it for portable skills or use "
                    f"--profile claude-code."
                )
            elif (
                ctx.profile in _CLIENTS
                and doc.kind == SKILL
                and str(key) in ctx.spec["claude_code_keys"]
            ):
                hint = (
                    f"'{key}' is a Claude Code extension {_client(ctx)} does not read; drop it, "
                    f"or use --profile claude-code for a skill only Claude Code runs."
                )
            typo = _near_miss(str(key), known)
            if typo and hint is None or typo and doc.kind == SKILL:
                hint = f"Did you mean '{typo}'?"
            yield Finding(
                doc.key_line(str(key)),
                f"unknown frontmatter key '{key}' for a {doc.kind} (profile {ctx.profile})"
                + (f"; {_client(ctx)} ignores it" if not typo and ignored(ctx, str(key)) else "")
                + (
                    f"; {_client(ctx)} refuses to load the agent"
                    if doc.kind == AGENT and ctx.profile == "gemini"
                    else ""
                ),
                hint,
                # a misspelt key the client reads is a setting silently lost: an error
                severity="error" if typo else None,
            )


def _near_miss(key: str, known: set[str] | list[str]) -> str | None:
    """The known key ``key`` misspells ("allowed_tools" for "allowed-tools"), if any."""
    import difflib

    folded = key.lower().replace("_", "-")
    for candidate in known:
        if candidate.lower().replace("_", "-") == folded:
            return candidate
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.85)
    return close[0] if close else None


class CompatibilityLength(Rule):
    code = "SP013"
    name = "compatibility-length"
    severity = "error"
    client_fails = ()
    summary = "A skill's compatibility note is at most the spec's maximum length."
    what = (
        "Checks that a skill's `compatibility` value is a string no longer than the standard's "
        "`compatibility_max_length`."
    )
    why = "The spec limits it; longer notes are rejected on upload."
    bad = """
---
name: gpu-train
description: Train models on the local GPU.
compatibility: 12
---
Train.
"""
    good = """
---
name: gpu-train
description: Train models on the local GPU.
compatibility: Needs an NVIDIA GPU with CUDA 12 and network access to the model hub.
---
Train.
"""
    example_path = "skills/gpu-train/SKILL.md"
    fix = "Keep the compatibility note to one or two sentences of plain text."

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        if doc.kind != SKILL or "compatibility" not in doc.data:
            return
        value = doc.data["compatibility"]
        limit = int(ctx.spec["compatibility_max_length"])
        if not isinstance(value, str):
            yield Finding(doc.key_line("compatibility"), "compatibility must be a string; quote it")
        elif len(value) > limit:
            yield Finding(
                doc.key_line("compatibility"),
                f"compatibility is {len(value)} characters long; the limit is {limit}",
            )
