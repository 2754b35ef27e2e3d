"""Players' contacts (a mail address, a forum name to mention, or a forum account to take orders from:
forum_accounts; given as `--player POWER=CONTACT`), set at `new` and
changed later with `adjudicator contact`: a player moves to another address, or a power changes hands.

A change is journalled as a submission of the host, as a correction is, so that `audit` replays it and anyone
can see when a power's contact changed; it is no step of the game: a contact is no part of the position, so the
state hash and the dice stay as they were. The journalled text is one `POWER=CONTACT` line a power.
"""

from __future__ import annotations

import re

from .errors import ConfigError, StoreError
from .forum_accounts import PREFIX, account_problem
from .store import db

KIND = "contact"                    # the journal's kind of submission of a contact change
ADDRESS = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")      # a contact that is a mail address, not a forum name
MOST = 254                          # the longest mail address SMTP carries (RFC 5321)


def contact_problem(given: str, contact: str) -> str | None:
    """Why `contact` cannot be a player's contact (mail goes to it, the forum mentions it), or None. `given` is
    the `POWER=CONTACT` as typed, to name in the message."""
    if not contact:
        return f"--player {given}: the contact is empty; give the player's mail address or forum name"
    if len(contact) > MOST or not contact.isprintable():
        return f"--player {given[:60]}: a contact is one line of at most {MOST} printable characters"
    if contact.startswith(PREFIX):
        return account_problem(given, contact)
    if "@" in contact[1:] and not ADDRESS.fullmatch(contact):
        return (f"--player {given}: {contact!r} is no mail address (name@example.org, no spaces), nor a forum "
                "name (@name, or name)")
    return None


def change(engine, players: list[tuple[str, str]]) -> dict:
    """Set the contacts of the `(power as given, contact)` pairs, journalled as one submission; refused, changing
    nothing, when any power or contact is wrong."""
    from .game import HOST, _add_submission, _check_players, open_game
    from .dice import sha256_hex
    if not players:
        raise ConfigError("give the new contacts as --player POWER=CONTACT (repeatable)")
    for given, contact in players:
        problem = contact_problem(f"{given}={contact}", contact)
        if problem:
            raise ConfigError(problem)
    with db.transaction(engine, write=True) as s:
        g = open_game(s)
        contacts = _check_players(players, g.setup.scenario)
        text = "".join(f"{power}={contact}\n" for power, contact in contacts.items())
        before = dict(db.rows(s, "SELECT name, contact FROM power WHERE game_id = :game", game=g.game.id))
        seq, _ = _add_submission(s, g, HOST, KIND, text, sha256_hex(text), "done")
        for power, contact in contacts.items():
            db.execute(s, "UPDATE power SET contact = :contact WHERE game_id = :game AND name = :power",
                       contact=contact, game=g.game.id, power=power)
        s.commit()
    return {"game": g.game.id, "submission": seq,
            "changes": [{"power": p, "was": before.get(p, ""), "now": c} for p, c in contacts.items()]}


def replay(engine, stored: str) -> dict:
    """`audit`: a journalled contact change, made again from its stored text."""
    pairs = [line.partition("=") for line in stored.splitlines()]
    if not pairs or any(not sep for _, sep, _ in pairs):
        raise StoreError("a journalled contact change must be POWER=CONTACT lines")
    return change(engine, [(power, contact) for power, _, contact in pairs])
