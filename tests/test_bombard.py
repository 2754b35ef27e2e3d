"""Shore bombardment by order and scrambling against a landing (issue 26 items 5 and 6) beyond the rule cases:
the `bombard` order played through the command line and shown in the report, and a map whose "Scramble To Any
Amphibious Assault" is off (no real G40 map has one, so the 2nd-edition map is played with the property
switched off)."""

from __future__ import annotations

import copy

import pytest

from adjudicator.dice import FixedRoller
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from cases.runner import map_scenario, position
from conftest import TEST_SEED

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

SETUP = """\
owner Denmark British
remove Germans 2 inf Denmark
add British 1 inf Denmark
add Germans 1 transport 113 Sea Zone
"""

TURN = """\
power: Germans
round: 1
cm 2 inf Germany > 113 Sea Zone > Denmark
bombard 1 bb 113 Sea Zone > Denmark
end
"""


def test_a_bombard_order_is_submitted_adjudicated_reported_and_audited(cli, tmp_path, maps_dir):
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "bombard")
    cli("edit", db, "-", "--reason", "a British Denmark to land in", input=SETUP)
    accepted = cli("submit", db, "--power", "Germans", "-", input=TURN).output
    assert "bombard 1 battleship 113 Sea Zone > Denmark" in accepted
    cli("adjudicate", db)
    text = cli("report", db, "--format", "text").stdout
    assert "1 battleship in 113 Sea Zone to bombard Denmark (“bombard 1 battleship 113 Sea Zone > Denmark”)." in text
    assert "Shore bombardment: " in text
    bombard = [g for g in cli.json("rolls", db) if g["label"] == "bombard:Denmark"]
    assert [g["units"] for g in bombard] == [["battleship@4"]], "the battleship that stayed in 113 Sea Zone fired"
    st = cli.json("status", db)
    assert st["territories"]["113 Sea Zone"]["units"]["Germans"].get("battleship") == 1, "it did not move"
    cli("audit", db)


@pytest.mark.parametrize("order, bad", [
    ("bombard 1 bb 113 Sea Zone", "expected '>'"),
    ("bombard 1 bb 113 Sea Zone > Denmark > Norway", "a bombard order names one sea zone and the territory"),
    ("bombard none Denmark", "expected '>'"),
])
def test_a_malformed_bombard_order_is_refused_with_what_to_write(cli, tmp_path, maps_dir, order, bad):
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED)
    out = cli("submit", db, "--power", "Germans", "-", input=order + "\n", code=1).output
    assert bad in out and "Traceback" not in out


def _landing_case(scramble_from: str) -> dict:
    return {
        "id": "off", "setup": "g40", "map": "ww2global40_2nd_edition",
        "orders": "cm 2 inf 113 Sea Zone > Denmark",
        "standing": {"British": {"scramble": [{"place": scramble_from, "sea_zone": "113 Sea Zone"}]}},
        "position": {
            "113 Sea Zone": {"units": {"Germans": {"transport": 1, "infantry": 2}}},
            "Denmark": {"owner": "British", "units": {"British": {"infantry": 1, "fighter": 1, "airfield": 1}}},
            "Norway": {"owner": "British", "units": {"British": {"fighter": 2, "airfield": 1}}},
        },
    }


def _play_without_any_amphibious_scramble(case: dict, dice: dict) -> list[dict]:
    """The case played on the 2nd-edition map with "Scramble To Any Amphibious Assault" switched off."""
    _, rules, state = position(case)
    scenario = copy.copy(map_scenario(case["map"]))
    scenario.properties = {**scenario.properties, "Scramble To Any Amphibious Assault": "false"}
    rules = type(rules)(scenario, rules.rules_version)
    assert rules.prop("Scramble Rules In Effect") and not rules.prop("Scramble To Any Amphibious Assault")
    parsed = parse_submission(case["orders"], rules.lexicon(), start_phase=state.phase,
                              phases=scenario.phases_of(state.power), verbs=rules.verbs())
    orders = turn.turn_orders(parsed.submission.orders)
    assert not parsed.errors and not rules.check(state, orders, False)
    steps = rules.play(state, orders, False, FixedRoller(dice))
    return [e for s in steps for e in s.events]


def test_without_the_property_aircraft_next_door_do_not_scramble_against_a_landing():
    events = _play_without_any_amphibious_scramble(_landing_case("Norway"), {
        "battle:Denmark:r1:attacker": [1, 1], "battle:Denmark:r1:defender": [6, 6]})
    assert not [e for e in events if e["type"] == "scramble"]
    assert [e["place"] for e in events if e["type"] == "battle"] == ["Denmark"]


def test_without_the_property_the_assaulted_territorys_own_aircraft_still_scramble():
    events = _play_without_any_amphibious_scramble(_landing_case("Denmark"), {})
    rose = [e for e in events if e["type"] == "scramble"]
    assert [(e["from"], e["units"], e["landing"]) for e in rose] == [("Denmark", {"fighter": 1}, ["Denmark"])]
    assert [(e["place"], e["result"]) for e in events if e["type"] == "battle"] == [("113 Sea Zone", "defended")]
    assert any(e["type"] == "called_off" and e["place"] == "Denmark" for e in events)
