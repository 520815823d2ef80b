"""No import cycles in ``companion/``: every package's imports run one way (issue 16).

Parses every module under ``companion/`` with :mod:`ast` and builds the graph of the imports it
names between ``companion`` modules: module-level imports, imports inside functions and methods,
imports under ``if TYPE_CHECKING:`` (a cycle hidden from the interpreter is still a cycle for the
reader) and ``importlib.import_module("companion....")`` with a literal name. ``from a.b import c``
is an edge to the module ``a.b.c`` when ``c`` is a module, else to ``a.b``. The parent packages an
import runs implicitly are not edges: they are the package's ``__init__`` re-exporting its parts.

The test fails naming each strongly connected component of the graph (a set of modules that reach
one another) with one cycle through it, except those in :data:`KNOWN` -- and :data:`KNOWN` must be
exactly what exists, so a fixed cycle has to leave the list and a new one fails the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

KNOWN: set[frozenset[str]] = set()
"""Import cycles that exist and are being worked on elsewhere, each as the set of its modules."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """``companion/core/game.py`` -> ``companion.core.game``; a package is its ``__init__``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    """Every module under ``companion/`` by its dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name a (possibly relative) ``from ... import`` refers to."""
    if level == 0:
        return module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _nearest(target: str, modules: dict[str, Path]) -> str:
    """The longest prefix of ``target`` that is a module (``pkg.func`` -> ``pkg``), or ""."""
    parts = target.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


def _targets(tree: ast.AST, name: str, is_package: bool, modules: dict[str, Path]) -> set[str]:
    """The ``companion`` modules a parsed module names, wherever the import stands."""
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                # a submodule is an edge to it; any other name is an attribute of ``base``
                targets.add(full if full in modules else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets.add(node.args[0].value)
    return {_nearest(t, modules) for t in targets if t.split(".")[0] == "companion"}


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the ``companion`` modules it imports, anywhere in its body."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        found = _targets(tree, name, path.name == "__init__.py", modules)
        graph[name] = {target for target in found if target and target != name}
    return graph


def components(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    members.append(top)
                    if top == node:
                        break
                if len(members) > 1:
                    found.append(frozenset(members))
    return found


def a_cycle(graph: dict[str, set[str]], members: frozenset[str]) -> list[str]:
    """One cycle through the component, as a path back to its first module (breadth first)."""
    start = min(members)
    previous: dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if child not in previous:
                previous[child] = node
                queue.append(child)
    raise AssertionError(f"{sorted(members)} is not a cycle")


def describe(graph: dict[str, set[str]], members: frozenset[str]) -> str:
    """A component as its modules and one cycle through them."""
    return f"{sorted(members)}: " + " -> ".join(a_cycle(graph, members))


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The parser finds function-level, TYPE_CHECKING, relative and import_module imports."""
    pkg = tmp_path / "companion"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion import b\n"
    )
    (pkg / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "c.py").write_text(
        "import importlib\nM = importlib.import_module('companion.a')\nfrom .a import NAME\n"
    )
    (pkg / "d.py").write_text("from companion import a, b\nfrom companion.c import M\n")
    modules = {module_name(path, tmp_path): path for path in sorted(pkg.rglob("*.py"))}
    graph = import_graph(modules)
    assert graph["companion.a"] == {"companion.b"}
    assert graph["companion.b"] == {"companion.c"}
    assert graph["companion.c"] == {"companion.a"}
    assert graph["companion.d"] == {"companion.a", "companion.b", "companion.c"}
    assert components(graph) == [frozenset({"companion.a", "companion.b", "companion.c"})]
    found = components(graph)[0]
    assert a_cycle(graph, found) == ["companion.a", "companion.b", "companion.c", "companion.a"]


def test_no_import_cycles() -> None:
    """Every import cycle in companion/ is named; only the KNOWN ones (exactly) are allowed."""
    graph = import_graph(all_modules())
    found = set(components(graph))
    new = sorted((describe(graph, c) for c in found - KNOWN), key=str)
    gone = sorted((sorted(c) for c in KNOWN - found), key=str)
    assert not new, "import cycles:\n" + "\n".join(new)
    assert not gone, f"KNOWN cycles no longer there (remove them from KNOWN): {gone}"


GAMES = "companion.core.games"
LAYERS = {
    f"{GAMES}.goblets.views": {f"{GAMES}.goblets.model"},
    **{
        f"{GAMES}.goblets.{chapter}": {f"{GAMES}.goblets.model"}
        for chapter in ("setup", "turns", "actions", "abilities", "toast")
    },
    f"{GAMES}.tribunal.views": {f"{GAMES}.tribunal.model"},
    f"{GAMES}.cena.views": {f"{GAMES}.cena.model"},
}
"""Per module, the only modules of its game's rules and model it may import (issue 16: the rules'
chapters import only the model, one engine runs them, the views read the model)."""
RULES = {
    "goblets": ("model", "engine", "state", "setup", "turns", "actions", "abilities", "toast"),
    "tribunal": ("model", "state"),
    "cena": ("model", "state"),
}
"""Each game's modules that hold its state or its rules (leaf modules -- tokens, rulebook
sentences, scoring -- may be imported by any)."""


def test_each_game_runs_one_way() -> None:
    """Views import only their game's model of its state and rules; a Goblets chapter imports
    no other chapter, nor the engine, nor the state."""
    graph = import_graph(all_modules())
    broken = []
    for module, allowed in LAYERS.items():
        game = module.split(".")[3]
        layered = {f"{GAMES}.{game}.{name}" for name in RULES[game]}
        extra = (graph[module] & layered) - allowed
        if extra:
            broken.append(f"{module} imports {sorted(extra)}")
    assert not broken, "\n".join(broken)
