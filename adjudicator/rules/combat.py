"""Land battles (BG-22 … BG-25, BG-39): AA fire, rounds of dice, casualties by order of loss, retreat, capture.

Every die comes from the roller under a label built from the battle's facts (`battle:PLACE:rN:attacker`,
`aa:PLACE:r1`), never from a counter, so the same battle always draws the same bytes (DESIGN.md dice §3).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..notation.orders import Retreat
from ..state import State, Unit, count_types
from .base import G40Rules
from .movement import capture

MAX_ROUNDS = 100


@dataclass
class BattleOrders:
    retreat: Retreat | None = None
    ool: tuple[str, ...] | None = None        # the mover's order of loss for this battle


def order_of_loss(rules: G40Rules, state: State, power: str, role: str, battle_ool: tuple[str, ...] | None) -> list[str]:
    """Unit types in the order they die: the battle's ool, then the power's standing ool, then the default."""
    listed: list[str] = []
    for source in (battle_ool or (), state.standing.get(power, {}).get("ool", ())):
        for name in source:
            if name not in listed:
                listed.append(name)
    rest = sorted((t for t in rules.scenario.unit_types if t.name not in listed),
                  key=lambda t: (t.attack if role == "attacker" else t.defense, t.cost or 0, t.name))
    return listed + [t.name for t in rest]


def take_casualties(rules: G40Rules, units: list[Unit], hits: int, ool: list[str]) -> tuple[list[Unit], list[Unit]]:
    """Apply `hits` to `units`: multi-hit units soak a hit first, then units die in `ool` order.
    Returns (damaged, killed)."""
    damaged: list[Unit] = []
    for u in sorted(units, key=lambda u: u.id):
        if hits == 0:
            break
        if u.damage < rules.ut(u).hit_points - 1:
            u.damage += 1
            damaged.append(u)
            hits -= 1
    rank = {name: i for i, name in enumerate(ool)}
    by_loss = sorted(units, key=lambda u: (rank.get(u.type, len(rank)), u.id))
    return damaged, by_loss[:hits]


def _support(rules: G40Rules, side: list[Unit], role: str, power_of: dict[int, str]) -> dict[int, int]:
    """Bonus per unit id from support attachments (BG-24): each provider lifts up to `number` targets once per bonus type."""
    bonus: dict[int, int] = {}
    used_types: dict[int, set[str]] = {}
    for sup in rules.scenario.supports:
        if sup.faction != "allied" or not (sup.offence if role == "attacker" else sup.defence):
            continue
        providers = [u for u in side if u.type == sup.provider and power_of[u.id] in sup.players]
        slots = len(providers) * sup.number
        for u in sorted(side, key=lambda u: u.id):
            if slots == 0:
                break
            kind = sup.bonus_type or sup.name
            if u.type in sup.targets and kind not in used_types.setdefault(u.id, set()):
                used_types[u.id].add(kind)
                bonus[u.id] = bonus.get(u.id, 0) + sup.bonus
                slots -= 1
    return bonus


def _fire(rules: G40Rules, roller, label: str, units: list[Unit], role: str) -> dict | None:
    """One side's dice for one round; None when no unit of the side can score."""
    bonus = _support(rules, units, role, {u.id: u.owner for u in units})
    shooters = sorted(((u, rules.unit_value(u, role) + bonus.get(u.id, 0)) for u in units), key=lambda x: (x[0].type, x[0].id))
    shooters = [(u, min(v, rules.scenario.dice_sides)) for u, v in shooters if v > 0]
    if not shooters:
        return None
    names = [f"{u.type}@{v}" for u, v in shooters]
    values = roller.roll(label, rules.scenario.dice_sides, len(shooters), units=names)
    hits = sum(1 for (u, v), d in zip(shooters, values) if d <= v)
    return {"label": label, "sides": rules.scenario.dice_sides, "values": values, "units": names, "hits": hits}


def _aa_fire(rules: G40Rules, state: State, roller, place: str, defenders: list[Unit], attackers: list[Unit]) -> dict | None:
    """BG-25: before round 1 each AA gun fires at up to 3 attacking aircraft, one shot per aircraft, hitting on 1."""
    guns = [u for u in defenders if rules.ut(u).has("aa")]
    if not guns:
        return None
    targets_of = {}
    for g in guns:
        opt = rules.ut(g).options.get("targetsAA")
        targets_of[g.id] = set(opt[0].split(":")) if opt else None
    air = [u for u in attackers if rules.ut(u).domain == "air"
           and any(t is None or u.type in t for t in targets_of.values())]
    if not air:
        return None
    shots = min(len(air), sum(int((rules.ut(g).options.get("maxAAattacks") or ["3"])[0]) for g in guns))
    hit_on = int((rules.ut(guns[0]).options.get("attackAA") or ["1"])[0])
    label = f"aa:{place}:r1"
    names = [f"{guns[0].type}@{hit_on}"] * shots
    values = roller.roll(label, rules.scenario.dice_sides, shots, units=names)
    hits = sum(1 for d in values if d <= hit_on)
    return {"label": label, "sides": rules.scenario.dice_sides, "values": values, "units": names, "hits": hits, "targets": air}


def resolve_battle(rules: G40Rules, state: State, power: str, place: str, roller, orders: BattleOrders) -> list[dict]:
    """Fight the battle in `place`; returns its report event (with the capture, if any, inside it)."""
    attackers = [u for u in state.units_at(place, power) if rules.is_combatant(u)]
    defenders = rules.hostile_units(state, power, place)
    event = {"type": "battle", "place": place, "attacker": power,
             "defenders": sorted({u.owner for u in defenders}) or ([state.owners[place]] if place in state.owners else []),
             "attacking": count_types(attackers), "defending": count_types(defenders), "rounds": [], "notes": []}
    att_ool = order_of_loss(rules, state, power, "attacker", orders.ool)
    def_ools = {p: order_of_loss(rules, state, p, "defender", None) for p in {u.owner for u in defenders}}
    dead: list[Unit] = []

    aa = _aa_fire(rules, state, roller, place, defenders, attackers) if defenders else None
    if aa:
        _, killed = take_casualties(rules, aa.pop("targets"), aa["hits"], att_ool)
        aa["losses"] = count_types(killed)
        event["aa"] = aa
        attackers = [u for u in attackers if u not in killed]
        dead += killed

    rnd = 0
    retreat = orders.retreat
    while attackers and defenders and rnd < MAX_ROUNDS:
        rnd += 1
        a = _fire(rules, roller, f"battle:{place}:r{rnd}:attacker", attackers, "attacker")
        d = _fire(rules, roller, f"battle:{place}:r{rnd}:defender", defenders, "defender")
        if a is None and d is None:
            event["notes"].append("neither side can score a hit: the battle ends")
            break
        a_dmg, a_dead = take_casualties(rules, attackers, d["hits"] if d else 0, att_ool)
        d_dead = _defender_losses(rules, defenders, a["hits"] if a else 0, def_ools)
        attackers = [u for u in attackers if u not in a_dead]
        defenders = [u for u in defenders if u not in d_dead]
        dead += a_dead + d_dead
        event["rounds"].append({"round": rnd, "attacker": a, "defender": d,
                                "attacker_losses": count_types(a_dead), "defender_losses": count_types(d_dead),
                                "attacker_damaged": count_types(a_dmg)})
        if attackers and defenders and retreat and _retreats(rules, state, retreat, rnd, attackers, event):
            retreat = None          # units landed from the sea fight on alone (BG-11)

    state.remove_units(u.id for u in dead)
    for u in attackers:
        u.flags["fought"] = True
    return _outcome(rules, state, power, place, attackers, defenders, event)


def _defender_losses(rules: G40Rules, defenders: list[Unit], hits: int, ools: dict[str, list[str]]) -> list[Unit]:
    """Defenders of several powers lose in the order of the power with most units there (ties by name)."""
    if not defenders or hits == 0:
        return []
    counts: dict[str, int] = {}
    for u in defenders:
        counts[u.owner] = counts.get(u.owner, 0) + 1
    lead = sorted(counts, key=lambda p: (-counts[p], p))[0]
    _, killed = take_casualties(rules, defenders, hits, ools[lead])
    return killed


def _retreats(rules: G40Rules, state: State, order: Retreat | None, rnd: int, attackers: list[Unit], event: dict) -> bool:
    """BG-23: the standing retreat order of this battle, checked at the end of each round. Units that came
    ashore from transports stay (BG-11); aircraft stay too and land in non-combat."""
    if order is None or rnd < (order.after_round or 1):
        return False
    if order.if_attackers_below is not None and len(attackers) >= order.if_attackers_below:
        return False
    power = attackers[0].owner
    if not rules.is_friendly_land(state, power, order.to) or rules.hostile_units(state, power, order.to):
        event["notes"].append(f"retreat to {order.to} void: it is no longer friendly")
        return False
    leaving = [u for u in attackers if not u.flags.get("amphibious")]
    land = [u for u in leaving if rules.ut(u).domain == "land"]
    for u in land:
        u.place = order.to
    for u in leaving:
        u.flags["fought"] = True
    event["retreat"] = {"to": order.to, "after_round": rnd, "units": count_types(land),
                        "stay": count_types(u for u in attackers if u.flags.get("amphibious"))}
    attackers[:] = [u for u in attackers if u.flags.get("amphibious")]
    return True


def _outcome(rules: G40Rules, state: State, power: str, place: str, attackers: list[Unit], defenders: list[Unit], event: dict) -> list[dict]:
    if defenders:
        event["result"] = "retreated" if "retreat" in event else "defended"
    elif any(rules.can_capture(u) for u in attackers):
        event["result"] = "captured"
        if rules.is_hostile_land(state, power, place):
            event["capture"] = capture(rules, state, power, place)
    elif "retreat" in event:
        event["result"] = "retreated"
    elif attackers:
        event["result"] = "cleared"
        event["notes"].append("no land unit survived to take the territory (aircraft cannot capture)")
    else:
        event["result"] = "destroyed"
    event["survivors"] = {"attacker": count_types(attackers), "defender": count_types(defenders)}
    return [event]
