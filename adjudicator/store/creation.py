"""Creating a game atomically: a `new` killed at any moment leaves either no game or a whole one with its key.

A file database is built under a temporary name in the same folder and linked into place only once it is
complete and its dice key is on disk, so a game never exists without its key. A `new` killed between the key
and the link leaves a temporary file and a key without a game: the next `new` of the same path removes both.
A server database (a league's) is filled in one transaction, committed after its key is written; an id the
league already holds is refused. `copy` builds a new file the same way, under a suffix of its own (a copy makes no
key, so what a killed copy left is removed without touching any key).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from sqlmodel import Session

from ..errors import ConfigError, StoreError
from ..keys import KeyStore
from . import db

SUFFIX = ".adjudicator-new"
COPY_SUFFIX = ".adjudicator-copy"


def write(db_arg: str, fill: Callable[[Session], None], keystore: KeyStore, game_id: str, secret: bytes) -> bytes:
    """Create the database `db_arg`, fill it with `fill`, write the game's key; return the anchor."""
    db.check_new(db_arg)
    keystore.check_folder()
    if not db.is_file_db(db_arg):
        return _write_server(db_arg, fill, keystore, game_id, secret)
    target = Path(db_arg)
    _sweep(target, keystore)
    made: list[bytes] = []
    try:
        _build(target, fill, SUFFIX, lambda: made.append(keystore.create(game_id, secret)))
    except BaseException:
        if made:
            keystore.delete(game_id, made[0])
        raise
    return made[0]


def write_copy(db_arg: str, fill: Callable[[Session], None]) -> None:
    """Create the new database file `db_arg` holding what `fill` writes (a game copied from elsewhere)."""
    db.check_new(db_arg)
    target = Path(db_arg)
    _sweep(target, None, COPY_SUFFIX)
    _build(target, fill, COPY_SUFFIX)


def _build(target: Path, fill: Callable[[Session], None], suffix: str, before_link: Callable[[], None] = lambda: None) -> None:
    """Fill a database under a temporary name beside `target`, and link it into place once it is whole."""
    temp = target.with_name(f".{target.name}.{os.getpid()}{suffix}")
    _remove(temp)
    try:
        try:
            engine = db.create(str(temp))
        except StoreError as exc:
            raise StoreError(exc.message.replace(str(temp), str(target))) from None
        try:
            with db.transaction(engine, write=True) as s:
                fill(s)
                s.commit()
        finally:
            engine.dispose()
        before_link()
        _link(temp, target)
    finally:
        _remove(temp)


def _write_server(db_arg: str, fill, keystore: KeyStore, game_id: str, secret: bytes) -> bytes:
    engine = db.for_game(db.create(db_arg), game_id)
    anchor = None
    try:
        with db.transaction(engine, write=True) as s:
            db.check_free_id(s, db_arg, game_id, ": choose another --id (nothing was changed)")
            fill(s)
            s.flush()
            anchor = keystore.create(game_id, secret)
            s.commit()
    except BaseException:
        if anchor is not None:
            keystore.delete(game_id, anchor)
        raise
    finally:
        engine.dispose()
    return anchor


def _link(temp: Path, target: Path) -> None:
    """Put the finished file in place, never over a file that appeared meanwhile."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise StoreError(f"{target} already exists: choose a new file name for a new game (nothing was changed)") from None
    except OSError:                      # a file system without hard links
        if target.exists():
            raise StoreError(f"{target} already exists: choose a new file name for a new game (nothing was changed)") from None
        os.replace(temp, target)


def _remove(temp: Path) -> None:
    for path in (temp, temp.with_name(temp.name + "-journal")):
        path.unlink(missing_ok=True)


def _sweep(target: Path, keystore: KeyStore | None, suffix: str = SUFFIX) -> None:
    """Remove what an earlier `new` (or `copy`, with no keystore) of this path, killed before it finished, left
    behind: its temporary file, and the key of a `new` when no game came of it."""
    if os.name != "posix":
        return
    for temp in target.parent.glob(f".{target.name}.*{suffix}"):
        pid = temp.name[len(target.name) + 2:-len(suffix)]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        if keystore is not None and not target.exists():
            made = _game_of(temp)
            if made:
                try:
                    keystore.delete(*made)
                except ConfigError:          # not an id we would have written a key for
                    pass
        _remove(temp)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _game_of(path: Path) -> tuple[str, bytes] | None:
    """The id and anchor stored in a left-over file, if it got that far."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT id, anchor FROM game").fetchone()
        return (row[0], bytes.fromhex(row[1])) if row else None
    except (sqlite3.Error, ValueError, TypeError):
        return None
