"""`games`: the games of a database (a league's, or a file's one game), or, given none, the games one can create.

A league host lists dozens of games at once, so the listing reads the game rows and the journal, never a game's
scenario or rules: whose turn it is and what it awaits come from the cursor, the locked orders, the salts
submitted this turn and the victory standing kept with the last turn's snapshot. `status --id GAME` says the rest.
"""

from __future__ import annotations

import json

from sqlmodel import func, select

from .dice import STRICT_MODES
from .store import db
from .store.journal import Snapshot, Step
from .store.models import Power, Submission


def list_games(db_arg: str) -> dict:
    """Every game of the database, by id: its game and title, round, whose turn and what the game awaits."""
    engine = db.open_existing(db_arg)
    try:
        with db.transaction(engine, read_only=True) as s:
            games = db.all_games(s)
            locked = {(gid, turn, power) for gid, turn, power in s.exec(
                select(Submission.game_id, Submission.turn_index, Submission.power)
                .where(Submission.kind == "turn", Submission.status == "locked"))}
            strict = [g for g in games if g.dice_mode in STRICT_MODES and (g.id, g.turn_index, g.power) in locked]
            salts = _salts(s, strict)
            winners = _winners(s)
    finally:
        engine.dispose()
    out = []
    for g in games:
        if g.id in winners:
            awaiting = f"nothing: the game is over, the {winners[g.id]} won"
        elif (g.id, g.turn_index, g.power) not in locked:
            awaiting = f"the bid of {g.power}" if g.round == 0 else f"orders from {g.power}"
        elif salts.get(g.id):
            awaiting = f"salts from {', '.join(salts[g.id])}"
        else:
            awaiting = "adjudicate"
        out.append({"game": g.id, "name": g.name, "title": g.title, "rules": g.rules_version, "round": g.round,
                    "power": g.power, "phase": g.phase, "turn_index": g.turn_index, "dice": g.dice_mode,
                    "awaiting": awaiting, "created_at": g.created_at})
    return {"database": db.shown(db_arg), "games": out}


def _salts(s, games) -> dict[str, list[str]]:
    """For strict games whose orders are locked and whose turn has not started rolling: the salters still awaited
    (as salts.salters/unsalted reckon them, from the rows alone)."""
    missing = {}
    for g in games:
        started = s.exec(select(Step.id).where(Step.game_id == g.id, Step.turn_index == g.turn_index,
                                               Step.phase != "standing")).first()
        if started is not None:
            continue
        listed = g.salts_required.split(",") if g.salts_required else [
            p for p in s.exec(select(Power.name).where(Power.game_id == g.id, Power.turn_order >= 0)
                              .order_by(Power.turn_order))]
        salted = set(s.exec(select(Submission.power).where(Submission.game_id == g.id, Submission.kind == "salt",
                                                           Submission.turn_index == g.turn_index)))
        missing[g.id] = [p for p in listed if p != g.power and p not in salted]
    return missing


def _winners(s) -> dict[str, str]:
    """The side that won each finished game, from the snapshot of its last adjudicated turn."""
    if not db.has_table(s, "snapshot"):
        return {}
    last = select(Snapshot.game_id, func.max(Snapshot.turn_index).label("turn")).group_by(Snapshot.game_id).subquery()
    rows = s.exec(select(Snapshot.game_id, Snapshot.data).join(
        last, (Snapshot.game_id == last.c.game_id) & (Snapshot.turn_index == last.c.turn)))
    won = {}
    for gid, data in rows:
        try:
            winner = (json.loads(data).get("victory") or {}).get("winner")
        except (ValueError, AttributeError):
            continue
        if isinstance(winner, dict) and winner.get("side"):
            won[gid] = winner["side"]
    return won


def game_names() -> dict:
    """The names `new --game` takes: for each, whether it is playable yet, its rules, rule versions and options,
    and whether it is played on a TripleA map (`--map`)."""
    from .games import GAMES, game_module
    out = []
    for name, module in GAMES.items():
        if module is None:
            out.append({"name": name, "playable": False})
            continue
        m = game_module(name)
        versions = list(getattr(m, "RULE_VERSIONS", {}))
        out.append({"name": name, "playable": True, "title": getattr(m.RULES, "title", name),
                    "rules": versions, "default_rules": getattr(m, "DEFAULT_VERSION", "") or None,
                    "needs_map": bool(m.NEEDS_MAP), "made_from": getattr(m, "MAP", None), "bids": bool(m.RULES.takes_bids),
                    "options": {o: what for o, (_, what) in getattr(m, "OPTIONS", {}).items()}})
    return {"games": out}
