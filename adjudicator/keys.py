"""Key files: where a game's chain secret s_N lives, outside the game database.

The database (journal, revealed seeds, state) is meant to be mailed and published for audit; the secret
must not travel with it, or anyone holding a copy could compute every future die. So each game's secret
sits in its own file in a private folder from the configuration: folder mode 0700, file mode 0600.

File name: `<game_id>.<first 16 hex digits of the anchor>.key`, so two games that share an id (say two
`demo` games) never overwrite each other's key.

File format (UTF-8 text, one `name: value` per line; blank lines and lines starting with '#' are ignored):

    # adjudicator dice key -- keep private; without it this game can no longer roll dice
    format: adjudicator-key 1
    game: <game id>
    n: <chain length>
    anchor: <s_0, 64 lowercase hex digits>
    secret: <s_N, 64 lowercase hex digits>

Only `format` and `secret` are read back: the secret is checked against the anchor stored with the game,
which is the one proof that matters. `game`, `n` and `anchor` are there for the person who has to find the
right file in a backup. A byte-order mark (as some Windows editors write) is read past.

As ssh does with private keys, a key that others could read or replace is refused rather than used: a key
file with any permission for group or others, one that is a symbolic link or not owned by the user, or a key
folder that others may write to. The error says the `chmod` that fixes it. (POSIX systems only: elsewhere the
file system has no such modes.)

A key is written first under a claim, `<game_id>.<anchor>.<tag>.claim`, then linked to its own name. While the
claim is there it proves that key is its maker's own and no game's yet: `new` releases the claim just before it
links the game into place, and a later `new` that finds the dead `new`'s leftovers removes a key only through its
claim (`discard`). A key without a claim is never removed on a guess: a game renamed, moved or copied since may
use it, and a lost key ends a game where a stray one costs nothing.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from adjudicator.dice import CHAIN_LENGTH, chain_seed, hexb, new_secret, unhex
from adjudicator.errors import ConfigError

FORMAT = "adjudicator-key 1"
MAX_GAME_ID = 64       # characters: every game that rolls has a key file named by its id (verify reads no longer one)
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}" % (MAX_GAME_ID - 1))
FOLDER_MODE = 0o700
FILE_MODE = 0o600


def check_game_id(game_id: str) -> None:
    """Game ids become file names, so only a safe, short alphabet is accepted."""
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ConfigError(
            f"invalid game id {game_id!r}: use 1 to 64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )


def _chmod(path: Path, mode: int) -> None:
    # Best effort: some file systems (and Windows) cannot do POSIX modes; the key is still written.
    try:
        os.chmod(path, mode)
    except OSError:
        pass


class KeyStore:
    """The private folder holding one key file per game."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def path_for(self, game_id: str, anchor: bytes) -> Path:
        check_game_id(game_id)
        return self.folder / f"{game_id}.{hexb(anchor)[:16]}.key"

    def create(self, game_id: str, secret: bytes | None = None, n: int = CHAIN_LENGTH,
               claim: str | None = None) -> bytes:
        """Write the key file of a new game and return its anchor; never replaces an existing key. Given a `claim`
        tag, the key stays claimed until `release`, so that `discard` may remove it; without one it is released at
        once."""
        check_game_id(game_id)
        if secret is None:
            secret = new_secret()
        try:
            anchor = chain_seed(secret, 0, n)
        except ValueError as e:
            raise ConfigError(f"cannot create the dice chain of game {game_id}: {e}") from None
        self.check_folder()
        self._ensure_folder()
        path = self.path_for(game_id, anchor)
        text = (
            "# adjudicator dice key -- keep private; without it this game can no longer roll dice\n"
            f"format: {FORMAT}\ngame: {game_id}\nn: {n}\nanchor: {hexb(anchor)}\nsecret: {hexb(secret)}\n"
        ).encode("utf-8")
        held = self._claim_path(game_id, anchor, claim or claim_tag())
        self._write_new(held, text, path)
        try:
            os.link(held, path)
        except FileExistsError:
            held.unlink(missing_ok=True)
            raise ConfigError(f"the key file {path} already exists; refusing to overwrite a game's key") from None
        except OSError:                  # a file system without hard links: the key is kept unclaimed
            held.unlink(missing_ok=True)
            self._write_new(path, text, path)
            return anchor
        if claim is None:
            held.unlink()
        return anchor

    def load(self, game_id: str, anchor: bytes, n: int = CHAIN_LENGTH) -> bytes:
        """The secret of a game, proven to lead down its chain to the game's anchor."""
        path = self.path_for(game_id, anchor)
        try:
            self.check_folder()
            text = _read_private(path).decode("utf-8-sig")
        except FileNotFoundError:
            raise ConfigError(
                f"the key file {path.name} of game {game_id} is missing from the key folder {self.folder}; "
                "without it the game can no longer roll dice. Restore the file from a backup "
                "(a new chain is never made silently: it would break the published anchor)"
            ) from None
        except OSError as e:             # the OS's words: a bare exception may end in a file descriptor
            raise ConfigError(f"cannot read the key file {path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"the key file {path} is corrupt: it is not UTF-8 text") from None
        fields = _parse(text, path)
        if fields.get("format") != FORMAT:
            raise ConfigError(f"the key file {path} is corrupt: it does not start with 'format: {FORMAT}'")
        if "secret" not in fields:
            raise ConfigError(f"the key file {path} is corrupt: it has no 'secret:' line")
        try:
            secret = unhex(fields["secret"], "the secret")
        except ValueError as e:
            raise ConfigError(f"the key file {path} is corrupt: {e}") from None
        if chain_seed(secret, 0, n) != bytes(anchor):
            raise ConfigError(
                f"the key file {path} does not belong to game {game_id} "
                f"(its chain does not lead to the anchor {hexb(anchor)}); "
                f"the file says it is for game {fields.get('game', '?')} with anchor {fields.get('anchor', '?')}"
            )
        return secret

    def release(self, game_id: str, anchor: bytes, claim: str) -> None:
        """Give up the claim on a key, before a game that uses it may exist: from then on it is never discarded.
        A claim that cannot be removed stops `new` before the game is linked, as a later sweep would take the key."""
        held = self._claim_path(game_id, anchor, claim)
        try:
            held.unlink(missing_ok=True)
        except OSError as e:
            raise ConfigError(f"cannot remove the claim file {held} in the keys folder ({e.strerror or e}): "
                              "no game was created; check the folder's permissions") from None

    def discard(self, game_id: str, anchor: bytes, claim: str) -> None:
        """Remove what a `new` killed before it released its claim left: the key, if the claim is still the same
        file as the key (it proves no game uses it), and the claim."""
        held, path = self._claim_path(game_id, anchor, claim), self.path_for(game_id, anchor)
        try:
            if os.path.samefile(held, path):
                path.unlink()
        except OSError:                 # gone already, or not removable: a stray key is harmless, and kept
            pass
        try:
            held.unlink(missing_ok=True)
        except OSError:
            pass

    def delete(self, game_id: str, anchor: bytes) -> None:
        """Remove a key file, to roll back a `new` that surely made no game with it (its link into place failed);
        one that cannot be removed is left, a stray key being harmless."""
        try:
            self.path_for(game_id, anchor).unlink(missing_ok=True)
        except OSError:
            pass

    def _claim_path(self, game_id: str, anchor: bytes, claim: str) -> Path:
        return self.path_for(game_id, anchor).with_suffix(f".{claim}.claim")

    def check_folder(self) -> None:
        """Refuse a key folder that others may write to: they could swap a game's key for their own."""
        if os.name != "posix":
            return
        try:
            st = os.stat(self.folder)
        except FileNotFoundError:
            return
        except OSError as e:
            raise ConfigError(f"cannot use the key folder {self.folder}: {e}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise ConfigError(f"the key folder {self.folder} is not a folder")
        if st.st_mode & 0o022:
            raise ConfigError(f"the key folder {self.folder} may be written by others (mode {stat.S_IMODE(st.st_mode):04o}): "
                              f"anyone could replace a game's key. Run `chmod 700 {self.folder}`")
        if st.st_uid not in (os.geteuid(), 0):
            raise ConfigError(f"the key folder {self.folder} belongs to another user (uid {st.st_uid}): use a folder of your own")

    def _ensure_folder(self) -> None:
        if self.folder.is_dir():
            return
        try:
            # exist_ok: another command (a second `new` started at once) may make it between the test and here
            self.folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"cannot create the key folder {self.folder}: {e}") from None
        _chmod(self.folder, FOLDER_MODE)  # mkdir's mode is reduced by the umask

    def _write_new(self, path: Path, data: bytes, shown: Path) -> None:
        # O_EXCL refuses an existing file atomically, and the mode is set at creation, so the secret is
        # never readable by others, not even for an instant. Errors name the key file (`shown`), not its claim.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            raise ConfigError(f"the key file {shown} already exists; refusing to overwrite a game's key") from None
        except OSError as e:
            raise ConfigError(f"cannot create the key file {shown}: {e.strerror or e}") from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            path.unlink(missing_ok=True)
            raise ConfigError(f"cannot write the key file {shown}: {e.strerror or e}") from None
        _chmod(path, FILE_MODE)


def claim_tag() -> str:
    """A claim's tag, unique to one command: its process id (to tell whether it still runs) and a random part."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def _read_private(path: Path) -> bytes:
    """The key file's bytes, if only its owner can read or change it (see the module's docstring). What the path
    is, is checked on the open descriptor before anything is read: opened without blocking, so that a FIFO put in
    the key's place (which would wait for a writer for ever) is refused like a folder or a device."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if path.is_symlink():
            raise ConfigError(f"the key file {path} is a symbolic link: a key must be a plain file in the key "
                              "folder (copy the file there instead of linking it)") from None
        raise e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe" if stat.S_ISFIFO(st.st_mode) else "no file"
            raise ConfigError(f"the key file {path} is {kind}, not a plain file: put the game's key file there "
                              "(restore it from a backup)")
        if os.name == "posix":
            if st.st_mode & 0o077:
                raise ConfigError(f"the key file {path} may be read or changed by others "
                                  f"(mode {stat.S_IMODE(st.st_mode):04o}): it is not used, since anyone who reads it "
                                  f"can compute every future die. Run `chmod 600 {path}`, and if others could read it, "
                                  "treat the game's dice as known to them")
            if st.st_uid not in (os.geteuid(), 0):
                raise ConfigError(f"the key file {path} belongs to another user (uid {st.st_uid}); it is not used")
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        return f.read()


def _parse(text: str, path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition(":")
        name = name.strip()
        if not sep or not name or name in fields:
            # The line is not echoed: it may hold the secret.
            raise ConfigError(f"the key file {path} is corrupt at line {number}")
        fields[name] = value.strip()
    return fields
