"""`report --odds`: before each battle of the report, the odds it had, so that players see how lucky a roll was.

The odds are those of the battle's units as its journal event records them (who attacked, who defended, with
what), fought by the game's rules with the orders of loss on file now (adjudicator.odds); the report says so. They
are reckoned when the report is asked for, never stored: the journal and the posted report stay as they were.
"""

from __future__ import annotations

import json

from sqlmodel import Session

from .errors import AdjudicatorError
from .notation.orders import UnitCount
from .odds import reckon, standalone
from .people import People, speaking
from .people import power as power_word
from .store import db


def add_odds(session: Session, ctx: dict, turn_index: int | None) -> None:
    """Put a line with its odds before the rounds of each battle of the report's context."""
    from .game import open_game                 # game imports the report, which this module serves
    g = open_game(session)
    with speaking(People(g.scenario, g.rules.people_names)):
        lines = [odds_line(g.rules, g.state, e) for e in _battles(session, g.game, turn_index)]
    views = [b for phase in ctx["phases"] for b in phase["battles"]]
    for view, line in zip(views, lines):
        view["rounds"] = [line] + view["rounds"]


def _battles(session: Session, game, turn_index: int | None) -> list[dict]:
    """The turn's battle events in the order the report tells them."""
    if turn_index is None:
        turn_index = max((r[0] for r in db.rows(session, "SELECT turn_index FROM step WHERE game_id = :game AND "
                                                         "phase != 'standing'", game=game.id)), default=None)
    steps = db.rows(session, "SELECT events FROM step WHERE game_id = :game AND turn_index = :turn AND "
                             "phase != 'standing' ORDER BY seq", game=game.id, turn=turn_index)
    return [e for st in steps for e in json.loads(st.events) if e["type"] == "battle"]


def odds_line(rules, state, event: dict) -> str:
    """`Odds before the battle: …` for one battle event."""
    defenders = event.get("defenders") or []
    if not defenders or not event["defending"]:
        return "Odds before the battle: no defender, nothing to reckon"
    units = [tuple(UnitCount(n, t) for t, n in event[side].items()) for side in ("attacking", "defending")]
    try:
        ools = [tuple(state.standing.get(p, {}).get("ool", ())) or None for p in (event["attacker"], defenders[0])]
        position = standalone(rules, units[0], units[1], event["attacker"], defenders[0], event["place"], *ools)
        odds = reckon(position)
    except AdjudicatorError as exc:
        return f"Odds before the battle: not reckoned ({exc.message})"
    how = "exact" if odds.method == "exact" else f"{odds.runs:,} simulated battles"
    return (f"Odds before the battle ({how}; its units, by the orders of loss on file): {power_word(event['attacker'])} "
            f"win {odds.attacker_wins:.2%}, the defence holds {odds.defender_wins:.2%}, both destroyed {odds.draw:.2%}")
