"""Every column of every table of a played game set to values no adjudicator writes (a wrong type, an extreme, an
unknown name), one at a time, then every command run on the copy in-process: the internal errors are printed,
one line each (the goal is none). SQLite takes any value in any column; PostgreSQL keeps the columns' types, so
there text columns get names and JSON shapes and integer columns extremes. The kinds found go into the matrix
of tests/test_damaged.py.

    python benchmarks/damage_columns.py [--backend sqlite|postgresql] [--only TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sqlalchemy import create_engine, inspect, text  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from adjudicator.cli import app  # noqa: E402
from adjudicator.delivery import nodebb  # noqa: E402
from adjudicator.demo import SCRIPT  # noqa: E402
from adjudicator.store.db import url_of  # noqa: E402

COMMANDS = (["status"], ["status", "--json"], ["games"], ["report"], ["rolls"], ["audit"],
            ["map", "--turn", "1", "-o", "turn.png"], ["submit", "--power", "Russians", "orders.txt"],
            ["adjudicate"], ["edit", "fix.txt", "--reason", "a test"], ["post", "--no-picture"])
ANY = ("'x'", "x'fffe'", "3.5", "-1", "9223372036854775807", "'Nowhere'", "''", "'[]'", "'{}'", "0", "'1'")
JSON_VALUES = ('"x"', "5", "[]", "{}", "null", "-1", "9223372036854775807", "[1]", '{"a": 1}', '[["a"]]', "3.5")
TYPED = {"INT": ("-1", "0", "2147483647"), "CHAR": ("'Nowhere'", "''", "'[]'", "'{}'", "'7'")}


def cases(url: str, sqlite: bool) -> dict[str, str]:
    """Damage name -> the UPDATE that makes it, of the first row of each table (by its key within the game)."""
    engine = create_engine(url_of(url), poolclass=NullPool)
    found = {}
    try:
        schema = inspect(engine)
        for table in schema.get_table_names():
            key = [k for k in schema.get_pk_constraint(table)["constrained_columns"] if k != "game_id"][:1]
            where = f" where {key[0]} = (select min({key[0]}) from {table})" if key else ""
            for column in schema.get_columns(table):
                name, kind = column["name"], str(column["type"])
                if name == "game_id" or table == "map_art":
                    continue
                values = ANY if sqlite else next((v for k, v in TYPED.items() if k in kind or "TEXT" in kind and
                                                  k == "CHAR"), ())
                for value in values:
                    found[f"{table}.{name}={value}"] = f"update {table} set {name} = {value}{where}"
        if sqlite:
            with engine.connect() as conn:
                extra = json.loads(conn.execute(text("select extra from game")).scalar())
            for field in extra:
                for value in JSON_VALUES:
                    found[f"extra.{field}={value}"] = f"update game set extra = json_set(extra, '$.{field}', json('{value}'))"
    finally:
        engine.dispose()
    return found


def crashed(result) -> bool:
    return result.exit_code not in (0, 1, 2, 4) or (result.exception is not None and
                                                    not isinstance(result.exception, SystemExit))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--only", default="", help="only the damage whose name holds this")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    os.chdir(folder)
    os.environ.update(ADJUDICATOR_KEYS_DIR=str(folder / "keys"), ADJUDICATOR_NODEBB_URL="http://127.0.0.1:9",
                      ADJUDICATOR_NODEBB_TOKEN="token")
    nodebb.ATTEMPTS = 1                      # nothing listens there: one try is the answer
    runner = CliRunner()
    server = None
    if args.backend == "postgresql":
        from pgserver import Server
        server = Server()
    try:
        template = server.create_database() if server else ""
        base = server.url(template) if server else str(folder / "game.db")
        (folder / "Germans.txt").write_text(SCRIPT["Germans"])
        (folder / "orders.txt").write_text(SCRIPT["Russians"])
        (folder / "fix.txt").write_text("pus Russians 5\nadd Russians 1 inf Moscow\n")
        for argv in (["new", base, "--game", "demo", "--seed", "00" * 31 + "01", "--id", "dmg", "--topic", "12"],
                     ["submit", base, "--power", "Germans", "Germans.txt"], ["adjudicate", base]):
            assert runner.invoke(app, argv).exit_code == 0
        runs, crashes, start = 0, 0, time.perf_counter()
        for name, sql in cases(base, server is None).items():
            if args.only not in name:
                continue
            db = server.url(server.create_database(template=template)) if server else copy(base, folder)
            if not damage(db, sql):
                continue
            for command in COMMANDS:
                runs += 1
                result = runner.invoke(app, [command[0], db, *command[1:]])
                if crashed(result):
                    crashes += 1
                    exc = result.exception
                    where = traceback.extract_tb(exc.__traceback__)[-1] if exc else None
                    print(f"{name:45} {' '.join(command):28} {type(exc).__name__}: {str(exc)[:100]}"
                          + (f" @ {Path(where.filename).name}:{where.lineno}" if where else ""), flush=True)
        print(f"{args.backend}: {runs:,} runs, {crashes} internal errors, {time.perf_counter() - start:.0f} s")
    finally:
        if server:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def copy(base: str, folder: Path) -> str:
    db = folder / "case.db"
    shutil.copy(base, db)
    return str(db)


def damage(db: str, sql: str) -> bool:
    """Apply `sql`; False where the database refuses it (a key made twice, a value its column cannot hold)."""
    if "://" not in db:
        try:
            with sqlite3.connect(db) as con:
                con.executescript(f"pragma foreign_keys = off; {sql}")
            return True
        except sqlite3.Error:
            return False
    engine = create_engine(url_of(db), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text(sql))
        return True
    except Exception:                        # noqa: BLE001 - any refusal of the server: the case cannot be made
        return False
    finally:
        engine.dispose()


if __name__ == "__main__":
    main()
