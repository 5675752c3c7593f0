"""scripts/e2e_claude_version.py: one command to run the e2e tests against another Claude Code.

npm is replaced by a script on PATH that "installs" a stand-in client the way npm lays it out
(``<prefix>/node_modules/.bin/claude``); pytest really runs (collecting only).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "e2e_claude_version.py"

FAKE_NPM = """#!/bin/sh
echo "$@" >> "$NPM_LOG"
if [ "$1" = view ]; then echo 9.9.9; exit 0; fi
if [ "$1" = install ]; then
  bin="$3/node_modules/.bin"; mkdir -p "$bin"
  for name in claude qwen; do
    printf '#!/bin/sh\\necho "9.9.9"\\n' > "$bin/$name"; chmod +x "$bin/$name"
  done
  exit 0
fi
exit 1
"""


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    if not (tools / "npm").exists():
        (tools / "npm").write_text(FAKE_NPM)
    (tools / "npm").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "SPAWNKIT_CLIENT_CACHE": str(tmp_path / "cache"),
        "NPM_LOG": str(tmp_path / "npm.log"),
    }
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


def test_latest_is_installed_once_then_the_tests_run_with_it(tmp_path: Path):
    args = ("latest", "--", "tests/e2e/test_smoke.py", "--collect-only", "-q")
    first = run(tmp_path, *args)
    assert first.returncode == 0, first.stderr
    binary = tmp_path / "cache" / "claude-code-9.9.9" / "node_modules" / ".bin" / "claude"
    assert f"running tests/e2e against Claude Code 9.9.9 ({binary})" in first.stdout
    assert "test_smoke.py::test_plain_answer_round_trips" in first.stdout
    assert "test_background_tasks.py" not in first.stdout  # only the file named after --
    second = run(tmp_path, *args)
    assert second.returncode == 0
    log = (tmp_path / "npm.log").read_text().splitlines()
    assert [line.split()[0] for line in log] == ["view", "install", "view"]  # installed once
    assert log[1].endswith("@anthropic-ai/claude-code@9.9.9")


def test_a_bad_version_is_refused_in_one_line(tmp_path: Path):
    proc = run(tmp_path, "2.1")
    assert proc.returncode == 2
    assert proc.stderr == (
        "e2e_claude_version: error: '2.1' is not a version like 2.1.330 (or 'latest')\n"
    )
    assert not (tmp_path / "npm.log").exists()


def test_a_failing_npm_is_one_line(tmp_path: Path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "npm").write_text("#!/bin/sh\necho 'E404 not found' >&2\nexit 1\n")
    proc = run(tmp_path, "9.9.8")
    assert proc.returncode == 2
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("e2e_claude_version: error: npm install --prefix ")
    assert last.endswith("failed: E404 not found")
    assert not (tmp_path / "cache" / "claude-code-9.9.8").exists()  # nothing left behind


def test_another_client_is_fetched_by_its_package_and_runs_its_own_tests(tmp_path: Path):
    proc = run(tmp_path, "--client", "qwen", "latest", "--", "--collect-only", "-q")
    assert proc.returncode == 0, proc.stderr
    binary = tmp_path / "cache" / "qwen-code-9.9.9" / "node_modules" / ".bin" / "qwen"
    assert f"running tests/e2e against Qwen Code 9.9.9 ({binary})" in proc.stdout
    assert "test_qwen.py::" in proc.stdout and "test_gemini.py::" not in proc.stdout
    assert "test_smoke.py" not in proc.stdout
    log = (tmp_path / "npm.log").read_text().splitlines()
    assert log[0] == "view @qwen-code/qwen-code version"
    assert log[1].endswith("@qwen-code/qwen-code@9.9.9")
