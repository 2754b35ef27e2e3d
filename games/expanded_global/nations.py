"""The Expanded Global Scenario's nations and their land (EG-03 … EG-05, EG-63).

RULINGS.md "eg-original-territories", "eg-bases-and-factories", "eg-entering-territory", "eg-leaving-an-alliance".
A nation's Original Territories are the state's original owners (the scenario's start owners, "original-territories");
G40's own rules read them for liberation (BG-40), so only what the document changes is here: factories only on
Original land, the refusal of entering a nation's land without an alliance (or, at war, before combat is allowed),
and the internment of units left in a former partner's land.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from .phrases import said
from .politics import combat_allowed, nations


def check_factories(rules, state: State, power: str, place: str, units: dict[str, int]) -> None:
    """EG-04: on land that is not its Original Territory a nation builds air and naval bases only — no factory, no
    upgrade (RULINGS.md "eg-bases-and-factories"); on its Original Territories G40's limits apply unchanged."""
    if rules.is_water(place) or rules.original_owner(state, place) == power:
        return
    if any(rules.ut(u).has("factory") for u in units):
        raise RuleViolation(f"factories only on Original Territories: {place} is not an Original Territory of "
                            f"{power}, only air and naval bases may be built there", "EG-04")


def not_allied(rules, state: State, power: str, place: str, verb: str) -> RuleViolation | None:
    """EG-05: why `power` may not enter (`verb`: or fly over, fly into) `place` of a nation it is neither allied
    with nor at war with; None for land of a neutral owner ("eg-neutrals": G40's refusal stands)."""
    owner = rules.owner(state, place)
    if owner not in nations(rules):
        return None
    return RuleViolation(f"{power} may not {verb} {place}: not allied with {owner}", "EG-05")


def check_move(rules, state: State, power: str, units: list, path: list[str], phase: str) -> None:
    """EG-05 for land of a nation at war with `power` whose combat is not allowed yet (the round of the declaration,
    EG-65): G40 would treat it as enemy land, but the ruling closes it as at peace — no pass-through, fly-over or
    non-combat entry; only a combat move into it, an attack (RULINGS.md "eg-entering-territory")."""
    air = all(rules.is_air(u) for u in units)
    for place in path[1:]:
        owner = rules.owner(state, place)
        if (rules.is_water(place) or owner not in nations(rules) or not rules.at_war(state, power, owner)
                or combat_allowed(rules, state, power, owner) or (place == path[-1] and phase == "combat_move")):
            continue
        verb = ("fly into" if place == path[-1] else "fly over") if air else "enter"
        raise RuleViolation(f"{power} may not {verb} {place}: not allied with {owner}, and combat with it is allowed "
                            "only from the round after the declaration (EG-65)", "EG-05")


def intern(rules, state: State, power: str) -> list[dict]:
    """EG-63 (RULINGS.md "eg-leaving-an-alliance", "Stranded units"): as its turn ends, `power`'s land units and
    aircraft still on land of a nation it is neither allied with nor at war with are removed. After the battles
    only a departure from an alliance leaves them there, and this turn was their time to move out."""
    events = []
    for place in sorted({u.place for u in state.units if u.owner == power and not rules.is_water(u.place)}):
        if not rules.is_neutral_land(state, power, place) or rules.neutral_passage(state, power, place, "Land"):
            continue            # (a victor's units in the land of a Political surrender: EG-19)
        gone = [u for u in state.units_at(place, power) if not rules.ut(u).has("infrastructure")]
        if not gone:
            continue
        units: dict[str, int] = {}
        for u in gone:
            units[u.type] = units.get(u.type, 0) + 1
        state.remove_units([u.id for u in gone])
        events.append(said({"type": "interned", "power": power, "place": place, "owner": rules.owner(state, place),
                            "units": units, "rule": "EG-63"}))
    return events
