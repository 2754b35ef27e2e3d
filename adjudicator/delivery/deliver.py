"""Posting a turn's report to the game's forum topic and mailing it to the players, remembered in the journal.

Delivery comes after the adjudication has been committed: a forum or mail server that fails can never lose a
turn, and `post` / `mail` retried later send only what did not go out. A turn played in two adjudications
(combat, then the rest) has two reports; each is delivered once.

A command can be killed while the forum or the mail server holds its request: the part went out, and nothing
says so. So each part is recorded twice, each time in a transaction of its own: the intent before the request
goes (a Delivery row with no ref), its post id or Message-ID once the answer came. A part intended and not
answered is looked for before it is posted again: every posted part ends in a mark line naming the game, turn,
report and part, and the start of the state hash after the report's last step (a value nobody has before the
report is made, so no player can plant a mark, in a salt or an order the report prints, that passes for a part not
posted yet); `NodeBB.find` takes a post for the part only when the mark is its last line. Posted once, whatever
the kill. Mail over SMTP cannot be told that way: a mail intended and not answered is sent again, with the same
Message-ID (derived from the game, the report and the recipients), so that mail clients show it once.

Two deliveries of one game at once would each take the other's intent for a killed run's and send again: a
delivery holds the game's delivery lock from before it reads what went out until it is done (`one_delivery`), a
lock the operating system or the database server lets go of when the process dies, so a killed run never
leaves it held.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from .. import report
from ..report_parts import render_parts
from ..site.link import with_site_link
from ..config import FORUM, check_destination
from ..contacts import ADDRESS
from ..errors import AdjudicatorError, ConfigError, DeliveryError, StoreError
from ..redact import redact, url_secrets
from ..store import db, shapes
from ..store.journal import Delivery, Step
from ..store.models import GameSetting

THREAD_TAIL = 10           # the latest mails of a game a mail's References name, after the game's first
POST_MARGIN = 400          # characters kept free under the forum's limit for the picture's link
TOPIC = "nodebb_topic"
# nodebb-plugin-mentions (library.js) makes a mention that notifies a user of every `@name` not preceded by a
# letter: `@bob`, `(@bob)`, `2@bob`, but not `infantry@2`. A word joiner after the `@` keeps the text as it reads
# and notifies nobody (the notation and verify drop it when the text is pasted back).
_MENTION = re.compile(r"(?<![^\W\d_])@(?=[\w.@-])")
_DELIVERY_LOCKS = 7317     # the key space of the advisory locks of deliveries (db._ID_LOCKS is 7316)
BUSY = ("another `post` or `mail` of this game is under way (it held the game's delivery lock for {wait:g} s); "
        "nothing was sent: run it again once that one has ended, and it sends only what did not go out")


def set_topic(engine, topic: str) -> int:
    """Remember the forum topic that the game's reports go to (`new --topic`, `post --topic`)."""
    tid = topic_id(topic)
    with db.transaction(engine, write=True) as s:
        game = db.the_game(s)
        row = s.get(GameSetting, (game.id, TOPIC)) or GameSetting(game_id=game.id, key=TOPIC, value="")
        row.value = str(tid)
        s.add(row)
        s.commit()
    return tid


def topic_id(topic: str) -> int:
    """A topic id, also read from a topic's address as the forum shows it (…/topic/1234/some-title); one that is
    not is refused without the address's login, which a host may have copied along with it."""
    found = re.search(r"(?:^|/topic/)([0-9]{1,16})(?:$|[/?#])", topic.strip())
    if not found or not 0 < int(found.group(1)) < 2**53:
        raise ConfigError(f"a topic is given by its number or its address (…/topic/1234/…), not "
                          f"{redact(topic, url_secrets(topic))!r}")
    return int(found.group(1))


def unmention(text: str) -> str:
    return _MENTION.sub("@\u2060", text)


def forum_settings(engine) -> tuple[str, str, int]:
    """The forum's address, the token and the game's topic, or a ConfigError naming what to set: checked before
    `adjudicate --post` plays anything."""
    from .nodebb import PASSWORD_VAR, TOKEN_VAR, URL_VAR
    url, token = os.environ.get(URL_VAR, "").strip(), os.environ.get(TOKEN_VAR, "").strip()
    check_destination(FORUM, (TOKEN_VAR, PASSWORD_VAR))
    if not url:
        raise ConfigError(f"{URL_VAR} is not set: give the forum's address, e.g. "
                          "https://www.axisandallies.org/forums (in the environment or .env)")
    if not token:
        raise ConfigError(f"{TOKEN_VAR} is not set: create a token in the forum (your profile > Edit > "
                          "API tokens, or ask an administrator) and set it in the environment or .env")
    with db.transaction(engine) as s:
        game = db.the_game(s)
        setting = s.get(GameSetting, (game.id, TOPIC)) if db.has_table(s, "game_setting") else None
    if setting is None:
        raise ConfigError("this game has no forum topic yet: give it with `adjudicator post DB --topic TID` "
                          "(the number in the topic's address), or at `new --topic TID`")
    try:
        return url, token, topic_id(str(setting.value))
    except ConfigError:
        raise StoreError(db.damaged(f"the game's forum topic is {str(setting.value)[:40]!r}, not a topic number: "
                                    "give it again with `adjudicator post DB --topic TID`")) from None


def mail_settings(engine):
    """The SMTP settings and the players' addresses, or a ConfigError: checked before `adjudicate --mail`."""
    from .mail import smtp_settings
    smtp = smtp_settings()
    with db.transaction(engine) as s:
        game = db.the_game(s)
        powers = db.rows(s, "SELECT name, contact FROM power WHERE game_id = :game ORDER BY turn_order", game=game.id)
    shapes.contacts(powers)
    addresses = list(dict.fromkeys(p.contact for p in powers if ADDRESS.fullmatch(p.contact)))
    if not addresses:
        raise ConfigError("no player of this game has a mail address: give them with `contact --player POWER=ADDRESS`")
    return smtp, addresses


def post(engine, turn_index: int | None = None, picture: bool = True) -> dict:
    """Reply to the game's topic with the report of a turn (the latest by default), split under the forum's
    limit, with the map picture uploaded and linked when the forum login allows it."""
    url, token, tid = forum_settings(engine)
    with one_delivery(engine):
        return _post(engine, url, token, tid, turn_index, picture)


def _post(engine, url: str, token: str, tid: int, turn_index: int | None, picture: bool) -> dict:
    from .nodebb import PASSWORD_VAR, USER_VAR, NodeBB
    with db.transaction(engine) as s:
        game = db.the_game(s)
        gid = game.id
        turn, step, state_hash = _covered(s, game, turn_index)
        rows = _delivered(s, game, turn, step, "nodebb", str(tid))
    done = {d.part: d.ref for d in rows if d.ref}
    if rows and len(done) == rows[0].parts:
        return {"turn": turn, "topic": tid, "posted": [], "already": list(done.values()), "picture": None}
    user = os.environ.get(USER_VAR, "").strip() or None
    password = os.environ.get(PASSWORD_VAR) or None
    with NodeBB(url, token, user, password) as forum:
        room = len(_mark(gid, turn, step, 999, 999, state_hash)) + 2
        limit = forum.max_post_length() - POST_MARGIN - room - len(with_site_link("", turn))
        with db.transaction(engine) as s:
            parts = [unmention(p) for p in render_parts(s, turn, "markdown", limit)]
        parts[-1] = with_site_link(parts[-1], turn)
        if rows and rows[0].parts != len(parts):
            raise DeliveryError(f"this report was begun as {rows[0].parts} parts ({len(done)} of them posted), but "
                                f"the forum's limit now splits it into {len(parts)}: post the rest by hand from "
                                f"`adjudicator report DB --turn {turn}`")
        marks = [_mark(gid, turn, step, k, len(parts), state_hash) for k in range(1, len(parts) + 1)]
        intended = [d.part for d in rows if not d.ref]
        done |= _found(engine, forum, tid, turn, step, {k: marks[k - 1] for k in intended})
        already = [done[k] for k in sorted(done)]
        link = unlinked = None
        if 1 not in done:
            with db.transaction(engine) as s:
                png = _picture(s, db.the_game(s), turn) if picture else None
            if png is not None:
                link = forum.upload(f"{gid}-turn{turn}.png", png)
                if link:
                    parts[0] = _with_picture(parts[0], link, turn)
                else:           # the host's to mend, not the players' to read in the topic
                    unlinked = ("no map picture: the forum login for uploads (ADJUDICATOR_NODEBB_USER and _PASSWORD) "
                                f"is not set; `adjudicator map DB --turn {turn} -o map.png` draws it")
        posted = []
        for k, (text, mark) in enumerate(zip(parts, marks), 1):
            if k in done:
                continue
            if k not in intended:
                _intend(engine, turn, step, "nodebb", k, len(parts), [str(tid)])
            pid = forum.reply(tid, f"{text}\n\n{mark}", mark)
            _answered(engine, turn, step, "nodebb", k, [str(tid)], str(pid))
            posted.append(pid)
    return {"turn": turn, "topic": tid, "posted": posted, "already": already, "picture": link,
            **({"warning": unlinked} if unlinked else {})}


def _found(engine, forum, tid: int, turn: int, step: int, marks: dict[int, str]) -> dict[int, str]:
    """The post ids of the parts a killed run sent without hearing the answer, found in the topic by their marks,
    and recorded as posted."""
    found = forum.find(tid, marks.values()) if marks else {}
    refs = {k: str(found[mark]) for k, mark in marks.items() if mark in found}
    for k, ref in refs.items():
        _answered(engine, turn, step, "nodebb", k, [str(tid)], ref)
    return refs


def _mark(game_id: str, turn: int, step: int, part: int, parts: int, state_hash: str) -> str:
    """The last line of a posted part, by which a retry finds it in the topic: the report's step tells apart the
    two reports of a turn played in two adjudications. It ends in the first 16 hex digits of the state hash after
    that step, which exists only once the report is made: a mark a player put in an earlier post (a salt line,
    which the report prints) is not this one."""
    return (f"Delivery mark: game {unmention(game_id)}, turn {turn}, report {step}, part {part} of {parts}, "
            f"state {state_hash[:16]}.")


def _with_picture(first: str, link: str, turn: int) -> str:
    """The map under the report's first heading."""
    head, _, rest = first.partition("\n\n")
    return f"{head}\n\n![Map after turn {turn}]({link})\n\n{rest}"


def mail(engine, turn_index: int | None = None, picture: bool = True) -> dict:
    """Mail the plain-text report of a turn to every player whose contact is a mail address: first again to the
    addresses of a mail whose answer never came (the same message), then to those never mailed."""
    smtp, addresses = mail_settings(engine)
    with one_delivery(engine):
        return _mail(engine, smtp, addresses, turn_index, picture)


def _mail(engine, smtp, addresses: list[str], turn_index: int | None, picture: bool) -> dict:
    from .mail import send
    with db.transaction(engine) as s:
        game = db.the_game(s)
        turn, step, _ = _covered(s, game, turn_index)
        rows = _delivered(s, game, turn, step, "mail", None)
        sent = {d.target for d in rows if d.ref}
        intended = {d.target for d in rows if not d.ref}
        groups = [g for g in ([a for a in addresses if a in intended],
                              [a for a in addresses if a not in sent | intended]) if g]
        if not groups:
            return {"turn": turn, "to": [], "already": sorted(sent), "message_id": None}
        ctx = report.context(s, turn)
        text = with_site_link(report.render_context(ctx, "text"), turn)
        when = "bid before round 1" if ctx["turn"]["bid"] else f"round {ctx['turn']['round']}"
        subject = f"[{game.id}] {when}, {ctx['turn']['name']}"
        png = _picture(s, game, turn) if picture else None
        msgid, thread = _mail_ids(s, game, smtp, turn, step)
    attachments = [(f"{game.id}-turn{turn}.png", png, "image/png")] if png else []
    for to in groups:
        if not intended.issuperset(to):
            _intend(engine, turn, step, "mail", 1, 1, to)
        send(smtp, to, subject, text, attachments, msgid=msgid, thread=thread)
        _answered(engine, turn, step, "mail", 1, to, msgid)
    return {"turn": turn, "to": [a for to in groups for a in to], "already": sorted(sent),
            "message_id": msgid, "subject": subject}


def _mail_ids(s: Session, game, smtp, turn: int, step: int) -> tuple[str, list[str]]:
    """The Message-ID of a report's mail, derived from the game and the report alone: every recipient's copy, and
    a copy sent again after a kill, is the same message. And the mails it follows, the first of the game and the
    latest before it (THREAD_TAIL of them) for a client to show the game's mails as one conversation: derived the
    same way from the reports mailed before, so that a run again after a crash makes the same headers."""
    from .mail import message_id
    def derived(t: int, st: int) -> str:
        return message_id(smtp, f"{game.anchor} {game.id} turn {t} report {st}")
    earlier: dict[int, str] = {}
    for row in _delivered(s, game, None, None, "mail", None):
        if row.step < step:     # a mail an older version sent holds its own Message-ID
            earlier.setdefault(row.step, row.ref or derived(row.turn_index, row.step))
    thread = [earlier[st] for st in sorted(earlier)]
    return derived(turn, step), list(dict.fromkeys(thread[:1] + thread[-THREAD_TAIL:]))


def _covered(s: Session, game, turn_index: int | None) -> tuple[int, int, str]:
    """The turn to deliver (the latest played by default), the last step its report covers and the state hash
    after that step."""
    steps = list(s.exec(select(Step).where(Step.game_id == game.id, Step.phase != "standing").order_by(Step.seq)))
    if turn_index is None and steps:
        turn_index = steps[-1].turn_index
    mine = [st for st in steps if st.turn_index == turn_index]
    if not mine:
        report.turn_context(s, turn_index)          # raises the report's own message: nothing played, or no such turn
    if not shapes.whole(mine[-1].seq):              # it names the report in the delivery records and mail headers
        raise shapes.Damaged(f"the step rows are numbered up to {str(mine[-1].seq)[:40]!r}, not a whole number from 1")
    return turn_index, mine[-1].seq, str(mine[-1].state_hash)


@contextmanager
def one_delivery(engine):
    """Holds the game's delivery lock while the block runs: a second `post` or `mail` of the game (or `adjudicate
    --post`) waits for it up to ADJUDICATOR_BUSY_TIMEOUT seconds, then stops with a DeliveryError (exit 4), having
    sent nothing."""
    with game_lock(engine, "lock", _DELIVERY_LOCKS, db.busy_timeout(), BUSY):
        yield


@contextmanager
def game_lock(engine, name: str, space: int, wait: float, busy: str):
    """Holds one of the game's locks while the block runs, waiting for it up to `wait` seconds, then a
    DeliveryError saying `busy` (with {wait}). A SQLite game locks a hidden file beside its own (`.NAME.<name>`:
    flock, not the database file, whose POSIX locks SQLite holds and any other close of it would drop); a league,
    a session-level advisory lock on the game's id in the key space `space`, on a connection kept open for the
    run. Both go when the process dies."""
    if engine.dialect.name == "sqlite":
        with _file_lock(engine.url.database, name, wait, busy):
            yield
        return
    with db.transaction(engine) as s:
        gid = db.the_game(s).id
    lock = {"space": space, "key": int.from_bytes(hashlib.sha256(gid.encode()).digest()[:4], "big", signed=True)}
    with db.guard(), engine.connect() as conn:
        ask = text("SELECT pg_try_advisory_lock(CAST(:space AS integer), CAST(:key AS integer))")
        _retry(lambda: conn.execute(ask, lock).scalar(), wait, busy)
        conn.commit()
        try:
            yield
        finally:        # the pool keeps the connection, and with it a lock not given back; a lost one drops it
            try:
                conn.execute(text("SELECT pg_advisory_unlock(CAST(:space AS integer), CAST(:key AS integer))"), lock)
                conn.commit()
            except DBAPIError:
                conn.invalidate()


@contextmanager
def _file_lock(database: str | None, name: str, wait: float, busy: str):
    if not database or database == ":memory:" or database.startswith("file:"):
        yield                                   # no file beside which to lock: nothing else can open it either
        return
    path = Path(database)
    lock = path.with_name(f".{path.name}.{name}")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot open the delivery lock {lock} ({exc.strerror}): the folder of the game "
                         "database must be writable") from None
    try:
        try:
            import fcntl
            _retry(lambda: _try_lock(lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)), wait, busy)
        except ImportError:                     # Windows: a byte-range lock of the lock file
            import msvcrt
            _retry(lambda: _try_lock(lambda: msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)), wait, busy)
        yield
    finally:
        os.close(fd)                            # lets go of the lock too


def _try_lock(take) -> bool:
    try:
        take()
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK):   # held (EDEADLK: Windows)
            return False
        raise StoreError(f"cannot take the game's delivery lock ({exc.strerror})") from None
    return True


def _retry(take, wait: float, busy: str) -> None:
    """Tries `take` until it succeeds, or for `wait` seconds; then a DeliveryError."""
    deadline = time.monotonic() + wait
    while not take():
        if time.monotonic() >= deadline:
            raise DeliveryError(busy.format(wait=wait))
        time.sleep(0.1)


def _delivered(s: Session, game, turn: int | None, step: int | None, channel: str,
               target: str | None) -> list[Delivery]:
    """The deliveries of a report (of every report, without `turn` and `step`) on a channel."""
    if not db.has_table(s, "delivery"):
        return []
    query = select(Delivery).where(Delivery.game_id == game.id, Delivery.channel == channel)
    if step is not None:
        query = query.where(Delivery.turn_index == turn, Delivery.step == step)
    if target is not None:
        query = query.where(Delivery.target == target)
    found = list(s.exec(query.order_by(Delivery.step, Delivery.part, Delivery.id)))
    shapes.deliveries(found)
    return found


def _intend(engine, turn: int, step: int, channel: str, part: int, parts: int, targets: list[str]) -> None:
    """A part about to go out, to each target, committed before the request is sent."""
    with db.transaction(engine, write=True) as s:
        game = db.the_game(s)
        s.add_all(Delivery(game_id=game.id, turn_index=turn, step=step, channel=channel, part=part, parts=parts,
                           target=target) for target in targets)
        s.commit()


def _answered(engine, turn: int, step: int, channel: str, part: int, targets: list[str], ref: str) -> None:
    """A part that went out: its intent given the post id or Message-ID, in a transaction of its own."""
    with db.transaction(engine, write=True) as s:
        game = db.the_game(s)
        for row in _delivered(s, game, turn, step, channel, None):
            if row.part == part and row.target in targets:
                row.ref = ref
                s.add(row)
        s.commit()


def _picture(s: Session, game, turn: int) -> bytes | None:
    """The map after the turn, at most small_picture.MOST bytes; None when it cannot be drawn (a turn played
    before snapshots were kept) or made that small: the report then goes out without it."""
    from .. import picture
    from .small_picture import fit
    try:
        return fit(picture.draw(s, game, turn))
    except AdjudicatorError:
        return None
