"""Insurgents in the Expanded Global Scenario (games/expanded_global/insurgents.py). The rules themselves are rule
cases (tests/cases/eg_insurgents.toml); these test the pieces around them: the order form, `status`, the check."""

from __future__ import annotations

from adjudicator.games.expanded_global import insurgents
from adjudicator.notation import parse_submission
from adjudicator.notation.orders import GameVerb
from adjudicator.rules import turn
from cases.runner import position


def _position(power="Japan"):
    _, rules, state = position({"setup": "expanded-global", "power": power, "phase": "influence"})
    return rules, state


def _parse(rules, text, power="Japan"):
    parsed = parse_submission(text, rules.lexicon(), start_phase="influence",
                              phases=rules.scenario.phases_of(power), verbs=rules.verbs(), power=power)
    assert not parsed.errors, [e.render() for e in parsed.errors]
    return parsed.submission


def test_the_order_parses_and_prints_canonically():
    rules, _ = _position()
    orders = _parse(rules, "insurgents 2 Burma\ninsurgent 1 Shan State").orders
    assert all(isinstance(o, GameVerb) and o.phase == "influence" for o in orders)
    assert [o.canonical() for o in orders] == ["insurgents 2 Burma", "insurgents 1 Shan State"]


def test_a_city_is_a_victory_city_or_a_capital():
    rules, _ = _position()
    assert insurgents.has_city(rules, "Kiangsu") and insurgents.has_city(rules, "Japan")
    assert not insurgents.has_city(rules, "Burma")


def test_status_shows_waiting_insurgents_and_the_neutral_they_made():
    rules, state = _position()
    state.spent["insurgents:Japan:Burma"] = 2
    state.switches["insurgent:Shan State"] = "Japan"
    assert rules.status_fields(state)["insurgents"] == {"Japan:Burma": 2}
    notes = rules.status_fields(state)["notes"]
    assert "Insurgents of Japan in Burma: 2, fighting as Japan's Conduct Combat begins" in notes
    assert any(n.startswith("Shan State: made neutral by Japan's insurgency; Japan take it with 4") for n in notes)


def test_the_check_rolls_nothing_and_changes_nothing():
    rules, state = _position()
    state.spent["influence:Japan"] = 8
    before = state.hash()
    sub = _parse(rules, "insurgents 2 Burma\nend")
    assert rules.check(state, turn.turn_orders(sub.orders), sub.ended) == []
    assert state.hash() == before


def test_insurgents_disperse_if_the_territory_is_an_allys_when_combat_begins():
    from adjudicator.dice import FixedRoller
    from adjudicator.state import pair_key
    rules, state = _position()
    state.spent["insurgents:Japan:Burma"] = 2
    state.relationships[pair_key("Japan", "India")] = "Allied"       # an alliance made in this turn's Make Alliances
    events = insurgents.combat_begins(rules, state, "Japan", FixedRoller({}))
    assert [e["type"] for e in events] == ["insurgency_called_off"]
    assert "do not fight: India, who hold it, are allies of Japan now" in events[0]["text"], events[0]["text"]
    assert "they disperse" in events[0]["text"]
    assert state.owners["Burma"] == "India" and "insurgents:Japan:Burma" not in state.spent


def test_a_neutral_of_an_insurgency_taken_by_force_forgets_the_insurgent():
    from adjudicator.games.expanded_global import influence
    rules, state = _position()
    state.switches["insurgent:Burma"] = "Japan"
    state.owners["Burma"] = "China"         # conquered
    influence.conquered(rules, state, "Burma")
    assert "insurgent:Burma" not in state.switches
