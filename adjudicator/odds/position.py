"""The battle odds are asked for: a position the adjudicator's `Battle` is set up from, made of units named on the
command line (a game's rules on its map, no database), or of a combat move played on a game's current state."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import AdjudicatorError
from ..notation.orders import Move, Retreat, UnitCount
from ..notation.parser import ParseFailure, Reader, tokenize
from ..notation.text import Line
from ..rules import transport
from ..rules.combat import Battle, BattleOrders, retreat_open
from ..rules.facts import MapFacts
from ..rules.turn import battle_orders, play_phase
from ..state import State


@dataclass
class Position:
    """A battle about to be fought: the state that holds it (only what the battle reads), who attacks where, and
    the battle's orders (retreat, order of loss, ships that bombard)."""

    rules: MapFacts
    state: State
    power: str
    place: str
    orders: BattleOrders

    def battle(self, state: State | None = None, roller=None) -> Battle:
        """The adjudicator's battle of this position, on `state` (a copy of the position's, for a simulated run)."""
        state = state or self.state
        orders = replace(self.orders, bombard=[state.unit(u.id) for u in self.orders.bombard],
                         held=set(self.orders.held))
        return Battle(self.rules, state, self.power, self.place, roller, orders)

    def retreat_open(self) -> bool:
        order = self.orders.retreat
        return order is not None and retreat_open(self.rules, self.state, self.power, order.to,
                                                  self.rules.is_water(self.place))


def check_battles(rules) -> None:
    """Odds follow the battles of the rules core (`Battle`); a game that fights its own way is refused."""
    if not isinstance(rules, MapFacts):
        raise AdjudicatorError(f"the {rules.name} game fights its battles by rules of its own, which odds do not "
                               "reckon: odds follow the Axis & Allies battles of the other games")


def read_units(rules: MapFacts, text: str, what: str, power: str, counts: bool = True):
    """`3 inf, 1 art` (or, without counts, an order of loss: `inf, art`) in the game's unit names for `power`;
    a mistake is refused the way a mistyped order is, with the column and the names it might have meant."""
    lexicon = rules.lexicon().for_power(power)
    line = Line(1, text.strip())
    reader = Reader(line, tokenize(line.text), lexicon, "combat_move")
    try:
        found = reader.units() if counts else reader.unit_names()
        reader.done()
    except ParseFailure as exc:
        raise AdjudicatorError(f"{what}: {exc.error.message}\n    {line.text}\n    "
                               f"{' ' * (exc.error.column - 1)}^") from None
    return found


def standalone(rules: MapFacts, attacker: tuple[UnitCount, ...], defender: tuple[UnitCount, ...],
               power: str, enemy: str, place: str, attacker_ool: tuple[str, ...] | None = None,
               defender_ool: tuple[str, ...] | None = None, retreat_below: int | None = None,
               round_: int = 1) -> Position:
    """The battle of `attacker` (of `power`) against `defender` (of `enemy`) in `place` of the game's map, each
    at war with the other and nothing else there; `retreat_below`: the attacker retreats at the end of a round
    with fewer units than that left (`retreat … if attackers < N`), to a neighbouring place of its own; `round_`:
    the game round it is fought in."""
    check_battles(rules)
    if place not in rules.scenario.territories_by_name():
        raise AdjudicatorError(f"no place called {place!r} on this map")
    state = State.initial(rules.scenario)
    state.round = round_
    if not rules.fights(state, power, enemy):
        state.set_relationship(power, enemy, _war(rules))
    sea = rules.is_water(place)
    for units, side in ((attacker, "attacker"), (defender, "defender")):
        for uc in units:
            t = rules.ut(uc.unit)
            if side == "attacker" and (t.has("infrastructure") or t.has("marker")):
                raise AdjudicatorError(f"--attacker: the {uc.unit} does not attack: it stays out of battles")
            if (t.domain == "sea") != sea and t.domain != "air" and not t.has("infrastructure"):
                where = "at sea" if t.domain == "sea" else "on land"
                raise AdjudicatorError(f"--{side}: the {uc.unit} fights {where}, and the battle is in {place}: a battle "
                                       "is fought on land or at sea (give --place for one, and units that fight there)")
    keep = {place}
    retreat = None
    if retreat_below is not None:
        to = _retreat_to(rules, state, place, sea)
        if to is None:
            raise AdjudicatorError(f"{place} has no neighbour for the attacker to retreat to: leave out --retreat")
        keep.add(to)
        retreat = Retreat(place=place, to=to, if_attackers_below=retreat_below)
        if not sea:
            state.owners[to] = power
    state.units = []
    if not sea:
        state.owners[place] = enemy
    for units, owner in ((attacker, power), (defender, enemy)):
        for uc in units:
            for _ in range(uc.count):
                u = state.add_unit(uc.unit, owner, place)
                if owner == power:
                    u.mark(combat_moved=True)
    if defender_ool:
        state.standing[enemy] = {**state.standing.get(enemy, {}), "ool": list(defender_ool)}
    return Position(rules, state, power, place, BattleOrders(retreat=retreat, ool=attacker_ool))


def _war(rules: MapFacts) -> str:
    """The map's name for the relationship of powers at war."""
    for t in rules.scenario.relationship_types:
        if t.archetype == "war":
            return t.name
    raise AdjudicatorError("this game's map has no relationship of powers at war")


def _retreat_to(rules: MapFacts, state: State, place: str, sea: bool) -> str | None:
    for name in sorted(rules.scenario.neighbours(place)):
        if rules.is_water(name) == sea:
            return name
    return None


def from_order(rules: MapFacts, state: State, orders: list) -> Position:
    """The battle the mover's combat moves `orders` start, played on a copy of `state` without dice, with the
    battle orders among them (`retreat`, `ool PLACE:`) and both sides' standing orders of loss; refused, with
    every error, as `submit` would refuse them."""
    check_battles(rules)
    moves = [o for o in orders if isinstance(o, Move)]
    if not moves:
        raise AdjudicatorError("--order takes the combat moves that start the battle: `cm UNITS FROM > TO`")
    places = list(dict.fromkeys(m.path[-1] for m in moves))
    if len(places) > 1:
        raise AdjudicatorError(f"these moves start battles in {' and '.join(places)}: ask for one battle at a time")
    place = places[0]
    trial = state.copy()
    trial.phase = "combat_move"          # the phases before it move no unit
    errors = play_phase(rules, trial, "combat_move", orders)
    if errors:
        raise AdjudicatorError("the order cannot be played now:\n" + "\n".join("  " + e.render() for e in errors))
    battle = next((b for b in trial.battles if b["place"] == place and b.get("kind") != "raid"), None)
    if battle is None:
        raise AdjudicatorError(f"these moves start no battle in {place}: nothing there fights the {state.power}")
    transport.land_assault_troops(rules, trial, trial.power)
    orders_for, _ = battle_orders(rules, trial, orders, battle)
    return Position(rules, trial, trial.power, place, orders_for)
