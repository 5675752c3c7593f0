"""Re-derive ``spawnkit.tokens.WEIGHTS`` from the calibration samples (standard library only).

    python benchmarks/tokens_fit.py            # fit, report held-out error, print WEIGHTS
    python benchmarks/tokens_fit.py --write    # ... and write them into src/spawnkit/tokens/__init__.py
    python benchmarks/tokens_fit.py --check    # exit 1 if tokens.py's WEIGHTS are not a fresh fit

Method, kept simple so it generalises from 23 texts:
1. Target = the claude-opus-4-7 count as the samples give it: already the text's own tokens
   (the study that made them measured the message framing once and subtracted it from every
   count; see the data's README). Nothing is subtracted here: an earlier version took 10 more
   off, fitting to counts 10 tokens short and overstating the over-count by ~4 points.
2. Latin-script samples (>= 95 % ASCII characters) fit the ASCII weights by non-negative least
   squares on the *relative* error (every text counts the same, whatever its length).
3. The other samples fit the non-ASCII weights the same way, the ASCII weights held fixed.
4. Each group's weights are then scaled up until no sample of that group is under-counted,
   and once more by ``MARGIN`` so that texts unlike the samples are still covered.
Three features are priors, not fitted. ``symbols`` (U+2000..U+2FFF: quotes, dashes, arrows, box
drawing, dingbats such as ✅ ❌ ⚠) are too few in the samples to fit; 2 tokens each sits between
the single token of a common quote or dash and the three-byte worst case. ``repeat_runs`` is
already in tokens (one sample, the 500 ``#`` run, shows how far the tokenizer merges a repeated
character; 1 + ceil(length / 16) stays above it) and ``overlong`` (letter runs of 24+ with no
break, which no sample has) charges one token per four letters so that junk like ``aaaa…`` or
lowercase base64 cannot slip under a budget.

Leave-one-domain-out: the whole procedure is rerun without each sample's domain and that sample
is estimated with the weights it did not see; the report prints those held-out errors.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from spawnkit import tokens  # noqa: E402

MODULE = REPO / "src" / "spawnkit" / "tokens" / "__init__.py"
SAMPLES = REPO / "benchmarks" / "data" / "token-calibration" / "samples.jsonl"
#: Extra safety on top of "no calibration sample under-counted"; see the leave-one-out report.
MARGIN = 0.08
LATIN_ASCII_SHARE = 0.95

ASCII_FEATURES = (
    "words",
    "capitalized",
    "long_chunks",
    "digit_runs",
    "digits",
    "punctuation",
    "newlines",
)
NON_ASCII_FEATURES = ("cyrillic", "cyrillic_words", "other_2byte", "bmp_3byte", "astral")
FIXED = {"symbols": 2.0, "repeat_runs": 1.0, "overlong": 6.0}


@dataclass(frozen=True)
class Sample:
    domain: str
    label: str
    text: str
    tokens: int  # claude-opus-4-7 count for the text alone (as the samples give it)
    counts: dict[str, float]

    @property
    def latin(self) -> bool:
        return is_latin(self.text)


def is_latin(text: str) -> bool:
    """Latin-script for the targets: at least 95 % of the characters are ASCII."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return ascii_chars >= LATIN_ASCII_SHARE * len(text)


def load_samples(path: Path = SAMPLES) -> list[Sample]:
    samples = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        text = row["text"]
        counts = dict(zip(tokens.FEATURES, tokens.features(text), strict=True))
        samples.append(
            Sample(
                domain=row["domain"],
                label=row["label"],
                text=text,
                tokens=row["claude_opus_4_7_tokens"],
                counts=counts,
            )
        )
    return samples


def nnls_relative(
    rows: list[list[float]], targets: list[float], offsets: list[float]
) -> list[float]:
    """Non-negative w minimising sum(((offset + row.w) / target - 1)^2), by coordinate descent."""
    k = len(rows[0]) if rows else 0
    scaled = [[x / t for x in row] for row, t in zip(rows, targets, strict=True)]
    goal = [1 - o / t for o, t in zip(offsets, targets, strict=True)]
    w = [0.0] * k
    norms = [sum(r[j] ** 2 for r in scaled) for j in range(k)]
    residual = [-g for g in goal]  # scaled.w - goal
    for _ in range(20_000):
        moved = 0.0
        for j in range(k):
            if norms[j] == 0:
                continue
            gradient = sum(r[j] * e for r, e in zip(scaled, residual, strict=True))
            new = max(0.0, w[j] - gradient / norms[j])
            delta = new - w[j]
            if delta:
                w[j] = new
                residual = [e + r[j] * delta for r, e in zip(scaled, residual, strict=True)]
                moved = max(moved, abs(delta))
        if moved < 1e-10:
            break
    return w


def fit(samples: list[Sample], margin: float = MARGIN) -> dict[str, float]:
    """Weights for every feature in ``tokens.FEATURES`` from ``samples``."""
    weights = {name: 0.0 for name in tokens.FEATURES} | FIXED

    def fixed_part(s: Sample, names: tuple[str, ...]) -> float:
        return sum(weights[n] * s.counts[n] for n in names)

    latin = [s for s in samples if s.latin and any(s.counts[n] for n in ASCII_FEATURES)]
    other = [s for s in samples if not s.latin]
    for group, names in ((latin, ASCII_FEATURES), (other, NON_ASCII_FEATURES)):
        if not group:
            continue
        held = tuple(n for n in weights if n not in names)
        offsets = [fixed_part(s, held) for s in group]
        rows = [[s.counts[n] for n in names] for s in group]
        fitted = dict(
            zip(names, nnls_relative(rows, [s.tokens for s in group], offsets), strict=True)
        )
        # Scale the fitted part until every sample of the group is covered, plus the margin.
        scale = 0.0
        for s, offset in zip(group, offsets, strict=True):
            variable = sum(fitted[n] * s.counts[n] for n in names)
            if variable > 0:
                scale = max(scale, (s.tokens * (1 + margin) - offset) / variable)
        for name in names:
            weights[name] = round(fitted[name] * scale, 3)
    return {name: weights[name] for name in tokens.FEATURES}


def raw_estimate(weights: dict[str, float], counts: dict[str, float]) -> float:
    return sum(weights[n] * counts[n] for n in weights)


def holdout_errors(samples: list[Sample], margin: float = MARGIN) -> dict[str, float | None]:
    """Relative error on each sample of weights fitted without its domain.

    None where the sample is the only one with a sizeable share of some non-ASCII class (the
    Hebrew text, the emoji text): without it that weight is not fitted at all, so the number
    would say nothing about how the method generalises.
    """
    errors: dict[str, float | None] = {}
    for sample in samples:
        rest = [s for s in samples if s.domain != sample.domain]
        if _has_unseen_script(sample, rest):
            errors[sample.label] = None
            continue
        weights = fit(rest, margin)
        errors[sample.label] = raw_estimate(weights, sample.counts) / sample.tokens - 1
    return errors


def _has_unseen_script(sample: Sample, others: list[Sample]) -> bool:
    def sizeable(s: Sample, name: str) -> bool:
        return s.counts[name] >= 0.05 * len(s.text)

    return any(
        sizeable(sample, name) and not any(sizeable(o, name) for o in others)
        for name in NON_ASCII_FEATURES
    )


def summary(errors: list[float | None]) -> str:
    skipped = sum(e is None for e in errors)
    errors = [e for e in errors if e is not None]
    if not errors:
        return "n=0"
    worst = min(errors)
    mean_over = sum(errors) / len(errors)
    note = f" ({skipped} n/a)" if skipped else ""
    return f"n={len(errors):2d} worst {worst:+7.1%} mean {mean_over:+7.1%}{note}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if tokens.py is out of date")
    parser.add_argument("--write", action="store_true", help="write the weights into tokens.py")
    parser.add_argument("--margin", type=float, default=MARGIN)
    args = parser.parse_args(argv)

    samples = load_samples()
    weights = fit(samples, args.margin)
    fitted = tuple(weights[n] for n in tokens.FEATURES)
    if args.check:
        if fitted != tuple(tokens.WEIGHTS):
            print(f"tokens.WEIGHTS is stale; a fresh fit gives:\nWEIGHTS = {fitted!r}")
            return 1
        print("tokens.WEIGHTS matches a fresh fit")
        return 0

    held = holdout_errors(samples, args.margin)
    print(f"{'sample':20} {'group':9} {'4.7':>6} {'fit':>7} {'held-out':>9}")
    for s in samples:
        own = raw_estimate(weights, s.counts) / s.tokens - 1
        group = "latin" if s.latin else "non-latin"
        out = held[s.label]
        shown = "n/a" if out is None else f"{out:+.1%}"
        print(f"{s.label:20} {group:9} {s.tokens:6d} {own:+7.1%} {shown:>9}")
    for name, members in (
        ("latin", [s for s in samples if s.latin]),
        ("non-latin", [s for s in samples if not s.latin]),
    ):
        fit_errors = [raw_estimate(weights, s.counts) / s.tokens - 1 for s in members]
        print(
            f"{name:9}  fit: {summary(fit_errors)}   held-out: "
            f"{summary([held[s.label] for s in members])}"
        )
    block = weights_block(weights)
    print("\n" + block)
    if args.write:
        source = MODULE.read_text(encoding="utf-8")
        updated = re.sub(
            r"^WEIGHTS = \(\n.*?^\)\n", block, source, count=1, flags=re.MULTILINE | re.DOTALL
        )
        MODULE.write_text(updated, encoding="utf-8")
        print(f"written to {MODULE.relative_to(REPO)}")
    return 0


def weights_block(weights: dict[str, float]) -> str:
    lines = ["WEIGHTS = ("]
    lines += [f"    {weights[name]!r},  # {name}" for name in tokens.FEATURES]
    return "\n".join(lines) + "\n)\n"


if __name__ == "__main__":
    sys.exit(main())
