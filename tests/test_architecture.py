"""The import rules of the product packages, checked on their source with ``ast`` (nothing is
imported, so a broken module is still checked and the test starts no reactor).

1. Floors. Each package may import the standard library, third-party packages and the product
   packages on its line below, nothing else of the product:

   ============  ==========================================================================
   package       may import
   ============  ==========================================================================
   games         games: the pure rules know nothing of the wire, the bots or the network
   protocol      protocol: the wire format knows no game (it has never imported games, and
                 must not start: a message's fields are plain data, the engines are
                 reached only by the server and the client)
   ai            games, protocol, ai
   server        games, protocol, server: not ai (a bot at a table is a program of its own;
                 the stand-in that plays for a seat out of time is handed to the server by
                 ``cosmoport serve``)
   client        games, protocol, ai, client
   tournament    games, protocol, ai, server, client, tournament
   conformance   games, protocol, ai, server, client, tournament, conformance: the kit starts
                 the program under test exactly as a tournament starts a ``cmd:`` entrant
                 (:mod:`tournament.programs`); the tournament never imports the kit
   cosmoport     everything (the command line puts the others together)
   cosmoport.    games, cosmoport.envs: the research environments wrap the engines alone
   envs          (numpy, gymnasium, PettingZoo and OpenSpiel are third-party); the one
                 exception is ``client`` for the console's board when an environment renders
   ============  ==========================================================================

   No product package imports ``cosmoport`` but ``cosmoport`` itself, and none imports
   anything from the repository's folders that are not the product (``tests``, ``bench``,
   ``examples``).

2. No import cycles at run time: no two or more modules of the product may import each other,
   directly or through others. An import under ``if TYPE_CHECKING:`` does not count (it never
   runs); an import inside a function does (it runs when the function does: a local import
   that hides a cycle is still a cycle). ``import a.b.c`` and ``from a.b import c`` are edges
   to the module ``a.b.c`` when it exists (else to ``a.b``); the packages' own ``__init__``
   run on the way is not counted as an edge (every module of a package would otherwise be in
   a cycle with a package ``__init__`` that re-exports it). ``importlib.import_module`` with
   a literal name counts as an import like any other.

Every failure names the file, the line and the rule it breaks. The checker is tested on its
own on small synthetic sources at the end of this file, so that it is known to be able to fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ALLOWED: dict[str, frozenset[str]] = {
    "games": frozenset({"games"}),
    "protocol": frozenset({"protocol"}),
    "ai": frozenset({"games", "protocol", "ai"}),
    "server": frozenset({"games", "protocol", "server"}),
    "client": frozenset({"games", "protocol", "ai", "client"}),
    "tournament": frozenset({"games", "protocol", "ai", "server", "client", "tournament"}),
    "conformance": frozenset(
        {"games", "protocol", "ai", "server", "client", "tournament", "conformance"}
    ),
    "cosmoport": frozenset(
        {
            "games",
            "protocol",
            "ai",
            "server",
            "client",
            "tournament",
            "conformance",
            "cosmoport",
            "cosmoport.envs",
        }
    ),
    "cosmoport.envs": frozenset({"games", "client", "cosmoport.envs"}),
}
"""Each product package, lowest floor first, and the product packages it may import. A dotted
name is a sub-package held to a narrower rule than its package."""

NOT_PRODUCT = frozenset({"tests", "bench", "examples"})
"""Folders of the repository that no product package may import."""


@dataclass(frozen=True)
class Import:
    """One run-time import of one module: ``importer`` imports the module ``target``."""

    importer: str
    path: str
    line: int
    target: str
    local: bool
    """Inside a function (run when the function runs, not when the module is loaded)."""


# --- reading the sources ---------------------------------------------------------------------


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def product_sources(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """Every module of the product packages: module name -> (path from the root, source)."""
    sources: dict[str, tuple[str, str]] = {}
    for package in ALLOWED:
        if "." in package:
            continue  # a sub-package: its modules are its package's
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            sources[module_name(root, path)] = (relative, path.read_text(encoding="utf-8"))
    return sources


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _resolve(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in ``importer``."""
    if level == 0:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, module] if module else base)


def _literal_import_module(node: ast.Call) -> str | None:
    """The name in ``importlib.import_module("name")`` / ``import_module("name")``."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called != "import_module" or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imports_of(
    importer: str, path: str, source: str, modules: Iterable[str] = ()
) -> Iterator[Import]:
    """The run-time imports written in one module (``modules``: the known module names, to
    tell ``from package import submodule`` from ``from module import name``)."""
    known = set(modules)
    is_package = path.endswith("__init__.py")
    tree = ast.parse(source, filename=path)

    def visit(node: ast.AST, local: bool) -> Iterator[Import]:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:  # the body never runs; an else branch does
                yield from visit(child, local)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(importer, path, node.lineno, alias.name, local)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(importer, is_package, node.module, node.level)
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                name = full if full in known else base
                yield Import(importer, path, node.lineno, name, local)
        elif isinstance(node, ast.Call):
            name = _literal_import_module(node)
            if name is not None:
                yield Import(importer, path, node.lineno, name, local)
        inner = local or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            yield from visit(child, inner)

    yield from visit(tree, False)


def all_imports(sources: Mapping[str, tuple[str, str]]) -> list[Import]:
    """Every run-time import of every module, once per line and module imported."""
    known = set(sources)
    found: dict[Import, None] = {}
    for name, (path, source) in sources.items():
        found.update(dict.fromkeys(imports_of(name, path, source, known)))
    return list(found)


# --- the rules -------------------------------------------------------------------------------


def _where(found: Import) -> str:
    return f"{found.path}:{found.line}"


def package_of(module: str) -> str:
    """The entry of :data:`ALLOWED` that rules ``module``: its sub-package's if it has one,
    else its top-level package's (which may not be in the table: a third-party module)."""
    best = module.split(".")[0]
    for package in ALLOWED:
        if "." in package and (module == package or module.startswith(package + ".")):
            best = package if len(package) > len(best) else best
    return best


def floor_violations(imports: Iterable[Import]) -> list[str]:
    """Rule 1: one message per import of a package above the importer's floor."""
    problems: list[str] = []
    for found in imports:
        package = package_of(found.importer)
        top = package_of(found.target)
        allowed = ALLOWED.get(package)
        if allowed is None:
            continue
        if (top in ALLOWED and top not in allowed) or top in NOT_PRODUCT:
            may = ", ".join(p for p in ALLOWED if p in allowed)
            problems.append(
                f"{_where(found)}: {package} imports {found.target}, above its floor "
                f"(rule: {package} may import only {may}, the standard library and "
                "third-party packages)"
            )
    return problems


def _components(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of ``graph`` (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(sorted(component))
    return found


def cycle_violations(imports: Iterable[Import], modules: Iterable[str]) -> list[str]:
    """Rule 2: one message per group of modules that import each other at run time, with
    every import (file:line) that closes the circle."""
    known = set(modules)
    edges = [f for f in imports if f.target in known and f.target != f.importer]
    graph: dict[str, set[str]] = {name: set() for name in known}
    for found in edges:
        graph[found.importer].add(found.target)
    problems: list[str] = []
    for component in _components(graph):
        if len(component) < 2:
            continue
        members = set(component)
        inside = sorted(
            (f for f in edges if f.importer in members and f.target in members),
            key=lambda f: (f.path, f.line),
        )
        lines = [
            f"  {_where(f)}: {f.importer} imports {f.target}"
            + (" (inside a function: still a run-time import)" if f.local else "")
            for f in inside
        ]
        problems.append(
            f"import cycle among {', '.join(component)} (rule: no modules may import each other "
            "at run time; move what they share into a module that imports neither):\n"
            + "\n".join(lines)
        )
    return problems


def check(sources: Mapping[str, tuple[str, str]]) -> list[str]:
    imports = all_imports(sources)
    return floor_violations(imports) + cycle_violations(imports, sources)


# --- the product -----------------------------------------------------------------------------


def test_every_package_imports_only_below_its_floor() -> None:
    problems = floor_violations(all_imports(product_sources()))
    assert not problems, "imports above a package's floor:\n" + "\n".join(problems)


def test_no_import_cycles() -> None:
    sources = product_sources()
    problems = cycle_violations(all_imports(sources), sources)
    assert not problems, "\n".join(problems)


def test_every_product_package_is_checked() -> None:
    """A new top-level package gets a floor before it gets code."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - set(ALLOWED) <= NOT_PRODUCT, sorted(packages - set(ALLOWED))


# --- the checker itself, on synthetic sources ------------------------------------------------


def _sources(**modules: str) -> dict[str, tuple[str, str]]:
    """Module name (dots as ``__``) -> source, as ``product_sources`` gives them."""
    out: dict[str, tuple[str, str]] = {}
    for key, source in modules.items():
        name = key.replace("__", ".")
        out[name] = (name.replace(".", "/") + ".py", source)
    return out


def test_checker_finds_a_cycle_hidden_in_a_function() -> None:
    sources = _sources(
        client__a="from client.b import thing\n",
        client__b="def thing():\n    from client.a import other\n    return other\n",
    )
    [problem] = check(sources)
    assert "import cycle among client.a, client.b" in problem
    assert "client/a.py:1: client.a imports client.b" in problem
    assert "client/b.py:2: client.b imports client.a (inside a function" in problem


def test_checker_finds_a_cycle_through_three_modules_and_relative_imports() -> None:
    sources = _sources(
        ai__a="from . import b\n",
        ai__b="from .c import x\n",
        ai__c="import ai.a\n",
        ai__d="import ai.a\n",
    )
    [problem] = check(sources)
    assert "import cycle among ai.a, ai.b, ai.c (rule: no modules" in problem
    assert "ai/c.py:1: ai.c imports ai.a" in problem
    assert "ai.d" not in problem


def test_checker_finds_an_import_above_the_floor() -> None:
    sources = _sources(
        games__rules="import json\n\nimport msgpack\nfrom protocol import encode\n",
        protocol__codec="import games\n",
        server__table="def bot():\n    from ai.bots import GreedyBot\n",
        client__x="from importlib import import_module\nm = import_module('cosmoport.cli')\n",
        tournament__y="import conformance.run\nimport tests.helpers\n",
        conformance__z="from tournament import programs\n",
    )
    problems = check(sources)
    assert len(problems) == 6, problems
    text = "\n".join(problems)
    assert "games/rules.py:4: games imports protocol, above its floor" in text
    assert "(rule: games may import only games," in text
    assert "protocol/codec.py:1: protocol imports games" in text
    assert "server/table.py:2: server imports ai.bots" in text
    assert "client/x.py:2: client imports cosmoport.cli" in text
    assert "tournament/y.py:1: tournament imports conformance.run" in text
    assert "tournament/y.py:2: tournament imports tests.helpers" in text


def test_checker_ignores_type_checking_imports() -> None:
    sources = _sources(
        client__a=(
            "from typing import TYPE_CHECKING\nimport typing\n"
            "if TYPE_CHECKING:\n    from client.b import B\n    from cosmoport import cli\n"
            "if typing.TYPE_CHECKING:\n    import server.table\n"
        ),
        client__b="from client.a import A\n",
    )
    assert check(sources) == []


def test_checker_counts_the_else_of_type_checking() -> None:
    sources = _sources(
        client__a="if TYPE_CHECKING:\n    pass\nelse:\n    import client.b\n",
        client__b="import client.a\n",
    )
    [problem] = check(sources)
    assert "client/a.py:4" in problem


def test_checker_holds_a_sub_package_to_its_own_floor() -> None:
    sources = _sources(
        cosmoport__envs__env="import numpy\nfrom games.api import get\nfrom ai import mcts\n",
        cosmoport__envs__draw="def draw():\n    from client.render import board\n",
        cosmoport__cli="from cosmoport.envs import env\nimport ai.mcts\n",
        server__x="import cosmoport.envs.env\n",
    )
    problems = check(sources)
    assert len(problems) == 2, problems
    text = "\n".join(problems)
    assert "cosmoport/envs/env.py:3: cosmoport.envs imports ai, above its floor" in text
    assert "server/x.py:1: server imports cosmoport.envs.env" in text
