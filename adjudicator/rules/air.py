"""Where aircraft may land, and what becomes of those that have not (BG-06, BG-14, BG-15).

A combat move is refused when the aircraft could not reach any landing place afterwards (a one-way flight);
an aircraft that ends the non-combat move with no landing of its own is flown to where its order sent it, or
else to the safest legal landing in reach (RULINGS.md "default-landing"), and only one with no legal landing at
all is lost, with the reason.
"""

from __future__ import annotations

from collections import deque

from ..state import State, Unit
from .facts import MapFacts

FAR = 1 << 20


def carriers_at(rules: MapFacts, state: State, power: str, place: str) -> list[Unit]:
    return [u for u in state.units_at(place) if rules.ut(u).carrier_capacity and rules.friendly(state, power, u.owner)]


def damaged_carrier(rules: MapFacts, unit: Unit) -> bool:
    """BG-14: a carrier with a hit on it neither launches nor lands aircraft."""
    return rules.ut(unit).carrier_capacity > 0 and unit.damage > 0 and rules.ut(unit).hit_points > 1


def aircraft_at(rules: MapFacts, state: State, power: str, place: str) -> list[Unit]:
    """Friendly aircraft in a sea zone, the ones that came aboard last (highest id) last."""
    return sorted((u for u in state.units_at(place) if rules.is_air(u) and rules.friendly(state, power, u.owner)),
                  key=lambda u: u.id)


def decks(rules: MapFacts, state: State, power: str, place: str) -> tuple[dict[int, str], int]:
    """Where the friendly aircraft in a sea zone sit, as far as the rules care (BG-14), and the room left for one
    landing now: aircraft that have not flown this turn were aboard first and take the sound carriers' places, then
    the damaged carriers' ("held": they can neither take off nor fight); aircraft that flew this turn are airborne
    and land only in the sound places left. Returns (aircraft id -> "sound" | "held", sound places left); an
    aircraft not in the dict has no place."""
    carriers = carriers_at(rules, state, power, place)
    shut = sum(rules.ut(c).carrier_capacity for c in carriers if damaged_carrier(rules, c))
    sound = sum(rules.ut(c).carrier_capacity for c in carriers) - shut
    seats: dict[int, str] = {}
    planes = sorted((u for u in aircraft_at(rules, state, power, place) if rules.ut(u).carrier_cost),
                    key=lambda u: (u.moved > 0, u.id))
    for u in planes:
        need = rules.ut(u).carrier_cost
        if need <= sound:
            sound -= need
            seats[u.id] = "sound"
        elif not u.moved and need <= shut:
            shut -= need
            seats[u.id] = "held"
    return seats, sound


def carrier_room(rules: MapFacts, state: State, power: str, place: str) -> int:
    """Carrier places still free in a sea zone for an aircraft of `power` landing now (`decks`)."""
    return decks(rules, state, power, place)[1]


def held_land(rules: MapFacts, state: State, power: str, place: str) -> bool:
    """BG-06: friendly land held since the start of the turn, with no enemy in it, that the map lets aircraft land
    in (not a neutral siding with the power: MapFacts.closed_to_aircraft)."""
    if rules.is_water(place) or place in state.conquered or rules.hostile_units(state, power, place):
        return False
    if rules.is_friendly_land(state, power, place):
        return not rules.closed_to_aircraft(state, power, place, "canLandAirUnitsOnOwnedLand")
    return rules.neutral_passage(state, power, place, "Landing")


def can_land(rules: MapFacts, state: State, power: str, place: str, extra: int = 0) -> bool:
    """BG-06: held friendly land, or a sea zone whose friendly carriers have room for `extra` more places."""
    if rules.is_water(place):
        return carrier_room(rules, state, power, place) >= extra
    return held_land(rules, state, power, place)


def air_distances(rules: MapFacts, state: State, power: str, start: str, limit: int,
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


def landing_distance(rules: MapFacts, state: State, power: str, start: str, spots: set[str] | None = None,
                     at_sea: bool = True, bonus: dict[str, int] | None = None) -> int:
    """Movement from `start` to the nearest place an aircraft of `power` may land, or to one of `spots`
    (places that may become landing places later this turn); FAR if none. `at_sea`: it may land on carriers.
    `bonus`: the movement a flight ending at a place gets back (MapFacts.route_bonus)."""
    bonus = bonus or {}
    most = max(bonus.values(), default=0)
    best = FAR
    for place, steps in sorted(air_distances(rules, state, power, start, 64).items(), key=lambda x: x[1]):
        if steps - most >= best:
            break
        if rules.is_water(place) and not at_sea:
            continue
        if can_land(rules, state, power, place, extra=1 if rules.is_water(place) else 0) or (spots and place in spots):
            best = min(best, max(steps - bonus.get(place, 0), 0))
    return best


def future_carrier_spots(rules: MapFacts, state: State, power: str) -> set[str]:
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


def new_carrier_spot(rules: MapFacts, state: State, power: str, place: str) -> bool:
    """A sea zone where a carrier the power has bought may still be placed this turn."""
    return rules.is_water(place) and place in future_carrier_spots(rules, state, power) and any(
        rules.ut(n).carrier_capacity and k for n, k in state.purchases.get(power, {}).items())


def settle(rules: MapFacts, state: State, power: str, unit: Unit, reach: int, why: str,
           prefer: str | None = None, bonus: dict[str, int] | None = None) -> dict:
    """Land `unit` within `reach`: at `prefer` (where the player's order sent it) if that is a legal landing in
    reach, else at the safest legal place (RULINGS.md "default-landing"), or lose it. `bonus`: the further reach
    to a place a flight ending there gets (MapFacts.route_bonus). Returns the report event."""
    start = unit.place
    options: dict[str, int] = {}
    deck = rules.ut(unit).carrier_cost
    bonus = bonus or {}
    for place, steps in air_distances(rules, state, unit.owner, start, reach + max(bonus.values(), default=0),
                                      quiet=True).items():
        if (rules.is_water(place) and not deck) or steps > reach + bonus.get(place, 0):
            continue
        if place != start and can_land(rules, state, unit.owner, place, extra=deck or 1):
            options[place] = steps
    if not options:
        state.remove_units([unit.id])
        return {"type": "crash", "power": unit.owner, "place": start, "unit": unit.type,
                "reason": f"{why}, and no friendly territory held since the start of the turn or carrier with room "
                          f"is within {reach} space{'s' if reach != 1 else ''}"}
    event = {"type": "landing", "power": unit.owner, "unit": unit.type, "from": start, "reason": why}
    if prefer in options:
        place = prefer
        event["as_ordered"] = True
    else:
        listed = {t.name: i for i, t in enumerate(rules.scenario.territories)}
        place = min(options, key=lambda p: (threat(rules, state, unit.owner, p), options[p], rules.is_water(p),
                                            -defenders(rules, state, unit.owner, p), listed.get(p, len(listed))))
    unit.place = place
    unit.moved += options[place]
    event["to"] = place
    return event


def threat(rules: MapFacts, state: State, power: str, place: str) -> int:
    """How exposed a landing place is: the enemy units in it and next to it that could attack it there, those of
    powers that take turns (a neutral's army never attacks), aircraft and units of the place's own kind (land
    units on land, ships at sea; not ships beside land)."""
    kind = "sea" if rules.is_water(place) else "land"
    movers = set(rules.scenario.turn_players())
    return sum(1 for p in {place} | rules.scenario.neighbours(place) for u in rules.hostile_units(state, power, p)
               if u.owner in movers and rules.ut(u).domain in (kind, "air"))


def defenders(rules: MapFacts, state: State, power: str, place: str) -> int:
    """The friendly combat units already in a place, that would defend an aircraft landed there."""
    return sum(1 for u in state.units_at(place) if rules.friendly(state, power, u.owner) and rules.is_combatant(u))


def why_unlanded(rules: MapFacts, state: State, power: str, unit: Unit) -> str:
    """Why an aircraft of `power` cannot stay where it is at the end of the non-combat move (BG-06), in the true
    words for its place: captured this turn, enemy units there, hostile or neutral land, or sea without room."""
    place = unit.place
    if rules.is_water(place):
        if not rules.ut(unit).carrier_cost:
            return f"it is over {place}, and a {unit.type} does not land on carriers"
        return f"no carrier has room for it in {place}"
    if rules.is_hostile_land(state, power, place):
        return "it is over hostile land"
    if rules.hostile_units(state, power, place):
        return f"enemy units hold {place}"
    if place in state.conquered and rules.is_friendly_land(state, power, place):
        return (f"{place} was captured this turn, and aircraft land only in territory held since the start "
                "of the turn")
    return f"{place} is not friendly land: aircraft may not land there"


def land_the_rest(rules: MapFacts, state: State, power: str, wishes: list[dict] = ()) -> list[dict]:
    """End of non-combat (RULINGS.md "default-landing"): the mover's aircraft with no landing place land where
    their order sent them if they can, else at the safest place their movement reaches; aircraft waiting in a
    sea zone for a new carrier stay. `wishes`: the non-combat moves not (wholly) carried out, each with its start,
    destination and the units of each type it did not move (turn.py)."""
    wishes = [dict(w, units=dict(w["units"])) for w in wishes]      # counted down below: the caller's stay whole
    events = []
    for unit in sorted((u for u in state.units if u.owner == power and rules.is_air(u)), key=lambda u: (u.place, -u.id)):
        if landed(rules, state, power, unit):
            continue
        if new_carrier_spot(rules, state, power, unit.place):
            continue
        wish = next((w for w in wishes if w["from"] == unit.place and w["units"].get(unit.type, 0) > 0), None)
        if wish:
            wish["units"][unit.type] -= 1
        events.append(settle(rules, state, power, unit, max(rules.movement(unit) - unit.moved, 0),
                             why_unlanded(rules, state, power, unit), wish["to"] if wish else None,
                             rules.route_bonus(state, unit, unit.place, "noncombat_move")))
    return events


def lose_unlanded(rules: MapFacts, state: State, power: str) -> list[dict]:
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


def grounded(rules: MapFacts, state: State, power: str, place: str) -> list[Unit]:
    """`power`'s own aircraft held aboard damaged carriers in a sea zone (`decks`): cargo that neither takes off nor
    fights, and goes down with its carrier (BG-14)."""
    if not rules.is_water(place):
        return []
    seats = decks(rules, state, power, place)[0]
    return [u for u in aircraft_at(rules, state, power, place) if u.owner == power and seats.get(u.id) == "held"]


def landed(rules: MapFacts, state: State, power: str, unit: Unit) -> bool:
    """The aircraft is on held friendly land, or has a place aboard a carrier in its zone (`decks`), or the game
    lets it stay aloft (MapFacts.stays_aloft)."""
    if rules.stays_aloft(state, unit):
        return True
    if not rules.is_water(unit.place):
        return held_land(rules, state, power, unit.place)
    return unit.id in decks(rules, state, power, unit.place)[0]
