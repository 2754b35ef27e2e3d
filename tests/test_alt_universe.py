"""G40 Alt-Universe played as whole turns on its map: what rule cases of one power's turn cannot show."""

from __future__ import annotations

from adjudicator.dice import FixedRoller
from adjudicator.games import game_module
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from adjudicator.state import State
from cases.runner import map_scenario


def test_a_quiet_first_round_ends_with_the_treasuries_the_rules_give():
    """Every power passes its round-1 turn. Each starts with its AU-08 treasury and collects the same again
    (AU-08: the number is both), plus the objectives met at the start (AU-66):

    Germany 44 + 44 + 5 (trade with the Soviet Union, AU-67) = 93; Soviet Union 42 + 42 = 84; Japan 30 + 30 + 10
    (trade with the US and France, AU-77) + 5 (trade with China, AU-78) = 75; US 58 + 58 = 116; China 12 + 12
    (neutral: 12 whatever its 23 of territory, AU-28) = 24; UK 45 + 45 + 5 (southern shipping lanes, AU-93) = 95;
    Italy 14 + 14 = 28 (its convoy zones' British raiders miss here); ANZAC 12 + 12 = 24; France 16 + 16 (level 1:
    16 whatever its 32 of territory, AU-56) = 32. No other objective holds before anyone else is at war.
    """
    scenario = map_scenario("G40_Alt_Universe_v2.0.8_beta-1.3")
    rules = game_module("g40-alt-universe").RULES(scenario, "beta-1.3")
    state = State.initial(scenario)
    misses = FixedRoller(lambda label, sides, count: [sides] * count)
    for power in scenario.turn_players():
        parsed = parse_submission("end", rules.lexicon(), start_phase=state.phase, phases=scenario.phases_of(power),
                                  verbs=rules.verbs())
        turn.play(rules, state, turn.turn_orders(parsed.submission.orders), True, misses)
    assert (state.round, state.power) == (2, "Germans")
    assert {p: state.treasury[p] for p in scenario.turn_players()} == {
        "Germans": 93, "Russians": 84, "Japanese": 75, "Americans": 116, "Chinese": 24, "British": 95,
        "Italians": 28, "ANZAC": 24, "French": 32}
