"""Where aircraft may land, and what becomes of those that have not (BG-06, BG-14, BG-15).

A combat move is refused when the aircraft could not reach any landing place afterwards (a one-way flight);
an aircraft that ends the non-combat move with no landing of its own is flown to the nearest legal one in
reach (RULINGS.md "default-landing"), and only one with no legal landing at all is lost, with the reason.
"""

from __future__ import annotations

from collections import deque

from ..state import State, Unit
from .base import G40Rules

FAR = 1 << 20


def carriers_at(rules: G40Rules, state: State, power: str, place: str) -> list[Unit]:
    return [u for u in state.units_at(place) if rules.ut(u).carrier_capacity and rules.friendly(state, power, u.owner)]


def damaged_carrier(rules: G40Rules, unit: Unit) -> bool:
    """BG-14: a carrier with a hit on it neither launches nor lands aircraft."""
    return rules.ut(unit).carrier_capacity > 0 and unit.damage > 0 and rules.ut(unit).hit_points > 1


def aircraft_at(rules: G40Rules, state: State, power: str, place: str) -> list[Unit]:
    """Friendly aircraft in a sea zone, the ones that came aboard last (highest id) last."""
    return sorted((u for u in state.units_at(place) if rules.is_air(u) and rules.friendly(state, power, u.owner)),
                  key=lambda u: u.id)


def carrier_room(rules: G40Rules, state: State, power: str, place: str) -> int:
    """Carrier places still free in a sea zone for an aircraft of `power` landing now. Aircraft that never left
    a damaged carrier stay aboard it; no aircraft lands on one (BG-14)."""
    carriers = carriers_at(rules, state, power, place)
    open_room = sum(rules.ut(c).carrier_capacity for c in carriers if not damaged_carrier(rules, c))
    shut_room = sum(rules.ut(c).carrier_capacity for c in carriers if damaged_carrier(rules, c))
    planes = [u for u in aircraft_at(rules, state, power, place) if rules.ut(u).carrier_cost]
    aboard_shut = min(shut_room, sum(rules.ut(u).carrier_cost for u in planes if not u.moved))
    return open_room - (sum(rules.ut(u).carrier_cost for u in planes) - aboard_shut)


def held_land(rules: G40Rules, state: State, power: str, place: str) -> bool:
    """BG-06: friendly land held since the start of the turn, with no enemy in it."""
    return (not rules.is_water(place) and (rules.is_friendly_land(state, power, place)
                                            or rules.neutral_passage(state, power, place, "Landing"))
            and place not in state.conquered and not rules.hostile_units(state, power, place))


def can_land(rules: G40Rules, state: State, power: str, place: str, extra: int = 0) -> bool:
    """BG-06: held friendly land, or a sea zone whose friendly carriers have room for `extra` more places."""
    if rules.is_water(place):
        return carrier_room(rules, state, power, place) >= extra
    return held_land(rules, state, power, place)


def air_distances(rules: G40Rules, state: State, power: str, start: str, limit: int,
                  quiet: bool = False) -> dict[str, int]:
    """Steps an aircraft of `power` needs from `start` to every place within `limit`; `quiet`: only over places
    where flying is no attack (a landing the adjudicator chooses never attacks a neutral for the player)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= limit:
            continue
        for nxt in sorted(rules.scenario.neighbours(here)):
            if (nxt not in seen and rules.air_passable(state, power, nxt)
                    and rules.crossing_closed(state, power, here, nxt) is None
                    and not (quiet and rules.flying_over_attacks(state, power, nxt))):
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def landing_distance(rules: G40Rules, state: State, power: str, start: str, spots: set[str] | None = None,
                     at_sea: bool = True) -> int:
    """Steps from `start` to the nearest place an aircraft of `power` may land, or to one of `spots`
    (places that may become landing places later this turn); FAR if none. `at_sea`: it may land on carriers."""
    for place, steps in sorted(air_distances(rules, state, power, start, 64).items(), key=lambda x: x[1]):
        if rules.is_water(place) and not at_sea:
            continue
        if can_land(rules, state, power, place, extra=1 if rules.is_water(place) else 0) or (spots and place in spots):
            return steps
    return FAR


def future_carrier_spots(rules: G40Rules, state: State, power: str) -> set[str]:
    """Sea zones where a carrier of `power` may be by the end of the turn: reachable by its own carriers that can
    still move, or next to one of its factories when it has a carrier waiting to be placed (BG-06, BG-15)."""
    from .economy import factory_capacity       # economy imports nothing of air's: kept local to stay acyclic
    spots: set[str] = set()
    for c in state.units:
        if c.owner != power or not rules.ut(c).carrier_capacity or damaged_carrier(rules, c):
            continue
        left = rules.movement(c) - c.moved
        frontier, seen = [c.place], {c.place}
        for _ in range(max(left, 0)):
            frontier = [n for p in frontier for n in rules.scenario.neighbours(p) if rules.is_water(n) and n not in seen]
            seen.update(frontier)
        spots |= seen
    waiting = state.purchases.get(power, {})
    if rules.prop("Land existing fighters on new carriers") and any(rules.ut(n).carrier_capacity and k for n, k in waiting.items()):
        for t in state.owners:
            if state.owners[t] == power and factory_capacity(rules, state, power, t):
                spots |= {n for n in rules.scenario.neighbours(t) if rules.is_water(n)}
    return spots


def new_carrier_spot(rules: G40Rules, state: State, power: str, place: str) -> bool:
    """A sea zone where a carrier the power has bought may still be placed this turn."""
    return rules.is_water(place) and place in future_carrier_spots(rules, state, power) and any(
        rules.ut(n).carrier_capacity and k for n, k in state.purchases.get(power, {}).items())


def settle(rules: G40Rules, state: State, power: str, unit: Unit, reach: int, why: str) -> dict:
    """Land `unit` at the nearest legal place within `reach` (ties: land before sea, then by name), or lose it.
    Returns the report event."""
    start = unit.place
    options = []
    deck = rules.ut(unit).carrier_cost
    for place, steps in air_distances(rules, state, unit.owner, start, reach, quiet=True).items():
        if rules.is_water(place) and not deck:
            continue
        if place != start and can_land(rules, state, unit.owner, place, extra=deck or 1):
            options.append((steps, rules.is_water(place), place))
    if not options:
        state.remove_units([unit.id])
        return {"type": "crash", "power": unit.owner, "place": start, "unit": unit.type,
                "reason": f"{why}, and no friendly territory held since the start of the turn or carrier with room "
                          f"is within {reach} space{'s' if reach != 1 else ''}"}
    steps, _, place = min(options)
    unit.place = place
    unit.moved += steps
    return {"type": "landing", "power": unit.owner, "unit": unit.type, "from": start, "to": place, "reason": why}


def land_the_rest(rules: G40Rules, state: State, power: str) -> list[dict]:
    """End of non-combat (RULINGS.md "default-landing"): the mover's aircraft with no landing place fly to the
    nearest one their movement reaches; aircraft waiting in a sea zone for a new carrier stay."""
    events = []
    for unit in sorted((u for u in state.units if u.owner == power and rules.is_air(u)), key=lambda u: (u.place, -u.id)):
        if landed(rules, state, power, unit):
            continue
        if new_carrier_spot(rules, state, power, unit.place):
            continue
        why = ("it is over hostile land" if not rules.is_water(unit.place) else
               f"no carrier has room for it in {unit.place}")
        events.append(settle(rules, state, power, unit, max(rules.movement(unit) - unit.moved, 0), why))
    return events


def lose_unlanded(rules: G40Rules, state: State, power: str) -> list[dict]:
    """After mobilisation: aircraft still without a landing (their new carrier was not placed) are lost."""
    lost = [u for u in sorted((u for u in state.units if u.owner == power and rules.is_air(u)), key=lambda u: -u.id)
            if not landed(rules, state, power, u)]
    events = []
    for u in lost:
        state.remove_units([u.id])
        events.append({"type": "crash", "power": power, "place": u.place, "unit": u.type,
                       "reason": f"no carrier with room was placed in {u.place}" if rules.is_water(u.place)
                       else f"{u.place} is not a legal landing place"})
    return events


def landed(rules: G40Rules, state: State, power: str, unit: Unit) -> bool:
    """The aircraft is on held friendly land, or among the first aircraft a carrier in its zone has room for.
    Aircraft that have not flown this turn keep their places aboard a damaged carrier; aircraft that flew (they
    attacked, or came in) are airborne and land only on a carrier that is not damaged (BG-14)."""
    if not rules.is_water(unit.place):
        return held_land(rules, state, power, unit.place)
    if not rules.ut(unit).carrier_cost:
        return False
    planes = sorted((u for u in aircraft_at(rules, state, power, unit.place) if rules.ut(u).carrier_cost),
                    key=lambda u: (u.moved > 0, u.id))      # those that have not flown this turn were there first
    carriers = carriers_at(rules, state, power, unit.place)
    shut = sum(rules.ut(c).carrier_capacity for c in carriers if damaged_carrier(rules, c))
    open_room = sum(rules.ut(c).carrier_capacity for c in carriers) - shut
    for u in planes:                      # the first aboard keep their places
        need = rules.ut(u).carrier_cost
        if not u.moved and need <= shut:
            shut -= need
            fits = True
        else:
            open_room -= need
            fits = open_room >= 0
        if u is unit:
            return fits
    return False
