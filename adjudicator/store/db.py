"""Opening a game database, one transaction per command, and moving a `State` between its tables and memory.

`DB` on the command line is a SQLite file path or a database URL. A path that is not a SQLite file, a SQLite
file that is not an adjudicator game, one of an unknown schema, or one damaged on disk each gives a StoreError a
host can act on, never a traceback. A `postgresql://` URL is a league: one database holding many games, through
the same tables (the driver, psycopg 3, is the optional extra `adjudicator[postgres]`). A command works on one
game of it: `choose` binds the engine to that game's id (an execution option that travels with the engine, so
no service needs another argument), and `the_game` reads it.

Commands race: two players submit at once, a host adjudicates while a standing order comes in. Every command
runs in one `transaction`; one that writes takes the game's write lock before its first read, so what it read
to decide is still true when it writes (SQLite `BEGIN IMMEDIATE`; on a server, a lock on the game's own row, so
the games of a league never wait for each other). The others wait up to ADJUDICATOR_BUSY_TIMEOUT seconds, then
give up with a message saying so, having changed nothing.

Commands read and write rows in plain SQL (`rows`, `execute`, `insert`), not through the ORM: the SQLModel
classes (models, journal) define the schema, for what creates, upgrades or copies a whole database, and are
imported only there. Defining them and compiling ORM queries cost more than `status` itself (issue 13), and
`audit` writes a whole game's journal again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections import namedtuple
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import bindparam, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlmodel import Session, create_engine

from ..dice import CHAIN_LENGTH, DICE_MODES
from ..errors import Busy, ConfigError, StoreError
from ..inputs import whole_number
from ..redact import redact, url_secrets
from ..scenario import Scenario
from ..state import State, Unit, pair_key
from . import shapes
from .game_row import COLUMNS, SETUP, GameRow
from .schema import SCHEMA_VERSION, TABLES

BUSY_TIMEOUT = 30.0      # seconds a command waits for another one working on the same game
BUSY = ("another command is working on this game (a submission or an adjudication); nothing was changed: "
        "try again in a moment")


DRIVER_HINT = "install the driver: pip install 'adjudicator[postgres]'"
CONNECT_TIMEOUT = 10     # seconds to reach a database server, unless its URL says otherwise (connect_timeout=)
GAME_OPTION = "adjudicator_game"          # the engine's execution option naming the game a command works on
_POSTGRES = ("postgresql", "postgres", "postgresql+psycopg")
# SQLSTATEs of a server that gave up waiting for a lock, or undid a transaction that lost a race
_BUSY_STATES = {"55P03", "40001", "40P01"}
_ID_LOCKS = 7316      # the key space of the advisory locks on the ids of new games (check_free_id)


def url_of(db: str) -> str:
    """SQLAlchemy's URL of `DB`: a path is a SQLite file; postgresql:// (or postgres://) goes through psycopg 3."""
    if "://" not in db:
        return f"sqlite:///{Path(db)}"
    scheme, rest = db.split("://", 1)
    if scheme.lower() in _POSTGRES:
        return f"postgresql+psycopg://{rest}"
    if scheme.lower() == "sqlite":
        return db
    raise StoreError(f"{shown(db)}: a game database is a SQLite file path or a postgresql:// URL, not {scheme}://")


def is_file_db(db: str) -> bool:
    return "://" not in db


def shown(db: str) -> str:
    """`DB` as messages print it: a URL without its password and secret parameters (?password=, ?sslpassword=,
    ?sslkey=), by the one redaction of all printed secrets (redact.py)."""
    if "://" not in db:
        return db
    text = redact(db, [], keep_user=True)
    password = _password(db)                    # as the driver reads it: it may hold a '/' the redaction stops at
    return text.replace(f":{password}@", ":***@") if password else text


def _secretless(text: str, db: str) -> str:
    """A driver's message with the URL's secrets taken out, should the driver ever repeat them."""
    return redact(text, _secrets(db)) if "://" in db else text


def _secrets(db: str) -> list[str]:
    """The URL's password and secret parameters, as written and as SQLAlchemy reads them (the user is a name)."""
    found = url_secrets(db, user=False)
    return found + [password] if (password := _password(db)) else found


def _password(db: str) -> str | None:
    try:
        password = make_url(db).password
    except (ArgumentError, ValueError):
        return None
    return password if isinstance(password, str) and password else None


def for_game(engine, game_id: str):
    """The engine of a command that works on the game `game_id` (see `choose`)."""
    return engine.execution_options(**{GAME_OPTION: game_id})


def chosen(engine) -> str | None:
    return engine.get_execution_options().get(GAME_OPTION)


def busy_timeout() -> float:
    given = os.environ.get("ADJUDICATOR_BUSY_TIMEOUT", "").strip()
    if not given:
        return BUSY_TIMEOUT
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise ConfigError(f"ADJUDICATOR_BUSY_TIMEOUT takes seconds from 0 to 3600, not {given!r}")
    return seconds


def check_url(db: str) -> str:
    """SQLAlchemy's URL of `DB`, refused before any work when its scheme is not ours or its driver is missing."""
    url = url_of(db)
    if not url.startswith("sqlite"):
        _driver()
    return url


def engine_for(db: str):
    url = check_url(db)
    sqlite = url.startswith("sqlite")
    if sqlite:
        connect_args = {"timeout": busy_timeout()}
    else:
        connect_args = {} if "connect_timeout=" in url else {"connect_timeout": CONNECT_TIMEOUT}
    try:
        engine = create_engine(url, connect_args=connect_args)
    except (ArgumentError, ValueError) as exc:
        raise StoreError(f"{shown(db)} is not a database URL a driver takes ({_secretless(str(exc), db)})") from None
    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(conn, _record):
            cur = conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine


@contextmanager
def transaction(engine, write: bool = False, read_only: bool = False) -> Iterator[Session]:
    """A session that is one transaction (it commits only if the caller does).

    Reading, it sees one snapshot: a writer's commit waits for it to end. Writing, it holds the game's write
    lock from its first statement. Database failures become StoreErrors: the lock not granted in time, or a
    file damaged on disk."""
    with guard(), Session(engine) as s:
        if engine.dialect.name == "sqlite":
            conn = s.connection()
            if read_only:
                conn.exec_driver_sql("PRAGMA query_only = ON")
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
        elif write:
            # read committed, the row lock first: each statement after it sees every commit made before it
            s.connection().exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, round(busy_timeout() * 1000))}")
            game_id = chosen(engine)
            rows(s, "SELECT id FROM game WHERE id = :id FOR UPDATE" if game_id is not None else
                 "SELECT id FROM game FOR UPDATE", **({"id": game_id} if game_id is not None else {}))
        else:
            s.connection().exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
                                           + (", READ ONLY" if read_only else ""))
        yield s


@contextmanager
def guard() -> Iterator[None]:
    """Turn what a damaged or busy database raises into errors a host can act on."""
    try:
        yield
    except IntegrityError:
        raise Busy(BUSY) from None
    except (OperationalError, InterfaceError) as exc:
        state = getattr(getattr(exc, "orig", None), "sqlstate", None)
        if state in _BUSY_STATES or any(word in _reason(exc).lower() for word in ("locked", "busy")):
            raise Busy(BUSY) from None
        if _server_failed(exc):
            raise StoreError(f"the connection to the database server failed ({' '.join(_reason(exc).split())}): "
                             "the server undoes a command cut off before it committed; see where the game stands "
                             "with `status`, then try again") from None
        raise StoreError(damaged(exc)) from None
    except (DatabaseError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StoreError(refused(exc) or damaged(exc)) from None


def refused(exc: Exception) -> str | None:
    """The message of a server that refused the command's user a table (SQLSTATE 42501): no damage, and nothing
    the host can restore; the database's administrator grants it."""
    if getattr(getattr(exc, "orig", None), "sqlstate", None) != "42501":
        return None
    return (f"the database refused access: {' '.join(_reason(exc).split())} — ask the database's administrator "
            "to grant this user the game's tables (nothing was changed)")


def _server_failed(exc: Exception) -> bool:
    """A server database that could not be reached, or went away (no SQLSTATE, or class 08 or 57)."""
    orig = getattr(exc, "orig", None)
    if not type(orig).__module__.startswith("psycopg"):
        return False
    state = getattr(orig, "sqlstate", None)
    return state is None or state[:2] in ("08", "57")


def damaged(exc: Exception | str) -> str:
    """The message of damage found by the driver (`exc`) or by a check of what a row holds (its reason)."""
    return shapes.message(exc if isinstance(exc, str) else _reason(exc))


def check_new(db: str) -> None:
    """Refuse to make a game over an existing file, or in a folder that is not there. (A database URL is a league:
    a game is added to it, under an id it does not hold yet.)"""
    if is_file_db(db):
        path = Path(db)
        if path.exists():
            raise StoreError(f"{db} already exists: choose a new file name for a new game (nothing was changed)")
        if not path.parent.is_dir():
            raise StoreError(f"the folder {path.parent} does not exist: create it first, or choose another path")


def create(db: str):
    """The database a new game goes into: a new file, refused over an existing one; at a URL, the league's database,
    given the tables and the schema version when it has none yet, and otherwise opened (and upgraded) as it is."""
    check_new(db)
    engine = engine_for(db)
    try:
        reach(engine, db)
        tables = set(inspect(engine).get_table_names())
        if tables & {"meta", "game"}:
            engine.dispose()
            return open_existing(db, upgrade=True)
        from . import models
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":     # two first games of a league at once: one makes the tables
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7316052104)")
            models.metadata().create_all(conn)
            if conn.execute(text("SELECT key FROM meta WHERE key = 'schema_version'")).first() is None:
                conn.execute(text("INSERT INTO meta (key, value) VALUES ('schema_version', :v)"), {"v": str(SCHEMA_VERSION)})
    except (OperationalError, DatabaseError) as exc:
        raise StoreError(f"cannot create a game database at {shown(db)}: {_secretless(_reason(exc), db)}") from None
    return engine


def reach(engine, db: str) -> None:
    """Connect once to a server database, so that a server down, a wrong host or a refused login is said as such."""
    if engine.dialect.name == "sqlite":
        return
    try:
        with engine.connect():
            pass
    except (OperationalError, InterfaceError, DatabaseError) as exc:
        reason = " ".join(_secretless(_reason(exc), db).split()).rstrip(".")
        raise StoreError(f"cannot connect to the database {shown(db)}: {reason} — check that the server runs, and "
                         "the URL's host, port, database, user and password (nothing was changed)") from None


def _driver() -> None:
    """psycopg 3, the PostgreSQL driver: an optional extra, named when it is missing."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise StoreError(f"a postgresql:// database needs the PostgreSQL driver psycopg, which cannot be loaded "
                         f"({exc}): {DRIVER_HINT}") from None


def open_existing(db: str, upgrade: bool = False):
    """The engine of an existing game database, checked to be one of ours and of a schema we read; a command
    that writes asks to `upgrade` an older schema first."""
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
    name = shown(db)
    reach(engine, db)
    try:
        tables = set(inspect(engine).get_table_names())
        if "meta" not in tables or "game" not in tables:
            raise StoreError(f"{name} is a database, but not an adjudicator game (no game tables in it)")
        with transaction(engine) as s:
            meta = s.connection().execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).first()
            version = _schema_version(name, meta[0] if meta else None)
        missing = sorted(t for t, since in TABLES.items() if t not in tables and since <= version)
        if missing:
            raise StoreError(f"{name} is a damaged game database: the table(s) {', '.join(missing)} are missing. "
                             "Restore it from a copy")
        if version < SCHEMA_VERSION and upgrade:
            _upgrade(name, engine)
    except (OperationalError, DatabaseError, UnicodeDecodeError) as exc:
        if refused(exc):
            raise StoreError(refused(exc)) from None
        raise StoreError(f"{name} cannot be read as a game database: {_secretless(_reason(exc), db)}. "
                         "If it was damaged, restore it from a copy (or from a posted report and `audit`).") from None
    return engine


def choose(engine, db: str, game_id: str | None = None):
    """The engine bound to the game a command works on: the one `--id` names, else the database's only game.
    Several games and no `--id`, or an id the database does not hold, are refused with the ids it holds."""
    name = shown(db)
    with transaction(engine) as s:
        ids = [row.id for row in rows(s, "SELECT id FROM game ORDER BY id")]
    if game_id is not None:
        if game_id not in ids:
            held = f"its games are {_listed(ids)}" if ids else "it holds no game yet"
            raise StoreError(f"{name} holds no game with the id {game_id!r}: {held} (nothing was changed)")
        return for_game(engine, game_id)
    if len(ids) == 1:
        return for_game(engine, ids[0]) if isinstance(ids[0], str) else engine
    if not ids:
        raise StoreError(f"{name} holds no game yet: create one with `adjudicator new {name} --game NAME --id ID`")
    raise StoreError(f"{name} holds {len(ids)} games ({_listed(ids)}): say which with --id GAME "
                     "(`adjudicator games DB` lists them, with whose turn it is)")


def _listed(ids: list, most: int = 20) -> str:
    shown_ids = ", ".join(map(str, ids[:most]))
    return shown_ids + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _schema_version(db: str, value: str | None) -> int:
    if value is None:
        raise StoreError(f"{db} has no schema version: it is not an adjudicator game, or it is damaged")
    version = whole_number(value, 9)
    if version is None or version < 1:
        raise StoreError(f"{db} has a schema version that no adjudicator writes ({value[:40]!r}): it is damaged")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{db} was written by a newer adjudicator (schema {value}; this one reads {SCHEMA_VERSION}): upgrade first")
    return version


def _upgrade(db: str, engine) -> None:
    """Bring a database of an older schema to this one, in one transaction: a command killed half-way leaves it as
    it was, and of two commands upgrading at once the second finds it done.
    1 to 2: the journal's numbers become unique, so that no race can ever store one twice.
    2 to 3: the tables of snapshots, map art, deliveries and game settings are added (empty: an older game has
    no snapshot of its past turns, and no map art).
    3 to 4: each game's scenario and initial state move from its row into the table game_setup (see
    models.GameSetup), and the indexes of the journal's reads are made (report.turn_context, audit).
    4 to 5: reports keep the version of the templates that wrote them, 0 in those written before (see
    report.TEMPLATE_VERSION): `audit` decides from it, never from the report's text, how it compares a report.
    5 to 6: the table of messages taken in (intake) is added, empty.
    6 to 7: the table of the answers sent to them (reply) is added, empty."""
    from . import models
    with transaction(engine, write=True) as s:
        found = rows(s, "SELECT value FROM meta WHERE key = 'schema_version'")
        version = _schema_version(db, found[0][0] if found else None)
        if version >= SCHEMA_VERSION:             # another command upgraded it while this one waited for the lock
            return
        conn = s.connection()
        metadata = models.metadata()
        for name in (t for t, since in TABLES.items() if since > 1):
            metadata.tables[name].create(conn, checkfirst=True)
        for table in metadata.sorted_tables:
            for index in table.indexes:
                try:
                    index.create(conn, checkfirst=True)
                except IntegrityError:
                    raise StoreError(f"{db} cannot be brought to schema {SCHEMA_VERSION}: its journal numbers a "
                                     "submission or a step twice (racing commands of an older version did that). "
                                     "Run `audit` on a copy") from None
        if version < 4:
            _move_setup(s)
        if version < 5:
            execute(s, "ALTER TABLE report ADD COLUMN template_version INTEGER NOT NULL DEFAULT 0")
        execute(s, "UPDATE meta SET value = :v WHERE key = 'schema_version'", v=str(SCHEMA_VERSION))
        s.commit()


def _move_setup(s: Session) -> None:
    """Schema 3 to 4: the games' setups into game_setup, out of the game rows. The old columns are dropped, so that
    the rows a turn rewrites are small; SQLite before 3.35 cannot drop a column, so there they are emptied (nothing
    reads them in schema 4)."""
    execute(s, "INSERT INTO game_setup (game_id, scenario, initial_state) SELECT id, scenario, initial_state FROM game")
    if _connection(s).dialect.name != "sqlite":
        execute(s, "ALTER TABLE game DROP COLUMN scenario, DROP COLUMN initial_state")
    elif sqlite_drops_columns():
        execute(s, "ALTER TABLE game DROP COLUMN scenario")
        execute(s, "ALTER TABLE game DROP COLUMN initial_state")
    else:
        execute(s, "UPDATE game SET scenario = '', initial_state = ''")


def sqlite_drops_columns() -> bool:
    """Whether this SQLite has ALTER TABLE … DROP COLUMN (3.35, 2021)."""
    return sqlite3.sqlite_version_info >= (3, 35, 0)


def has_table(session: Session, name: str) -> bool:
    """Whether the database has a table of a later schema than its own (a game not written since an upgrade
    of the adjudicator is read as it is: it simply has no rows there)."""
    return inspect(session.connection()).has_table(name)


def rows(session: Session, sql: str, **params) -> list:
    """Rows of a plain SQL read, as named tuples of their columns (`step.phase`; a column named `count` too, which a
    SQLAlchemy row would answer with its tuple method). An `ids` parameter is a list, for `IN :ids`."""
    conn = _connection(session)
    if conn.dialect.name == "sqlite":
        return _sqlite(conn.connection.driver_connection, sql, params, fetch=True)
    statement = text(sql)
    if "ids" in params:
        statement = statement.bindparams(bindparam("ids", expanding=True))
    result = conn.execute(statement, params)
    make = _row_class(tuple(result.keys()))._make
    return [make(r) for r in result]


def execute(session: Session, sql: str, **params) -> int:
    """A plain SQL write; how many rows it changed."""
    conn = _connection(session)
    if conn.dialect.name == "sqlite":
        return _sqlite(conn.connection.driver_connection, sql, params, fetch=False)
    return conn.execute(text(sql), params).rowcount


def peek(engine, sql: str, **params) -> list:
    """rows() outside any transaction, of what committed last: `audit` reads back, some 900 times, what each
    command it replays has just committed to its private in-memory store, and a session costs ten times the read
    there. Only on SQLite, whose plain reads need no transaction."""
    if engine.dialect.name != "sqlite":
        with Session(engine) as s:
            return rows(s, sql, **params)
    raw = engine.raw_connection()
    try:
        return _sqlite(raw.driver_connection, sql, params, fetch=True)
    finally:
        raw.close()


def _connection(session: Session):
    """session.connection(), kept for the session's current transaction: SQLAlchemy takes some 20 µs to find it
    again, and a turn runs some forty statements."""
    transaction = session.get_transaction()
    kept = session.info.get("connection")
    if transaction is None or kept is None or kept[0] is not transaction:
        conn = session.connection()
        session.info["connection"] = (session.get_transaction(), conn)
        return conn
    return kept[1]


def _sqlite(driver: sqlite3.Connection, sql: str, params: dict, fetch: bool):
    """Run a plain statement on SQLite's own connection (inside the session's transaction): its rows, or (not
    `fetch`) how many rows it changed. SQLAlchemy spends some 60 µs a statement around SQLite's 5, and `audit` runs
    some 7,000. SQLite takes the `:name` parameters as they are written; its errors are raised as SQLAlchemy's,
    which `guard` turns into messages."""
    if "ids" in params:
        ids = params.pop("ids")
        params.update((f"ids_{k}", v) for k, v in enumerate(ids))
        sql = sql.replace(":ids", "(" + ", ".join(f":ids_{k}" for k in range(len(ids))) + ")" if ids else "(NULL)")
    with _sqlite_cursor(driver, sql, params) as cursor:
        cursor.execute(sql, params)
        if not fetch:
            return cursor.rowcount
        names = tuple(d[0] for d in cursor.description)
        found = cursor.fetchall()
    for r in found:
        if bytes in map(type, r):
            _binary(names, r)
    make = _row_class(names)._make
    return [make(r) for r in found]


def _binary(names: tuple[str, ...], row: tuple) -> None:
    """A SQLite column holds what it is given, whatever its declared type: binary data where text or a number
    belongs (no plain read is of a binary column; the map art is read as such) is damage, named here before
    any command takes it for text."""
    column = next(n for n, v in zip(names, row) if type(v) is bytes)
    key = next((f" of the row {n} {v!r}" for n, v in zip(names, row) if n in ("id", "name", "territory", "key")
                and type(v) is not bytes), "")
    raise shapes.Damaged(f"the column {column}{key} holds binary data where text or a number belongs")


@contextmanager
def _sqlite_cursor(driver: sqlite3.Connection, sql: str, params) -> Iterator[sqlite3.Cursor]:
    """A cursor of SQLite's own connection whose errors are raised as SQLAlchemy's, closed even when a read fails
    half-way (it would hold SQLite's lock until collected)."""
    cursor = driver.cursor()
    try:
        yield cursor
    except sqlite3.Error as exc:
        raise DBAPIError.instance(sql, params, exc, sqlite3.Error) from None
    finally:
        cursor.close()


@lru_cache(maxsize=64)
def _row_class(names: tuple[str, ...]):
    return namedtuple("Row", names, rename=True)


def insert(session: Session, table: str, returning: str | None = None, **values):
    """Write one row; the value of its column `returning` (the row id a journal row is numbered with)."""
    sql = f"INSERT INTO {table} ({', '.join(map(_quoted, values))}) VALUES ({', '.join(f':{c}' for c in values)})"
    if returning is None:
        execute(session, sql, **values)
        return None
    return rows(session, f"{sql} RETURNING {returning}", **values)[0][0]


def execute_many(session: Session, sql: str, params: list[dict]) -> None:
    """One plain SQL write for each set of parameters."""
    conn = _connection(session)
    if conn.dialect.name == "sqlite":
        with _sqlite_cursor(conn.connection.driver_connection, sql, params) as cursor:
            cursor.executemany(sql, params)
    else:
        conn.execute(text(sql), params)


def _quoted(name: str) -> str:
    return f'"{name}"'


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", exc)).strip() or type(exc).__name__


_GAME = "SELECT " + ", ".join(COLUMNS) + " FROM game"
# With its setup: from the game's row of game_setup (schema 4), or from the game row itself (an older schema's)
_GAME_AND_SETUP = ("SELECT " + ", ".join(f"game.{c}" for c in COLUMNS) + ", " +
                   ", ".join(f"game_setup.{c} AS {c}" for c in SETUP) +
                   " FROM game LEFT JOIN game_setup ON game_setup.game_id = game.id")
_GAME_AND_SETUP_BEFORE_4 = "SELECT " + ", ".join(COLUMNS + SETUP) + " FROM game"


def the_game(session: Session, setup: bool = False) -> GameRow:
    """The game the session's engine was bound to (`choose`), else the database's only game. Its scenario and
    initial state (a map's are half a megabyte of text, fixed at `new`) are read with `setup`, else when first
    needed (`read_setup`)."""
    select = _GAME if not setup else _GAME_AND_SETUP if _setup_table(session) else _GAME_AND_SETUP_BEFORE_4
    game_id = chosen(session.get_bind())
    if game_id is not None:
        found = rows(session, f"{select} WHERE game.id = :id", id=game_id)
        if not found:
            raise StoreError(f"the database holds no game with the id {game_id!r} (any more)")
    else:
        found = rows(session, f"{select} LIMIT 2")
        if not found:
            raise StoreError("the database holds no game")
        if len(found) > 1:
            raise StoreError("the database holds several games: say which with --id GAME")
    game = GameRow.of(found[0])
    check_game(game)
    if setup:
        _check_setup(game)
    return game


def all_games(session: Session) -> list[GameRow]:
    """Every game row of the database, checked as `the_game` checks its one (`games` lists them)."""
    found = [GameRow.of(row) for row in rows(session, f"{_GAME} ORDER BY id")]
    for game in found:
        check_game(game)
    return found


def read_setup(session: Session, game: GameRow) -> None:
    """Read the game's scenario and initial state into `game`, unless they are there already: from its row of
    game_setup, or from the game row in a database of a schema before 4 (read as it is until a command writes)."""
    if game.scenario is None or game.initial_state is None:
        found = rows(session, "SELECT scenario, initial_state FROM game_setup WHERE game_id = :id"
                     if _setup_table(session) else "SELECT scenario, initial_state FROM game WHERE id = :id", id=game.id)
        game.scenario, game.initial_state = found[0] if found else (None, None)
        _check_setup(game)


def _setup_table(session: Session) -> bool:
    """Whether the setup is in a table of its own (schema 4), rather than in the game row."""
    return has_table(session, "game_setup")


def _check_setup(game: GameRow) -> None:
    if game.scenario is None or game.initial_state is None:
        raise StoreError(f"the game database is damaged: the setup of game {game.id} (its scenario and initial state, "
                         "in the table game_setup) is missing; restore it from a copy")


MAX_CHAIN = CHAIN_LENGTH    # every chain `new` makes is this long, and `verify` walks no longer one (verify.MAX_TURN)
# The game row's text: a SQLite column holds a number given it as well (its phase and power are checked against
# the game's rules when they are read with them, game.open_game; the scenario when it is parsed, game.setup_of).
TEXT_COLUMNS = ("id", "name", "title", "rules_version", "salts_required", "power", "phase", "extra", "state_hash",
                "created_at")


def check_game(game: GameRow) -> None:
    """The game row's own fields, which every command trusts: one edited or damaged by hand is named here."""
    def bad(field: str, value: object, expected: str) -> StoreError:
        return StoreError(damaged(f"the game row's {field} is {str(value)[:80]!r}, expected {expected}"))

    for name in TEXT_COLUMNS:
        if not isinstance(getattr(game, name), str):
            raise bad(name, getattr(game, name), "text")
    anchor = game.anchor
    if not isinstance(anchor, str) or len(anchor) != 64 or any(c not in "0123456789abcdef" for c in anchor):
        raise bad("anchor", anchor, "64 lowercase hex digits")
    if not isinstance(game.chain_length, int) or not 1 <= game.chain_length <= MAX_CHAIN:
        raise bad("chain_length", game.chain_length, f"a whole number from 1 to {MAX_CHAIN}")
    if game.dice_mode not in DICE_MODES:
        raise bad("dice_mode", game.dice_mode, " or ".join(DICE_MODES))
    for name, least in (("round", 0), ("turn_index", 1)):       # round 0: the bid before round 1
        value = getattr(game, name)
        if not isinstance(value, int) or value < least:
            raise bad(name, value, f"a whole number from {least}")
    if game.turn_index > game.chain_length:
        raise bad("turn_index", game.turn_index, f"at most the chain length {game.chain_length}")


@dataclass
class Stored:
    """A game's state as its tables hold it, row by row: what a save compares with, to write only the rows that
    changed. A G40 map has some 800 units, and a phase changes a handful."""

    hash: str
    units: dict[int, tuple]                      # id -> (type, owner, place, damage, moved, flags JSON, carried_by)
    owners: dict[str, tuple[str, str]]           # territory -> (owner or "" when it has none now, original owner or "")
    relationships: dict[tuple[str, str], str]
    treasury: dict[str, int]
    live: State | None = None                    # the state object saved, on an engine that hands it on (`live`)
    named: bool = False                          # its names were checked against the game's map (shapes.names)

    @classmethod
    def of(cls, state: State, state_hash: str, since: "Stored | None" = None, changes: set[int] | None = None) -> "Stored":
        """The rows of `state`; `since`: those the state was last in step with (loaded from, or saved as), whose
        units' rows are taken as they are but for `changes`, the ids of the units the state changed since."""
        if since is None:
            units = {u.id: _unit_row(u) for u in state.units}
        else:
            units = dict(since.units)
            for uid in changes:
                u = state.unit(uid)
                if u is None:
                    units.pop(uid, None)
                else:
                    units[uid] = _unit_row(u)
        originals = state.original_owners
        return cls(state_hash, units,
                   {t: (state.owners.get(t, ""), originals.get(t, ""))
                    for t in sorted(state.owners.keys() | originals.keys())},
                   dict(sorted(state.relationships.items())), dict(sorted(state.treasury.items())))

    def state(self, game: GameRow) -> State:
        extra = json.loads(game.extra)
        shapes.extra(extra)
        bids = extra.get("bids", {})
        if not isinstance(bids, dict) or not all(isinstance(p, str) and shapes.whole(n) for p, n in bids.items()):
            raise TypeError(f"the bids must map powers to whole PUs, not {str(bids)[:60]}")
        if game.round == 0 and game.power not in bids:
            raise ValueError(f"round 0 is the bid, and {game.power} have no bid to place")
        return State(
            round=game.round, power=game.power, phase=game.phase, turn_index=game.turn_index,
            treasury=dict(self.treasury),
            owners={t: o for t, (o, _) in self.owners.items() if o},
            original_owners={t: orig for t, (_, orig) in self.owners.items() if orig},
            units=[Unit(i, t, o, p, d, m, _flags(i, f), c) for i, (t, o, p, d, m, f, c) in self.units.items()],
            relationships=dict(self.relationships),
            purchases=extra.get("purchases", {}), standing=extra.get("standing", {}),
            conquered=extra.get("conquered", []), battles=extra.get("battles", []),
            next_unit_id=extra.get("next_unit_id", 1),
            switches=extra.get("switches", {}), spent=extra.get("spent", {}),
            relations_at_start={pair_key(a, b): t for a, b, t in extra.get("relations_at_start", [])},
            board=extra.get("board", {}), bids=bids,
        )


def _flags(uid: int, text: str) -> dict:
    if text == "{}":
        return {}
    flags = json.loads(text)
    if not isinstance(flags, dict):
        raise shapes.Damaged(f"the flags of unit {uid} must be a JSON object, not {text[:40]!r}")
    return flags


def _unit_row(u: Unit) -> tuple:
    return (u.type, u.owner, u.place, u.damage, u.moved, json.dumps(u.flags, sort_keys=True) if u.flags else "{}",
            u.carried_by)


LIVE_OPTION = "adjudicator_live_state"


def live(engine):
    """An engine whose commands hand on the very state object the last one saved, rather than build it again from
    the rows: `audit`'s private replay store, whose commands run one after another and change the state only to
    save it (a replay that fails half-way stops there)."""
    return engine.execution_options(**{LIVE_OPTION: True})


# The state each engine last committed, by game id: a process that opens a game again and again (`audit`, a
# league's server, a benchmark) reads its tables once. Trusted only while the game row's state hash is the one
# committed with it: every writer updates the hash, so another process's write is a miss.
_COMMITTED: "WeakKeyDictionary[object, dict[str, Stored]]" = WeakKeyDictionary()


def load_state(session: Session, game: GameRow, scenario: Scenario | None = None) -> State:
    """The game's state, from its rows unless this engine committed it last; rows read are checked for their
    shapes, and given the game's `scenario` for its names too, once (shapes.names)."""
    engine = session.get_bind()
    known = _COMMITTED.get(engine, {}).get(game.id)
    try:
        read = known is None or not game.state_hash or known.hash != game.state_hash
        if read:
            known = _load_rows(session, game)
        state = known.live
        if state is None:
            state = known.state(game)
            state.unit_changes()                          # none yet: it is the rows
        if scenario is not None and not known.named:
            shapes.names(state, scenario)
            known.named = True
        if read and game.state_hash:     # read with the game row in one transaction: they belong together
            _COMMITTED.setdefault(engine, {})[game.id] = known
        session.info[("stored", game.id)] = known
        session.info[("in step", game.id)] = state        # its changes from here are those to write (save_state)
        return state
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise StoreError(damaged(f"the stored state of game {game.id}: {type(exc).__name__}: {exc}")) from None


def check_free_id(session: Session, db_arg: str, game_id: str, advice: str) -> None:
    """Refuse to add a game under an id the (league's) database holds already. On a server, commands adding one id
    wait here for each other (a lock on the id, held to the end of the transaction), so the one that comes second is
    told the id is taken, as it would be had it come later: without it, it stumbled on the first one's row and was
    told that another command was working."""
    if _connection(session).dialect.name != "sqlite":          # SQLite: BEGIN IMMEDIATE already comes one by one
        execute(session, "SELECT pg_advisory_xact_lock(CAST(:space AS integer), CAST(:key AS integer))",
                space=_ID_LOCKS, key=int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big", signed=True))
    if rows(session, "SELECT id FROM game WHERE id = :id", id=game_id):
        raise StoreError(f"{shown(db_arg)} already holds a game with the id {game_id}{advice}")


def _load_rows(session: Session, game: GameRow) -> Stored:
    gid = game.id
    powers = rows(session, "SELECT name, treasury FROM power WHERE game_id = :game ORDER BY name", game=gid)
    owners = rows(session, "SELECT territory, owner, original_owner FROM territoryowner WHERE game_id = :game "
                           "ORDER BY territory", game=gid)
    units = rows(session, "SELECT id, type, owner, place, damage, moved, flags, carried_by FROM unit "
                          "WHERE game_id = :game ORDER BY id", game=gid)
    rels = rows(session, "SELECT a, b, type FROM relationship WHERE game_id = :game ORDER BY a, b", game=gid)
    shapes.rows(units, powers, owners, rels)
    return Stored(game.state_hash,
                  {i: (t, o, p, d, m, f, c) for i, t, o, p, d, m, f, c in units},
                  {t: (o, orig or "") for t, o, orig in owners},
                  {pair_key(a, b): t for a, b, t in rels}, {name: amount for name, amount in powers})


def save_state(session: Session, game: GameRow, state: State, turn_order: list[str] | None = None,
               contacts: dict[str, str] | None = None, state_hash: str | None = None) -> None:
    """Write `state` into the tables of `game` (inside the caller's transaction): only the rows that differ from
    what the tables held when the state was loaded. `state_hash` is the state's hash when the caller knows it."""
    gid = game.id
    old = session.info.get(("stored", gid))
    changes = state.unit_changes()          # from here on the state is in step with what this writes
    in_step = old is not None and changes is not None and session.info.get(("in step", gid)) is state
    new = Stored.of(state, state_hash or state.hash(), old if in_step else None, changes)
    new.named = True             # what the rules made of a checked state, or of the map's setup, names only these
    if session.get_bind().get_execution_options().get(LIVE_OPTION):
        new.live = state
    if old is None:                  # a state not loaded in this transaction: its rows are written afresh
        for table in ("unit", "territoryowner", "relationship"):
            execute(session, f"DELETE FROM {table} WHERE game_id = :game", game=gid)
        old = Stored("", {}, {}, {}, {})
    for name, amount in new.treasury.items():
        if old.treasury.get(name) == amount and name in old.treasury:
            continue
        if not execute(session, "UPDATE power SET treasury = :amount WHERE game_id = :game AND name = :name",
                       amount=amount, game=gid, name=name):
            order = turn_order.index(name) if turn_order and name in turn_order else -1
            insert(session, "power", game_id=gid, name=name, turn_order=order, treasury=amount,
                   contact=(contacts or {}).get(name, ""))
    _write(session, "unit", gid, ("id",), ("type", "owner", "place", "damage", "moved", "flags", "carried_by"),
           old.units, new.units, only=changes if in_step else None)
    _write(session, "territoryowner", gid, ("territory",), ("owner", "original_owner"), old.owners, new.owners)
    _write(session, "relationship", gid, ("a", "b"), ("type",),
           {k: (v,) for k, v in old.relationships.items()}, {k: (v,) for k, v in new.relationships.items()})
    game.round, game.power, game.phase, game.turn_index = state.round, state.power, state.phase, state.turn_index
    game.extra = json.dumps({"purchases": state.purchases, "standing": state.standing, "conquered": state.conquered,
                             "battles": state.battles, "next_unit_id": state.next_unit_id,
                             "switches": state.switches, "spent": state.spent,
                             "relations_at_start": [[a, b, t] for (a, b), t in state.relations_at_start.items()],
                             **({"board": state.board} if state.board else {}),
                             **({"bids": state.bids} if state.bids else {})},
                            sort_keys=True)
    game.state_hash = new.hash
    execute(session, "UPDATE game SET round = :round, power = :power, phase = :phase, turn_index = :turn, "
                     "extra = :extra, state_hash = :hash WHERE id = :id", round=game.round, power=game.power,
            phase=game.phase, turn=game.turn_index, extra=game.extra, hash=game.state_hash, id=gid)
    session.info[("stored", gid)] = new
    session.info[("in step", gid)] = state


def _write(session: Session, table: str, gid: str, keys: tuple[str, ...], columns: tuple[str, ...],
           old: dict, new: dict, only: Iterable | None = None) -> None:
    """Delete, insert and update the rows of `table` that differ between `old` and `new` (key -> column values);
    `only`: the keys that may differ, when the caller knows them."""
    def key_of(key) -> dict:
        return {"k_game_id": gid, **dict(zip((f"k_{k}" for k in keys), key if isinstance(key, tuple) else (key,)))}
    match = " AND ".join(["game_id = :k_game_id"] + [f"{_quoted(k)} = :k_{k}" for k in keys])
    if only is not None:
        old, new = {k: old[k] for k in only if k in old}, {k: new[k] for k in only if k in new}
    gone = [key_of(k) for k in old if k not in new]
    added = [{"game_id": gid, **dict(zip(keys, k if isinstance(k, tuple) else (k,))), **dict(zip(columns, v))}
             for k, v in new.items() if k not in old]
    changed = [{**key_of(k), **dict(zip((f"v_{c}" for c in columns), v))} for k, v in new.items() if k in old and old[k] != v]
    if gone:
        execute_many(session, f"DELETE FROM {table} WHERE {match}", gone)
    if added:
        names = ("game_id", *keys, *columns)
        execute_many(session, f"INSERT INTO {table} ({', '.join(map(_quoted, names))}) "
                              f"VALUES ({', '.join(f':{c}' for c in names)})", added)
    if changed:
        execute_many(session, f"UPDATE {table} SET {', '.join(f'{_quoted(c)} = :v_{c}' for c in columns)} WHERE {match}",
                     changed)


@event.listens_for(Session, "after_commit")
def _remember(session: Session) -> None:
    """After a commit: the states this transaction wrote are what the tables hold now."""
    saved = [(key[1], stored) for key, stored in session.info.items() if isinstance(key, tuple) and key[0] == "stored"]
    if saved:
        _COMMITTED.setdefault(session.get_bind(), {}).update(saved)


def position(state: State) -> dict:
    """The public position of a state: what a map picture or a treasury table shows."""
    return {"round": state.round, "power": state.power, "phase": state.phase, "turn_index": state.turn_index,
            "treasury": dict(state.treasury), "owners": dict(state.owners),
            "units": [[p, o, t, n] for p, here in state.counts_by_place().items() for o, t, n in here]}


def save_snapshot(session: Session, game: GameRow, turn_index: int, state: State, extra: dict | None = None) -> dict:
    """Keep the position after an adjudication of turn `turn_index` (a later one of the same turn replaces it),
    with what the rules make of it (`extra`: income, victory standing); return what was kept."""
    data = {**position(state), **(extra or {})}
    params = {"game": game.id, "turn": turn_index, "data": json.dumps(data, sort_keys=True)}
    if not execute(session, "UPDATE snapshot SET data = :data WHERE game_id = :game AND turn_index = :turn", **params):
        execute(session, "INSERT INTO snapshot (game_id, turn_index, data) VALUES (:game, :turn, :data)", **params)
    return data


def load_snapshot(session: Session, game: GameRow, turn_index: int) -> dict | None:
    """The position kept after turn `turn_index`, or None for a turn adjudicated before snapshots were kept."""
    if not has_table(session, "snapshot"):
        return None
    found = rows(session, "SELECT data FROM snapshot WHERE game_id = :game AND turn_index = :turn",
                 game=game.id, turn=turn_index)
    if not found:
        return None
    data = json.loads(found[0].data)
    shapes.snapshot(turn_index, data)
    return data


def locked_submission(session: Session, game: GameRow):
    """The turn submission waiting for `adjudicate`, as a row: the orders of the power to move, locked this turn."""
    found = rows(session, "SELECT * FROM submission WHERE game_id = :game AND kind = 'turn' AND power = :power "
                          "AND turn_index = :turn AND status = 'locked' ORDER BY seq LIMIT 1",
                 game=game.id, power=game.power, turn=game.turn_index)
    return found[0] if found else None


__all__ = ["create", "open_existing", "choose", "the_game", "load_state", "save_state", "locked_submission"]
