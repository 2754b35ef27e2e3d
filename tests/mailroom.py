"""Mail and forum for the tests of orders in (issue 33): the corpus of players' mails, an IMAP server, a Maildir
and a forum with the players' accounts, each set in the environment the way a host sets them.

    from mailroom import game_forum, imap, maildir, mail    # pytest uses the fixtures a test module imports

    def test_x(imap, maildir, game_forum):
        imap.append(mail("01"))                  # ADJUDICATOR_IMAP_* name this server
        maildir.deliver("02")                    # ADJUDICATOR_MAILDIR names this folder
        game_forum.post_as(TOPIC, "marco", ITALIAN_ORDERS)     # ADJUDICATOR_NODEBB_* name the host's account

The corpus's game, players and what each mail holds: tests/mails/README.md.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from adjudicator.delivery import nodebb
from imap_standin import ImapStandIn
from nodebb_standin import NodeBBStandIn
from test_nodebb import Clock

MAILS = Path(__file__).parent / "mails"
GAME_ID = "kursk-1"
PLAYERS = {"Germans": "juergen@example.org", "Russians": "dmitri.volkov@example.com",
           "Italians": "marco.rossi@example.org"}
HOST_ADDRESS = "host@example.org"
IMAP_USER, IMAP_PASSWORD = HOST_ADDRESS, "imap-secret"


def mail(name: str) -> bytes:
    """A corpus mail's bytes, by its file name or its number ("01")."""
    found = [p for p in MAILS.iterdir() if p.name == name or p.name.startswith(f"{name}-")]
    if len(found) != 1:
        raise LookupError(f"no single mail {name!r} in {MAILS.name}/: {sorted(p.name for p in found)}")
    return found[0].read_bytes()


@pytest.fixture
def imap(monkeypatch) -> Iterator[ImapStandIn]:
    """An empty IMAP server with the host's login, which ADJUDICATOR_IMAP_HOST, _PORT, _USER, _PASSWORD and
    _FOLDER name."""
    with ImapStandIn(users={IMAP_USER: IMAP_PASSWORD}) as server:
        for key, value in {"HOST": server.host, "PORT": str(server.port), "USER": IMAP_USER,
                           "PASSWORD": IMAP_PASSWORD, "FOLDER": "INBOX"}.items():
            monkeypatch.setenv(f"ADJUDICATOR_IMAP_{key}", value)
        yield server


class Maildir:
    """A Maildir as a mail server's delivery agent fills it and a mail client reads it (the maildir(5) rules):
    a mail is written into tmp/ and then moved into new/; a client that has seen it moves it into cur/ with its
    flags after ":2,". A mail still in tmp/ is being delivered and is no one's to read."""

    _count = itertools.count(1)

    def __init__(self, path: Path):
        self.path = path
        for sub in ("tmp", "new", "cur"):
            (path / sub).mkdir(parents=True, exist_ok=True)

    def deliver(self, message: str | bytes) -> Path:
        """A corpus mail (by name or number) or raw bytes, delivered into new/."""
        arriving = self.arriving(message)
        delivered = self.path / "new" / arriving.name
        os.rename(arriving, delivered)
        return delivered

    def arriving(self, message: str | bytes) -> Path:
        """A mail half-way through delivery: in tmp/ only."""
        data = mail(message) if isinstance(message, str) else message
        now = time.time()
        name = f"{int(now)}.M{int(now % 1 * 1e6)}P{os.getpid()}Q{next(self._count)}.mailroom"
        path = self.path / "tmp" / name
        path.write_bytes(data)
        return path

    def seen(self, delivered: Path, flags: str = "S") -> Path:
        """What a mail client does to a mail it showed: moved into cur/, flags after ":2," (S for seen)."""
        path = self.path / "cur" / f"{delivered.name.split(':')[0]}:2,{flags}"
        os.rename(delivered, path)
        return path


@pytest.fixture
def maildir(tmp_path, monkeypatch) -> Maildir:
    """An empty Maildir that ADJUDICATOR_MAILDIR names."""
    box = Maildir(tmp_path / "Maildir")
    monkeypatch.setenv("ADJUDICATOR_MAILDIR", str(box.path))
    return box


# -- the forum -----------------------------------------------------------------------------------------------------

TOPIC = 7
HOST_TOKEN, HOST_USER, HOST_PASSWORD = "tok-host", "host", "pw-host"
FORUM_PLAYERS = {"Germans": "juergen", "Russians": "dmitri", "Italians": "marco"}   # forum user names
# Full names, shown as display names: "mallory" chose the German player's, which NodeBB allows
FULLNAMES = {"juergen": "Jürgen Müller", "dmitri": "Дмитрий Волков", "marco": "Marco Rossi",
             "mallory": "Jürgen Müller"}


def token(user: str) -> str:
    """The API token of a forum account of `game_forum`."""
    return f"tok-{user}"


@pytest.fixture
def game_forum(monkeypatch) -> Iterator[NodeBBStandIn]:
    """A NodeBB forum with the game's topic (TOPIC, opened by the host), the players' accounts and a stranger's
    (each with `token(user)`), full names shown as display names; ADJUDICATOR_NODEBB_* name the host's account.
    The post delay (1 s) runs on a fake clock that the in-process client's waits advance, as in test_delivery."""
    clock = Clock()
    monkeypatch.setattr(nodebb, "NodeBB", partial(nodebb.NodeBB, sleep=clock.sleep))
    tokens = {token(user): user for user in (HOST_USER, *FULLNAMES)}
    with NodeBBStandIn(tokens=tokens, users={HOST_USER: HOST_PASSWORD}, topics=(), post_delay=1, clock=clock,
                       fullnames=FULLNAMES, fullname_as_displayname=True) as forum:
        forum.open_topic(TOPIC, HOST_USER, f"Game {GAME_ID}: post your orders here, one post a turn.", GAME_ID)
        for key, value in {"URL": forum.url, "TOKEN": token(HOST_USER), "USER": HOST_USER,
                           "PASSWORD": HOST_PASSWORD}.items():
            monkeypatch.setenv(f"ADJUDICATOR_NODEBB_{key}", value)
        yield forum
