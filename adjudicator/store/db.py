"""Opening a game database, and moving a `State` between its tables and memory.

`DB` on the command line is a SQLite file path or a database URL. A path that is not a SQLite file, a SQLite
file that is not an adjudicator game, or one of a newer schema each gives a StoreError a host can act on.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import event, insert, inspect
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlmodel import Session, SQLModel, create_engine, delete, select

from ..errors import StoreError
from ..state import State, Unit, pair_key
from . import models
from .models import SCHEMA_VERSION, Game, Meta, Power, Relationship, Submission, TerritoryOwner, UnitRow


def url_of(db: str) -> str:
    return db if "://" in db else f"sqlite:///{Path(db)}"


def is_file_db(db: str) -> bool:
    return "://" not in db


def engine_for(db: str):
    engine = create_engine(url_of(db))
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine, "connect")
        def _pragmas(conn, _record):
            cur = conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine


def create(db: str):
    """A new, empty game database at `db`; refuses to touch an existing file."""
    if is_file_db(db):
        path = Path(db)
        if path.exists():
            raise StoreError(f"{db} already exists: choose a new file name for a new game (nothing was changed)")
        if not path.parent.exists():
            raise StoreError(f"the folder {path.parent} does not exist: create it first, or choose another path")
    engine = engine_for(db)
    try:
        SQLModel.metadata.create_all(engine)
        with Session(engine) as s:
            s.add(Meta(key="schema_version", value=str(SCHEMA_VERSION)))
            s.commit()
    except (OperationalError, DatabaseError) as exc:
        raise StoreError(f"cannot create a game database at {db}: {_reason(exc)}") from None
    return engine


def open_existing(db: str):
    """The engine of an existing game database, checked to be one of ours and of a schema we read."""
    if is_file_db(db):
        path = Path(db)
        if not path.exists():
            raise StoreError(f"no game database at {db}: check the path, or create a game with `adjudicator new {db} --game NAME`")
        if path.is_dir():
            raise StoreError(f"{db} is a folder, not a game database")
        with path.open("rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                raise StoreError(f"{db} is not a SQLite database (is it the right file? a game database is made by `adjudicator new`)")
    engine = engine_for(db)
    try:
        tables = set(inspect(engine).get_table_names())
        if "meta" not in tables or "game" not in tables:
            raise StoreError(f"{db} is a database, but not an adjudicator game (no game tables in it)")
        with Session(engine) as s:
            meta = s.get(Meta, "schema_version")
    except (OperationalError, DatabaseError) as exc:
        raise StoreError(f"{db} cannot be read as a game database: {_reason(exc)}. "
                         "If it was damaged, restore it from a copy (or from a posted report and `audit`).") from None
    if meta is None or not meta.value.isdigit():
        raise StoreError(f"{db} has no schema version: it is not an adjudicator game, or it is damaged")
    if int(meta.value) > SCHEMA_VERSION:
        raise StoreError(f"{db} was written by a newer adjudicator (schema {meta.value}; this one reads {SCHEMA_VERSION}): upgrade first")
    return engine


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", exc)).strip() or type(exc).__name__


def the_game(session: Session) -> Game:
    """The one game of a per-game database file (a shared database picks by id elsewhere)."""
    games = session.exec(select(Game)).all()
    if not games:
        raise StoreError("the database holds no game")
    if len(games) > 1:
        raise StoreError(f"the database holds {len(games)} games; this command needs a single-game database")
    return games[0]


def load_state(session: Session, game: Game) -> State:
    try:
        return _load_state(session, game)
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"the stored state of game {game.id} is damaged ({type(exc).__name__}: {exc}); "
                         "restore the database from a copy (it was changed outside the adjudicator)") from None


def _load_state(session: Session, game: Game) -> State:
    powers = session.exec(select(Power).where(Power.game_id == game.id)).all()
    owners = session.exec(select(TerritoryOwner).where(TerritoryOwner.game_id == game.id)).all()
    units = session.exec(select(UnitRow.id, UnitRow.type, UnitRow.owner, UnitRow.place, UnitRow.damage, UnitRow.moved,
                                UnitRow.flags, UnitRow.carried_by).where(UnitRow.game_id == game.id)).all()   # plain rows: fast
    rels = session.exec(select(Relationship).where(Relationship.game_id == game.id)).all()
    extra = json.loads(game.extra)
    return State(
        round=game.round, power=game.power, phase=game.phase, turn_index=game.turn_index,
        treasury={p.name: p.treasury for p in powers},
        owners={o.territory: o.owner for o in owners},
        original_owners={o.territory: o.original_owner for o in owners if o.original_owner},
        units=[Unit(i, t, o, p, d, m, json.loads(f), c) for i, t, o, p, d, m, f, c in units],
        relationships={pair_key(r.a, r.b): r.type for r in rels},
        purchases=extra.get("purchases", {}), standing=extra.get("standing", {}),
        conquered=extra.get("conquered", []), battles=extra.get("battles", []),
        next_unit_id=extra.get("next_unit_id", 1),
    )


def save_state(session: Session, game: Game, state: State, turn_order: list[str] | None = None,
               contacts: dict[str, str] | None = None) -> None:
    """Write `state` into the tables of `game` (inside the caller's transaction)."""
    gid = game.id
    for table in (UnitRow, TerritoryOwner, Relationship):
        session.exec(delete(table).where(table.game_id == gid))
    existing = {p.name: p for p in session.exec(select(Power).where(Power.game_id == gid)).all()}
    for name, amount in state.treasury.items():
        row = existing.get(name)
        if row is None:
            order = turn_order.index(name) if turn_order and name in turn_order else -1
            row = Power(game_id=gid, name=name, turn_order=order, contact=(contacts or {}).get(name, ""))
        row.treasury = amount
        session.add(row)
    # Bulk inserts: a G40 map has ~850 units, and rows one by one through the ORM cost most of a turn's time.
    originals = state.original_owners
    _insert(session, TerritoryOwner, [{"game_id": gid, "territory": t, "owner": o, "original_owner": originals.get(t, "")}
                                      for t, o in state.owners.items()])
    _insert(session, UnitRow, [{"game_id": gid, "id": u.id, "place": u.place, "owner": u.owner, "type": u.type,
                                "damage": u.damage, "moved": u.moved, "flags": json.dumps(u.flags, sort_keys=True),
                                "carried_by": u.carried_by} for u in state.units])
    _insert(session, Relationship, [{"game_id": gid, "a": a, "b": b, "type": t} for (a, b), t in state.relationships.items()])
    game.round, game.power, game.phase, game.turn_index = state.round, state.power, state.phase, state.turn_index
    game.extra = json.dumps({"purchases": state.purchases, "standing": state.standing, "conquered": state.conquered,
                             "battles": state.battles, "next_unit_id": state.next_unit_id}, sort_keys=True)
    game.state_hash = state.hash()
    session.add(game)


def locked_submission(session: Session, game: Game) -> Submission | None:
    """The turn submission waiting for `adjudicate`, if any (at most one is ever locked)."""
    return session.exec(select(Submission).where(Submission.game_id == game.id, Submission.kind == "turn",
                                                 Submission.status == "locked").order_by(Submission.seq)).first()


def _insert(session: Session, table, rows: list[dict]) -> None:
    if rows:
        session.exec(insert(table), params=rows)


__all__ = ["create", "open_existing", "the_game", "load_state", "save_state", "locked_submission", "models"]
