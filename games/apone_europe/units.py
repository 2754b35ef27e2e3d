"""Sgt. Apone's two new units (AP-25 … AP-34): paratroopers and commandos.

Paratroopers (AP-25 … AP-28) are land units that fight as infantry do but at 2/1. One that starts the turn where a
friendly industrial complex or air base stands may make a drop instead of its infantry move: `drop UNITS PATH`,
up to 2 spaces flown as an air unit (RULINGS.md "paratrooper-drop"). In the battle it drops into it does not fire
in round 1 (`holds_fire`), though it can be taken as a casualty.

Commandos (AP-29 … AP-34) are bought like units (`buy 1 commando`) but are markers: kept with the turn's purchases
(State.purchases), never placed, spent by `commando PLACE UNITS` in the combat move on a land battle of the turn,
and lost with the turn if unused (`lapse`). Each marker rolls one die as round 1 of that battle begins
(`opening_strikes`, dice group `commando:PLACE`); on 1 or 2 its target is lost at the end of round 1, after firing
back, on top of the casualties the attack's own hits take (RULINGS.md "commando-raid").
"""

from __future__ import annotations

from adjudicator.notation.orders import path_text, units_text
from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.movement import check_path, declare
from adjudicator.scenario import BEFORE_COMBAT, ProductionRule, UnitType
from adjudicator.state import State, Unit, count_types

PARATROOPER = "paratrooper"
COMMANDO = "commando"
DROP = "drop"                   # the verb of a paratroopers' air move
RAID = "commando"               # the verb that spends a commando marker
DROP_RANGE = 2                  # AP-27
COMMANDO_HITS_ON = 2            # AP-33
DROPPED = "dropped"             # Unit flag: came by air this turn (AP-28)


def unit_types() -> list[UnitType]:
    """AP-25, AP-26: the paratrooper moves and is carried as infantry is (no artillery support: RULINGS.md
    "paratrooper-drop"); AP-29: the commando is a marker bought like a unit, which never moves."""
    return [UnitType(name=PARATROOPER, domain="land", attack=2, defense=1, movement=1, cost=7, transport_cost=2),
            UnitType(name=COMMANDO, domain="land", movement=0, cost=10)]


def production_rules() -> list[ProductionRule]:
    return [ProductionRule("buyParatrooper", 7, {PARATROOPER: 1}), ProductionRule("buyCommando", 10, {COMMANDO: 1})]


# -- the orders ----------------------------------------------------------------------------------------------

def register(reg) -> None:
    """`drop UNITS PATH` in either move phase (read by the running phase, as `move` is), `commando PLACE UNITS` in
    the combat move."""
    reg.register(DROP, phase=None, usage="drop UNITS PATH", parse=_parse_drop)
    reg.register(RAID, phase="combat_move", usage="commando PLACE UNITS", parse=_parse_raid)


def _parse_drop(r) -> dict:
    units, path, _ = r.units_and_path()
    phase = "combat_move" if r.running in BEFORE_COMBAT else "noncombat_move"
    return {"units": units_text(units), "path": path_text(path), "phase": phase}


def _parse_raid(r) -> dict:
    place = r.place()
    return {"place": place, "targets": units_text(r.units())}


def _counts(text: str) -> list[tuple[int, str]]:
    """`2 paratrooper, 1 infantry` (units_text) back into counts."""
    out = []
    for item in text.split(", "):
        n, _, unit = item.partition(" ")
        out.append((int(n), unit))
    return out


def _said(event: dict, text: str, rule: str) -> dict:
    return {**event, "text": text, "rule": rule}


# -- paratroopers ----------------------------------------------------------------------------------------------

def _airfield(rules, state: State, power: str, place: str) -> bool:
    """AP-27: a friendly (the mover's or an ally's) industrial complex or air base stands in `place`."""
    return any((rules.ut(u).has("factory") or rules.ut(u).has("air_base")) and rules.friendly(state, power, u.owner)
               for u in state.units_at(place))


def drop(rules, state: State, power: str, order) -> dict:
    """AP-27: paratroopers that have not moved this turn fly up to 2 spaces from a friendly industrial complex or
    air base, over land or sea, friendly or enemy (no AA gun fires at them), to land: in the combat move anywhere
    (an enemy territory is attacked, and taken if they win), in the non-combat move to friendly land only."""
    phase = order.phase
    wanted = _counts(order.args["units"])
    other = sorted({u for _, u in wanted if u != PARATROOPER})
    if other:
        raise RuleViolation(f"only paratroopers drop, not {', '.join(other)}: move the others with "
                            f"`{'cm' if phase == 'combat_move' else 'ncm'}`", "AP-27")
    path = check_path(rules, tuple(order.args["path"].split(" > ")),
                      "a drop needs at least two places: where the paratroopers are and where they land")
    start, dest = path[0], path[-1]
    if len(path) - 1 > DROP_RANGE:
        raise RuleViolation(f"paratroopers drop at most {DROP_RANGE} spaces; {start} to {dest} by this path is "
                            f"{len(path) - 1}", "AP-27")
    if not _airfield(rules, state, power, start):
        raise RuleViolation(f"paratroopers drop only from a territory with a friendly industrial complex or air base; "
                            f"{start} has neither: from there they move as infantry (`cm`, `ncm`)", "AP-27")
    if rules.is_water(dest):
        raise RuleViolation(f"paratroopers drop onto land; {dest} is a sea zone", "AP-27")
    for place in path[1:]:              # they fly where aircraft fly: not over neutrals
        if rules.neutral_closed(state, place):
            raise rules.neutral_refusal(place, "paratroopers may not fly over it or into it")
        if not rules.air_passable(state, power, place):
            raise RuleViolation(f"paratroopers fly where aircraft may: not over {place}", "AP-27")
    if phase != "combat_move" and rules.is_attack(state, power, dest):
        raise RuleViolation(f"in the non-combat move paratroopers drop only onto friendly land without enemies; "
                            f"{dest} is not", "AP-27")
    count = sum(n for n, _ in wanted)
    ready = sorted((u for u in state.units_at(start, power) if u.type == PARATROOPER and u.moved == 0
                    and not u.flags.get("combat_moved") and not u.flags.get(DROPPED) and u.carried_by is None),
                   key=lambda u: u.id)
    if len(ready) < count:
        raise RuleViolation(f"{power} have {len(ready)} paratroopers in {start} that have not moved this turn, not "
                            f"{count}: a drop starts where the paratroopers began the turn", "AP-27")
    attack = phase == "combat_move" and rules.is_attack(state, power, dest)
    for u in ready[:count]:
        u.place = dest
        u.moved += len(path) - 1
        u.mark(**{DROPPED: True}, **({"combat_moved": True} if phase == "combat_move" else {}))
    if attack:
        declare(state, dest, power, "land")
    event = {"type": "drop", "phase": phase, "power": power, "path": path, "units": {PARATROOPER: count},
             "order": order.canonical()}
    if attack:
        event["attack"] = dest
    return _said(event, f"{power} drop {count} {PARATROOPER}{'s' if count > 1 else ''} from {start} onto {dest}"
                 + (", attacking it" if attack else ""), "AP-27")


def dropped_in(unit: Unit) -> bool:
    """A paratrooper that dropped into this turn's combat (AP-27)."""
    return bool(unit.flags.get(DROPPED)) and bool(unit.flags.get("combat_moved"))


def holds_fire(unit: Unit, rnd: int) -> bool:
    """AP-28: paratroopers that dropped into the battle take no shot in round 1."""
    return rnd == 1 and dropped_in(unit)


# -- commandos ----------------------------------------------------------------------------------------------

def _target(rules, unit_type: str) -> bool:
    """AP-32: a unit that can be in a land territory, aircraft and AA guns too; not an industrial complex or a
    base, which are never casualties (RULINGS.md "commando-raid")."""
    t = rules.ut(unit_type)
    return t.domain in ("land", "air") and t.name != COMMANDO and (t.has("aa") or not t.has("infrastructure"))


def _enemies(rules, state: State, power: str, place: str) -> list[Unit]:
    """The units a commando may strike in `place`: enemy units of the kinds _target allows."""
    return sorted((u for u in state.units_at(place) if rules.fights(state, power, u.owner) and _target(rules, u.type)),
                  key=lambda u: u.id)


def raid(rules, state: State, power: str, order) -> dict:
    """AP-31, AP-32: spend commando markers bought this turn on a land battle of this turn, each naming the type
    of enemy unit it strikes there."""
    place = order.args["place"]
    targets = [t for n, t in _counts(order.args["targets"]) for _ in range(n)]
    if rules.is_water(place):
        raise RuleViolation(f"a commando raids a land territory; {place} is a sea zone", "AP-31")
    battle = next((b for b in state.battles if b["place"] == place and b.get("kind", "land") == "land"), None)
    if battle is None or not any(u.flags.get("combat_moved") for u in state.units_at(place, power)):
        raise RuleViolation(f"a commando on a territory without an attack: {power} do not attack {place} with their "
                            "units (a commando order comes after the combat moves into its territory)", "AP-31")
    wrong = sorted({t for t in targets if not _target(rules, t)})
    if wrong:
        raise RuleViolation(f"a commando strikes a unit that can be in a land territory (aircraft and AA guns too), "
                            f"not {', '.join(wrong)}", "AP-32")
    there = count_types(_enemies(rules, state, power, place))
    missing = sorted({t for t in targets if not there.get(t)})
    if missing:
        raise RuleViolation(f"no enemy {', '.join(missing)} in {place} for a commando to strike", "AP-32")
    held = state.purchases.get(power, {}).get(COMMANDO, 0)
    if held < len(targets):
        raise RuleViolation(f"{power} have {held} commando markers bought this turn and not yet used, not "
                            f"{len(targets)}: a marker is used once, in the turn it is bought (`buy N commando`)",
                            "AP-30")
    left = held - len(targets)
    if left:
        state.purchases[power][COMMANDO] = left
    else:
        del state.purchases[power][COMMANDO]
        if not state.purchases[power]:
            del state.purchases[power]
    battle["commandos"] = battle.get("commandos", []) + targets
    return _said({"type": "commando_order", "power": power, "place": place, "targets": targets,
                  "order": order.canonical()},
                 f"{power} place {len(targets)} commando {'marker' if len(targets) == 1 else 'markers'} in {place}, "
                 f"striking {', '.join(targets)}", "AP-31")


def opening_strikes(rules, state: State, power: str, place: str, roller) -> tuple[dict | None, list[Unit]]:
    """AP-32 … AP-34, as round 1 begins (after AA fire): one die per marker, in the order they were placed; each
    strikes a unit of its type, one not yet struck while there is one (else one already struck: several markers
    may strike one unit). On 1 or 2 the unit is marked to be lost after round 1. The markers are then gone."""
    battle = next((b for b in state.battles if b["place"] == place and b.get("kind", "land") == "land"), None)
    targets = battle.pop("commandos", []) if battle else []
    if not targets:
        return None, []
    enemies = _enemies(rules, state, power, place)
    struck: list[Unit] = []
    for t in targets:
        of_type = [u for u in enemies if u.type == t]
        fresh = [u for u in of_type if u not in struck]
        struck.append((fresh or of_type or [None])[0])
    aimed = [(t, u) for t, u in zip(targets, struck) if u is not None]
    if not aimed:
        return None, []
    label = f"commando:{place}"
    sides = rules.scenario.dice_sides
    values = roller.roll(label, sides, len(aimed), units=[f"commando@{COMMANDO_HITS_ON}"] * len(aimed))
    marked: list[Unit] = []
    for (_, u), d in zip(aimed, values):
        if d <= COMMANDO_HITS_ON and u not in marked:
            marked.append(u)
    text = (f"commando raid: {len(aimed)} {'marker strikes' if len(aimed) == 1 else 'markers strike'} "
            f"{', '.join(t for t, _ in aimed)} (dice {', '.join(map(str, values))}, hit on {COMMANDO_HITS_ON} or less); "
            + (f"lost after round 1, firing back first: {', '.join(u.type for u in marked)}" if marked else "no hit")
            + " [AP-33]")
    return {"label": label, "sides": sides, "values": values, "units": [f"commando@{COMMANDO_HITS_ON}"] * len(aimed),
            "targets": [t for t, _ in aimed], "hits": len(marked), "marked": count_types(marked), "text": text,
            "rule": "AP-33"}, marked


def check_placement(units: dict[str, int]) -> None:
    """AP-29: commandos are markers, never placed on the board."""
    if units.get(COMMANDO):
        raise RuleViolation("commandos are markers, not units on the board: spend them with `commando PLACE UNITS` "
                            "in the combat move of the turn they are bought", "AP-29")


def lapse(state: State, power: str) -> list[dict]:
    """AP-30: commando markers not used by the end of the buyer's turn are removed from the game."""
    bought = state.purchases.get(power, {})
    n = bought.pop(COMMANDO, 0)
    if not n:
        return []
    if not bought:
        del state.purchases[power]
    return [_said({"type": "commandos_lapse", "power": power, "count": n},
                  f"{power}: {n} unused commando {'marker' if n == 1 else 'markers'} removed from the game", "AP-30")]
