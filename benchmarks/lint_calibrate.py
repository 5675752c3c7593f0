"""Fit lint's calibrated decisions on the labelled real-skill corpus, and measure them on files
whose repositories the fit never saw (issue 34).

    python benchmarks/lint_calibrate.py            # the cross-validated report, in Markdown
    python benchmarks/lint_calibrate.py --write    # ... and write src/spawnkit/lint/calibration.json
    python benchmarks/lint_calibrate.py --json     # the figures as JSON

Whether a file starts sub-agents is one probability: a logistic model over what lint reads
(``spawnkit.lint.calibration.spawn_features``: each reading's count, where the readings sit,
the file's kind, its frontmatter tools, its mood). Each finding of CM001, CM002, CM003 and CM005
gets one too, from that probability, the reading that made it, the file's kind and how many
findings the rule has there. The default tier asserts a decision only at or above the threshold
whose cross-validated precision is at least ``--target`` (0.95). A rule's reading seen on fewer
than ``--min-files`` (10) labelled files is not calibrated: its findings are always offered.

**How it is measured.** The corpus's repositories are dealt into ``--folds`` groups (10, seeded,
balanced by files). Each group in turn is held out: the models are fitted on the other groups,
and the thresholds chosen there too, by an inner cross-validation over *their* repositories
(5 groups); then every held-out file is scored. So each file is judged by a decision fitted and
tuned without any file of its repository: the "nested" figures. The curves pool those held-out
probabilities. 95 % intervals: Wilson for a proportion, and a bootstrap over repositories (2,000
resamples, seeded), since files of one repository are alike. The readings themselves were
written by hand, looking at batches 1 to 6 (docs/lint-accuracy.md): the cross-validation keeps
the *fit* honest, not the readings.

**What is shipped** (``--write``): the models fitted on every file; each threshold the lowest
probability at which the pooled held-out predictions reach the target precision. If at that
threshold detection finds fewer than ``--min-recall`` (0.6) of the orchestrators, the model
is not trusted to assert anything and the file says so (``"mode": "structural"``): then only the
structural readings (``spawnkit.lint.calibration.structural``) are asserted by default.

Texts come from the cache ``benchmarks/lint_real.py --materialize-from`` fills; numpy is needed
here only (``pip install numpy``), never by spawnkit itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint_real import CORPUS, TEXTS, load, read_entry, text_path  # noqa: E402

from spawnkit.lint import calibration
from spawnkit.lint.analysis import DETECTION_FAMILIES, spawn_features, structural
from spawnkit.lint.document import Document
from spawnkit.lint.rules import MARKDOWN, Context

MODEL = calibration.MODEL_FILE
RULES = calibration.CALIBRATED_RULES
DETECTION = "detection"
GRID = (0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98)
BOOTSTRAP = 2000  # resamples of repositories (--bootstrap)
RESAMPLES = [BOOTSTRAP]  # this run's (a test asks for few)
SEED = "issue-34"


@dataclass
class Row:
    """One labelled file: what lint reads in it, and its labels."""

    key: str
    repo: str
    batch: int
    kind: str
    label: bool  # an orchestrator
    rules: dict[str, bool]  # rule -> labelled positive (the file breaks it)
    candidate: bool = False  # some reading finds it spawning
    structural: bool = False
    x: dict[str, float] = field(default_factory=dict)
    readings: list[str] = field(default_factory=list)  # detection readings that fire
    findings: dict[str, list[str]] = field(default_factory=dict)  # rule -> its findings' readings


def collect(doc: dict, texts: Path = TEXTS) -> tuple[list[Row], int]:
    """Every labelled file whose text is present, read as lint reads it; (rows, skipped)."""
    rows, skipped = [], 0
    calibrated = [rule for rule in MARKDOWN if rule.code in RULES]
    for entry in doc["files"]:
        text, status = read_entry(texts, entry)
        if text is None:
            skipped += 1
            continue
        row = Row(
            key=f"{entry['repo']}:{entry['path']}",
            repo=entry["repo"],
            batch=entry.get("batch", 1),
            kind=entry["kind"],
            label=entry["orchestrator"]["label"] is True,
            rules={r: entry["rules"][r]["label"] == "positive" for r in RULES},
        )
        ctx = Context(Document(str(text_path(texts, entry)), text, "pyyaml"), "claude-code")
        a = ctx.analysis
        row.candidate = a.orchestrator
        if row.candidate:
            row.x = spawn_features(a)
            row.structural = structural(a)
            row.readings = sorted({m.family for m in a.marks})
            for rule in calibrated:
                found = [f.family for f in rule.check(ctx)]
                if found:
                    row.findings[rule.code] = found
        rows.append(row)
    return rows, skipped


# --- the logistic model (numpy: a benchmark dependency only) --------------------------------


def _np():
    try:
        import numpy
    except ImportError:  # pragma: no cover - a message, not a traceback
        sys.exit("lint_calibrate.py: error: numpy is needed to fit (pip install numpy)")
    return numpy


def names_of(xs: list[dict[str, float]]) -> list[str]:
    return [calibration.BIAS] + sorted({k for x in xs for k in x})


def design(xs: list[dict[str, float]], names: list[str]):
    np = _np()
    index = {n: i for i, n in enumerate(names)}
    out = np.zeros((len(xs), len(names)))
    out[:, 0] = 1.0
    for i, x in enumerate(xs):
        for k, v in x.items():
            j = index.get(k)
            if j is not None:
                out[i, j] = v
    return out


def fit(xs: list[dict[str, float]], ys: list[bool], l2: float) -> dict[str, float]:
    """Logistic regression by Newton's method with an L2 penalty on every weight but the bias."""
    np = _np()
    names = names_of(xs)
    X, y = design(xs, names), np.asarray(ys, dtype=float)
    w = np.zeros(len(names))
    penalty = np.eye(len(names)) * l2
    penalty[0, 0] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        gradient = X.T @ (p - y) + penalty @ w
        hessian = (X * (p * (1 - p))[:, None]).T @ X + penalty + 1e-9 * np.eye(len(names))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return {n: round(float(v), 6) for n, v in zip(names, w, strict=True)}


def predict(weights: dict[str, float], x: dict[str, float]) -> float:
    """What spawnkit computes at run time: the same function, from the same weights."""
    return calibration.logistic(weights, x)


# --- folds and thresholds ------------------------------------------------------------------


def grouped_folds(rows: list[Row], k: int, seed: str) -> dict[str, int]:
    """Repository -> fold: repositories in a seeded order, each to the fold with the fewest
    files so far (largest first), so no repository is split and the folds stay even."""
    sizes = Counter(r.repo for r in rows)
    order = sorted(sizes, key=lambda r: hashlib.sha256(f"{seed}:{r}".encode()).hexdigest())
    order.sort(key=lambda r: -sizes[r])  # stable: ties keep the seeded order
    load_ = [0] * k
    out = {}
    for repo in order:
        i = min(range(k), key=lambda j: (load_[j], j))
        out[repo] = i
        load_[i] += sizes[repo]
    return out


def choose_threshold(scores: list[float], labels: list[bool], target: float) -> float | None:
    """The lowest score at which the cases scored at or above it reach ``target`` precision
    (the largest such set), cutting only between distinct scores; None when none does."""
    ranked = sorted(zip(scores, labels, strict=True), key=lambda t: -t[0])
    tp = best = 0
    chosen = None
    for n, (score, label) in enumerate(ranked, 1):
        tp += label
        nxt = ranked[n][0] if n < len(ranked) else -1.0
        if nxt == score:
            continue  # ties go together
        if tp / n >= target and n > best:
            best, chosen = n, score
    return chosen


def _logit(p: float) -> float:
    return calibration.logit(p)


def rule_rows(rows: list[Row], code: str, p_spawn: dict[str, float]) -> list[tuple[Row, str]]:
    """(file, reading) for each reading of rule ``code`` that fires in a candidate file. (Fitted
    on every candidate: on only the files detection asserts, the fit had too few negatives and
    its thresholds swung from 0.58 to 0.99 between folds.)"""
    return [(r, f) for r in rows if r.key in p_spawn for f in sorted(set(r.findings.get(code, ())))]


def rule_x(row: Row, family: str, code: str, p: float) -> dict[str, float]:
    return calibration.rule_features(family, p, row.kind, len(row.findings.get(code, ())))


def fit_rule(rows: list[Row], code: str, p_spawn: dict[str, float], l2: float) -> dict[str, float]:
    pairs = rule_rows(rows, code, p_spawn)
    if not pairs or len({r.rules[code] for r, _ in pairs}) < 2:
        return {}
    return fit(
        [rule_x(r, f, code, p_spawn[r.key]) for r, f in pairs],
        [r.rules[code] for r, _ in pairs],
        l2,
    )


def calibrated_readings(rows: list[Row], code: str, min_files: int) -> set[str]:
    """The readings of rule ``code`` seen on at least ``min_files`` of ``rows``: only these are
    calibrated (a reading seen on fewer files is too little evidence to assert: offered)."""
    seen = Counter(f for r in rows for f in set(r.findings.get(code, ())))
    return {f for f, n in seen.items() if n >= min_files}


def rule_score(
    row: Row, code: str, weights: dict[str, float], p: float, readings: set[str]
) -> float:
    """A file's score for a rule: its surest calibrated finding's probability (0 with none)."""
    fams = set(row.findings.get(code, ())) & readings
    if not fams or not weights:
        return 0.0
    return max(predict(weights, rule_x(row, f, code, p)) for f in fams)


# --- cross-validation ------------------------------------------------------------------------


@dataclass
class Fold:
    detection_threshold: float | None
    rule_thresholds: dict[str, float | None]


@dataclass
class CV:
    """Held-out probabilities and decisions for every file (nested: thresholds chosen inside)."""

    p_spawn: dict[str, float] = field(default_factory=dict)  # candidates only
    spawn: dict[str, bool] = field(default_factory=dict)  # the nested detection decision
    rule_score: dict[str, dict[str, float]] = field(default_factory=dict)  # gated by `spawn`
    rule: dict[str, dict[str, bool]] = field(default_factory=dict)  # nested rule decisions
    folds: list[Fold] = field(default_factory=list)


def inner_oof(train: list[Row], k: int, seed: str, l2: float) -> dict[str, float]:
    """Held-out detection probabilities for ``train``, by a grouped CV over its repositories."""
    cand = [r for r in train if r.candidate]
    folds = grouped_folds(cand, k, seed)
    out: dict[str, float] = {}
    for j in range(k):
        fit_on = [r for r in cand if folds[r.repo] != j]
        w = fit([r.x for r in fit_on], [r.label for r in fit_on], l2)
        for r in cand:
            if folds[r.repo] == j:
                out[r.key] = predict(w, r.x)
    return out


def decide_rules(
    train: list[Row],
    p_train: dict[str, float],
    gate: float | None,
    k: int,
    seed: str,
    target: float,
    l2: float,
    min_files: int,
) -> tuple[dict[str, dict[str, float]], dict[str, float | None], dict[str, set[str]]]:
    """Rule models fitted on ``train`` (with held-out detection probabilities ``p_train`` as
    input), their thresholds, chosen by a grouped CV over ``train`` among the files the
    detection decision (``gate``) asserts, and the readings they calibrate."""
    models, thresholds, readings = {}, {}, {}
    cand = [r for r in train if r.key in p_train]
    folds = grouped_folds(cand, k, seed)
    for code in RULES:
        models[code] = fit_rule(cand, code, p_train, l2)
        readings[code] = calibrated_readings(cand, code, min_files)
        scores, labels = [], []
        for j in range(k):
            w = fit_rule([r for r in cand if folds[r.repo] != j], code, p_train, l2)
            for r in cand:
                if folds[r.repo] != j or gate is None or p_train[r.key] < gate:
                    continue
                s = rule_score(r, code, w, p_train[r.key], readings[code])
                if s > 0:
                    scores.append(s)
                    labels.append(r.rules[code])
        thresholds[code] = choose_threshold(scores, labels, target) if scores else None
    return models, thresholds, readings


def cross_validate(
    rows: list[Row], k: int, inner: int, target: float, l2: float, min_files: int = 10
) -> CV:
    cv = CV(rule_score={c: {} for c in RULES}, rule={c: {} for c in RULES})
    folds = grouped_folds(rows, k, SEED)
    for i in range(k):
        train = [r for r in rows if folds[r.repo] != i]
        test = [r for r in rows if folds[r.repo] == i]
        p_train = inner_oof(train, inner, f"{SEED}:inner:{i}", l2)
        cand = [r for r in train if r.candidate]
        t = choose_threshold([p_train[r.key] for r in cand], [r.label for r in cand], target)
        w = fit([r.x for r in cand], [r.label for r in cand], l2)
        models, rule_t, readings = decide_rules(
            train, p_train, t, inner, f"{SEED}:rules:{i}", target, l2, min_files
        )
        cv.folds.append(Fold(t, rule_t))
        for r in test:
            p = predict(w, r.x) if r.candidate else 0.0
            if r.candidate:
                cv.p_spawn[r.key] = p
            asserted = r.candidate and t is not None and p >= t
            cv.spawn[r.key] = asserted
            for code in RULES:
                s = rule_score(r, code, models[code], p, readings[code]) if asserted else 0.0
                cv.rule_score[code][r.key] = s
                cv.rule[code][r.key] = s > 0 and rule_t[code] is not None and s >= rule_t[code]
    return cv


# --- figures ---------------------------------------------------------------------------------


def wilson(k: int, n: int) -> tuple[float, float] | None:
    if n == 0:
        return None
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Figure:
    tp: int
    fp: int
    fn: int
    p_wilson: tuple[float, float] | None
    r_wilson: tuple[float, float] | None
    p_boot: tuple[float, float] | None
    r_boot: tuple[float, float] | None

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def as_dict(self) -> dict:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "precision_wilson": self.p_wilson,
            "recall_wilson": self.r_wilson,
            "precision_bootstrap": self.p_boot,
            "recall_bootstrap": self.r_boot,
        }


def figure(rows: list[Row], got: dict[str, bool], want: dict[str, bool], seed: str) -> Figure:
    """Precision and recall of decisions ``got`` against labels ``want`` over ``rows``, with
    Wilson intervals and a bootstrap over repositories."""
    np = _np()
    repos = sorted({r.repo for r in rows})
    index = {repo: i for i, repo in enumerate(repos)}
    per = np.zeros((len(repos), 3))
    for r in rows:
        g, w = got.get(r.key, False), want[r.key]
        col = 0 if g and w else 1 if g else 2 if w else None
        if col is not None:
            per[index[r.repo], col] += 1
    tp, fp, fn = (int(v) for v in per.sum(axis=0))
    rng = np.random.default_rng(int(hashlib.sha256(seed.encode()).hexdigest()[:8], 16))
    counts = rng.multinomial(len(repos), [1 / len(repos)] * len(repos), size=RESAMPLES[0])
    sums = counts @ per
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = sums[:, 0] / (sums[:, 0] + sums[:, 1])
        rec = sums[:, 0] / (sums[:, 0] + sums[:, 2])

    def band(values):
        values = values[~np.isnan(values)]
        if not len(values):
            return None
        return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))

    return Figure(tp, fp, fn, wilson(tp, tp + fp), wilson(tp, tp + fn), band(prec), band(rec))


def curve(
    rows: list[Row], scores: dict[str, float], want: dict[str, bool], extra: list[float]
) -> list[tuple[float, Figure]]:
    points = sorted({*GRID, *(round(t, 3) for t in extra)})
    return [
        (t, figure(rows, {k: s >= t and s > 0 for k, s in scores.items()}, want, f"{SEED}:{t}"))
        for t in points
    ]


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def _band(b: tuple[float, float] | None) -> str:
    return "n/a" if b is None else f"{b[0]:.2f}–{b[1]:.2f}"


def figure_row(name: str, f: Figure) -> str:
    return (
        f"| {name} | {f.tp} | {f.fp} | {f.fn} | {_f(f.precision)} | {_band(f.p_wilson)} "
        f"| {_band(f.p_boot)} | {_f(f.recall)} | {_band(f.r_wilson)} | {_band(f.r_boot)} |"
    )


FIGURE_HEAD = (
    "| {what} | TP | FP | FN | precision | Wilson 95 % | by repository 95 % | recall "
    "| Wilson 95 % | by repository 95 % |\n|---|---|---|---|---|---|---|---|---|---|"
)


@dataclass
class Report:
    rows: list[Row]
    cv: CV
    target: float
    min_recall: float
    l2: float
    folds: int
    min_files: int = 10
    shipped: dict = field(default_factory=dict)
    sections: list[str] = field(default_factory=list)
    figures: dict = field(default_factory=dict)


def labels(rows: list[Row], code: str | None = None) -> dict[str, bool]:
    return {r.key: (r.label if code is None else r.rules[code]) for r in rows}


def reading_table(rows: list[Row], cv: CV, what: str) -> tuple[str, dict]:
    """Per reading: the files it fires on, their precision (with a bootstrap over
    repositories), and how the cross-validated decision does on those files."""
    if what == DETECTION:
        names = [f.name for f in DETECTION_FAMILIES]
        fires = {n: [r for r in rows if n in r.readings] for n in names}
        want = labels(rows)
        decided = cv.spawn
    else:
        names = sorted({f for r in rows for f in r.findings.get(what, ())})
        fires = {n: [r for r in rows if n in r.findings.get(what, ())] for n in names}
        want = labels(rows, what)
        decided = cv.rule[what]
    out = [
        "| reading | fires on | right | precision | by repository 95 % | asserted (CV) "
        "| precision of the asserted |",
        "|---|---|---|---|---|---|---|",
    ]
    data = {}
    for n in names:
        sub = fires[n]
        if not sub:
            continue
        every = figure(sub, {r.key: True for r in sub}, want, f"{SEED}:{what}:{n}")
        kept = figure(sub, decided, want, f"{SEED}:{what}:{n}:cv")
        asserted = kept.tp + kept.fp
        out.append(
            f"| {n} | {len(sub)} | {every.tp} | {_f(every.precision)} | {_band(every.p_boot)} "
            f"| {asserted} | {_f(kept.precision)} |"
        )
        data[n] = {"files": len(sub), "precision": every.precision, "cv": kept.as_dict()}
    return "\n".join(out), data


def build(report: Report) -> None:
    rows, cv = report.rows, report.cv
    want = labels(rows)
    cand = [r for r in rows if r.candidate]
    s = report.sections
    s.append(
        f"{len(rows)} labelled files from {len({r.repo for r in rows})} repositories "
        f"({sum(r.label for r in rows)} orchestrators; {len(cand)} that some reading finds "
        f"spawning); {report.folds} folds by repository, thresholds chosen inside each by a "
        f"5-fold CV over its own repositories; target precision {report.target}; L2 {report.l2}; "
        f"a rule's reading calibrated if seen on {report.min_files} files or more."
    )
    # detection
    nested = figure(rows, cv.spawn, want, f"{SEED}:nested")
    t_ship = choose_threshold(
        [cv.p_spawn[r.key] for r in cand], [r.label for r in cand], report.target
    )
    pts = curve(rows, cv.p_spawn, want, [t_ship] if t_ship is not None else [])
    at = next((f for t, f in pts if t_ship is not None and t == round(t_ship, 3)), None)
    recall_at = at.recall if at is not None else None
    mode = (
        "calibrated" if recall_at is not None and recall_at >= report.min_recall else "structural"
    )
    structural = figure(rows, {r.key: r.structural for r in rows}, want, f"{SEED}:structural")
    report.figures[DETECTION] = {
        "nested": nested.as_dict(),
        "threshold": t_ship,
        "at_threshold": at.as_dict() if at else None,
        "mode": mode,
        "structural": structural.as_dict(),
        "fold_thresholds": [f.detection_threshold for f in cv.folds],
        "curve": [(t, f.as_dict()) for t, f in pts],
    }
    s.append("## Detection: does the file start sub-agents?")
    s.append(
        FIGURE_HEAD.format(what="decision")
        + "\n"
        + figure_row("calibrated, nested (threshold chosen in each fold)", nested)
        + "\n"
        + (figure_row(f"calibrated, shipped threshold {t_ship:.3f}", at) + "\n" if at else "")
        + figure_row("structural readings only (no fit)", structural)
    )
    folds_t = ", ".join(_f(f.detection_threshold) for f in cv.folds)
    s.append(
        f"Thresholds chosen in the folds: {folds_t}. Shipped: "
        + (f"{t_ship:.3f}" if t_ship is not None else "none")
        + f", recall there {_f(recall_at)} → mode **{mode}**"
        + (
            ""
            if mode == "calibrated"
            else f" (below the {report.min_recall} recall bar: only structural readings asserted)"
        )
        + "."
    )
    s.append(
        "Curve (held-out probabilities of every fold, pooled):\n\n"
        + FIGURE_HEAD.format(what="p ≥")
        + "\n"
        + "\n".join(figure_row(f"{t:.3f}" if t not in GRID else f"{t:.2f}", f) for t, f in pts)
    )
    table, data = reading_table(rows, cv, DETECTION)
    report.figures[DETECTION]["readings"] = data
    s.append("Per reading (files it fires on; the nested decision on them):\n\n" + table)
    # rules
    for code in RULES:
        rwant = labels(rows, code)
        rnested = figure(rows, cv.rule[code], rwant, f"{SEED}:{code}:nested")
        scores = cv.rule_score[code]
        fired = [r for r in rows if scores.get(r.key, 0) > 0]
        rt = choose_threshold(
            [scores[r.key] for r in fired], [rwant[r.key] for r in fired], report.target
        )
        rpts = curve(rows, scores, rwant, [rt] if rt is not None else [])
        rat = next((f for t, f in rpts if rt is not None and t == round(rt, 3)), None)
        table, rdata = reading_table(rows, cv, code)
        report.figures[code] = {
            "nested": rnested.as_dict(),
            "threshold": rt,
            "at_threshold": rat.as_dict() if rat else None,
            "fold_thresholds": [f.rule_thresholds[code] for f in cv.folds],
            "curve": [(t, f.as_dict()) for t, f in rpts],
            "readings": rdata,
        }
        s.append(f"## {code}")
        s.append(
            FIGURE_HEAD.format(what="decision")
            + "\n"
            + figure_row("nested (thresholds chosen in each fold)", rnested)
            + ("\n" + figure_row(f"shipped threshold {rt:.3f}", rat) if rat else "")
        )
        s.append(
            "Thresholds chosen in the folds: "
            + ", ".join(_f(f.rule_thresholds[code]) for f in cv.folds)
            + ". Shipped: "
            + (f"{rt:.3f}" if rt is not None else "none (every finding preview)")
            + "."
        )
        s.append(
            "Curve (the rule's held-out probability, on files the detection decision asserts):"
            "\n\n"
            + FIGURE_HEAD.format(what="p ≥")
            + "\n"
            + "\n".join(figure_row(f"{t:.3f}" if t not in GRID else f"{t:.2f}", f) for t, f in rpts)
        )
        s.append("Per reading:\n\n" + table)
    # by batch
    lines = [
        "| batch | files | detection P / R (nested) | CM001 P / R | CM005 P / R |",
        "|---|---|---|---|---|",
    ]
    for batch in sorted({r.batch for r in rows}):
        sub = [r for r in rows if r.batch == batch]
        d = figure(sub, cv.spawn, want, f"{SEED}:b{batch}")
        c1 = figure(sub, cv.rule["CM001"], labels(rows, "CM001"), f"{SEED}:b{batch}:1")
        c5 = figure(sub, cv.rule["CM005"], labels(rows, "CM005"), f"{SEED}:b{batch}:5")
        lines.append(
            f"| {batch} | {len(sub)} | {_f(d.precision)} / {_f(d.recall)} | "
            f"{_f(c1.precision)} / {_f(c1.recall)} | {_f(c5.precision)} / {_f(c5.recall)} |"
        )
    s.append("## By batch (nested decisions)\n\n" + "\n".join(lines))


def ship(report: Report) -> dict:
    """The model file: weights fitted on every file, the thresholds of the pooled held-out
    predictions, and the figures ``spawnkit rule`` quotes."""
    rows, cv, l2 = report.rows, report.cv, report.l2
    cand = [r for r in rows if r.candidate]
    det = report.figures[DETECTION]
    out: dict = {
        "about": "Fitted by benchmarks/lint_calibrate.py --write on the labelled real-skill "
        "corpus (benchmarks/data/lint-real); see docs/lint-accuracy.md.",
        "corpus_files": len(rows),
        "target_precision": report.target,
        "min_recall": report.min_recall,
        "min_files": report.min_files,
        "l2": l2,
        "folds": report.folds,
        DETECTION: {
            "mode": det["mode"],
            "threshold": det["threshold"],
            "cv": {
                "precision": (det["at_threshold"] or {}).get("precision"),
                "recall": (det["at_threshold"] or {}).get("recall"),
                "nested_precision": det["nested"]["precision"],
                "nested_recall": det["nested"]["recall"],
            },
            "weights": fit([r.x for r in cand], [r.label for r in cand], l2),
            "reading_precision": {n: v["precision"] for n, v in det["readings"].items()},
            "reading_files": {n: v["files"] for n, v in det["readings"].items()},
        },
    }
    for code in RULES:
        fig = report.figures[code]
        # the rule models take detection's held-out probability as input, as new files will
        weights = fit_rule(cand, code, cv.p_spawn, l2)
        out[code] = {
            "threshold": fig["threshold"],
            "cv": {
                "precision": (fig["at_threshold"] or {}).get("precision"),
                "recall": (fig["at_threshold"] or {}).get("recall"),
                "nested_precision": fig["nested"]["precision"],
                "nested_recall": fig["nested"]["recall"],
            },
            "readings": sorted(calibrated_readings(cand, code, report.min_files)),
            "weights": weights,
            "reading_precision": {n: v["precision"] for n, v in fig["readings"].items()},
            "reading_files": {n: v["files"] for n, v in fig["readings"].items()},
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--texts", type=Path, default=TEXTS, help="cache of the corpus texts")
    parser.add_argument("--folds", type=int, default=10, help="groups of repositories (10)")
    parser.add_argument("--inner", type=int, default=5, help="inner folds for thresholds (5)")
    parser.add_argument("--target", type=float, default=0.95, help="precision to reach (0.95)")
    parser.add_argument(
        "--min-recall", type=float, default=0.6, help="below it: structural readings only (0.6)"
    )
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the weights (1.0)")
    parser.add_argument(
        "--min-files",
        type=int,
        default=10,
        help="a rule's reading is calibrated only if seen on this many files (10)",
    )
    parser.add_argument("--write", action="store_true", help=f"write {MODEL.name}")
    parser.add_argument("--output", type=Path, default=MODEL, help="where --write writes")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--bootstrap", type=int, default=BOOTSTRAP, help="resamples of repositories (2,000)"
    )
    args = parser.parse_args(argv)
    RESAMPLES[0] = args.bootstrap
    if args.folds < 2 or args.inner < 2 or not 0 < args.target < 1 or args.bootstrap < 10:
        print(
            "lint_calibrate.py: error: --folds and --inner need 2 or more, --target 0 to 1",
            file=sys.stderr,
        )
        return 2
    try:
        doc = load(args.corpus)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(
            f"lint_calibrate.py: error: cannot read the corpus {args.corpus} ({exc})",
            file=sys.stderr,
        )
        return 2
    rows, skipped = collect(doc, args.texts)
    if len({r.repo for r in rows}) < args.folds:
        print(
            f"lint_calibrate.py: error: {len(rows)} texts present ({skipped} absent or changed): "
            "too few repositories for the folds; fill the cache with benchmarks/lint_real.py "
            "--materialize-from DIR",
            file=sys.stderr,
        )
        return 2
    print(f"{len(rows)} files read, {skipped} skipped; cross-validating …", file=sys.stderr)
    cv = cross_validate(rows, args.folds, args.inner, args.target, args.l2, args.min_files)
    report = Report(rows, cv, args.target, args.min_recall, args.l2, args.folds, args.min_files)
    build(report)
    if args.write:
        data = ship(report)
        tmp = args.output.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(args.output)
        print(f"wrote {args.output}", file=sys.stderr)
    if args.json:
        print(json.dumps(report.figures, indent=1))
    else:
        print("\n\n".join(report.sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
