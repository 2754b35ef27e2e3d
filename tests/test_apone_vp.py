"""Sgt. Apone's Europe, Germany's victory points (games/apone_europe/vp.py): what the report and `status --json`
say of the rule cases' positions (tests/cases/ap_vp.toml plays the rules)."""

from __future__ import annotations

from adjudicator.report import describe, victory_phrase
from cases.runner import load_cases, position, run

CASES = {c["id"]: c for c in load_cases() if c["file"] == "ap_vp.toml"}


def _lines(case_id: str) -> tuple[object, object, list[str]]:
    state, errors, events = run(CASES[case_id])
    assert not errors
    _, rules, _ = position(CASES[case_id])
    return state, rules, [line for e in events for line in describe(e)]


def test_the_vp_account_is_reported_and_status_shows_the_total():
    state, rules, lines = _lines("AP-23-01")
    assert ("Germans' victory points, end of their turn of round 5: 1 for the 23 IPCs collected (AP-15), 1 for the "
            "enemy industrial complex they hold in Egypt (AP-16): 2 earned, total 15 → 17 of the 22 that win. "
            "[AP-17]") in lines
    assert rules.status_fields(state)["victory_points"] == {
        "Germans": {"points": 17, "needed": 22, "earned_last_turn": 2, "bombed_this_round": 0}}
    assert rules.victory_status(state) == {"winner": None, "holds": []}


def test_a_raid_says_the_rounds_count():
    _, _, lines = _lines("AP-24-02")
    assert ("Bombing: 5 4 → 9; the Germans lose 9 PUs; the Germans lose 1 victory point (12 left); raids on the Germans "
            "have scored 30 IPCs this round, 1 VP for each full 10 [AP-18].") in lines


def test_the_winner_is_announced_and_kept():
    state, rules, lines = _lines("AP-20-01")
    text = "Game over: the Axis win: the Germans have 23 victory points, 22 needed [AP-20]."
    assert text in lines
    assert victory_phrase(rules.victory_status(state)["winner"]) == text


def test_an_enemy_in_germany_is_a_coming_allied_win():
    state, rules, _ = _lines("AP-21-02")
    holds = rules.victory_status(state)["holds"]
    assert [victory_phrase(h) for h in holds] == [
        "The Russians hold Germany, the German capital: the Allies win if it is still theirs when the Germans' next "
        "turn ends [AP-21]."]
