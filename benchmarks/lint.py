"""Lint throughput in one process, and the wall time of one ``spawnkit lint FILE`` process.

    python benchmarks/lint.py [--files 1000] [--runs 15]

1. Files/s: lint_document() over N files copied round-robin from the labelled
   corpus (skills, commands, agents; orchestrators and plain skills), in one
   process, median of 5 passes. Baseline measured in the same run: reading the
   same files from disk and parsing their frontmatter with PyYAML (what any
   frontmatter-aware tool pays at least).
2. Process wall time: median of R runs of ``spawnkit lint <one SKILL.md>``,
   against the baselines of a bare ``python -c pass`` and agnix (a Rust linter for agent
   files, ``pip install agnix``; ``--agnix PATH`` or ``agnix`` on PATH; left out, and said
   so, when absent) on the same file in the same run; the same run from inside a Python
   project (a ``pyproject.toml`` without a spawnkit table); and where the time goes:
   interpreter start, the standard-library modules the lint path imports, spawnkit's own
   modules, and the rest (each a process importing the modules of the step before plus its own).
3. The whole tree: one ``spawnkit lint DIR`` process over the N files (finding them, reading,
   linting, printing: what a CI run pays).
``--compare OTHER_SPAWNKIT`` times another install (say, the previous release) on the same
file and the same tree in the same run, for before/after figures under the same load.
Goals: >= 1,000 files/s (issue 4); <= 3x agnix per process (issue 13).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from spawnkit.lint.engine import lint_document

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = """[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "app"
version = "1.0"
dependencies = ["requests>=2.31"]

[tool.ruff]
line-length = 99

[tool.pytest.ini_options]
addopts = "-q"
"""
CORPUS = ROOT / "tests" / "lint" / "corpus"


def corpus_files() -> list[Path]:
    return sorted(
        p
        for p in CORPUS.rglob("*.md")
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    )


def make_tree(dest: Path, count: int) -> list[Path]:
    """``count`` lintable files (with their sibling files) copied from the corpus."""
    sources = corpus_files()
    out = []
    for i in range(count):
        src = sources[i % len(sources)]
        rel = src.relative_to(CORPUS)
        target = dest / f"copy{i}" / rel
        if src.name == "SKILL.md":
            shutil.copytree(src.parent, target.parent)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, target)
        out.append(target)
    return out


LOADED = """
import sys
before = set(sys.modules)
sys.argv = ["spawnkit", "lint", sys.argv[1]]
from spawnkit.__main__ import main
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted(name for name in set(sys.modules) - before if "." not in name or
      name.startswith("spawnkit"))), file=sys.stderr)
"""


def loaded_modules(one: Path, cwd: Path) -> tuple[list[str], list[str]]:
    """(standard-library modules, spawnkit modules) a plain ``spawnkit lint FILE`` imports."""
    out = subprocess.run(
        [sys.executable, "-c", LOADED, str(one)], cwd=cwd, capture_output=True, text=True
    )
    names = out.stderr.split()
    ours = [n for n in names if n.startswith("spawnkit")]
    return [n for n in names if n not in ours and n != "__main__"], ours


def lint_all(files: list[Path]) -> int:
    found = 0
    for path in files:
        found += len(lint_document(path.read_text(encoding="utf-8"), str(path)).diagnostics)
    return found


def yaml_all(files: list[Path]) -> int:
    n = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            try:
                yaml.safe_load(text.split("---", 2)[1])
            except yaml.YAMLError:
                pass
        n += 1
    return n


def timed(fn, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - start, time.process_time() - cpu


def process_ms(
    commands: dict[str, list[str]], runs: int, cwd: Path, cwds: dict[str, Path] | None = None
) -> dict[str, tuple[float, float]]:
    """Median wall time of each command, run in rotation so load changes hit all alike.

    Each runs in ``cwd``, or in ``cwds[name]`` where given.

    Run as installed code runs: with bytecode caches (a warm-up run writes them if the
    environment disables them, e.g. PYTHONDONTWRITEBYTECODE in some sandboxes).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    where = {name: (cwds or {}).get(name, cwd) for name in commands}
    for name, cmd in commands.items():
        subprocess.run(cmd, cwd=where[name], capture_output=True, env=env)
    for _ in range(runs):
        for name, cmd in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, cwd=where[name], capture_output=True, env=env)
            wall[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(
                (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
            )
    return {
        name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in commands
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--agnix", default=shutil.which("agnix"), help="agnix binary")
    parser.add_argument(
        "--compare",
        metavar="SPAWNKIT",
        help="another spawnkit executable (e.g. an older install) timed in the same run",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = make_tree(Path(tmp), args.files)
        lint_all(files[:50])  # warm the page cache and regex caches
        lint_runs = [timed(lint_all, files) for _ in range(5)]
        yaml_runs = [timed(yaml_all, files) for _ in range(5)]
        lint_s, lint_cpu = (statistics.median(x) for x in zip(*lint_runs, strict=True))
        yaml_s, yaml_cpu = (statistics.median(x) for x in zip(*yaml_runs, strict=True))
        n = args.files
        print(
            f"lint {n} files in one process (median of 5): {n / lint_s:,.0f} files/s wall, "
            f"{n / lint_cpu:,.0f} files/s of CPU time"
        )
        print(
            f"  baseline, read + PyYAML frontmatter only: {n / yaml_s:,.0f} files/s wall, "
            f"{n / yaml_cpu:,.0f} files/s of CPU time (lint costs {lint_cpu / yaml_cpu:.1f}x)"
        )
        # the heaviest kind of file: an orchestrator that every protocol rule reads
        one = next(f for f in files if f.parent.name == "dep-audit")
        spawnkit = shutil.which("spawnkit") or "spawnkit"
        commands = {
            "lint": [spawnkit, "lint", str(one)],
            "bare": [sys.executable, "-c", "pass"],
            "nosite": [sys.executable, "-S", "-c", "pass"],
        }
        if args.agnix:
            commands["agnix"] = [args.agnix, str(one)]
        tree = Path(tmp)
        commands["tree"] = [spawnkit, "lint", "--format", "json", str(tree)]
        if args.compare:
            commands["compare"] = [args.compare, "lint", str(one)]
            commands["compare tree"] = [args.compare, "lint", "--format", "json", str(tree)]
        # run from inside a Python project whose pyproject.toml has no spawnkit table
        project = Path(tmp) / "python-project"
        project.mkdir()
        (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        commands["in-project"] = [spawnkit, "lint", str(one)]
        # where the time goes: the interpreter, the standard library the lint path imports,
        # spawnkit's own modules, and the rest (reading, linting, printing)
        stdlib, ours = loaded_modules(one, Path(tmp))
        commands["stdlib"] = [sys.executable, "-c", "import " + ", ".join(stdlib)]
        commands["modules"] = [sys.executable, "-c", "import " + ", ".join(stdlib + ours)]
        ms = process_ms(commands, args.runs, Path(tmp), {"in-project": project})
        (lint_w, lint_c), (bare_w, bare_c) = ms["lint"], ms["bare"]
        print(
            f"one 'spawnkit lint SKILL.md' process (median of {args.runs}): {lint_w:.0f} ms wall, "
            f"{lint_c:.0f} ms CPU"
        )
        proj_w, proj_c = ms["in-project"]
        print(
            f"  the same, run inside a Python project (pyproject.toml without a spawnkit table): "
            f"{proj_w:.0f} ms wall, {proj_c:.0f} ms CPU"
        )
        if "compare" in ms:
            cmp_w, cmp_c = ms["compare"]
            print(
                f"  {args.compare} lint on the same file: {cmp_w:.0f} ms wall, {cmp_c:.0f} ms CPU "
                f"(this one: {lint_w / cmp_w:.2f}x wall, {lint_c / cmp_c:.2f}x CPU)"
            )
        tree_w, tree_c = ms["tree"]
        print(
            f"one 'spawnkit lint DIR' process over the {n} files: {tree_w:.0f} ms wall, "
            f"{tree_c:.0f} ms CPU"
        )
        if "compare tree" in ms:
            ctree_w, ctree_c = ms["compare tree"]
            print(
                f"  {args.compare} on the same tree: {ctree_w:.0f} ms wall, {ctree_c:.0f} ms CPU "
                f"(this one: {tree_w / ctree_w:.2f}x wall, {tree_c / ctree_c:.2f}x CPU)"
            )
        print(f"  baseline, bare 'python -c pass': {bare_w:.0f} ms wall, {bare_c:.0f} ms CPU")
        nosite_w, nosite_c = ms["nosite"]
        print(
            f"  baseline, 'python -S -c pass' (no site .pth files): {nosite_w:.0f} ms wall, "
            f"{nosite_c:.0f} ms CPU"
        )
        if "agnix" in ms:
            agnix_w, agnix_c = ms["agnix"]
            print(
                f"  agnix on the same file: {agnix_w:.0f} ms wall, {agnix_c:.0f} ms CPU; "
                f"spawnkit / agnix = {lint_w / agnix_w:.1f}x wall (goal <= 3x)"
            )
        else:
            print("  agnix: not found (pip install agnix, or pass --agnix PATH); not compared")
        std_w, mod_w = ms["stdlib"][0], ms["modules"][0]
        rest = lint_w - mod_w  # medians of separate processes: the difference can dip below 0
        print(
            f"  where the time goes: interpreter start {bare_w:.0f} ms, the {len(stdlib)} "
            f"standard-library modules it imports {std_w - bare_w:.0f} ms, spawnkit's "
            f"{len(ours)} modules {mod_w - std_w:.0f} ms, reading + linting + printing "
            + (f"{rest:.0f} ms" if rest >= 1 else "under 1 ms (within the noise)")
        )
        print(f"  load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
