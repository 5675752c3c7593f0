"""A test that needs an outside tool (a client binary, Chromium, setpriv, venv) and cannot find it.

Locally the test is skipped with the install hint. In CI (``CI`` set) it fails instead:
``.ci/run`` installs every one of them, so a missing tool there is a CI mistake that must not
hide work behind a skip.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(what: str) -> NoReturn:
    """Skip (fail in CI) because ``what`` — a sentence naming the tool and its install — is missing."""
    if not os.environ.get("CI"):
        pytest.skip(what)  # a local run without the tool: say what to install
    pytest.fail(f"{what} (.ci/run installs it; CI must not skip this test)", pytrace=False)
