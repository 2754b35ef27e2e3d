"""A game database damaged on disk or edited by hand: every command says what is wrong (exit 2) and changes
nothing, never an internal error (issue: integrity, damaged databases)."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from adjudicator.demo import SCRIPT
COMMANDS = (["status"], ["report"], ["rolls"], ["audit"], ["adjudicate"], ["submit", "--power", "Russians", "orders.txt"])


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


@pytest.mark.parametrize("name", DAMAGE)
def test_every_command_names_the_damage_and_changes_nothing(cli, played_demo, tmp_path, name):
    damage, fragment = DAMAGE[name]
    db = tmp_path / "game.db"
    shutil.copy(played_demo / "game.db", db)
    shutil.copytree(played_demo / "keys", tmp_path / "keys", dirs_exist_ok=True)
    (tmp_path / "orders.txt").write_text(SCRIPT["Russians"])
    if callable(damage):
        damage(db)
    else:
        with sqlite3.connect(db) as con:
            con.executescript(damage)
    before = db.read_bytes()
    failed, wrote = 0, False
    for command in COMMANDS:
        r = cli(command[0], db, *command[1:], code=None)
        assert r.exit_code in (0, 1, 2), (command, r.exit_code, r.output)
        assert "internal error" not in r.output and "Traceback" not in r.output, (command, r.output)
        if r.exit_code == 2:
            failed += 1
            assert fragment in r.output, (command, r.output)
        wrote |= r.exit_code == 0 and command[0] in ("submit", "adjudicate")
    assert failed, "some command must notice the damage"
    if not wrote:           # damage in the past journal does not stop play; `audit` names it
        assert db.read_bytes() == before
