"""What keeps Copilot CLI from loading spawnkit's hooks or skill: policy and folder trust.

Observed with Copilot CLI 1.0.102 (offline, fake model server):

* A device policy, ``/etc/github-copilot/managed-settings.json`` on Linux (``Host.policy_file``),
  with ``"allowManagedHooksOnly": true`` stops every user and repository hook file from
  loading, spawnkit's included; so does ``"strictPluginOnlyCustomization"`` when it is
  ``true`` or lists ``"hooks"`` (listing ``"skills"`` stops user and project skills).
  Policies from MDM profiles (macOS, Windows) or a GitHub organisation cannot be read from
  a file here: doctor says only what the file says.
* A project's ``.github/hooks/*.json`` load only in a trusted folder: one listed, or below
  one listed, in ``trustedFolders`` of ``$COPILOT_HOME/config.json``
  (``Host.folder_trust_file``; Copilot writes it with ``//`` comment lines before the JSON).
  The interactive client asks on its first start in a folder; ``copilot -p`` loads them
  only with ``--trust-folder`` or ``GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true``.

Read-only: spawnkit never writes either file (trusting a folder is the user's decision).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from spawnkit.errors import SpawnkitError
from spawnkit.install import guard

LIMIT = 1024 * 1024  # larger files are not read


def policy_path(policy_file: str | None) -> Path | None:
    """The device policy file a host reads (``Host.policy_file``), as a path."""
    return Path(policy_file) if policy_file else None


def read_jsonc(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path`` after its whole-line ``//`` comments; None when missing.

    SpawnkitError (one line) when it is not a readable plain file holding a JSON object."""
    raw = guard.read_file(path, LIMIT)
    if raw is None:
        return None
    text = raw.decode("utf-8", "replace")
    body = "\n".join("" if line.lstrip().startswith("//") else line for line in text.splitlines())
    try:
        data = json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError):
        raise SpawnkitError(f"{path} is not valid JSON") from None
    if not isinstance(data, dict):
        raise SpawnkitError(f"{path} does not hold a JSON object")
    return data


def _locks(policy: dict[str, Any], surface: str) -> bool:
    strict = policy.get("strictPluginOnlyCustomization")
    return strict is True or (isinstance(strict, list) and surface in strict)


def hooks_blocked(policy: dict[str, Any]) -> str | None:
    """The policy setting that keeps user and repository hooks from loading, if any."""
    if policy.get("allowManagedHooksOnly") is True:
        return '"allowManagedHooksOnly": true'
    if _locks(policy, "hooks"):
        return f'"strictPluginOnlyCustomization": {json.dumps(policy["strictPluginOnlyCustomization"])}'
    return None


def skills_blocked(policy: dict[str, Any]) -> str | None:
    """The policy setting that keeps user and project skills from loading, if any."""
    if _locks(policy, "skills"):
        return f'"strictPluginOnlyCustomization": {json.dumps(policy["strictPluginOnlyCustomization"])}'
    return None


def trusted_by(config: dict[str, Any], folder: Path) -> str | None:
    """The ``trustedFolders`` entry that trusts ``folder`` (itself or a parent), if any."""
    entries = config.get("trustedFolders")
    if not isinstance(entries, list):
        return None
    target = os.path.realpath(folder)
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            continue
        trusted = os.path.realpath(os.path.expanduser(entry))
        if target == trusted or target.startswith(trusted.rstrip(os.sep) + os.sep):
            return entry
    return None
