"""A&A Pacific's Combat Air Patrol (AP-06; RULINGS.md "cap"), and no sub stalling (AP-05; RULINGS.md "sub-stalling").

* ``cap UNITS TERRITORY > SEAZONE`` (non-combat move): fighters that have not moved this turn fly from a land
  territory to a sea zone next to it with no enemy unit in it. They stay there, not landed, across the enemies'
  turns (MapFacts.stays_aloft: `on_patrol`; the switch "cap:POWER:ZONE" records the patrol until it lands), stop
  enemy surface ships (`check_passage`) and defend the zone at their defence.
* ``land UNITS SEAZONE > PLACE`` (the owner's next turn, phase "land_cap" after the purchase): they land in a
  friendly land territory next to the zone held since the turn began, or aboard a friendly carrier with room in it
  (PLACE the zone). Those not ordered land by themselves as the combat move begins, at the safest such place
  (air.settle, one space), or are lost.

No sub stalling (AP-05) is the engine's MapFacts.no_submerging_before_battle: submarines never submerge before
they have fired in round 1, attacking or defending; `submerge PLACE after round 0` is refused.
"""

from __future__ import annotations

from adjudicator.notation.orders import UnitCount
from adjudicator.rules import air
from adjudicator.rules.facts import MapFacts, RuleViolation
from adjudicator.scenario import CAP_PHASE, Step
from adjudicator.state import State, Unit
from adjudicator.words import capitalised, named, possessive

RULE = "AP-06"
CAP, LAND = "cap", "land"


def register(reg) -> None:
    """The verbs `cap` (non-combat move) and `land` (the landing phase) in the game's registry."""
    reg.register(CAP, phase="noncombat_move", usage="cap UNITS TERRITORY > SEAZONE", parse=_parse)
    reg.register(LAND, phase=CAP_PHASE, usage="land UNITS SEAZONE > TERRITORY|SEAZONE", parse=_parse)


def _parse(r) -> dict:
    units, path, _ = r.units_and_path()
    if len(path) != 2:
        r.fail("a Combat Air Patrol order names one flight: UNITS FROM > TO", expected="two places", rule=RULE)
    return {"units": ", ".join(f"{c.count} {c.unit}" for c in units), "path": " > ".join(path)}


def _read(order) -> tuple[list[UnitCount], str, str]:
    counts = [UnitCount(int(n), unit) for n, unit in (item.split(" ", 1) for item in order.args["units"].split(", "))]
    src, dest = order.args["path"].split(" > ")
    return counts, src, dest


def with_landing_phase(sequence: list[Step]) -> list[Step]:
    """The map's turn sequence with AAP's Phase 2, "Land Fighters on Combat Air Patrol", after each purchase."""
    out = []
    for step in sequence:
        out.append(step)
        if step.phase == "purchase" and step.player:
            out.append(Step(step.player.lower() + "LandCap", CAP_PHASE, step.player, "",
                            "Land Fighters on Combat Air Patrol"))
    return out


def is_fighter(rules: MapFacts, unit: Unit | str) -> bool:
    """A fighter: an aircraft that lands on carriers."""
    return rules.is_air(unit) and bool(rules.ut(unit).carrier_cost)


def carry_out(rules: MapFacts, state: State, power: str, order) -> dict:
    """A `cap` or `land` order (AponeRules.game_order)."""
    counts, src, dest = _read(order)
    return (launch if order.name == CAP else land)(rules, state, power, counts, src, dest)


def _take(units: list[Unit], counts: list[UnitCount], where: str) -> list[Unit]:
    """The units an order names, from `units` (those `where` says it may take)."""
    chosen = []
    for c in counts:
        ready = [u for u in units if u.type == c.unit]
        if len(ready) < c.count:
            raise RuleViolation(f"{where}: {len(ready)} {c.unit}; the order names {c.count}", RULE)
        chosen += ready[:c.count]
    return chosen


def launch(rules: MapFacts, state: State, power: str, counts: list[UnitCount], src: str, zone: str) -> dict:
    """AP-06: fighters that have not moved this turn fly from land to the next sea zone, one free of enemies."""
    for c in counts:
        if not is_fighter(rules, c.unit):
            raise RuleViolation(f"only fighters fly a Combat Air Patrol; not {c.unit}", RULE)
    if rules.is_water(src) or not rules.is_water(zone) or zone not in rules.scenario.neighbours(src):
        raise RuleViolation(f"a Combat Air Patrol flies from a land territory to a sea zone next to it (not from a "
                            f"carrier); {src} > {zone} is not such a flight", RULE)
    if rules.hostile_units(state, power, zone):
        raise RuleViolation(f"enemy units are in {zone}: a Combat Air Patrol goes only where no battle would follow",
                            RULE)
    idle = [u for u in state.units_at(src, power) if not u.moved and not u.flags.get("combat_moved")]
    fighters = _take(idle, counts, f"fighters in {src} that have not moved this turn")
    for u in fighters:
        u.place = zone
        u.moved += 1
        u.mark(cap=zone)
    state.switches[_key(power, zone)] = True
    return {"type": "rule", "rule": RULE, "power": power,
            "text": f"{capitalised(named(power))} fly {_phrase(counts)} from {src} to {zone} on Combat Air Patrol."}


def _key(power: str, zone: str) -> str:
    """The switch that records `power`'s patrol over `zone` from its launch to its landing."""
    return f"cap:{power}:{zone}"


def on_patrol(rules: MapFacts, state: State, unit: Unit) -> bool:
    """A fighter on Combat Air Patrol: launched this turn, or, in another power's turn, one of its owner's fighters
    off any carrier's deck in a zone its owner patrols (not one whose carrier was sunk elsewhere)."""
    if unit.owner == state.power:
        return bool(unit.flags.get("cap"))
    return (is_fighter(rules, unit) and bool(state.switches.get(_key(unit.owner, unit.place)))
            and unit.id not in air.decks(rules, state, unit.owner, unit.place)[0])


def patrol(rules: MapFacts, state: State, power: str, zone: str | None = None) -> list[Unit]:
    """`power`'s fighters on Combat Air Patrol (in `zone`) as its turn begins: its fighters in a zone it patrols
    (those a carrier there has room for are aboard it already: `air.landed`)."""
    return [u for u in state.units if u.owner == power and is_fighter(rules, u) and (zone is None or u.place == zone)
            and state.switches.get(_key(power, u.place))]


def land(rules: MapFacts, state: State, power: str, counts: list[UnitCount], zone: str, dest: str) -> dict:
    """AP-06: a patrol lands next to its zone, on friendly land held since the turn began, or on a carrier in it."""
    fighters = _take(patrol(rules, state, power, zone), counts,
                     f"{possessive(power)} fighters on Combat Air Patrol in {zone}")
    if dest == zone:
        if not all(air.landed(rules, state, power, u) for u in fighters):
            raise RuleViolation(f"the friendly carriers in {zone} have no room for {_phrase(counts)}", RULE)
    elif dest not in rules.scenario.neighbours(zone) or not air.held_land(rules, state, power, dest):
        raise RuleViolation(f"a Combat Air Patrol lands on friendly land next to its zone held since the turn "
                            f"began, or on a carrier in the zone; {dest} is neither", RULE)
    for u in fighters:
        u.place = dest
    return {"type": "rule", "rule": RULE, "power": power,
            "text": f"{capitalised(possessive(power, the=True))} Combat Air Patrol in {zone} lands {_phrase(counts)} "
                    f"in {dest}."}


def land_the_rest(rules: MapFacts, state: State, power: str) -> list[dict]:
    """As the combat move begins: the patrols not ordered down land at the safest place next to their zone, or are
    lost (air.settle); landing costs them no movement."""
    events = []
    for u in [u for u in patrol(rules, state, power) if not air.landed(rules, state, power, u)]:
        event = air.settle(rules, state, power, u, 1, "its Combat Air Patrol ends")
        event["rule"] = RULE
        if event["type"] == "landing":
            u.moved = 0
        events.append(event)
    for key in [k for k in state.switches if k.startswith(_key(power, ""))]:
        del state.switches[key]
    return events


def check_passage(rules: MapFacts, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> None:
    """AP-06: an enemy patrol stops surface ships (submarines pass it): they may end a combat move in its zone,
    armed, and fight it there, but never pass it, enter it unarmed (transports alone) or end a non-combat move
    there."""
    surface = [u for u in units if rules.ut(u).domain == "sea" and not rules.is_sub(u)]
    if not surface:
        return
    armed = any(rules.ut(u).attack for u in surface)
    for place in path[1:]:
        patrolled = any(on_patrol(rules, state, u) for u in rules.hostile_units(state, power, place))
        if patrolled and (place != path[-1] or phase != "combat_move" or not armed):
            raise RuleViolation(f"enemy fighters on Combat Air Patrol are in {place}: surface ships entering it stop "
                                "there and fight them, in a combat move, with a ship that attacks", RULE)


def _phrase(counts: list[UnitCount]) -> str:
    return ", ".join(f"{c.count} {c.unit}" for c in counts)
