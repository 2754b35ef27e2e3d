"""Leagues on PostgreSQL: one database holds many games, each command works on the one `--id` names, `games` lists
them, `copy` moves a game between a SQLite file and a league and back (and it still audits), and a URL that
cannot be served says why (issue 13, item 2). The server is the test session's own (tests/pgserver.py)."""

from __future__ import annotations

import json
import sqlite3
import sys

import pytest

from adjudicator.demo import SCRIPT
from adjudicator.store.schema import SCHEMA_VERSION
from older_schema import as_schema, columns, schema_version, sql

TEST_SEED = "00" * 31 + "01"
OTHER_SEED = "00" * 31 + "02"


@pytest.fixture
def orders(tmp_path):
    for power, text in SCRIPT.items():
        (tmp_path / f"{power}.txt").write_text(text)
    return tmp_path


def ids(out: dict) -> list[str]:
    return [g["game"] for g in out["games"]]


def test_two_games_in_one_league_through_the_cli(cli, league, orders):
    made = cli("new", league, "--game", "demo", "--seed", TEST_SEED, "--id", "east").output
    assert "created game east" in made and league in made
    cli("new", league, "--game", "demo", "--seed", OTHER_SEED, "--id", "west", "--dice", "strict")

    # Several games: a command must be told which, and is told the ids; an unknown id is refused the same way.
    for args in (["status", league], ["submit", league, "--power", "Germans", orders / "Germans.txt"],
                 ["adjudicate", league], ["audit", league], ["rolls", league]):
        out = cli(*args, code=2).output
        assert "holds 2 games (east, west)" in out and "--id" in out, out
    out = cli("status", league, "--id", "north", code=2).output
    assert "no game with the id 'north'" in out and "east, west" in out
    out = cli("new", league, "--game", "demo", "--id", "east", code=2).output
    assert "already holds a game with the id east" in out

    cli("submit", league, "--id", "east", "--power", "Germans", orders / "Germans.txt")
    cli("submit", league, "--id", "west", "--power", "Germans", orders / "Germans.txt")
    assert [g["awaiting"] for g in cli.json("games", league)["games"]] == ["adjudicate", "salts from Russians, Italians"]
    report = cli("adjudicate", league, "--id", "east").output
    assert "Game `east` · turn 1" in report and "Orders adjudicated: Germans, submission 1" in report
    cli("edit", league, "--id", "east", "-", "--reason", "a league correction", input="pus Italians 20\n")

    east, west = cli.json("status", league, "--id", "east"), cli.json("status", league, "--id", "west")
    assert (east["game"], east["turn_index"], east["power"], east["powers"]["Italians"]["treasury"]) == \
        ("east", 2, "Russians", 20)
    assert (west["game"], west["turn_index"], west["power"], west["awaiting"]) == \
        ("west", 1, "Germans", "salts from Russians, Italians")
    assert east["territories"] != west["territories"] or east["state_hash"] != west["state_hash"]

    listed = cli.json("games", league)
    assert listed["database"] == league and ids(listed) == ["east", "west"]
    assert [(g["round"], g["power"], g["phase"], g["turn_index"], g["awaiting"]) for g in listed["games"]] == \
        [(1, "Russians", "purchase", 2, "orders from Russians"), (1, "Germans", "purchase", 1, "salts from Russians, Italians")]
    text = cli("games", league).output.splitlines()
    assert text[0] == f"2 games in {league}"
    assert text[2].split()[:6] == ["east", "demo", "1", "Russians,", "purchase", "(2)"]
    assert "orders from Russians" in text[2] and "salts from Russians, Italians" in text[3]

    rolls = cli.json("rolls", league, "--id", "east")
    assert rolls and {r["game"] for r in rolls} == {"east"}
    assert cli.json("rolls", league, "--id", "west") == []
    assert "Game east · turn 1" in cli("report", league, "--id", "east", "--turn", "1", "--format", "text").output
    assert "nothing" in cli("report", league, "--id", "west", code=2).output
    picture = cli.json("map", league, "--id", "east", "-o", orders / "east.png")
    assert picture["width"] > 0 and (orders / "east.png").stat().st_size > 0
    assert "ADJUDICATOR_SMTP_HOST" in cli("mail", league, "--id", "west", code=2).output
    for gid in ("east", "west"):
        audit = cli.json("audit", league, "--id", gid)
        assert audit["ok"] and audit["game"] == gid


def test_games_lists_a_files_game_and_without_a_database_the_games_one_can_create(cli, demo_db, monkeypatch):
    names = cli.json("games")["games"]
    by_name = {g["name"]: g for g in names}
    assert list(by_name)[:3] == ["demo", "g40", "g40-alt-universe"]
    assert by_name["demo"]["playable"] and not by_name["demo"]["needs_map"]
    assert by_name["g40-alt-universe"]["rules"] == ["beta-1.3", "beta-1.1"] and by_name["g40-alt-universe"]["needs_map"]
    assert "war-time-production-5" in by_name["g40-alt-universe"]["options"]
    assert by_name["apone-europe"]["playable"] and by_name["apone-europe"]["made_from"] == "europe_improved"
    text = cli("games").output
    assert "g40-alt-universe: G40 Alt-Universe; on a TripleA map (--map); rules beta-1.3, beta-1.1" in text
    from adjudicator import games
    monkeypatch.setitem(games.GAMES, "next-game", None)          # a game recognised before it can be played
    assert "next-game: not playable yet" in cli("games").output
    assert "the game 'next-game' is not playable yet" in cli("new", "x.db", "--game", "next-game", code=2).output

    monkeypatch.setenv("ADJUDICATOR_DB", str(demo_db))
    listed = cli.json("games")
    assert ids(listed) == ["t1"] and listed["games"][0]["awaiting"] == "orders from Germans"


def test_without_the_driver_a_postgresql_url_says_what_to_install(cli, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "psycopg", None)          # import psycopg now fails, as when it is missing
    url = f"postgresql://host@/league?host={tmp_path}"
    for args in (["status", url], ["new", url, "--game", "demo", "--id", "x"], ["games", url],
                 ["copy", "nothing.db", url], ["status", url.replace("postgresql:", "postgres:")]):
        result = cli(*args, code=2)
        assert "install the driver: pip install 'adjudicator[postgres]'" in result.output, result.output
        assert "Traceback" not in result.output and "internal error" not in result.output
    assert not (tmp_path / "keys").exists() or not any((tmp_path / "keys").iterdir())


def test_a_server_that_cannot_serve_the_url_says_why_and_never_prints_the_password(cli, pg_server, tmp_path):
    nowhere = f"postgresql://postgres:hunter2@/league?host={tmp_path}"
    out = cli("status", nowhere, code=2).output
    assert "cannot connect to the database postgresql://postgres:***@/league" in out and "hunter2" not in out
    out = cli("new", nowhere, "--game", "demo", "--id", "x", code=2).output
    assert "cannot connect" in out and "hunter2" not in out
    out = cli("status", pg_server.url("no_such_league"), code=2).output
    assert "cannot connect" in out and '"no_such_league" does not exist' in out
    out = cli("status", pg_server.url().replace("postgres@", "nobody:hunter2@"), code=2).output
    assert 'role "nobody" does not exist' in out and "hunter2" not in out
    out = cli("status", pg_server.url(), code=2).output
    assert "not an adjudicator game" in out
    out = cli("status", "mysql://host/league", code=2).output
    assert "a SQLite file path or a postgresql:// URL" in out


def play(cli, db, orders, *powers, game=()):
    for power in powers:
        cli("submit", db, *game, "--power", power, orders / f"{power}.txt")
        cli("adjudicate", db, *game)


def test_a_game_moves_from_a_file_into_the_league_and_back_and_still_audits(cli, league, orders, tmp_path):
    source = tmp_path / "kursk.db"
    cli("new", source, "--game", "demo", "--seed", TEST_SEED, "--id", "kursk")
    cli("submit", source, "--power", "Russians", "-", input="ool inf, art, arm\n")
    play(cli, source, orders, "Germans")
    # The league already holds a game with a journal, so the copy's row ids are numbered after its rows.
    cli("new", league, "--game", "demo", "--seed", OTHER_SEED, "--id", "other")
    play(cli, league, orders, "Germans", game=("--id", "other"))
    first = cli.json("audit", source)

    out = cli.json("copy", source, league)
    assert (out["game"], out["state_hash"]) == ("kursk", first["state_hash"])
    assert out["rows"]["submission"] == 2 and out["rows"]["step"] == first["steps"]
    moved = cli.json("audit", league, "--id", "kursk")
    assert moved["ok"] and moved["state_hash"] == first["state_hash"] and moved["orders"] == first["orders"]
    assert cli.json("rolls", league, "--id", "kursk") == cli.json("rolls", source)
    assert cli("report", league, "--id", "kursk", "--turn", "1").output == cli("report", source, "--turn", "1").output
    assert ids(cli.json("games", league)) == ["kursk", "other"]

    # Play on in the league: the key file serves the copy (it is found by the game's id and anchor).
    play(cli, league, orders, "Russians", game=("--id", "kursk"))
    now = cli.json("status", league, "--id", "kursk")
    assert now["turn_index"] == 3 and now["power"] == "Italians"

    back = tmp_path / "back.db"
    out = cli.json("copy", league, back, "--id", "kursk")
    assert out["state_hash"] == now["state_hash"] == cli.json("audit", back)["state_hash"]
    assert cli.json("status", back) == now
    assert cli.json("audit", back)["setup_hash"] == moved["setup_hash"] == first["setup_hash"]      # the setup too
    setup = "select scenario, initial_state from game_setup"
    assert sql(back, setup) == sql(source, setup) == sql(league, f"{setup} where game_id = 'kursk'")
    assert cli.json("audit", league, "--id", "other")["ok"]

    # An id the league holds already, and a file that exists, are refused, changing nothing.
    before = cli.json("games", league)
    out = cli("copy", source, league, code=2).output
    assert "already holds a game with the id kursk" in out
    assert cli.json("games", league) == before and cli.json("status", league, "--id", "kursk") == now
    back_bytes = back.read_bytes()
    assert "already exists" in cli("copy", league, back, "--id", "other", code=2).output
    assert back.read_bytes() == back_bytes
    out = cli("copy", league, tmp_path / "which.db", code=2).output
    assert "holds 2 games (kursk, other)" in out and not (tmp_path / "which.db").exists()


def test_a_copy_that_fails_half_way_leaves_nothing_behind(cli, league, orders, tmp_path):
    source = tmp_path / "bad.db"
    cli("new", source, "--game", "demo", "--seed", TEST_SEED, "--id", "bad")
    play(cli, source, orders, "Germans")
    with sqlite3.connect(source) as con:           # a dice group that points at no step: found after the steps
        con.execute("update dice_group set step_id = 999 where id = (select max(id) from dice_group)")
    cli("new", league, "--game", "demo", "--id", "other")
    for dst in (league, tmp_path / "copy.db"):
        out = cli("copy", source, dst, code=2).output
        assert "dice_group rows point at step row 999" in out and "nothing was copied" in out
    assert ids(cli.json("games", league)) == ["other"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".txt") == ["bad.db", "keys"]


def test_a_league_that_cannot_be_chosen_from_is_refused_before_anything_is_read(cli, league):
    out = cli("status", league, code=2).output
    assert "not an adjudicator game" in out
    cli("new", league, "--game", "demo", "--id", "only")
    assert cli.json("status", league)["game"] == "only"              # the only game needs no --id
    assert json.loads(cli("games", league, "--json").output)["games"][0]["game"] == "only"


def test_a_game_file_of_an_older_schema_joins_a_league(cli, league, demo_db, orders):
    play(cli, demo_db, orders, "Germans")
    setup = sql(demo_db, "select scenario, initial_state from game_setup")
    as_schema(demo_db, 1)          # as schema 1 wrote it: the setup in the game row; no snapshots, map art, deliveries
    out = cli.json("copy", demo_db, league)
    assert "snapshot" not in out["rows"] and out["rows"]["step"] > 0 and out["rows"]["game_setup"] == 1
    assert schema_version(demo_db) == 1                          # the source is only read
    assert cli.json("audit", league)["state_hash"] == cli.json("audit", demo_db)["state_hash"] == out["state_hash"]
    assert cli.json("audit", league)["setup_hash"] == cli.json("audit", demo_db)["setup_hash"]
    assert sql(league, "select scenario, initial_state from game_setup") == setup
    play(cli, league, orders, "Russians")
    assert cli.json("audit", league)["ok"]


def test_a_league_of_schema_3_is_read_as_it_is_and_upgraded_by_the_first_write(cli, league, orders):
    """Schema 4 moved every game's setup out of its row, on PostgreSQL as on SQLite: read from the row until a command
    writes, then from game_setup, with the same setup hash; the games audit."""
    cli("new", league, "--game", "demo", "--seed", TEST_SEED, "--id", "east")
    cli("new", league, "--game", "demo", "--seed", OTHER_SEED, "--id", "west")
    play(cli, league, orders, "Germans", game=("--id", "east"))
    status = {gid: cli.json("status", league, "--id", gid) for gid in ("east", "west")}
    report = cli("report", league, "--id", "east").output
    setups = sql(league, "select game_id, scenario, initial_state from game_setup order by game_id")
    as_schema(league, 3)
    assert "scenario" in columns(league, "game")
    for gid in status:
        assert cli.json("status", league, "--id", gid) == status[gid]
        assert cli.json("audit", league, "--id", gid)["setup_hash"] == status[gid]["setup_hash"]
    assert cli("report", league, "--id", "east").output == report
    assert ids(cli.json("games", league)) == ["east", "west"]
    assert schema_version(league) == 3

    play(cli, league, orders, "Russians", game=("--id", "east"))
    assert schema_version(league) == SCHEMA_VERSION
    assert "scenario" not in columns(league, "game") and "initial_state" not in columns(league, "game")
    assert sql(league, "select game_id, scenario, initial_state from game_setup order by game_id") == setups
    for gid in status:
        audit = cli.json("audit", league, "--id", gid)
        assert audit["ok"] and audit["setup_hash"] == status[gid]["setup_hash"]
    assert cli("report", league, "--id", "east", "--turn", "1").output == report
