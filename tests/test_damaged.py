"""A game database damaged on disk or edited by hand: every command says what is wrong (exit 2) and changes
nothing, never an internal error (issue: integrity, damaged databases). The damage × command matrix runs on a
SQLite file and, for the damage a PostgreSQL database can hold (its columns keep their types), on a league."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.delivery import nodebb
from adjudicator.demo import SCRIPT
from adjudicator.store.db import url_of

pytestmark = pytest.mark.slow

# `post` and `mail` go to a forum and a mail server on loopback where nothing listens (they fail on delivery,
# exit 4, but must not crash)
COMMANDS = (["status"], ["status", "--json"], ["games"], ["report"], ["rolls"], ["audit"],
            ["map", "--turn", "1", "-o", "turn.png"], ["submit", "--power", "Russians", "orders.txt"],
            ["adjudicate"], ["edit", "fix.txt", "--reason", "a test"], ["post", "--turn", "1", "--no-picture"],
            ["mail", "--turn", "1", "--no-picture"], ["contact", "--player", "Germans=fritz@example.org"])
# What `post` and `mail` read besides the game: a topic, a player's address, and the intents of turn 1's report to
# both whose answers never came (so that each reads its records and goes on to send, writing nothing)
INTENT = ("insert into delivery (game_id, turn_index, step, channel, part, parts, target, ref, created_at) values "
          "('dmg', 1, (select max(seq) from step where turn_index = 1), '{}', 1, 1, '{}', '', '2026')")
TOPIC = ("insert into game_setting (game_id, key, value) values ('dmg', 'nodebb_topic', '12');"
         "update power set contact = 'hans@example.org' where name = 'Germans';"
         + INTENT.format("nodebb", "12") + ";" + INTENT.format("mail", "hans@example.org"))


def flip_a_page(db):
    data = bytearray(db.read_bytes())
    for i in range(3 * 4096, 3 * 4096 + 200):
        data[i] ^= 0xFF
    db.write_bytes(data)


def truncate(db):
    db.write_bytes(db.read_bytes()[: 5 * 4096 + 100])


DAMAGE = {
    "damaged page": (flip_a_page, "damaged"),
    "truncated file": (truncate, "damaged"),
    "bytes that are not UTF-8 in a column": ("update step set events = cast(x'fffe0041' as text)", "damaged"),
    "odd schema version": ("update meta set value = 'x1' where key = 'schema_version'", "schema version"),
    "schema version 0": ("update meta set value = '0' where key = 'schema_version'", "schema version"),
    "no schema version": ("delete from meta", "no schema version"),
    "newer schema": ("update meta set value = '99' where key = 'schema_version'", "newer adjudicator"),
    "dropped table": ("drop table dice_group", "dice_group are missing"),
    "malformed anchor": ("update game set anchor = 'not hex'", "anchor"),
    "negative chain length": ("update game set chain_length = -5", "chain_length"),
    "turn beyond the chain": ("update game set turn_index = 5000", "turn_index"),
    "dice mode": ("update game set dice_mode = 'loaded'", "dice_mode"),
    "state that is not JSON": ("update game set extra = '{'", "damaged"),
    "unit flags that are not JSON": ("update unit set flags = '[' where id = 1", "damaged"),
    "a treasury that is not a number": ("update power set treasury = 'Germans' where name = 'Russians'",
                                        "treasury of Russians must be a whole number"),
    "a treasury of a fraction": ("update power set treasury = 3.5", "must be a whole number"),
    "a unit's damage that is not a number": ("update unit set damage = 'x' where id = 1", "unit 1 must have"),
    "a unit's owner that is not text": ("update unit set owner = x'fffe' where id = 2", "column owner of the row id 2"),
    "a carrier id that is not a number": ("update unit set carried_by = 3.5 where id = 3", "unit 3 must have"),
    "events that are not JSON": ("update step set events = '{'", "damaged"),
    "events of the wrong shape": ("update step set events = '[{\"type\": \"move\"}]'", "damaged"),
    "two games in one file": ("insert into game select 'other', name, title, rules_version, anchor, chain_length, "
                              "dice_mode, test_seed, salts_required, round, power, phase, turn_index, extra, "
                              "state_hash, created_at from game", "2 games"),
    "setup row deleted": ("delete from game_setup", "the setup of game dmg (its scenario and initial state, in the "
                                                    "table game_setup) is missing"),
    "setup table dropped": ("drop table game_setup", "game_setup are missing"),
    "setup of another game": ("pragma foreign_keys = off; update game_setup set game_id = 'other'", "setup of game dmg"),
    "no game": ("pragma foreign_keys = off; delete from game", "no game"),
}

# Damage a PostgreSQL database can hold as well (the SQL runs on both); "…" stands for what each backend can store
PORTABLE = {
    "a standing order that is not a list": ("update game set extra = replace(extra, '\"standing\": ', "
                                            "'\"standing\": {\"Germans\": {\"ool\": 5}}, \"was\": ')", "standing orders"),
    "a next unit id that is not a number": ("update game set extra = replace(extra, '\"next_unit_id\": ', "
                                            "'\"next_unit_id\": \"x\", \"was\": ')", "next_unit_id"),
    "purchases of a type the map has not": ("update game set extra = replace(extra, '\"purchases\": ', "
                                            "'\"purchases\": {\"Russians\": {\"dragon\": 1}}, \"was\": ')",
                                            "purchases"),
    "an unknown territory in the owners table": ("update territoryowner set territory = 'Atlantis' "
                                                 "where territory = 'Poland'", "territory 'Atlantis'"),
    "an owner that is no power": ("update territoryowner set owner = 'Martians' where territory = 'Poland'",
                                  "'Martians'"),
    "an unknown unit type": ("update unit set type = 'dragon' where id = 1", "unit 1 is a 'dragon'"),
    "a bit flip in a unit type": ("update unit set type = substr(type, 1, length(type) - 1) || '~' where id = 2",
                                  "unit 2 is a"),
    "an unknown place": ("update unit set place = 'Atlantis' where id = 3", "in 'Atlantis'"),
    "a unit aboard a unit that is not there": ("update unit set carried_by = 99999 where id = 4", "aboard unit 99999"),
    "a unit of no power": ("update unit set owner = 'Martians' where id = 5", "of 'Martians'"),
    "a negative move": ("update unit set moved = -3 where id = 6", "unit 6 must have"),
    "a treasury beyond the bound": ("update power set treasury = 2147483647 where name = 'Russians'",
                                    "treasury of Russians is 2,147,483,647"),
    "a negative treasury": ("update power set treasury = -5 where name = 'Russians'", "beyond 0 to"),
    "a phase that is not a phase": ("update game set phase = 'teatime'", "phase 'teatime'"),
    "a turn of no power": ("update game set power = 'Martians'", "'Martians'"),
    "a relationship of an unknown type": ("update relationship set type = 'Frenemies'", "'Frenemies'"),
    "a locked submission in no phase": ("insert into submission (game_id, seq, power, kind, round, turn_index, phase, "
                                        "text, sha256, status, created_at) select game_id, 99, 'Russians', kind, round, 2, "
                                        "'teatime', text, sha256, 'locked', created_at from submission where seq = 1",
                                        "phase 'teatime'"),
    "a kept position that is not one": ("update snapshot set data = '{}'", "position kept after turn 1"),
    "dice that are not a list": ("update dice_group set dice = '7'", "damaged"),
    "a forum topic that is not a number": ("update game_setting set value = 'x' where key = 'nodebb_topic'",
                                           "forum topic is 'x'"),
    "a delivered part beyond its count": ("update delivery set part = 5", "delivery record of turn 1"),
}
DAMAGE.update(PORTABLE)
DAMAGE.update({
    "a treasury of 2^63-1": ("update power set treasury = 9223372036854775807 where name = 'Russians'", "beyond 0 to"),
    "a blob in the title": ("update game set title = x'fffe'", "column title of the row id 'dmg' holds binary data"),
    "a blob in a power's name": ("update power set name = x'fffe' where name = 'Russians'", "column name"),
    "a blob in a revealed seed": ("update revealedseed set seed = x'fffe'", "column seed"),
    "a blob in a report": ("update report set text = x'fffe'", "column text"),
    "a blob in a contact": ("update power set contact = x'fffe'", "column contact"),
    "a phase that is a number": ("update game set phase = 3.5", "phase '3.5'"),
    "a submission numbered with text": ("update submission set seq = 'x'", "numbered up to 'x'"),
    "a step numbered with text": ("update step set seq = 'x' where seq = (select max(seq) from step)",
                                    "numbered up to 'x'"),
    "a kept position that is a number": ("update snapshot set data = 7", "position kept after turn 1"),
    "kept damage that is not a list of units": ("update snapshot set data = json_set(data, '$.damaged', 'x')",
                                                "position kept after turn 1"),
    "a unit id of 2^63-1": ("update unit set id = 9223372036854775807 where id = 7", "unit 9223372036854775807 must"),
    "a blob as a post id": ("update delivery set ref = x'00ff'", "delivery record of turn 1"),
    "a part count that is text": ("update delivery set parts = 'two'", "delivery record of turn 1"),
})


@pytest.fixture
def offline_forum(monkeypatch):
    """A forum address and a mail server on loopback where nothing listens, the forum tried once."""
    monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "token")
    monkeypatch.setattr(nodebb, "ATTEMPTS", 1)
    for key, value in {"HOST": "127.0.0.1", "PORT": "9", "SECURITY": "none", "FROM": "host@example.org"}.items():
        monkeypatch.setenv(f"ADJUDICATOR_SMTP_{key}", value)


def run_every_command(cli, db: str, fragment: str) -> bool:
    """Run COMMANDS on the damaged `db`: none crashes, each refusal names the damage; whether a command wrote."""
    failed, wrote = 0, False
    for command in COMMANDS:
        r = cli(command[0], db, *command[1:], code=None)
        assert r.exit_code in (0, 1, 2, 4), (command, r.exit_code, r.output, r.exception)
        assert "internal error" not in r.output and "Traceback" not in r.output, (command, r.output)
        if r.exit_code == 2:
            failed += 1
            assert fragment in r.output, (command, r.output)
        wrote |= r.exit_code == 0 and command[0] in ("submit", "adjudicate", "edit", "contact")
    assert failed, "some command must notice the damage"
    return wrote


def prepare(folder, played) -> None:
    shutil.copytree(played / "keys", folder / "keys", dirs_exist_ok=True)
    (folder / "orders.txt").write_text(SCRIPT["Russians"])
    (folder / "fix.txt").write_text("pus Russians 5\nadd Russians 1 inf Moscow\n")


@pytest.mark.parametrize("name", DAMAGE)
def test_every_command_names_the_damage_and_changes_nothing(cli, played_demo, tmp_path, offline_forum, name):
    damage, fragment = DAMAGE[name]
    db = tmp_path / "game.db"
    shutil.copy(played_demo / "game.db", db)
    prepare(tmp_path, played_demo)
    with sqlite3.connect(db) as con:
        con.executescript(TOPIC)
    if callable(damage):
        damage(db)
    else:
        with sqlite3.connect(db) as con:
            con.executescript(damage)
    before = db.read_bytes()
    if not run_every_command(cli, db, fragment):      # damage in the past journal does not stop play; `audit` names it
        assert db.read_bytes() == before


@pytest.fixture(scope="session")
def played_league(pg_server, played_demo) -> str:
    """A PostgreSQL database holding the played demo game (copied from the file), the template of each case."""
    name = pg_server.create_database()
    result = CliRunner().invoke(app, ["copy", str(played_demo / "game.db"), pg_server.url(name)])
    assert result.exit_code == 0, result.output
    for statement in TOPIC.split(";"):
        sql(pg_server.url(name), statement)
    return name


def sql(url: str, statement: str) -> list:
    """Rows of `statement`, committed (backends.Target.sql only reads)."""
    engine = create_engine(url_of(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement))
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


FINGERPRINT = ("select state_hash, (select count(*) from submission), (select count(*) from step), "
               "(select string_agg(name || treasury, ',' order by name) from power) from game")


@pytest.mark.parametrize("name", PORTABLE)
def test_every_command_names_the_damage_in_a_league(cli, pg_server, played_league, played_demo, tmp_path,
                                                    offline_forum, name):
    damage, fragment = PORTABLE[name]
    url = pg_server.url(pg_server.create_database(template=played_league))
    prepare(tmp_path, played_demo)
    sql(url, damage)
    before = sql(url, FINGERPRINT)
    if not run_every_command(cli, url, fragment):
        assert sql(url, FINGERPRINT) == before


def test_a_table_refused_says_permission_not_damage(cli, pg_server, played_league):
    url = pg_server.url(pg_server.create_database(template=played_league))
    sql(url, "do $$ begin if not exists (select from pg_roles where rolname = 'onlooker') then "
             "create role onlooker login; end if; end $$")
    sql(url, "grant select on all tables in schema public to onlooker; revoke select on unit from onlooker")
    r = cli("status", url.replace("postgres@", "onlooker@"), code=2)
    assert "the database refused access: permission denied for table unit" in r.output
    assert "administrator" in r.output and "damaged" not in r.output
