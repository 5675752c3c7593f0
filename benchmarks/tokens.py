"""How good and how fast is ``spawnkit.tokens.estimate``? Prints the figures the README quotes.

    python benchmarks/tokens.py            # everything, about 15 s
    python benchmarks/tokens.py --quick    # fewer timing repeats

Accuracy is against the claude-opus-4-7 counts in benchmarks/data/token-calibration (the
texts' own tokens, as the data gives them), with characters / 4 on the same texts for
contrast. Under-count = estimate below the real count (the dangerous direction for a budget
check); over-count = above it. Speed and import time are medians measured in this run, the
import time as the difference from an empty interpreter started the same way.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokens_fit  # puts src/ on sys.path too

from spawnkit import tokens

SHAPES = tokens_fit.REPO / "benchmarks" / "data" / "token-shapes"
TARGET_WORST_UNDER = -0.05
TARGET_MEAN_OVER = 0.25


def chars4(text: str) -> int:
    return -(-len(text) // 4)


def stats(errors: list[float]) -> str:
    return (
        f"worst {min(errors):+6.1%}  mean {statistics.fmean(errors):+6.1%}  "
        f"median {statistics.median(errors):+6.1%}  highest {max(errors):+6.1%}  "
        f"(n={len(errors)})"
    )


def accuracy(samples: list[tokens_fit.Sample]) -> None:
    print("== Accuracy vs claude-opus-4-7 (error = estimate / real - 1) ==")
    print(
        f"{'sample':18} {'domain':13} {'group':9} {'chars':>6} {'4.7':>5} {'estimate':>8} "
        f"{'error':>7} {'chars/4':>8}"
    )
    for s in samples:
        est = tokens.estimate(s.text)
        print(
            f"{s.label:18} {s.domain:13} {'latin' if s.latin else 'non-latin':9} "
            f"{len(s.text):6d} {s.tokens:5d} {est:8d} {est / s.tokens - 1:+7.1%} "
            f"{chars4(s.text) / s.tokens - 1:+8.1%}"
        )
    for name, group in (
        ("Latin-script", [s for s in samples if s.latin]),
        ("non-Latin", [s for s in samples if not s.latin]),
    ):
        ours = [tokens.estimate(s.text) / s.tokens - 1 for s in group]
        base = [chars4(s.text) / s.tokens - 1 for s in group]
        print(f"{name:13} estimate: {stats(ours)}")
        print(f"{'':13} chars/4:  {stats(base)}")
        if name == "Latin-script":
            ok = min(ours) >= TARGET_WORST_UNDER and statistics.fmean(ours) <= TARGET_MEAN_OVER
            print(
                f"{'':13} targets (worst >= {TARGET_WORST_UNDER:.0%}, mean <= "
                f"{TARGET_MEAN_OVER:.0%}): {'met' if ok else 'MISSED'}"
            )


def held_out(samples: list[tokens_fit.Sample]) -> None:
    print("\n== Held out: weights refitted without each sample's domain, then that sample ==")
    errors = tokens_fit.holdout_errors(samples)
    for name, group in (
        ("Latin-script", [s for s in samples if s.latin]),
        ("non-Latin", [s for s in samples if not s.latin]),
    ):
        print(f"{name:13} {tokens_fit.summary([errors[s.label] for s in group])}")


def pieces(text: str, size: int = 400) -> list[str]:
    """``text`` cut at line ends into pieces of at least ``size`` characters."""
    out, current = [], ""
    for line in text.splitlines(keepends=True):
        current += line
        if len(current) >= size:
            out.append(current)
            current = ""
    if current.strip():
        out.append(current)
    return out


def short_pieces(samples: list[tokens_fit.Sample]) -> None:
    print("\n== Short pieces: samples cut at line ends (>= 400 chars), vs the sample's own rate ==")
    print(
        "   (the real count of a piece is unknown; 'prorated' = sample tokens x piece share of "
        "its characters)"
    )
    for name, group in (
        ("Latin-script", [s for s in samples if s.latin]),
        ("non-Latin", [s for s in samples if not s.latin]),
    ):
        errors = []
        for s in group:
            for piece in pieces(s.text):
                prorated = s.tokens * len(piece) / len(s.text)
                errors.append(tokens.estimate(piece) / prorated - 1)
        under = sum(e < TARGET_WORST_UNDER for e in errors)
        print(f"{name:13} {stats(errors)}  below -5%: {under}")


def shapes(samples: list[tokens_fit.Sample]) -> None:
    print("\n== Sub-agent-shaped short texts (no real counts: sanity check only) ==")
    index = json.loads((SHAPES / "index.json").read_text(encoding="utf-8"))
    rates: dict[str, float] = {}
    for s in samples:
        for ref in index.values():
            if isinstance(ref, str) and s.domain.startswith(ref):
                rates[ref] = max(rates.get(ref, 0.0), len(s.text) / s.tokens)
    print(
        f"{'text':20} {'like':10} {'chars':>5} {'estimate':>8} {'chars/tok':>9} "
        f"{'ref max':>7} {'chars/4':>7}"
    )
    for name, ref in index.items():
        if name.startswith("_"):
            continue
        text = (SHAPES / name).read_text(encoding="utf-8")
        est = tokens.estimate(text)
        rate = len(text) / est
        flag = "" if rate <= rates[ref] else "  <-- more compressible than any sample"
        print(
            f"{name:20} {ref:10} {len(text):5d} {est:8d} {rate:9.2f} {rates[ref]:7.2f} "
            f"{chars4(text):7d}{flag}"
        )


def two_thousand_token_text(samples: list[tokens_fit.Sample]) -> tuple[str, float]:
    """Lines of the Latin samples, in order, until their prorated 4.7 count reaches 2,000."""
    text, count = "", 0.0
    for s in samples:
        if not s.latin:
            continue
        for line in s.text.splitlines(keepends=True):
            text += line
            count += s.tokens * len(line) / len(s.text)
            if count >= 2000:
                return text, count
    return text, count


def speed(samples: list[tokens_fit.Sample], repeats: int) -> None:
    print("\n== Speed (medians) ==")
    text, count = two_thousand_token_text(samples)
    tokens.estimate(text)  # compile the lazy regexes outside the timing
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(20):
            tokens.estimate(text)
        runs.append((time.perf_counter() - start) / 20)
    print(
        f"estimate(), {len(text):,} chars (~{count:,.0f} tokens for 4.7, estimate "
        f"{tokens.estimate(text):,}): {statistics.median(runs) * 1e3:.3f} ms"
    )

    huge = (text + "\n") * (10_000_000 // (len(text) + 1) + 1)
    start = time.perf_counter()
    total = tokens.estimate(huge)
    whole = time.perf_counter() - start
    early = []
    for _ in range(max(3, repeats // 4)):
        start = time.perf_counter()
        assert tokens.exceeds(huge, 500)
        early.append(time.perf_counter() - start)
    print(
        f"10 MB text: estimate() {whole * 1e3:,.0f} ms (= {total:,} tokens); "
        f"exceeds(text, 500) {statistics.median(early) * 1e3:.2f} ms (stops early)"
    )


def import_time(repeats: int) -> None:
    print("\n== Import time of spawnkit.tokens (bytecode cached, as after pip install) ==")
    timed = (
        "import time; t = time.perf_counter(); import spawnkit.tokens; "
        "print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(tokens_fit.REPO / "src"), PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # -S (no site): the site imports are the same for both commands and only add noise.
        base_cmd = [sys.executable, "-S", "-c", "pass"]
        mod_cmd = [sys.executable, "-S", "-c", "import spawnkit.tokens"]
        timed_cmd = [sys.executable, "-S", "-c", timed]
        subprocess.run(mod_cmd, env=env, check=True)  # write the bytecode cache
        base, mod, inside = [], [], []
        for _ in range(repeats):
            for cmd, out in ((base_cmd, base), (mod_cmd, mod)):
                start = time.perf_counter()
                subprocess.run(cmd, env=env, check=True)
                out.append(time.perf_counter() - start)
            result = subprocess.run(timed_cmd, env=env, check=True, capture_output=True, text=True)
            inside.append(float(result.stdout))
    b, m = statistics.median(base), statistics.median(mod)
    print(
        f"in a fresh interpreter, timed around the import: {statistics.median(inside) * 1e3:.2f} ms"
        f" (n={repeats})"
    )
    print(
        f"whole process: python -S -c pass {b * 1e3:.1f} ms, python -S -c 'import "
        f"spawnkit.tokens' {m * 1e3:.1f} ms, difference {(m - b) * 1e3:+.2f} ms "
        f"(n={repeats} each, interleaved; on a busy machine this difference is mostly noise)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer timing repeats")
    args = parser.parse_args(argv)
    repeats = 7 if args.quick else 41
    samples = tokens_fit.load_samples()
    accuracy(samples)
    held_out(samples)
    short_pieces(samples)
    shapes(samples)
    speed(samples, repeats)
    import_time(repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
