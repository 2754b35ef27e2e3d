"""What `new` leaves when it dies at a chosen point, and what the next `new` of the same path then removes: never
the dice key of a game that exists, wherever the game file went since (issue 27 item 5).

A `new` is stopped as a kill stops it (no `finally`, no clean-up) at one chosen call: `dying` runs the command in
a process of its own in which that call ends the process, just before or just after it does its work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.demo import SCRIPT

TEST_SEED = "00" * 31 + "01"

DIES_AT = r"""
import functools, importlib, os, sys
where, when = sys.argv[1], sys.argv[2]
module, _, name = where.partition(":")
owner = importlib.import_module(module)
*path, attr = name.split(".")
for part in path:
    owner = getattr(owner, part)
real = getattr(owner, attr)

@functools.wraps(real)
def dying(*args, **kwargs):
    if when == "after":
        real(*args, **kwargs)
    if when == "interrupted":
        real(*args, **kwargs)
        raise KeyboardInterrupt
    os._exit(137)

setattr(owner, attr, dying)
sys.argv = ["adjudicator", *sys.argv[3:]]
import adjudicator.cli
adjudicator.cli.main()
"""


def dying(where: str, when: str, *args: object) -> subprocess.CompletedProcess:
    """`adjudicator ARGS`, ended at the call `where` (module:name): "before" or "after" it runs, as by kill -9, or
    "interrupted" right after it (Ctrl-C: the command's own clean-up runs)."""
    return subprocess.run([sys.executable, "-c", DIES_AT, where, when, *map(str, args)], capture_output=True, text=True)


def plays_a_turn_with_dice(cli, db: Path, tmp_path: Path) -> None:
    (tmp_path / "Germans.txt").write_text(SCRIPT["Germans"])
    cli("submit", db, "--power", "Germans", tmp_path / "Germans.txt")
    assert "adjudicator dice" in cli("adjudicate", db).output


def leftovers(folder: Path, name: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.")]


def test_a_game_renamed_after_new_was_killed_keeps_its_key_when_new_runs_again_there(cli, tmp_path):
    """Killed between linking the game into place and removing its temporary name, `new` leaves that name as a
    second link to the game. The host renames the game and makes another in its place: the sweep of the leftover
    deleted the renamed game's key (it went by the game's id and anchor alone), and the game could no longer roll."""
    db = tmp_path / "g.db"
    out = dying("adjudicator.store.creation:_link", "after", "new", db, "--game", "demo", "--id", "first")
    assert out.returncode == 137
    assert db.exists() and leftovers(tmp_path, "g.db")
    db.rename(tmp_path / "first.db")
    cli("new", db, "--game", "demo", "--id", "second")
    assert leftovers(tmp_path, "g.db") == []
    plays_a_turn_with_dice(cli, tmp_path / "first.db", tmp_path)
    plays_a_turn_with_dice(cli, db, tmp_path)


def test_new_interrupted_after_the_link_keeps_the_key_of_the_game_it_made(cli, tmp_path):
    """Ctrl-C once the game is in place: the roll-back deleted the key of the game that now exists."""
    db = tmp_path / "g.db"
    out = dying("adjudicator.store.creation:_link", "interrupted", "new", db, "--game", "demo", "--id", "g")
    assert out.returncode != 0 and "Traceback" not in out.stderr
    plays_a_turn_with_dice(cli, db, tmp_path)


def test_a_killed_new_of_a_game_with_the_same_id_and_seed_leaves_the_other_games_key(cli, tmp_path):
    """Two games made with one --seed and one id share their key file's name. A `new` killed before it wrote a
    key left a temporary holding that id and anchor, and the next `new` of its path deleted the key by them: the
    other game's."""
    other = tmp_path / "other.db"
    cli("new", other, "--game", "demo", "--id", "g", "--seed", TEST_SEED)
    db = tmp_path / "g.db"
    out = dying("adjudicator.keys:KeyStore.create", "before", "new", db, "--game", "demo", "--id", "g",
                "--seed", TEST_SEED)
    assert out.returncode == 137 and not db.exists() and leftovers(tmp_path, "g.db")
    cli("new", db, "--game", "demo", "--id", "g2")
    assert leftovers(tmp_path, "g.db") == []
    plays_a_turn_with_dice(cli, other, tmp_path)


@pytest.mark.parametrize("where, when", [("adjudicator.keys:KeyStore.create", "after"),
                                         ("adjudicator.keys:KeyStore._write_new", "after"),
                                         ("adjudicator.keys:KeyStore.release", "before")])
def test_the_key_of_a_new_killed_before_its_game_existed_goes_with_its_leftovers(cli, tmp_path, where, when):
    """Killed while it held its claim on the key, `new` made no game: the next `new` of the path removes the key
    and the claim with the temporary file (a stray key would be harmless, but there is no doubt here)."""
    db = tmp_path / "g.db"
    assert dying(where, when, "new", db, "--game", "demo", "--id", "g").returncode == 137
    assert not db.exists() and leftovers(tmp_path, "g.db")
    made = cli.json("new", db, "--game", "demo", "--id", "g")
    assert leftovers(tmp_path, "g.db") == []
    assert sorted(p.name for p in (tmp_path / "keys").iterdir()) == [Path(made["key_file"]).name]
    plays_a_turn_with_dice(cli, db, tmp_path)
