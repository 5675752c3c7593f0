"""Per-rule precision, recall and F1 of ``spawnkit lint`` on real public skills.

    python benchmarks/lint_real.py                        # both halves, texts from the cache
    python benchmarks/lint_real.py --materialize-from /work/.mirror   # fill the cache first
    python benchmarks/lint_real.py --misses --half tune   # which files a rule gets wrong
    python benchmarks/lint_real.py --half tune --tier all --families   # per reading, preview on

The corpus (benchmarks/data/lint-real/corpus.yaml) lists real Claude Code skills, commands and
agents from public repositories by reference (repository, path, commit, sha256) with hand labels
per rule. Their texts are not committed (see that folder's README.md): they live in a cache
folder, ``benchmarks/data/lint-real/texts/<owner>/<name>/<path>`` by default, which
``--materialize-from DIR`` fills from git snapshots (``DIR/<owner>+<name>/repo`` git dirs, or
``DIR/<owner>/<name>`` clones). An entry whose text is absent, or whose sha256 differs, is
skipped and counted, never guessed.

The corpus was split once, by repository, into a tuning half and a test half: rules are tuned
on the first only. Report the test half. Later batches (``batch: 2``, ``batch: 3``) only grow
the tuning half; each batch is scored apart too, so rounds stay comparable and a batch scored
before it is tuned on is a fresh look at unseen files. ``--half`` also limits
``--materialize-from`` to that half, so the test texts need not be on disk while tuning.

``--tier default`` (the default) scores what ``spawnkit lint`` reports out of the box;
``--tier all`` scores it with ``--preview``. ``--families`` adds a table per way of reading (the
families of orchestrator detection and of each rule): on how many files each one fires, how
many of them are labelled positive, and on how many it alone makes the verdict — the figures
the tiers are decided from. A rule's readings are counted on the files default readings find
spawning (elsewhere all protocol findings are preview anyway); detection's on every file.
``--demote RULE:FAMILY`` (repeatable; ``CM001:spawn-without-cap``) scores as if those
readings were preview: what a tier change would cost before it is made. Detection and the
calibrated rules' tiers come from ``benchmarks/lint_calibrate.py``, which measures them with
every file's repository left out of the fit: that is the figure that decides a tier.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scoring import Score  # noqa: E402

from spawnkit.lint.analysis import analyse
from spawnkit.lint.document import Document
from spawnkit.lint.engine import lint_document
from spawnkit.lint.evidence import DEFAULT as DEFAULT_TIER

DATA = Path(__file__).resolve().parent / "data" / "lint-real"
CORPUS = DATA / "corpus.yaml"
TEXTS = DATA / "texts"
CM_RULES = ("CM001", "CM002", "CM003", "CM004", "CM005", "CM006", "CM007", "CM008")
DETECTION = "detection"


@dataclass
class Fired:
    """How one way of reading does on the files it fires on (file-level)."""

    right: int = 0  # files labelled positive (an orchestrator, for detection)
    wrong: int = 0
    sole_wrong: int = 0  # wrong files where it alone made the verdict
    sole_right: int = 0
    wrong_files: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.right / (self.right + self.wrong) if self.right + self.wrong else None


@dataclass
class Half:
    scores: dict[str, Score]
    files: int = 0
    skipped_absent: int = 0
    skipped_changed: int = 0
    sp_errors: dict[str, int] = field(default_factory=dict)  # SP code -> files with an error
    families: dict[tuple[str, str], Fired] = field(default_factory=dict)  # (rule, family)
    findings: dict[str, int] = field(default_factory=dict)  # tier -> protocol findings
    cases: dict[str, list[tuple[bool, bool]]] = field(default_factory=dict)  # rule -> (got, want)

    def interval(self, rule: str, which: str, runs: int = 2000) -> tuple[float, float] | None:
        """A 95% bootstrap interval of precision or recall, resampling files (seeded)."""
        import random

        cases = self.cases.get(rule, [])
        if not cases:
            return None
        rng = random.Random(25)
        values = []
        for _ in range(runs):
            sample = [cases[rng.randrange(len(cases))] for _ in cases]
            tp = sum(g and w for g, w in sample)
            base = sum(g for g, _ in sample) if which == "precision" else sum(w for _, w in sample)
            if base:
                values.append(tp / base)
        if not values:
            return None
        values.sort()
        return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def load(corpus: Path = CORPUS) -> dict:
    return yaml.safe_load(corpus.read_text(encoding="utf-8"))


def text_path(texts: Path, entry: dict) -> Path:
    owner, name = entry["repo"].split("/", 1)
    return texts / owner / name / entry["path"]


def read_entry(texts: Path, entry: dict) -> tuple[str | None, str]:
    """(text, status): status is ``ok``, ``absent`` or ``changed`` (sha256 mismatch)."""
    path = text_path(texts, entry)
    try:
        data = path.read_bytes()
    except OSError:
        return None, "absent"
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return None, "changed"
    return data.decode("utf-8", errors="replace"), "ok"


BATCH_GROUP = "tune, batch "  # a tuning batch scored apart: "tune, batch 2"


def batch_group(batch: int) -> str:
    """The name a tuning batch is scored under apart (``tune, batch 1`` is the first split)."""
    return f"{BATCH_GROUP}{batch}"


ORIGINAL_TUNE = batch_group(1)
TEST_GROUP = "test, batch "  # a part of the test half scored apart (batch 4 grew it)


def test_group(batch: int) -> str:
    return f"{TEST_GROUP}{batch}"


# the tuning half as first split, before later batches grew it


TITLES = {
    "tune": "tune half (all batches)",
    ORIGINAL_TUNE: "tune half, batch 1 only (the first round's tuning set)",
    "test": "test half",
}


def title(name: str) -> str:
    if name in TITLES:
        return TITLES[name]
    if name.startswith(TEST_GROUP):
        return name.replace(TEST_GROUP, "test half, batch ") + " only"
    return name.replace(BATCH_GROUP, "tune half, batch ") + " only"


def _empty() -> Half:
    return Half({DETECTION: Score(), **{r: Score() for r in CM_RULES}})


def evaluate(
    doc: dict, texts: Path = TEXTS, half: str | None = None, preview: bool = False
) -> dict[str, Half]:
    """Scores per half (``tune``, ``test``) over the entries whose text is present; when later
    batches grew the tuning half, each batch is scored apart as well (``tune, batch 1``, …): a
    batch scored before any tuning on it is a fresh look at how the rules generalise."""
    halves = {"tune": _empty(), "test": _empty()}
    batches = sorted({e.get("batch", 1) for e in doc["files"] if e["split"] == "tune"})
    if len(batches) > 1:
        halves.update({batch_group(b): _empty() for b in batches})
    test_batches = sorted({e.get("batch", 1) for e in doc["files"] if e["split"] == "test"})
    if len(test_batches) > 1:
        halves.update({test_group(b): _empty() for b in test_batches})
    for entry in doc["files"]:
        if half and entry["split"] != half:
            continue
        groups = [halves[entry["split"]]]
        if entry["split"] == "tune" and len(batches) > 1:
            groups.append(halves[batch_group(entry.get("batch", 1))])
        if entry["split"] == "test" and len(test_batches) > 1:
            groups.append(halves[test_group(entry.get("batch", 1))])
        for h in groups:
            _score(h, entry, texts, preview)
    for h in halves.values():
        h.sp_errors = {code: len(files) for code, files in sorted(h.sp_errors.items())}  # type: ignore[arg-type]
    return halves


def _score(h: Half, entry: dict, texts: Path, preview: bool = False) -> None:
    text, status = read_entry(texts, entry)
    if text is None:
        if status == "absent":
            h.skipped_absent += 1
        else:
            h.skipped_changed += 1
        return
    h.files += 1
    where = f"{entry['repo']}:{entry['path']}"
    path = str(text_path(texts, entry))
    result = lint_document(text, path, preview=preview)
    is_orchestrator = entry["orchestrator"]["label"] is True
    h.scores[DETECTION].add(result.orchestrator, is_orchestrator, where)
    h.cases.setdefault(DETECTION, []).append((result.orchestrator, is_orchestrator))
    got = {d.code for d in result.diagnostics}
    for rule in CM_RULES:
        want = entry["rules"][rule]["label"] == "positive"
        h.scores[rule].add(rule in got, want, f"{where} [{entry['rules'][rule]['reason']}]")
        h.cases.setdefault(rule, []).append((rule in got, want))
    for d in result.diagnostics:
        if d.code.startswith("SP") and d.severity == "error":
            h.sp_errors.setdefault(d.code, set()).add(where)  # type: ignore[arg-type]
        if d.code.startswith("CM"):
            h.findings[d.tier] = h.findings.get(d.tier, 0) + 1
    # the families, from everything the rules find with preview on
    full = result if preview else lint_document(text, path, preview=True)
    marks = analyse(Document(path, text, "pyyaml")).marks
    _fired(h, DETECTION, {m.family for m in marks}, is_orchestrator, where, full.orchestrator)
    for rule in CM_RULES:
        # a rule's reading shows by its own tier only on files the default readings find
        # spawning (elsewhere every protocol finding is preview): judged on those files
        if full.spawn_tier != DEFAULT_TIER:
            break
        fams = {d.family for d in full.diagnostics if d.code == rule}
        want = entry["rules"][rule]["label"] == "positive"
        _fired(h, rule, fams, want, where, bool(fams))


def _fired(h: Half, rule: str, families: set[str], want: bool, where: str, verdict: bool) -> None:
    for family in families:
        f = h.families.setdefault((rule, family), Fired())
        sole = verdict and len(families) == 1
        if want:
            f.right += 1
            f.sole_right += sole
        else:
            f.wrong += 1
            f.sole_wrong += sole
            f.wrong_files.append(where)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def table(half: Half, intervals: bool = False) -> str:
    head = "| rule | positives | TP | FP | FN | precision | recall | F1 |"
    if intervals:
        head += " precision, 95% | recall, 95% |"
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    for rule, s in half.scores.items():
        name = "orchestrator detection" if rule == DETECTION else rule
        row = (
            f"| {name} | {s.positives} | {s.tp} | {s.fp} | {s.fn} | {_fmt(s.precision)} "
            f"| {_fmt(s.recall)} | {_fmt(s.f1)} |"
        )
        if intervals:
            for which in ("precision", "recall"):
                got = half.interval(rule, which)
                row += f" {got[0]:.2f}–{got[1]:.2f} |" if got else " n/a |"
        rows.append(row)
    return "\n".join(rows)


def family_table(half: Half) -> str:
    rows = [
        "| rule | family | fires on | right | wrong | precision | alone: right / wrong |",
        "|---|---|---|---|---|---|---|",
    ]
    for (rule, family), f in sorted(half.families.items()):
        rows.append(
            f"| {rule} | {family} | {f.right + f.wrong} | {f.right} | {f.wrong} "
            f"| {_fmt(f.precision)} | {f.sole_right} / {f.sole_wrong} |"
        )
    return "\n".join(rows)


def summary(name: str, half: Half, intervals: bool = False) -> str:
    lines = [f"## {name}: {half.files} files linted"]
    skipped = half.skipped_absent + half.skipped_changed
    if skipped:
        lines.append(
            f"skipped {skipped}: {half.skipped_absent} without text, "
            f"{half.skipped_changed} whose text changed (sha256)"
        )
    lines += ["", table(half, intervals), ""]
    sp = ", ".join(f"{c}: {n}" for c, n in half.sp_errors.items()) or "none"
    lines.append(f"files with SP errors: {sp}")
    tiers = ", ".join(f"{t} {n}" for t, n in sorted(half.findings.items())) or "none"
    lines.append(f"protocol findings by tier: {tiers}")
    return "\n".join(lines)


def materialize(
    doc: dict, source: Path, texts: Path = TEXTS, half: str | None = None
) -> tuple[int, int]:
    """Copy each entry's text (of ``half`` only, when given) out of git snapshots under
    ``source``; (written, not found)."""
    written = missing = 0
    for entry in doc["files"]:
        if half and entry["split"] != half:
            continue
        owner, name = entry["repo"].split("/", 1)
        candidates = [source / f"{owner}+{name}" / "repo", source / owner / name]
        data = None
        for git_dir in candidates:
            if not git_dir.exists():
                continue
            args = [
                "git",
                "-C",
                str(git_dir),
                "cat-file",
                "blob",
                f"{entry['commit']}:{entry['path']}",
            ]
            done = subprocess.run(args, capture_output=True, timeout=60)
            if done.returncode == 0 and hashlib.sha256(done.stdout).hexdigest() == entry["sha256"]:
                data = done.stdout
                break
        if data is None:
            missing += 1
            continue
        dest = text_path(texts, entry)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        written += 1
    return written, missing


def demote(readings: list[str]) -> None:
    """Move each ``RULE:FAMILY`` reading to the preview tier, in this process only. A reading
    of a calibrated rule (CM001, CM002, CM003, CM005) is taken out of the rule's model, so its
    findings are offered; detection's readings are weighed together by the calibrated model
    and cannot be demoted one by one (refit with benchmarks/lint_calibrate.py)."""
    from spawnkit.lint import calibration
    from spawnkit.lint.evidence import CALIBRATED, PREVIEW
    from spawnkit.lint.rules import BY_CODE

    for reading in readings:
        rule, _, family = reading.partition(":")
        if rule == DETECTION:
            raise ValueError(
                f"detection readings are weighed by the calibrated model, not demoted one by one "
                f"({reading!r}); measure a change with benchmarks/lint_calibrate.py"
            )
        target = BY_CODE.get(rule)
        names = {f.name for f in target.families} if target is not None else set()
        if family not in names:
            raise ValueError(f"no reading {reading!r}; a rule code and one of its families")
        if target.tier == CALIBRATED:
            fitted = dict(calibration.model().get(rule, {}))
            fitted["readings"] = [f for f in fitted.get("readings", ()) if f != family]
            calibration.use({**calibration.model(), rule: fitted})
            continue
        target.families = tuple(
            f._replace(tier=PREVIEW) if f.name == family else f for f in target.families
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--texts", type=Path, default=TEXTS, help="cache of the corpus texts")
    parser.add_argument("--materialize-from", type=Path, metavar="DIR", help="git snapshots")
    parser.add_argument("--half", choices=("tune", "test"))
    parser.add_argument("--misses", action="store_true", help="list every wrong verdict")
    parser.add_argument(
        "--tier",
        choices=("default", "all"),
        default="default",
        help="score the default tier (as spawnkit lint reports) or all (with --preview)",
    )
    parser.add_argument(
        "--families", action="store_true", help="a table per way of reading, with wrong files"
    )
    parser.add_argument(
        "--intervals", action="store_true", help="95%% bootstrap intervals (2,000 resamples)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--demote",
        action="append",
        default=[],
        metavar="RULE:FAMILY",
        help="score as if this reading were preview (CODE:FAMILY)",
    )
    args = parser.parse_args(argv)
    try:
        demote(args.demote)
    except ValueError as exc:
        print(f"lint_real.py: error: {exc}", file=sys.stderr)
        return 2
    try:
        doc = load(args.corpus)
    except (OSError, yaml.YAMLError) as exc:
        print(f"lint_real.py: error: cannot read the corpus {args.corpus} ({exc})", file=sys.stderr)
        return 2
    if args.materialize_from and not args.materialize_from.is_dir():
        print(
            f"lint_real.py: error: {args.materialize_from} is not a folder of git snapshots; "
            "pass the folder that holds <owner>+<name>/repo or <owner>/<name>",
            file=sys.stderr,
        )
        return 2
    if args.materialize_from:
        written, missing = materialize(doc, args.materialize_from, args.texts, args.half)
        print(f"materialized {written} texts, {missing} not found", file=sys.stderr)
    halves = evaluate(doc, args.texts, args.half, preview=args.tier == "all")
    shown = {k: v for k, v in halves.items() if not args.half or k.split(",")[0] == args.half}
    if args.json:
        out = {
            name: {
                "files": h.files,
                "skipped": h.skipped_absent + h.skipped_changed,
                "sp_error_files": h.sp_errors,
                "findings_by_tier": h.findings,
                "families": {
                    f"{rule} {family}": {
                        "right": f.right,
                        "wrong": f.wrong,
                        "alone_right": f.sole_right,
                        "alone_wrong": f.sole_wrong,
                    }
                    for (rule, family), f in sorted(h.families.items())
                },
                "rules": {
                    rule: {
                        "positives": s.positives,
                        "tp": s.tp,
                        "fp": s.fp,
                        "fn": s.fn,
                        "precision": s.precision,
                        "recall": s.recall,
                        "f1": s.f1,
                    }
                    for rule, s in h.scores.items()
                },
            }
            for name, h in shown.items()
        }
        print(json.dumps(out, indent=1))
        return 0
    print("\n\n".join(summary(title(name), h, args.intervals) for name, h in shown.items()))
    if args.families:
        for name, h in shown.items():
            if name.startswith((BATCH_GROUP, TEST_GROUP)):
                continue
            print(f"\n## readings, {title(name)} (preview on)\n\n{family_table(h)}")
            if args.misses:
                for (rule, family), f in sorted(h.families.items()):
                    for where in f.wrong_files:
                        print(f"{name} {rule} {family}: {where}")
    if args.misses:
        for name, h in shown.items():
            if name.startswith((BATCH_GROUP, TEST_GROUP)):
                continue  # its misses are listed under its half
            for rule, s in h.scores.items():
                for miss in s.misses:
                    print(f"{name} {rule}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
