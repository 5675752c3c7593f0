"""Fixtures for the end-to-end tests: the fake APIs and sandboxes running the real Claude Code,
Codex, Copilot, Gemini and Qwen CLIs.

See tests/e2e/README.md for the harness API.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.requires import unavailable

from .codex_sandbox import CODEX_HINT, CodexSandbox, find_codex
from .copilot_sandbox import COPILOT_HINT, CopilotSandbox, find_copilot
from .fake_api import FakeAnthropic
from .fake_chat import FakeChat
from .fake_gemini import FakeGemini
from .fake_responses import FakeResponses
from .gemini_sandbox import GEMINI_HINT, GeminiSandbox, find_gemini
from .qwen_sandbox import QWEN_HINT, QwenSandbox, find_qwen
from .sandbox import INSTALL_HINT, ClaudeSandbox, ClientMisconfigured, find_claude


def _client(find: Callable[[], str | None], missing: str) -> str:
    """The client binary ``find`` locates; skip (fail in CI) when there is none."""
    try:
        found = find()
    except ClientMisconfigured as exc:  # configured but broken: a CI mistake, never a silent skip
        pytest.fail(str(exc), pytrace=False)
    if not found:
        unavailable(missing)
    return found


@pytest.fixture(scope="session")
def claude_bin() -> str:
    return _client(find_claude, f"Claude Code CLI not found; {INSTALL_HINT}")


@pytest.fixture
def fake_api() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def claude(tmp_path: Path, claude_bin: str, fake_api: FakeAnthropic) -> ClaudeSandbox:
    return ClaudeSandbox(tmp_path, claude_bin, fake_api)


@pytest.fixture(scope="session")
def codex_bin() -> str:
    return _client(find_codex, f"Codex CLI not found; {CODEX_HINT}")


@pytest.fixture
def fake_responses() -> Iterator[FakeResponses]:
    with FakeResponses() as server:
        yield server


@pytest.fixture
def codex(tmp_path: Path, codex_bin: str, fake_responses: FakeResponses) -> CodexSandbox:
    return CodexSandbox(tmp_path, codex_bin, fake_responses)


@pytest.fixture(scope="session")
def copilot_bin() -> str:
    return _client(find_copilot, f"Copilot CLI not found; {COPILOT_HINT}")


@pytest.fixture(scope="session")
def copilot_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """COPILOT_CACHE_HOME for the whole run: the client unpacks itself there once (~8 s)."""
    return tmp_path_factory.mktemp("copilot-cache")


@pytest.fixture
def fake_chat() -> Iterator[FakeChat]:
    with FakeChat() as server:
        yield server


@pytest.fixture
def copilot(
    tmp_path: Path, copilot_bin: str, fake_chat: FakeChat, copilot_cache: Path
) -> CopilotSandbox:
    return CopilotSandbox(tmp_path, copilot_bin, fake_chat, copilot_cache)


@pytest.fixture(scope="session")
def gemini_bin() -> str:
    return _client(find_gemini, f"Gemini CLI not found; {GEMINI_HINT}")


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


@pytest.fixture
def gemini(tmp_path: Path, gemini_bin: str, fake_gemini: FakeGemini) -> GeminiSandbox:
    return GeminiSandbox(tmp_path, gemini_bin, fake_gemini)


@pytest.fixture(scope="session")
def qwen_bin() -> str:
    return _client(find_qwen, f"Qwen Code not found; {QWEN_HINT}")


@pytest.fixture
def qwen(tmp_path: Path, qwen_bin: str, fake_chat: FakeChat) -> QwenSandbox:
    return QwenSandbox(tmp_path, qwen_bin, fake_chat)
