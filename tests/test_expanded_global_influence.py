"""Influence and victory in the Expanded Global Scenario (games/expanded_global/influence.py, victory.py). The rules
themselves are rule cases (tests/cases/eg_influence.toml); these test the pieces around them."""

from __future__ import annotations

from adjudicator.games.expanded_global import influence, victory
from adjudicator.notation import parse_submission
from adjudicator.notation.orders import GameVerb
from adjudicator.report import describe
from adjudicator.state import State, pair_key
from cases.runner import position


def _position(power="Canada"):
    _, rules, state = position({"setup": "expanded-global", "power": power, "phase": "influence"})
    return rules, state


def test_influence_forms_parse_and_print_canonically():
    rules, state = _position("Germany")
    text = "influence\ninfluence 2 Sweden\ninfluence 1 Mongolia\ninfluence 3 Northwest Persia"
    parsed = parse_submission(text, rules.lexicon(), start_phase="influence",
                              phases=rules.scenario.phases_of("Germany"), verbs=rules.verbs(), power="Germany")
    assert not parsed.errors, [e.render() for e in parsed.errors]
    orders = parsed.submission.orders
    assert all(isinstance(o, GameVerb) and o.phase == "influence" for o in orders)
    assert [o.canonical() for o in orders] == ["influence", "influence 2 Sweden", "influence 1 Mongolia",
                                               "influence 3 Northwest Persia"]


def test_the_groups():
    rules, state = _position()
    assert sorted(influence.group_members(rules, state, "Mongolia")) == [
        "Buyant-Uhaa", "Central Mongolia", "Dzavhan", "Olgiy", "Tsagaan Olom", "Ulaanbaatar"]
    assert influence.group_members(rules, state, "Persia") == ["Persia", "Northwest Persia", "Eastern Persia"]
    assert not influence.is_neutral(rules, state, "France") and influence.is_neutral(rules, state, "Sweden")


def test_status_lists_every_nations_markers():
    rules, state = _position()
    state.spent.update({"markers:Germany:Sweden": 2, "markers:Russia:Sweden": 4, "markers:Japan:Mongolia": 1})
    assert rules.status_fields(state)["influence_markers"] == {"Sweden": {"Germany": 2, "Russia": 4},
                                                                "Mongolia": {"Japan": 1}}


def _give(state: State, to: str, *owners: str) -> None:
    for place, owner in list(state.owners.items()):
        if owner in owners:
            state.owners[place] = to


def test_solo_victory_beats_an_alliance_at_the_same_check_and_is_worded():
    rules, state = _position()
    _give(state, "United States", "France", "Japan", "Indonesia", "Eastern European Commonwealth")    # 52 + 63
    _give(state, "United States", "Italy", "India", "Australia")                                       # + 30 = 145
    state.relationships[pair_key("United States", "Russia")] = "Allied"                              # 145 + 37
    met = victory.candidates(rules, state)
    assert list(met) == ["eg:solo:United States", "eg:alliance:Russia+United States"]
    state.round = 1
    events = victory.check(rules, state, "Canada")
    assert [(e["type"], e["side"], e["new"]) for e in events] == [
        ("victory_hold", "United States", True), ("victory_hold", "alliance of Russia, United States", True)]
    assert "at the end of round 2" in describe(events[0])[0]
    assert victory.status(rules, state)["holds"][0]["income"] == 145
    state.round = 2
    won = victory.check(rules, state, "Canada")
    assert won[-1]["type"] == "victory" and won[-1]["side"] == "United States"
    assert describe(won[-1])[0].startswith("Game over: United States wins")
    assert victory.status(rules, state)["winner"]["side"] == "United States"
    assert victory.check(rules, state, "Canada") == []         # no more checks after the end


def test_no_check_but_at_the_round_end():
    rules, state = _position()
    _give(state, "United States", "France", "Japan", "Indonesia", "Eastern European Commonwealth", "Italy", "India")
    assert victory.candidates(rules, state)
    assert victory.check(rules, state, "Great Britain") == []
