"""Posting a turn's report to the game's forum topic and mailing it to the players, remembered in the journal.

Delivery comes after the adjudication has been committed: a forum or mail server that fails can never lose a
turn, and `post` / `mail` retried later send only what did not go out. Every part that went out is recorded at
once, in its own transaction, so a retry after a failure half-way never posts a part twice. A turn played in
two adjudications (combat, then the rest) has two reports; each is delivered once.
"""

from __future__ import annotations

import os
import re

from sqlmodel import Session, select

from .. import report
from ..errors import AdjudicatorError, ConfigError, DeliveryError
from ..store import db
from ..store.journal import Delivery, Step
from ..store.models import GameSetting, Power

POST_MARGIN = 400          # characters kept free under the forum's limit for the picture's link
TOPIC = "nodebb_topic"
# nodebb-plugin-mentions (library.js) makes a mention that notifies a user of every `@name` not preceded by a
# letter: `@bob`, `(@bob)`, `2@bob`, but not `infantry@2`. A word joiner after the `@` keeps the text as it reads
# and notifies nobody (the notation and verify drop it when the text is pasted back).
_ADDRESS = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")     # a player's contact that is a mail address, not a forum name
_MENTION = re.compile(r"(?<![^\W\d_])@(?=[\w.@-])")


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
    """A topic id, also read from a topic's address as the forum shows it (…/topic/1234/some-title)."""
    found = re.search(r"(?:^|/topic/)([0-9]{1,16})(?:$|[/?#])", topic.strip())
    if not found or not 0 < int(found.group(1)) < 2**53:
        raise ConfigError(f"a topic is given by its number or its address (…/topic/1234/…), not {topic!r}")
    return int(found.group(1))


def unmention(text: str) -> str:
    return _MENTION.sub("@\u2060", text)


def forum_settings(engine) -> tuple[str, str, int]:
    """The forum's address, the token and the game's topic, or a ConfigError naming what to set: checked before
    `adjudicate --post` plays anything."""
    from .nodebb import TOKEN_VAR, URL_VAR
    url, token = os.environ.get(URL_VAR, "").strip(), os.environ.get(TOKEN_VAR, "").strip()
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
    return url, token, int(setting.value)


def mail_settings(engine):
    """The SMTP settings and the players' addresses, or a ConfigError: checked before `adjudicate --mail`."""
    from .mail import smtp_settings
    smtp = smtp_settings()
    with db.transaction(engine) as s:
        game = db.the_game(s)
        contacts = [p.contact for p in s.exec(select(Power).where(Power.game_id == game.id).order_by(Power.turn_order))]
    addresses = list(dict.fromkeys(c for c in contacts if _ADDRESS.fullmatch(c)))
    if not addresses:
        raise ConfigError("no player of this game has a mail address: give them at `new --player POWER=ADDRESS`")
    return smtp, addresses


def post(engine, turn_index: int | None = None, picture: bool = True) -> dict:
    """Reply to the game's topic with the report of a turn (the latest by default), split under the forum's
    limit, with the map picture uploaded and linked when the forum login allows it."""
    from .nodebb import PASSWORD_VAR, USER_VAR, NodeBB
    url, token, tid = forum_settings(engine)
    with db.transaction(engine) as s:
        game = db.the_game(s)
        gid = game.id
        turn, step = _covered(s, game, turn_index)
        done = _delivered(s, game, turn, step, "nodebb", str(tid))
    if done and len(done) == done[0].parts:
        return {"turn": turn, "topic": tid, "posted": [], "already": [d.ref for d in done], "picture": None}
    user = os.environ.get(USER_VAR, "").strip() or None
    password = os.environ.get(PASSWORD_VAR) or None
    with NodeBB(url, token, user, password) as forum:
        limit = forum.max_post_length() - POST_MARGIN
        with db.transaction(engine) as s:
            parts = [unmention(p) for p in report.render_parts(s, turn, "markdown", limit)]
            png = _picture(s, db.the_game(s), turn) if picture and not done else None
        if done and done[0].parts != len(parts):
            raise DeliveryError(f"parts 1 to {len(done)} of this report were posted as {done[0].parts} parts, but the "
                                f"forum's limit now splits it into {len(parts)}: post the rest by hand from "
                                f"`adjudicator report DB --turn {turn}`")
        link = None
        if png is not None:
            link = forum.upload(f"{gid}-turn{turn}.png", png)
            parts[0] = _with_picture(parts[0], link, turn)
        posted = []
        for k, text in enumerate(parts, 1):
            if k <= len(done):
                continue
            pid = forum.reply(tid, text)
            _record(engine, turn, step, "nodebb", k, len(parts), [str(tid)], str(pid))
            posted.append(pid)
    return {"turn": turn, "topic": tid, "posted": posted, "already": [d.ref for d in done], "picture": link}


def _with_picture(first: str, link: str | None, turn: int) -> str:
    """The map under the report's first heading, or where to get it when it could not be uploaded."""
    head, _, rest = first.partition("\n\n")
    line = (f"![Map after turn {turn}]({link})" if link else
            f"Map: not uploaded (the forum login for uploads, ADJUDICATOR_NODEBB_USER and _PASSWORD, is not set); "
            f"draw it from the game database with `adjudicator map game.db --turn {turn} -o map.png`.")
    return f"{head}\n\n{line}\n\n{rest}"


def mail(engine, turn_index: int | None = None, picture: bool = True) -> dict:
    """Mail the plain-text report of a turn to every player whose contact is a mail address."""
    from .mail import send
    smtp, addresses = mail_settings(engine)
    with db.transaction(engine) as s:
        game = db.the_game(s)
        turn, step = _covered(s, game, turn_index)
        sent = {d.target for d in _delivered(s, game, turn, step, "mail", None)}
        to = [a for a in addresses if a not in sent]
        if not to:
            return {"turn": turn, "to": [], "already": sorted(sent), "message_id": None}
        ctx = report.context(s, turn)
        text = report.render_context(ctx, "text")
        when = "bid before round 1" if ctx["turn"]["bid"] else f"round {ctx['turn']['round']}"
        subject = f"[{game.id}] {when}, {ctx['turn']['power']}"
        png = _picture(s, game, turn) if picture else None
    attachments = [(f"{game.id}-turn{turn}.png", png, "image/png")] if png else []
    message_id = send(smtp, to, subject, text, attachments)
    _record(engine, turn, step, "mail", 1, 1, to, message_id)
    return {"turn": turn, "to": to, "already": sorted(sent), "message_id": message_id, "subject": subject}


def _covered(s: Session, game, turn_index: int | None) -> tuple[int, int]:
    """The turn to deliver (the latest played by default) and the last step its report covers."""
    steps = list(s.exec(select(Step).where(Step.game_id == game.id, Step.phase != "standing").order_by(Step.seq)))
    if turn_index is None and steps:
        turn_index = steps[-1].turn_index
    mine = [st for st in steps if st.turn_index == turn_index]
    if not mine:
        report.turn_context(s, turn_index)          # raises the report's own message: nothing played, or no such turn
    return turn_index, mine[-1].seq


def _delivered(s: Session, game, turn: int, step: int, channel: str, target: str | None) -> list[Delivery]:
    if not db.has_table(s, "delivery"):
        return []
    query = select(Delivery).where(Delivery.game_id == game.id, Delivery.turn_index == turn, Delivery.step == step,
                                   Delivery.channel == channel)
    if target is not None:
        query = query.where(Delivery.target == target)
    return list(s.exec(query.order_by(Delivery.part)))


def _record(engine, turn: int, step: int, channel: str, part: int, parts: int, targets: list[str], ref: str) -> None:
    """What went out, to each target, in one transaction of its own."""
    with db.transaction(engine, write=True) as s:
        game = db.the_game(s)
        s.add_all(Delivery(game_id=game.id, turn_index=turn, step=step, channel=channel, part=part, parts=parts,
                           target=target, ref=ref) for target in targets)
        s.commit()


def _picture(s: Session, game, turn: int) -> bytes | None:
    """The map after the turn; None when it cannot be drawn (a turn played before snapshots were kept): the
    report then goes out without it."""
    from ..picture import draw
    try:
        return draw(s, game, turn)
    except AdjudicatorError:
        return None
