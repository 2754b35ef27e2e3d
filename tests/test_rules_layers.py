"""The rules core stays cut in layers (DESIGN.md "Rules core"), read from the source with ast so that an import
inside a function counts as much as one at the top: facts below mechanisms below the family, and no import
circle among the modules of adjudicator/rules/. A circle there once made every mechanism depend on the turn
driver through the class they all read."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "adjudicator" / "rules"
PACKAGE = "adjudicator.rules"

# What a unit, place and relationship is (facts.MapFacts), the engine's interface it implements (core) and the
# map's rule switches (properties): read by everything above, importing nothing above.
FACTS = {"facts", "core", "properties"}
# Each takes facts and a state and knows no edition; they may import each other, without a circle.
MECHANISMS = {"air", "bombing", "city_goals", "combat", "conditions", "convoy", "economy", "movement", "politics",
              "scramble", "transport", "victory"}
# The map driver: walks a power's phases and plays their orders through the mechanisms.
DRIVER = {"turn"}
# The families: what they share (family.MapFamily) and each family's turn and ways to win. Only they import the
# driver; nothing in the rules core imports them.
FAMILIES = {"family", "g40_family", "classic_family"}
FAMILY = DRIVER | FAMILIES


def imports_of(path: Path) -> set[str]:
    """The modules of adjudicator/rules/ that `path` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = PACKAGE.split(".")[: len(PACKAGE.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from . import air` names modules; `from .air import x` names the module itself
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target.startswith(PACKAGE + "."):
                found.add(target[len(PACKAGE) + 1:].split(".")[0])
    return found & modules() - {path.stem}


def modules() -> set[str]:
    return {p.stem for p in RULES.glob("*.py") if p.stem != "__init__"}


def graph() -> dict[str, set[str]]:
    return {name: imports_of(RULES / f"{name}.py") for name in modules()}


def test_every_module_is_in_a_layer():
    assert modules() - FACTS - MECHANISMS - FAMILY == set(), "name the layer of each new rules module here"


def test_no_import_circle():
    edges = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for target in sorted(edges[name]):
            visit(target, path + [name])
        done.add(name)

    for name in sorted(edges):
        visit(name, [])


def reach(edges: dict[str, set[str]], name: str) -> set[str]:
    """Every module `name` imports, directly or through others: a mechanism that imports a facts module which
    imports the turn driver depends on the turn driver as much as if it imported it itself."""
    got, todo = set(), [name]
    while todo:
        for target in edges.get(todo.pop(), set()) - got:
            got.add(target)
            todo.append(target)
    return got


def test_facts_reach_no_mechanism_and_no_family():
    edges = graph()
    assert {name: reach(edges, name) & (MECHANISMS | FAMILY) for name in FACTS} == {name: set() for name in FACTS}


def test_mechanisms_reach_no_family():
    edges = graph()
    assert {name: reach(edges, name) & FAMILY for name in MECHANISMS} == {name: set() for name in MECHANISMS}


def test_the_driver_reaches_no_family():
    edges = graph()
    assert reach(edges, "turn") & FAMILIES == set()


def test_families_stand_side_by_side():
    """Neither family builds on the other: each owns its turn, both on the shared MapFamily."""
    edges = graph()
    assert "g40_family" not in reach(edges, "classic_family") and "classic_family" not in reach(edges, "g40_family")
    assert "family" in edges["g40_family"] and "family" in edges["classic_family"]
