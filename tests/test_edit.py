"""`adjudicator edit`: the host's corrections are checked, journalled with their reason, printed in the next
report under their own heading, and replayed by `audit`; a wrong one is refused and changes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator.demo import SCRIPT


def edit(cli, db, text: str, code: int = 0, reason: str = "forgot the Polish reinforcements"):
    return cli("edit", db, "-", "--reason", reason, input=text, code=code)


def test_corrections_change_the_game_and_are_reported_and_audited(cli, demo_db, tmp_path):
    before = cli.json("status", demo_db)
    out = cli.json("edit", demo_db, "-", "--reason", "forgot the Polish reinforcements",
                   input="add Germans 2 inf, 1 arm Poland\npus Italians 40\nremove Russians 1 inf Ukraine\n")
    assert out["changes"] == ["add Germans 2 infantry, 1 armour Poland", "pus Italians 40",
                              "remove Russians 1 infantry Ukraine"]
    after = cli.json("status", demo_db)
    poland = after["territories"]["Poland"]["units"]["Germans"]
    assert poland["infantry"] == before["territories"]["Poland"]["units"]["Germans"]["infantry"] + 2
    assert after["powers"]["Italians"]["treasury"] == 40
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    cli("submit", demo_db, "--power", "Germans", tmp_path / "g.txt")
    report = cli("adjudicate", demo_db).output
    assert "### Host corrections" in report
    reason = "The host corrected the game (forgot the Polish reinforcements): "
    for sentence in ("2 infantry, 1 armour of the Germans added in Poland", "the Italians' treasury is set to 40 PUs",
                     "1 infantry of the Russians removed from Ukraine"):     # the demo names its powers so
        assert f"{reason}{sentence}." in report, report
    assert "Orders adjudicated: Germans, submission 2" in report
    cli("audit", demo_db)


def test_a_game_corrected_mid_way_still_audits_and_a_tampered_correction_does_not(cli, demo_db, tmp_path):
    for power in ("Germans", "Russians"):
        (tmp_path / f"{power}.txt").write_text(SCRIPT[power])
    cli("submit", demo_db, "--power", "Germans", tmp_path / "Germans.txt")
    cli("adjudicate", demo_db)
    edit(cli, demo_db, "owner Romania Germans\ndamage Germany factory_major 3\nwar Italians Russians\n")
    cli("submit", demo_db, "--power", "Russians", tmp_path / "Russians.txt")
    said = cli("adjudicate", demo_db).output
    for sentence in ("Romania is now held by the Germans", "the major factory in Germany is set to 3 damage",
                     "the Italians and the Russians are now at war"):
        assert sentence in said, said
    assert cli.json("audit", demo_db)["ok"]
    with sqlite3.connect(demo_db) as con:
        con.execute("update submission set text = replace(text, 'damage Germany factory_major 3', "
                    "'damage Germany factory_major 6') where kind = 'edit'")
    out = cli.json("audit", demo_db, code=1)
    assert "SHA-256 of its text" in out["mismatch"]["message"]


@pytest.mark.parametrize("text, fragment", [
    ("add Gremans 2 inf Poland\n", "unknown power 'Gremans': did you mean Germans?"),
    ("add Germans 2 zeppelins Poland\n", "unknown unit"),
    ("add Germans 2 inf Atlantis\n", "Atlantis"),
    ("remove Germans 40 inf Germany\n", "Germans have"),
    ("pus Germans -5\n", "expected the treasury in PUs"),
    ("add Germans 2 inf Belarus\n", "Germans and Russians, at war, both in Belarus"),
    ("add Germans 1 destroyer Poland\n", "a destroyer of Germans on land in Poland"),
    ("owner Ukraine Germans\n", "the Russians' units in Ukraine, held by Germans"),
    ("damage Germany factory_major 99\n", "takes at most"),
    ("damage Poland factory_major 2\n", "no factory_major"),
    ("war Germans Germans\n", "two different powers"),
    ("bake Germans 2 inf Poland\n", "unknown order"),
    ("", "no corrections given"),
])
def test_a_wrong_correction_is_refused_and_changes_nothing(cli, demo_db, text, fragment):
    before = demo_db.read_bytes()
    assert fragment in edit(cli, demo_db, text, code=1).output
    assert demo_db.read_bytes() == before


def test_corrections_wait_until_locked_orders_are_played(cli, demo_db, tmp_path):
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    cli("submit", demo_db, "--power", "Germans", tmp_path / "g.txt")
    assert "orders are locked" in edit(cli, demo_db, "pus Germans 3\n", code=1).output
    cli("adjudicate", demo_db)
    edit(cli, demo_db, "pus Germans 3\n")


@pytest.mark.parametrize("reason", ["", "   ", "two\nlines", "x" * 201])
def test_a_correction_needs_a_one_line_reason(cli, demo_db, reason):
    assert "--reason" in edit(cli, demo_db, "pus Germans 3\n", code=2, reason=reason).output


def test_dry_run_shows_the_corrections_and_changes_nothing(cli, demo_db):
    before = demo_db.read_bytes()
    out = cli("edit", demo_db, "-", "--reason", "check", "--dry-run", input="pus Germans 3\n").output
    assert "would be made" in out and "pus Germans 3" in out
    assert demo_db.read_bytes() == before


def test_land_units_added_at_sea_go_aboard_and_come_off_again(cli, tmp_path, maps_dir, monkeypatch):
    """Issue 26 item 10: a correction can set up cargo on the real map; `status --json` says what is aboard."""
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", "ww2global40_2nd_edition")
    no_room = edit(cli, db, "add Germans 1 inf 113 Sea Zone\n", code=1).output
    assert "no transport of Germans is in 113 Sea Zone to carry the infantry" in no_room
    assert "add Germans 1 transport 113 Sea Zone" in no_room
    edit(cli, db, "add Germans 1 transport 113 Sea Zone\nadd Germans 1 inf, 1 arm 113 Sea Zone\n")
    zone = cli.json("status", db)["territories"]["113 Sea Zone"]
    assert zone["units"]["Germans"] == {"battleship": 1, "transport": 1, "infantry": 1, "armour": 1}
    assert zone["aboard"] == {"Germans": {"infantry": 1, "armour": 1}}
    assert "no room for the infantry" in edit(cli, db, "add Germans 1 inf 113 Sea Zone\n", code=1).output
    edit(cli, db, "remove Germans 1 arm 113 Sea Zone\n")
    zone = cli.json("status", db)["territories"]["113 Sea Zone"]
    assert zone["aboard"] == {"Germans": {"infantry": 1}}
    edit(cli, db, "remove Germans 1 transport 113 Sea Zone\n")        # the cargo goes with its transport
    zone = cli.json("status", db)["territories"]["113 Sea Zone"]
    assert zone["units"]["Germans"] == {"battleship": 1} and "aboard" not in zone
    cli("audit", db)


def test_aircraft_added_at_sea_need_a_place_on_a_friendly_carrier(cli, tmp_path, maps_dir, monkeypatch):
    """An aircraft set at sea with no carrier, beyond the carriers' room, or on the carrier of a power that is no
    ally, is a position no game reaches: refused, and nothing is written; on a friendly carrier it is kept."""
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", "ww2global40_2nd_edition")
    before = db.read_bytes()
    out = edit(cli, db, "add French 1 fighter 111 Sea Zone\n", code=1).output
    assert "a fighter of French at sea in 111 Sea Zone without a place on a friendly carrier" in out
    out = edit(cli, db, "add British 1 carrier 111 Sea Zone\nadd British 3 fighter 111 Sea Zone\n", code=1).output
    assert "without a place on a friendly carrier" in out
    out = edit(cli, db, "add Americans 1 carrier 101 Sea Zone\nadd British 1 fighter 101 Sea Zone\n", code=1).output
    assert "a fighter of British at sea in 101 Sea Zone without a place on a friendly carrier" in out
    assert db.read_bytes() == before
    edit(cli, db, "add British 1 carrier 111 Sea Zone\nadd British 1 fighter, 1 tac 111 Sea Zone\n")
    units = cli.json("status", db)["territories"]["111 Sea Zone"]["units"]["British"]
    assert units["carrier"] == 1 and units["fighter"] == 1 and units["tactical_bomber"] == 1
