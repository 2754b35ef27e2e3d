"""What `new` leaves when it dies at a chosen point, and what the next `new` of the same path then removes: never
the dice key of a game that exists, wherever the game file went since (issue 27 item 5).

A `new` is stopped as a kill stops it (no `finally`, no clean-up) at one chosen call (processes.dying)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.demo import SCRIPT
from processes import dying

TEST_SEED = "00" * 31 + "01"


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
    assert out.code == 137
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
    assert out.code != 0 and "Traceback" not in out.err
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
    assert out.code == 137 and not db.exists() and leftovers(tmp_path, "g.db")
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
    assert dying(where, when, "new", db, "--game", "demo", "--id", "g").code == 137
    assert not db.exists() and leftovers(tmp_path, "g.db")
    made = cli.json("new", db, "--game", "demo", "--id", "g")
    assert leftovers(tmp_path, "g.db") == []
    assert sorted(p.name for p in (tmp_path / "keys").iterdir()) == [Path(made["key_file"]).name]
    plays_a_turn_with_dice(cli, db, tmp_path)


def test_a_claim_that_cannot_be_removed_stops_new_before_the_game_exists(cli, tmp_path, monkeypatch):
    """Were the game linked while its key's claim stayed, a later sweep would take the key of a live game."""
    unlink = Path.unlink

    def refused(path, missing_ok=False):
        if path.name.endswith(".claim"):
            raise PermissionError(13, "Permission denied")
        return unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refused)
    db = tmp_path / "g.db"
    out = cli("new", db, "--game", "demo", "--id", "first", code=2).output
    assert "cannot remove the claim file" in out and "no game was created" in out
    assert not db.exists() and leftovers(tmp_path, "g.db") == []
