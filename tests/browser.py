"""Real headless Chromium for the rendered-output tests: Debian's ``chromium``, driven by Playwright.

Playwright's own browser download cannot reach its servers here, so the system browser is used
through ``executable_path`` (``.ci/run`` installs it with apt-get). Tests skip only when no
browser is found.
"""

from __future__ import annotations

import os
import shutil

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL_HINT = "apt-get install -y chromium (or set SPAWNKIT_CHROMIUM to a Chromium binary)"


def find_chromium() -> str | None:
    """$SPAWNKIT_CHROMIUM, else /usr/bin/chromium, else chromium on PATH."""
    configured = os.environ.get("SPAWNKIT_CHROMIUM")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def launch(playwright, executable: str):
    """A headless Chromium with no network-facing background services."""
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
