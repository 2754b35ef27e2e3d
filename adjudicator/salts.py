"""Strict dice (DESIGN.md, audited dice §7): opponents' salts, and when a power-turn's dice key is fixed.

After the mover's orders are locked (their sha256 published), the other powers may each add one salt; the key
of the power-turn is then H(s_i || salt_1 || … || salt_k), so nobody, the host included, knows a die before
the orders are fixed. Salts close when the first part of the turn is adjudicated.

The host holds the database, so two things are fixed where the host cannot move them unseen. Each salt binds the
sha256 of the orders it salts, recorded when it is accepted (a journal step of its own, between the turn's parts
as standing orders are, which `audit` replays) and told to the salter: orders swapped after the salts are refused
at `adjudicate`, and printed with every salt in the report. And the salts key the dice in turn order, not in the
order they were accepted, which the host could rearrange to choose among the dice of k! keys. Games stored with
the dice mode `strict` were played before both (dice.STRICT_MODES), and keep their rules so that they still replay.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

from sqlmodel import Session

from . import dice, report, verify
from .errors import ILLEGAL, ConfigError, NothingToDo, OrderError, StoreError
from .notation.orders import Salt
from .store import db

if TYPE_CHECKING:
    from .game import Loaded


def salt_errors(s: Session, g: Loaded, power: str, salts: list[Salt]) -> list[OrderError]:
    """Strict dice (DESIGN.md §7): one salt per opponent per power-turn, accepted once the mover's orders are
    locked and until the first part of the turn is adjudicated, in text that survives being pasted in a report."""
    if not salts:
        return []

    def error(message: str, o: Salt = salts[0]) -> OrderError:
        return OrderError(ILLEGAL, message, o.line, o.column, o.source)

    if g.game.dice_mode not in dice.STRICT_MODES:
        return [error("salts are for games created with `--dice strict`")]
    errors = [error(problem, o) for o in salts if (problem := _salt_text_problem(o.text))]
    if len(salts) > 1:
        errors.append(error("one salt per power per turn: keep one `salt` line", salts[1]))
    mover, i = g.state.power, g.state.turn_index
    if power == mover:
        errors.append(error(f"{power} move this turn: salts come from the other powers, so that the mover cannot know a die in advance"))
    elif power not in g.scenario.turn_players():
        errors.append(error(f"{power} take no turns, so they do not salt dice"))
    elif g.state.bidding:
        errors.append(error(f"the bid of {mover} rolls no dice: nothing is salted before round 1"))
    elif turn_started(s, g):
        errors.append(error(f"the dice key of turn {i} is already fixed: salts close when the first part of a turn is adjudicated"))
    elif db.locked_submission(s, g.game) is None:
        errors.append(error(f"no orders of {mover} are locked yet: salt turn {i} after they are accepted "
                            "(their sha256 is published then)"))
    elif power in {p for p, _ in turn_salts(s, g)}:
        errors.append(error(f"{power} already salted turn {i}: one salt per power per turn"))
    return errors


def _salt_text_problem(text: str) -> str | None:
    """Why a salt could not be printed in a report and read back byte for byte, or None.

    The notation's paste clean-up has already made the text NFKC with plain single spaces (notation.text)."""
    if "|" in text:
        return "a salt may not contain '|': the report separates salts with it"
    if not text.isprintable():
        return "a salt may hold printable characters only"
    if len(text) > dice.MAX_SALT:
        return f"a salt may be at most {dice.MAX_SALT} characters long"
    read = read_back(text)
    if read is not None:
        return (f"`verify` would read this salt back from a report as {read!r}, and the report of this turn would "
                "not check out: forums and mail take off what looks like markup (HTML tags such as <br>, entities "
                "such as &amp;, code fences such as ``` or ~~~ at its end). Choose a salt without them")
    return None


def read_back(text: str) -> str | None:
    """What `verify` reads instead of the salt `text` from a report, or None when it reads the salt byte for byte.

    A salt verify changes makes an honest report fail to check out, and its players blame the host. So the salt is
    printed as reports print it (report.dice_block: alone on the `salts:` line, and between two others), in each
    format's setting (report.DICE_FENCES), and read back with verify's own reading: as posted, with HTML elsewhere in
    the post (a report's prose quotes every salt, and any tag there makes verify read the whole text as HTML), and as
    NodeBB renders it (escaped in `<pre><code>`). Whatever verify's reading undoes, a salt may not hold.
    """
    h = "0" * 64
    for salts in ([text], ["x", text, "x"]):
        block = report.dice_block({"game": {"id": "g", "anchor": h}, "turn": {"index": 1}, "seed": h, "salts": salts,
                                   "salted": {"binds": [h] * len(salts), "orders": h}, "dice": []})
        for opening, closing in report.DICE_FENCES.values():
            post = f"{opening}\n{block}\n{closing}"
            for form in (post, f"<p>words</p>\n{post}", f"<pre><code>{html.escape(post)}</code></pre>"):
                read = [b.salts for b in verify.read_blocks(form)]
                if read != [salts]:
                    return " | ".join(read[0]) if len(read) == 1 else "no salts"
    return None


def unsalted(g: Loaded, salts: list[tuple[str, str]]) -> list[str]:
    """The salters whose salt is not among `salts` yet."""
    salted = {p for p, _ in salts}
    return [p for p in salters(g) if p not in salted]


def salters(g: Loaded) -> list[str]:
    """The powers whose salts the current power-turn awaits: the `--salt-from` list, else every power that
    takes turns; never the mover; none in a bid turn, which rolls no dice."""
    if g.state.bidding:
        return []
    listed = g.game.salts_required.split(",") if g.game.salts_required else g.scenario.turn_players()
    return [p for p in listed if p != g.state.power]


def binds(g: Loaded) -> bool:
    """Whether the game's salts bind the orders they salt and key its dice in turn order (all but old games)."""
    return g.game.dice_mode == dice.STRICT


def turn_salts(s: Session, g: Loaded) -> list[tuple[str, str]]:
    """(power, salt) accepted for the current power-turn, in the order of the key's hash input: the powers' turn
    order (in old games, the order the salts were accepted)."""
    rows = db.rows(s, "SELECT power, text FROM submission WHERE game_id = :game AND kind = 'salt' AND turn_index = :turn "
                      "ORDER BY seq", game=g.game.id, turn=g.state.turn_index)
    salts = [(row.power, o.text) for row in rows
             for o in g.setup.parse(row.text, row.power).submission.orders if isinstance(o, Salt)]
    if binds(g):
        order = g.scenario.turn_players()
        salts.sort(key=lambda salt: order.index(salt[0]) if salt[0] in order else len(order))
    return salts


def binding(power: str, text: str, orders_sha256: str) -> dict:
    """The journal event of an accepted salt: which locked orders it salts."""
    return {"type": "salt", "power": power, "salt": text, "binds": orders_sha256}


def bound_orders(s: Session, g: Loaded) -> dict[str, str]:
    """Power -> the sha256 of the orders its salt of the current power-turn binds, as recorded when it was accepted."""
    rows = db.rows(s, "SELECT step.events FROM step JOIN submission ON step.submission_id = submission.id WHERE "
                      "submission.game_id = :game AND submission.kind = 'salt' AND submission.turn_index = :turn",
                   game=g.game.id, turn=g.state.turn_index)
    try:
        events = [e for row in rows for e in json.loads(row.events)]
        return {e["power"]: e["binds"] for e in events if e["type"] == "salt"}
    except (TypeError, ValueError, KeyError) as exc:
        raise StoreError(f"the journal step of a salt of turn {g.state.turn_index} is damaged ({type(exc).__name__}), "
                         "so whose orders it binds is unknown: restore the database from a copy") from None


def turn_started(s: Session, g: Loaded) -> bool:
    """Whether a part of the current power-turn was adjudicated: from then on its dice key is fixed."""
    return bool(db.rows(s, "SELECT id FROM step WHERE game_id = :game AND turn_index = :turn AND phase != 'standing' "
                           "LIMIT 1", game=g.game.id, turn=g.state.turn_index))


def key_salts(s: Session, g: Loaded, sub, without_salts: bool) -> tuple[list[tuple[str, str]], dict | None]:
    """The salts of the turn's dice key and, on the turn's first adjudication, the journal event recording them.

    A strict game rolls nothing before the salts it awaits are in, unless the host falls back on
    `--without-salts` (after the deadline the players agreed): the event then names the missing powers.
    """
    if g.game.dice_mode not in dice.STRICT_MODES:
        if without_salts:
            raise ConfigError("--without-salts is for games created with `--dice strict`")
        return [], None
    if g.state.bidding:             # no dice to key
        return [], None
    salts = turn_salts(s, g)
    if turn_started(s, g):
        return salts, None
    missing = unsalted(g, salts)
    if missing and not without_salts:
        raise NothingToDo(f"nothing rolled: turn {g.state.turn_index} (round {g.state.round}, {g.state.power}) awaits "
                          f"the salts of {', '.join(missing)} for the orders locked with sha256 {sub.sha256} "
                          "(`submit --power POWER` with a line `salt TEXT`). After the deadline the players agreed, "
                          "the host may go on with `adjudicate --without-salts`; the report then names the missing salts")
    event = {"type": "salts", "power": g.state.power, "turn": g.state.turn_index,
             "salts": [{"power": p, "salt": text} for p, text in salts], "missing": missing}
    if binds(g):
        bound = bound_orders(s, g)
        _check_bound(g, salts, bound, sub.sha256)
        event["orders"] = sub.sha256
        for salt in event["salts"]:
            salt["binds"] = bound[salt["power"]]
    return salts, event


def _check_bound(g: Loaded, salts: list[tuple[str, str]], bound: dict[str, str], locked: str) -> None:
    """Refuse to roll with salts given for other orders than those locked now: the orders were changed after the
    salts were given (by hand in the database: no command does it), and their dice could have been chosen."""
    wrong = [f"{p} for sha256 {bound[p]}" if p in bound else f"{p} for no recorded orders" for p, _ in salts
             if bound.get(p) != locked]
    if wrong:
        raise StoreError(f"nothing rolled: the orders of {g.state.power} locked now (sha256 {locked}) are not those the "
                         f"salts were given for ({'; '.join(wrong)}). The orders were changed after the salts were "
                         "given: restore the orders the salts bind (or the database from a copy)")
