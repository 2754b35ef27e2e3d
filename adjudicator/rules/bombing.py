"""Strategic bombing raids (BG-26 … BG-29, BG-42): `bomb UNITS PATH [FACILITY]`.

A raid flies like a combat move and is fought first in Conduct Combat: one round of air battle between the
escorts and bombers and the defending interceptors (both sides hit on the map's airAttack / airDefense, 1),
then the AA there (the raided facility's own, or an AA gun: `raid_aa`) fires once at each raiding bomber
(RULINGS.md "facility-aa-escorts": the escorts' part ends with the air battle, where the map has one), then each
surviving bomber rolls its damage. A family whose rulebook fires AA first (`raid_aa_first`: the classic family)
fires it at every raiding aircraft, escorts too, before the air battle. Damage stays on the facility, capped by its maxDamage: a factory places that
much less, a base with more damage than its maxOperationalDamage stops working, and each PU of repair removes one
point. Where the map damages territories instead (the classic maps), the dice are PUs lost from the owner's
treasury (CL-04, CL-05).
"""

from __future__ import annotations

from ..notation.orders import Bomb
from ..state import State, Unit, count_types
from . import movement, victory
from .combat import assign_hits, order_of_loss
from .facts import MapFacts, RuleViolation


def facility_name(rules: MapFacts, unit_type: str) -> str:
    return "factory" if rules.ut(unit_type).has("factory") else unit_type


def target(rules: MapFacts, state: State, power: str, place: str, facility: str | None) -> Unit:
    """The enemy facility a raid names: a factory by default, or the facility type given."""
    wanted = facility or "factory"
    found = [u for u in state.units_at(place) if rules.ut(u).has("can_be_damaged") and rules.fights(state, power, u.owner)
             and (rules.ut(u).has("factory") if wanted == "factory" else u.type == wanted)]
    if not found:
        raise RuleViolation(f"{place} has no enemy {wanted} to bomb", "BG-27")
    return min(found, key=lambda u: u.id)


def bombers_for(rules: MapFacts, unit: Unit, facility_type: str) -> bool:
    """BG-27: strategic bombers raid any facility, tactical bombers only those in their bombingTargets."""
    if not rules.ut(unit).has("strategic_bomber"):
        return False
    targets = rules.names(unit, "bombingTargets")
    return not targets or facility_type in targets


def declare_raid(rules: MapFacts, state: State, power: str, order: Bomb) -> dict:
    """Check and fly a raid in the combat move; the raid is fought first in the battle phase (BG-42)."""
    path = movement.check_path(rules, order.path, "a raid needs a path: where the aircraft are and the territory they bomb")
    place = path[-1]
    rules.raiding(state, power, place)
    if rules.is_water(place) or not rules.is_hostile_land(state, power, place):
        raise RuleViolation(f"raids bomb a facility in enemy territory; {place} is not one", "BG-27")
    goal = target(rules, state, power, place, order.facility)
    units = movement.pick_units(rules, state, power, order, lambda t: len(path) - 1, "combat_move")
    bombers = [u for u in units if bombers_for(rules, u, goal.type)]
    for u in units:
        if u in bombers:
            continue
        if rules.is_air(u) and rules.true(u, "canEscort"):
            continue
        if rules.ut(u).has("strategic_bomber"):
            raise RuleViolation(f"a {u.type} bombs only {', '.join(sorted(rules.names(u, 'bombingTargets')))}, "
                                f"not a {goal.type}", "BG-27")
        raise RuleViolation(f"only bombers and escorting fighters fly a raid; a {u.type} cannot", "BG-27")
    if not bombers:
        raise RuleViolation("a raid needs at least one bomber that can bomb the target", "BG-27")
    movement.check_air(rules, state, power, units, path, "combat_move", raid=True)
    for u in units:
        u.place = place
        u.moved += len(path) - 1
        u.mark(combat_moved=True, raid=goal.type)
    movement.declare(state, place, power, "raid", facility=goal.type)
    event = {"type": "move", "phase": "combat_move", "power": power, "path": path, "order": order.canonical(),
             "units": count_types(units), "captures": [], "raid": f"{place} {facility_name(rules, goal.type)}"}
    flown = rules.flown_over(state, power, path)
    if flown:
        event["follows"] = flown
    return event


def resolve_raid(rules: MapFacts, state: State, power: str, battle: dict, roller) -> dict:
    """Fight one raid: air battle, facility AA, damage. Returns the report event."""
    place, facility = battle["place"], battle["facility"]
    sides = rules.scenario.dice_sides
    raiders = [u for u in state.units_at(place, power) if u.flags.get("raid") == facility]
    event = {"type": "raid", "place": place, "attacker": power, "facility": facility,
             "raiders": count_types(raiders), "notes": []}
    goal = next((u for u in state.units_at(place) if u.type == facility and rules.fights(state, power, u.owner)), None)
    if goal is None:
        event["notes"].append(f"the {facility} is no longer there")
        return event
    base = f"sbr:{place}:{facility}"
    dead: list[Unit] = []
    escorts = sum(1 for u in raiders if not bombers_for(rules, u, facility))
    interceptors: list[Unit] = []
    if rules.raid_aa_first:
        shot = _aa_fire(rules, state, power, roller, base, goal, raiders, event)
        dead += shot
        raiders = [u for u in raiders if u not in shot]
    if rules.prop("Raids May Be Preceeded By Air Battles") and raiders:
        interceptors = [u for u in rules.hostile_units(state, power, place) if rules.is_air(u) and rules.true(u, "canIntercept")
                        and state.standing.get(u.owner, {}).get("intercept", True)]
        if interceptors:
            event["interceptors"] = count_types(interceptors)
            att = _volley(rules, roller, f"{base}:air:attacker", raiders, "airAttack")
            dfn = _volley(rules, roller, f"{base}:air:defender", interceptors, "airDefense")
            _, lost = assign_hits(rules, raiders, [(dfn["hits"], lambda u: True)] if dfn else [],
                                  order_of_loss(rules, state, power, "attacker", None), "attacker")
            owner = interceptors[0].owner
            _, downed = assign_hits(rules, interceptors, [(att["hits"], lambda u: True)] if att else [],
                                    order_of_loss(rules, state, owner, "defender", None), "defender")
            event["air_battle"] = {"attacker": att, "defender": dfn, "attacker_losses": count_types(lost),
                                   "defender_losses": count_types(downed)}
            dead += lost + downed
            raiders = [u for u in raiders if u not in lost]
    if not rules.raid_aa_first:
        over_target = [u for u in raiders if bombers_for(rules, u, facility)
                       or not rules.prop("Raids May Be Preceeded By Air Battles")]
        shot = _aa_fire(rules, state, power, roller, base, goal, over_target, event)
        dead += shot
        raiders = [u for u in raiders if u not in shot]
    bombers = sorted((u for u in raiders if bombers_for(rules, u, facility)), key=lambda u: (u.type, u.id))
    if bombers:
        bonus, notes = _bonuses(rules, bombers, escorts, len(interceptors))
        event["notes"] += notes
        event["damage"] = _damage(rules, state, roller, base, goal, bombers, bonus)
    state.remove_units(u.id for u in dead)
    event["survivors"] = count_types(raiders)
    return event


def _aa_fire(rules: MapFacts, state: State, power: str, roller, base: str, goal: Unit, targets: list[Unit],
             event: dict) -> list[Unit]:
    """The raid's AA (raid_aa) fires one die at each of `targets`. Where AA fires first, at escorts too (the classic
    family, RULINGS.md "sbr-order"), the raiders' owner chooses the aircraft its hits destroy by its order of loss;
    otherwise each die is aimed at one bomber, as the G40 family plays it (RULINGS.md "facility-aa-escorts")."""
    guns = raid_aa(rules, state, power, goal)
    targets = sorted(targets, key=lambda u: (u.type, u.id))
    if not (targets and guns):
        return []
    hit_on = rules.aa_value(state, guns[0])
    names = [f"{u.type}" for u in targets]
    sides = rules.scenario.dice_sides
    values = roller.roll(f"{base}:aa", sides, len(names), units=names)
    hits = sum(1 for d in values if d <= hit_on)
    event["aa"] = {"label": f"{base}:aa", "sides": sides, "values": values, "units": names, "hits": hits,
                   "hit_on": hit_on}
    if rules.raid_aa_first:
        _, shot = assign_hits(rules, targets, [(hits, lambda u: True)],
                              order_of_loss(rules, state, power, "attacker", None), "attacker")
        event["aa"].update(first=True, guns=count_types(guns))
    else:
        shot = [u for u, d in zip(targets, values) if d <= hit_on]
    event["aa"]["losses"] = count_types(shot)
    return shot


def raid_aa(rules: MapFacts, state: State, power: str, goal: Unit) -> list[Unit]:
    """The AA that fires at a raid on `goal` (BG-27, CL-03): the facility's own (isAAforBombingThisUnitOnly), and
    the enemy's AA guns in the territory that no raid can damage (the classic maps' isAA gun). As in TripleA, a
    facility with AA of its own fires only when it is the one raided."""
    return [u for u in state.units_at(goal.place) if rules.ut(u).has("aa_bombing") and u.carried_by is None
            and rules.fights(state, power, u.owner) and (u is goal or not rules.ut(u).has("can_be_damaged"))]


def _volley(rules: MapFacts, roller, label: str, units: list[Unit], option: str) -> dict | None:
    shooters = [(u, rules.number(u, option, 0)) for u in sorted(units, key=lambda u: (u.type, u.id))]
    shooters = [(u, v) for u, v in shooters if v > 0]
    if not shooters:
        return None
    names = [f"{u.type}@{v}" for u, v in shooters]
    values = roller.roll(label, rules.scenario.dice_sides, len(shooters), units=names)
    return {"label": label, "sides": rules.scenario.dice_sides, "values": values, "units": names,
            "hits": sum(1 for (u, v), d in zip(shooters, values) if d <= v)}


def _bonuses(rules: MapFacts, bombers: list[Unit], escorts: int, interceptors: int) -> tuple[list[int], list[str]]:
    """What each bomber adds to its damage die (BG-27: the map's bonus, where the map uses bonuses; a game may
    change it by the raid's fighters), and a note for each bonus that is not the map's, with what made it so."""
    if not rules.prop("Use Bombing Max Dice Sides And Bonus"):
        return [0] * len(bombers), []
    bonus = [rules.bombing_bonus(u, escorts, interceptors) for u in bombers]
    why = ("no fighter intercepted" if not interceptors else
           f"{escorts} escort{'s' if escorts != 1 else ''} against {interceptors} interceptor{'s' if interceptors != 1 else ''}")
    notes: list[str] = []
    for u, b in zip(bombers, bonus):
        line = f"each {u.type} adds {b} to its damage die instead of {rules.number(u, 'bombingBonus', 0)}: {why}"
        if b != rules.number(u, "bombingBonus", 0) and line not in notes:
            notes.append(line)
    return bonus, notes


def _damage(rules: MapFacts, state: State, roller, base: str, goal: Unit, bombers: list[Unit], bonus: list[int]) -> dict:
    """BG-27, BG-28: each bomber rolls its own die plus bonus; the total is capped by what the facility can take."""
    own = rules.prop("Use Bombing Max Dice Sides And Bonus")
    sides = rules.number(bombers[0], "bombingMaxDieSides", rules.scenario.dice_sides) if own else rules.scenario.dice_sides
    names = [f"{u.type}+{b}" for u, b in zip(bombers, bonus)]
    values = roller.roll(base, sides, len(bombers), units=names)
    each = [v + b for v, b in zip(values, bonus)]
    rolled = sum(each)
    if not rules.prop("Damage From Bombing Done To Units Instead Of Territories"):
        return _treasury_damage(rules, state, goal, each, {"label": base, "sides": sides, "values": values,
                                                           "units": names, "rolled": rolled})
    room = max(rules.max_damage(goal) - goal.damage, 0)
    dealt = min(rolled, room)
    goal.damage += dealt
    return {"label": base, "sides": sides, "values": values, "units": names, "rolled": rolled, "dealt": dealt,
            "total": goal.damage, "max": rules.max_damage(goal), "operative": rules.operative(goal)}


def _treasury_damage(rules: MapFacts, state: State, goal: Unit, each: list[int], grp: dict) -> dict:
    """CL-04, CL-05: where raids damage territories, not units, the owner loses the bombers' dice (`each`) from its
    treasury, never below 0, capped by the territory's value only where the map says so, as TripleA reads its
    switches: "Limit SBR Damage To Factory Production" caps each bomber's loss, "Limit SBR Damage Per Turn" the
    loss of the turn (a territory is raided at most once a turn: movement.declare keeps one raid per place)."""
    owner = goal.owner
    value = rules.scenario.territory(goal.place).production
    if rules.prop("Limit SBR Damage To Factory Production"):
        each = [min(d, value) for d in each]
    lost = min(sum(each), value) if rules.prop("Limit SBR Damage Per Turn") else sum(each)
    paid = min(lost, state.treasury.get(owner, 0))
    state.treasury[owner] = state.treasury.get(owner, 0) - paid
    return {**grp, "treasury_lost": paid, "power": owner, **victory.bombed(rules, state, owner, paid),
            **rules.raid_cost(state, owner, lost, paid)}
