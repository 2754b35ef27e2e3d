"""Sending each answer of intake.take back where its message came from: a mail answered by a mail that replies to
it (In-Reply-To and References, so the player's client shows it under their own), a forum post by a reply in the
topic that mentions its author and quotes it.

An answer goes out once, whatever the kill, as a report's parts do (delivery/deliver.py): its intent is recorded
with the whole text to send, in a transaction of its own, before it goes; what the server answered (the Message-ID,
the post id) once it came. An intent left without an answer by a killed run is sent again in the next round: the
same mail under the same Message-ID (derived from the game and the message answered), which mail clients show
once; a forum reply only after the topic was read for it (its last line is a mark that names the post answered and
the version taken, which only this account's posts are searched for, so no player can plant it).

NodeBB 4's own answers are kept apart from failures: a reply put in the post queue is recorded as queued and never
posted again (it appears once a moderator approves it, and is then found by its mark and recorded); a reply
refused for the post delay is left as an intent and posted in a later round, found first if it went after all.
"""

from __future__ import annotations

from .delivery.deliver import unmention
from .errors import ConfigError
from .incoming import FORUM, Incoming
from .intake import Answer
from .store import db
from .store.schema import now

QUEUED = "queued"                 # the forum reply waits in the post queue
QUOTED_LINES = 12                 # lines of a post quoted in its answer; the rest is "…"
SENT, ALREADY, WAITING, LATER = "sent", "already sent", "in the forum's post queue", "left for a later round"


def send(engine, incoming: Incoming, answer: Answer, smtp=None, forum=None) -> str:
    """Send the answer to `incoming` (taken into the game of `engine`) unless it went before; what was done. A
    message with no one to answer (a mail without a From address) gets nothing."""
    with db.transaction(engine) as s:
        row = _row(s, incoming.ref, incoming.version)
    if row is not None:
        return _transmit(engine, row, smtp, forum, fresh=False)
    target = str(incoming.reply.get("tid", "")) if incoming.channel == FORUM else incoming.sender
    if not target:
        return "not answered: the message names no sender to answer"
    row, mine = _intend(engine, incoming, answer, target, smtp)
    return _transmit(engine, row, smtp, forum, fresh=mine)


def pending(engine) -> list:
    """The answers of the game not known to have gone out: intents of a killed run or of a forum that said "later",
    and replies waiting in the post queue."""
    with db.transaction(engine) as s:
        if not db.has_table(s, "reply"):
            return []
        return db.rows(s, "SELECT * FROM reply WHERE game_id = :game AND (sent = '' OR sent = :queued) ORDER BY id",
                       game=db.the_game(s).id, queued=QUEUED)


def settle(engine, row, smtp=None, forum=None) -> str:
    """Send again an answer `pending` gave, or find it in the topic: what was done."""
    return _transmit(engine, row, smtp, forum, fresh=False)


def _row(s, ref: str, version: str):
    found = db.rows(s, "SELECT * FROM reply WHERE game_id = :game AND ref = :ref AND version = :version",
                    game=db.the_game(s).id, ref=ref, version=version)
    return found[0] if found else None


def _intend(engine, incoming: Incoming, answer: Answer, target: str, smtp) -> tuple[object, bool]:
    """The answer about to go, with everything a later run needs to send it again, committed first; and whether
    this run recorded it (not another run meanwhile, which may be sending it)."""
    with db.transaction(engine, write=True) as s:
        game = db.the_game(s)
        if (row := _row(s, incoming.ref, incoming.version)) is not None:
            return row, False
        if incoming.channel == FORUM:
            body, mark = _post(game.id, incoming, answer)
            values = {"subject": "", "thread": "", "body": body, "mark": mark}
        else:
            values = _mail(game, incoming, answer, smtp)
        db.insert(s, "reply", game_id=game.id, ref=incoming.ref, version=incoming.version, channel=incoming.channel,
                  target=target, sent="", created_at=now(), **values)
        s.commit()
        return _row(s, incoming.ref, incoming.version), True


def _transmit(engine, row, smtp, forum, fresh: bool) -> str:
    """Send under the game's delivery lock, as `post` and `mail` do, the row read again once it is held: two
    watches of one game at once (a cron job that overran) send each answer once."""
    from .delivery.deliver import one_delivery
    with one_delivery(engine):
        with db.transaction(engine) as s:
            row = _row(s, row.ref, row.version)
        return _go(engine, row, smtp, forum, fresh)


def _go(engine, row, smtp, forum, fresh: bool) -> str:
    if row.sent and row.sent != QUEUED:
        return ALREADY
    if row.channel == FORUM:
        return _to_forum(engine, row, forum, fresh)
    if smtp is None:
        raise ConfigError("an answer by mail is waiting, but the mail settings (ADJUDICATOR_SMTP_*) are not set")
    from .delivery.mail import send as send_mail
    send_mail(smtp, [row.target], row.subject, row.body, msgid=row.mark, thread=row.thread.split())
    _record(engine, row, row.mark)
    return SENT


def _to_forum(engine, row, forum, fresh: bool) -> str:
    from .delivery.nodebb import PostDelayed, PostQueued
    if forum is None:
        raise ConfigError("an answer in the forum is waiting, but the forum settings (ADJUDICATOR_NODEBB_URL and "
                          "_TOKEN) are not set")
    tid = int(row.target)
    if not fresh and (pid := forum.find(tid, [row.mark]).get(row.mark)):
        _record(engine, row, str(pid))
        return SENT
    if row.sent == QUEUED:
        return WAITING
    try:
        pid = forum.reply(tid, row.body, row.mark)
    except PostQueued:
        _record(engine, row, QUEUED)
        return WAITING
    except PostDelayed:
        return LATER
    _record(engine, row, str(pid))
    return SENT


def _record(engine, row, sent: str) -> None:
    with db.transaction(engine, write=True) as s:
        db.execute(s, "UPDATE reply SET sent = :sent WHERE id = :id", sent=sent, id=row.id)
        s.commit()


def _mail(game, incoming: Incoming, answer: Answer, smtp) -> dict:
    """A reply to the player's mail: its subject (with the game's id, so that an answer to the answer comes back to
    the game), threaded under it, under a Message-ID derived from the game and the message answered."""
    from .delivery.mail import message_id
    if smtp is None:
        raise ConfigError("a mail is to be answered, but the mail settings (ADJUDICATOR_SMTP_*) are not set")
    subject = incoming.subject.strip() or "your orders"
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    if f"[{game.id}]" not in subject:
        subject = f"[{game.id}] {subject}"
    parent = incoming.reply.get("message_id", "")
    thread = [*str(incoming.reply.get("references", "")).split(), *([parent] if parent else [])]
    msgid = message_id(smtp, f"{game.anchor} {game.id} answer {incoming.ref} {incoming.version}")
    return {"subject": subject, "thread": " ".join(dict.fromkeys(thread)), "body": answer.text, "mark": msgid}


def _post(game_id: str, incoming: Incoming, answer: Answer) -> tuple[str, str]:
    """A reply that mentions the post's author (who is notified), quotes the orders read from it, and gives the
    answer as it was written (in a code block: the carets under an error point at its column); then the mark."""
    pid, user = incoming.reply.get("pid"), str(incoming.reply.get("username") or "")
    lines = [line for line in incoming.text.splitlines() if line.strip()] or ["(no orders)"]
    quoted = [f"> {unmention(line)}" for line in lines[:QUOTED_LINES]] + (["> …"] if len(lines) > QUOTED_LINES else [])
    mark = f"Answer mark: game {unmention(game_id)}, post {pid}, version {incoming.version[:16]}."
    fence = "~~~~" if "```" in answer.text else "```"
    head = f"@{user}, your post {pid}:" if user else f"Post {pid}:"
    body = "\n".join([head, *quoted, "", fence, unmention(answer.text), fence, "", mark])
    return body, mark
