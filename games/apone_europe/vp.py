"""Germany's victory points and the end of the game (AP-15 … AP-24), in place of the map's capital-holding
victory triggers (europe_improved's "Triggered Victory"), which this game never looks at (RULINGS.md
"ap-map-victory").

As the Germans' turn ends they earn VPs for the IPCs they collected (AP-15: floor(IPCs / 10) − 1 from 20 up) and
one for each enemy industrial complex they hold (AP-16); the total is kept (AP-17), starting at 0 and never below 0
(RULINGS.md "ap-vp-start"). A raid on a German territory costs the treasury what the bombers score, with no cap by
the territory's value (AP-19, AP-24: the map sets none), and one VP for each full 10 IPCs the raids of the game
round have scored (AP-18, RULINGS.md "ap-sbr-vp"). The Germans win at the end of any turn with 22 VPs (AP-20); the
Allies win when the Germans' turn ends with Germany in enemy hands (AP-21, RULINGS.md "ap-capital") or with no VP
earned (AP-22, RULINGS.md "ap-no-vp").

Records (State.spent): "vps:Germans" the total (as rules/victory.py keeps points), "ap:bombed" the IPCs raids
scored this round and "ap:bombed-vps" the VPs they took, "ap:earned" the VPs earned as the Germans' last turn ended.
"""

from __future__ import annotations

from adjudicator.rules import victory
from adjudicator.rules.conditions import WON
from adjudicator.state import State

GERMANS = "Germans"
CAPITAL = "Germany"                 # AP-21
TO_WIN = 22                         # AP-20
POINTS, BOMBED, BOMBED_VPS, EARNED = f"vps:{GERMANS}", "ap:bombed", "ap:bombed-vps", "ap:earned"


def income_points(collected: int) -> int:
    """AP-15, the table: 0–19 IPCs give 0, 20–29 give 1, 30–39 give 2, and 1 more for each further 10."""
    return max(collected // 10 - 1, 0)


def enemy_factories(rules, state: State) -> list[str]:
    """AP-16: where the Germans hold an industrial complex of a territory that was not theirs at the start (one
    entry per complex; a captured complex is German-owned, so the territory's original owner decides)."""
    return sorted(u.place for u in state.units if rules.ut(u).has("factory") and not rules.is_water(u.place)
                  and state.owners.get(u.place) == GERMANS and rules.original_owner(state, u.place) != GERMANS)


def earn(rules, state: State, power: str, income: dict) -> list[dict]:
    """AP-15 … AP-17, as the Germans' turn ends: the VP account, from the IPCs the income event says they
    collected; the round's raid count starts again (AP-18)."""
    if power != GERMANS:
        return []
    collected = income["income"]
    places = enemy_factories(rules, state)
    from_income, from_factories = income_points(collected), len(places)
    before = victory.points(state, GERMANS)
    state.spent[POINTS] = before + from_income + from_factories
    state.spent[EARNED] = from_income + from_factories
    bombed, bombed_vps = state.spent.pop(BOMBED, 0), state.spent.pop(BOMBED_VPS, 0)
    held = (f"{from_factories} for the enemy industrial complex{'es' if from_factories != 1 else ''} they hold in "
            f"{', '.join(places)}" if places else "0 for enemy industrial complexes (they hold none)")
    raids = (f"; raids since their last turn scored {bombed} IPCs and took {bombed_vps} VP"
             f"{'s' if bombed_vps != 1 else ''}" if bombed else "")
    text = (f"Germans' victory points, end of their turn of round {state.round}: {from_income} for the {collected} "
            f"IPCs collected (AP-15), {held} (AP-16): {state.spent[EARNED]} earned, total {before} → "
            f"{state.spent[POINTS]} of the {TO_WIN} that win{raids}.")
    return [{"type": "vp_account", "power": GERMANS, "rule": "AP-17", "collected": collected,
             "income_vps": from_income, "factories": places, "factory_vps": from_factories,
             "earned": state.spent[EARNED], "vps_total": state.spent[POINTS], "needed": TO_WIN, "text": text}]


def bombed(state: State, power: str, dealt: int) -> dict:
    """AP-18: a raid on a German territory adds what its bombers scored to the round's count; the Germans lose a
    VP for each full 10 the count passes (never below 0). What the raid's damage record adds."""
    if power != GERMANS or dealt <= 0:
        return {}
    before = state.spent.get(BOMBED, 0)
    state.spent[BOMBED] = before + dealt
    taken = min(state.spent[BOMBED] // 10 - before // 10, victory.points(state, GERMANS))
    state.spent[POINTS] = victory.points(state, GERMANS) - taken
    state.spent[BOMBED_VPS] = state.spent.get(BOMBED_VPS, 0) + taken
    return {"vps_lost": taken, "vps_total": state.spent[POINTS],
            "vps_why": f"raids on the Germans have scored {state.spent[BOMBED]} IPCs this round, 1 VP for each full "
                       f"10 [AP-18]"}


def check(rules, state: State, power: str) -> list[dict]:
    """At the end of every turn: AP-21 and AP-22 as the Germans' turn ends, then AP-20."""
    if state.switches.get(WON):
        return []
    holder = state.owners.get(CAPITAL)
    if power == GERMANS and holder != GERMANS:
        return victory.win(state, "ap:capital", _side(rules, holder), "AP-21", f"the {holder} took Germany, the German "
                           f"capital, and hold it as the Germans' turn of round {state.round} ends")
    if power == GERMANS and state.spent.get(EARNED) == 0:
        return victory.win(state, "ap:no-vp", _side(rules, "Russians"), "AP-22",
                           f"the Germans earned no victory point as their turn of round {state.round} ended")
    if victory.points(state, GERMANS) >= TO_WIN:
        return victory.win(state, "ap:vps", _side(rules, GERMANS), "AP-20",
                           f"the Germans have {victory.points(state, GERMANS)} victory points, {TO_WIN} needed")
    return []


def status(rules, state: State) -> dict:
    """The winner; or, while an enemy holds Germany, the Allies' coming win (AP-21)."""
    won = victory.status(state)
    if won:
        return {"winner": won, "holds": []}
    holder = state.owners.get(CAPITAL)
    if holder == GERMANS:
        return {"winner": None, "holds": []}
    return {"winner": None, "holds": [{"type": "victory_hold", "side": _side(rules, holder), "rule": "AP-21",
                                       "text": f"The {holder} hold Germany, the German capital: the Allies win if it "
                                               f"is still theirs when the Germans' next turn ends [AP-21]."}]}


def position_line(state: State) -> str:
    """The VP account as the report's position shows it after every turn."""
    return (f"German victory points: {victory.points(state, GERMANS)} of the {TO_WIN} that win; raids this round "
            f"have scored {state.spent.get(BOMBED, 0)} IPCs against Germany")


def fields(state: State) -> dict:
    """`status --json`: the Germans' VP account."""
    return {"victory_points": {GERMANS: {"points": victory.points(state, GERMANS), "needed": TO_WIN,
                                         "earned_last_turn": state.spent.get(EARNED, 0),
                                         "bombed_this_round": state.spent.get(BOMBED, 0)}}}


def _side(rules, power: str) -> str:
    return next(iter(rules.scenario.player(power).alliances), power)
