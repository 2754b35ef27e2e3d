"""The game database: schema version, foreign keys, state round trip, refusal of databases it cannot read."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import pytest
from sqlalchemy import text
from sqlmodel import Session

from adjudicator.errors import StoreError
from adjudicator.game import open_game
from adjudicator.games import demo
from adjudicator.state import State
from adjudicator.store import db
from adjudicator.store.db import open_existing, save_state
from adjudicator.store.schema import SCHEMA_VERSION


def test_schema_version_and_foreign_keys(demo_db):
    with sqlite3.connect(demo_db) as con:
        assert con.execute("select value from meta where key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    engine = open_existing(str(demo_db))
    with engine.connect() as con:
        assert con.execute(text("PRAGMA foreign_keys")).scalar() == 1
        with pytest.raises(Exception, match="FOREIGN KEY"):
            con.execute(text("insert into unit (game_id, id, place, owner, type, damage, moved, flags) "
                             "values ('no-such-game', 1, 'Poland', 'Germans', 'infantry', 0, 0, '{}')"))
    engine.dispose()


def test_a_newer_schema_is_refused(demo_db):
    with sqlite3.connect(demo_db) as con:
        con.execute("update meta set value = ? where key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(StoreError, match="newer adjudicator"):
        open_existing(str(demo_db))


def test_the_stored_state_is_the_initial_state(demo_db):
    engine = open_existing(str(demo_db))
    with Session(engine) as s:
        g = open_game(s)
        assert g.state.to_dict() == State.initial(demo.scenario()).to_dict()
        assert g.game.state_hash == g.state.hash()
    engine.dispose()


def test_state_hash_changes_with_any_decisive_field():
    base = State.initial(demo.scenario())
    changed = [base.copy() for _ in range(4)]
    changed[0].treasury["Germans"] += 1
    changed[1].units[0].place = "Belarus"
    changed[2].owners["Poland"] = "Russians"
    changed[3].standing["Russians"] = {"ool": ["infantry"]}
    hashes = {s.hash() for s in changed}
    assert base.hash() not in hashes and len(hashes) == 4
    assert base.copy().hash() == base.hash()


def test_what_a_declaration_changed_this_turn_is_kept_with_the_state(demo_db):
    """A turn may be submitted in parts, and G40 Alt-Universe's straits ask how the powers stood when the turn
    began: the relationships a declaration changed keep their start-of-turn type through a save."""
    engine = open_existing(str(demo_db))
    with Session(engine) as s:
        state = open_game(s).state
        a, b = next(iter(state.relationships))
        state.set_relationship(a, b, "War")
        save_state(s, db.the_game(s), state)
        s.commit()
    with Session(engine) as s:
        assert open_game(s).state.to_dict() == state.to_dict()
    engine.dispose()


def _tried(state: State) -> None:
    with state.trial():
        state.units[0].place = state.units[-1].place
        state.remove_units([state.units[1].id])
        state.add_unit("infantry", state.units[0].owner, state.units[0].place)


def test_a_save_writes_every_change_since_the_state_was_loaded_or_saved(demo_db):
    """save_state writes only the rows of the units a state changed since it was loaded or last saved: the rows,
    read back alone, must be the whole position after every kind of change, a trial's undone ones among them."""
    engine = open_existing(str(demo_db))
    changes = [
        lambda st: setattr(st.units[0], "place", st.units[-1].place),
        lambda st: st.units[1].mark(fought=True),
        lambda st: setattr(st.units[2], "damage", 1),
        lambda st: st.add_unit("infantry", st.units[0].owner, st.units[3].place),
        lambda st: st.remove_units([st.units[4].id, st.units[-1].id]),
        _tried,
        lambda st: (_tried(st), setattr(st.units[5], "owner", st.units[-1].owner)),
        lambda st: setattr(st, "units", [u for u in st.units if u.id != st.units[6].id]),
    ]
    for change in changes:
        with Session(engine) as s:
            state = open_game(s).state
            change(state)
            save_state(s, db.the_game(s), state)
            state.units[7].moved = 1                          # saved twice in one transaction
            save_state(s, db.the_game(s), state)
            s.commit()
        with Session(engine) as s:
            game = db.the_game(s)
            assert db._load_rows(s, game).state(game).to_dict() == state.to_dict()
    engine.dispose()


def test_the_table_list_names_every_table():
    """`open_existing` checks a database for the tables of schema.TABLES without defining any table (store/game_row.py);
    a table added to the schema but not to that list would go unchecked."""
    from adjudicator.store import models, schema
    assert set(models.metadata().tables) == set(schema.TABLES)


def test_the_game_row_does_not_carry_the_setup(demo_db):
    """A turn rewrites the game row, and a database rewrites a whole row to change one field of it: the setup (a map's
    is half a megabyte) has a row of its own (schema 4)."""
    with sqlite3.connect(demo_db) as con:
        assert not {"scenario", "initial_state"} & {row[1] for row in con.execute("pragma table_info(game)")}
        (game_id, scenario, initial), = con.execute("select game_id, scenario, initial_state from game_setup")
    assert game_id == "t1" and json.loads(scenario)["name"] == demo.scenario().name
    assert json.loads(initial)["treasury"] == State.initial(demo.scenario()).treasury


@pytest.fixture
def explained(monkeypatch):
    """The query plans of the plain SQL reads that commands run on SQLite (EXPLAIN QUERY PLAN), by statement."""
    plans: dict[str, list[str]] = {}
    run = db._sqlite_cursor

    @contextmanager
    def explaining(driver, sql, params):
        if sql.lstrip().upper().startswith("SELECT"):
            plan = driver.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
            plans.setdefault(sql, [row[3] for row in plan])
        with run(driver, sql, params) as cursor:
            yield cursor

    monkeypatch.setattr(db, "_sqlite_cursor", explaining)
    return plans


def test_the_journal_is_read_by_index(cli, tmp_path, explained):
    """A long game holds thousands of steps and dice groups: the report of a turn, `rolls`, `audit`'s replay and the
    locked orders find their rows through an index, never by reading every row of the journal."""
    from played_game import LAST_TURN, play
    game = play(tmp_path)
    cli("status", game)
    for turn in range(1, LAST_TURN + 1):
        cli("report", game, "--turn", turn)
    cli("rolls", game, "--turn", 2, "--json")
    assert cli.json("audit", game)["ok"]
    cli("submit", game, "--power", "Russians", "-", input="ool inf\n")
    journal = ("step", "dice_group", "submission")
    reads = {sql: plan for sql, plan in explained.items() if any(f" {table} " in f"{sql} " for table in journal)}
    for sql, plan in reads.items():
        assert not any(line.startswith(f"SCAN {table}") for line in plan for table in journal), (sql, plan)

    def plan_of(*fragments: str) -> str:
        found = [" | ".join(plan) for sql, plan in reads.items() if all(f in sql for f in fragments)]
        assert found, fragments
        return found[0]
    turn = plan_of("FROM step", "phase = 'standing'", "turn_index = :turn")       # report.turn_context
    assert "ix_step_game_turn (game_id=? AND turn_index=?)" in turn and "ix_step_game_phase (game_id=? AND phase=?)" in turn
    assert "(game_id=? AND turn_index=?)" in plan_of("FROM dice_group", "turn_index = :turn")
    assert "ix_dice_group_step (step_id=?)" in plan_of("FROM dice_group", "step_id IN")       # audit's compare
    assert "(game_id=? AND status=?)" in plan_of("FROM submission", "status = 'locked'", "power = :power")
    assert "(game_id=? AND status=?)" in plan_of("min(seq) FROM submission", "status = 'locked'")   # audit's catch-up
