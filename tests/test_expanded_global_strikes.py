"""Missiles and nuclear weapons around their rule cases (games/expanded_global/strikes.py; RULINGS.md
"eg-resolve-strikes", "eg-nuclear-weapons"; the rules themselves are tests/cases/eg_strikes.toml): how the orders
are read and written back, that a submit check rolls nothing, and what `status` shows."""

from __future__ import annotations

import tomllib
from pathlib import Path

from adjudicator.games.expanded_global import RULES, scenario_of, strikes
from adjudicator.games.expanded_global.scenario import TURN_PHASES
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from adjudicator.state import State
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
CASES = {c["id"]: c for c in tomllib.loads((Path(__file__).parent / "cases" / "eg_strikes.toml").read_text())["case"]}


def _rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def _canonical(rules, text: str, start: str) -> list[str]:
    parsed = parse_submission(text, rules.lexicon(), verbs=rules.verbs(), phases=TURN_PHASES, start_phase=start,
                              power="Germany")
    assert not parsed.errors, [e.render() for e in parsed.errors]
    return [o.canonical() for o in parsed.submission.orders]


def test_orders_are_read_and_written_back(maps_dir):
    rules = _rules(maps_dir)
    assert _canonical(rules, "strike cruise western germany > 110 sea zone : French", "combat_move") == \
        ["strike cruise Western Germany > 110 Sea Zone : France"]
    assert _canonical(rules, "STRIKE ballistic Western Germany > France airfield", "combat_move") == \
        ["strike ballistic Western Germany > France airfield"]
    assert _canonical(rules, "strike nuclear Western Germany > France", "combat_move") == \
        ["strike nuclear Western Germany > France"]
    assert _canonical(rules, "stockpile 2 Atomic Bombs\nstockpile 1 NBM", "purchase") == \
        ["stockpile 2 atomic bombs", "stockpile 1 nuclear missile"]


def test_a_submit_check_rolls_nothing_and_changes_nothing(maps_dir):
    from cases.runner import position
    scenario, rules, state = position(CASES["EG-43-01"])
    before = state.hash()
    parsed = parse_submission(CASES["EG-43-01"]["orders"], rules.lexicon(), start_phase=state.phase,
                              phases=scenario.phases_of("Germany"), verbs=rules.verbs(), power="Germany")
    assert rules.check(state, turn.turn_orders(parsed.submission.orders), False) == []
    assert state.hash() == before
    assert strikes.phase_end(rules, state, "Germany", "combat_move", None) == []


def test_status_shows_stocks_and_strikes_made(maps_dir):
    rules = _rules(maps_dir)
    state = State.initial(rules.scenario)
    state.spent.update({"nuclear:Germany:atomic": 1, "nuclear-new:Germany:nuclear": 2,
                        "strikes-made:Japan:cruise": 3})
    fields = rules.status_fields(state)
    assert fields["nuclear_stock"] == {"Germany": {"atomic": 1, "nuclear": 2}}
    assert "Nuclear stock of Germany: 1 Atomic Bomb(s), 2 Nuclear Ballistic Missile(s)" in fields["notes"]
    assert "Strikes made by Japan in the game so far: cruise 3" in fields["notes"]
