"""Lint speed on workflow scripts (.js), next to the Markdown figures measured in the same run.

    python benchmarks/lint_workflow.py [--files 1000] [--size 1] [--repeat 3] [--runs 9]

1. One large script: a workflow script of ``--size`` MB (default 1) in three shapes, linted
   with ``lint_document`` in this process (median of R runs, wall and CPU), against a SKILL.md
   of the same size (the ``skills`` shape of ``benchmarks/lint_size.py``) and against the
   tree-sitter parse alone (what any real JavaScript reading pays at least):
   - ``steps``: sequential steps, each a schema constant, an ``agent()`` call and picked fields;
   - ``fan-out``: helper functions, ``parallel()`` over batches, ``pipeline()`` stages;
   - ``data``: one large array literal of objects (a script that carries its own work list).
   Claude Code refuses scripts over 512 KiB, so 1 MB is past anything it runs.
2. Many small scripts: ``--files`` scripts copied round-robin from the hand-written workflow
   corpus (tests/lint/workflow-corpus/), read from disk and linted in one process, files/s
   (median of 5 passes), against the same number of Markdown corpus files (benchmarks/lint.py's
   tree) in the same run.
3. One process: median wall time of ``spawnkit lint FILE`` for one workflow script and for one
   SKILL.md, in rotation (the script pays for importing tree-sitter and its grammar).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spawnkit.lint.engine import lint_document
from spawnkit.lint.workflow import parse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint import make_tree, timed  # noqa: E402
from lint_size import bodies, sized  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WF_CORPUS = ROOT / "tests" / "lint" / "workflow-corpus"
META = "export const meta = { name: 'big', description: 'A very large workflow, for timing' }\n"

STEP = """
const SCHEMA_{n} = {{
  type: 'object',
  properties: {{
    status: {{ enum: ['COMPLETE', 'PARTIAL', 'FAILED'] }},
    summary: {{ type: 'string', maxLength: 300 }},
    report: {{ type: 'string', maxLength: 200 }},
  }},
  required: ['status', 'report'],
}}
if (!skip.has('step-{n}')) {{
  const r{n} = await agent(`Do step {n} of the audit. Write the full result to ${{REPORTS}}/step-{n}.md.`, {{
    label: 'step-{n}',
    schema: SCHEMA_{n},
  }})
  done.push({{ step: 'step-{n}', status: r{n} ? r{n}.status : 'FAILED', report: r{n}?.report }})
}}
"""
FAN_OUT = """
function prompt{n}(item) {{
  return `Check ${{item}} for problem {n}; save your notes to ${{REPORTS}}/{n}-${{item}}.md.`
}}
for (let i = 0; i < args.items.length; i += CAP) {{
  const batch{n} = args.items.slice(i, i + CAP)
  const found{n} = await parallel(batch{n}.map((item) => () => agent(prompt{n}(item), {{ schema: COUNT }})))
  total += found{n}.filter(Boolean).reduce((sum, f) => sum + f.count, 0)
}}
const checked{n} = await pipeline(
  ['a{n}', 'b{n}'],
  (x) => agent(prompt{n}(x), {{ schema: COUNT }}),
  (c, x) =>
    agent(`Verify the ${{c.count}} problems in ${{x}}; write verdicts to ${{REPORTS}}/v{n}.md.`, {{
      schema: COUNT,
    }}),
)
verified += checked{n}.length
"""
DATA_ROW = "  {{ id: {n}, path: 'src/module-{n}/index.js', owner: 'team-{m}', weight: {w} }},\n"


def script(shape: str, megabytes: float) -> str:
    target = int(megabytes * 1_000_000)
    if shape == "steps":
        head = (
            META
            + "const REPORTS = '.big-reports'\nconst skip = new Set(args.skip || [])\nconst done = []\n"
        )
        tail = "return { steps: done }\n"
        unit = STEP
    elif shape == "fan-out":
        head = (
            META
            + "const REPORTS = '.big-reports'\nconst CAP = 2\nlet total = 0\nlet verified = 0\n"
            "const COUNT = { type: 'object', properties: { count: { type: 'integer' } } }\n"
        )
        tail = "return { total, verified }\n"
        unit = FAN_OUT
    else:
        head = META + "const WORK = [\n"
        tail = (
            "]\nconst S = { type: 'object', properties: { ok: { type: 'boolean' } } }\n"
            "let ok = 0\nfor (const w of WORK) {\n"
            "  const r = await agent(`Check ${w.path}; write notes to .big-reports/${w.id}.md.`, "
            "{ schema: S })\n  if (r && r.ok) ok++\n}\nreturn { ok }\n"
        )
        unit = DATA_ROW
    parts = [head]
    size = len(head) + len(tail)
    n = 0
    while size < target:
        piece = unit.format(n=n, m=n % 17, w=n % 100)
        parts.append(piece)
        size += len(piece)
        n += 1
    return "".join(parts) + tail


def median_run(fn, repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = timed(fn)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def big(megabytes: float, repeat: int) -> None:
    print(f"## One {megabytes:g} MB file (median of {repeat})\n")
    print("| file | wall s | CPU s | CPU s per MB | vs Markdown |")
    print("|---|---|---|---|---|")
    markdown = sized(bodies()["skills"], megabytes)
    md_wall, md_cpu = median_run(
        lambda: lint_document(markdown, "skills/big/SKILL.md", reader="pyyaml"), repeat
    )
    print(
        f"| SKILL.md (skills shape) | {md_wall:.2f} | {md_cpu:.2f} | {md_cpu / megabytes:.2f} | 1.00 |"
    )
    for shape in ("steps", "fan-out", "data"):
        text = script(shape, megabytes)
        result = lint_document(text, "big.js")
        wall, cpu = median_run(lambda text=text: lint_document(text, "big.js"), repeat)
        parse_wall, parse_cpu = median_run(lambda text=text: parse.parse(text), repeat)
        codes = sorted({d.code for d in result.diagnostics})
        print(
            f"| workflow, {shape} ({len(text.encode()) / 1e6:.2f} MB; findings {','.join(codes) or '-'}) "
            f"| {wall:.2f} | {cpu:.2f} | {cpu / megabytes:.2f} | {cpu / md_cpu:.2f} |"
        )
        print(
            f"| tree-sitter parse only, {shape} | {parse_wall:.2f} | {parse_cpu:.2f} "
            f"| {parse_cpu / megabytes:.2f} | {parse_cpu / md_cpu:.2f} |"
        )
    print()


def small(count: int) -> None:
    sources = sorted(WF_CORPUS.glob("*.js"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        scripts = []
        for i in range(count):
            src = sources[i % len(sources)]
            target = root / "wf" / f"copy{i}" / src.name
            target.parent.mkdir(parents=True)
            shutil.copy(src, target)
            scripts.append(target)
        markdown = make_tree(root / "md", count)

        def lint_files(files: list[Path]) -> None:
            for path in files:
                lint_document(path.read_text(encoding="utf-8"), str(path))

        lint_files(scripts[:50])  # warm: tree-sitter loaded, caches filled
        lint_files(markdown[:50])
        rows = {}
        for name, files in (("Markdown corpus files", markdown), ("workflow scripts", scripts)):
            runs = [timed(lint_files, files) for _ in range(5)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            rows[name] = (count / wall, count / cpu)
        print(f"## {count:,} small files in one process (median of 5 passes)\n")
        print("| files | files/s (wall) | files/s (CPU) | vs Markdown (CPU) |")
        print("|---|---|---|---|")
        base = rows["Markdown corpus files"][1]
        for name, (by_wall, by_cpu) in rows.items():
            print(f"| {count:,} {name} | {by_wall:,.0f} | {by_cpu:,.0f} | {by_cpu / base:.2f} |")
        print()


def process(runs: int) -> None:
    exe = shutil.which("spawnkit") or str(Path(sys.executable).parent / "spawnkit")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        skill = root / "skills" / "notes" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(
            "---\nname: notes\ndescription: Notes from a meeting.\n---\nSummarise it.\n"
        )
        wf = root / ".claude" / "workflows" / "single.js"
        wf.parent.mkdir(parents=True)
        shutil.copy(WF_CORPUS / "good-single.js", wf)
        commands = {"SKILL.md": [exe, "lint", str(skill)], "workflow .js": [exe, "lint", str(wf)]}
        for cmd in commands.values():
            subprocess.run(cmd, cwd=root, capture_output=True, env=env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, cmd in commands.items():
                start = time.perf_counter()
                subprocess.run(cmd, cwd=root, capture_output=True, env=env)
                walls[name].append(time.perf_counter() - start)
        print(f"## One `spawnkit lint FILE` process (median of {runs}, in rotation)\n")
        print("| file | wall ms | vs SKILL.md |")
        print("|---|---|---|")
        base = statistics.median(walls["SKILL.md"])
        for name, values in walls.items():
            ms = statistics.median(values)
            print(f"| {name} | {ms * 1000:.0f} | {ms / base:.2f} |")
        print()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--size", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    big(args.size, args.repeat)
    small(args.files)
    process(args.runs)
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
