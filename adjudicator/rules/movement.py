"""Combat and non-combat movement (BG-03 … BG-08, BG-14, BG-19, BG-31, BG-32): which units an order moves,
whether the path is legal, and which battles it starts.

A combat move that ends where there are enemies declares a battle there (`state.battles`): a land battle, a
sea battle, or both when transports land troops from a zone that enemy warships still hold (BG-11).
"""

from __future__ import annotations

from collections import Counter

from ..notation.orders import Move
from ..state import State, Unit, count_types
from . import air, transport
from .facts import MapFacts, RuleViolation


def bonus_movement(rules: MapFacts, state: State, unit: Unit) -> int:
    """BG-31, BG-32: +N for a unit that starts its move in a territory with an operative friendly air base, or in a
    sea zone next to one with an operative friendly naval base, that gives movement to its type (`givesMovement`)."""
    if not rules.prop("Units May Give Bonus Movement"):
        return 0
    here = unit.place
    if rules.is_water(here) and rules.ut(unit).domain != "sea":
        return 0                        # aircraft on a carrier: an air base gives movement only to those on its land
    places = [p for p in rules.scenario.neighbours(here) if not rules.is_water(p)] if rules.is_water(here) else [here]
    givers = {t.name for t in rules.scenario.unit_types if t.options.get("givesMovement")}
    best = 0
    for p in places:
        for base in state.units_at(p):
            if base.type not in givers or not (rules.friendly(state, unit.owner, base.owner) and rules.operative(base)):
                continue
            for spec in rules.ut(base).options.get("givesMovement", []):
                n, _, name = spec.partition(":")
                if name == unit.type and n.lstrip("-").isdigit():
                    best = max(best, int(n))
    return best


def allowances(rules: MapFacts, state: State, units: list[Unit]) -> dict[int, int]:
    """Movement each unit has this turn, by id, counting the bonus of where it starts if it has not moved yet (the
    map's, and the game's `start_bonus`). The bonus is looked up once per owner, type and place: looking it up
    scans the place, so a move of a thousand infantry would otherwise scan it a thousand times."""
    bonus: dict[tuple[str, str, str], int] = {}
    out = {}
    for u in units:
        if u.moved == 0 and "bonus" not in u.flags:
            key = (u.owner, u.type, u.place)
            if key not in bonus:
                bonus[key] = bonus_movement(rules, state, u) + rules.start_bonus(state, u)
            out[u.id] = rules.ut(u).movement + bonus[key]
        else:
            out[u.id] = rules.movement(u)
    return out


class Shortfall(RuleViolation):
    """Fewer of the named units at the path's start can make the move than the order names: `item` is the index
    of the order's first such unit count, `can` how many of it can go. At adjudicate the order is carried out
    with those that can (turn.py; RULINGS.md "partial-orders"); at submit it is refused like any violation."""

    def __init__(self, message: str, rule: str, item: int, can: int):
        super().__init__(message, rule)
        self.item = item
        self.can = can


def pick_units(rules: MapFacts, state: State, power: str, order: Move, cost, phase: str, prefer=None) -> list[Unit]:
    """The units an order means: of the named types at the path's start, those with the most movement left.
    `cost(unit_type)` is the movement the order takes from a unit of that type; `prefer(unit)`, where given, sorts
    before that (which transport's cargo an unloading takes first); a move that ends where the game gives a
    `route_bonus` may spend that much more. Raises Shortfall when fewer can go than it names."""
    start = order.path[0]
    sea_end = next((p for p in reversed(order.path) if rules.is_water(p)), order.path[-1])
    wanted = {uc.unit for uc in order.units}
    here = [u for u in state.units_at(start, power) if u.type in wanted]
    left = allowances(rules, state, here)
    launch = _launch_room(rules, state, power, start)
    # Per type: its units here and those that can make this move, best first, sorted once; an item takes the
    # next ones, so `1 inf, 1 inf, …` costs no more than `300 inf`.
    stacks: dict[str, tuple[int, list[Unit], list[Unit]]] = {}
    taken: dict[str, int] = {}
    chosen: list[Unit] = []
    for i, uc in enumerate(order.units):
        if uc.unit not in stacks:
            steps = cost(rules.ut(uc.unit))
            pool = sorted((u for u in here if u.type == uc.unit),
                          key=lambda u: (prefer(u) if prefer else (), launch is not None and rules.is_air(u)
                                         and not u.moved, u.moved, u.id))   # airborne before grounded on a deck
            end = sea_end if rules.ut(uc.unit).domain == "sea" else order.path[-1]
            extra = rules.route_bonus(state, pool[0], start, phase).get(end, 0) if pool else 0
            usable = [u for u in pool if left[u.id] + extra - u.moved >= steps and _may_move_now(rules, u, phase)]
            stacks[uc.unit] = steps, pool, usable
        steps, pool, usable = stacks[uc.unit]
        done = taken.get(uc.unit, 0)
        can = max(len(usable) - done, 0)
        if len(pool) - done < uc.count:
            raise Shortfall(f"{power} has {len(pool) - done} {uc.unit} in {start}, not {uc.count}", "", i, can)
        if len(usable) - done < uc.count:
            reason = _why_not(rules, pool, steps, phase)
            raise Shortfall(f"only {len(usable) - done} of the {uc.count} {uc.unit} in {start} can move {steps} "
                            f"{'space' if steps == 1 else 'spaces'} now: {reason}", _rule_for(reason), i, can)
        chosen.extend(usable[done:done + uc.count])
        taken[uc.unit] = done + uc.count
    aboard = [u for u in chosen if rules.is_air(u) and not u.moved]     # aircraft that flew this turn are airborne
    sailing = any(rules.ut(u).carrier_capacity for u in chosen)           # a carrier that moves takes its deck along
    if launch is not None and len(aboard) > launch and not sailing:
        raise RuleViolation(f"a damaged carrier launches no aircraft: only {launch} of the aircraft aboard in {start} "
                            "can take off", "BG-14")
    for u in chosen:
        if u.moved == 0 and "bonus" not in u.flags:
            bonus = left[u.id] - rules.ut(u).movement
            if bonus:
                u.mark(bonus=bonus)
    return chosen


def _launch_room(rules: MapFacts, state: State, power: str, place: str) -> int | None:
    """BG-14: how many of the mover's aircraft at sea that have not flown may take off: all but those held aboard a
    damaged carrier (air.decks); None where nothing limits it."""
    if not rules.is_water(place):
        return None
    held = air.grounded(rules, state, power, place)
    if not held:
        return None
    return sum(1 for u in air.aircraft_at(rules, state, power, place) if u.owner == power and not u.moved) - len(held)


def _may_move_now(rules: MapFacts, unit: Unit, phase: str) -> bool:
    t = rules.ut(unit)
    if t.movement == 0 or t.has("marker"):
        return False
    if unit.flags.get("unloaded") or unit.flags.get("landing"):
        return False                    # BG-10: unloaded units, and transports that unloaded, are done
    if phase == "combat_move":
        return not t.has("no_combat_move") and not unit.flags.get("mission")
    # BG-08: after combat, only aircraft (to land) and units that did not move in combat may move; ships named
    # to bombard took part in combat (BG-12)
    return t.domain == "air" or not (unit.flags.get("combat_moved") or unit.flags.get("fought")
                                     or unit.flags.get("bombard"))


def _why_not(rules: MapFacts, pool: list[Unit], steps: int, phase: str) -> str:
    for u in pool:
        t = rules.ut(u)
        if t.movement == 0 or t.has("marker"):
            return f"{t.name} cannot move"
        if phase == "combat_move" and t.has("no_combat_move"):
            return f"{t.name} cannot move in the combat move phase"
        if phase == "combat_move" and u.flags.get("mission"):
            text, rule = u.flags["mission"]                   # a game's own mission: what it is, and its rule
            return f"the {t.name} {text} ({rule}), and makes no combat move"
        if u.flags.get("unloaded") or u.flags.get("landing"):
            return "units that unloaded from a transport, and the transport, move no further this turn"
        if phase == "noncombat_move" and u.flags.get("bombard") and t.domain != "air":
            return f"ships named to bombard {u.flags['bombard']} took part in combat and cannot move in non-combat"
        if phase == "noncombat_move" and (u.flags.get("combat_moved") or u.flags.get("fought")) and t.domain != "air":
            return "units that moved or fought in combat cannot move again in non-combat"
    return "not enough movement left"


def _rule_for(reason: str) -> str:
    if reason.endswith("), and makes no combat move"):        # a game's mission names its rule in brackets
        return reason[reason.rindex("(") + 1:reason.rindex(")")]
    if "unloaded" in reason:
        return "BG-10"
    if "non-combat" in reason:
        return "BG-08"
    if "combat move phase" in reason:
        return "BG-25"
    return "BG-03"


def move(rules: MapFacts, state: State, power: str, order: Move) -> dict:
    """Check `order` against `state` and carry it out; returns the report event. Raises RuleViolation.

    One path serves every unit of the order: ships follow its sea zones, land units walk its land part, board
    a transport where it enters the sea and unload where it comes ashore (NOTATION.md "Transports")."""
    phase = order.phase
    path = check_path(rules, order.path, "a move needs at least two places: where the units are and where they go")
    legs = transport.Legs(rules, path)
    units = pick_units(rules, state, power, order, legs.cost, phase, legs.prefer(state, {uc.unit for uc in order.units}))
    legs.check_crossing(units)
    rules.check_movement_limits(state, power, path)
    rules.check_move(state, power, units, path, phase)
    land = [u for u in units if rules.ut(u).domain == "land"]
    flying = [u for u in units if rules.is_air(u)]
    ships = [u for u in units if rules.ut(u).domain == "sea"]
    captured: list[str] = []
    if land:
        _check_crossings(rules, state, power, path)
        rules.check_takeover_path(state, power, path, phase, land)
    if land and not legs.sea:
        captured = _check_land(rules, state, power, land, path, phase)
    elif land:
        legs.check_land(state, power, land, ships, phase)
    cargo, along = _riders(rules, state, power, ships, flying, len(legs.sea_path) - 1)
    free = [u for u in flying if u not in along and u not in cargo]
    if free:
        check_air(rules, state, power, free, path, phase)
    if ships:
        legs.check_ships(state, power, ships, land, phase)
        _check_sea(rules, state, power, ships, legs.sea_path, phase)
    for u in [u for u in flying if u not in cargo] + (land if not legs.sea else []):
        _arrive(u, path[-1], len(path) - 1, phase)
    for u in ships:
        _arrive(u, legs.sea_path[-1], len(legs.sea_path) - 1, phase)
        for aboard in state.cargo_of(u):
            aboard.place = u.place
    for u in cargo:
        _arrive(u, legs.sea_path[-1], 0, phase)
    airborne = _left_airborne(rules, state, power, path[0]) if cargo or along or any(
        rules.ut(s).carrier_capacity for s in ships) else []
    landing = None
    if land and legs.sea:
        landing = legs.carry_out(state, power, land, phase)
    if ships and phase == "combat_move":      # CL-15: enemy convoy zones passed on the way change hands
        captured += [z for z in legs.sea_path[1:-1] if rules.takes_sea_zone(state, power, z, ships)]
    blitzes = [capture(rules, state, power, place) for place in captured]
    if land and phase == "noncombat_move" and rules.takes_over_on_entering(state, power, path[-1]):
        blitzes.append(take_over(rules, state, power, path[-1]))
    event = {"type": "move", "phase": phase, "power": power, "path": path, "order": order.canonical(),
             "units": count_types(units), "captures": blitzes}
    follows = [rules.after_battle(state, power, place, {"result": "captured", "blitz": True, "capture": taken})
               for place, taken in zip(captured, blitzes)]
    if flying:
        follows.append(rules.flown_over(state, power, path))
    if any(follows):
        event["follows"] = [e for f in follows for e in f]      # the turn's events list them after the move
    if cargo or along:
        event["riders"] = count_types(cargo + along)
    if airborne:
        event["airborne"] = count_types(airborne)
    if phase == "combat_move":
        event.update(_declare_battles(rules, state, power, path, legs, land, flying, ships, landing))
    return event


def check_path(rules: MapFacts, path: tuple[str, ...], too_short: str) -> list[str]:
    """A path of at least two places, each next to the one before (BG-03)."""
    if len(path) < 2:
        raise RuleViolation(too_short)
    for a, b in zip(path, path[1:]):
        if b not in rules.scenario.neighbours(a):
            raise RuleViolation(f"{b} is not next to {a}", "BG-03")
        if rules.impassable(b):
            raise RuleViolation(f"{b} is impassable: no unit enters it", "BG-03")
    return list(path)


def _declare_battles(rules: MapFacts, state: State, power: str, path: list[str], legs, land: list[Unit],
                     flying: list[Unit], ships: list[Unit], landing: str | None) -> dict:
    out: dict = {}
    dest = path[-1]
    if (land or flying) and not rules.is_water(dest) and rules.is_attack(state, power, dest):
        came = legs.sea_path[-1] if landing else path[-2]
        declare(state, dest, power, "land", came if (land or not flying) else None,
                amphibious=legs.sea_path[-1] if landing else None)
        out["attack"] = dest
    zone = legs.sea_path[-1] if ships else (dest if rules.is_water(dest) else None)
    if ships and rules.takes_sea_zone(state, power, zone, ships):
        # CL-15: an enemy's empty convoy zone is taken in the battle phase, as an empty territory is (combat.py)
        declare(state, zone, power, "sea", legs.sea_path[-2] if len(legs.sea_path) > 1 else None)
        out["attack"] = out.get("attack") or zone
    elif zone and rules.hostile_units(state, power, zone):
        # unarmed ships (transports) ending beside enemy submarines or transports alone pass them by: they attack
        # nothing (BG-13); against warships they are in a battle, which the check refuses unless armed units join
        armed = flying or any(not rules.is_transport(s) for s in ships)
        ends_there = (ships and legs.ashore is None and armed) or (flying and dest == zone)
        if ends_there or rules.blocks_ships(state, power, zone):
            declare(state, zone, power, "sea", legs.sea_path[-2] if ships and len(legs.sea_path) > 1 else None)
            out["attack"] = out.get("attack") or zone
            if landing:
                out["sea_battle"] = zone
    return out


def declare(state: State, place: str, power: str, kind: str, came_from: str | None = None,
            amphibious: str | None = None, **extra) -> dict:
    """Register a battle of this turn (one per place and kind), noting where attackers came from (BG-23)."""
    battle = next((b for b in state.battles if b["place"] == place and b.get("kind") == kind), None)
    if battle is None:
        battle = {"place": place, "attacker": power, "kind": kind, "from": [], "amphibious": [], **extra}
        state.battles.append(battle)
    if came_from and came_from not in battle["from"]:
        battle["from"].append(came_from)
    if amphibious and amphibious not in battle["amphibious"]:
        battle["amphibious"].append(amphibious)
    return battle


def _riders(rules: MapFacts, state: State, power: str, ships: list[Unit], flying: list[Unit],
            steps: int) -> tuple[list[Unit], list[Unit]]:
    """BG-14: who sails with moving carriers, as (cargo, along). Cargo: an ally's aircraft aboard (the first aboard,
    by id), and the mover's own that have not flown this turn aboard a damaged carrier, which cannot take off. Along:
    the mover's own aircraft the order names, in the room left; they fly with the carriers, spending the same
    movement. The mover's aircraft aboard that the order does not name stay behind, airborne (RULINGS.md
    "carrier-lost")."""
    room = sum(rules.ut(s).carrier_capacity for s in ships)
    if not room or not steps:
        return [], []
    start = ships[0].place
    shut = sum(rules.ut(s).carrier_capacity for s in ships if air.damaged_carrier(rules, s))
    held = {u.id for u in air.grounded(rules, state, power, start)}
    deck = [u for u in air.aircraft_at(rules, state, power, start) if rules.ut(u).carrier_cost]
    deck.sort(key=lambda u: (u.owner == power, u.id))
    cargo = []
    for u in deck:
        need = rules.ut(u).carrier_cost
        if (u.owner != power and need <= room) or (u.id in held and need <= min(shut, room)):
            room -= need
            shut -= need if u.id in held else 0
            cargo.append(u)
    along = []
    for u in flying:
        need = rules.ut(u).carrier_cost
        if need and u not in cargo and need <= room:
            room -= need
            along.append(u)
    return cargo, along


def _left_airborne(rules: MapFacts, state: State, power: str, place: str) -> list[Unit]:
    """The mover's aircraft that a carrier sailing away left without a deck where it was: they are in the air,
    with the movement they have, and land by a move of their own or the default landing."""
    return [u for u in air.aircraft_at(rules, state, power, place)
            if u.owner == power and not air.landed(rules, state, power, u)]


def _arrive(unit: Unit, place: str, steps: int, phase: str) -> None:
    unit.place = place
    unit.moved += steps
    if phase == "combat_move":
        unit.mark(combat_moved=True)


def _cannot_blitz(rules: MapFacts, state: State, units: list[Unit]) -> list[str]:
    """BG-04: the units of a move that cannot blitz, once each unit that receives the ability from another
    (the map's receivesAbilityWhenWith canBlitz:armour) is paired one-to-one with such a unit moving with it."""
    givers = Counter(u.type for u in units if rules.ut(u).has("can_blitz"))
    slow = []
    for u in units:
        if rules.ut(u).has("can_blitz") or rules.blitzes_alone(state, u):
            continue
        giver = next((f[1] for f in rules.fields(u, "receivesAbilityWhenWith")
                      if len(f) == 2 and f[0] == "canBlitz" and givers[f[1]] > 0), None)
        if giver:
            givers[giver] -= 1
        else:
            slow.append(u.type)
    return slow


def _check_land(rules: MapFacts, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> list[str]:
    """Land paths; returns the territories blitzed on the way (BG-03, BG-04, BG-08)."""
    blitzed = []
    for place in path[1:-1]:
        if rules.neutral_closed(state, place):
            raise rules.neutral_refusal(place, "land units may not enter or pass through it")
        if rules.is_neutral_land(state, power, place) and not rules.neutral_passage(state, power, place, "Land"):
            raise rules.not_at_war(state, power, place)
        if rules.is_passable_land(state, power, place) and not rules.hostile_units(state, power, place):
            continue
        if phase != "combat_move":
            raise RuleViolation(f"land units may not pass through hostile {place} in non-combat", "BG-08")
        if rules.hostile_units(state, power, place):
            raise RuleViolation(f"land units must stop in {place}: it holds enemy units", "BG-03")
        slow = _cannot_blitz(rules, state, units)
        if slow:
            raise RuleViolation(f"{slow[0]} cannot blitz through {place}: only units that can blitz move on "
                                "through an empty enemy territory (mech infantry only paired one-to-one with "
                                "armour moving with it)", "BG-04")
        blitzed.append(place)
    rules.check_land_destination(state, power, path[-1], phase)
    return blitzed


def check_air(rules: MapFacts, state: State, power: str, units: list[Unit], path: list[str], phase: str,
              raid: bool = False) -> None:
    """Air paths (BG-05, BG-06): no neutral fly-over; in combat, a landing place in reach afterwards (no one-way
    flights); in non-combat, a legal landing place at the end."""
    _check_crossings(rules, state, power, path)
    if not raid:
        rules.check_air_destination(state, power, path[-1], phase)
    for place in path[1:]:
        if not rules.air_passable(state, power, place):
            if rules.neutral_closed(state, place):
                raise rules.neutral_refusal(place, "aircraft may not fly over it or into it")
            if rules.owner(state, place) in rules.scenario.turn_players():      # a power, not a neutral country
                verb = "fly into" if place == path[-1] else "fly over"
                raise rules.not_at_war(state, power, place, verb)
            raise RuleViolation(f"aircraft may not fly over neutral {place}", "BG-41")
    dest = path[-1]
    if phase == "combat_move":
        if not raid and not rules.is_attack(state, power, dest):
            raise RuleViolation(f"{dest} is not hostile: a combat move must end in an attack", "BG-02")
        spots = air.future_carrier_spots(rules, state, power)
        moves = allowances(rules, state, units)
        needs: dict[tuple[bool, str], int] = {}     # the search for a landing place, once per kind of aircraft
        for u in units:
            left = moves[u.id] - u.moved - (len(path) - 1)
            deck = bool(rules.ut(u).carrier_cost)
            if (deck, u.type) not in needs:
                needs[deck, u.type] = air.landing_distance(rules, state, power, dest, spots if deck else None,
                                                           at_sea=deck,
                                                           bonus=rules.route_bonus(state, u, dest, "noncombat_move"))
            need = needs[deck, u.type]
            if need > left:
                where = f"{need} space{'s' if need != 1 else ''} away" if need < air.FAR else "out of reach"
                raise RuleViolation(f"the {u.type} would have no place to land after attacking {dest}: it has {left} "
                                    f"movement left and the nearest landing place is {where}", "BG-06")
    elif rules.is_water(dest) and not all(rules.ut(u).carrier_cost for u in units):
        raise RuleViolation(f"only aircraft that land on carriers may end a move at sea; {dest} is a sea zone", "BG-06")
    elif not air.can_land(rules, state, power, dest, extra=sum(rules.ut(u).carrier_cost or 1 for u in units)):
        # a carrier of the mover that can still sail there, or be placed there, may take them later this turn: the
        # check of the whole phase (turn.py) refuses the order if none has by the end of the non-combat move
        if not (rules.is_water(dest) and dest in air.future_carrier_spots(rules, state, power)):
            raise RuleViolation(f"aircraft must land in a friendly territory held since the start of the turn, or on a "
                                f"friendly carrier with room; {dest} is neither", "BG-06")


def _check_sea(rules: MapFacts, state: State, power: str, ships: list[Unit], path: list[str], phase: str) -> None:
    """Sea paths (BG-07, BG-19) and canals: ships stay at sea and pass canals only when friendly; surface
    ships stop at enemy warships, submarines only at enemy destroyers; non-combat ends among no warships."""
    for place in path[1:]:
        if not rules.is_water(place):
            raise RuleViolation(f"ships cannot enter the land territory {place}", "BG-07")
    for a, b in zip(path, path[1:]):
        _check_canal(rules, state, power, ships, a, b)
    rules.check_sea_path(state, power, ships, path)
    subs = all(rules.is_sub(u) for u in ships)
    through = all(rules.moves_through_enemies(u) for u in ships)
    for place in path[1:-1]:
        if rules.blocks_ships(state, power, place, through=through):
            what = "an enemy destroyer is" if through else "enemy warships are"
            raise RuleViolation(f"ships must stop in {place}: {what} there", rules.passage_rules[subs])
    dest = path[-1]
    if phase != "combat_move":
        closed = next((p for p in path[1:] if rules.closed_to_ships(state, power, p)), None)
        if closed:
            raise RuleViolation(f"{closed} is held by {rules.owner(state, closed)}: in the non-combat move ships may "
                                "not enter a sea zone an enemy holds (the map's \"Naval Units May Not NonCombat Move "
                                "Into Controlled Sea Zones\"); take it back with a combat move", "CL-12")
    if phase != "combat_move" and rules.hostile_units(state, power, dest) and len(path) > 1:
        if not (subs and rules.prop("Subs Can End NonCombat Move With Enemies")) and rules.blocks_ships(state, power, dest):
            raise RuleViolation(f"{dest} holds enemy warships: ships end a non-combat move only where there are none",
                                "BG-08")


def _check_canal(rules: MapFacts, state: State, power: str, ships: list[Unit], a: str, b: str) -> None:
    """A canal between `a` and `b` holds back ships, except those whose types the map excludes from it (RULINGS.md
    "submarines-at-gibraltar")."""
    for canal in rules.scenario.canals:
        if a in canal.sea_zones and b in canal.sea_zones and not all(u.type in canal.excluded_units for u in ships):
            rules.check_canal(state, power, canal, a, b)


def _check_crossings(rules: MapFacts, state: State, power: str, path: list[str]) -> None:
    """Borders of the path that the game closes to land and air units now (straits: crossing_closed)."""
    for a, b in zip(path, path[1:]):
        closed = rules.crossing_closed(state, power, a, b)
        if closed:
            raise closed


def idle_combat_ships(rules: MapFacts, state: State, power: str, ship_ids: set[int]) -> set[int]:
    """BG-02: of these ships moved in combat, those that neither fight nor support an amphibious assault
    (escort or bombardment) where they ended."""
    busy = {b["place"] for b in state.battles} | {z for b in state.battles for z in b.get("amphibious", [])}
    return {u.id for u in state.units if u.id in ship_ids and u.place not in busy}


def _changes_when_captured(rules: MapFacts, state: State, unit, previous: str) -> list[dict]:
    """BG-36, from the map's whenCapturedChangesInto (FROM:TO:KEEP_DAMAGE:TYPE:COUNT…): a captured major factory
    becomes a minor one, keeping its damage up to the new type's cap."""
    given = next((f for f in rules.fields(unit, "whenCapturedChangesInto")
                  if len(f) >= 5 and f[0] in ("any", previous) and f[1] in ("any", unit.owner)), None)
    if given is None:
        return []
    state.remove_units([unit.id])
    out = []
    for name, count in zip(given[3::2], given[4::2]):
        for _ in range(int(count)):
            new = state.add_unit(name, unit.owner, unit.place)
            if given[2] == "true":
                new.damage = min(unit.damage, rules.max_damage(new))
        out.append({"from": unit.type, "to": name, "count": int(count)})
    return out


def take_over(rules: MapFacts, state: State, power: str, place: str) -> dict:
    """BG-41: a neutral that sides with `power` becomes its territory, and its army its units. It is taken this
    turn as a conquest is: aircraft land only in land held since the turn began (BG-06), even when a later line of
    the same non-combat move flies them there."""
    previous = state.owners[place]
    state.owners[place] = power
    if place not in state.conquered:
        state.conquered.append(place)
    joined = [u for u in state.units_at(place, previous)] if rules.joins_with_army(state, power, previous) else []
    for u in joined:
        u.owner = power
    return {"type": "capture", "place": place, "by": power, "from": previous, "owner": power, "neutral": True,
            "joined": count_types(joined)}


def capture(rules: MapFacts, state: State, power: str, place: str) -> dict:
    """Change a territory's owner (BG-39, BG-40); facilities there change hands with it."""
    previous = state.owners.get(place)
    bonus = rules.capture_bonus(state, power, place, previous)     # read before the facilities change hands
    new_owner = rules.capture_goes_to(state, power, place)
    state.owners[place] = new_owner
    if place not in state.conquered:
        state.conquered.append(place)
    changed = []
    for u in state.units_at(place):
        if not rules.is_combatant(u) and previous is not None and u.owner == previous:
            u.owner = new_owner
            changed += _changes_when_captured(rules, state, u, previous)
    event = {"type": "capture", "place": place, "by": power, "from": previous, "owner": new_owner, **bonus}
    if changed:
        event["changed"] = changed
    if previous and rules.takes_treasury_on_capture(place, previous):
        taken = state.treasury.get(previous, 0)
        state.treasury[previous] = 0
        state.treasury[power] = state.treasury.get(power, 0) + taken
        event["treasury_taken"] = taken
    return event
