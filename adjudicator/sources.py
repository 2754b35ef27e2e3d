"""Where `watch` finds what players sent: the host's mailbox (a Maildir, or a folder on an IMAP server) and each
game's forum topic (delivery/nodebb.py reads it).

A league watches hundreds of games and most rounds bring nothing, so the mailbox is read once a round for every
game, and only from where the games last read it: each game keeps its own mark (the IMAP folder's UIDVALIDITY and
the last UID it read; a Maildir's time of its last reading), so that a game that failed in a round reads the same
mail again in the next, and the other games do not. Reading never changes the mailbox: the IMAP folder is opened
read-only (EXAMINE, BODY.PEEK) and a Maildir's files are only read, so the players' mail stays as the host's own
mail client expects it.
"""

from __future__ import annotations

import hashlib
import imaplib
import os
import re
import socket
import ssl
import time
from dataclasses import dataclass
from pathlib import Path

from .config import check_destination
from .delivery.mail import _is_loopback
from .errors import ConfigError, DeliveryError

MAILDIR_VAR = "ADJUDICATOR_MAILDIR"
IMAP = "ADJUDICATOR_IMAP_"
IMAP_ADDRESS = (f"{IMAP}HOST", f"{IMAP}PORT", f"{IMAP}SECURITY")      # where the IMAP password goes (config.py)
IMAP_PORTS = {"ssl": 993, "starttls": 143, "none": 143}
IMAP_TIMEOUT = 30.0
# A Maildir file's change time is when it was moved into new/ (or cur/): one moved in while the folder was listed
# may carry a time just before the listing's. Files this much older than a game's mark are read again (and found
# taken: intake keeps each message once).
MAILDIR_MARGIN = 2.0
_UID = re.compile(rb"UID (\d+)")


@dataclass(frozen=True)
class Mark:
    """Where a game last read the mailbox: `box` names the mailbox (a hash, so that no path or login of the host
    lands in a game database), `epoch` the IMAP folder's UIDVALIDITY (0 for a Maildir), `last` the last UID read
    (a Maildir: the time of the reading)."""
    box: str
    epoch: int
    last: float

    def text(self) -> str:
        return f"{self.box} {self.epoch} {self.last!r}"      # exactly: `:g` keeps 6 digits of a time

    @classmethod
    def parse(cls, text: str | None) -> Mark | None:
        """A mark as a game keeps it; None for none, or one that is not a mark (the game reads the mailbox whole)."""
        parts = str(text or "").split()
        try:
            return cls(parts[0], int(parts[1]), float(parts[2])) if len(parts) == 3 else None
        except ValueError:
            return None


@dataclass(frozen=True)
class Mail:
    position: float                 # the IMAP UID, or the Maildir file's change time
    raw: bytes


@dataclass
class Batch:
    """The mail read in one round: what is new for each game is what lies after its mark."""
    box: str
    epoch: int
    top: float                      # the mark of a game that read the whole batch
    mails: list[Mail]
    margin: float = 0.0

    def knows(self, mark: Mark | None) -> bool:
        """Whether `mark` is a place in this mailbox as it is numbered now."""
        return mark is not None and mark.box == self.box and mark.epoch == self.epoch

    def after(self, mark: Mark | None) -> list[Mail]:
        if not self.knows(mark):
            return list(self.mails)
        return [m for m in self.mails if m.position > mark.last - self.margin]

    def mark(self) -> Mark:
        return Mark(self.box, self.epoch, self.top)


def mailbox():
    """The mailbox the settings name (a Maildir or an IMAP folder), or None when neither is set: `watch` then reads
    the forum alone. Both set is refused: which one holds the players' mail?"""
    maildir, host = os.environ.get(MAILDIR_VAR, "").strip(), os.environ.get(f"{IMAP}HOST", "").strip()
    if maildir and host:
        raise ConfigError(f"both {MAILDIR_VAR} and {IMAP}HOST are set: `watch` reads one mailbox, so unset one")
    if maildir:
        return Maildir(Path(maildir).expanduser())
    return Imap.from_env() if host else None


def _box(*names: object) -> str:
    return hashlib.sha256(" ".join(map(str, names)).encode()).hexdigest()[:16]


class Maildir:
    """A Maildir (maildir(5)) that the mail server delivers into: the mails in new/ and cur/ (tmp/ holds mail still
    arriving), read and left where they are."""

    def __init__(self, path: Path):
        if not (path / "new").is_dir() or not (path / "cur").is_dir():
            raise ConfigError(f"{MAILDIR_VAR} is {str(path)!r}, which is not a Maildir (a folder with new/, cur/ "
                              "and tmp/ in it, as the mail server delivers into): give the Maildir's own folder")
        self.path = path
        self.box = _box("maildir", path.resolve())

    def read(self, marks: list[Mark | None]) -> Batch:
        start = time.time()
        known = [m for m in marks if m and m.box == self.box]
        since = min(m.last for m in known) if known and len(known) == len(marks) else 0.0
        mails = []
        for sub in ("new", "cur"):
            try:
                entries = list(os.scandir(self.path / sub))
            except OSError as exc:
                raise DeliveryError(f"cannot read the Maildir's {sub}/ ({exc.strerror}): check {MAILDIR_VAR} and "
                                    "the folder's permissions") from None
            for entry in entries:
                try:
                    changed = entry.stat().st_ctime
                    if changed > since - MAILDIR_MARGIN and entry.is_file() and not entry.name.startswith("."):
                        mails.append(Mail(changed, Path(entry.path).read_bytes()))
                except OSError:
                    continue                    # moved into cur/ by the host's mail client meanwhile: read there
        mails.sort(key=lambda m: m.position)
        return Batch(self.box, 0, start, mails, MAILDIR_MARGIN)


@dataclass(frozen=True)
class Imap:
    """A folder on an IMAP server, read by UID: a message keeps its UID for as long as the folder's UIDVALIDITY
    stays, so a game reads only what came after the last UID it read."""
    host: str
    port: int
    user: str
    password: str
    folder: str
    security: str

    @classmethod
    def from_env(cls) -> Imap:
        """The ADJUDICATOR_IMAP_* settings, checked as the SMTP settings are: the password travels only inside TLS,
        except to a server on this machine."""
        env = os.environ
        check_destination(IMAP_ADDRESS, (f"{IMAP}PASSWORD",))
        host = env.get(f"{IMAP}HOST", "").strip()
        loopback = _is_loopback(host)
        security = env.get(f"{IMAP}SECURITY", "").strip().lower() or ("none" if loopback else "ssl")
        if security not in IMAP_PORTS:
            raise ConfigError(f"{IMAP}SECURITY is {security!r}: use ssl (TLS from the start, port 993), starttls "
                              f"(port 143) or none (only for a server on this machine)")
        if security == "none" and not loopback:
            raise ConfigError(f"{IMAP}SECURITY is none, so the password for {host} would travel unencrypted: use "
                              f"ssl or starttls, or none only for a server on this machine (localhost)")
        port = IMAP_PORTS[security]
        if text := env.get(f"{IMAP}PORT", "").strip():
            port = int(text) if text.isdigit() else 0
            if not 0 < port < 65536:
                raise ConfigError(f"{IMAP}PORT is {text!r}: give a port number from 1 to 65535")
        user, password = env.get(f"{IMAP}USER", "").strip(), env.get(f"{IMAP}PASSWORD") or ""
        if not user or not password:
            raise ConfigError(f"{IMAP}USER and {IMAP}PASSWORD must both be set: the login of the mailbox the "
                              "players' orders are mailed to")
        for name, value in ((f"{IMAP}USER", user), (f"{IMAP}PASSWORD", password)):
            if not value.isascii():            # imaplib sends a login as ASCII only
                raise ConfigError(f"{name} holds characters outside ASCII, which IMAP login cannot send")
        folder = env.get(f"{IMAP}FOLDER", "").strip() or "INBOX"
        return cls(host, port, user, password, folder, security)

    @property
    def box(self) -> str:
        return _box("imap", self.host, self.port, self.user, self.folder)

    def read(self, marks: list[Mark | None]) -> Batch:
        """The mail after the earliest mark of the games, in one session: EXAMINE (read-only), UID SEARCH, one
        UID FETCH of BODY.PEEK[]."""
        try:
            client = self._connect()
            try:
                return self._read(client, marks)
            finally:
                try:
                    client.logout()
                except (imaplib.IMAP4.error, OSError):
                    pass
        except imaplib.IMAP4.error as exc:
            raise self._failure(str(exc)) from None
        except ssl.SSLCertVerificationError as exc:
            raise self._failure(f"its TLS certificate is not trusted ({exc.verify_message}): {IMAP}HOST must be "
                                "the name in the certificate, and a private certificate authority needs "
                                "SSL_CERT_FILE") from None
        except socket.gaierror as exc:
            raise self._failure(f"the host is not found ({exc.strerror}): check {IMAP}HOST") from None
        except (OSError, EOFError) as exc:
            raise self._failure(f"{getattr(exc, 'strerror', None) or exc or type(exc).__name__}: check "
                                f"{IMAP}HOST, {IMAP}PORT and {IMAP}SECURITY") from None

    def _connect(self) -> imaplib.IMAP4:
        context = ssl.create_default_context()
        if self.security == "ssl":
            client = imaplib.IMAP4_SSL(self.host, self.port, ssl_context=context, timeout=IMAP_TIMEOUT)
        else:
            client = imaplib.IMAP4(self.host, self.port, timeout=IMAP_TIMEOUT)
            if self.security == "starttls":
                client.starttls(context)
        try:
            client.login(self.user, self.password)
        except imaplib.IMAP4.error as exc:
            client.logout()
            raise imaplib.IMAP4.error(f"it refused the login of {self.user} ({_said(exc)}): check {IMAP}USER and "
                                      f"{IMAP}PASSWORD") from None
        return client

    def _read(self, client: imaplib.IMAP4, marks: list[Mark | None]) -> Batch:
        status, said = client.select(_quoted(self.folder), readonly=True)
        if status != "OK":
            raise imaplib.IMAP4.error(f"it has no folder {self.folder!r} to read ({_said(said)}): check "
                                      f"{IMAP}FOLDER")
        epoch = int((client.response("UIDVALIDITY")[1] or [b"0"])[0] or 0)
        known = [m for m in marks if m and m.box == self.box and m.epoch == epoch]
        since = int(min(m.last for m in known)) if known and len(known) == len(marks) else 0
        status, found = client.uid("SEARCH", f"UID {since + 1}:*")
        uids = sorted(int(u) for u in b" ".join(x for x in found if x).split()) if status == "OK" else []
        uids = [u for u in uids if u > since]      # n:* names the last message even when n is past it
        mails = []
        if uids:
            status, data = client.uid("FETCH", ",".join(map(str, uids)), "(UID BODY.PEEK[])")
            if status != "OK":
                raise imaplib.IMAP4.error(f"it did not give the new mail ({_said(data)})")
            for item in data:
                if isinstance(item, tuple) and (uid := _UID.search(item[0])):
                    mails.append(Mail(int(uid[1]), item[1]))
        mails.sort(key=lambda m: m.position)
        top = max([since, *uids])
        return Batch(self.box, epoch, top, mails)

    def _failure(self, why: str) -> DeliveryError:
        from .redact import redact
        return DeliveryError(redact(f"cannot read mail from the IMAP server {self.host}:{self.port}: {why}",
                                    [self.password]))


def _quoted(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _said(said: object) -> str:
    """The server's words: imaplib gives them as bytes, alone, in a list, or as an error's argument."""
    if isinstance(said, Exception):
        said = said.args[0] if said.args else str(said)
    words = said if isinstance(said, list) else [said]
    return " ".join(w.decode(errors="replace") if isinstance(w, bytes) else str(w) for w in words if w)
