"""The classic German round-1 opening on the G40 2nd-edition map, played through the command line as a host
would: three submarine attacks, the air force and the battleship against 110 Sea Zone with a British scramble
order on file, a bombing raid on the United Kingdom, the landings. Accepted, adjudicated, reported in every
format, audited and verified."""

from __future__ import annotations

import re

import pytest

from conftest import TEST_SEED

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

OPENING = """\
power: Germans
round: 1
buy 1 carrier, 2 sub
cm 1 sub 117 Sea Zone > 106 Sea Zone
cm 1 sub 118 Sea Zone > 109 Sea Zone
cm 1 sub 124 Sea Zone > 111 Sea Zone
cm 1 bb 113 Sea Zone > 112 Sea Zone > 110 Sea Zone
cm 2 ftr, 3 tac Western Germany > 112 Sea Zone > 110 Sea Zone
cm 1 ftr Holland Belgium > 110 Sea Zone
cm 1 ftr Norway > 112 Sea Zone > 110 Sea Zone
cm 1 tac Germany > Western Germany > Holland Belgium > 110 Sea Zone
bomb 2 bmb Germany > Western Germany > Holland Belgium > 110 Sea Zone > United Kingdom
place 1 carrier, 2 sub 112 Sea Zone
end
"""


@pytest.fixture
def opening_db(cli, tmp_path, maps_dir):
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "g40-opening")
    cli("submit", db, "--power", "British", "-", input="scramble United Kingdom > 110 Sea Zone\n")
    return db


def test_the_german_opening_is_accepted_adjudicated_reported_audited_and_verified(cli, opening_db, tmp_path):
    accepted = cli.json("submit", opening_db, "--power", "Germans", "-", input=OPENING)
    assert accepted["covers"][-1] == "end_turn"
    cli("adjudicate", opening_db)
    st = cli.json("status", opening_db)
    assert (st["round"], st["power"]) == (1, "Russians")

    text = cli("report", opening_db, "--format", "text").stdout
    for place in ("106 Sea Zone", "109 Sea Zone", "111 Sea Zone", "110 Sea Zone"):
        assert f"{place}: Germany attacks the United Kingdom" in text
    assert "The United Kingdom scrambles" in text and "(standing order “scramble United Kingdom > 110 Sea Zone”)" in text
    assert "Germany raids the major factory in United Kingdom with 2 bombers." in text
    assert re.search(r"Bombing: .* damage", text) or "No bomber got through" in text
    assert not re.search(r"^\s*[*-] \{", text, re.M), "every event is told in words, none as raw data"
    raid_labels = [g["label"] for g in cli.json("rolls", opening_db)]
    assert raid_labels[0].startswith("sbr:United Kingdom:factory_major"), "raids are fought first (BG-42)"

    for fmt in ("markdown", "bbcode", "text"):
        post = tmp_path / f"report.{fmt}"
        post.write_text(cli("report", opening_db, "--format", fmt).stdout)
        cli("verify", post)
    cli("audit", opening_db)

    raid = next(g for g in cli.json("rolls", opening_db) if g["label"] == "sbr:United Kingdom:factory_major")
    bombed = st["territories"]["United Kingdom"].get("damage", [])
    assert [d["unit"] for d in bombed] == ["factory_major"] and 0 < bombed[0]["damage"] <= 20
    assert bombed[0]["damage"] == min(sum(v + 2 for v in raid["values"]), 20), "each bomber deals 1d6+2 (BG-27)"

    # every German aircraft ends the turn on land or lost with a reason; none is left over the sea
    air = {"fighter", "tactical_bomber", "bomber"}
    for name, terr in st["territories"].items():
        if "Sea Zone" in name and "Germans" in terr["units"]:
            carriers = terr["units"]["Germans"].get("carrier", 0)
            planes = sum(n for u, n in terr["units"]["Germans"].items() if u in air)
            assert planes <= 2 * carriers, name


def test_a_one_way_flight_is_refused_with_the_rule(cli, opening_db):
    out = cli("submit", opening_db, "--power", "Germans", "-",
              input="cm 1 ftr Norway > 125 Sea Zone > 124 Sea Zone > 111 Sea Zone\n", code=1).output
    assert "no place to land" in out and "[BG-06]" in out


@pytest.mark.parametrize("order, words, rule", [
    ("scramble Scotland > 110 Sea Zone", "is not next to Scotland", "BG-30"),
    ("scramble 110 Sea Zone > 109 Sea Zone", "not from 110 Sea Zone", "BG-30"),
])
def test_a_standing_order_the_engine_cannot_honour_is_refused_at_submit(cli, opening_db, order, words, rule):
    out = cli("submit", opening_db, "--power", "British", "-", input=order + "\n", code=1).output
    assert words in out and f"[{rule}]" in out


def test_scramble_is_refused_where_the_map_plays_without_scrambling(cli, tmp_path, maps_dir):
    """The G40 map with its honoured switch "Scramble Rules In Effect" turned off (the Europe maps, which leave it
    off, are no longer played as g40: the family refuses their other rules at `new`)."""
    xml = tmp_path / "no_scramble.xml"
    text = (maps_dir / G40_2E).read_text(encoding="utf-8")
    switch = '<property name="Scramble Rules In Effect" value="true"'
    assert switch in text
    xml.write_text(text.replace(switch, switch.replace("true", "false")), encoding="utf-8")
    db = tmp_path / "eu.db"
    cli("new", db, "--game", "g40", "--map", xml)
    out = cli("submit", db, "--power", "British", "-", input="scramble United Kingdom > 110 Sea Zone\n", code=1).output
    assert "without scrambling" in out and "[BG-30]" in out
