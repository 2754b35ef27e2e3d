"""Combat and non-combat movement (BG-03 … BG-08): which units an order moves, and whether the path is legal."""

from __future__ import annotations

from collections import deque

from ..notation.orders import Move
from ..state import State, Unit, count_types
from . import transport
from .base import G40Rules, RuleViolation


def pick_units(rules: G40Rules, state: State, power: str, order: Move, cost, phase: str) -> list[Unit]:
    """The units an order means: of the named types at the path's start, those with the most movement left.
    `cost(unit_type)` is the movement the order takes from a unit of that type."""
    start = order.path[0]
    chosen: list[Unit] = []
    for uc in order.units:
        steps = cost(rules.ut(uc.unit))
        pool = sorted((u for u in state.units_at(start, power) if u.type == uc.unit and u not in chosen),
                      key=lambda u: (u.moved, u.id))
        if len(pool) < uc.count:
            have = len(pool)
            raise RuleViolation(f"{power} has {have} {uc.unit} in {start}, not {uc.count}")
        usable = [u for u in pool if rules.movement(u) - u.moved >= steps and _may_move_now(rules, u, phase)]
        if len(usable) < uc.count:
            reason = _why_not(rules, pool, steps, phase)
            raise RuleViolation(f"only {len(usable)} of the {uc.count} {uc.unit} in {start} can move {steps} "
                                f"{'space' if steps == 1 else 'spaces'} now: {reason}", _rule_for(reason))
        chosen.extend(usable[:uc.count])
    return chosen


def _may_move_now(rules: G40Rules, unit: Unit, phase: str) -> bool:
    t = rules.ut(unit)
    if t.movement == 0 or t.has("marker"):
        return False
    if unit.flags.get("unloaded"):
        return False                    # BG-10: unloaded units, and transports that unloaded, are done
    if phase == "combat_move":
        return not t.has("no_combat_move")
    # BG-08: after combat, only aircraft (to land) and units that did not move in combat may move.
    return t.domain == "air" or not unit.flags.get("combat_moved")


def _why_not(rules: G40Rules, pool: list[Unit], steps: int, phase: str) -> str:
    for u in pool:
        t = rules.ut(u)
        if t.movement == 0 or t.has("marker"):
            return f"{t.name} cannot move"
        if phase == "combat_move" and t.has("no_combat_move"):
            return f"{t.name} cannot move in the combat move phase"
        if u.flags.get("unloaded"):
            return "units that unloaded from a transport, and the transport, move no further this turn"
        if phase == "noncombat_move" and u.flags.get("combat_moved") and t.domain != "air":
            return "units that moved in combat cannot move again in non-combat"
    return "not enough movement left"


def _rule_for(reason: str) -> str:
    if "unloaded" in reason:
        return "BG-10"
    if "non-combat" in reason:
        return "BG-08"
    if "combat move phase" in reason:
        return "BG-25"
    return "BG-03"


def move(rules: G40Rules, state: State, power: str, order: Move) -> dict:
    """Check `order` against `state` and carry it out; returns the report event. Raises RuleViolation.

    One path serves every unit of the order: ships follow its sea zones, land units walk its land part, board
    a transport where it enters the sea and unload where it comes ashore (NOTATION.md "Transports")."""
    phase = order.phase
    path = list(order.path)
    if len(path) < 2:
        raise RuleViolation("a move needs at least two places: where the units are and where they go")
    for a, b in zip(path, path[1:]):
        if b not in rules.scenario.neighbours(a):
            raise RuleViolation(f"{b} is not next to {a}", "BG-03")
    legs = transport.Legs(rules, path)
    units = pick_units(rules, state, power, order, legs.cost, phase)
    land = [u for u in units if rules.ut(u).domain == "land"]
    air = [u for u in units if rules.ut(u).domain == "air"]
    ships = [u for u in units if rules.ut(u).domain == "sea"]
    captured: list[str] = []
    if land and not legs.sea:
        captured = _check_land(rules, state, power, land, path, phase)
    elif land:
        legs.check_land(state, power, land, ships, phase)
    if air:
        _check_air(rules, state, power, air, path, phase)
    if ships:
        legs.check_ships(state, power, ships, land, phase)
        _check_sea(rules, state, power, legs.sea_path, phase, carrying=legs.carrying(state, ships, land))
    for u in air + (land if not legs.sea else []):
        _arrive(u, path[-1], len(path) - 1, phase)
    for u in ships:
        _arrive(u, legs.sea_path[-1], len(legs.sea_path) - 1, phase)
        for cargo in state.cargo_of(u):
            cargo.place = u.place
    if land and legs.sea:
        legs.carry_out(state, power, land, phase)
    dest = path[-1]
    blitzes = [capture(rules, state, power, place) for place in captured]
    event = {"type": "move", "phase": phase, "power": power, "path": path, "order": order.canonical(),
             "units": count_types(units), "captures": blitzes}
    if phase == "combat_move" and not rules.is_water(dest) and rules.is_attack(state, power, dest):
        if dest not in [b["place"] for b in state.battles]:
            state.battles.append({"place": dest, "attacker": power})
        event["attack"] = dest
    return event


def _arrive(unit: Unit, place: str, steps: int, phase: str) -> None:
    unit.place = place
    unit.moved += steps
    if phase == "combat_move":
        unit.flags["combat_moved"] = True




def _check_land(rules: G40Rules, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> list[str]:
    """Land paths; returns the territories blitzed on the way (BG-03, BG-04, BG-08)."""
    blitzed = []
    for place in path[1:-1]:
        if rules.is_neutral_land(state, power, place):
            raise RuleViolation(f"{place} belongs to {rules.owner(state, place)}, with whom {power} is not at war", "BG-02")
        if rules.is_friendly_land(state, power, place) and not rules.hostile_units(state, power, place):
            continue
        if phase != "combat_move":
            raise RuleViolation(f"land units may not pass through hostile {place} in non-combat", "BG-08")
        if rules.hostile_units(state, power, place):
            raise RuleViolation(f"land units must stop in {place}: it holds enemy units", "BG-03")
        slow = [u.type for u in units if not rules.ut(u).has("can_blitz")]
        if slow:
            raise RuleViolation(f"{slow[0]} cannot blitz through {place}: only units that can blitz move on "
                                "through an empty enemy territory", "BG-04")
        blitzed.append(place)
    rules.check_land_destination(state, power, path[-1], phase)
    return blitzed


def _check_air(rules: G40Rules, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> None:
    """Air paths (BG-05, BG-06): no neutral fly-over, and a landing place in reach."""
    for place in path[1:]:
        if not rules.is_water(place) and rules.is_neutral_land(state, power, place):
            raise RuleViolation(f"aircraft may not fly over neutral {place}", "BG-41")
    dest = path[-1]
    if phase == "combat_move":
        if not rules.is_attack(state, power, dest):
            raise RuleViolation(f"{dest} is not hostile: a combat move must end in an attack", "BG-02")
        if rules.is_water(dest):
            raise RuleViolation(f"{dest} holds enemy ships: sea battles are not supported yet", "BG-07")
        for u in units:
            left = rules.movement(u) - u.moved - (len(path) - 1)
            if landing_distance(rules, state, power, dest) > left:
                raise RuleViolation(f"{u.type} would have no place to land after attacking {dest}: "
                                    f"{left} movement left", "BG-06")
    elif not can_land(rules, state, power, dest, extra=sum(rules.ut(u).carrier_cost for u in units)):
        raise RuleViolation(f"aircraft must land in a friendly territory held since the start of the turn, or on a "
                            f"friendly carrier with room; {dest} is neither", "BG-06")


def can_land(rules: G40Rules, state: State, power: str, place: str, extra: int = 0) -> bool:
    """BG-06: friendly land held since the start of the turn, or a sea zone whose friendly carriers have
    room for the aircraft already there plus `extra` more carrier places (BG-14)."""
    if rules.is_water(place):
        return carrier_room(rules, state, power, place) >= extra
    return (rules.is_friendly_land(state, power, place) and place not in state.conquered
            and not rules.hostile_units(state, power, place))


def carrier_room(rules: G40Rules, state: State, power: str, place: str) -> int:
    """Free carrier places in a sea zone: friendly carriers' capacity less the friendly aircraft there."""
    friendly = [u for u in state.units_at(place) if rules.friendly(state, power, u.owner)]
    return (sum(rules.ut(u).carrier_capacity for u in friendly)
            - sum(rules.ut(u).carrier_cost for u in friendly if rules.ut(u).domain == "air"))


def landing_distance(rules: G40Rules, state: State, power: str, start: str) -> int:
    """Steps from `start` to the nearest place an aircraft of `power` may land (a large number if none)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if can_land(rules, state, power, here, extra=1 if rules.is_water(here) else 0):
            return seen[here]
        for nxt in rules.scenario.neighbours(here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return 1 << 20


def _check_sea(rules: G40Rules, state: State, power: str, path: list[str], phase: str, carrying: bool) -> None:
    """Sea paths (BG-07) and canals: ships stay at sea, stop at enemy warships, pass canals only when friendly.
    In combat move, ships go only where they fight, or carry troops towards an amphibious assault."""
    for place in path[1:]:
        if not rules.is_water(place):
            raise RuleViolation(f"ships cannot enter the land territory {place}", "BG-07")
    for a, b in zip(path, path[1:]):
        _check_canal(rules, state, power, a, b)
    for place in path[1:-1]:
        if rules.blocks_ships(state, power, place):
            raise RuleViolation(f"ships must stop in {place}: enemy warships are there", "BG-07")
    if rules.hostile_units(state, power, path[-1]):
        raise RuleViolation(f"{path[-1]} holds enemy units: sea battles are not supported yet", "BG-07")
    if phase == "combat_move" and not carrying:
        raise RuleViolation(f"{path[-1]} holds no enemy: ships move there with ncm in the non-combat phase", "BG-02")



def _check_canal(rules: G40Rules, state: State, power: str, a: str, b: str) -> None:
    for canal in rules.scenario.canals:
        if a in canal.sea_zones and b in canal.sea_zones:
            for land in canal.land_territories:
                if not rules.is_friendly_land(state, power, land) or land in state.conquered:
                    raise RuleViolation(f"the {canal.name} between {a} and {b} needs {land} held by "
                                        f"{power} or an ally since the start of the turn")


def capture(rules: G40Rules, state: State, power: str, place: str) -> dict:
    """Change a territory's owner (BG-39, BG-40); facilities there change hands with it."""
    previous = state.owners.get(place)
    new_owner = rules.capture_goes_to(state, power, place)
    state.owners[place] = new_owner
    if place not in state.conquered:
        state.conquered.append(place)
    for u in state.units_at(place):
        if not rules.is_combatant(u) and previous is not None and u.owner == previous:
            u.owner = new_owner
    event = {"type": "capture", "place": place, "by": power, "from": previous, "owner": new_owner}
    if previous and rules.takes_treasury_on_capture(place, previous):
        taken = state.treasury.get(previous, 0)
        state.treasury[previous] = 0
        state.treasury[power] = state.treasury.get(power, 0) + taken
        event["treasury_taken"] = taken
    return event
