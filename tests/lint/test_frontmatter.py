"""The stdlib frontmatter reader agrees with PyYAML wherever it gives an answer."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
import yaml

from spawnkit.lint import frontmatter as fm

CORPUS = Path(__file__).parent / "corpus"

WORDS = [
    "alpha",
    "Beta",
    "gamma delta",
    "x-y",
    "a:b",
    "c#d",
    "yes",
    "No",
    "on",
    "OFF",
    "~",
    "null",
    "true",
    "0x1F",
    "012",
    "08",
    "0b11",
    "1_000",
    "-7",
    "+3",
    "1.5",
    ".5",
    "-.inf",
    ".NaN",
    "1e3",
    "2024-01-31",
    "v1.2.3",
    "Read Grep",
    "Bash(git *)",
    "$ARGUMENTS",
    "café",
    "50%",
    "a, b",
    "{x}",
    "[y]",
    "path/to/*.md",
    "it's",
    'say "hi"',
    "back\\slash",
    "tab\there",
    "=",
    "@at",
    "`tick`",
    "&anchor",
    "*alias",
    "!tag",
    "- dash",
    "? q",
    "trailing ",
    " lead",
    "",
]


def _quote(word: str, rng: random.Random) -> str:
    kind = rng.choice(["plain", "plain", "single", "double"])
    if kind == "single":
        return "'" + word.replace("'", "''") + "'"
    if kind == "double":
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'
    return word


def _scalar_line(rng: random.Random, indent: int) -> list[str]:
    """A value for 'key:' as the text after the colon plus continuation lines."""
    pad = " " * (indent + 2)
    roll = rng.random()
    if roll < 0.5:
        return [" " + _quote(rng.choice(WORDS), rng) + rng.choice(["", "", " # note", "#x"])]
    if roll < 0.62:
        words = [rng.choice(WORDS[:6]) for _ in range(rng.randint(2, 4))]
        lines = [" " + words[0]] + [pad + w if rng.random() > 0.2 else "" for w in words[1:]]
        return lines
    if roll < 0.8:
        header = rng.choice(["|", ">", "|-", ">-", "|+", ">+", "|2", ">1-"])
        body = []
        for _ in range(rng.randint(1, 5)):
            r = rng.random()
            if r < 0.2:
                body.append("")
            elif r < 0.35:
                body.append(pad + "  " + rng.choice(WORDS[:8]))
            else:
                body.append(pad + rng.choice(WORDS))
        return [" " + header] + body
    if roll < 0.92:
        items = [_quote(rng.choice(WORDS[:30]), rng) for _ in range(rng.randint(0, 4))]
        return [" [" + ", ".join(items) + "]"]
    items = [
        f"{rng.choice(['k', 'v', 'w'])}: {_quote(rng.choice(WORDS[:20]), rng)}"
        for _ in range(rng.randint(0, 3))
    ]
    return [" {" + ", ".join(items) + "}"]


def _block(rng: random.Random, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    pad = " " * indent
    for n in range(rng.randint(1, 4)):
        key = rng.choice(
            ["name", "description", "allowed-tools", "metadata", "hooks", "paths", "x_y", "k"]
        ) + str(n)
        roll = rng.random()
        if depth < 3 and roll < 0.2:
            lines.append(f"{pad}{key}:")
            lines += _block(rng, indent + rng.choice([2, 4]), depth + 1)
        elif depth < 3 and roll < 0.35:
            lines.append(f"{pad}{key}:")
            item_pad = pad + rng.choice(["", "  "])
            for _ in range(rng.randint(1, 3)):
                if rng.random() < 0.3 and depth < 2:
                    sub = _block(rng, len(item_pad) + 2, depth + 1)
                    lines.append(item_pad + "- " + sub[0].lstrip(" "))
                    lines += sub[1:]
                else:
                    value = _scalar_line(rng, len(item_pad))
                    lines.append(item_pad + "-" + value[0])
                    lines += value[1:]
        else:
            value = _scalar_line(rng, indent)
            lines.append(f"{pad}{key}:" + value[0])
            lines += value[1:]
        if rng.random() < 0.1:
            lines.append(pad + "# a comment")
    return lines


def _mutate(text: str, rng: random.Random) -> str:
    pos = rng.randrange(len(text) + 1)
    return (
        text[:pos]
        + rng.choice([": ", " #", "\t", "'", '"', "- ", "  ", "\n", "[", "}"])
        + text[pos:]
    )


def generated_cases(count: int = 1500, seed: int = 20240131) -> list[str]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        text = "\n".join(_block(rng, 0, 0)) + "\n"
        if rng.random() < 0.3:
            text = _mutate(text, rng)
        cases.append(text)
    return cases


def corpus_cases() -> list[str]:
    out = []
    for path in sorted(CORPUS.rglob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        fence = None
        try:
            fence = fm.split(lines)
        except fm.YamlError:
            continue
        if fence:
            out.append("\n".join(lines[fence[0] + 1 : fence[1]]))
    return out


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def verdict(text: str) -> tuple[str, object, object]:
    """'agree', 'unsupported' or a mismatch description."""
    try:
        mine = ("ok", fm.loads(text))
    except fm.Unsupported:
        return "unsupported", None, None
    except fm.YamlError as exc:
        mine = ("error", exc.message)
    try:
        theirs = ("ok", yaml.safe_load(text))
    except yaml.YAMLError as exc:
        theirs = ("error", str(exc).splitlines()[0])
    if mine[0] == theirs[0] == "error":
        return "agree", mine, theirs
    if mine[0] == theirs[0] == "ok" and _same(mine[1], theirs[1]):
        return "agree", mine, theirs
    return "mismatch", mine, theirs


def test_corpus_frontmatter_agrees_with_pyyaml():
    cases = corpus_cases()
    assert len(cases) >= 40
    results = [verdict(c) for c in cases]
    bad = [(c, r) for c, r in zip(cases, results, strict=True) if r[0] == "mismatch"]
    assert not bad, bad[:3]
    assert sum(r[0] == "unsupported" for r in results) == 1  # hook-guard's anchor, said honestly


def test_generated_cases_agree_with_pyyaml():
    cases = generated_cases()
    results = [verdict(c) for c in cases]
    bad = [(c, r[1], r[2]) for c, r in zip(cases, results, strict=True) if r[0] == "mismatch"]
    assert not bad, bad[:3]
    answered = sum(r[0] == "agree" for r in results)
    # the generator mixes in anchors, tags, tabs and mutations on purpose;
    # most cases still get an answer
    assert answered >= 0.75 * len(cases)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("description: >-\n  Two folded\n  lines.\n", {"description": "Two folded lines."}),
        (
            'metadata:\n  owner: team\n  version: "2.3"\n',
            {"metadata": {"owner": "team", "version": "2.3"}},
        ),
        ("paths:\n- src/**\n- '*.py'\n", {"paths": ["src/**", "*.py"]}),
        ('allowed-tools: [Read, "Bash(git *)"]\n', {"allowed-tools": ["Read", "Bash(git *)"]}),
        ("a: yes\nb: 0x1F\nc: 1.5\nd: ~\n", {"a": True, "b": 31, "c": 1.5, "d": None}),
    ],
)
def test_subset_values(text, expected):
    assert fm.loads(text) == expected


@pytest.mark.parametrize(
    "text,unsupported",
    [
        ("a: &x 1\nb: *x\n", True),
        ("a: !!str 1\n", True),
        ("? complex\n: key\n", True),
        ("t: 2024-01-31 10:00:00\n", True),
        ("description: Triage tickets: set priority\n", False),
        ("name: 'unclosed\n", False),
        ("name: @handle\n", False),
    ],
)
def test_unsupported_and_invalid_are_told_apart(text, unsupported):
    with pytest.raises(fm.YamlError) as info:
        fm.loads(text)
    assert isinstance(info.value, fm.Unsupported) is unsupported
    assert info.value.line >= 1


def test_frontmatter_lines_and_key_lines():
    lines = ["---", "name: demo", "description: |", "  text", "---", "# Body"]
    front = fm.parse(lines)
    assert front is not None and (front.start, front.end) == (1, 5)
    assert front.key_lines == {"name": 2, "description": 3}
    assert fm.parse(["# no frontmatter"]) is None
    with pytest.raises(fm.YamlError):
        fm.parse(["---", "name: x"])
