"""benchmarks/context.py's engine comparison: its section of docs/benchmarks.md and its verdict."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def context():
    spec = importlib.util.spec_from_file_location(
        "bench_context", ROOT / "benchmarks" / "context.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_context"] = module
    spec.loader.exec_module(module)
    return module


def figures(per_added_step: float) -> dict:
    row = {
        "growth_tokens": 2400,
        "per_step": 400,
        "per_added_step": 40,
        "fixed": 2160,
        "notification_tokens": 1100,
        "result_tokens": 60,
        "full_result_tokens": 60,
        "full_per_added_step": 5,
        "seconds": 20.0,
    }
    return {
        "sizes": [3, 6],
        "repeats": 3,
        "budget": 500,
        "prompt": {**row, "per_added_step": 1000},
        "workflow": {**row, "per_added_step": per_added_step},
        "unguarded": {**row, "per_added_step": 100, "full_per_added_step": 3700},
    }


@pytest.mark.parametrize("per_step, verdict", [(100, "meets"), (101, "misses")])
def test_the_verdict_holds_at_the_target(context, per_step, verdict):
    section = context.render_engines(figures(per_step))
    assert (
        f"The workflow engine {verdict} the target of at most 100 tokens per added step"
        in " ".join(section.split())
    )
    assert section.startswith(context.ENGINES_START) and section.endswith(context.ENGINES_END)
    assert "| per added step (3 → 6 steps) | 1,000 | " in section


def test_the_section_is_replaced_in_place_or_added_before_the_other_benchmarks(context):
    old = context.render_engines(figures(40))
    new = context.render_engines(figures(41))
    doc = "# Benchmarks\n\nintro\n\n## `benchmarks/hook.py`\n\nhook figures\n"
    added = context.splice_engines(doc, old)
    assert added.index(context.ENGINES_START) < added.index("## `benchmarks/hook.py`")
    assert added.startswith("# Benchmarks\n\nintro\n\n") and added.endswith("hook figures\n")
    replaced = context.splice_engines(added, new)
    assert replaced.count(context.ENGINES_START) == 1 and "41 tokens" in replaced
    assert replaced.replace(new, old) == added
