"""The command line as a player and a host use it: new, submit, adjudicate, status, report, rolls, demo."""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator import dice
from adjudicator.store.schema import SCHEMA_VERSION
from conftest import G40AU_208, TEST_SEED
from older_schema import as_schema, columns

pytestmark = pytest.mark.slow

GERMAN_TURN = """\
buy 2 inf, 1 arm
cm 3 inf, 1 art, 1 arm Poland > Belarus
retreat Belarus > Poland if attackers < 3
ncm 2 inf Germany > Poland
place 2 inf, 1 arm Germany
end
"""


def table_count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute(f"select count(*) from {table}").fetchone()[0]


# -- new -------------------------------------------------------------------------------------------

def test_new_demo_status_json_has_the_normative_shape(cli, demo_db):
    st = cli.json("status", demo_db)
    for key in ("game", "name", "round", "power", "phase", "turn_index", "anchor", "powers", "territories", "state_hash"):
        assert key in st
    assert (st["game"], st["name"], st["round"], st["power"], st["phase"], st["turn_index"]) == ("t1", "demo", 1, "Germans", "purchase", 1)
    assert st["powers"]["Germans"] == {**st["powers"]["Germans"], "treasury": 30, "income": 15, "at_war_with": ["Russians"]}
    assert st["territories"]["Poland"] == {"owner": "Germans", "units": {"Germans": {"infantry": 3, "artillery": 1, "armour": 1}}}
    assert st["anchor"] == dice.hexb(dice.anchor(bytes.fromhex(TEST_SEED)))
    assert "3 Sea Zone" in st["territories"] and st["territories"]["3 Sea Zone"]["owner"] is None


def test_new_g40_alt_universe_from_the_208_xml(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208)
    st = cli.json("status", db)
    treasuries = [st["powers"][p]["treasury"] for p in
                  ("Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "Italians", "ANZAC", "French")]
    assert treasuries == [44, 42, 30, 58, 12, 45, 14, 12, 16]
    assert st["power"] == "Germans" and st["name"] == "g40-alt-universe" and st["rules"] == "beta-1.3"
    assert st["territories"]["UK21"]["owner"] == "Italians"
    assert st["territories"]["C4"]["units"]["Chinese"] == {"fighter": 1, "infantryC": 6}
    units = sum(n for t in st["territories"].values() for per in t["units"].values() for n in per.values())
    assert units == 830
    assert st["powers"]["British"]["at_war_with"] == ["Italians", "Pro_Axis", "Independent_Neutral"] or \
        set(st["powers"]["British"]["at_war_with"]) == {"Italians", "Pro_Axis", "Independent_Neutral"}


def test_new_by_map_name_on_the_maps_path(cli, tmp_path, maps_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    cli("new", tmp_path / "au.db", "--game", "g40-alt-universe")           # the map of rules beta-1.3, found by name
    assert cli.json("status", tmp_path / "au.db")["title"].endswith("2.0.8")
    cli("new", tmp_path / "g40.db", "--game", "g40", "--map", "ww2global40_2nd_edition")
    assert cli.json("status", tmp_path / "g40.db")["power"] == "Germans"


@pytest.mark.parametrize("args, fragment", [
    (["--game", "chess"], "unknown game"),
    (["--game", "expanded-global"], "is played on TripleA's game XML ww2global40_2nd_edition.xml"),
    (["--game", "g40", "--map", "no/such/file.xml"], "no/such/file.xml"),
    (["--game", "g40"], "give --map"),
    (["--game", "demo", "--seed", "xyz"], "--seed"),
    (["--game", "demo", "--rules", "beta-1.3"], "no rule versions"),
    (["--game", "g40-alt-universe", "--rules", "beta-9"], "beta-1.3"),
    (["--game", "demo", "--player", "Martians=me@example.org"], "not a power"),
    (["--game", "demo", "--player", "GER=a", "--player", "Germans=b"], "names Germans twice"),
    (["--game", "demo", "--player", "GER=  "], "the contact is empty"),
    (["--game", "demo", "--id", "bad id!"], "game id"),
])
def test_new_with_bad_input_says_why_and_leaves_nothing(cli, tmp_path, args, fragment):
    db = tmp_path / "bad.db"
    r = cli("new", db, *args, code=2)
    assert fragment in r.output
    assert not db.exists()
    assert not list((tmp_path / "keys").glob("*.key")) if (tmp_path / "keys").exists() else True


@pytest.mark.parametrize("game, players, mover, other, can", [
    ("demo", (), "Germans", "Russians", "may file only standing orders now"),
    ("allies-vs-axis", ("--player", "UK=a", "--player", "Germany=b"), "British", "Germany",
     "keeps no orders between turns, so the Germans post their whole turn when it comes"),
])
def test_a_power_not_on_the_move_is_told_whose_turn_it_is(cli, game, players, mover, other, can):
    """Whatever phases a game's turns have, orders from a power that is not on the move are refused with the
    reason (they once crashed for a game whose turn has no purchase phase)."""
    cli("new", "g.db", "--game", game, "--seed", TEST_SEED, *players)
    refused = cli("submit", "g.db", "--power", other, "-", input="end\n", code=1)
    assert f"the {mover}" in refused.output and can in refused.output


def test_new_refuses_an_existing_file(cli, demo_db):
    before = demo_db.read_bytes()
    r = cli("new", demo_db, "--game", "demo", code=2)
    assert "already exists" in r.output
    assert demo_db.read_bytes() == before


def test_new_from_a_file_that_is_not_a_game_xml(cli, tmp_path):
    bad = tmp_path / "notes.xml"
    bad.write_text("<notes><note/></notes>")
    r = cli("new", tmp_path / "g.db", "--game", "g40", "--map", bad, code=2)
    assert "notes.xml" in r.output and not (tmp_path / "g.db").exists()


# -- submit ----------------------------------------------------------------------------------------

def test_submit_dry_run_prints_canonical_orders_and_stores_nothing(cli, demo_db):
    r = cli("submit", demo_db, "--power", "GER", "--dry-run", input="buy 2 infs\nmove 1 tank poland > belarus\n")
    assert "buy 2 infantry" in r.output and "cm 1 armour Poland > Belarus" in r.output
    assert table_count(demo_db, "submission") == 0


def test_submit_accepts_and_locks_then_refuses_a_second_turn_submission(cli, demo_db, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text(GERMAN_TURN)
    out = cli.json("submit", demo_db, orders, "--power", "Germans")
    assert out["accepted"] and out["sha256"] == hashlib.sha256(GERMAN_TURN.encode()).hexdigest()
    assert out["covers"] == ["purchase", "politics", "combat_move", "battle", "noncombat_move", "place", "end_turn"]
    r = cli("submit", demo_db, orders, "--power", "Germans", code=1)
    assert "already locked" in r.output


def test_rejected_submission_lists_every_error_and_changes_nothing(cli, demo_db):
    before = cli.json("status", demo_db)
    text = "buy 20 arm\ncm 1 inf Poland > Belarus > Smolensk\nncm 1 inf Germany > Moscow\n"
    out = cli.json("submit", demo_db, "--power", "Germans", input=text, code=1)
    assert not out["accepted"]
    assert [e["line"] for e in out["errors"]] == [1, 2, 3]
    assert {e["kind"] for e in out["errors"]} == {"illegal"}
    assert out["errors"][0]["rule"] == "BG-33"
    assert cli.json("status", demo_db) == before
    assert table_count(demo_db, "submission") == 0


def test_orders_out_of_turn_are_refused_but_standing_orders_are_kept(cli, demo_db):
    r = cli("submit", demo_db, "--power", "Russians", input="buy 1 inf\n", code=1)
    assert "it is the Germans' turn (round 1, purchase): Russians may file only standing orders now" in r.output
    cli("submit", demo_db, "--power", "Russians", input="ool art, inf\n")
    assert cli.json("status", demo_db)["state_hash"] != ""
    assert table_count(demo_db, "submission") == 1


def test_header_for_another_round_is_refused(cli, demo_db):
    r = cli("submit", demo_db, "--power", "Germans", input="round: 3\nbuy 1 inf\n", code=1)
    assert "round 3" in r.output


def test_submit_with_a_missing_orders_file(cli, demo_db):
    r = cli("submit", demo_db, "nothing.txt", "--power", "Germans", code=2)
    assert "nothing.txt" in r.output


# -- adjudicate, report, rolls --------------------------------------------------------------------

def test_a_whole_turn_with_a_battle_on_the_demo(cli, demo_db):
    cli("submit", demo_db, "--power", "Germans", input=GERMAN_TURN)
    r = cli("adjudicate", demo_db)
    assert "Belarus" in r.output and "battle:Belarus:r1:attacker" in r.output
    st = cli.json("status", demo_db)
    assert (st["round"], st["power"], st["phase"], st["turn_index"]) == (1, "Russians", "purchase", 2)
    groups = cli.json("rolls", demo_db)
    assert groups and all(g["turn"] == 1 for g in groups)
    seed = dice.chain_seed(bytes.fromhex(TEST_SEED), 1)
    for g in groups:      # every die recomputes from the revealed seed
        assert g["seed"] == seed.hex()
        assert g["values"] == dice.roll(seed, "t1", 1, g["label"], g["sides"], len(g["values"]))
    germans = st["powers"]["Germans"]
    owned = st["territories"]["Belarus"]["owner"]
    assert germans["treasury"] == 18 + 15 + (2 if owned == "Germans" else 0)
    assert cli("adjudicate", demo_db, code=1).output.count("nothing to adjudicate") == 1


@pytest.mark.parametrize("fmt, marker", [("markdown", "```"), ("bbcode", "[code]"), ("text", "adjudicator dice")])
def test_report_formats(cli, demo_db, fmt, marker):
    cli("submit", demo_db, "--power", "Germans", input=GERMAN_TURN)
    cli("adjudicate", demo_db)
    text = cli("report", demo_db, "--turn", "1", "--format", fmt).output
    assert marker in text and "Test dice" in text or "TEST DICE" in text
    assert dice.chain_seed(bytes.fromhex(TEST_SEED), 1).hex() in text


def test_report_before_anything_happened_and_for_an_unknown_turn(cli, demo_db):
    assert "nothing has been adjudicated" in cli("report", demo_db, code=2).output
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    cli("adjudicate", demo_db)
    assert "no report for turn 7" in cli("report", demo_db, "--turn", "7", code=2).output


def test_the_seed_stays_secret_until_the_turn_is_over(cli, demo_db):
    cli("submit", demo_db, "--power", "Germans", input="buy 1 inf\ncm 1 arm Poland > Belarus\n")
    out = cli("adjudicate", demo_db).output
    seed1 = dice.chain_seed(bytes.fromhex(TEST_SEED), 1).hex()
    assert seed1 not in out and "revealed when this turn is over" in out
    assert seed1 not in demo_db.read_bytes().decode("latin-1")
    assert cli.json("rolls", demo_db)[0]["seed"] is None
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    assert seed1 in cli("adjudicate", demo_db).output


def test_adjudicate_without_the_key_file_fails_cleanly(cli, demo_db, tmp_path):
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    for key in (tmp_path / "keys").glob("*.key"):
        key.unlink()
    before = cli.json("status", demo_db)
    r = cli("adjudicate", demo_db, code=2)
    assert "no longer roll" in r.output
    assert cli.json("status", demo_db) == before


@pytest.mark.parametrize("content, fragment", [
    (None, "no game database"),
    (b"hello, not a database", "not a SQLite database"),
    (b"SQLite format 3\x00" + b"\x00" * 200, "cannot be read"),
])
def test_commands_on_a_missing_or_corrupt_database(cli, tmp_path, content, fragment):
    db = tmp_path / "x.db"
    if content is not None:
        db.write_bytes(content)
    for command in (["status", db], ["report", db], ["rolls", db], ["adjudicate", db]):
        r = cli(*command, code=2)
        assert fragment in r.output, r.output


def test_a_sqlite_file_that_is_not_a_game(cli, tmp_path):
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as con:
        con.execute("create table t (x)")
    assert "not an adjudicator game" in cli("status", db, code=2).output


def test_a_whole_turn_with_a_land_battle_on_the_g40_alt_universe_map(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED, "--id", "au")
    orders = "war French\ncm 3 inf, 2 art, 2 arm G11 > F2\nend\n"
    assert cli.json("status", db)["territories"]["F2"]["owner"] == "French"
    cli("submit", db, "--power", "Germans", input=orders)
    out = cli("adjudicate", db).output
    assert "battle:F2:r1:attacker" in out and "war on France" in out
    st = cli.json("status", db)
    assert st["power"] == "Russians" and st["turn_index"] == 2
    assert "French" in st["powers"]["Germans"]["at_war_with"]
    f2 = st["territories"]["F2"]
    assert (f2["owner"] == "Germans") == ("French" not in f2["units"]) 


# -- demo ------------------------------------------------------------------------------------------

def test_demo_plays_a_round_with_battles(cli):
    out = cli("demo").output
    for power in ("Germans", "Russians", "Italians"):
        assert f"## {power} submit" in out
    assert out.count("battle:") >= 3 and "After round 1" in out


@pytest.mark.parametrize("fmt", ["bbcode", "text"])
def test_the_demo_in_bbcode_or_text_holds_no_markdown(cli, fmt):
    """The demo's own lines around its reports (headings, the orders filed, the standings) are written in the
    format asked for, as the reports are: a forum of BBCode shows no `#`, fence or backtick."""
    out = cli("demo", "--format", fmt).output
    assert "Germans submit" in out and "After round 1" in out and "buy 2 infantry, 1 armour" in out
    assert not re.search(r"^#|```|`|^\|", out, re.M), [line for line in out.splitlines() if re.search(r"^#|`|^\|", line)]
    if fmt == "bbcode":
        assert "[code]power: Germans" in out and "[b]After round 1[/b]" in out


def test_python_dash_m_runs_the_cli(tmp_path):
    r = subprocess.run([sys.executable, "-m", "adjudicator", "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and "adjudicate" in r.stdout


def test_players_contacts_are_kept_by_power_alias(cli, tmp_path):
    db = tmp_path / "p.db"
    cli("new", db, "--game", "demo", "--player", "GER=alice@example.org", "--player", "Russia=boris (forum)")
    powers = cli.json("status", db)["powers"]
    assert powers["Germans"]["contact"] == "alice@example.org"
    assert powers["Russians"]["contact"] == "boris (forum)"
    assert powers["Italians"]["contact"] == ""


def test_a_damaged_database_is_reported_in_one_paragraph_not_a_traceback(tmp_path, monkeypatch):
    db = tmp_path / "x.db"
    env = {**__import__("os").environ, "ADJUDICATOR_KEYS_DIR": str(tmp_path / "k")}
    subprocess.run([sys.executable, "-m", "adjudicator", "new", str(db), "--game", "demo"], check=True, env=env,
                   capture_output=True)
    with sqlite3.connect(db) as con:          # damage the stored scenario behind the adjudicator's back
        con.execute("update game set extra = 'not json'")
    r = subprocess.run([sys.executable, "-m", "adjudicator", "status", str(db)], capture_output=True, text=True, env=env)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "damaged" in r.stderr


def test_the_setup_hash_is_published_and_audit_names_it(cli, demo_db):
    setup = cli.json("status", demo_db)["setup_hash"]
    assert len(setup) == 64
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    cli("adjudicate", demo_db)
    for fmt in ("markdown", "bbcode", "text"):
        assert setup in cli("report", demo_db, "--format", fmt).output
    assert cli.json("audit", demo_db)["setup_hash"] == setup
    with sqlite3.connect(demo_db) as con:       # another start position gives another setup hash
        con.execute("update game_setup set initial_state = initial_state || ' '")
    assert cli.json("status", demo_db)["setup_hash"] != setup


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_every_report_header_carries_the_anchor_and_says_test_dice(cli, demo_db, fmt):
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    cli("adjudicate", demo_db)
    header = cli("report", demo_db, "--format", fmt).output.split("Purchase")[0]
    assert dice.hexb(dice.anchor(bytes.fromhex(TEST_SEED))) in header
    assert "test dice" in header.lower()


def test_a_schema_1_database_is_read_as_it_is_and_upgraded_by_the_first_write(cli, demo_db):
    setup = cli.json("status", demo_db)["setup_hash"]
    as_schema(demo_db, 1)
    assert cli.json("status", demo_db)["setup_hash"] == setup
    cli("audit", demo_db)
    with sqlite3.connect(demo_db) as con:
        assert con.execute("select value from meta").fetchall() == [("1",)]
    cli("submit", demo_db, "--power", "Russians", "-", input="ool inf, art\n")
    with sqlite3.connect(demo_db) as con:
        assert con.execute("select value from meta").fetchall() == [(str(SCHEMA_VERSION),)]
        assert {"snapshot", "map_art", "delivery", "game_setting", "game_setup"} <= {
            r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    assert cli.json("audit", demo_db)["setup_hash"] == setup
    with pytest.raises(sqlite3.IntegrityError), sqlite3.connect(demo_db) as con:
        con.execute("insert into submission (game_id, seq, power, kind, round, turn_index, phase, text, sha256, status, "
                    "created_at) select game_id, seq, power, kind, round, turn_index, phase, text, sha256, status, "
                    "created_at from submission")           # a second row numbered 1 is now impossible


def test_a_schema_3_database_is_read_as_it_is_and_upgraded_by_the_first_write(cli, played_demo, tmp_path):
    """Schema 4 moved the setup out of the game row: a game of schema 3 is read from its row, unchanged, until a
    command writes; then its setup is in game_setup, the old columns are gone, and it audits with the same hash."""
    from adjudicator.demo import SCRIPT
    db = tmp_path / "game.db"
    shutil.copy(played_demo / "game.db", db)
    shutil.copytree(played_demo / "keys", tmp_path / "keys", dirs_exist_ok=True)
    status, audit, report = cli.json("status", db), cli.json("audit", db), cli("report", db).output
    with sqlite3.connect(db) as con:
        setup = con.execute("select scenario, initial_state from game_setup").fetchall()
    as_schema(db, 3)
    assert "scenario" in columns(db, "game") and "game_setup" not in table_names(db)
    written = db.read_bytes()
    assert cli.json("status", db) == status
    assert cli.json("audit", db) == audit and audit["ok"]
    assert cli("report", db).output == report
    cli("rolls", db, "--json")
    assert db.read_bytes() == written                         # read as it is: not upgraded, nothing written

    cli("submit", db, "--power", "Russians", "-", input=SCRIPT["Russians"])
    with sqlite3.connect(db) as con:
        assert con.execute("select value from meta").fetchall() == [(str(SCHEMA_VERSION),)]
        assert con.execute("select scenario, initial_state from game_setup").fetchall() == setup
    assert "scenario" not in columns(db, "game") and "initial_state" not in columns(db, "game")
    assert cli.json("status", db)["setup_hash"] == status["setup_hash"]
    cli("adjudicate", db)
    after = cli.json("audit", db)
    assert after["ok"] and after["setup_hash"] == audit["setup_hash"] and after["submissions"] == audit["submissions"] + 1
    assert cli("report", db, "--turn", "1").output == report


def test_an_sqlite_without_drop_column_empties_the_old_setup_columns(cli, demo_db, monkeypatch):
    """SQLite before 3.35 cannot drop a column: the upgrade empties the game row's setup columns instead."""
    from adjudicator.store import db
    setup = cli.json("status", demo_db)["setup_hash"]
    as_schema(demo_db, 3)
    monkeypatch.setattr(db, "sqlite_drops_columns", lambda: False)
    cli("submit", demo_db, "--power", "Russians", "-", input="ool inf, art\n")
    with sqlite3.connect(demo_db) as con:
        assert con.execute("select scenario, initial_state from game").fetchall() == [("", "")]
        assert con.execute("select value from meta").fetchall() == [(str(SCHEMA_VERSION),)]
    assert cli.json("status", demo_db)["setup_hash"] == setup
    assert cli.json("audit", demo_db)["setup_hash"] == setup


def test_an_upgrade_that_cannot_be_made_changes_nothing(cli, demo_db):
    """The upgrade is one transaction: a schema-1 journal that numbers a submission twice cannot be given its unique
    numbers, so the database stays as it was, setup in the game row included, and says why."""
    as_schema(demo_db, 1)
    with sqlite3.connect(demo_db) as con:
        con.execute("insert into submission (game_id, seq, power, kind, round, turn_index, phase, text, sha256, status, "
                    "created_at) values ('t1', 1, 'Germans', 'standing', 1, 1, 'purchase', 'ool inf', '', 'done', '')")
        con.execute("insert into submission (game_id, seq, power, kind, round, turn_index, phase, text, sha256, status, "
                    "created_at) select game_id, seq, power, kind, round, turn_index, phase, text, sha256, status, "
                    "created_at from submission")
    before = demo_db.read_bytes()
    out = cli("submit", demo_db, "--power", "Russians", "-", input="ool inf\n", code=2).output
    assert "cannot be brought to schema" in out and "numbers a submission or a step twice" in out
    assert demo_db.read_bytes() == before and "scenario" in columns(demo_db, "game")


def table_names(db: Path) -> set[str]:
    with sqlite3.connect(db) as con:
        return {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}


@pytest.mark.parametrize("command", [["report"], ["rolls"], ["map", "-o", "x.png"], ["post"], ["mail"],
                                     ["map", "-o", "x.png", "--width"]])
@pytest.mark.parametrize("number", ["9223372036854775808", "-9223372036854775809", "2147483648"])
def test_an_integer_option_beyond_what_a_database_holds_is_refused_by_the_parser(cli, demo_db, command, number):
    """`--turn 9223372036854775808` reached SQLite as an OverflowError: an internal error (exit 3)."""
    args = [*command, number] if command[-1] == "--width" else [*command, "--turn", number]
    r = cli(args[0], demo_db, *args[1:], code=2)
    said = " ".join(r.output.replace("│", " ").split())                 # out of typer's box, unwrapped
    assert f"{number} is not in the range -2147483647<=x<=2147483647" in said and "internal error" not in said
