"""Game databases as older versions of the adjudicator left them, made by hand from one of today's: what the upgrade
tests read as they are, then upgrade with a write.

Schema 7 added the answers sent to the messages taken in (reply); 6 added the messages taken in (intake); 5 kept with each report the version of the templates that wrote it; 4 moved a game's setup (scenario, initial state) from its row into game_setup and added the indexes of the
journal's reads; 3 added snapshots, map art, deliveries and game settings; 2 made the journal's numbers unique.
"""

from __future__ import annotations

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from adjudicator.store.db import url_of

# The game table as schemas 1 to 3 made it (SQLAlchemy's DDL for SQLite, as in a game file of that time)
GAME_BEFORE_4 = """CREATE TABLE game_before_4 (
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	title VARCHAR NOT NULL, 
	rules_version VARCHAR NOT NULL, 
	anchor VARCHAR NOT NULL, 
	chain_length INTEGER NOT NULL, 
	dice_mode VARCHAR NOT NULL, 
	test_seed BOOLEAN NOT NULL, 
	salts_required VARCHAR NOT NULL, 
	scenario VARCHAR NOT NULL, 
	initial_state VARCHAR NOT NULL, 
	round INTEGER NOT NULL, 
	power VARCHAR NOT NULL, 
	phase VARCHAR NOT NULL, 
	turn_index INTEGER NOT NULL, 
	extra VARCHAR NOT NULL, 
	state_hash VARCHAR NOT NULL, 
	created_at VARCHAR NOT NULL, 
	PRIMARY KEY (id)
)"""
ROW_BEFORE_4 = ("game.id, name, title, rules_version, anchor, chain_length, dice_mode, test_seed, salts_required, "
                "game_setup.scenario, game_setup.initial_state, round, power, phase, turn_index, extra, state_hash, "
                "created_at")
INDEXES_OF_4 = ("ix_submission_game_status", "ix_step_game_turn", "ix_step_game_phase", "ix_dice_group_step",
                "ix_dice_group_game_turn")

SQLITE_TO_3 = [GAME_BEFORE_4,
               f"INSERT INTO game_before_4 SELECT {ROW_BEFORE_4} FROM game JOIN game_setup ON game_setup.game_id = game.id",
               "DROP TABLE game_setup", "DROP TABLE game", "ALTER TABLE game_before_4 RENAME TO game"]
POSTGRESQL_TO_3 = ["ALTER TABLE game ADD COLUMN scenario VARCHAR, ADD COLUMN initial_state VARCHAR",
                   "UPDATE game SET scenario = game_setup.scenario, initial_state = game_setup.initial_state "
                   "FROM game_setup WHERE game_setup.game_id = game.id",
                   "ALTER TABLE game ALTER COLUMN scenario SET NOT NULL, ALTER COLUMN initial_state SET NOT NULL",
                   "DROP TABLE game_setup"]
TO_6 = ["DROP TABLE reply"]
TO_5 = ["DROP TABLE intake"]
TO_4 = ["ALTER TABLE report DROP COLUMN template_version"]
TO_2 = ["DROP TABLE snapshot", "DROP TABLE map_art", "DROP TABLE delivery", "DROP TABLE game_setting"]
TO_1 = ["DROP INDEX ux_submission_game_seq", "DROP INDEX ux_step_game_seq"]


def as_schema(db, version: int) -> None:
    """Turn the game database `db` (a SQLite file or a league's URL, of schema 7) into one of schema `version`."""
    engine = create_engine(url_of(str(db)), poolclass=NullPool)      # SQLite: foreign keys off, as sqlite3's default
    sqlite = engine.dialect.name == "sqlite"
    statements = TO_6 + (TO_5 if version < 6 else []) + (TO_4 if version < 5 else [])
    statements += ((SQLITE_TO_3 if sqlite else POSTGRESQL_TO_3) + [f"DROP INDEX {name}" for name in INDEXES_OF_4]
                   if version < 4 else [])
    statements += (TO_2 if version < 3 else []) + (TO_1 if version < 2 else [])
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.exec_driver_sql(statement)
            conn.execute(text("UPDATE meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)})
    finally:
        engine.dispose()


def columns(db, table: str) -> list[str]:
    """The columns of `table` in the database `db`."""
    engine = create_engine(url_of(str(db)), poolclass=NullPool)
    try:
        return [c["name"] for c in inspect(engine).get_columns(table)]
    finally:
        engine.dispose()


def sql(db, statement: str) -> list[tuple]:
    """The rows of `statement` on the database `db` (a SQLite file or a league's URL)."""
    engine = create_engine(url_of(str(db)), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(statement))]
    finally:
        engine.dispose()


def schema_version(db) -> int:
    return int(sql(db, "SELECT value FROM meta WHERE key = 'schema_version'")[0][0])
