"""Scrambling (BG-30): defending aircraft rise from an air base into an attacked sea zone next to it.

The defender decides in advance, by the standing order `scramble PLACE > SEAZONE [max N]` (NOTATION.md);
without one nothing scrambles. The order fires when SEAZONE is attacked, and also when an amphibious assault
lands from it while it holds no enemy (the aircraft then fight the mover's fleet there before the landing). Up to
the base's maxScrambleCount (3) fighters and tactical bombers that can scramble go, the strongest defenders
first, and after the battles they fly back to their base.
"""

from __future__ import annotations

from ..state import State, Unit, count_types
from . import air
from .facts import MapFacts, RuleViolation


def check_order(rules: MapFacts, place: str, sea_zone: str) -> None:
    """What a standing scramble order must be to be honoured at all; refused at submit otherwise."""
    if not rules.prop("Scramble Rules In Effect"):
        raise RuleViolation("this game is played without scrambling (the map's \"Scramble Rules In Effect\")", "BG-30")
    if rules.is_water(place):
        raise RuleViolation(f"aircraft scramble from a territory with an air base, not from {place}", "BG-30")
    if not rules.is_water(sea_zone) and rules.prop("Scramble To Sea Only"):
        raise RuleViolation(f"aircraft scramble only into sea zones; {sea_zone} is land", "BG-30")
    if sea_zone not in rules.scenario.neighbours(place):
        raise RuleViolation(f"{sea_zone} is not next to {place}: aircraft scramble only next door", "BG-30")
    if rules.prop("Scramble From Island Only") and any(not rules.is_water(n) for n in rules.scenario.neighbours(place)):
        raise RuleViolation(f"aircraft scramble only from islands; {place} is not one", "BG-30")


def bases(rules: MapFacts, state: State, power: str, place: str) -> list[Unit]:
    """Operative air bases of `power` or its allies in `place` (BG-28: 3 or more damage stops one)."""
    return [u for u in state.units_at(place) if rules.ut(u).has("air_base") and rules.operative(u)
            and rules.friendly(state, power, u.owner)]


def scramble(rules: MapFacts, state: State, mover: str, zone: str, assaults: list[str] | None = None) -> list[dict]:
    """Before the sea battle in `zone`, or before troops land from `zone` on the territories `assaults` where it
    holds no enemy: every enemy of the mover whose standing order says so scrambles. Against a landing, where
    the map's "Scramble To Any Amphibious Assault" is off, only aircraft based in an assaulted territory rise
    (as TripleA plays it; RULINGS.md "scramble")."""
    anywhere = not assaults or rules.prop("Scramble To Any Amphibious Assault")
    events = []
    for power in rules.scenario.turn_players():
        if not rules.fights(state, mover, power):
            continue
        for order in state.standing.get(power, {}).get("scramble", []):
            if order["sea_zone"] != zone or not (anywhere or order["place"] in assaults):
                continue
            ev = _rise(rules, state, mover, power, order, zone)
            if ev:
                if assaults:
                    ev["landing"] = list(assaults)
                events.append(ev)
    return events


def _rise(rules: MapFacts, state: State, mover: str, power: str, order: dict, zone: str) -> dict | None:
    place = order["place"]
    why = f"standing order `scramble {place} > {zone}" + (f" max {order['max']}`" if order.get("max") is not None else "`")
    if state.owners.get(place) is None or not rules.friendly(state, power, state.owners[place]):
        return {"type": "scramble", "power": power, "from": place, "to": zone, "units": {}, "why": why,
                "note": f"{place} is no longer held by {power} or an ally"}
    limit = sum(rules.number(b, "maxScrambleCount", 3) for b in bases(rules, state, power, place))
    limit -= sum(1 for u in state.units if u.flags.get("scrambled_from") == place)
    if order.get("max") is not None:
        limit = min(limit, order["max"])
    ready = sorted((u for u in state.units_at(place, power) if rules.true(u, "canScramble")),
                   key=lambda u: (-rules.ut(u).defense, u.id))
    going = ready[:max(limit, 0)]
    if not going:
        note = "no operative air base there" if not bases(rules, state, power, place) else "no aircraft able to scramble"
        return {"type": "scramble", "power": power, "from": place, "to": zone, "units": {}, "why": why, "note": note}
    if not _can_fight(rules, state, mover, zone, going):
        return {"type": "scramble", "power": power, "from": place, "to": zone, "units": {}, "why": why,
                "note": "the aircraft could hit none of the attackers (submarines, with no destroyer of the defence "
                        "there): they stay to defend their base"}
    for u in going:
        u.place = zone
        u.mark(scrambled_from=place)
    return {"type": "scramble", "power": power, "from": place, "to": zone, "units": count_types(going), "why": why}


def _can_fight(rules: MapFacts, state: State, mover: str, zone: str, aircraft: list[Unit]) -> bool:
    """RULINGS.md "scramble-lone-submarine": a standing order scrambles aircraft only into a battle where they
    could hit an attacker; against submarines alone, with no destroyer of the defence there, they cannot (BG-18)."""
    attackers = [u for u in state.units_at(zone, mover) if rules.is_combatant(u)]
    destroyer = any(rules.is_destroyer(u) for u in rules.hostile_units(state, mover, zone))
    return not attackers or any(rules.can_hit(a, t, destroyer) for a in aircraft for t in attackers)


def _base_stands(rules: MapFacts, state: State, power: str, home: str) -> bool:
    """Scrambled aircraft go home unless it was captured (RULINGS.md "scramble-from-an-attacked-territory"):
    enemy aircraft still over it after an air attack took nothing and leave in their non-combat move."""
    if air.held_land(rules, state, power, home):
        return True
    return (rules.is_friendly_land(state, power, home) and home not in state.conquered
            and all(rules.is_air(u) for u in rules.hostile_units(state, power, home)))


def return_to_base(rules: MapFacts, state: State) -> list[dict]:
    """After the battles, scrambled aircraft fly home; if home was lost, to the nearest landing within their
    scramble distance (1), or they are lost. Where the map does not send them home (pacific), they land within
    that distance, at home where it still takes them, else at the safest landing (RULINGS.md "default-landing")."""
    events = []
    for u in sorted((u for u in state.units if u.flags.get("scrambled_from")), key=lambda u: u.id):
        home = u.unmark("scrambled_from")
        start = u.place
        if not rules.prop("Scrambled Units Return To Base"):
            if not air.landed(rules, state, u.owner, u):        # their base first, where it is still a landing
                events.append(air.settle(rules, state, u.owner, u, rules.number(u, "maxScrambleDistance", 1),
                                         "scrambled aircraft do not return to base in this game", prefer=home))
        elif _base_stands(rules, state, u.owner, home):
            u.place = home
            events.append({"type": "landing", "power": u.owner, "unit": u.type, "from": start, "to": home,
                           "reason": "scrambled aircraft return to base"})
        else:
            events.append(air.settle(rules, state, u.owner, u, rules.number(u, "maxScrambleDistance", 1),
                                     f"its base {home} was lost"))
    return events
