"""A power's turn, phase by phase: checking a submission against the position, and playing it out.

The same code does both. `check` plays the orders on a trial of the state (State.trial) with no dice, presuming
every attack wins, so that non-combat moves into a territory attacked this turn can be accepted; `play` plays them
for real, and an order that the battles made impossible (its units all died, the territory held) is reported void,
not applied; a move that some of its units survived to make is carried out for them (RULINGS.md "partial-orders").

This is the turn driver of the map families (DESIGN.md "Rules core"): it walks a power's phases in the order of
its map's sequence and plays each phase's orders through the mechanisms; what happens as a turn starts and ends
is the family's own (`rules.turn_start`, `rules.turn_end`: g40_family.py, classic_family.py), built from the
steps here. Only the families import it. The rules it is handed are a family's, named here by their facts class
(MapFacts), since importing a family back would close an import circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import ILLEGAL, OrderError
from ..notation.orders import (
    Bomb, Bombard, Buy, End, GameVerb, Intercept, Kamikaze, Move, Order, OrderOfLoss, Place, Repair, Retreat, Scramble,
    Submerge, War,
)
from ..state import State, count_types
from . import air, bombing, movement, politics, scramble, transport
from .combat import (
    Battle, BattleOrders, bombarding, check_kamikaze, kamikaze_strikes, order_bombardment, retreat_open,
)
from .economy import buy, place, place_bid
from .facts import MapFacts, RuleViolation

BID_PHASES = ("purchase", "place", "end_turn")     # a bid turn (round 0): its buys, its placements, its end


@dataclass
class StepResult:
    phase: str
    events: list[dict]
    groups: list = field(default_factory=list)    # dice groups rolled in this step
    state_hash: str = ""


def covered_phases(rules: MapFacts, state: State, orders: list[Order], ended: bool) -> list[str]:
    """Phases of the mover's turn that a submission covers, from the cursor (NOTATION.md)."""
    if state.bidding:           # a bid is submitted whole: its buys and placements, ended or not
        return list(BID_PHASES[BID_PHASES.index(state.phase):]) if state.phase in BID_PHASES else []
    phases = rules.scenario.phases_of(state.power)
    todo = phases[phases.index(state.phase):] if state.phase in phases else []
    if ended:
        return todo
    last = max((phases.index(o.phase) for o in orders if o.phase in phases), default=None)
    if last is None:
        return []
    covered = [p for p in todo if phases.index(p) <= last]
    if "combat_move" in covered and "battle" in todo and "battle" not in covered:
        covered.append("battle")      # battles take no orders: they follow their combat moves
    return [p for p in todo if p in covered]


def check(rules: MapFacts, state: State, orders: list[Order], ended: bool) -> list[OrderError]:
    """Every rules error of a turn submission, played on a trial of `state` without dice. The end of the turn takes
    no orders and so finds no error: the trial stops before it."""
    errors: list[OrderError] = []
    if state.bidding:
        errors += _not_in_bid(orders)
        orders = [o for o in orders if isinstance(o, (Buy, Place, End))]
    with state.trial() as trial:
        for phase in covered_phases(rules, trial, orders, ended):
            if phase != "end_turn":
                _play_phase(rules, trial, phase, orders, roller=None, errors=errors)
        left = trial.purchases.get(trial.power) if trial.bidding and not errors else None
        if left:
            errors.append(OrderError(ILLEGAL, f"every unit bought with the bid is placed in the bid; not placed: "
                                     f"{', '.join(f'{n} {u}' for u, n in sorted(left.items()))} (RULINGS.md \"bid\")"))
    return errors


def _not_in_bid(orders: list[Order]) -> list[OrderError]:
    """The bid turn takes `buy` and `place` orders (and `end`): anything else waits for round 1."""
    return [_illegal(o, f"the bid takes only `buy` and `place` orders (and `end`); `{o.verb}` orders come from "
                     "round 1 on (RULINGS.md \"bid\")")
            for o in orders if not isinstance(o, (Buy, Place, End))]


def play(rules: MapFacts, state: State, orders: list[Order], ended: bool, roller,
         hashed: bool = True) -> list[StepResult]:
    """Play the covered phases on `state` for real; returns one StepResult per phase played (RulesCore.play)."""
    steps = []
    for phase in covered_phases(rules, state, orders, ended):
        before = len(roller.groups)
        events = _play_phase(rules, state, phase, orders, roller=roller, errors=None)
        steps.append(StepResult(phase, events, list(roller.groups[before:]), state.hash() if hashed else ""))
    return steps


def _play_phase(rules: MapFacts, state: State, phase: str, orders: list[Order], roller, errors) -> list[dict]:
    power = state.power
    mine = [o for o in orders if o.phase == phase]
    # bombard orders name assaults and the ships that support them: read once every move is made
    mine = [o for o in mine if not isinstance(o, Bombard)] + [o for o in mine if isinstance(o, Bombard)]
    events: list[dict] = []
    if state.bidding:
        return _bid_phase(rules, state, phase, mine, errors)
    if phase == rules.scenario.phases_of(power)[0]:
        events += rules.turn_start(state, power)
    events += rules.phase_start(state, power, phase)
    events += triggers(rules, state, power, phase, "before")
    if phase == "battle":
        events += _battles(rules, state, orders, roller)
    elif phase == "end_turn":
        events += rules.turn_end(state, roller)
    else:
        placed: dict[str, int] = {}
        moved_ships: dict[int, Order] = {}
        # the check's idle-ship test (BG-02) asks which order moved each of the mover's ships
        ships = ([u for u in state.units if u.owner == power and rules.ut(u).domain == "sea"
                  and not u.flags.get("combat_moved")] if phase == "combat_move" and errors is not None else [])
        # and its landing test (BG-06) which order last flew each of the mover's aircraft in the non-combat move
        planes = ({u.id: u for u in state.units if u.owner == power and rules.is_air(u)}
                  if phase == "noncombat_move" and errors is not None else {})
        flown: dict[int, Order] = {}
        wishes: list[dict] = []         # where the player sent units an order did not move (default landing)
        for order in mine:
            where = {uid: u.place for uid, u in planes.items()}
            try:
                event = _carry_out(rules, state, power, order, placed, partly=errors is None)
                events += [event] + event.pop("follows", [])
            except RuleViolation as exc:
                _refused(order, exc, events, errors)
                if errors is None:
                    wishes += _wish(order, _named(order))
                continue
            if event.get("short"):
                wishes += _wish(order, event["short"])
            moved_ships.update((u.id, order) for u in ships if u.flags.get("combat_moved") and u.id not in moved_ships)
            flown.update((uid, order) for uid, u in planes.items() if u.place != where[uid])
        if phase == "combat_move" and errors is not None:
            _check_unarmed_attacks(rules, state, mine, errors)
            _check_boarded_troops(rules, state, mine, errors)
            _check_battle_orders(rules, state, mine, errors)
            _check_idle_ships(rules, state, moved_ships, errors)
        if flown:
            _check_carrier_landings(rules, state, flown, errors)
        if phase == "noncombat_move":
            events += air.land_the_rest(rules, state, power, wishes)
        events += rules.phase_end(state, power, phase, roller)
    if phase != "end_turn":
        events += triggers(rules, state, power, phase, "after")
        _advance_phase(rules, state, phase)
    return events


def _illegal(order: Order, message: str, rule: str = "") -> OrderError:
    """An error of the check, pointing at the order's line."""
    return OrderError(ILLEGAL, message, order.line, order.column, order.source, rule=rule)


def _refused(order: Order, exc: RuleViolation, events: list[dict], errors: list[OrderError] | None) -> None:
    """An order the rules refuse: an error of the check, or void in the report when played."""
    if errors is None:
        events.append({"type": "void", "order": order.canonical(), "reason": exc.message, "rule": exc.rule})
    else:
        errors.append(_illegal(order, exc.message, exc.rule))


def _bid_phase(rules: MapFacts, state: State, phase: str, mine: list[Order], errors) -> list[dict]:
    """A phase of a bid turn (RULINGS.md "bid"): buys paid from the bid, placements by the bid's limits, or its end.
    No triggers, repairs or objectives: the game starts with round 1."""
    if phase == "end_turn":
        return _end_bid(rules, state)
    events: list[dict] = []
    placed: dict[str, int] = {}
    for order in mine:
        try:
            if isinstance(order, Buy):
                events.append(buy(rules, state, state.power, order, bid=True))
            elif isinstance(order, Place):
                events.append(place_bid(rules, state, state.power, order, placed))
            else:
                raise RuleViolation(f"the bid takes only `buy` and `place` orders, not `{order.verb}`")
        except RuleViolation as exc:
            _refused(order, exc, events, errors)
    state.phase = BID_PHASES[BID_PHASES.index(phase) + 1]
    return events


def _end_bid(rules: MapFacts, state: State) -> list[dict]:
    """The end of a power's bid: what is left of the bid goes to its treasury; the cursor passes to the next power
    with a bid, in turn order, or to round 1."""
    power = state.power
    events = []
    unplaced = state.purchases.pop(power, None)       # the check refuses a bid that leaves any
    if unplaced:
        events.append({"type": "void", "order": "bid units not placed", "reason": "units bought with a bid are placed "
                       f"in the bid; lost: {', '.join(f'{n} {u}' for u, n in sorted(unplaced.items()))}", "rule": ""})
    kept = state.bids.pop(power, 0)
    state.treasury[power] = state.treasury.get(power, 0) + kept
    events.append({"type": "bid_end", "power": power, "kept": kept, "treasury": state.treasury[power]})
    for u in state.units:
        if u.flags:
            u.flags = {}
    players = rules.scenario.turn_players()
    bidders = [p for p in players if p in state.bids]
    if bidders:
        state.power, state.phase = bidders[0], BID_PHASES[0]
    else:
        state.round, state.power = 1, players[0]
        state.phase = rules.scenario.phases_of(state.power)[0]
    state.turn_index += 1
    events.append({"type": "next", "round": state.round, "power": state.power, "phase": state.phase})
    return events


def triggers(rules: MapFacts, state: State, power: str, phase: str, moment: str) -> list[dict]:
    """The map's triggers fired before or after the steps of this phase (where its "Use Triggers" is on)."""
    if not rules.prop("Use Triggers"):
        return []
    events = []
    if phase == "purchase" and moment == "before":
        events += politics.run_frontier_triggers(rules, state, power)
    for step in rules.scenario.steps_of(power, phase):
        events += politics.run_triggers(rules, state, step.name, moment)
    return events


def repair_ships(rules: MapFacts, state: State, power: str) -> list[dict]:
    """BG-21: the power's damaged battleships and carriers are repaired, where an operative naval base serves
    their sea zone if the map requires one. The family decides when: G40 at the start of the owner's turn ("Units
    Repair Hits Start Turn"), the classic rules at the end of it ("Units Repair Hits End Turn")."""
    events = []
    for u in sorted((u for u in state.units if u.owner == power and u.damage), key=lambda u: u.id):
        if rules.ut(u).hit_points < 2:
            continue
        base = _repairing_base(rules, state, u)
        if base is None and rules.prop("Two HitPoint Units Require Repair Facilities"):
            continue
        u.damage = 0
        events.append({"type": "ship_repaired", "power": power, "place": u.place, "unit": u.type,
                       "base": base or ""})
    return events


def _repairing_base(rules: MapFacts, state: State, unit) -> str | None:
    """The territory of an operative friendly naval base that repairs this unit type next to its sea zone."""
    for land in sorted(rules.scenario.neighbours(unit.place)):
        for b in state.units_at(land):
            if (unit.type in rules.names(b, "repairsUnits") and rules.operative(b)
                    and rules.friendly(state, unit.owner, b.owner)):
                return land
    return None


def _carry_out(rules: MapFacts, state: State, power: str, order: Order, placed: dict[str, int], partly: bool) -> dict:
    """Apply one order. At adjudicate (`partly`), a move that names more units than can go (some died in a battle
    since submit, or cannot make the move now) is carried out with those that can, and its event says what could
    not go and why (RULINGS.md "partial-orders"). A path or destination the battles made illegal still voids the
    whole order, and so does a move none of whose units can go."""
    try:
        return _apply(rules, state, power, order, placed)
    except movement.Shortfall as exc:
        if not (partly and isinstance(order, Move)):
            raise
        short = exc
    shortfalls, current = [], order
    while True:                 # each round lowers one unit count, so this ends
        shortfalls.append(short)
        units = list(current.units)
        units[short.item] = replace(units[short.item], count=short.can)
        units = [uc for uc in units if uc.count]
        if not units:
            raise RuleViolation("; ".join(s.message for s in shortfalls), short.rule)
        current = replace(current, units=tuple(units))
        try:
            event = _apply(rules, state, power, current, placed)
            break
        except movement.Shortfall as again:
            short = again
    moved = event["units"]
    event["ordered"] = order.canonical()
    event["short"] = {t: n - moved.get(t, 0) for t, n in sorted(_named(order).items()) if n > moved.get(t, 0)}
    event["short_reason"] = "; ".join(s.message + (f" [{s.rule}]" if s.rule else "") for s in shortfalls)
    return event


def _named(order: Order) -> dict[str, int]:
    """Unit type -> how many a move order names (`1 ftr, 1 ftr` is 2 fighters)."""
    named: dict[str, int] = {}
    for uc in getattr(order, "units", ()):
        named[uc.unit] = named.get(uc.unit, 0) + uc.count
    return named


def _wish(order: Order, left: dict[str, int]) -> list[dict]:
    """Where a non-combat move sent the units it did not move (`left`: all of a void one, the rest of one partly
    carried out): an aircraft among them left without a landing tries that place first (RULINGS.md
    "default-landing")."""
    if not isinstance(order, Move) or order.phase != "noncombat_move" or len(order.path) < 2 or not left:
        return []
    return [{"from": order.path[0], "to": order.path[-1], "units": dict(left)}]


def _apply(rules: MapFacts, state: State, power: str, order: Order, placed: dict[str, int]) -> dict:
    if isinstance(order, Buy):
        return buy(rules, state, power, order)
    if isinstance(order, Repair):
        return rules.repair_order(state, power, order)
    if isinstance(order, War):
        return politics.declare_war(rules, state, power, order.power)
    if isinstance(order, Move):
        return movement.move(rules, state, power, order)
    if isinstance(order, Place):
        return place(rules, state, power, order, placed)
    if isinstance(order, Bomb):
        return bombing.declare_raid(rules, state, power, order)
    if isinstance(order, Bombard):
        return order_bombardment(rules, state, power, order)
    if isinstance(order, (Retreat, OrderOfLoss, Submerge)):
        return {"type": "battle_order", "order": order.canonical()}
    if isinstance(order, GameVerb):
        return rules.game_order(state, power, order)
    raise RuleViolation(f"`{order.verb}` orders are not part of this game's {order.phase.replace('_', ' ')} phase")


def repair(rules: MapFacts, state: State, mover: str, order: Repair, cost: int | None = None,
           rule: str = "BG-29") -> dict:
    """BG-29: each PU removes one damage point from a facility of the mover, or of a power that buys inside the
    mover's turn (UK_Pacific's, in the British turn), paid by the facility's owner; `cost`, where a game prices it
    otherwise (the Expanded Global's Increased Factory Production), under its `rule`."""
    cost = order.count if cost is None else cost
    payers = {mover} | {p for p, phase in rules.scenario.guests_of(mover) if phase == "purchase"}
    facilities = [u for u in state.units_at(order.place) if u.owner in payers and rules.ut(u).has("can_be_damaged")
                  and (order.facility in (None, "factory") and rules.ut(u).has("factory") or u.type == order.facility)]
    if not facilities:
        raise RuleViolation(f"{mover} has no {order.facility or 'factory'} in {order.place} to repair", "BG-29")
    unit = max(facilities, key=lambda u: u.damage)
    power = unit.owner
    if unit.damage < order.count:
        raise RuleViolation(f"the {unit.type} in {order.place} has {unit.damage} damage, not {order.count}", "BG-29")
    if state.treasury.get(power, 0) < cost:
        raise RuleViolation(f"repairing {order.count} costs {cost} PUs; {power} has {state.treasury.get(power, 0)}", rule)
    unit.damage -= order.count
    state.treasury[power] -= cost
    return {"type": "repair", "power": power, "place": order.place, "unit": unit.type, "amount": order.count,
            "cost": cost, "treasury": state.treasury[power]}


def _battle_rule(order: Order) -> str:
    """The ledger rule a battle order answers to: submerging BG-17, retreats BG-23, orders of loss BG-22."""
    return "BG-17" if isinstance(order, Submerge) else "BG-23" if isinstance(order, Retreat) else "BG-22"


def _check_battle_orders(rules: MapFacts, state: State, orders: list[Order], errors: list[OrderError]) -> None:
    """Retreats and battle orders of loss must name a battle of this turn; retreats go next door, to friendly
    land (at sea: a zone free of enemies) from which attackers came (BG-23)."""
    battles = {b["place"]: b for b in state.battles if b.get("kind") != "raid"}
    given: set[tuple[str, str]] = set()
    for o in orders:
        if not isinstance(o, (Retreat, OrderOfLoss, Submerge)):
            continue
        place = o.place
        if (o.verb, place) in given:
            errors.append(_illegal(o, f"a second `{o.verb}` order for the battle in {place}: a battle takes one "
                                      "(only the first would be used); keep the one you mean", _battle_rule(o)))
            continue
        given.add((o.verb, place))
        battle = battles.get(place)
        if battle is None:
            errors.append(_illegal(o, f"no battle in {place} this turn: the combat moves attack "
                                      f"{', '.join(sorted(battles)) or 'nothing'}", _battle_rule(o)))
            continue
        if isinstance(o, Submerge):
            problem = _submerge_problem(rules, state, battle, place)
            if problem:
                errors.append(_illegal(o, problem, "BG-17"))
            elif o.after_round == 0 and rules.no_submerging_before_battle:
                errors.append(_illegal(o, "submarines may not submerge before the first round of a battle: they "
                                          "fire in round 1 first; write `after round 1` or later",
                                       rules.no_submerging_before_battle))
            continue
        if not isinstance(o, Retreat):
            continue
        sea = battle.get("kind") == "sea"
        if not sea and battle.get("amphibious") and not rules.prop("Partial Amphibious Retreat") and rules.prop(
                "Attacker Retreat Planes"):
            if o.to not in rules.scenario.neighbours(place):       # CL-30: only the aircraft leave, landing later
                errors.append(_illegal(o, f"{o.to} is not next to {place}", "BG-23"))
            continue
        came = battle.get("from", [])
        where = "sea zone free of enemy units" if sea else "friendly territory"
        if o.to not in rules.scenario.neighbours(place) or not retreat_open(rules, state, state.power, o.to, sea):
            errors.append(_illegal(o, f"attackers retreat to an adjacent {where}; {o.to} is not one", "BG-23"))
        elif came and o.to not in came:
            errors.append(_illegal(o, f"attackers retreat only to where attacking {'ships' if sea else 'land units'} "
                                      f"came from ({', '.join(sorted(came))}); not {o.to}", "BG-23"))


def _submerge_problem(rules: MapFacts, state: State, battle: dict, place: str) -> str | None:
    """Why `submerge PLACE` cannot be carried out: the game's submarines never submerge, PLACE is a land battle,
    or none of the mover's attacking units there can submerge (RULINGS.md "attacking-submarines-submerge")."""
    if not rules.subs_submerge():
        return "submarines of this game cannot submerge (the map's \"Submersible Subs\"): write `retreat PLACE > TO` instead"
    if battle.get("kind") != "sea":
        return f"the battle in {place} is on land: only submarines at sea submerge; write `retreat {place} > TO` instead"
    if not any(rules.can_submerge(u) for u in state.units_at(place, state.power)
               if u.flags.get("combat_moved") or rules.prop("Previous Units Fight")):
        return f"none of {state.power}'s units attacking {place} can submerge: only submarines can"
    return None


def _check_idle_ships(rules: MapFacts, state: State, moved: dict[int, Order], errors: list[OrderError]) -> None:
    """BG-02: in combat move, ships go only where they fight, carry troops, or support an amphibious assault."""
    idle = movement.idle_combat_ships(rules, state, state.power, set(moved))
    reported = set()
    for uid in sorted(idle):
        unit = state.unit(uid)
        order = moved[uid]
        if state.cargo_of(unit) or id(order) in reported:
            continue
        reported.add(id(order))
        if rules.is_enemy_convoy_zone(state, state.power, unit.place):
            errors.append(_illegal(order, f"{unit.place} is held by {state.owners.get(unit.place)} and "
                                   f"{'transports' if rules.is_transport(unit) else 'these ships'} cannot take it: a "
                                   "warship or submarine takes a convoy zone back in the combat move", "CL-15"))
            continue
        errors.append(_illegal(order, f"{unit.place} holds no enemy and no amphibious assault starts there: ships "
                               "move there with ncm in the non-combat phase", "BG-02"))


def _check_unarmed_attacks(rules: MapFacts, state: State, orders: list[Order], errors: list[OrderError]) -> None:
    """BG-13: transports may not attack a sea zone without at least one other unit (one with an attack value)."""
    for battle in state.battles:
        place = battle["place"]
        if battle.get("kind") != "sea" or any(
                u.flags.get("combat_moved") and rules.ut(u).domain != "land" and not rules.is_transport(u)
                for u in state.units_at(place, state.power)):             # troops aboard do not fight at sea
            continue
        order = next((o for o in orders if isinstance(o, Move) and place in o.path[1:]), None)
        if order is not None:
            errors.append(_illegal(order, f"transports may not attack alone: the enemy warships in {place} must be "
                                   "attacked by at least one unit with an attack value (send a warship or aircraft "
                                   "there too), or the transports go round", "BG-13"))


def _check_boarded_troops(rules: MapFacts, state: State, orders: list[Order], errors: list[OrderError]) -> None:
    """BG-10: land units that board a transport in the combat move must land from it in an amphibious assault of
    that move (those aboard from an earlier turn may stay aboard)."""
    reported = set()
    for u in state.units:
        if (u.owner != state.power or u.carried_by is None or not u.flags.get("combat_moved")
                or u.flags.get("landing")):
            continue
        order = next((o for o in orders if isinstance(o, Move) and u.place in o.path
                      and not rules.is_water(o.path[0])), None)
        if order is None or id(order) in reported:
            continue
        reported.add(id(order))
        errors.append(_illegal(order, f"land units that board in the combat move must land in an amphibious "
                               f"assault in the same move: the {u.type} boarding in {u.place} lands nowhere; "
                               "name the territory it attacks at the end of the path, or board in the non-combat "
                               "move", "BG-10"))


def _check_carrier_landings(rules: MapFacts, state: State, flown: dict[int, Order], errors: list[OrderError]) -> None:
    """BG-06: aircraft flown to a sea zone for a carrier that was to come there must find room aboard by the end
    of the non-combat move (or wait where a carrier bought this turn may be placed)."""
    reported = set()
    for uid, order in flown.items():
        unit = state.unit(uid)
        if (unit is None or not rules.is_water(unit.place) or air.landed(rules, state, unit.owner, unit)
                or air.new_carrier_spot(rules, state, unit.owner, unit.place) or id(order) in reported):
            continue
        reported.add(id(order))
        errors.append(_illegal(order, f"aircraft must land on held friendly land or a friendly carrier with room; the "
                               f"{unit.type} ends the non-combat move in {unit.place}, where no carrier has room "
                               "for it: move a carrier there, or land it elsewhere", "BG-06"))


def _battles(rules: MapFacts, state: State, orders: list[Order], roller) -> list[dict]:
    """A game's own fights as Conduct Combat begins (MapFacts.combat_begins); kamikaze strikes, declared before any battle (RULINGS.md "kamikaze"); then BG-42: raids, then the sea
    battles (so that those covering a landing come before it), then the troops land, then the land battles, amphibious assaults first (RULINGS.md "battle-order")."""
    power = state.power
    events: list[dict] = rules.combat_begins(state, power, roller)     # a game's own fights first
    events += kamikaze_strikes(rules, state, power, roller) if roller is not None else []
    for kind in ("raid", "sea"):
        for battle in [b for b in state.battles if b.get("kind") == kind]:
            events += _battle(rules, state, orders, roller, battle)
    events += _scramble_at_landings(rules, state, orders, roller)
    events += transport.land_assault_troops(rules, state, power)
    land = [b for b in state.battles if b.get("kind", "land") == "land"]
    for battle in sorted(land, key=lambda b: not b.get("amphibious")):
        events += _battle(rules, state, orders, roller, battle)
    if roller is not None:
        events += scramble.return_to_base(rules, state)
    return events


def _battle(rules: MapFacts, state: State, orders: list[Order], roller, battle: dict) -> list[dict]:
    power, place, kind = state.power, battle["place"], battle.get("kind", "land")
    if roller is None:
        return _presume_victory(rules, state, place, kind)
    if kind == "raid":
        return [bombing.resolve_raid(rules, state, power, battle, roller)]
    events: list[dict] = []
    if kind == "sea" and not battle.get("scrambled"):
        events += scramble.scramble(rules, state, power, place)
    bo, notes = battle_orders(rules, state, orders, battle)
    held = [state.unit(uid) for uid in sorted(bo.held)]
    b = Battle(rules, state, power, place, roller, bo)
    b.event["notes"] += notes
    if not b.att:
        return events + [{"type": "called_off", "place": place, "attacker": power,
                          "reason": "no attacking unit reached it"}]
    if not b.dfn and kind == "land" and not rules.is_hostile_land(state, power, place):
        return events
    events.append(b.fight())
    events += rules.after_battle(state, power, place, events[-1])
    if kind == "sea":
        events += _air_after_sea_battle(rules, state, power, place, held)
    return events


def battle_orders(rules: MapFacts, state: State, orders: list[Order], battle: dict) -> tuple[BattleOrders, list[str]]:
    """What the mover's orders say for this battle (retreat, order of loss, submerging), the ships that bombard it
    and the aircraft held aboard damaged carriers; with notes on named ships that do not bombard. Battle odds
    (adjudicator.odds) set up the battle from the same."""
    power, place, kind = state.power, battle["place"], battle.get("kind", "land")
    held = air.grounded(rules, state, power, place) if kind == "sea" else []
    ships, notes = bombarding(rules, state, power, battle) if kind == "land" else ([], [])
    return BattleOrders(
        retreat=next((o for o in orders if isinstance(o, Retreat) and o.place == place), None),
        ool=next((o.units for o in orders if isinstance(o, OrderOfLoss) and o.place == place), None),
        submerge=next((o for o in orders if isinstance(o, Submerge) and o.place == place), None),
        bombard=ships,
        held={u.id for u in held}), notes


def play_phase(rules: MapFacts, state: State, phase: str, orders: list[Order]) -> list[OrderError]:
    """Play one phase's orders on `state` without dice, as `check` does on its trial: every error, and `state`
    as the phase leaves it (battle odds read the battles a combat move starts)."""
    errors: list[OrderError] = []
    _play_phase(rules, state, phase, orders, roller=None, errors=errors)
    return errors


def _scramble_at_landings(rules: MapFacts, state: State, orders: list[Order], roller) -> list[dict]:
    """BG-30: troops about to land from a sea zone that saw no sea battle: the defenders' standing scramble
    orders into that zone fire, and the aircraft that rise fight the mover's units there in a sea battle before
    the landing; while any of them is left there, the troops stay aboard (RULINGS.md "scramble")."""
    if roller is None or not rules.prop("Scramble Rules In Effect"):
        return []
    power = state.power
    fought = {b["place"] for b in state.battles if b.get("kind") == "sea"}
    zones: dict[str, list[str]] = {}
    for b in state.battles:
        if b.get("kind", "land") == "land":
            for zone in b.get("amphibious", []):
                if zone not in fought:
                    zones.setdefault(zone, []).append(b["place"])
    events: list[dict] = []
    for zone, assaults in zones.items():
        rose = scramble.scramble(rules, state, power, zone, assaults)
        events += rose
        if not any(e["units"] for e in rose):
            continue
        battle = movement.declare(state, zone, power, "sea", scrambled=True)
        events += _battle(rules, state, orders, roller, battle)
        if not rules.hostile_units(state, power, zone):
            continue
        for target in assaults:
            troops = [u for u in state.units_at(zone, power) if u.flags.get("landing") == target]
            for u in troops:
                u.unmark("landing")
            if troops:
                events.append({"type": "landing_called_off", "power": power, "from": zone, "place": target,
                               "units": count_types(troops), "reason": f"scrambled aircraft still hold {zone}"})
    return events


def _air_after_sea_battle(rules: MapFacts, state: State, power: str, place: str, held: list) -> list[dict]:
    """After a sea battle, aircraft of other powers left with no carrier room: the defenders' fly to a landing
    within 1 space (RULINGS.md "carrier-lost"); an ally's riding on the mover's sunk carrier go down with it, and so
    do the mover's own that were `held` aboard a damaged carrier that sank."""
    events = []
    still = {u.id for u in air.grounded(rules, state, power, place)}
    for u in sorted((u for u in held if state.unit(u.id) is u and u.id not in still), key=lambda u: -u.id):
        state.remove_units([u.id])
        events.append({"type": "crash", "power": power, "place": place, "unit": u.type,
                       "reason": "it was aboard a damaged carrier that was sunk"})
    for u in sorted(state.units_at(place), key=lambda u: -u.id):
        if not rules.is_air(u) or u.owner == power or u.flags.get("scrambled_from") or air.landed(rules, state, u.owner, u):
            continue
        if rules.friendly(state, power, u.owner):
            state.remove_units([u.id])
            events.append({"type": "crash", "power": u.owner, "place": place, "unit": u.type,
                           "reason": "its carrier was sunk under it"})
        else:
            events.append(air.settle(rules, state, u.owner, u, 1, "its carrier was sunk or damaged"))
    return events


def _presume_victory(rules: MapFacts, state: State, place: str, kind: str) -> list[dict]:
    """For checking only: the attack wins, so later orders that rely on it can be accepted."""
    power = state.power
    if kind == "raid":
        return []
    state.remove_units(u.id for u in rules.hostile_units(state, power, place))
    won = any(rules.can_capture(u) and not u.flags.get("raid") for u in state.units_at(place, power))
    outcome = {"result": "captured" if won else "cleared"}
    if (won and rules.is_hostile_land(state, power, place)) or rules.takes_sea_zone(
            state, power, place, state.units_at(place, power)):
        outcome["capture"] = movement.capture(rules, state, power, place)
    rules.after_battle(state, power, place, outcome)
    return []


def _advance_phase(rules: MapFacts, state: State, done: str) -> None:
    phases = rules.scenario.phases_of(state.power)
    later = phases[phases.index(done) + 1:] if done in phases else []
    state.phase = later[0] if later else "end_turn"


def held_over(state: State, power: str) -> list[dict]:
    """Units bought and not placed stay bought for the power's next turn (the report says which)."""
    held = state.purchases.get(power)
    return [{"type": "held_over", "power": power, "units": dict(held)}] if held else []


def pass_turn(rules: MapFacts, state: State) -> list[dict]:
    """The last step of every family's end of turn: the turn's marks are cleared and the cursor passes to the next
    power in the map's turn order (a new round after the last)."""
    power = state.power
    for u in state.units:
        if u.moved:
            u.moved = 0
        if u.flags:
            u.flags = {}
    state.conquered = []
    state.battles = []
    state.relations_at_start = {}
    players = rules.scenario.turn_players()
    i = players.index(power)
    if i + 1 == len(players):
        state.round += 1
    state.power = players[(i + 1) % len(players)]
    state.phase = rules.scenario.phases_of(state.power)[0]
    state.turn_index += 1
    return [{"type": "next", "round": state.round, "power": state.power, "phase": state.phase}]


def check_standing(rules: MapFacts, power: str, orders: list[Order]) -> list[OrderError]:
    """Standing orders the engine could not honour are refused, never filed and ignored."""
    errors = []
    for o in orders:
        try:
            if isinstance(o, Scramble):
                scramble.check_order(rules, o.place, o.sea_zone)
            elif isinstance(o, Submerge) and o.place is None and not rules.subs_submerge(defending=True):
                raise RuleViolation("submarines of this game cannot submerge (the map's \"Submersible Subs\")", "BG-17")
            elif isinstance(o, Kamikaze):
                check_kamikaze(rules, power, o)
            elif isinstance(o, Intercept) and not rules.prop("Raids May Be Preceeded By Air Battles"):
                raise RuleViolation("this game has no air battles before raids, so nothing intercepts "
                                    "(the map's \"Raids May Be Preceeded By Air Battles\")", "BG-27")
        except RuleViolation as exc:
            errors.append(_illegal(o, exc.message, exc.rule))
    return errors


def turn_orders(orders: list[Order]) -> list[Order]:
    """The orders of a submission that belong to the mover's turn (standing orders and salts do not)."""
    return [o for o in orders if o.phase or isinstance(o, End)]
