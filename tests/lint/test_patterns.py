"""The regex helpers: lazy compilation, and word gates that must never change a verdict."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
import sys
import textwrap
from pathlib import Path

import pytest

import spawnkit.lint
import spawnkit.lint.rules
from spawnkit.lint.analysis import holding, sentences
from spawnkit.lint.document import Document
from spawnkit.lint.patterns import Folded, Gated, lazy
from spawnkit.lint.rules import ALL

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "corpus"


def _module_patterns() -> dict[str, object]:
    found = {}
    for package in (spawnkit.lint, spawnkit.lint.rules):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                if isinstance(value, (Gated, Folded)):
                    found[f"{info.name}.{name}"] = value
    return found


PATTERNS = _module_patterns()
GATES = {name: p for name, p in PATTERNS.items() if isinstance(p, Gated) and p.exact}
FOLDED = {
    name: p.pattern if isinstance(p, Gated) else p
    for name, p in PATTERNS.items()
    if isinstance(getattr(p, "pattern", p), Folded)
}

# case-insensitive matching lets these stand for ASCII letters that str.lower() leaves alone
_ODDITIES = (("i", "ı"), ("i", "İ"), ("s", "ſ"), ("k", "K"))


def _test_strings() -> list[str]:
    """The string literals of the lint tests: the small skills the rule tests lint."""
    found = []
    for module in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(textwrap.dedent(node.value).lstrip("\n"))
    return found


def _documents() -> list[tuple[str, str]]:
    """(path, text) of the corpus, the docs, the rule examples and the tests' skills."""
    docs = [(str(p), p.read_text(encoding="utf-8")) for p in sorted(CORPUS.rglob("*.md"))]
    docs += [("skills/demo-audit/SKILL.md", text) for text in _test_strings()]
    for pattern in ("README.md", "docs/*.md", "standards/*.md"):
        docs += [(str(p), p.read_text(encoding="utf-8")) for p in sorted(ROOT.glob(pattern))]
    for rule in ALL:
        for example in (rule.bad, rule.good):
            docs.append((rule.example_path, textwrap.dedent(example).lstrip("\n")))
    return docs


def _texts(docs: list[tuple[str, str]]) -> list[str]:
    """Every document, line, block and sentence, also upper- and title-cased."""
    texts: set[str] = set()
    for path, text in docs:
        doc = Document(path if path.endswith("SKILL.md") else path + "/SKILL.md", text)
        texts.add(text)
        texts.update(doc.lines)
        for block in doc.blocks:
            texts.add(block.text)
            texts.update(s.text for s in sentences(block))
    texts.discard("")
    variants = {t.upper() for t in texts} | {t.title() for t in texts}
    return sorted(texts | variants)


_DOCS = _documents()
TEXTS = _texts(_DOCS)
DOCUMENTS = [t for _, t in _DOCS] + [t.upper() for _, t in _DOCS] + [t.title() for _, t in _DOCS]


def test_gates_are_found():
    assert len(GATES) >= 10


@pytest.mark.parametrize("name", sorted(GATES))
def test_an_exact_gate_passes_every_text_its_pattern_matches(name):
    gate = GATES[name]
    matched = [t for t in TEXTS if gate.pattern.search(t)]
    assert matched, f"{name}: no text in the corpus exercises this pattern"
    assert [t for t in matched if not gate.hit(t)] == []
    # ... also when a letter is written as one that matches it only case-insensitively
    for text in matched:
        for ascii_letter, odd in _ODDITIES:
            changed = text.replace(ascii_letter, odd).replace(ascii_letter.upper(), odd)
            if changed != text and gate.pattern.search(changed):
                assert gate.hit(changed), (name, changed)


def test_exact_gates_reject_most_text():
    """The point of a gate: the regex engine is spared most sentences."""
    rejected = sum(not gate.hit(t) for gate in GATES.values() for t in TEXTS)
    assert rejected > 0.5 * len(GATES) * len(TEXTS)


def test_an_exact_gate_lets_case_oddities_through():
    exact = Gated(lazy(r"\bwrite\b|\bdisk\b", re.IGNORECASE), "write", "disk", exact=True)
    loose = Gated(lazy(r"\bwrite\b|\bdisk\b", re.IGNORECASE), "write", "disk")
    assert exact.hit("then write it") and not exact.hit("then read it")
    for odd in ("WRİTE it", "wrıte it", "on dıſk"):
        assert exact.pattern.search(odd) and exact.search(odd)
        assert not loose.hit(odd)


@pytest.mark.parametrize("name", sorted(n for n, p in PATTERNS.items() if isinstance(p, Gated)))
def test_holding_keeps_in_order_every_sentence_a_gate_could_pass(name):
    keys = PATTERNS[name].keys
    for path, text in _DOCS:
        for variant in (text, text.upper(), text.replace("i", "ı"), text.replace("*", " ") * 3):
            doc = Document(path if path.endswith("SKILL.md") else path + "/SKILL.md", variant)
            for block in doc.blocks:
                found = sentences(block)
                kept = holding(block, found, keys)
                assert kept == [s for s in found if any(s is k for k in kept)]  # order, subset
                missed = [s for s in found if s not in kept and PATTERNS[name].hit(s.text, s.lower)]
                assert missed == [], (name, missed[:1])


# --- case-insensitive patterns matched on lowered text ------------------------------


def test_folded_patterns_are_found_and_spelled_in_lower_case():
    assert len(FOLDED) >= 20
    for name, pattern in FOLDED.items():
        letters = re.sub(r"\\[A-Za-z]", "", pattern.original.source)  # escapes: \S \W \b …
        assert letters == letters.lower(), f"{name}: spell the pattern's letters in lower case"


def test_lowering_agrees_with_ignorecase_for_every_code_point():
    """What Folded relies on, for each character other than "İ", "ı" and "ſ": lowering it
    gives one character, keeps its class (word, space, digit), and turns it into an ASCII
    letter exactly when a case-insensitive match takes it for that letter."""
    odd = {"\u0130", "\u0131", "\u017f"}
    chars = "".join(chr(cp) for cp in range(sys.maxunicode + 1) if chr(cp) not in odd)
    lowered = "".join(c.lower() for c in chars)
    assert len(lowered) == len(chars)  # one character each, so offsets line up

    def positions(pattern: str, text: str, flags: int = 0) -> set[int]:
        return {m.start() for m in re.finditer(pattern, text, flags)}

    for cls in (r"\w", r"\s", r"\d"):
        assert positions(cls, chars) == positions(cls, lowered), cls
    ascii_letters = positions("[a-z]", chars, re.IGNORECASE)
    assert ascii_letters == positions("[a-z]", lowered)
    for i in ascii_letters:
        taken_for = [a for a in string.ascii_lowercase if re.match(a, chars[i], re.IGNORECASE)]
        assert taken_for == [lowered[i]], chars[i]


_UNICODE_SAMPLES = [
    "Spawn ONE Sub-Agent — at most 2 in parallel; write to .x-reports/A.md",
    "ΣΟΦΊΑ Straße KELVIN 5K ÉCRIRE the state file, then resume",
    "İstanbul: spawn ıdle workers; ſtate file",  # the oddities: case-insensitive pattern used
    "Ünïcödé “quoted prompt that is long enough to count as a sixty character quote” ok",
]


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_a_folded_pattern_finds_what_the_case_insensitive_one_finds(name):
    pattern = FOLDED[name]
    for text in DOCUMENTS + _UNICODE_SAMPLES:
        expected = [m.span() for m in pattern.original.finditer(text)]
        assert [m.span() for m in pattern.finditer(text)] == expected, (name, text)
        found = pattern.search(text)
        assert (found.span() if found else None) == (expected[0] if expected else None)


def test_a_lazy_pattern_compiles_on_first_use_and_then_calls_the_engine_directly():
    pattern = lazy(r"a(b)", re.I)
    assert pattern.search("xAb").group(1) == "b"
    assert type(pattern.search) is type(re.compile("x").search)  # the compiled pattern's own
    assert pattern.findall("ab AB") == ["b", "B"]
    assert pattern.sub("-", "abAB") == "--"
    assert pattern.split("1ab2") == ["1", "b", "2"]
    assert [m.start() for m in pattern.finditer("ab ab")] == [0, 3]
    assert pattern.match("zab") is None
    with pytest.raises(AttributeError):
        pattern.fullmatch  # noqa: B018 - not one of the forwarded methods
