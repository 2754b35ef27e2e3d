"""The report of a battle in which attacking submarines submerge (issue 26 item 10, RULINGS.md
"attacking-submarines-submerge"): the round says who submerged and by which order, and the result says the battle
ended for want of attackers."""

from __future__ import annotations

from adjudicator.report import battle_view
from cases.runner import load_cases, run


def _battle(case_id: str) -> dict:
    case = next(c for c in load_cases() if c["id"] == case_id)
    _, errors, events = run(case)
    assert not errors
    return battle_view(next(e for e in events if e["type"] == "battle"), {"attacker": "ool", "defender": "ool"})


def test_submarines_submerging_end_a_battle_they_fought_alone():
    view = _battle("BG-17-32")
    assert ("Round 2: attacking 1 submarine submerge and stay in 109 Sea Zone, out of the battle "
            "(order `submerge 109 Sea Zone`)") in view["rounds"]
    assert view["result"] == "the attacking submarines submerge, and no other attacker is left: the battle ends"
    assert view["survivors"] == "nothing (and 1 submarine out of the battle)"


def test_the_rest_fight_on_and_a_destroyer_holds_the_submarines_back():
    view = _battle("BG-17-31")
    assert any(line.startswith("Round 2: attacking 2 submarines submerge") for line in view["rounds"])
    assert view["result"] == "the attackers win: no defender is left in the battle"
    blocked = _battle("BG-17-33")
    assert not any("submerge and stay" in line for line in blocked["rounds"])
    assert any("cannot submerge while an enemy destroyer is in the battle" in n for n in blocked["notes"])
