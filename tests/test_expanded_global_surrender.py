"""Surrenders across submissions (games/expanded_global/surrender.py; RULINGS.md "surrenders"): the loser's offer in
its turn, the victor's answer with its terms filed in any submission, their effect at the victor's `surrenders`
step, the deadline, and what Political terms leave in force."""

from __future__ import annotations

import pytest

from adjudicator.games.expanded_global import RULES, scenario_of
from adjudicator.games.expanded_global import politics, surrender, view, war
from adjudicator.notation import parse_submission
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


@pytest.fixture(scope="module")
def rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def _at_war(rules) -> State:
    state = State.initial(rules.scenario)
    state.set_relationship("Canada", "United States", "War")
    return state


def _answer(rules, state, text: str, power: str = "United States"):
    parsed = parse_submission(text, rules.lexicon(), verbs=rules.verbs(), phases=rules.scenario.phases_of(power),
                              start_phase="surrenders")
    [answer] = parsed.submission.orders
    return answer


def test_accept_with_land_terms_makes_original_territories(rules):
    state = _at_war(rules)
    state.owners["Quebec"] = "United States"
    oid = surrender.offer(rules, state, "Canada", "United States")["offer"]
    answer = _answer(rules, state, f"accept {oid} land Quebec")
    assert answer.args == {"offer": oid, "terms": "land Quebec"}
    assert rules.check_standing(state, "United States", [answer]) == []
    rules.file_standing(state, "United States", answer)
    events = rules.phase_start(state, "United States", "surrenders")
    assert [e["type"] for e in events] == ["offer_accepted", "surrender"]
    assert events[0]["text"] == (f"United States accept the surrender offer {oid} of Canada, on these terms: "
                                 "land Quebec.")
    assert state.original_owners["Quebec"] == "United States"
    assert not rules.at_war(state, "Canada", "United States")
    assert "Quebec becomes an Original Territory of United States" in events[1]["text"]


def test_bad_terms_are_refused_when_filed(rules):
    state = _at_war(rules)
    oid = surrender.offer(rules, state, "Canada", "United States")["offer"]
    errors = rules.check_standing(state, "United States", [_answer(rules, state, f"accept {oid} political")])
    assert [e.rule for e in errors] == ["EG-21"]
    with pytest.raises(RuleViolation, match="exactly one kind"):
        politics.file_answer(rules, state, "United States", "accept", oid, "military a, political")
    with pytest.raises(RuleViolation, match="no single place"):
        politics.file_answer(rules, state, "United States", "accept", oid, "land Atlantis")
    with pytest.raises(RuleViolation, match="not an Original Territory of Canada"):
        politics.file_answer(rules, state, "United States", "accept", oid, "land Mexico")
    with pytest.raises(RuleViolation, match="named twice"):
        state.owners["Quebec"] = "United States"
        politics.file_answer(rules, state, "United States", "accept", oid, "land Quebec, Quebec")


def test_offers_are_refused_twice_or_to_a_nation_at_peace_and_expire_at_the_losers_turn(rules):
    state = _at_war(rules)
    oid = surrender.offer(rules, state, "Canada", "United States")["offer"]
    with pytest.raises(RuleViolation, match="already"):
        surrender.offer(rules, state, "Canada", "United States")
    with pytest.raises(RuleViolation, match="not at war"):
        surrender.offer(rules, state, "Canada", "Japan")
    assert any(line.startswith(f"Offer {oid}: Canada offer their surrender to United States")
               for line in view.notes(rules, state))
    [expired] = rules.turn_start(state, "Canada")
    assert expired["type"] == "offer_refused" and expired["kind"] == "surrender"
    assert "surrender offer" in expired["text"] and politics.offers(state) == {}


def test_military_b_units_join_the_victors_units_to_place(rules):
    state = _at_war(rules)
    oid = surrender.offer(rules, state, "Canada", "United States")["offer"]
    state.purchases["United States"] = {"infantry": 2}
    politics.file_answer(rules, state, "United States", "accept", oid, "military b 1 destroyer, 1 transport")
    events = rules.phase_start(state, "United States", "surrenders")
    assert events[-1]["taken"] == {"destroyer": 1, "transport": 1}
    assert state.purchases["United States"] == {"infantry": 2, "destroyer": 1, "transport": 1}
    assert not [u for u in state.units if u.owner == "Canada" and u.type in ("destroyer", "transport")]


def test_political_terms_open_the_losers_land_and_end_with_the_capital(rules):
    state = State.initial(rules.scenario)
    state.owners["Ontario"] = "United States"
    state.add_unit("infantry", "United States", "Ontario")
    inf = state.units_at("Ontario", "United States")[0]
    with pytest.raises(RuleViolation) as refused:
        rules.check_move(state, "United States", [inf], ["Ontario", "Quebec"], "noncombat_move")
        rules.check_land_destination(state, "United States", "Quebec", "noncombat_move")
    assert refused.value.rule == "EG-05"
    state.switches["political:Canada"] = "United States"
    rules.check_land_destination(state, "United States", "Quebec", "noncombat_move")       # EG-19: open
    assert rules.income(state, "United States")[0] == 52 + 2 + 5
    assert rules.income(state, "Canada")[0] == 0                                          # BG-37
    state.switches["halt:United States"] = '{"place": "Quebec", "losers": ["Canada"]}'
    assert "Political surrender: United States over Canada (while United States hold Ontario)" in view.notes(
        rules, state)
    assert rules.turn_start(state, "United States") == [] and "halt:United States" not in state.switches
    state.owners["Ontario"] = "Canada"
    [ended] = rules.turn_start(state, "Japan")
    assert ended["type"] == "political_ended" and "political:Canada" not in state.switches
    assert ended["text"] == ("The United States' Political surrender terms over Canada end: Canada hold their "
                             "capital, Ontario, again. The United States' units in Canada's land (Ontario) must leave "
                             "it by the end of the United States' next turn, or are interned (EG-63).")


def test_terms_are_written_back_canonically(rules):
    state = _at_war(rules)
    state.owners["Quebec"] = state.owners["New Brunswick Nova Scotia"] = "United States"
    oid = surrender.offer(rules, state, "Canada", "United States")["offer"]
    assert _answer(rules, state, f"accept {oid} MILITARY B 1 fighter, 1 fighters, 1 fighter").args["terms"] == (
        "military b 3 fighter")
    assert _answer(rules, state, f"accept {oid} Military A").args["terms"] == "military a"
    answer = _answer(rules, state, f"accept {oid} land quebec,,new brunswick nova scotia")
    assert answer.canonical() == f"accept {oid} land Quebec, New Brunswick Nova Scotia"
    assert _answer(rules, state, f"accept {oid} land Atlantis").args["terms"] == "land Atlantis"    # refused later
    rules.file_standing(state, "United States", answer)
    accepted = rules.phase_start(state, "United States", "surrenders")[0]
    assert accepted["text"].endswith("on these terms: land Quebec, New Brunswick Nova Scotia.")


def test_political_terms_end_at_once_with_the_capital_and_the_halt_with_them(rules):
    state = State.initial(rules.scenario)
    state.owners["Ontario"] = "United States"
    state.switches["political:Canada"] = "United States"
    state.switches["halt:United States"] = '{"place": "Quebec", "losers": ["Canada"]}'
    assert rules.after_battle(state, "Japan", "Alaska", {}) == []
    state.owners["Ontario"] = "Japan"
    [ended] = [e for e in rules.after_battle(state, "Japan", "Ontario", {}) if e["type"] == "political_ended"]
    assert ended["halt"] == "Quebec" and "halt:United States" not in state.switches
    assert "political:Canada" not in state.switches
    assert ended["text"] == ("The United States' Political surrender terms over Canada end: Canada's capital, "
                             "Ontario, is held by Japan, no longer by United States. The halt of Canada's units in "
                             "Quebec ends with them.")
    assert rules.turn_start(state, "Canada") == []


def test_no_war_begins_between_victor_and_loser_under_political_terms(rules):
    state = State.initial(rules.scenario)
    state.owners["Ontario"] = "United States"
    state.switches["political:Canada"] = "United States"
    with pytest.raises(RuleViolation, match="all conflict") as refused:
        rules.may_declare_war(state, "United States", "Canada")
    assert refused.value.rule == "EG-14"
    state.add_unit("destroyer", "United States", "106 Sea Zone")
    with pytest.raises(RuleViolation, match="Surprise Attack by United States on Canada") as refused:
        war.attack(rules, state, "United States", "106 Sea Zone", "Canada")
    assert refused.value.rule == "EG-14" and not rules.at_war(state, "Canada", "United States")
    # an ally's war is shared: Japan at war with the victor may not bring the loser into it by declaring or allying
    state.set_relationship("Canada", "Japan", "Allied")
    with pytest.raises(RuleViolation, match="would put Canada and United States at war"):
        rules.may_declare_war(state, "Japan", "United States")


def test_an_alliance_that_would_bring_war_across_political_terms_lapses_as_it_forms(rules):
    state = State.initial(rules.scenario)
    state.owners["Ontario"] = "United States"
    state.switches["political:Canada"] = "United States"
    oid = politics.offer(rules, state, "Canada", "Japan")["offer"]
    rules.may_declare_war(state, "Japan", "United States")      # Japan alone: its war touches no terms
    state.set_relationship("Japan", "United States", "War")
    politics.file_answer(rules, state, "Japan", "accept", oid)
    events = rules.phase_start(state, "Japan", "alliances")
    [lapsed] = [e for e in events if e["type"] == "alliance_lapsed"]
    assert lapsed["rule"] == "EG-14" and "would put Canada and United States at war" in lapsed["why"]
    assert not rules.at_war(state, "Canada", "United States") and not rules.friendly(state, "Canada", "Japan")
