"""The ways to win a map switches on besides its victory triggers (games/classic/RULES.md CL-17 … CL-19), as
TripleA's EndRoundDelegate plays them: a side whose powers hold the map's count of victory cities ("Honorable
Surrender", "<side> Honorable Victory VCs") or whose income reaches the map's figure ("Economic Victory",
"<side> Economic Victory"), looked at as a round ends; and victory points collected with income ("Pacific
Theater": the powers whose PlayerAttachment keeps `vps`), which win as the collector's turn ends (RULINGS.md
"victory-points").

A win is a record in State.switches (conditions.WON names it, "victory:KEY" keeps its sentence), so `status` and
`submit` see it as they see a hold won; victory points are State.spent "vps:POWER", and the PUs a power took
from a capital this turn "vps-captured:POWER".
"""

from __future__ import annotations

from ..state import State
from .city_goals import against, side_members
from .conditions import WON
from .facts import MapFacts

VP_RULE = "CL-19"


def _figure(rules: MapFacts, name: str, default: int) -> int:
    """A whole-number property of the map (TripleA's default where it leaves it out)."""
    value = str(rules.scenario.properties.get(name, "")).strip()
    return int(value) if value.isdigit() else default


def _sides(rules: MapFacts) -> list[str]:
    return list(dict.fromkeys(a for p in rules.scenario.players for a in p.alliances))


def victory_cities(rules: MapFacts, owners: dict[str, str], side: str) -> list[str]:
    """The victory cities the side's powers hold (a territory's victoryCity counts that many)."""
    members = side_members(rules, side)
    return [t.name for t in rules.scenario.territories for _ in range(t.victory_city or 0)
            if owners.get(t.name) in members]


def city_goals(rules: MapFacts, owners: dict[str, str]) -> list[str]:
    """CL-17 as the summary's goals: the victory cities each side holds against its count, held as a round ends."""
    if not rules.prop("Honorable Surrender"):
        return []
    return [f"the {side} hold {against(len(victory_cities(rules, owners, side)), need)} as a round ends [CL-17]"
            for side in _sides(rules) for need in [_figure(rules, f"{side} Honorable Victory VCs", 15)]]


def side_income(rules: MapFacts, state: State, side: str) -> int:
    """The production of every territory the side's powers own (TripleA's EndRoundDelegate.getProduction)."""
    members = side_members(rules, side)
    territories = rules.scenario.territories_by_name()
    return sum(territories[t].production for t, o in state.owners.items() if o in members)


def vp_collectors(rules: MapFacts) -> list[str]:
    """The powers that collect victory points: those whose PlayerAttachment keeps `vps`, under "Pacific Theater"."""
    if not rules.prop("Pacific Theater"):
        return []
    return [p.name for p in rules.scenario.players if "vps" in p.options]


def points(state: State, power: str) -> int:
    return state.spent.get(f"vps:{power}", 0)


def record_capital_taken(rules: MapFacts, state: State, power: str, taken: int) -> None:
    """PUs `power` took from a capital this turn count with its income toward victory points (the Pacific FAQ)."""
    if taken and power in vp_collectors(rules):
        key = f"vps-captured:{power}"
        state.spent[key] = state.spent.get(key, 0) + taken


def bombed(rules: MapFacts, state: State, power: str, lost: int) -> dict:
    """CL-25: a raid that costs a collector of victory points PUs costs it one point for every full 10 PUs
    handed over at once (the Pacific FAQ); returns what the raid event adds ({} for anyone else)."""
    if power not in vp_collectors(rules) or lost < 10:
        return {}
    taken = min(lost // 10, points(state, power))
    state.spent[f"vps:{power}"] = points(state, power) - taken
    return {"vps_lost": taken, "vps_total": points(state, power)}


def collect_points(rules: MapFacts, state: State, power: str, income: dict) -> None:
    """CL-19: one victory point for every full 10 PUs collected this turn, counting PUs taken from a capital;
    added to the income event (`vps`: gained, `vps_total`)."""
    if power not in vp_collectors(rules):
        return
    counted = income["income"] + state.spent.pop(f"vps-captured:{power}", 0)
    gained = counted // 10
    state.spent[f"vps:{power}"] = points(state, power) + gained
    income.update(vps=gained, vps_total=points(state, power), vps_needed=rules.victory_points_to_win)


def check(rules: MapFacts, state: State, power: str) -> list[dict]:
    """At the end of `power`'s turn: its victory points (CL-19); as the round ends, each side's victory cities
    (CL-17) and income (CL-18). Answers with the event of the win, if any."""
    if state.switches.get(WON):
        return []
    wins = []
    if power in vp_collectors(rules) and points(state, power) >= rules.victory_points_to_win:
        side = next(iter(rules.scenario.player(power).alliances), power)
        wins.append((f"vps:{power}", side, VP_RULE, f"the {power} have {points(state, power)} victory points, "
                                                    f"{rules.victory_points_to_win} needed"))
    if power == rules.scenario.turn_players()[-1]:
        for side in _sides(rules):
            if rules.prop("Honorable Surrender"):
                cities = victory_cities(rules, state.owners, side)
                need = _figure(rules, f"{side} Honorable Victory VCs", 15)
                if len(cities) >= need:
                    wins.append((f"cities:{side}", side, "CL-17", f"they hold {len(cities)} victory cities "
                                 f"({', '.join(cities)}) as round {state.round} ends, {need} needed"))
            if rules.prop("Economic Victory"):
                income, need = side_income(rules, state, side), _figure(rules, f"{side} Economic Victory", 200)
                if income >= need:
                    wins.append((f"income:{side}", side, "CL-18", f"their territories produce {income} PUs as "
                                 f"round {state.round} ends, {need} needed"))
    return win(state, *wins[0]) if wins else []


def win(state: State, key: str, side: str, rule: str, why: str) -> list[dict]:
    """End the game: the `side` wins by `rule` because `why`; recorded so that `status` (below) reads it back."""
    text = f"Game over: the {side} win: {why} [{rule}]."
    state.switches[WON] = key
    state.switches[f"victory:{key}"] = text
    return [_event(side, rule, text)]


def status(state: State) -> dict | None:
    """The event of a win this module recorded, or None."""
    key = state.switches.get(WON)
    text = state.switches.get(f"victory:{key}") if key else None
    if not isinstance(text, str) or not text.startswith("Game over"):
        return None
    side = text.removeprefix("Game over: the ").partition(" win")[0]
    return _event(side, text.rpartition("[")[2].rstrip("]."), text)


def _event(side: str, rule: str, text: str) -> dict:
    return {"type": "victory", "side": side, "rule": rule, "text": text}
