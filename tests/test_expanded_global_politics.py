"""Alliances across submissions (games/expanded_global/politics.py; RULINGS.md "eg-alliance-offers"): an offer in one
nation's turn, the answer filed by another, its effect at the answerer's Make Alliances step, the deadline."""

from __future__ import annotations

import json

import pytest

from adjudicator.games.expanded_global import RULES, scenario_of
from adjudicator.games.expanded_global import politics
from adjudicator.notation import parse_submission
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, canonical_json
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


@pytest.fixture(scope="module")
def rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def _offer(rules):
    state = State.initial(rules.scenario)
    event = politics.offer(rules, state, "Canada", "United States")
    return state, event["offer"]


def test_accept_and_refuse_are_read_at_any_time(rules):
    parsed = parse_submission("accept A1\nrefuse a2", rules.lexicon(), verbs=rules.verbs(),
                              phases=rules.scenario.phases_of("United States"), start_phase="surrenders")
    assert [(o.name, o.phase, o.args["offer"]) for o in parsed.submission.orders] == [("accept", "", "A1"),
                                                                                       ("refuse", "", "A2")]


def test_acceptance_makes_allies_at_the_answerers_alliances_step(rules):
    state, oid = _offer(rules)
    assert oid == "A1"
    parsed = parse_submission(f"accept {oid}", rules.lexicon(), verbs=rules.verbs(),
                              phases=rules.scenario.phases_of("United States"), start_phase="surrenders")
    [answer] = parsed.submission.orders
    assert rules.check_standing(state, "United States", [answer]) == []
    rules.file_standing(state, "United States", answer)
    assert not rules.friendly(state, "Canada", "United States")
    [accepted, formed] = rules.phase_start(state, "United States", "alliances")
    assert accepted["type"] == "offer_accepted" and accepted["waiting"] == []
    assert formed["type"] == "alliance_formed" and formed["members"] == ["Canada", "United States"]
    assert rules.friendly(state, "Canada", "United States")
    assert state.relationship("Canada", "United States") == "Allied"
    politics.file_standing(rules, state, "Canada", parse_submission(
        "leave", rules.lexicon(), verbs=rules.verbs(), phases=rules.scenario.phases_of("Canada")).submission.orders[0])
    [left] = rules.turn_start(state, "Mexico")
    assert left["type"] == "alliance_left" and not rules.friendly(state, "Canada", "United States")
    assert not rules.at_war(state, "Canada", "United States")


def test_an_alliance_brings_its_members_wars(rules):
    state, oid = _offer(rules)
    state.set_relationship("United States", "Japan", "War")
    politics.file_answer(rules, state, "United States", "accept", oid)
    [accepted, formed] = rules.phase_start(state, "United States", "alliances")
    assert accepted["type"] == "offer_accepted" and accepted["waiting"] == []
    assert formed["type"] == "alliance_formed" and formed["wars"] == [["Canada", "Japan"]]
    assert rules.at_war(state, "Canada", "Japan")
    assert not politics.combat_allowed(rules, state, "Canada", "Japan")     # from the next round (EG-65)


def test_silence_until_the_deadline_is_a_refusal(rules):
    state, oid = _offer(rules)
    events = rules.turn_start(state, "Canada")
    [expired] = events
    assert {k: v for k, v in expired.items() if k != "text"} == {
        "type": "offer_refused", "offer": oid, "power": "Canada", "silent": ["United States"], "draw": False,
        "kind": "alliance", "what": "alliance offer", "why": "no answer by the deadline", "rule": "EG-60"}
    assert expired["text"].startswith(f"The alliance offer {oid} of Canada has expired: no answer from United States")
    with pytest.raises(RuleViolation, match="no pending offer"):
        politics.file_answer(rules, state, "United States", "accept", oid)      # expired


def test_a_refusal_ends_the_offer(rules):
    state, oid = _offer(rules)
    politics.file_answer(rules, state, "United States", "refuse", oid)
    [refused] = rules.phase_start(state, "United States", "alliances")
    assert refused["type"] == "offer_refused" and not rules.friendly(state, "Canada", "United States")


def test_answers_to_unknown_offers_or_not_addressed_are_refused(rules):
    state, oid = _offer(rules)
    with pytest.raises(RuleViolation, match="no pending offer A9"):
        politics.file_answer(rules, state, "United States", "accept", "A9")
    with pytest.raises(RuleViolation, match="not addressed to Japan"):
        politics.file_answer(rules, state, "Japan", "accept", oid)
    with pytest.raises(RuleViolation, match="not addressed to Canada"):
        politics.file_answer(rules, state, "Canada", "accept", oid)


def test_offers_are_ended_in_the_order_made_whether_or_not_the_position_was_saved(rules):
    """A saved position keeps its records sorted by key (A10 before A9); a replay (audit) keeps them in the order
    made: the report must be the same both ways."""
    state = State.initial(rules.scenario)
    for target in politics.nations(rules)[:10]:
        politics.offer(rules, state, "Canada", target)
    saved = State.from_dict(json.loads(canonical_json(state.to_dict())))
    ends = [[e["offer"] for e in rules.turn_start(s, "Canada")] for s in (state, saved)]
    assert ends[0] == ends[1] == [f"A{n}" for n in range(1, 11)]


def test_an_offer_whose_alliances_have_changed_lapses_at_once(rules):
    state = State.initial(rules.scenario)
    first = politics.offer(rules, state, "United States", "Canada")["offer"]
    second = politics.offer(rules, state, "Great Britain", "Canada")["offer"]
    politics.file_answer(rules, state, "Canada", "accept", first)
    events = rules.phase_start(state, "Canada", "alliances")
    assert [e["type"] for e in events] == ["offer_accepted", "alliance_formed", "alliance_lapsed"]
    assert events[-1]["offer"] == second and second not in politics.offers(state)
    assert events[-1]["text"].startswith(f"Alliance offer {second} of Great Britain to Canada lapses")


def test_a_draw_agreed_by_every_nation_still_in_the_game_ends_it(rules):
    state = State.initial(rules.scenario)
    for place, owner in list(state.owners.items()):
        if owner == "Canada":
            state.owners[place] = "United States"       # Canada is out: it is not asked
    offered = politics.offer_draw(rules, state, "United States")
    assert "Canada" not in offered["addressed"] and len(offered["addressed"]) == 12
    for nation in offered["addressed"]:
        assert rules.check_standing(state, nation, []) == []
        politics.file_answer(rules, state, nation, "accept", offered["offer"])
    ended = [e for n in offered["addressed"] for e in rules.phase_start(state, n, "alliances")]
    assert ended[-1]["type"] == "victory" and ended[-1]["side"] == "draw"
    assert ended[-1]["text"].startswith("Game over: a draw, agreed by United States, Russia")
    assert rules.victory_status(state)["winner"]["side"] == "draw"


def test_one_refusal_ends_a_draw_offer_and_a_second_one_waits_for_the_first(rules):
    state = State.initial(rules.scenario)
    oid = politics.offer_draw(rules, state, "Germany")["offer"]
    with pytest.raises(RuleViolation, match=f"the draw offer {oid} is pending"):
        politics.offer_draw(rules, state, "Japan")
    politics.file_answer(rules, state, "Japan", "refuse", oid)
    [refused] = rules.phase_start(state, "Japan", "alliances")
    assert refused["text"] == f"Japan refuse the draw offer {oid} of Germany."
    assert rules.victory_status(state)["winner"] is None and politics.offers(state) == {}


def test_an_answer_that_would_take_effect_after_the_deadline_is_refused_whoever_is_on_the_move(rules):
    """Germany offer Great Britain an alliance in round 1. Great Britain's answer takes effect at its Make Alliances
    step: one filed before Great Britain's round-1 turn counts; one filed after it (in Japan's turn) would take effect
    only in round 2, after Germany's round-2 turn has begun and the offer expired: refused at submit, not filed."""
    state = State.initial(rules.scenario)
    state.power, state.phase = "Germany", "alliances"
    oid = politics.offer(rules, state, "Germany", "Great Britain")["offer"]
    state.power, state.phase = "Great Britain", "surrenders"
    politics.may_answer(rules, state, "Great Britain", oid, "accept")          # in time: this turn's step
    state.power = "Japan"
    with pytest.raises(RuleViolation) as refused:
        politics.may_answer(rules, state, "Great Britain", oid, "accept")
    assert ("Great Britain's next Make Alliances step, where an answer takes effect, comes after the offer "
            f"{oid} expires as Germany's next turn begins") in refused.value.message


def test_two_answers_to_one_offer_in_one_post_are_refused(rules):
    """`accept A1` and `refuse A1` in one post: the last would silently win; the second is refused instead."""
    state, oid = _offer(rules)
    parsed = parse_submission(f"accept {oid}\nrefuse {oid}", rules.lexicon(), verbs=rules.verbs(),
                              phases=rules.scenario.phases_of("United States"), start_phase="surrenders")
    [error] = rules.check_standing(state, "United States", parsed.submission.orders)
    assert error.line == 2 and f"a second answer to {oid} in this post" in error.message and error.rule == "EG-60"
