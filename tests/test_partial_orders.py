"""Orders that can be partly carried out (games/g40/RULINGS.md "partial-orders") and the default landing's choice
("default-landing"), through the command line on both real G40 maps: the survivors of a battle fly where the order
sent them, the report says what could not go, and the game audits and verifies; at submit the over-count is still
refused. The default landing's preference for the player's destination is tested on the maps' positions."""

from __future__ import annotations

import pytest

from adjudicator.people import counted
from adjudicator.report import describe
from adjudicator.rules import air
from cases.runner import position
from conftest import G40AU_208, TEST_SEED

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

# The German air force against 110 Sea Zone, all ordered home in one line; with the test seed some fighters die.
G40_ORDERS = """\
cm 2 ftr, 3 tac Western Germany > 112 Sea Zone > 110 Sea Zone
cm 1 ftr Holland Belgium > 110 Sea Zone
cm 1 ftr Norway > 112 Sea Zone > 110 Sea Zone
ncm 4 ftr, 3 tac 110 Sea Zone > Holland Belgium
end
"""
# Alt-Universe: war on France, F2 attacked with the fighters taken first; the aircraft ordered back to G11.
AU_ORDERS = """\
war French
cm 3 inf, 2 art, 2 arm G11 > F2
cm 1 ftr, 1 tac G13 > G11 > F2
cm 1 ftr, 1 tac G15 > G11 > F2
ool F2: fighter, tactical_bomber, infantry, artillery, armour
ncm 2 ftr, 2 tac F2 > G11
end
"""


def _air(units: dict, kind: str) -> int:
    return units.get("Germans", {}).get(kind, 0)


@pytest.mark.parametrize("game, xml, orders, battle, home, named, left_home", [
    ("g40", G40_2E, G40_ORDERS, "110 Sea Zone", "Holland Belgium", 4, 1),
    ("g40-alt-universe", G40AU_208, AU_ORDERS, "F2", "G11", 2, 0),
], ids=["2nd-edition", "alt-universe"])
def test_the_survivors_fly_where_the_order_sent_them(cli, tmp_path, maps_dir, game, xml, orders, battle, home, named,
                                                    left_home):
    db = tmp_path / "game.db"
    cli("new", db, "--game", game, "--map", maps_dir / xml, "--seed", TEST_SEED, "--id", "partial")
    before = _air(cli.json("status", db)["territories"][home]["units"], "fighter")
    cli("submit", db, "--power", "Germans", "-", input=orders)
    text = cli("adjudicate", db, "--format", "text").stdout
    status = cli.json("status", db)["territories"]
    survivors = _air(status[home]["units"], "fighter") - before + left_home      # `left_home`: went to the battle
    assert 0 < survivors < named, f"the test seed's battle should kill some fighters, not all: {text}"
    ordered = next(line for line in orders.splitlines() if line.startswith("ncm"))
    canonical = ordered.replace("ftr", "fighter").replace("tac", "tactical_bomber")
    assert (f"Order partly carried out: “{canonical}”: {counted(survivors, 'fighter')}, " in text
            and f"; {counted(named - survivors, 'fighter')} could not (Germany has {survivors} fighter in {battle}, not {named})."
            in text), text
    assert "Order void" not in text and "lands in" not in text, text
    left = status.get(battle, {}).get("units", {})
    assert not any(_air(left, k) for k in ("fighter", "tactical_bomber")), "none is left behind"
    for fmt in ("markdown", "bbcode", "text"):
        post = tmp_path / f"report.{fmt}"
        post.write_text(cli("report", db, "--format", fmt).stdout)
        assert "Order partly carried out" in post.read_text()
        cli("verify", post)
    assert cli.json("audit", db)["ok"]


def test_at_submit_a_move_naming_more_units_than_there_are_is_still_refused(cli, tmp_path, maps_dir):
    db = tmp_path / "game.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "partial")
    out = cli("submit", db, "--power", "Germans", "-", code=1,
              input=G40_ORDERS.replace("ncm 4 ftr", "ncm 5 ftr")).output
    assert "Germany has 4 fighter in 110 Sea Zone, not 5" in out and "Traceback" not in out, out
    assert cli.json("status", db)["turn_index"] == 1


def _fighter_at_sea(setup: str, zone: str, power: str, **extra):
    """A position of the real map with one fighter of `power` in `zone` that has flown 1 space to get there."""
    case = {"setup": setup, "power": power, "phase": "noncombat_move",
            "position": {zone: {"units": {power: {"fighter": 1}}}}, **extra}
    _, rules, state = position(case)
    fighter = next(u for u in state.units_at(zone, power) if u.type == "fighter")
    fighter.moved = 1
    return rules, state, fighter


@pytest.mark.parametrize("setup, extra, zone, wish, safest", [
    ("g40", {"map": "ww2global40_2nd_edition"}, "110 Sea Zone", "Scotland", "United Kingdom"),
    ("g40", {"map": "ww2global40_2nd_edition"}, "110 Sea Zone", "Normandy Bordeaux", "United Kingdom"),
    ("g40-alt-universe", {}, "40 Sea Zone", "UK5", "UK4"),
], ids=["2nd-edition-far", "2nd-edition-exposed", "alt-universe"])
def test_the_default_landing_tries_the_place_the_order_named_first(setup, extra, zone, wish, safest):
    rules, state, fighter = _fighter_at_sea(setup, zone, "British", **extra)
    with state.trial():
        [event] = air.land_the_rest(rules, state, "British")
        assert event["to"] == safest and "as_ordered" not in event, event
    [event] = air.land_the_rest(rules, state, "British", [{"from": zone, "to": wish, "units": {"fighter": 1}}])
    assert (event["to"], event.get("as_ordered"), fighter.place) == (wish, True, wish)
    assert describe(event) == [f"The British fighter in {zone} lands in {wish}, where its order sent it "
                               f"(no carrier has room for it in {zone})."]


@pytest.mark.parametrize("setup, extra, zone, wish, safest", [
    ("g40", {"map": "ww2global40_2nd_edition"}, "110 Sea Zone", "111 Sea Zone", "United Kingdom"),    # no carrier
    ("g40", {"map": "ww2global40_2nd_edition"}, "110 Sea Zone", "Western Germany", "United Kingdom"),  # enemy land
    ("g40", {"map": "ww2global40_2nd_edition"}, "110 Sea Zone", "Egypt", "United Kingdom"),      # out of reach
    ("g40-alt-universe", {}, "40 Sea Zone", "F2", "UK4"),       # France is closed to the British at the start
], ids=["no-carrier", "enemy-land", "out-of-reach", "alt-universe-closed"])
def test_a_destination_that_is_no_legal_landing_in_reach_gives_way_to_the_safest(setup, extra, zone, wish, safest):
    rules, state, fighter = _fighter_at_sea(setup, zone, "British", **extra)
    [event] = air.land_the_rest(rules, state, "British", [{"from": zone, "to": wish, "units": {"fighter": 1}}])
    assert (event["to"], "as_ordered" in event) == (safest, False), event


def test_a_wish_is_for_the_units_its_order_named_where_it_started():
    rules, state, fighter = _fighter_at_sea("g40", "110 Sea Zone", "British", map="ww2global40_2nd_edition")
    wishes = [{"from": "109 Sea Zone", "to": "Scotland", "units": {"fighter": 1}},
              {"from": "110 Sea Zone", "to": "Scotland", "units": {"tactical_bomber": 1}}]
    [event] = air.land_the_rest(rules, state, "British", wishes)
    assert event["to"] == "United Kingdom" and wishes[1]["units"] == {"tactical_bomber": 1}, "the caller's list is kept"
