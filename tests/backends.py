"""One game to run real `adjudicator` processes on, in a SQLite file or in a league's PostgreSQL database.

The race and kill tests run on both: the file as a group mails it around, and a game of a league that holds another
game beside it (so that every command must pick its game by `--id`, every count is of the game's own rows, and the
row ids of the two games interleave as they do in a league).
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.store.db import url_of

BACKENDS = ["sqlite", "postgresql"]
NEIGHBOUR = "neighbour"


@dataclass
class Target:
    db: str                  # what a command is given: the file's path, or the league's URL
    game_id: str
    folder: Path             # where the test keeps its orders files
    league: object = None    # the test server (pgserver.Server) of a league, None for a file

    @property
    def args(self) -> list[str]:
        """DB, and --id GAME in a league."""
        return [self.db, "--id", self.game_id] if self.league else [self.db]

    @property
    def name(self) -> str:
        return make_url(self.db).database if self.league else Path(self.db).name

    def fewer(self, n: int, share: int = 2) -> int:
        """How many processes race, or kill moments are tried, on this backend: in a league a `share` of them (at
        least two), since what is under test there is the server's transactions and row lock, which do not depend
        on the load; the suite stays quick."""
        return n if self.league is None else max(2, -(-n // share))

    def sql(self, statement: str) -> list[tuple]:
        """Rows of `statement`, where `:game` is the game's id."""
        engine = create_engine(url_of(self.db), poolclass=NullPool)
        try:
            with engine.connect() as conn:
                return [tuple(row) for row in conn.execute(text(statement), {"game": self.game_id})]
        finally:
            engine.dispose()

    def count(self, table: str) -> int:
        return self.sql(f"select count(*) from {table} where game_id = :game")[0][0]

    def clone(self, name: str) -> "Target":
        """A copy of the whole database, as `cp` copies a file (a league: CREATE DATABASE … TEMPLATE)."""
        if self.league is None:
            copy = Path(self.db).with_name(name + ".db")
            copy.write_bytes(Path(self.db).read_bytes())
            return Target(str(copy), self.game_id, self.folder)
        return Target(self.league.url(self.league.create_database(template=self.name)), self.game_id, self.folder,
                      self.league)

    @contextmanager
    def held(self, game_id: str | None = None):
        """Another command holding the write lock of the game (or of `game_id`, in a league), until the block ends."""
        if self.league is None:
            con = sqlite3.connect(self.db, isolation_level=None)
            con.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                con.execute("ROLLBACK")
                con.close()
            return
        import psycopg
        with psycopg.connect(self.db) as con:
            con.execute("SELECT id FROM game WHERE id = %s FOR UPDATE", [game_id or self.game_id])
            try:
                yield
            finally:
                con.rollback()


def target(request, folder: Path, name: str, backend: str | None = None) -> Target:
    """Where a test's game goes: `folder/NAME.db`, or a fresh league database holding a neighbour game already
    (made in-process; the test makes its own game with `new *target.new_args`)."""
    backend = backend or request.param
    if backend == "sqlite":
        return Target(str(folder / f"{name}.db"), name, folder)
    server = request.getfixturevalue("pg_server")
    league = Target(server.url(server.create_database()), name, folder, server)
    result = CliRunner().invoke(app, ["new", league.db, "--game", "demo", "--id", NEIGHBOUR])
    assert result.exit_code == 0, result.output
    return league


def new_args(t: Target) -> list[str]:
    """DB --id GAME for `new`."""
    return [t.db, "--id", t.game_id]
