"""Creating a game atomically: a `new` killed at any moment leaves either no game or a whole one with its key.

A file database is built under a temporary name in the same folder and linked into place only once it is
complete and its dice key is on disk, so a game never exists without its key. The key is claimed (keys.py) from
its writing until just before the link: a `new` killed while it holds the claim leaves a temporary file and a key
no game uses, and the next `new` of the same path removes both. Killed later, between the link and the removal of
its temporary name, it leaves that name as a second link to the game, which the next `new` of the path removes,
keeping the key: the game may since have been renamed or moved, and it still needs it (killed in the instant
between giving up the claim and the link, it leaves a key no game uses, which stays: harmless). A server database (a
league's) is filled in one transaction, committed after its key is written; an id the league already holds is
refused, and a key is kept when the commit fails, for the commit may have been made. `copy` builds a new file the
same way, under a suffix of its own (a copy makes no key, so what a killed copy left is removed without touching
any key).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from sqlmodel import Session

from ..errors import ConfigError, StoreError
from ..keys import KeyStore, claim_tag
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
    tag = claim_tag()
    made: list[bytes] = []

    def place(temp: Path) -> None:
        made.append(keystore.create(game_id, secret, claim=tag))
        keystore.release(game_id, made[0], tag)
        try:
            _link(temp, target)
        except StoreError:               # not linked: the key is this command's own and no game's
            keystore.delete(game_id, made[0])
            raise

    _build(target, fill, tag, SUFFIX, place)
    return made[0]


def write_copy(db_arg: str, fill: Callable[[Session], None]) -> None:
    """Create the new database file `db_arg` holding what `fill` writes (a game copied from elsewhere)."""
    db.check_new(db_arg)
    target = Path(db_arg)
    _sweep(target, None, COPY_SUFFIX)
    _build(target, fill, claim_tag(), COPY_SUFFIX, lambda temp: _link(temp, target))


def _build(target: Path, fill: Callable[[Session], None], tag: str, suffix: str, place: Callable[[Path], None]) -> None:
    """Fill a database under a temporary name beside `target` (named by the command's `tag`), and `place` it
    once it is whole."""
    temp = target.with_name(f".{target.name}.{tag}{suffix}")
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
        place(temp)
    finally:
        _remove(temp)


def _write_server(db_arg: str, fill, keystore: KeyStore, game_id: str, secret: bytes) -> bytes:
    engine = db.for_game(db.create(db_arg), game_id)
    try:
        with db.transaction(engine, write=True) as s:
            db.check_free_id(s, db_arg, game_id, ": choose another --id (nothing was changed)")
            fill(s)
            s.flush()
            anchor = keystore.create(game_id, secret)
            s.commit()
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
    behind: its temporary file, and the key of a `new` that still held its claim (keys.py)."""
    if os.name != "posix":
        return
    for temp in target.parent.glob(f".{target.name}.*{suffix}"):
        tag = temp.name[len(target.name) + 2:-len(suffix)]
        pid = tag.partition("-")[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        made = _game_of(temp) if keystore is not None else None
        if made:
            try:
                keystore.discard(*made, tag)
            except ConfigError:              # not an id we would have written a key for
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
