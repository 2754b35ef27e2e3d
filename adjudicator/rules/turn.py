"""A power's turn, phase by phase: checking a submission against the position, and playing it out.

The same code does both. `check` plays the orders on a copy with no dice, presuming every attack wins, so
that non-combat moves into a territory attacked this turn can be accepted; `play` plays them for real, and an
order that the battles made impossible (the units died, the territory held) is reported void, not applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ILLEGAL, OrderError
from ..notation.orders import Bomb, Buy, End, Move, Order, OrderOfLoss, Place, Repair, Retreat, War
from ..scenario import PHASES
from ..state import State, pair_key
from . import movement
from .base import G40Rules, RuleViolation
from .combat import BattleOrders, resolve_battle
from .economy import buy, collect_income, place


@dataclass
class StepResult:
    phase: str
    events: list[dict]
    groups: list = field(default_factory=list)    # dice groups rolled in this step
    state_hash: str = ""


def covered_phases(rules: G40Rules, state: State, orders: list[Order], ended: bool) -> list[str]:
    """Phases of the mover's turn that a submission covers, from the cursor (NOTATION.md)."""
    phases = rules.scenario.phases_of(state.power)
    todo = phases[phases.index(state.phase):] if state.phase in phases else []
    if ended:
        return todo
    last = max((PHASES.index(o.phase) for o in orders if o.phase), default=None)
    if last is None:
        return []
    covered = [p for p in todo if PHASES.index(p) <= last]
    if "combat_move" in covered and "battle" in todo and "battle" not in covered:
        covered.append("battle")      # battles take no orders: they follow their combat moves
    return [p for p in todo if p in covered]


def check(rules: G40Rules, state: State, orders: list[Order], ended: bool) -> list[OrderError]:
    """Every rules error of a turn submission, played on a copy of `state` without dice."""
    trial = state.copy()
    errors: list[OrderError] = []
    for phase in covered_phases(rules, trial, orders, ended):
        _play_phase(rules, trial, phase, orders, roller=None, errors=errors)
    return errors


def play(rules: G40Rules, state: State, orders: list[Order], ended: bool, roller) -> list[StepResult]:
    """Play the covered phases on `state` for real; returns one StepResult per phase played."""
    steps = []
    for phase in covered_phases(rules, state, orders, ended):
        before = len(roller.groups)
        events = _play_phase(rules, state, phase, orders, roller=roller, errors=None)
        steps.append(StepResult(phase, events, list(roller.groups[before:]), state.hash()))
    return steps


def _play_phase(rules: G40Rules, state: State, phase: str, orders: list[Order], roller, errors) -> list[dict]:
    power = state.power
    mine = [o for o in orders if o.phase == phase]
    events: list[dict] = []
    if phase == "battle":
        events += _battles(rules, state, orders, roller)
    elif phase == "end_turn":
        events += _end_turn(rules, state)
    else:
        placed: dict[str, int] = {}
        for order in mine:
            try:
                events.append(_apply(rules, state, power, order, placed))
            except RuleViolation as exc:
                if errors is None:
                    events.append({"type": "void", "order": order.canonical(), "reason": exc.message, "rule": exc.rule})
                else:
                    errors.append(OrderError(ILLEGAL, exc.message, order.line, order.column, order.source, rule=exc.rule))
        if phase == "combat_move" and errors is not None:
            _check_battle_orders(rules, state, mine, errors)
        if phase == "noncombat_move":
            events += _crash_unlanded_air(rules, state, power)
    if phase != "end_turn":
        _advance_phase(rules, state, phase)
    return events


def _apply(rules: G40Rules, state: State, power: str, order: Order, placed: dict[str, int]) -> dict:
    if isinstance(order, Buy):
        return buy(rules, state, power, order)
    if isinstance(order, Repair):
        return repair(rules, state, power, order)
    if isinstance(order, War):
        rules.may_declare_war(state, power, order.power)
        war = rules.war_type()
        state.relationships[pair_key(power, order.power)] = war
        return {"type": "war", "power": power, "target": order.power}
    if isinstance(order, Move):
        return movement.move(rules, state, power, order)
    if isinstance(order, Place):
        return place(rules, state, power, order, placed)
    if isinstance(order, Bomb):
        raise RuleViolation("strategic bombing raids are not supported yet", "BG-27")
    if isinstance(order, (Retreat, OrderOfLoss)):
        return {"type": "battle_order", "order": order.canonical()}
    raise RuleViolation(f"`{order.verb}` orders are not part of this game's {order.phase.replace('_', ' ')} phase")


def repair(rules: G40Rules, state: State, power: str, order: Repair) -> dict:
    """BG-29: each PU removes one damage point from a facility of the mover."""
    facilities = [u for u in state.units_at(order.place, power) if rules.ut(u).has("can_be_damaged")
                  and (order.facility in (None, "factory") and rules.ut(u).has("factory") or u.type == order.facility)]
    if not facilities:
        raise RuleViolation(f"{power} has no {order.facility or 'factory'} in {order.place} to repair", "BG-29")
    unit = max(facilities, key=lambda u: u.damage)
    if unit.damage < order.count:
        raise RuleViolation(f"the {unit.type} in {order.place} has {unit.damage} damage, not {order.count}", "BG-29")
    if state.treasury.get(power, 0) < order.count:
        raise RuleViolation(f"repairing {order.count} costs {order.count} PUs; {power} has {state.treasury.get(power, 0)}", "BG-29")
    unit.damage -= order.count
    state.treasury[power] -= order.count
    return {"type": "repair", "power": power, "place": order.place, "unit": unit.type, "amount": order.count,
            "treasury": state.treasury[power]}


def _check_battle_orders(rules: G40Rules, state: State, orders: list[Order], errors: list[OrderError]) -> None:
    """Retreats and battle orders of loss must name a battle of this turn; retreats go next door to friendly land."""
    battles = {b["place"] for b in state.battles}
    for o in orders:
        if not isinstance(o, (Retreat, OrderOfLoss)):
            continue
        place = o.place
        if place not in battles:
            errors.append(OrderError(ILLEGAL, f"no battle in {place} this turn: the combat moves attack "
                                     f"{', '.join(sorted(battles)) or 'nothing'}", o.line, o.column, o.source, rule="BG-23"))
        elif isinstance(o, Retreat) and (o.to not in rules.scenario.neighbours(place)
                                         or not rules.is_friendly_land(state, state.power, o.to)):
            errors.append(OrderError(ILLEGAL, f"attackers retreat to an adjacent friendly territory; {o.to} is not one",
                                     o.line, o.column, o.source, rule="BG-23"))


def _battles(rules: G40Rules, state: State, orders: list[Order], roller) -> list[dict]:
    events: list[dict] = []
    for battle in list(state.battles):
        place = battle["place"]
        if roller is None:
            events += _presume_victory(rules, state, place)
            continue
        bo = BattleOrders(
            retreat=next((o for o in orders if isinstance(o, Retreat) and o.place == place), None),
            ool=next((o.units for o in orders if isinstance(o, OrderOfLoss) and o.place == place), None))
        events += resolve_battle(rules, state, state.power, place, roller, bo)
    return events


def _presume_victory(rules: G40Rules, state: State, place: str) -> list[dict]:
    """For checking only: the attack wins, so later orders that rely on it can be accepted."""
    power = state.power
    state.remove_units(u.id for u in rules.hostile_units(state, power, place))
    if any(rules.can_capture(u) for u in state.units_at(place, power)) and rules.is_hostile_land(state, power, place):
        movement.capture(rules, state, power, place)
    return []


def _crash_unlanded_air(rules: G40Rules, state: State, power: str) -> list[dict]:
    """BG-06: aircraft that end non-combat without a landing place are lost; at sea, those beyond the
    friendly carriers' room (the mover's aircraft that arrived last go first)."""
    lost = []
    for where in sorted({u.place for u in state.units if u.owner == power and rules.ut(u).domain == "air"}):
        mine = sorted((u for u in state.units_at(where, power) if rules.ut(u).domain == "air"), key=lambda u: -u.id)
        if rules.is_water(where):
            short = -movement.carrier_room(rules, state, power, where)
            for u in mine:
                if short <= 0:
                    break
                lost.append(u)
                short -= rules.ut(u).carrier_cost or 1
        elif not movement.can_land(rules, state, power, where):
            lost += mine
    state.remove_units(u.id for u in lost)
    return [{"type": "crash", "power": power, "place": u.place, "unit": u.type} for u in lost]


def _advance_phase(rules: G40Rules, state: State, done: str) -> None:
    phases = rules.scenario.phases_of(state.power)
    later = [p for p in phases if PHASES.index(p) > PHASES.index(done)]
    state.phase = later[0] if later else "end_turn"


def _end_turn(rules: G40Rules, state: State) -> list[dict]:
    """BG-37 income, then the cursor passes to the next power."""
    power = state.power
    events = [collect_income(rules, state, power)]
    held = state.purchases.get(power)
    if held:
        events.append({"type": "held_over", "power": power, "units": dict(held)})
    for u in state.units:
        u.moved = 0
        u.flags = {}
    state.conquered = []
    state.battles = []
    players = rules.scenario.turn_players()
    i = players.index(power)
    if i + 1 == len(players):
        state.round += 1
    state.power = players[(i + 1) % len(players)]
    state.phase = rules.scenario.phases_of(state.power)[0]
    state.turn_index += 1
    events.append({"type": "next", "round": state.round, "power": state.power, "phase": state.phase})
    return events


def turn_orders(orders: list[Order]) -> list[Order]:
    """The orders of a submission that belong to the mover's turn (standing orders and salts do not)."""
    return [o for o in orders if o.phase or isinstance(o, End)]
