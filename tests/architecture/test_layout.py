"""The package tree shows the capabilities: no import cycles, verbs in ``commands/``, a thin cli."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PKG = SRC / "spawnkit"


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG.rglob("*.py")}


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Every spawnkit module ``path`` imports, at module level or inside a function."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("spawnkit."):
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, name, known) for name, path in modules.items()}


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            # a package's __init__ importing its own submodules is not a cycle of capabilities
            if dep.startswith(node + "."):
                continue
            if state.get(dep) == 1:
                cycle = stack[stack.index(dep) :] + [dep]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_every_cli_verb_has_its_command_module():
    from spawnkit.cli import cli

    verbs = set(cli.commands)
    modules = {p.stem for p in (PKG / "commands").glob("*.py") if p.stem != "__init__"}
    assert verbs <= modules, f"verbs without spawnkit/commands/<verb>.py: {sorted(verbs - modules)}"


def test_cli_imports_only_click_and_the_command_modules():
    graph = _graph()
    # besides the verbs: the standard's numbers and the tokenizer's model, shown in help texts
    allowed_prefixes = (
        "spawnkit.commands.",
        "spawnkit.errors",
        "spawnkit.install.install",
        "spawnkit.standard",
    )
    extra = {
        dep
        for dep in graph["spawnkit.cli"]
        if not dep.startswith(allowed_prefixes)
        and dep not in ("spawnkit", "spawnkit.tokens", "spawnkit.commands")
    }
    assert not extra, f"cli.py should only wire click to spawnkit.commands.*: {sorted(extra)}"


def test_the_top_level_holds_only_the_entry_points_and_the_error_contract():
    """Everything else lives in a capability package (standard, files, hosts, hook, lint, ...)."""
    top = sorted(p.stem for p in PKG.glob("*.py"))
    assert top == ["__init__", "__main__", "cli", "errors"]


# The floors of the house, lowest first. A package imports only from floors below its own (a
# function-level import counts: a lazy import is still a dependency). docs/architecture.md and
# the README's "Where things live" list the same floors.
FLOORS: list[set[str]] = [
    {"base", "errors", ""},  # the ground: stdlib-only helpers, the error contract, __version__
    {"files", "standard", "hosts"},
    {"tokens"},
    {"lint"},
    {"hook", "workflow"},
    {"audit", "template"},
    {"install"},
    {"commands"},
    {"cli"},
    {"__main__"},
]


def _package(module: str) -> str:
    """``spawnkit.lint.rules.base`` → ``lint``; ``spawnkit`` itself → ``""``."""
    return module.split(".")[1] if "." in module else ""


def _package_graph() -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for module, deps in _graph().items():
        source = _package(module)
        packages.setdefault(source, set()).update(
            _package(dep) for dep in deps if _package(dep) != source
        )
    return packages


def test_every_package_sits_on_one_floor():
    floors = [name for floor in FLOORS for name in floor]
    assert len(floors) == len(set(floors))
    assert set(_package_graph()) == set(floors), "a package missing from FLOORS (or gone)"


def test_each_package_imports_only_from_the_floors_below():
    floor_of = {name: i for i, floor in enumerate(FLOORS) for name in floor}
    wrong = sorted(
        f"{source or 'spawnkit'} -> {dep or 'spawnkit'}"
        for source, deps in _package_graph().items()
        for dep in deps
        if floor_of[dep] >= floor_of[source] and not {source, dep} <= FLOORS[0]
    )
    assert not wrong, "imports across or up the floors: " + ", ".join(wrong)


def test_the_package_graph_has_no_cycle():
    """Floors imply it; this says it in the terms of the issue, with the cycle when there is one."""
    graph = _package_graph()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                pytest.fail("package cycle: " + " -> ".join(path[path.index(dep) :] + [dep]))
            if dep not in state:
                visit(dep)
        path.pop()
        state[node] = 2

    for package in sorted(graph):
        if package not in state:
            visit(package)


def test_the_ground_floor_imports_nothing_but_the_standard_library():
    import sys

    for path in (PKG / "base").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)
