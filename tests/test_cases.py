"""Runs every rule case in tests/cases/*.toml (see tests/cases/runner.py for the format)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.errors import ConfigError
from cases.runner import load_cases, position, run
from conftest import missing_shared, shared_folder

CASES = load_cases()
LEDGER = shared_folder() / "rules" / "LEDGER.md"
# The classic family's rules are numbered in the project (no ledger section covers them): games/classic/RULES.md.
CLASSIC_RULES = Path(__file__).resolve().parents[1] / "games" / "classic" / "RULES.md"
CLASSIC_ROWS = re.findall(r"^\| (CL-\d+) \|", CLASSIC_RULES.read_text(encoding="utf-8"), re.M)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    expect = case["expect"]
    if "refused" in expect:
        with pytest.raises(ConfigError, match=re.escape(expect["refused"])):
            run(case)
        return
    state, errors, events = run(case)
    if "error" in expect:
        assert errors, f"{case['id']}: expected a rejection under {expect['error']}, but the orders were accepted"
        assert any(e.rule == expect["error"] for e in errors), [e.render() for e in errors]
        if "message" in expect:
            assert any(expect["message"] in e.message for e in errors), [e.message for e in errors]
        return
    assert not errors, "\n".join(e.render() for e in errors)
    for place, owner in expect.get("owners", {}).items():
        assert state.owners.get(place, "") == owner, f"{place} owned by {state.owners.get(place)}, expected {owner}"
    for place, units in expect.get("units", {}).items():
        assert state.units_by_owner(place) == units, f"units in {place}"
    for place, damage in expect.get("damage", {}).items():
        for unit, wanted in damage.items():
            assert sorted(u.damage for u in state.units_at(place) if u.type == unit) == sorted(wanted), f"damage in {place}"
    for power, amount in expect.get("treasury", {}).items():
        assert state.treasury[power] == amount, f"{power} treasury"
    for key, n in expect.get("spent", {}).items():
        assert state.spent.get(key, 0) == n, f"record {key}: {state.spent.get(key, 0)}, expected {n}"
    for key, value in expect.get("switches", {}).items():
        assert state.switches.get(key, "") == value, f"switch {key}: {state.switches.get(key)!r}, expected {value!r}"
    kinds = [e["type"] for e in events]
    for kind in expect.get("events", []):
        assert kind in kinds, f"no {kind} event in {kinds}"
    for kind in expect.get("absent", []):
        assert kind not in kinds, f"a {kind} event: {[e for e in events if e['type'] == kind]}"
    for wanted in expect.get("match", []):
        assert any(_contains(e, wanted) for e in events), f"no event matching {wanted} in {events}"
    if "order" in expect:
        seen = [k for k in kinds if k in expect["order"]]
        assert [k for i, k in enumerate(seen) if i == 0 or seen[i - 1] != k] == expect["order"], kinds
    if "void" in expect:
        assert kinds.count("void") == expect["void"], [e for e in events if e["type"] == "void"]
    if "result" in expect:
        assert [e["result"] for e in events if e["type"] == "battle"] == expect["result"]
    if "rounds" in expect:
        assert [len(e["rounds"]) for e in events if e["type"] == "battle"] == expect["rounds"]
    for pair in expect.get("at_war", []):
        a, b = pair.split(":")
        assert rules_at_war(case, state, a, b), f"{a} and {b} are not at war ({state.relationship(a, b)})"
    for pair, kind in expect.get("relations", {}).items():
        a, b = pair.split(":")
        assert state.relationship(a, b) == kind, f"{a} and {b}: {state.relationship(a, b)}, expected {kind}"
    if "board" in expect:
        assert _contains(state.board, expect["board"]), f"board {state.board}, expected a part {expect['board']}"
    if "cursor" in expect:
        c = expect["cursor"]
        assert (state.round, state.power, state.phase) == (c["round"], c["power"], c["phase"])


def rules_at_war(case, state, a: str, b: str) -> bool:
    _, rules, _ = position(case)
    return rules.at_war(state, a, b)


def _contains(have, want) -> bool:
    """`want` is a part of `have`: every key it gives has the same value there (dicts compared recursively)."""
    if isinstance(want, dict):
        return isinstance(have, dict) and all(k in have and _contains(have[k], v) for k, v in want.items())
    if isinstance(want, list) and want and isinstance(want[0], dict):
        return isinstance(have, list) and all(any(_contains(h, w) for h in have) for w in want)
    return have == want


EXPECT_KEYS = {"refused", "error", "message", "owners", "units", "damage", "treasury", "spent", "switches", "events",
               "absent", "match", "order", "void", "result", "rounds", "at_war", "relations", "board", "cursor"}


def test_every_case_expects_only_what_test_case_checks():
    """A misspelt expectation would be ignored and the case could not fail."""
    assert {c["id"]: sorted(set(c["expect"]) - EXPECT_KEYS) for c in CASES if set(c["expect"]) - EXPECT_KEYS} == {}


def test_case_ids_are_unique_and_rules_exist():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    known = set(re.findall(r"^\| ([A-Z0-9]+-\d+) \|", LEDGER.read_text(encoding="utf-8"), re.M)) if LEDGER.exists() else None
    for c in CASES:
        assert c.get("purpose"), c["id"]
        if c["rule"] == c.get("ruling") and c["rule"] in _rulings(c):
            continue            # a rule of the game no ledger row covers: its RULINGS.md entry stands for it
        if c["rule"].startswith("CL-"):
            assert c["rule"] in CLASSIC_ROWS, f"{c['id']} names rule {c['rule']}, which is not in games/classic/RULES.md"
            continue
        if known is not None:
            assert c["rule"] in known, f"{c['id']} names rule {c['rule']}, which is not in LEDGER.md"


def _rulings(case) -> set[str]:
    """The entries of the case's game's RULINGS.md (its `## name` headings)."""
    from cases.runner import game_of        # GAMES, and the Expanded Global Scenario not registered yet
    path = Path(game_of(case.get("setup", "demo")).__file__).parent / "RULINGS.md"
    return set(re.findall(r"^## (\S+)$", path.read_text(encoding="utf-8"), re.M)) if path.exists() else set()


# -- ledger coverage ------------------------------------------------------------------------------

SECTIONS = {"BG": "G40 2nd-edition base rules", "AU": "G40 Alt-Universe Beta-1.3", "AU11": "Alt-Universe Beta-1.1 differences",
            "EG": "Expanded Global Scenario", "AP": "Sgt. Apone's Europe rules", "AV": "Allies vs. Axis v2.0"}


def coverage_table() -> str:
    """Per ledger section: its rows, and how many have a rule case (every case must pass: test_case)."""
    rows = re.findall(r"^\| ([A-Z0-9]+)-(\d+) \|", LEDGER.read_text(encoding="utf-8"), re.M)
    covered = {c["rule"] for c in CASES}
    lines = ["| section | ledger rows | rows with a passing case |", "|---|---:|---:|"]
    for prefix, title in SECTIONS.items():
        ids = [f"{p}-{n}" for p, n in rows if p == prefix]
        lines.append(f"| {title} (`{prefix}`) | {len(ids)} | {sum(i in covered for i in ids)} |")
    lines.append(f"| classic 1999/2001 rules (`CL`, games/classic/RULES.md) | {len(CLASSIC_ROWS)} | "
                 f"{sum(i in covered for i in CLASSIC_ROWS)} |")
    return "\n".join(lines)


def test_every_base_rule_has_a_case_and_the_readme_prints_the_coverage():
    if not LEDGER.exists():
        pytest.fail(missing_shared("the rules ledger", LEDGER))
    rows = re.findall(r"^\| (BG-\d+) \|", LEDGER.read_text(encoding="utf-8"), re.M)
    covered = {c["rule"] for c in CASES}
    assert [r for r in rows if r not in covered] == [], "base-rule rows without a rule case"
    assert [r for r in CLASSIC_ROWS if r not in covered] == [], "classic rows (games/classic/RULES.md) without a rule case"
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert coverage_table() in readme, "README's coverage table is stale; it should read:\n" + coverage_table()
