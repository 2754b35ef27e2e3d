"""A player known by a forum account (`--player POWER=forum:USERNAME`): pinned to the account's user id, the one
thing about a post its author cannot choose. A display name is chosen freely (anyone can call themselves
"Germany's player"), a username can be given up and taken by someone else; a uid stays the account's.

The username is resolved to its uid when the contact is given, if a forum is set (ADJUDICATOR_NODEBB_URL and
_TOKEN: `GET /api/user/username/{name}`), and the contact is stored as `forum:USERNAME#UID`. With no forum set, it
is stored as `forum:USERNAME`, and pinned at first sight: the first post in the game's topic whose author's
username (never the display name) is USERNAME pins the contact to that author's uid, journalled as a contact
change of the host's (contacts.change), so that `audit` replays it and the next post is matched by uid alone.
"""

from __future__ import annotations

import os
import re

from .errors import ConfigError, DeliveryError
from .incoming import FORUM_UID, Incoming

PREFIX = "forum:"
_ACCOUNT = re.compile(r"forum:(?P<name>[^#@\s][^#@]*?)(?:#(?P<uid>[0-9]{1,19}))?")


def account(contact: object) -> tuple[str, int | None] | None:
    """(username, uid or None) of a `forum:` contact, else None."""
    found = _ACCOUNT.fullmatch(contact) if isinstance(contact, str) else None
    return (found["name"], int(found["uid"]) if found["uid"] else None) if found else None


def account_problem(given: str, contact: str) -> str | None:
    """Why a `forum:` contact cannot be one, or None (contacts.contact_problem asks for contacts of this form)."""
    if account(contact) is None:
        return (f"--player {given[:80]}: a forum account is given as forum:USERNAME, the name the player logs in "
                "with (no @ or # in it)")
    return None


def pinned(players: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The `(power, contact)`s with each unpinned forum account pinned to its uid, when a forum is set; a username
    the forum does not know is refused before anything is written."""
    from .delivery.nodebb import AGAIN, TOKEN_VAR, URL_VAR, NodeBB
    wanted = [account(contact) for _, contact in players]
    url, token = os.environ.get(URL_VAR, "").strip(), os.environ.get(TOKEN_VAR, "").strip()
    if not url or not token or not any(a and a[1] is None for a in wanted):
        return players
    out = []
    with NodeBB(url, token) as forum:
        for (power, contact), found in zip(players, wanted):
            if found and found[1] is None:
                try:
                    uid = forum.user_id(found[0])
                except DeliveryError as exc:
                    raise DeliveryError(f"--player {power}={contact}: the forum was asked which account it is, and "
                                        f"{exc.message.replace(AGAIN, '').strip()} Nothing was changed: give the "
                                        "contact again when the forum answers, or as forum:USERNAME#UID") from None
                if uid is None:
                    raise ConfigError(f"--player {power}={contact}: the forum has no account with the username "
                                      f"{found[0]!r} (the name the player logs in with, not the display name)")
                if uid == forum.own_uid():
                    raise ConfigError(f"--player {power}={contact}: that is the account the adjudicator posts as "
                                      "(ADJUDICATOR_NODEBB_TOKEN's): its posts are the reports and answers, never "
                                      "read as orders. Give the player an account of their own")
                contact = f"{PREFIX}{found[0]}#{uid}"
            out.append((power, contact))
    return out


def forum_powers(engine, incoming: Incoming, players: list[tuple[str, object]]) -> list[str]:
    """The powers whose player is the post's author: by the uid pinned, else (first sight) by the author's
    username, which pins it."""
    from .contacts import change
    uid = int(incoming.sender[len(FORUM_UID):])
    accounts = [(power, found) for power, contact in players if (found := account(contact))]
    username = str(incoming.reply.get("username") or "").casefold()
    first = [(power, name) for power, (name, pinned_uid) in accounts
             if pinned_uid is None and username and name.casefold() == username]
    if first:
        change(engine, [(power, f"{PREFIX}{name}#{uid}") for power, name in first])
    seen = {power for power, _ in first}
    return [power for power, (_, pinned_uid) in accounts if pinned_uid == uid or power in seen]
