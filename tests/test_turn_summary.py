"""The report's summary of a turn (issue 32): the territories that changed hands, the victory cities each side
holds against what it needs, and the damaged ships and facilities, in every format."""

from __future__ import annotations

import json
import re
import sqlite3

from adjudicator.demo import SCRIPT

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
FORMATS = ("markdown", "bbcode", "text")


def play(cli, db, tmp_path, power: str) -> None:
    (tmp_path / f"{power}.txt").write_text(SCRIPT[power])
    cli("submit", db, "--power", power, tmp_path / f"{power}.txt")
    cli("adjudicate", db)


def test_the_report_lists_what_changed_hands_and_the_damage(cli, demo_db, tmp_path):
    play(cli, demo_db, tmp_path, "Germans")
    cli("edit", demo_db, "-", "--reason", "a raid the host forgot", input="damage Germany factory_major 3\n")
    play(cli, demo_db, tmp_path, "Russians")
    for fmt in FORMATS:
        first = cli("report", demo_db, "--turn", 1, "--format", fmt).output
        # Belarus taken; the attack on the Baltic States retreated (the test dice), so it did not change hands
        assert "Changed hands this turn: Belarus (Russians → Germans)." in first
        second = cli("report", demo_db, "--format", fmt).output
        assert "Changed hands this turn: Romania (Italians → Russians)." in second
        assert "Damaged: Germany: the Germans' major factory (3 damage)." in second
        assert "Victory cities" not in second               # the demo's map has none
    # the turn before was reported before the damage: it says nothing of it, then or now
    assert "Damaged" not in cli("report", demo_db, "--turn", 1).output
    play(cli, demo_db, tmp_path, "Italians")            # a later turn: the report of turn 2 still says it
    assert "Damaged: Germany: the Germans' major factory (3 damage)." in cli("report", demo_db, "--turn", 2).output
    cli("audit", demo_db)


def test_audit_takes_a_snapshot_without_damage_only_from_older_templates(cli, demo_db, tmp_path):
    """A game played before snapshots kept the damage still audits; a damage dropped from a newer one does not."""
    play(cli, demo_db, tmp_path, "Germans")
    cli("edit", demo_db, "-", "--reason", "a raid the host forgot", input="damage Germany factory_major 3\n")
    play(cli, demo_db, tmp_path, "Russians")
    with sqlite3.connect(demo_db) as con:
        (data,) = con.execute("SELECT data FROM snapshot WHERE turn_index = 2").fetchone()
        kept = json.loads(data)
        del kept["damaged"]
        con.execute("UPDATE snapshot SET data = ? WHERE turn_index = 2", (json.dumps(kept, sort_keys=True),))
    assert "snapshot of turn 2" in cli("audit", demo_db, code=1).output
    with sqlite3.connect(demo_db) as con:
        con.execute("UPDATE report SET template_version = 2")
    assert cli.json("audit", demo_db)["ok"]


def test_a_turn_without_captures_has_no_changed_hands_line(cli, demo_db, tmp_path):
    for power in ("Germans", "Russians", "Italians"):
        play(cli, demo_db, tmp_path, power)
    assert "Changed hands" not in cli("report", demo_db, "--turn", 3).output


def test_the_victory_cities_of_g40_alt_universe_are_counted_against_what_each_side_needs(cli, tmp_path, maps_dir,
                                                                                       monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--seed", "11" * 32)
    (tmp_path / "g.txt").write_text("buy 1 inf\nplace 1 inf G15\nend\n")
    cli("submit", db, "--power", "Germans", tmp_path / "g.txt")
    report = cli("adjudicate", db, "--format", "text").output
    status = cli.json("status", db)
    cities = [line for line in report.splitlines() if "Victory cities:" in line]
    assert len(cities) == 1, report
    # the Axis start with 6 of the 23 cities: G5, G15, I1, J6, J9, J14
    assert cities == ["  * Victory cities: the Axis hold 6 of the 14 needed [AU-02], for a whole round; the Allies "
                      "need the Axis to hold fewer than 6 [AU-03] or fewer than 8 from round 8 [AU-04], for a whole "
                      "round."]
    assert status["round"] == 1


def test_a_turn_in_parts_lists_what_changed_hands_in_every_part(cli, demo_db, tmp_path):
    play(cli, demo_db, tmp_path, "Germans")
    (tmp_path / "r1.txt").write_text("buy 4 inf\ncm 3 inf, 1 art Ukraine > Romania\n")
    cli("submit", demo_db, "--power", "Russians", tmp_path / "r1.txt")
    first = cli("adjudicate", demo_db).output
    assert "Changed hands this turn: Romania (Italians → Russians)." in first
    (tmp_path / "r2.txt").write_text("ncm 2 inf Moscow > Smolensk\nplace 4 inf Moscow\nend\n")
    cli("submit", demo_db, "--power", "Russians", tmp_path / "r2.txt")
    assert "Changed hands this turn: Romania (Italians → Russians)." in cli("adjudicate", demo_db).output
    assert cli.json("audit", demo_db)["ok"]


def test_the_victory_cities_of_g40_second_edition_are_counted_against_the_maps_triggers(cli, tmp_path, maps_dir):
    """At the start of 1940 the Axis holds Berlin, Warsaw, Rome, Tokyo and Shanghai; France is still French."""
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", "11" * 32)
    (tmp_path / "g.txt").write_text("buy 1 inf\nplace 1 inf Germany\nend\n")
    cli("submit", db, "--power", "Germans", tmp_path / "g.txt")
    cities = [line for line in cli("adjudicate", db, "--format", "text").output.splitlines()
              if "Victory cities" in line]
    assert cities == ["  * Victory cities: the Axis hold 3 of the 8 needed in Europe or 2 of the 6 needed in the "
                      "Pacific, and 3 (1 needed) among Germany, Southern Italy, Japan, for a whole round; the Allies "
                      "hold 4 (1 needed) among United Kingdom, Russia, France, Eastern United States, and 0 of the "
                      "3 needed among Germany, Southern Italy, Japan, for a whole round."]
    # a report written by the templates before the count per goal (version 3) is compared by its proof; the same
    # old line in a report of this version is a report that was changed
    old = ("Victory cities held: the Axis 5, the Allies 14, of 19; to win, the Axis: (8 of United Kingdom, …) and "
           "1 of Germany, Southern Italy, Japan for a whole round [victory]; the Allies: … [victory].")
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT text FROM report").fetchone()
        con.execute("UPDATE report SET text = ?", (re.sub(r"Victory cities: [^\n]*", old, text),))
    assert "report 1" in cli("audit", db, code=1).output
    with sqlite3.connect(db) as con:
        con.execute("UPDATE report SET template_version = 3")
    assert cli.json("audit", db)["ok"]

