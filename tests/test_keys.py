"""Key files: private, never overwritten, and proven against the game's anchor when loaded."""

from __future__ import annotations

import os
import stat

import pytest

from adjudicator.dice import anchor, chain_seed, hexb
from adjudicator.errors import ConfigError
from adjudicator.keys import KeyStore

SECRET = bytes(range(32))
ANCHOR_HEX = "fbd3136db367d4cb21dc522f7e8a28ccce1bec79ee01d51fcd31af5d31c08754"


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def store(tmp_path):
    return KeyStore(tmp_path / "keys")


def test_round_trip(store):
    a = store.create("game1")
    secret = store.load("game1", a)
    assert len(secret) == 32
    assert anchor(secret) == a


def test_given_secret_reproduces_its_anchor(store):
    a = store.create("demo", secret=SECRET)
    assert hexb(a) == ANCHOR_HEX
    assert store.load("demo", a) == SECRET
    assert store.path_for("demo", a).name == "demo.fbd3136db367d4cb.key"


def test_other_chain_length(store):
    a = store.create("short", secret=SECRET, n=10)
    assert a == chain_seed(SECRET, 0, 10)
    assert store.load("short", a, n=10) == SECRET
    with pytest.raises(ConfigError, match="does not belong"):
        store.load("short", a)  # the default length leads elsewhere


def test_file_and_folder_modes(store):
    old = os.umask(0o022)
    try:
        a = store.create("game1")
    finally:
        os.umask(old)
    assert mode(store.folder) == 0o700
    assert mode(store.path_for("game1", a)) == 0o600


def test_existing_folder_is_used(tmp_path):
    store = KeyStore(tmp_path)
    a = store.create("game1", secret=SECRET)
    assert store.path_for("game1", a).parent == tmp_path


def test_file_content_is_documented_format(store):
    a = store.create("demo", secret=SECRET)
    lines = store.path_for("demo", a).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#")
    assert lines[1:] == [
        "format: adjudicator-key 1", "game: demo", "n: 4096", f"anchor: {ANCHOR_HEX}", f"secret: {hexb(SECRET)}",
    ]


def test_same_id_different_games_do_not_collide(store):
    a1 = store.create("demo")
    a2 = store.create("demo")
    assert a1 != a2
    assert store.path_for("demo", a1) != store.path_for("demo", a2)
    assert anchor(store.load("demo", a1)) == a1
    assert anchor(store.load("demo", a2)) == a2


def test_refuses_to_overwrite(store):
    store.create("demo", secret=SECRET)
    with pytest.raises(ConfigError, match="already exists"):
        store.create("demo", secret=SECRET)
    assert store.load("demo", anchor(SECRET)) == SECRET


def test_wrong_key_file_is_refused(store):
    a = store.create("mine")
    b = store.create("theirs")
    store.path_for("mine", a).write_bytes(store.path_for("theirs", b).read_bytes())
    with pytest.raises(ConfigError) as e:
        store.load("mine", a)
    message = e.value.message
    assert "does not belong to game mine" in message
    assert "its chain does not lead to the anchor" in message
    assert hexb(a) in message and "theirs" in message


def test_missing_file(store):
    a = store.create("demo", secret=SECRET)
    store.path_for("demo", a).unlink()
    with pytest.raises(ConfigError) as e:
        store.load("demo", a)
    message = e.value.message
    assert "demo.fbd3136db367d4cb.key" in message
    assert str(store.folder) in message
    assert "no longer roll" in message
    assert "never made silently" in message


def test_missing_folder(tmp_path):
    with pytest.raises(ConfigError, match="no longer roll"):
        KeyStore(tmp_path / "nowhere").load("demo", anchor(SECRET))


@pytest.mark.parametrize("content", [
    b"",
    b"secret: " + SECRET.hex().encode() + b"\n",                       # no format line
    b"format: adjudicator-key 1\n",                                    # no secret
    b"format: adjudicator-key 1\nsecret: xyz\n",                       # bad hex
    b"format: adjudicator-key 1\nsecret: " + SECRET.hex()[:-2].encode() + b"\n",   # too short
    b"format: adjudicator-key 1\nsecret " + SECRET.hex().encode() + b"\n",         # no colon
    b"format: adjudicator-key 1\nsecret: 00\nsecret: 00\n",            # twice
    b"format: adjudicator-key 2\nsecret: " + SECRET.hex().encode() + b"\n",        # unknown format
    b"\xff\xfe\x00garbage",                                             # not UTF-8
])
def test_corrupt_file(store, content):
    a = store.create("demo", secret=SECRET)
    store.path_for("demo", a).write_bytes(content)
    with pytest.raises(ConfigError):
        store.load("demo", a)


def test_corrupt_file_error_does_not_echo_the_secret(store):
    a = store.create("demo", secret=SECRET)
    path = store.path_for("demo", a)
    path.write_text(path.read_text() + f"secret: {hexb(SECRET)}\n")
    with pytest.raises(ConfigError) as e:
        store.load("demo", a)
    assert hexb(SECRET) not in e.value.message


def test_minimal_file_loads(store):
    a = store.create("demo", secret=SECRET)
    store.path_for("demo", a).write_text(f"format: adjudicator-key 1\n\nsecret: {hexb(SECRET).upper()}\n")
    assert store.load("demo", a) == SECRET


@pytest.mark.parametrize("game_id", [
    "", "-x", ".hidden", "a/b", "../up", "a b", "a|b", "x" * 65, "é", "a\n", None,
])
def test_invalid_game_id(store, game_id):
    with pytest.raises(ConfigError, match="invalid game id"):
        store.create(game_id)
    with pytest.raises(ConfigError, match="invalid game id"):
        store.load(game_id, anchor(SECRET))


@pytest.mark.parametrize("game_id", ["a", "G40-2024.game_1", "x" * 64, "0"])
def test_valid_game_id(store, game_id):
    a = store.create(game_id, secret=SECRET)
    assert store.load(game_id, a) == SECRET


def test_bad_given_secret(store):
    with pytest.raises(ConfigError, match="32 bytes"):
        store.create("demo", secret=b"short")
    assert not store.folder.exists() or not any(store.folder.iterdir())


def test_delete_rolls_back(store):
    a = store.create("demo", secret=SECRET)
    store.delete("demo", a)
    assert not store.path_for("demo", a).exists()
    store.delete("demo", a)  # nothing left: still fine
    assert store.create("demo", secret=SECRET) == a


def test_chmod_failure_does_not_crash(store, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError("no modes here")

    monkeypatch.setattr(os, "chmod", refuse)
    a = store.create("demo", secret=SECRET)
    assert store.load("demo", a) == SECRET


# -- keys others could read or replace are refused, as ssh refuses them -------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@posix_only
@pytest.mark.parametrize("file_mode", [0o644, 0o640, 0o604, 0o660, 0o666])
def test_a_key_file_others_may_read_or_change_is_refused(store, file_mode):
    a = store.create("demo", secret=SECRET)
    path = store.path_for("demo", a)
    os.chmod(path, file_mode)
    with pytest.raises(ConfigError, match=r"chmod 600"):
        store.load("demo", a)
    os.chmod(path, 0o600)
    assert store.load("demo", a) == SECRET
    os.chmod(path, 0o400)                      # read-only for its owner is fine
    assert store.load("demo", a) == SECRET


@posix_only
def test_a_symlinked_key_file_is_refused(store, tmp_path):
    a = store.create("demo", secret=SECRET)
    path = store.path_for("demo", a)
    elsewhere = tmp_path / "elsewhere.key"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    with pytest.raises(ConfigError, match="symbolic link"):
        store.load("demo", a)


@posix_only
@pytest.mark.parametrize("folder_mode", [0o777, 0o770, 0o1777, 0o722])
def test_a_key_folder_others_may_write_is_refused(store, folder_mode):
    a = store.create("demo", secret=SECRET)
    os.chmod(store.folder, folder_mode)
    with pytest.raises(ConfigError, match="chmod 700"):
        store.load("demo", a)
    with pytest.raises(ConfigError, match="chmod 700"):
        store.create("other")
    os.chmod(store.folder, 0o755)              # readable by others: the files' own modes protect them
    assert store.load("demo", a) == SECRET


def test_a_key_file_with_a_byte_order_mark_loads(store):
    a = store.create("demo", secret=SECRET)
    path = store.path_for("demo", a)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    assert store.load("demo", a) == SECRET


@posix_only
def test_new_into_a_key_folder_others_may_write_refuses_before_writing_anything(cli, tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir(mode=0o700)
    os.chmod(keys, 0o777)
    out = cli("new", tmp_path / "g.db", "--game", "demo", code=2).output
    assert "chmod 700" in out and "internal error" not in out
    assert not (tmp_path / "g.db").exists() and list(keys.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".g.db")] == []


@posix_only
def test_adjudicate_with_a_key_readable_by_all_says_how_to_fix_it(cli, demo_db, tmp_path):
    cli("submit", demo_db, "--power", "Germans", "-", input="buy 1 inf\nend\n")
    key, = (tmp_path / "keys").iterdir()
    os.chmod(key, 0o644)
    out = cli("adjudicate", demo_db, code=2).output
    assert f"chmod 600 {key}" in out
    os.chmod(key, 0o600)
    cli("adjudicate", demo_db)


def test_a_key_is_discarded_only_through_the_claim_it_was_written_under(store):
    a = store.create("demo", secret=SECRET, claim="1-a")
    store.release("demo", a, "1-a")
    store.discard("demo", a, "1-a")                    # released: a game may use it now
    assert store.load("demo", a) == SECRET
    b = store.create("other", secret=SECRET, claim="2-b")
    store.discard("other", b, "2-b")
    assert sorted(store.folder.iterdir()) == [store.path_for("demo", a)]
    store.discard("demo", a, "9-z")                    # no such claim
    assert store.load("demo", a) == SECRET


@posix_only
@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_key_path_that_is_no_plain_file_is_refused_without_waiting(demo_db, tmp_path, kind):
    """A FIFO in the key's place made `adjudicate` wait for a writer for ever, and a folder gave a message ending
    in a bare file descriptor (": 4"): each is refused before it is read, saying what it is (exit 2)."""
    import subprocess
    import sys
    from adjudicator.demo import SCRIPT
    (tmp_path / "Germans.txt").write_text(SCRIPT["Germans"])
    key, = (tmp_path / "keys").iterdir()
    key.unlink()
    os.mkdir(key, 0o700) if kind == "folder" else os.mkfifo(key, 0o600)
    run = [sys.executable, "-m", "adjudicator"]
    subprocess.run([*run, "submit", demo_db, tmp_path / "Germans.txt", "--power", "Germans"], check=True,
                   capture_output=True)
    out = subprocess.run([*run, "adjudicate", demo_db], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert f"the key file {key} is a {kind}, not a plain file" in out.stderr
    assert not out.stderr.rstrip().endswith(": 4")


def test_a_key_file_that_cannot_be_read_says_the_os_words(store, monkeypatch):
    a = store.create("game1")
    def refuse(*args):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "fdopen", refuse)
    with pytest.raises(ConfigError) as failure:
        store.load("game1", a)
    assert failure.value.message == f"cannot read the key file {store.path_for('game1', a)}: Input/output error"
