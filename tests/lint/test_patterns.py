"""The regex helpers: lazy compilation, and word gates that must never change a verdict."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import textwrap
from pathlib import Path

import pytest

import spawnkit.lint
import spawnkit.lint.rules
from spawnkit.lint.analysis import sentences
from spawnkit.lint.document import Document
from spawnkit.lint.patterns import Gated, Keywords, lazy
from spawnkit.lint.rules import ALL

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "corpus"


def _exact_gates() -> dict[str, Gated]:
    gates = {}
    for package in (spawnkit.lint, spawnkit.lint.rules):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                if isinstance(value, Gated) and value.exact:
                    gates[f"{info.name}.{name}"] = value
    return gates


GATES = _exact_gates()

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


def _texts() -> list[str]:
    """Every file, line, block and sentence of the corpus, the docs, the rule examples and tests."""
    docs = [(str(p), p.read_text(encoding="utf-8")) for p in sorted(CORPUS.rglob("*.md"))]
    docs += [("skills/demo-audit/SKILL.md", text) for text in _test_strings()]
    for pattern in ("README.md", "docs/*.md", "standards/*.md"):
        docs += [(str(p), p.read_text(encoding="utf-8")) for p in sorted(ROOT.glob(pattern))]
    for rule in ALL:
        for example in (rule.bad, rule.good):
            docs.append((rule.example_path, textwrap.dedent(example).lstrip("\n")))
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


TEXTS = _texts()


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


def test_may_match_lets_case_oddities_through():
    words = Keywords("write", "disk")
    assert words.may_match("then write it") and not words.may_match("then read it")
    for odd in ("wrıte", "wri̇te", "dıſk"):
        assert words.may_match(odd)
        assert not words.any_in(odd)


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
