"""``spawnkit workflow check`` against hostile scripts: the child process and its hard limits.

Every case runs the real command (``python -m spawnkit``) as a separate process, the way a user
meets it: it must end within its limit plus 5 s, with exit 1 or 2 and one line saying why —
never a death by signal, never a traceback (issue 30, item 5; each failed on 081e6cb: the
loops in a result's ``toJSON``, a getter or a Proxy trap ran past ``--seconds`` and ignored
SIGINT and SIGTERM, the regex was never interrupted, the deep array killed the process with
SIGSEGV, the 4 MB script took 18.6 s under a 10 s limit, and the hog passed 256 MiB).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spawnkit.standard import protocol
from spawnkit.workflow import check

META = "export const meta = { name: 'hostile', description: 'A hostile workflow' }\n"
CAP = protocol.max_parallel()
SECONDS = 3
SLACK = 5  # the limit plus this much, CLI start-up included

HOSTILE = {
    "toJSON loop": "return { toJSON() { while (true) {} } }\n",
    "getter loop": "return { get x() { while (true) {} } }\n",
    "Proxy trap loop": "return new Proxy({}, { ownKeys() { while (true) {} } })\n",
    "catastrophic regex": "return /^(a+)+$/.test('a'.repeat(40) + 'b')\n",
    "30,000-deep array": "let a = []\nfor (let i = 0; i < 30000; i++) a = [a]\nreturn a\n",
    "memory hog": "const a = []\nwhile (true) a.push('x'.repeat(1e6) + a.length)\n",
    "4 MB script": None,  # written by big_script()
}
# what the one line says for each (exit 2: the time limit; exit 1: a limit the script hit)
SAYS = {
    "toJSON loop": (2, "did not finish within 3 s"),
    "getter loop": (2, "did not finish within 3 s"),
    "Proxy trap loop": (2, "did not finish within 3 s"),
    "catastrophic regex": (2, "did not finish within 3 s"),
    "30,000-deep array": (1, "the result nests deeper than 64 levels"),
    "memory hog": (1, "ran out of memory"),
    "4 MB script": (2, "did not finish within 3 s"),
}


def big_script() -> str:
    """4 MB: a long array literal (tree-sitter took seconds over it), then a loop."""
    pad = 4 * 1024 * 1024 - len(META) - 40
    return META + "const pad = [" + "1," * (pad // 2) + "]\nwhile (true) {}\n"


def spawnkit(*args: str, cwd: Path, timeout: float = 60) -> tuple[int, str, str, float]:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "spawnkit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def write(tmp_path: Path, name: str, body: str | None) -> Path:
    script = tmp_path / (name.replace(" ", "-").replace(",", "") + ".js")
    script.write_text(big_script() if body is None else META + body)
    return script


@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_hostile_script_ends_within_its_limit_with_one_line(tmp_path, name):
    script = write(tmp_path, name, HOSTILE[name])
    code, out, err, took = spawnkit(
        "workflow", "check", "--seconds", str(SECONDS), str(script), cwd=tmp_path
    )
    assert took < SECONDS + SLACK, f"{name}: {took:.1f} s"
    assert code >= 0, f"{name}: died by signal {-code}"
    assert "Traceback" not in out + err
    want_code, words = SAYS[name]
    assert code == want_code, (name, code, out, err)
    if code == 2:  # refused: the one line on stderr, nothing on stdout
        assert out == "" and err.count("\n") == 1 and words in err, (name, err)
        assert err.startswith("spawnkit: error: ")
    else:  # the run's report, with the limit it hit as its one problem line
        problems = [line for line in out.splitlines() if line.startswith("problem: ")]
        assert err == "" and len(problems) == 1 and words in problems[0], (name, out)


def _peak_rss_of(command: list[str], cwd: Path) -> int:
    """The largest resident set (bytes) of ``command`` and every process under it."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *command], cwd=cwd, capture_output=True, text=True
    )
    kb = int(done.stdout.strip())
    return kb * 1024 if sys.platform != "darwin" else kb


def test_the_memory_hog_stays_under_the_stated_limit(tmp_path):
    script = write(tmp_path, "hog", HOSTILE["memory hog"])
    rss = _peak_rss_of(
        [sys.executable, "-m", "spawnkit", "workflow", "check", str(script)], tmp_path
    )
    assert rss <= check.ADDRESS_SPACE, f"{rss / 2**20:.0f} MiB"


def test_a_long_script_is_judged_by_the_engine_with_the_right_line(tmp_path):
    """Past its head a script is not parsed here (4 MB took tree-sitter seconds): the engine's
    syntax error is a refusal with the script's own line number."""
    script = tmp_path / "long.js"
    filler = "let pad = 0\n" + "pad += 1\n" * (check.HEAD_CHARS // 7)
    script.write_text(META + filler + "const broken = ;\n")
    line = 1 + filler.count("\n") + 1
    code, out, err, _ = spawnkit("workflow", "check", str(script), cwd=tmp_path)
    assert code == 2 and out == "", err
    assert f"not plain JavaScript (line {line}: SyntaxError" in err


FORGED = (
    "const real = agent\n"
    "const rs = await parallel(Array.from({ length: 8 }, (_, i) => () => real('task ' + i)))\n"
    "Object.assign(__sk, { count: 1, peak: 1 })\n"
    "return { n: rs.length }\n"
)


def test_the_forged_accounting_script_reports_eight_agents_over_the_cap(tmp_path):
    script = write(tmp_path, "forged", FORGED)
    code, out, err, _ = spawnkit("workflow", "check", "--json", str(script), cwd=tmp_path)
    data = json.loads(out)
    assert code == 1, err
    assert (data["agents"], data["peak_concurrency"]) == (8, 8)
    assert data["peak_concurrency"] > data["max_parallel"] == CAP
    assert f"8 agents ran at once, over the cap of {CAP}" in data["problems"]


def test_nothing_of_the_harness_is_within_the_scripts_reach():
    """The globals a script sees are JavaScript's own and the workflow API: no counters, no
    host function, nothing to assign to (``__sk`` was an object the script could rewrite)."""
    body = (
        "const names = Object.getOwnPropertyNames(globalThis)\n"
        "const tries = []\n"
        "for (const name of names) { try { const v = globalThis[name]; "
        "if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(v, "
        "{ count: 1, peak: 1, agents: 1, inflight: 0 }) } catch (e) { tries.push(name) } }\n"
        "const rs = await parallel([1, 2, 3, 4, 5].map((i) => () => agent('x' + i)))\n"
        "return names\n"
    )
    run = check.run(META + body)
    names = set(json.loads(run.result))
    workflow_api = {"agent", "parallel", "pipeline", "phase", "log", "workflow", "budget", "args"}
    assert workflow_api - {"args"} <= names
    assert not {n for n in names if n.startswith("__")}, names
    assert (run.agents, run.peak, run.error) == (5, 5, None)


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("name", ["toJSON loop", "catastrophic regex"])
def test_a_signal_during_a_hostile_run_ends_it_promptly(tmp_path, sig, name):
    script = write(tmp_path, name, HOSTILE[name])
    proc = subprocess.Popen(
        [sys.executable, "-m", "spawnkit", "workflow", "check", "--seconds", "60", str(script)],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sandbox: list[int] = []
        deadline = time.monotonic() + 30
        while not sandbox and time.monotonic() < deadline:
            time.sleep(0.1)
            sandbox = _children(proc.pid)
        assert sandbox, "the sandbox process never started"
        time.sleep(0.5)  # well inside the script's loop
        sent = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (proc.returncode, err)
    assert took < 3, f"{took:.1f} s after the signal"
    assert err.strip().splitlines()[-1].startswith("spawnkit: error: ") and "Traceback" not in err
    time.sleep(0.2)
    assert not any(Path(f"/proc/{pid}").exists() for pid in sandbox), "the sandbox outlived it"


def test_the_sandbox_limits_itself_before_the_script_runs():
    """The child's limits are set for good: soft and hard alike, so nothing can raise them."""
    probe = (
        "import json, resource, subprocess, sys\n"
        "from spawnkit.workflow import sandbox\n"
        "sandbox.limit_process(5.0, 256 * 1024 * 1024)\n"
        "print(json.dumps([resource.getrlimit(r) for r in (resource.RLIMIT_CPU, "
        "resource.RLIMIT_AS, resource.RLIMIT_CORE, resource.RLIMIT_FSIZE)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    cpu, space, core, fsize = json.loads(done.stdout)
    assert cpu == [6, 7] and space == [256 * 1024 * 1024] * 2 and core == [0, 0] and fsize == [0, 0]
    assert check.run(META + "return 1\n").result == "1"
