"""`watch`: games run without a host at the keyboard. Each round reads the host's mailbox once and each game's forum
topic, takes what the players sent (intake), answers it where it came from (answers), adjudicates whatever is
complete (the code of `adjudicate`) and posts and mails the reports (the code of `post` and `mail`).

Everything a round does is journalled where the command it stands for journals it, so a round killed at any moment
and run again takes no message twice, sends no answer and no report part twice, and loses none: a message is taken
with its submission (intake), an answer and a report part are intended before they go (answers, deliver). A round
starts by finishing what a killed one left: answers intended and not sent, orders locked and not adjudicated,
reports adjudicated and not delivered.

One bad message, or one game that fails (its topic gone, its database damaged), is logged and the round goes on.

Which messages a game reads: the mail its `for_game` claims (its id in the subject as `[game-id]`, or a reply to
one of its mails), taken in the order the mailbox received it, then the posts in its topic that hold orders (a
line `power:`, `game:` or `round:`), oldest first. A mail that no watched game claims is left in the mailbox,
unanswered (answering every stray mail would make the host's address answer spam) and logged once. A post without
orders is the players' talk: neither taken nor answered. A post edited on the topic's newest page is seen again
(intake decides what an edit does); an edit of an older post is not.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field

from . import answers, sources
from .errors import AdjudicatorError, ConfigError, DeliveryError, NothingToDo
from .orders_block import _HEADER
from .store import db

MAIL_MARK, FORUM_MARK = "watch_mail", "watch_forum"      # game settings: where the game last read each
WATCH_LOCKS = 7318              # the key space of the advisory locks of watches (deliver's is 7317)
TAKEN, AGAIN, WAITS = "taken", "again", "waits"      # where a message stands after _take
TOPIC_READERS = 8               # topics read at once: a forum far away answers each in a tenth of a second or so


@dataclass
class Hosting:
    """The settings of a watch, checked before its first round: the mailbox, the mail server answers and reports go
    through, the forum."""
    settings: object
    box: object = None
    smtp: object = None
    forum: tuple[str, str] | None = None

    @classmethod
    def from_env(cls, settings) -> Hosting:
        from .config import FORUM, check_destination
        from .delivery.mail import smtp_settings
        from .delivery.nodebb import PASSWORD_VAR, TOKEN_VAR, URL_VAR
        box = sources.mailbox()
        smtp = smtp_settings() if box is not None or os.environ.get("ADJUDICATOR_SMTP_HOST", "").strip() else None
        forum = None
        if url := os.environ.get(URL_VAR, "").strip():
            check_destination(FORUM, (TOKEN_VAR, PASSWORD_VAR))
            if not (token := os.environ.get(TOKEN_VAR, "").strip()):
                raise ConfigError(f"{URL_VAR} is set but {TOKEN_VAR} is not: `watch` reads the games' topics and "
                                  "replies in them as the token's account")
            forum = (url, token)
        if box is None and forum is None:
            raise ConfigError(f"nothing to watch: set {sources.MAILDIR_VAR} or ADJUDICATOR_IMAP_HOST (the mailbox "
                              f"the players mail their orders to), or {URL_VAR} and {TOKEN_VAR} (the forum)")
        return cls(settings, box, smtp, forum)


@dataclass
class _Say:
    """A game's log lines; a `later` one says what failed and waits for the next round, which the exit code of
    `--once` tells a cron job (4)."""
    done: Round
    gid: str

    def __call__(self, line: str) -> None:
        self.done.log(f"{self.gid}: {line}")

    def later(self, line: str) -> None:
        self.done.failures += 1
        self(line)


@dataclass
class Round:
    """What one round did, for the command's exit code."""
    log: Callable[[str], None]
    failures: int = 0
    claimed: set[int] = field(default_factory=set)

    def failed(self, where: str, exc: Exception) -> None:
        self.failures += 1
        said = exc.message if isinstance(exc, AdjudicatorError) else f"{type(exc).__name__}: {exc}"
        self.log(f"{where}: failed, skipped until the next round: {said}")


def stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_round(dbs: list[str], hosting: Hosting, log: Callable[[str], None] = stderr) -> Round:
    """One round over every game of every database."""
    from .delivery.nodebb import NodeBB
    done = Round(log)
    leagues = []
    for name in dbs:
        engine = None
        try:
            engine = db.open_existing(name, upgrade=True)
            leagues.append((engine, _survey(engine, hosting)))
        except Exception as exc:            # noqa: BLE001 - a database that cannot be read is one game's failure
            done.failed(db.shown(name), exc)
            if engine is not None:
                engine.dispose()
    every = [g for _, games in leagues for g in games.values()]
    try:
        batch, parsed = _read_mail(hosting, every, done)
        forum = NodeBB(*hosting.forum) if hosting.forum else None
        try:
            topics = _read_topics(forum, every)
            for engine, games in leagues:
                for game in games.values():
                    try:
                        _game(db.for_game(engine, game.id), game, hosting, batch, parsed, forum, topics, done)
                    except Exception as exc:     # noqa: BLE001 - one game's failure never stops the others
                        done.failed(game.id, exc)
        finally:
            if forum is not None:
                forum.close()
    finally:
        for engine, _ in leagues:
            engine.dispose()
    for k, m in enumerate(parsed):
        if k not in done.claimed and any(k in g.new_mail for g in every):
            log(f"watch: mail {m.ref} from {m.sender or 'no sender'} ({m.subject[:60]!r}) is addressed to none of "
                "the games watched: left unanswered")
    return done


# -- what each game has to do -------------------------------------------------------------------------------------

@dataclass
class Game:
    """A game as one round sees it, from a few queries over its whole database (a league's hundreds at once)."""
    id: str
    topic: int | None = None
    mail_mark: sources.Mark | None = None
    forum_mark: int = 0
    addresses: bool = False
    locked: bool = False
    pending: bool = False
    undelivered: dict[str, list[int]] = field(default_factory=dict)     # channel -> turns
    new_mail: list[int] = field(default_factory=list)                     # indexes into the round's batch


def _survey(engine, hosting: Hosting) -> dict[str, Game]:
    from .contacts import ADDRESS
    from .delivery.deliver import TOPIC, topic_id
    with db.transaction(engine) as s:             # not read_only: SQLite's query_only stays with the pooled connection
        # the rows as they are: a game whose row is damaged fails in its own turn, not the league's round
        cursor = {g.id: g for g in db.rows(s, "SELECT id, turn_index, power FROM game ORDER BY id")}
        games = {gid: Game(gid) for gid in cursor}
        for row in db.rows(s, "SELECT game_id, key, value FROM game_setting WHERE key IN (:a, :b, :c)",
                           a=TOPIC, b=MAIL_MARK, c=FORUM_MARK):
            game = games.get(row.game_id)
            if game is None:
                continue
            if row.key == TOPIC:
                try:
                    game.topic = topic_id(str(row.value))
                except ConfigError:
                    game.topic = None
            elif row.key == MAIL_MARK:
                game.mail_mark = sources.Mark.parse(row.value)
            else:
                game.forum_mark = int(row.value) if str(row.value).isdigit() else 0
        for row in db.rows(s, "SELECT game_id, contact FROM power"):
            if row.game_id in games and isinstance(row.contact, str) and ADDRESS.fullmatch(row.contact):
                games[row.game_id].addresses = True
        for row in db.rows(s, "SELECT game_id, turn_index, power FROM submission WHERE kind = 'turn' "
                              "AND status = 'locked'"):
            g = cursor.get(row.game_id)
            if g is not None and (g.turn_index, g.power) == (row.turn_index, row.power):
                games[row.game_id].locked = True
        for row in db.rows(s, "SELECT DISTINCT game_id FROM reply WHERE sent = '' OR sent = :q", q=answers.QUEUED):
            if row.game_id in games:
                games[row.game_id].pending = True
        _undelivered(s, games, hosting)
    return games


def _undelivered(s, games: dict[str, Game], hosting: Hosting) -> None:
    """For each game and channel it is delivered on, the turns whose reports did not all go out: from the last one
    delivered whole (or only the latest, for a game never delivered on that channel)."""
    latest = {r.game_id: r.seq for r in db.rows(s, "SELECT game_id, MAX(seq) AS seq FROM step "
                                                   "WHERE phase != 'standing' GROUP BY game_id")}
    rows = db.rows(s, "SELECT game_id, channel, step, part, parts, target, ref, turn_index FROM delivery d WHERE "
                      "ref = '' OR step >= (SELECT MAX(step) FROM delivery e WHERE e.game_id = d.game_id "
                      "AND e.channel = d.channel AND e.ref != '')")
    channels = {"nodebb": lambda g: g.topic is not None and hosting.forum is not None,
                "mail": lambda g: g.addresses and hosting.smtp is not None}
    for gid, seq in latest.items():
        game = games.get(gid)
        if game is None:
            continue
        for channel, wanted in channels.items():
            if not wanted(game):
                continue
            mine = [r for r in rows if r.game_id == gid and r.channel == channel]
            whole = [r.step for r in mine if r.ref and _complete(mine, r.step)]
            pending = {r.turn_index for r in mine if not r.ref}
            if whole and max(whole) >= seq and not pending:
                continue
            since = max(whole) if whole else None
            turns = db.rows(s, "SELECT DISTINCT turn_index FROM step WHERE game_id = :g AND phase != 'standing' "
                               "AND seq > :since ORDER BY turn_index", g=gid, since=since if since is not None else seq - 1)
            game.undelivered[channel] = sorted(pending | {t.turn_index for t in turns})


def _complete(rows: list, step: int) -> bool:
    """Whether every part of a report went out (on the forum: as many answered as it has parts; by mail: no address
    intended and not answered)."""
    mine = [r for r in rows if r.step == step]
    return all(r.ref for r in mine) and len({r.part for r in mine}) == max(r.parts for r in mine)


def _read_mail(hosting: Hosting, games: list[Game], done: Round):
    """The round's one reading of the mailbox, each mail parsed once; and which mail is new to which game."""
    from .incoming import from_mail
    if hosting.box is None:
        return None, []
    try:
        batch = hosting.box.read([g.mail_mark for g in games])
    except Exception as exc:                 # noqa: BLE001 - the forum is still read, and the mail next round
        done.failed("watch", exc)
        return None, []
    parsed = [from_mail(m.raw) for m in batch.mails]
    index = {id(m): k for k, m in enumerate(batch.mails)}
    for game in games:
        game.new_mail = [index[id(m)] for m in batch.after(game.mail_mark)]
    return batch, parsed


# -- one game's round ---------------------------------------------------------------------------------------------

def _read_topics(forum, games: list[Game]) -> dict[str, object]:
    """The new posts of every game's topic (or what reading it raised), read TOPIC_READERS at a time: a league's
    hundreds of topics, each a request to the forum, would otherwise make a round as long as their sum."""
    from concurrent.futures import ThreadPoolExecutor
    wanted = [g for g in games if g.topic is not None] if forum is not None else []
    if not wanted:
        return {}
    try:
        forum.own_uid()                             # read once, before the readers share the client
    except Exception as exc:                 # noqa: BLE001 - each game says it, and its mail is still taken
        return {g.id: exc for g in wanted}

    def read(game: Game):
        try:
            return forum.new_posts(game.topic, game.forum_mark)
        except Exception as exc:             # noqa: BLE001 - the game's failure, said in its turn
            return exc
    with ThreadPoolExecutor(TOPIC_READERS) as pool:
        return dict(zip((g.id for g in wanted), pool.map(read, wanted)))


def _game(engine, game: Game, hosting: Hosting, batch, parsed, forum, topics: dict, done: Round) -> None:
    """One game's round, alone: of two watches of a game at once (a cron job that overran), the second leaves the
    game to the first, which would otherwise see orders for a turn the first is playing refused as out of turn."""
    from .delivery.deliver import game_lock
    if _idle(game, batch, topics.get(game.id)):
        return
    say = _Say(done, game.id)
    with ExitStack() as alone:
        try:
            alone.enter_context(game_lock(engine, "watch.lock", WATCH_LOCKS, 0, "another watch is working on it"))
        except DeliveryError as exc:
            say(f"{exc.message}: left to it this round")
            return
        _game_round(engine, game, hosting, batch, parsed, forum, topics, done, say)


def _idle(game: Game, batch, read) -> bool:
    """Whether the game has nothing to do this round, as most of a league's games have most rounds: seen without
    touching its database again."""
    if game.pending or game.locked or game.undelivered or game.new_mail:
        return False
    if batch is not None and not batch.knows(game.mail_mark):
        return False
    if read is None:
        return True
    if isinstance(read, Exception):
        return False
    posts, newest = read
    return newest == game.forum_mark and not _new_posts(game, posts)


def _new_posts(game: Game, posts: list[dict]) -> list[dict]:
    """The posts of a topic's reading to look at, oldest first: those after the game's mark, and those edited."""
    return [p for p in reversed(posts) if int(str(p.get("pid"))) > game.forum_mark or p.get("edited")]


def _game_round(engine, game: Game, hosting: Hosting, batch, parsed, forum, topics: dict, done: Round, say) -> None:
    if game.pending:
        for row in answers.pending(engine):
            _answer(say, row.ref, lambda: answers.settle(engine, row, hosting.smtp, forum))
    if game.locked:
        _adjudicate(engine, game, hosting, say)
    for channel, turns in game.undelivered.items():
        for turn in turns:
            _deliver(engine, channel, turn, say)
    failed = {"mail": False, "forum": False}
    waiting: list = []                              # (channel, message): orders for a turn yet to come
    answered = _answered(engine, game.id) if game.new_mail else set()
    for k in game.new_mail:
        incoming = parsed[k]
        if (incoming.ref, incoming.version) in answered:
            done.claimed.add(k)                        # read again (moved in a Maildir, a folder renumbered)
        elif _for_game(engine, incoming):
            done.claimed.add(k)
            _sort(_take(engine, game, incoming, hosting, forum, say), "mail", incoming, failed, waiting)
    newest = None
    if game.id in topics:
        newest = _take_posts(engine, game, topics[game.id], hosting, forum, say, failed, waiting)
    while waiting:          # orders that waited for a turn the messages before them played: taken now
        before, waiting = waiting, []
        for channel, incoming in before:
            _sort(_take(engine, game, incoming, hosting, forum, say), channel, incoming, failed, waiting)
        if len(waiting) == len(before):
            break
    for channel, incoming in waiting:
        say(f"{channel} {incoming.ref} from {incoming.sender}: orders for a turn that has not come: kept until it "
            "has, then taken")
    if not failed["mail"] and not any(c == "mail" for c, _ in waiting) and batch is not None and (
            game.new_mail or not batch.knows(game.mail_mark)):
        _remember(engine, MAIL_MARK, batch.mark().text())
    if newest is not None and not failed["forum"] and not any(c == "forum" for c, _ in waiting) and \
            newest != game.forum_mark:
        _remember(engine, FORUM_MARK, str(newest))


def _sort(outcome: str, channel: str, incoming, failed: dict, waiting: list) -> None:
    """Where a message `_take` dealt with stands: taken, to try again next round, or waiting for its turn."""
    if outcome == WAITS:
        waiting.append((channel, incoming))
    failed[channel] |= outcome == AGAIN


def _answered(engine, gid: str) -> set[tuple[str, str]]:
    """The messages (ref, version) of the game taken and answered (or their answer intended: `pending` sends it),
    which a round passes over when it reads them again."""
    with db.transaction(engine) as s:
        return {(r.ref, r.version) for r in db.rows(
            s, "SELECT i.ref, i.version FROM intake i JOIN reply r ON r.game_id = i.game_id AND r.ref = i.ref "
               "AND r.version = i.version WHERE i.game_id = :g", g=gid)}


def _for_game(engine, incoming) -> bool:
    from .intake import for_game
    return for_game(engine, incoming)


def _take_posts(engine, game: Game, read, hosting: Hosting, forum, say, failed: dict, waiting: list) -> int:
    """Take the posts `_read_topics` found new in the game's topic (or raise what reading it raised); the newest
    post id read."""
    from .incoming import NotAMessage, from_post
    if isinstance(read, Exception):
        raise read
    posts, newest = read
    posts = _new_posts(game, posts)
    taken = _answered(engine, game.id) if posts else set()
    for post in posts:
        try:
            incoming = from_post(post, game.topic)
        except NotAMessage as exc:
            say(f"post {post.get('pid')}: not read: {exc.message}")
            continue
        if (incoming.ref, incoming.version) in taken or not any(_HEADER.match(l) for l in incoming.text.splitlines()):
            continue
        _sort(_take(engine, game, incoming, hosting, forum, say), "forum", incoming, failed, waiting)
    return newest


def _take(engine, game: Game, incoming, hosting: Hosting, forum, say) -> str:
    """Take one message, answer it, and play what it completes: TAKEN; AGAIN when it must be tried again next
    round; WAITS when its orders are for a power whose turn has not come (taken, and answered, once it has)."""
    from .intake import NotYet, take
    what = f"{incoming.channel} {incoming.ref} from {incoming.sender or 'no sender'}"
    try:
        answer = take(engine, incoming, wait_turn=True)
    except NotYet:
        return WAITS
    except Exception as exc:                 # noqa: BLE001 - one bad message never stops the others
        said = exc.message if isinstance(exc, AdjudicatorError) else f"{type(exc).__name__}: {exc}"
        say.later(f"{what}: not taken, tried again next round: {said}")
        return AGAIN
    verdict = f"accepted for {answer.power}" if answer.accepted else "refused"
    say(f"{what}: {verdict}{' (taken before)' if answer.already else ''}")
    sent = _answer(say, incoming.ref, lambda: answers.send(engine, incoming, answer, hosting.smtp, forum))
    if answer.accepted:
        _adjudicate(engine, game, hosting, say)
    return TAKEN if sent else AGAIN


def _answer(say, ref: str, send: Callable[[], str]) -> bool:
    """Send an answer, saying what was done; False when it failed (the message is read again next round, and
    the answer sent then: taking it again changes nothing)."""
    try:
        say(f"answer to {ref}: {send()}")
    except AdjudicatorError as exc:
        say.later(f"answer to {ref}: not sent, tried again next round: {exc.message}")
        return False
    return True


def _adjudicate(engine, game: Game, hosting: Hosting, say) -> None:
    """Play every turn whose orders are locked, each report delivered before the next turn is played."""
    from .game import adjudicate
    while True:
        try:
            out = adjudicate(engine, hosting.settings)
        except NothingToDo:
            return
        except AdjudicatorError as exc:
            say.later(f"not adjudicated: {exc.message}")
            return
        say(f"adjudicated round {out['round']}, {out['power']} (turn {out['turn_index']})")
        if game.topic is not None and hosting.forum is not None:
            _deliver(engine, "nodebb", out["turn_index"], say)
        if game.addresses and hosting.smtp is not None:
            _deliver(engine, "mail", out["turn_index"], say)


def _deliver(engine, channel: str, turn: int, say) -> None:
    from .delivery import deliver
    try:
        if channel == "nodebb":
            out = deliver.post(engine, turn)
            said = (f"posted turn {turn} in {len(out['posted'])} part(s)" if out["posted"]
                    else f"turn {turn} was posted before") + (f" ({out['warning']})" if out.get("warning") else "")
        else:
            out = deliver.mail(engine, turn)
            said = f"mailed turn {turn} to {', '.join(out['to'])}" if out["to"] else f"turn {turn} was mailed before"
    except AdjudicatorError as exc:
        say.later(f"turn {turn} not {'posted' if channel == 'nodebb' else 'mailed'}, tried again next round: "
                  f"{exc.message}")
        return
    say(said)


def _remember(engine, key: str, value: str) -> None:
    with db.transaction(engine, write=True) as s:
        gid = db.the_game(s).id
        db.execute(s, "DELETE FROM game_setting WHERE game_id = :g AND key = :k", g=gid, k=key)
        db.insert(s, "game_setting", game_id=gid, key=key, value=value)
        s.commit()
