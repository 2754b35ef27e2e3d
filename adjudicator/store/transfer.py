"""`copy`: one whole game from one database to another (a SQLite file, a league's PostgreSQL database), as it is.

A game's id is part of every die it rolls (DESIGN.md, audited dice) and of its setup hash, so a copy keeps it, and
the key file, found by id and anchor, rolls the copy's dice as it rolled the original's. Every table's rows of the
game are copied; the row ids a database numbers itself (submissions, steps, dice groups, reports, deliveries) are
numbered afresh by the destination, in the same order, and the rows that point at them (a step's submission, a
dice group's step) follow. The journal's own numbers (`seq`) belong to the game and stay as they are.

The destination is written in one transaction and checked before it commits: its tables must give the state the
source's give. A new file is built under a temporary name and linked into place whole (as `new` does); in a league
the id must be new. A copy that fails leaves nothing behind (but the tables of a league that had none).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, select
from sqlmodel import Session

from ..errors import StoreError
from . import creation, db
from .models import metadata

SKIPPED = {"meta"}           # the database's own rows, not a game's
SETUP = "game_setup"         # read as `the_game(setup=True)` reads it: from the game row in a schema before 4


def copy_game(src: str, dst: str, game_id: str | None = None) -> dict:
    """Copy the game `game_id` (default: the only game of `src`) into `dst`; what was copied, and its state hash."""
    if db.is_file_db(dst) and Path(dst).exists():
        raise StoreError(f"{dst} already exists: a copy goes into a new file, or into a league's database by its URL "
                         "(nothing was changed)")
    db.check_url(dst)
    source = db.choose(db.open_existing(src), src, game_id)
    try:
        with db.transaction(source, read_only=True) as s:
            game = db.the_game(s, setup=True)
            gid, state_hash, setup_hash = game.id, db.load_state(s, game).hash(), game.setup_hash()
            rows = _read(s, gid)
            rows[SETUP] = [{"game_id": gid, "scenario": game.scenario, "initial_state": game.initial_state}]
    finally:
        source.dispose()

    def fill(s: Session) -> None:
        _write(s, rows)
        copied = db.the_game(s, setup=True)
        found = db.load_state(s, copied).hash()
        if found != state_hash:
            raise StoreError(f"the copy of game {gid} does not hold the state its source holds (state hash {found}, "
                             f"expected {state_hash}); nothing was copied. Run `audit` on the source")
        if copied.setup_hash() != setup_hash:
            raise StoreError(f"the copy of game {gid} does not hold the setup its source holds (setup hash "
                             f"{copied.setup_hash()}, expected {setup_hash}); nothing was copied")

    if db.is_file_db(dst):
        creation.write_copy(dst, fill)
    else:
        engine = db.for_game(db.create(dst), gid)
        try:
            with db.transaction(engine, write=True) as s:
                db.check_free_id(s, dst, gid, "; a copy keeps its id (its dice are made with it), so nothing was copied")
                fill(s)
                s.commit()
        finally:
            engine.dispose()
    return {"game": gid, "from": db.shown(src), "to": db.shown(dst), "state_hash": state_hash,
            "rows": {name: len(found) for name, found in rows.items() if found}}


def _read(s: Session, gid: str) -> dict[str, list[dict]]:
    """Every row of the game, table by table (parents first), each table in the order of its key."""
    conn = s.connection()
    present = set(inspect(conn).get_table_names())
    out: dict[str, list[dict]] = {}
    for table in metadata().sorted_tables:
        # an older schema lacks the younger tables; the setup is read with the game row (copy_game)
        if table.name in SKIPPED or table.name == SETUP or table.name not in present:
            continue
        owner = table.c.id if table.name == "game" else table.c.game_id
        held = {c["name"] for c in inspect(conn).get_columns(table.name)}     # a younger column takes its default
        query = select(*(c for c in table.c if c.name in held)).where(owner == gid).order_by(*table.primary_key.columns)
        out[table.name] = [dict(row) for row in conn.execute(query).mappings()]
    return out


def _write(s: Session, rows: dict[str, list[dict]]) -> None:
    """Insert the rows, parents first; ids the destination numbers are renumbered, and the references to them."""
    conn = s.connection()
    renumbered: dict[str, dict[int, int]] = {}
    for table in metadata().sorted_tables:
        found = [dict(row) for row in rows.get(table.name, [])]
        if not found:
            continue
        for column in table.c:
            for key in column.foreign_keys:
                numbers = renumbered.get(key.column.table.name)
                if numbers is None:
                    continue
                for row in found:
                    if row[column.name] is None:
                        continue
                    if row[column.name] not in numbers:
                        raise StoreError(f"the game's {table.name} rows point at {key.column.table.name} row "
                                         f"{row[column.name]}, which it does not hold: the source is damaged "
                                         "(run `audit` on it); nothing was copied")
                    row[column.name] = numbers[row[column.name]]
        numbered = table.autoincrement_column
        if numbered is None:
            conn.execute(table.insert(), found)
            continue
        old = [row.pop(numbered.name) for row in found]
        result = conn.execute(table.insert().returning(numbered, sort_by_parameter_order=True), found)
        new = [number for (number,) in result]
        if new != sorted(new) or len(set(new)) != len(new):
            raise StoreError(f"the destination numbered the {table.name} rows out of their order; nothing was copied")
        renumbered[table.name] = dict(zip(old, new))
