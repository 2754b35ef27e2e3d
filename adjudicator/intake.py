"""Taking one message (incoming.Incoming) into one game: whose power it is, the orders submitted as `submit`
takes them, and the answer to send back, each message once.

The power is the one whose player's contact is the message's sender: the mail address (compared on the
addr-spec, whatever its case), or the forum account pinned by user id (forum_accounts). Anyone else is refused
and nothing changes. The message is recorded as taken (the intake table) in the very transaction that stores its
submission, so that a kill at any moment leaves it taken with its orders or not taken at all; a refusal is
recorded too, so that it is answered once. A message that comes again gets its stored answer (`already`).

A mail is never edited: one taken before (by its Message-ID, or its bytes' hash) is answered as it was, even if
a later version of the adjudicator reads its text otherwise. A forum post edited after it was taken comes again
under the same ref with another version (the hash of its content as the forum renders it). If the version
taken was refused, the edit is the player's fix: it is taken as a new attempt. If it was accepted, the orders
accepted stand (they are locked, maybe adjudicated already) and the edit is answered with a refusal saying so:
editing a post is no way to change orders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import INVALID, SubmissionRejected
from .incoming import FORUM, FORUM_UID, Incoming
from .store import db
from .store.schema import now


@dataclass
class Answer:
    ref: str
    accepted: bool
    power: str | None
    text: str
    already: bool = False


class NotYet(Exception):
    """The message's orders are for a power whose turn has not come (`take(…, wait_turn=True)`): not taken, and
    not answered, until it has."""

    def __init__(self, power: str):
        super().__init__(power)
        self.power = power


class _Taken(Exception):
    """The message was taken by another command while this one checked it: its submission is undone."""


_POWER_LINE = re.compile(r"^\s*power\s*:\s*(\S.*?)\s*$", re.I | re.M)
_AGAIN = ("Line numbers count the lines of your own message as you wrote it (quoted text and signature left "
          "out). Fix what is listed and send your whole orders again.")


def take(engine, incoming: Incoming, wait_turn: bool = False) -> Answer:
    """Take `incoming` into the game of `engine` (db.choose), and answer it. `wait_turn`: orders of a power whose
    turn has not come raise NotYet, taking nothing (`watch` takes them once it has; `inbox` refuses them, and the
    host gives them again)."""
    with db.transaction(engine) as s:
        earlier = _rows(s, incoming)
    same = [r for r in earlier if r.version == incoming.version or incoming.channel != FORUM]
    if same:
        return _again(incoming, same[-1])
    accepted = next((r for r in earlier if r.accepted), None)
    if accepted is not None:
        return _refuse(engine, incoming, accepted.power, _edited(incoming, accepted))
    power, why = _power(engine, incoming)
    if power is None:
        return _refuse(engine, incoming, None, why)
    from .game import awaits_turn, submit
    if wait_turn and awaits_turn(engine, power, incoming.text):
        raise NotYet(power)
    answer: list[str] = []

    def record(s, summary: dict) -> None:
        if _rows(s, incoming, incoming.version):
            raise _Taken
        answer.append(_accepted_text(incoming, summary))
        _insert(s, incoming, power, True, summary["submission"], answer[0])

    try:
        submit(engine, power, incoming.text, record=record)
    except SubmissionRejected as exc:
        from .game import people_of
        return _refuse(engine, incoming, power, _earlier(engine, incoming, power) +
                       _rejected_text(incoming, power, people_of(engine).power(power), exc))
    except _Taken:
        with db.transaction(engine) as s:
            return _again(incoming, _rows(s, incoming, incoming.version)[-1])
    return Answer(incoming.ref, True, power, answer[0])


def for_game(engine, incoming: Incoming) -> bool:
    """Whether `incoming` is addressed to the game of `engine`: a post in its forum topic; a mail whose subject
    names it as `[game-id]` (the subject of its report mails) or that replies to one of its mails."""
    from .delivery.deliver import TOPIC
    with db.transaction(engine) as s:
        game = db.the_game(s)
        if incoming.channel == FORUM:
            topic = db.rows(s, "SELECT value FROM game_setting WHERE game_id = :game AND key = :key",
                            game=game.id, key=TOPIC) if db.has_table(s, "game_setting") else []
            return bool(topic) and str(topic[0].value) == str(incoming.reply.get("tid"))
        if f"[{game.id}]" in incoming.subject:
            return True
        cited = set(" ".join((incoming.reply.get("in_reply_to", ""), incoming.reply.get("references", ""))).split())
        if not cited or not db.has_table(s, "delivery"):
            return False
        sent = db.rows(s, "SELECT ref FROM delivery WHERE game_id = :game AND channel = 'mail' AND ref != ''",
                       game=game.id)
        return any(row.ref in cited for row in sent)


# -- the journal of messages taken -----------------------------------------------------------------------------

def _rows(s, incoming: Incoming, version: str | None = None) -> list:
    game = db.the_game(s)
    found = db.rows(s, "SELECT version, power, accepted, submission, answer FROM intake WHERE game_id = :game "
                       "AND ref = :ref ORDER BY id", game=game.id, ref=incoming.ref)
    return [r for r in found if version is None or r.version == version]


def _again(incoming: Incoming, row) -> Answer:
    """The answer stored for a message taken before."""
    return Answer(incoming.ref, bool(row.accepted), row.power or None, row.answer, already=True)


def _insert(s, incoming: Incoming, power: str | None, accepted: bool, submission: int | None, answer: str) -> None:
    db.insert(s, "intake", game_id=db.the_game(s).id, ref=incoming.ref, version=incoming.version,
              channel=incoming.channel, sender=incoming.sender, power=power or "", accepted=accepted,
              submission=submission, answer=answer, created_at=now())


def _refuse(engine, incoming: Incoming, power: str | None, text: str) -> Answer:
    """Record a refusal, so that the message is answered once: nothing else changes."""
    with db.transaction(engine, write=True) as s:
        if found := _rows(s, incoming, incoming.version):
            return _again(incoming, found[-1])
        _insert(s, incoming, power, False, None, text)
        s.commit()
    return Answer(incoming.ref, False, power, text)


# -- whose power -----------------------------------------------------------------------------------------------

def _power(engine, incoming: Incoming) -> tuple[str | None, str]:
    """The power the message is for, or None and why it is refused."""
    from .forum_accounts import forum_powers
    from .contacts import ADDRESS
    if not incoming.sender:
        return None, _notes(incoming, "These orders were not taken, and nothing was changed: the message names no "
                                      "sender that can be checked. Send your orders from your own address.")
    with db.transaction(engine) as s:
        game = db.the_game(s)
        players = [(r.name, r.contact) for r in db.rows(s, "SELECT name, contact FROM power WHERE game_id = :game "
                                                           "ORDER BY turn_order, name", game=game.id)]
    if incoming.channel == FORUM:
        powers = forum_powers(engine, incoming, players)
    else:
        powers = [name for name, contact in players
                  if isinstance(contact, str) and ADDRESS.fullmatch(contact) and contact.lower() == incoming.sender]
    if not powers:
        return None, _notes(incoming, _stranger(incoming, game.id, players))
    if (other := _other_power(engine, incoming, powers)) is not None:
        return None, _notes(incoming, f"These orders were not taken, and nothing was changed: they are headed "
                                      f"`power: {other}`, and you play {' and '.join(powers)} in game {game.id}. "
                                      "Send the orders of your own power only.")
    if len(powers) == 1:
        return powers[0], ""
    return _named_power(engine, incoming, powers, game.id)


def _other_power(engine, incoming: Incoming, powers: list[str]) -> str | None:
    """The power a `power:` header names, when it is one the sender does not play (orders posted for another
    player): refused in one line, rather than checked as the sender's own orders."""
    header = _POWER_LINE.search(incoming.text)
    if header is None:
        return None
    named = _lexicon(engine).resolve("power", header.group(1))
    return named[0] if len(named) == 1 and named[0] not in powers else None


def _lexicon(engine):
    """The game's names (of powers, as a `power:` header or a subject gives them)."""
    from .game import setup_of
    with db.transaction(engine) as s:
        return setup_of(s, db.the_game(s)).lexicon


def _stranger(incoming: Incoming, game_id: str, players: list[tuple[str, object]]) -> str:
    who = (f"the forum account {incoming.reply.get('username') or incoming.sender_name or ''} "
           f"(user id {incoming.sender[len(FORUM_UID):]})".replace("  ", " ")
           if incoming.channel == FORUM else incoming.sender)
    how = ("`adjudicator contact --player POWER=forum:USERNAME`" if incoming.channel == FORUM else
           "`adjudicator contact --player POWER=ADDRESS`")
    name = str(incoming.reply.get("username") or "").casefold()
    mentioned = [power for power, contact in players
                 if name and isinstance(contact, str) and contact.removeprefix("@").casefold() == name]
    if mentioned:
        how = (f"`adjudicator contact --player {mentioned[0]}=forum:{incoming.reply['username']}` (the game knows "
               f"{mentioned[0]}'s player by that name only to mention them in reports, not as the account whose "
               "posts are its orders)")
    return (f"These orders were not taken, and nothing was changed: {who} is not the player of any power in "
            f"game {game_id}. If you play a power in it, ask the host to give your account with {how}, then "
            "send your orders again.")


def _named_power(engine, incoming: Incoming, powers: list[str], game_id: str) -> tuple[str | None, str]:
    """Of the several powers a sender plays, the one the orders name: a `power:` header line, else the one power
    the subject names."""
    lexicon = _lexicon(engine)
    header = _POWER_LINE.search(incoming.text)
    words = [header.group(1)] if header else re.findall(r"[^\W_]+", incoming.subject)
    named = {p for w in words for p in lexicon.resolve("power", w) if p in powers}
    if len(named) == 1:
        return named.pop(), ""
    return None, _notes(incoming, f"These orders were not taken, and nothing was changed: you play "
                                  f"{', '.join(powers[:-1])} and {powers[-1]} in game {game_id}, and the message "
                                  f"does not say which one they are for. Start them with a line "
                                  f"`power: {powers[0]}` (or the power you mean) and send them again.")


# -- the answers -----------------------------------------------------------------------------------------------

def _notes(incoming: Incoming, text: str) -> str:
    return text + "".join(f"\nNote: {p}." for p in incoming.problems)


def _accepted_text(incoming: Incoming, out: dict) -> str:
    lines = [f"Orders accepted for {out['name']} in game {out['game']} (submission {out['submission']}, sha256 "
             f"{out['sha256']}: the turn's report prints the hash of the orders it played, to compare). "
             f"{len(out['orders'])} order(s), as understood:"]
    lines += [f"  {line}" for line in out["orders"]]
    if out["covers"]:
        whole = " (the whole turn: it ends when these are adjudicated)" if out["whole_turn"] else ""
        lines.append("They cover: " + ", ".join(p.replace("_", " ") for p in out["covers"]) + whole + ".")
    elif out["kind"] == "standing":
        lines.append("These are standing orders: they stay on file until you send others of the same kind.")
    if "binds" in out:
        lines.append(f"The salt binds the orders of {out['binds']['power']} locked with sha256 "
                     f"{out['binds']['sha256']}: the report prints it with the salt; compare.")
    lines += [f"Warning: {w}" for w in out["warnings"]]
    return _notes(incoming, "\n".join(lines))


def _rejected_text(incoming: Incoming, power: str, name: str, exc: SubmissionRejected) -> str:
    """`power` as the notation names it (a `power:` line), `name` as players do."""
    n = len(exc.errors) + exc.more
    lines = [f"Your orders for {name} were not accepted, and nothing was stored: {n} error{'s' if n != 1 else ''}."]
    if all(e.kind == INVALID and (e.expected.startswith("an order") or not e.line) for e in exc.errors):
        lines[0] = (f"No line of your message reads as an order, so nothing was stored for {name}. Write your "
                    f"orders one a line, from a line `power: {power}` to a line `end` (docs/notation.md).")
    lines += [e.render() for e in exc.errors]
    if exc.more:
        lines.append(f"… and {exc.more} more (the first {len(exc.errors)} are shown).")
    lines.append(_AGAIN)
    return _notes(incoming, "\n".join(lines))


def _earlier(engine, incoming: Incoming, power: str) -> str:
    """What a refused message must first say when the sender's turn was already taken from an earlier one of
    theirs (a correction sent behind the first orders): the orders that count, and that these changed nothing."""
    with db.transaction(engine) as s:
        game = db.the_game(s)
        found = db.rows(s, "SELECT i.ref, i.submission, b.round, b.status FROM intake i JOIN submission b ON "
                           "b.game_id = i.game_id AND b.seq = i.submission WHERE i.game_id = :game AND i.power = :power "
                           "AND i.accepted AND b.kind = 'turn' AND i.ref != :ref ORDER BY i.id DESC LIMIT 1",
                        game=game.id, power=power, ref=incoming.ref)
        state = db.load_state(s, game) if found else None
    if not found:
        return ""
    row = found[0]
    if row.status != "locked" and not (row.round == state.round and state.power != power):
        return ""           # orders of an earlier round, or of a phase before this one of the turn going on
    played = "are locked, to be played next" if row.status == "locked" else f"played its turn of round {row.round}"
    return (f"Your orders of {row.ref} (submission {row.submission}) were taken before this message and {played}: "
            "this message changed nothing. Orders once accepted stand; if they must change, ask the host.\n")


def _edited(incoming: Incoming, accepted) -> str:
    return _notes(incoming, f"Your post was edited after its orders were accepted (submission "
                            f"{accepted.submission} for {accepted.power}): the orders accepted stand, and the edit "
                            "changed nothing. Accepted orders are locked; if they must change, ask the host.")
