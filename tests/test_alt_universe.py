"""G40 Alt-Universe played as whole turns on its map: what rule cases of one power's turn cannot show."""

from __future__ import annotations

from adjudicator.dice import FixedRoller
from adjudicator.games import game_module
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from adjudicator.state import State
from cases.runner import map_scenario
from conftest import G40AU_208, TEST_SEED


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


def test_the_axis_win_holding_14_cities_for_a_whole_round_and_the_game_then_takes_no_orders(cli, tmp_path, maps_dir):
    """AU-02 and AU-06 through the command line: the host's edit gives the Axis 14 cities; the German turn that
    ends with them starts the hold; each later turn reports it; the German turn of round 2 wins. Then `status`
    and the report say so, submissions are refused, and `audit` replays the hold and the win."""
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED, "--id", "au")
    cities = ("F13", "F3", "UK4", "R4", "R16", "R21", "US22", "A4")
    cli("edit", db, "-", "--reason", "a position with 14 Axis cities", input="".join(f"owner {c} Germans\n" for c in cities))
    powers = cli.json("status", db)["powers"]
    order = sorted((p for p in powers if powers[p]["turn_order"]), key=lambda p: powers[p]["turn_order"])
    for power in order:
        cli("submit", db, "--power", power, input="end\n")
        report = cli("adjudicate", db).output
        if power == "Germans":
            assert "The Axis hold 14 cities, 14 or more: the Axis win if that still holds when Germany has " \
                   "played its turn of round 2" in report
        else:
            assert "The Axis still hold 14 cities" in report
    hold = cli.json("status", db)["victory"]
    assert hold["winner"] is None
    assert [(h["side"], h["power"], h["round"]) for h in hold["holds"]] == [("Axis", "Germans", 1)]
    cli("submit", db, "--power", "Germans", input="end\n")
    assert "> **Game over: the Axis win." in cli("adjudicate", db).output
    assert "[b]Game over: the Axis win." in cli("report", db, "--format", "bbcode").output
    assert "*** Game over: the Axis win." in cli("report", db, "--format", "text").output
    status = cli.json("status", db)
    assert status["victory"]["winner"]["side"] == "Axis" and status["victory"]["winner"]["rule"] == "AU-02"
    assert status["awaiting"] == "nothing: the game is over, the Axis won"
    assert "Game over: the Axis win." in cli("status", db).output
    refused = cli("submit", db, "--power", "Russians", input="ool inf, art\n", code=1).output
    assert "no orders are taken: Game over: the Axis win." in refused
    assert "the game is over, the Axis won" in cli("adjudicate", db, code=1).output
    cli("audit", db)
