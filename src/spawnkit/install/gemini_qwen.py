"""What keeps Gemini CLI or Qwen Code from running spawnkit's hooks: folder trust, hook toggles,
and Qwen Code's settings version.

Read in the shipped clients (Gemini CLI 0.61.0, Qwen Code 0.24.4) and checked offline:

* Folder trust. Both read ``trustedFolders.json`` in their user folder (or the file
  ``$GEMINI_CLI_TRUSTED_FOLDERS_PATH`` / ``$QWEN_CODE_TRUSTED_FOLDERS_PATH`` names): an object
  mapping folders to ``TRUST_FOLDER``, ``TRUST_PARENT`` (the folder's parent) or
  ``DO_NOT_TRUST``; the longest rule that contains a folder decides, and no rule means "not
  trusted yet" (the interactive client asks). ``security.folderTrust.enabled`` turns it on:
  Gemini CLI by default, Qwen Code not. ``GEMINI_CLI_TRUST_WORKSPACE=true`` trusts any folder.
  Gemini CLI loads NO hook (the user's either) in an untrusted folder and refuses a headless
  run there; Qwen Code drops only a project's hooks.
* Hook toggles. Gemini CLI: ``hooksConfig.enabled: false`` turns every hook off,
  ``hooksConfig.disabled`` lists hooks turned off by name (spawnkit's entries are named
  ``spawnkit``) or command; settings come from the system file
  (``/etc/gemini-cli/settings.json`` or ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``), the user's and
  the project's. Qwen Code: ``disableAllHooks: true``; ``stopHookBlockingCap`` (or
  ``$QWEN_CODE_STOP_HOOK_BLOCK_CAP``, default 8) is how many SubagentStop blocks in a row it
  honours.
* Qwen Code rewrites a settings.json without ``"$version": 4`` when it starts.

Read-only: spawnkit never writes a trust or toggle of the user's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spawnkit import hosts
from spawnkit.errors import SpawnkitError
from spawnkit.files import contain
from spawnkit.install.copilot_policy import read_jsonc

TRUSTED = ("TRUST_FOLDER", "TRUST_PARENT")
# per host: the variable naming another trust file, whether trust is on unless a setting
# says otherwise, the variable that trusts every folder, the system settings file (and the
# variable naming another)
_TRUST_FILE_ENV = {
    "gemini": "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "qwen": "QWEN_CODE_TRUSTED_FOLDERS_PATH",
}
_TRUST_ON_BY_DEFAULT = {"gemini": True, "qwen": False}
_TRUST_ALL_ENV = {"gemini": "GEMINI_CLI_TRUST_WORKSPACE"}
_SYSTEM_SETTINGS = {"gemini": ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/etc/gemini-cli/settings.json")}
QWEN_BLOCK_CAP_ENV = "QWEN_CODE_STOP_HOOK_BLOCK_CAP"


@dataclass(frozen=True)
class Trust:
    """Whether a host loads hooks in a folder, and why."""

    trusted: bool | None  # None: no rule yet (the client asks)
    why: str


def settings_files(host: str, project: Path | None) -> list[Path]:
    """The settings files the host merges, lowest precedence first: the user's, the project's,
    then (Gemini CLI) the system's, which wins."""
    desc = hosts.get(host)
    files = [Path(desc.config_dir(os.environ)) / "settings.json"]
    if project is not None:
        files.append(project / desc.project_folder / "settings.json")
    if host in _SYSTEM_SETTINGS:
        variable, default = _SYSTEM_SETTINGS[host]
        files.append(Path(os.environ.get(variable) or default))
    return files


def _read(path: Path, project: Path | None = None) -> dict[str, Any]:
    """A settings file's object ({} when missing or unreadable). The project's must resolve
    inside the project (``files.contain``): one linked out of it is never opened."""
    if project is not None and contain.lexically_inside(path, project):
        if not contain.inside(path, project):
            return {}
    try:
        return read_jsonc(path) or {}
    except SpawnkitError:
        return {}


def _get(data: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)  # type: ignore[assignment]
    return data


def folder_trust(host: str, folder: Path, project: Path | None = None) -> Trust:
    """Whether ``host`` trusts ``folder`` (its hooks load there)."""
    desc = hosts.get(host)
    variable = _TRUST_ALL_ENV.get(host)
    if variable and os.environ.get(variable) == "true":
        return Trust(True, f"${variable} is true")
    enabled = _TRUST_ON_BY_DEFAULT[host]
    source = "by default"
    for path in settings_files(host, project):
        value = _get(_read(path, project), "security.folderTrust.enabled")
        if isinstance(value, bool):
            enabled, source = value, f"in {path}"
    if not enabled:
        return Trust(True, f"folder trust is off ({source}): hooks load in every folder")
    trust_file = Path(
        os.environ.get(_TRUST_FILE_ENV[host])
        or Path(desc.config_dir(os.environ)) / "trustedFolders.json"
    )
    rules = read_jsonc(trust_file) or {}
    target = os.path.realpath(folder)
    best: tuple[int, str, str] | None = None
    for rule, level in rules.items():
        if not isinstance(level, str):
            continue
        effective = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        effective = os.path.realpath(os.path.expanduser(effective))
        inside = target == effective or target.startswith(effective.rstrip(os.sep) + os.sep)
        if inside and (best is None or len(rule) > best[0]):
            best = (len(rule), rule, level)
    if best is None:
        return Trust(None, f"{folder} has no rule in {trust_file}")
    _, rule, level = best
    if level in TRUSTED:
        return Trust(True, f"{folder} is trusted ({rule!r}: {level} in {trust_file})")
    return Trust(False, f"{folder} is marked {level} ({rule!r} in {trust_file})")


def hooks_turned_off(host: str, project: Path | None, commands: set[str]) -> str | None:
    """The setting that keeps spawnkit's hooks from running, named with its file; None when
    none does. ``commands`` are spawnkit's hook commands (Gemini CLI turns a hook off by its
    name or its command)."""
    desc = hosts.get(host)
    for path in settings_files(host, project):
        data = _read(path, project)
        if host == "gemini":
            if _get(data, "hooksConfig.enabled") is False:
                return f'"hooksConfig": {{"enabled": false}} in {path} turns every hook off'
            disabled = _get(data, "hooksConfig.disabled")
            if isinstance(disabled, list):
                hit = next((d for d in disabled if d == desc.hook_name or d in commands), None)
                if hit is not None:
                    return f'"hooksConfig.disabled" in {path} turns spawnkit\'s hooks off ({hit!r})'
        elif data.get("disableAllHooks") is True:
            return f'"disableAllHooks": true in {path} turns every hook off'
    return None


def qwen_block_cap(project: Path | None) -> tuple[int, str]:
    """How many SubagentStop blocks in a row Qwen Code honours, and where that comes from."""
    raw = os.environ.get(QWEN_BLOCK_CAP_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return min(int(raw), 100), f"${QWEN_BLOCK_CAP_ENV}"
    cap, where = hosts.QWEN.own_block_cap or 8, "by default"
    for path in settings_files("qwen", project):
        value = _read(path, project).get("stopHookBlockingCap")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            cap, where = min(value, 100), f"in {path}"
    return cap, where
