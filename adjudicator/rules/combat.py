"""Battles on land and at sea (BG-11 … BG-25, BG-39), in the rulebook's order of a combat round.

Before round 1: AA fire at attacking aircraft (land), shore bombardment (amphibious assaults). Each round:
submarines may submerge (the defender's by standing order, the attacker's by its battle order); transports left
alone against armed enemies are destroyed; submarines
whose enemy has no destroyer fire a surprise strike whose casualties are removed at once; everyone else fires
and their casualties fire back; then attackers that the game's rules take out leave the battle
(`MapFacts.leaves_battle`), and the attacker may retreat. Who can hit whom comes from the unit
abilities (`MapFacts.can_hit`), so the same rounds serve a land battle, a sea battle and a mixed one.

Every die comes from the roller under a label built from the battle's facts (`battle:PLACE:rN:attacker`,
`battle:PLACE:rN:defender:surprise`, `aa:PLACE:r1`, `bombard:PLACE`), never from a counter, so the same
battle always draws the same bytes (DESIGN.md dice §3).

Kamikaze strikes come before all of it, as Conduct Combat begins (`kamikaze_strikes`, RULINGS.md "kamikaze"). A game
may add its own strikes as round 1 begins (`MapFacts.opening_strikes`) and keep some attackers from firing in a
round (`MapFacts.holds_fire`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..notation.orders import Bombard, Kamikaze, Retreat, Submerge
from ..state import State, Unit, count_types
from .facts import MapFacts, RuleViolation
from .movement import capture

MAX_ROUNDS = 100


@dataclass
class BattleOrders:
    retreat: Retreat | None = None
    ool: tuple[str, ...] | None = None        # the mover's order of loss for this battle
    submerge: Submerge | None = None          # when the mover's attacking submarines submerge (BG-17)
    bombard: list[Unit] = field(default_factory=list)    # ships firing before round 1 (BG-12)
    held: set[int] = field(default_factory=set)          # the mover's aircraft held aboard damaged carriers: cargo


def order_of_loss(rules: MapFacts, state: State, power: str, role: str, battle_ool: tuple[str, ...] | None) -> list[str]:
    """Unit types in the order they die: the battle's ool, then the power's standing ool, then the default."""
    listed: list[str] = []
    for source in (battle_ool or (), state.standing.get(power, {}).get("ool", ())):
        for name in source:
            if name not in listed:
                listed.append(name)
    rest = sorted((rules.ut(t.name) for t in rules.scenario.unit_types if t.name not in listed),
                  key=lambda t: (t.attack if role == "attacker" else t.defense, t.cost or 0, t.name))
    return listed + [t.name for t in rest]


Hits = list[tuple[int, Callable[[Unit], bool]]]


def assign_hits(rules: MapFacts, units: list[Unit], hits: Hits, ool: list[str], role: str) -> tuple[list[Unit], list[Unit]]:
    """Apply hits to a side: each (count, may_hit) group picks among the units it may hit, the most restricted
    group first. A unit that takes two hits soaks a hit before anything dies; then units die in `ool` order,
    transports last (BG-13, BG-21, BG-22). Returns (damaged, killed)."""
    rank = {name: i for i, name in enumerate(ool)}
    alive = sorted(units, key=lambda u: u.id)
    damaged: list[Unit] = []
    killed: list[Unit] = []
    for count, may_hit in sorted(hits, key=lambda h: sum(1 for u in alive if h[1](u))):
        for _ in range(count):
            targets = [u for u in alive if may_hit(u)]
            if not targets:
                break
            soak = [u for u in targets if u.damage < rules.ut(u).hit_points - 1]
            if soak:
                soak[0].damage += 1
                damaged.append(soak[0])
                continue
            victim = min(targets, key=lambda u: (rules.taken_last(u, role), rank.get(u.type, len(rank)), u.id))
            alive.remove(victim)
            killed.append(victim)
    return damaged, killed


class Battle:
    """One battle in `place`, attacked by `power`; `fight()` plays it out and returns its report event."""

    def __init__(self, rules: MapFacts, state: State, power: str, place: str, roller, orders: BattleOrders):
        self.rules, self.state, self.power, self.place, self.roller = rules, state, power, place, roller
        self.orders = orders
        self.sea = rules.is_water(place)
        self.att = [u for u in state.units_at(place, power) if rules.is_combatant(u) and not u.flags.get("raid")
                    and u.id not in orders.held
                    and (u.flags.get("combat_moved") or rules.prop("Previous Units Fight"))]
        self.dfn = rules.hostile_units(state, power, place)
        self.dead: list[Unit] = []
        self.left: list[Unit] = []        # attackers out of the battle, counted as retreated (leaves_battle)
        self.submerged: list[Unit] = []   # defenders that submerged: still there, but the battle is won without them
        self.att_ool = order_of_loss(rules, state, power, "attacker", orders.ool)
        self.def_ools = {p: order_of_loss(rules, state, p, "defender", None) for p in {u.owner for u in self.dfn}}
        defenders = sorted({u.owner for u in self.dfn}) or ([state.owners[place]] if place in state.owners else [])
        self.event = {"type": "battle", "place": place, "attacker": power, "sea": self.sea, "defenders": defenders,
                      "attacking": count_types(self.att), "defending": count_types(self.dfn), "rounds": [], "notes": []}

    # -- who may hit whom --------------------------------------------------------------------------

    def value(self, unit: Unit, role: str) -> int:
        value = self.rules.battle_value(self.state, unit, role, self.dfn if role == "attacker" else self.att)
        if role == "defender" and self.rules.defends_at_one(self.state, self.power, unit):
            return min(value, 1)
        return value

    def _destroyer(self, side: list[Unit]) -> bool:
        return any(self.rules.is_destroyer(u) for u in side)

    def _may_hit(self, shooter: Unit, side: list[Unit], role: str) -> Callable[[Unit], bool]:
        destroyer = self._destroyer(side)
        return lambda target: (self.rules.can_hit(shooter, target, destroyer)
                               and self.rules.may_target(self.state, shooter, target, role))

    def _threat(self, side: list[Unit], role: str, targets: list[Unit]) -> bool:
        """Can any unit of `side` score against any of `targets`?"""
        destroyer = self._destroyer(side)
        return any(self.value(u, role) > 0 and self.rules.can_hit(u, t, destroyer)
                   and self.rules.may_target(self.state, u, t, role) for u in side for t in targets)

    # -- dice --------------------------------------------------------------------------------------

    def _fire(self, label: str, units: list[Unit], role: str, side: list[Unit],
              value: Callable[[Unit], int] | None = None) -> tuple[dict | None, Hits]:
        """One side's dice: the roll for the report, and its hits grouped by what they may hit. `value`: what each
        unit fires at, where it is not its value in its role (shore bombardment)."""
        shooters = self.shooters(units, role, value)
        if not shooters:
            return None, []
        counts = [n for _, _, n in shooters]
        shooters = [(u, v) for u, v, _ in shooters]
        names = [f"{u.type}@{v}" + (f" best of {n}" if n > 1 else "") for (u, v), n in zip(shooters, counts)
                 for _ in range(n)]
        sides = self.rules.scenario.dice_sides
        values = self.roller.roll(label, sides, len(names), units=names)
        groups: dict[tuple[bool, bool, bool], list] = {}
        at = 0
        for (u, v), n in zip(shooters, counts):
            d = min(values[at:at + n])
            at += n
            if d <= v:
                groups.setdefault(self.hit_group(u), [0, self._may_hit(u, side, role)])[0] += 1
        hits = [(n, f) for n, f in groups.values()]
        return {"label": label, "sides": sides, "values": values, "units": names,
                "hits": sum(n for n, _ in hits)}, hits

    def shooters(self, units: list[Unit], role: str, value: Callable[[Unit], int] | None = None
                 ) -> list[tuple[Unit, int, int]]:
        """Who fires, in the order their dice are rolled: (unit, the number it hits on with its support, how many
        dice it rolls keeping the best: MapFacts.battle_dice). Battle odds read the same list (adjudicator.odds)."""
        bonus = support(self.rules, units, role, self.state)
        value = value or (lambda u: self.value(u, role))
        shooters = sorted(((u, value(u) + bonus.get(u.id, 0)) for u in units), key=lambda x: (x[0].type, x[0].id))
        sides = self.rules.scenario.dice_sides
        return [(u, min(v, sides), max(1, self.rules.battle_dice(self.state, u, role))) for u, v in shooters if v > 0]

    def hit_group(self, shooter: Unit) -> tuple[bool, bool, bool]:
        """Hits are pooled by the kind of unit that scored them, since a submarine's or an aircraft's may fall on
        fewer targets (BG-18)."""
        return self.rules.is_sub(shooter), self.rules.is_air(shooter), self.rules.is_transport(shooter)

    def _defender_losses(self, hits: Hits, among: list[Unit]) -> tuple[list[Unit], list[Unit]]:
        """Defenders of several powers lose in the order of the power with most units there (ties by name)."""
        if not among or not hits:
            return [], []
        return assign_hits(self.rules, among, hits, self.defender_ool(among), "defender")

    def defender_ool(self, among: list[Unit]) -> list[str]:
        """The order of loss the defenders `among` take hits by: that of the power with most units there."""
        counts: dict[str, int] = {}
        for u in among:
            counts[u.owner] = counts.get(u.owner, 0) + 1
        return self.def_ools[sorted(counts, key=lambda p: (-counts[p], p))[0]]

    def _remove(self, units: list[Unit]) -> None:
        gone = {u.id for u in units}
        self.att = [u for u in self.att if u.id not in gone]
        self.dfn = [u for u in self.dfn if u.id not in gone]
        self.dead += units

    # -- the battle --------------------------------------------------------------------------------

    def fight(self) -> dict:
        ev = self.event
        if not self.sea and self.dfn:
            self._aa_fire()
        pending = self._bombard() if self.dfn else []
        if not self.sea and self.dfn:
            strikes, marked = self.rules.opening_strikes(self.state, self.power, self.place, self.dfn, self.roller)
            if strikes:
                ev["strikes"] = strikes
            pending += [u for u in marked if u not in pending]
        rnd = 0
        retreat = self.orders.retreat
        while self.att and self.dfn and rnd < MAX_ROUNDS:
            rnd += 1
            rec: dict = {"round": rnd}
            self._submerge(rec)
            self._unescorted(rec)
            if not (self.att and self.dfn):
                ev["rounds"].append(rec)
                break
            if not (self._threat(self.att, "attacker", self.dfn) or self._threat(self.dfn, "defender", self.att)):
                ev["notes"].append("neither side can hit the other: the battle ends")
                ev["stalemate"] = True
                if len(rec) > 1:
                    ev["rounds"].append(rec)
                break
            fired = self._surprise(rnd, rec)
            held = [u for u in self.att if self.rules.holds_fire(u, rnd)]
            if held:
                rec["held_fire"] = count_types(held)
            a, a_hits = self._fire(f"battle:{self.place}:r{rnd}:attacker",
                                   [u for u in self.att if u not in fired and u not in held], "attacker", self.att)
            d, d_hits = self._fire(f"battle:{self.place}:r{rnd}:defender", [u for u in self.dfn if u not in fired],
                                   "defender", self.dfn)
            alive_def = [u for u in self.dfn if u not in pending]
            a_dmg, a_dead = assign_hits(self.rules, self.att, d_hits, self.att_ool, "attacker")
            d_dmg, d_dead = self._defender_losses(a_hits, alive_def)
            d_dead = pending + d_dead
            pending = []
            self._remove(a_dead + d_dead)
            rec.update({"attacker": a, "defender": d, "attacker_losses": count_types(a_dead),
                        "defender_losses": count_types(d_dead), "attacker_damaged": _hurt(a_dmg, a_dead),
                        "defender_damaged": _hurt(d_dmg, d_dead)})
            self._unescorted(rec)
            ev["rounds"].append(rec)
            if self.att and self.dfn:
                self._leave(rec, rnd)
            if self.att and self.dfn and retreat and self._retreats(retreat, rnd):
                retreat = None          # units landed from the sea fight on alone (BG-11)
        if pending:                     # the bombardment was all the fighting there was
            self._remove(pending)
        return self._outcome()

    def _surprise(self, rnd: int, rec: dict) -> list[Unit]:
        """BG-16, BG-20: submarines fire first unless the enemy has a destroyer; their hits are removed before
        anyone else fires. Both sides' surprise strikes are simultaneous. Returns the units that fired."""
        rules = self.rules
        a_first = [u for u in self.att if rules.first_strike(u) and not self._destroyer(self.dfn)]
        d_first = [u for u in self.dfn if rules.first_strike(u) and not self._destroyer(self.att)
                   and rules.prop("Defending Subs Sneak Attack")]
        if not (a_first or d_first):
            return []
        a, a_hits = self._fire(f"battle:{self.place}:r{rnd}:attacker:surprise", a_first, "attacker", self.att) if a_first else (None, [])
        d, d_hits = self._fire(f"battle:{self.place}:r{rnd}:defender:surprise", d_first, "defender", self.dfn) if d_first else (None, [])
        a_dmg, a_dead = assign_hits(rules, self.att, d_hits, self.att_ool, "attacker")
        d_dmg, d_dead = self._defender_losses(a_hits, self.dfn)
        self._remove(a_dead + d_dead)
        rec["surprise"] = {"attacker": a, "defender": d, "attacker_losses": count_types(a_dead),
                           "defender_losses": count_types(d_dead), "attacker_damaged": _hurt(a_dmg, a_dead),
                           "defender_damaged": _hurt(d_dmg, d_dead)}
        return a_first + d_first

    def _submerge(self, rec: dict) -> None:
        """BG-17, at the start of a round: defending submarines submerge when their owner's standing order says so
        (RULINGS.md "submerge-default"), attacking ones when the mover's `submerge PLACE` order says so
        (RULINGS.md "attacking-submarines-submerge"), each side only where no enemy destroyer is present. They
        stay in the sea zone, out of the battle; the other units fight on."""
        if not self.sea or (rec["round"] == 1 and not self.rules.subs_submerge_before_battle()):
            return
        if not self._stops_submerging(self.att):
            going = [u for u in self.dfn if self.rules.can_submerge(u, defending=True)
                     and self.state.standing.get(u.owner, {}).get("submerge")]
            if going:
                self.dfn = [u for u in self.dfn if u not in going]
                self.submerged += going
                rec["submerged"] = {"defender": count_types(going), "why": "standing order `submerge always`"}
        order = self.orders.submerge
        if order is None or rec["round"] <= (order.after_round if order.after_round is not None else 1):
            return
        if order.if_attackers_below is not None and len(self.att) >= order.if_attackers_below:
            return
        subs = [u for u in self.att if self.rules.can_submerge(u)]
        if not subs:
            return
        if self._stops_submerging(self.dfn):
            if not self.event.get("submerge_blocked"):
                self.event["submerge_blocked"] = True
                self.event["notes"].append(f"`{order.canonical()}`: the attacking submarines cannot submerge while "
                                           "an enemy destroyer is in the battle (BG-17); they fight on")
            return
        self.att = [u for u in self.att if u not in subs]
        self.left += subs
        self.orders.submerge = None
        rec.setdefault("submerged", {})["attacker"] = count_types(subs)
        rec["submerged"]["attacker_why"] = f"order `{order.canonical()}`"
        if not self.att:
            self.event["attack_submerged"] = True

    def _stops_submerging(self, side: list[Unit]) -> bool:
        """BG-17: an enemy destroyer keeps submarines from submerging, where the family's rulebook says so (the
        classic rulebooks do not: MapFacts.destroyer_stops_submerging)."""
        return self.rules.destroyer_stops_submerging and self._destroyer(side)

    def _leave(self, rec: dict, rnd: int) -> None:
        """Attackers the game takes out of the battle after this round (MapFacts.leaves_battle), by reason."""
        going: dict[str, list[Unit]] = {}
        for u in self.att:
            why = self.rules.leaves_battle(u, rnd)
            if why:
                going.setdefault(why, []).append(u)
        for why, units in going.items():
            self.att = [u for u in self.att if u not in units]
            self.left += units
            rec.setdefault("left", []).append({"units": count_types(units), "why": why})

    def _unescorted(self, rec: dict) -> None:
        """BG-13: a side reduced to transports facing enemies that can hit them loses them without a roll."""
        for role, side, other, other_role in (("attacker", self.att, self.dfn, "defender"),
                                             ("defender", self.dfn, self.att, "attacker")):
            killers = [u for u in other if self.rules.destroys_defenceless(u, other_role)]
            if (side and all(self.rules.defenceless(u, role) and self.value(u, role) == 0 for u in side)
                    and self._threat(killers, other_role, side)):
                self._remove(list(side))
                rec.setdefault("defenceless", {})[role] = count_types(side)

    def _aa_fire(self) -> None:
        """BG-25, CL-02: before round 1 the defenders' AA guns fire one shot per attacking aircraft, hitting on the
        map's attackAA (1), at most maxAAattacks shots a gun where the map sets one (G40: 3; TripleA's default: no
        limit). A gun that is infrastructure (the classic maps' isAA) fires too, though it cannot be hit."""
        aimed = self.aa_shots()
        if aimed is None:
            return
        aim, names, air = aimed
        label = f"aa:{self.place}:r1"
        sides = self.rules.scenario.dice_sides
        values = self.roller.roll(label, sides, len(aim), units=names)
        hits = sum(1 for d, v in zip(values, aim) if d <= v)
        targets = {u.id for u in air}
        _, killed = assign_hits(self.rules, self.att, [(hits, lambda u: u.id in targets)], self.att_ool, "attacker")
        self._remove(killed)
        self.event["aa"] = {"label": label, "sides": sides, "values": values, "units": names, "hits": hits,
                            "losses": count_types(killed)}

    def aa_shots(self) -> tuple[list[int], list[str], list[Unit]] | None:
        """The AA fire before round 1: what each shot hits on, its name in the roll, and the aircraft it may hit;
        None when no gun fires."""
        rules = self.rules
        guns = [u for u in self.state.units_at(self.place) if rules.ut(u).has("aa") and u.carried_by is None
                and rules.fights(self.state, self.power, u.owner)]
        if not guns:
            return None
        targets_of = []
        for g in guns:
            opt = rules.ut(g).options.get("targetsAA")
            targets_of.append(set(opt[0].split(":")) if opt else None)
        air = [u for u in self.att if rules.is_air(u) and any(t is None or u.type in t for t in targets_of)]
        if not air:
            return None
        limits = [rules.number(g, "maxAAattacks", -1) for g in guns]
        shots = len(air) if -1 in limits else min(len(air), sum(limits))
        hit_on = [rules.aa_value(self.state, g) for g in guns]
        if len(set(hit_on)) == 1:
            aim = [hit_on[0]] * shots
            names = [f"{guns[0].type}@{hit_on[0]}"] * shots
        else:       # guns that hit on different numbers (a game's Radar): the best guns fire first
            aim, names = [], []
            for g, v, most in sorted(zip(guns, hit_on, limits), key=lambda x: (-x[1], x[0].id)):
                n = shots - len(aim) if most < 0 else min(most, shots - len(aim))
                aim += [v] * n
                names += [f"{g.type}@{v}"] * n
        return aim, names, air

    def _bombard(self) -> list[Unit]:
        """BG-12: the ships supporting an amphibious assault fire once before round 1. Their casualties are
        removed at the end of round 1, firing back first, where the map says so; otherwise at once."""
        ships = self.orders.bombard
        if not ships:
            return []
        grp, hits = self._fire(f"bombard:{self.place}", ships, "attacker", ships, self.rules.bombard_value)
        if grp is None:
            return []
        _, killed = self._defender_losses(hits, self.dfn)
        grp["losses"] = count_types(killed)
        self.event["bombard"] = grp
        for s in ships:
            s.mark(fought=True)
        if self.rules.prop("Naval Bombard Casualties Return Fire"):
            return killed
        self._remove(killed)
        return []

    def _retreats(self, order: Retreat, rnd: int) -> bool:
        """BG-23: the standing retreat order of this battle, checked at the end of each round. At sea the ships
        go; on land the land units, and units that came ashore from transports stay (BG-11). Aircraft stay
        and land in non-combat."""
        if rnd < (order.after_round or 1):
            return False
        if order.if_attackers_below is not None and len(self.att) >= order.if_attackers_below:
            return False
        rules, state, ev = self.rules, self.state, self.event
        if not retreat_open(rules, state, self.power, order.to, self.sea):
            ev["notes"].append(f"retreat to {order.to} void: it is no longer friendly")
            return False
        why = {u.id: rules.kept_in_battle(u) for u in self.att}
        stuck = [u for u in self.att if why[u.id]]
        if stuck and not rules.prop("Partial Amphibious Retreat"):
            return self._planes_retreat(rnd, sorted({why[u.id] for u in stuck}))
        domain = "sea" if self.sea else "land"
        going = [u for u in self.att if rules.ut(u).domain == domain and u not in stuck]
        for u in going:
            u.place = order.to
            for cargo in state.cargo_of(u):
                cargo.place = order.to
        for u in self.att:
            u.mark(fought=True)
        ev["retreat"] = {"to": order.to, "after_round": rnd, "units": count_types(going),
                         "stay": count_types(stuck)}
        self.att = stuck
        return True

    def _planes_retreat(self, rnd: int, why: list[str]) -> bool:
        """An amphibious assault where only aircraft may retreat ("Attacker Retreat Planes" on, "Partial Amphibious
        Retreat" off: CL-30, TripleA's canAttackerRetreatPlanes): the aircraft leave the battle and land in the
        non-combat move; every land unit fights on. Without aircraft, or without the switch, the retreat is void."""
        planes = [u for u in self.att if self.rules.is_air(u)] if self.rules.prop("Attacker Retreat Planes") else []
        if not planes:
            self.event["notes"].append(f"retreat void: units that {' or '.join(why)} are in this battle")
            return False
        self.att = [u for u in self.att if u not in planes]
        self.left += planes
        for u in planes:
            u.mark(fought=True)
        self.event["aircraft_retreat"] = {"after_round": rnd, "units": count_types(planes)}
        return True

    def _outcome(self) -> dict:
        rules, state, ev = self.rules, self.state, self.event
        lost_cargo = [c for u in self.dead for c in state.cargo_of(u)]
        if lost_cargo:
            ev["notes"].append(f"lost aboard sunk transports: {', '.join(f'{n} {t}' for t, n in count_types(lost_cargo).items())}")
        state.remove_units(u.id for u in self.dead + lost_cargo)
        for u in self.att + self.left:
            u.mark(fought=True)
        if ev.get("stalemate") and self.dfn:
            ev["result"] = "stalemate"
        elif ev.get("attack_submerged"):
            ev["result"] = "submerged"
        elif self.dfn:
            ev["result"] = "retreated" if "retreat" in ev else "defended"
        elif self.sea and self.att:
            ev["result"] = "cleared"
            if rules.takes_sea_zone(state, self.power, self.place, self.att, self.submerged):
                ev["capture"] = capture(rules, state, self.power, self.place)       # CL-15: a convoy zone
        elif any(rules.can_capture(u) for u in self.att):
            ev["result"] = "captured"
            if rules.is_hostile_land(state, self.power, self.place):
                ev["capture"] = capture(rules, state, self.power, self.place)
        elif "retreat" in ev:
            ev["result"] = "retreated"
        elif self.att:
            ev["result"] = "cleared"
            ev["notes"].append("no land unit survived to take the territory (aircraft cannot capture)")
        else:
            ev["result"] = "destroyed"
        ev["survivors"] = {"attacker": count_types(self.att), "defender": count_types(self.dfn)}
        if self.left:
            ev["survivors"]["left"] = count_types(self.left)
        return ev


def _hurt(damaged: list[Unit], dead: list[Unit]) -> dict[str, int]:
    """Units damaged in an exchange that are still afloat after it."""
    return count_types(u for u in damaged if u not in dead)


def retreat_open(rules: MapFacts, state: State, power: str, to: str, sea: bool) -> bool:
    """BG-23: attackers retreat to friendly land, or at sea to a zone with no enemy units."""
    if sea:
        return rules.is_water(to) and not rules.hostile_units(state, power, to)
    return rules.is_friendly_land(state, power, to) and not rules.hostile_units(state, power, to)


def support(rules: MapFacts, side: list[Unit], role: str, state: State | None = None) -> dict[int, int]:
    """Bonus per unit id from support attachments (BG-24): each provider lifts up to `number` targets once per bonus type."""
    bonus: dict[int, int] = {}
    used_types: dict[int, set[str]] = {}
    for sup in rules.supports():
        if sup.faction != "allied" or not (sup.offence if role == "attacker" else sup.defence):
            continue
        providers = [u for u in side if u.type == sup.provider and u.owner in sup.players]
        slots = sum(rules.support_number(state, sup, p) for p in providers)
        for u in sorted(side, key=lambda u: u.id):
            if slots == 0:
                break
            kind = sup.bonus_type or sup.name
            if u.type in sup.targets and kind not in used_types.setdefault(u.id, set()):
                used_types[u.id].add(kind)
                bonus[u.id] = bonus.get(u.id, 0) + sup.bonus
                slots -= 1
    return bonus


def resolve_battle(rules: MapFacts, state: State, power: str, place: str, roller, orders: BattleOrders) -> list[dict]:
    """Fight the battle in `place`; returns its report event (with the capture, if any, inside it)."""
    return [Battle(rules, state, power, place, roller, orders).fight()]


# -- kamikaze strikes (RULINGS.md "kamikaze") ------------------------------------------------------------------

KAMIKAZE = "kamikaze"       # the RULINGS.md entry refusals and events cite


def kamikaze_target(rules: MapFacts, unit_type: str) -> bool:
    """A surface warship: a ship that is neither a submarine nor a transport (TripleA's targets by default)."""
    t = rules.ut(unit_type)
    return t.domain == "sea" and not rules.is_sub(unit_type) and not rules.is_transport(unit_type)


def check_kamikaze(rules: MapFacts, power: str, order: Kamikaze) -> None:
    """What a standing kamikaze order must be to be honoured at all; refused at submit otherwise."""
    if order.none:
        return
    zones = rules.kamikaze_zones()
    if not zones:
        raise RuleViolation("this game has no kamikaze strikes: its map marks no kamikaze zones (or its \"Use Kamikaze "
                            "Suicide Attacks\" is off)", KAMIKAZE)
    if order.zone not in zones:
        raise RuleViolation(f"kamikaze strikes are made only in the kamikaze zones ({', '.join(zones)}); "
                            f"{order.zone} is not one", KAMIKAZE)
    if rules.suicide_attack(power) is None:
        raise RuleViolation(f"{power} have no kamikaze tokens in this game", KAMIKAZE)
    striker = rules.scenario.territory(order.zone).original_owner
    if not rules.prop("Kamikaze Suicide Attacks Done By Current Territory Owner") and striker != power:
        raise RuleViolation(f"the kamikaze strikes of {order.zone} belong to {striker}, not to {power}", KAMIKAZE)
    wrong = [t for t in order.targets if not kamikaze_target(rules, t)]
    if wrong:
        raise RuleViolation(f"kamikaze strikes hit surface warships only, not {', '.join(wrong)}: list battleships, "
                            "carriers, cruisers or destroyers", KAMIKAZE)


def _struck(rules: MapFacts, state: State, power: str, zone: str) -> bool:
    """Where strikes may be made this turn: the mover fights `power`'s units in `zone` or lands troops from it
    (only where the map says "Kamikaze Suicide Attacks Only Where Battles Are"; elsewhere, any zone)."""
    if not rules.prop("Kamikaze Suicide Attacks Only Where Battles Are"):
        return True
    return any((b.get("kind") == "sea" and b["place"] == zone and bool(state.units_at(zone, power)))
               or (b.get("kind", "land") == "land" and zone in b.get("amphibious", [])) for b in state.battles)


def _kamikaze_targets(rules: MapFacts, state: State, mover: str, zone: str, types: list[str]) -> list[Unit]:
    """The mover's surface warships in `zone` a strike may pick, best first: the order's types in its order (only
    those, if it lists any), else the costliest first; a damaged ship (which one hit sinks) before a sound one."""
    ships = [u for u in state.units_at(zone, mover) if kamikaze_target(rules, u.type) and u.carried_by is None]
    if types:
        rank = {t: i for i, t in enumerate(types)}
        return sorted((u for u in ships if u.type in rank), key=lambda u: (rank[u.type], -u.damage, u.id))
    return sorted(ships, key=lambda u: (-(rules.ut(u).cost or 0), -u.damage, u.type, u.id))


def kamikaze_strikes(rules: MapFacts, state: State, mover: str, roller) -> list[dict]:
    """As Conduct Combat begins: each enemy of the mover with a standing kamikaze order for a zone where the mover
    fights or lands from strikes there, one token and one die per target ship, hitting at the token's attack
    value; hits are taken at once (a two-hit ship is damaged, else sunk), and the mover's ships there no longer
    bombard. Dice group `kamikaze:ZONE`."""
    zones = rules.kamikaze_zones()
    events: list[dict] = []
    if not zones:
        return events
    for power in rules.scenario.turn_players():
        found = rules.suicide_attack(power)
        if found is None or not rules.fights(state, power, mover):
            continue
        for order in state.standing.get(power, {}).get("kamikaze", []):
            zone = order["zone"]
            if (zone not in zones or rules.kamikaze_striker(state, zone) != power
                    or not _struck(rules, state, power, zone)):
                continue
            targets = _kamikaze_targets(rules, state, mover, zone, order.get("targets") or [])
            if not targets:
                continue
            why = Kamikaze(zone=zone, max=order.get("max"), targets=tuple(order.get("targets") or ())).canonical()
            left = rules.kamikaze_tokens(state, power)
            n = min(len(targets), left, len(targets) if order.get("max") is None else order["max"])
            event = {"type": "kamikaze", "power": power, "attacker": mover, "place": zone, "attack": found[1],
                     "why": f"standing order `{why}`", "strikes": [], "lost": {}}
            if n <= 0:
                events.append({**event, "tokens_left": left, "note": "no tokens left" if not left else "max 0"})
                continue
            label = f"kamikaze:{zone}"
            values = roller.roll(label, rules.scenario.dice_sides, n, units=[f"kamikaze@{found[1]}"] * n)
            state.spent[f"kamikaze:{power}"] = state.spent.get(f"kamikaze:{power}", 0) + n
            sunk = []
            for ship, die in zip(targets, values):
                result = "missed"
                if die <= found[1]:
                    if ship.damage < rules.ut(ship).hit_points - 1:
                        ship.damage += 1
                        result = "damaged"
                    else:
                        sunk.append(ship)
                        result = "sunk"
                event["strikes"].append({"unit": ship.type, "die": die, "result": result})
            lost = [c for u in sunk for c in state.cargo_of(u)]
            state.remove_units(u.id for u in sunk + lost)
            for u in state.units_at(zone, mover):
                if rules.ut(u).has("can_bombard"):
                    u.mark(fought=True)          # a zone struck by kamikaze is a sea battle: no shore bombardment
            event.update(label=label, tokens_left=rules.kamikaze_tokens(state, power), lost=count_types(lost))
            events.append(event)
    return events


# -- shore bombardment (BG-12) ----------------------------------------------------------------------------

def order_bombardment(rules: MapFacts, state: State, power: str, order: Bombard) -> dict:
    """A `bombard` order, read once every combat move is made: it names the ships of the mover in a sea zone an
    amphibious assault lands from that bombard it, moved there or not (`bombard none`: none of them does), in
    place of the default (RULINGS.md "shore-bombardment"). Named ships stay where they are for the rest of the
    turn. Raises RuleViolation where it cannot be carried out."""
    zone, target = order.sea_zone, order.target
    if not rules.is_water(zone):
        raise RuleViolation(f"ships bombard from the sea zone the troops land from; {zone} is land: write "
                            "`bombard UNITS SEAZONE > TERRITORY`", "BG-12")
    battle = next((b for b in state.battles if b["place"] == target and b.get("kind", "land") == "land"), None)
    if battle is None or zone not in battle.get("amphibious", []):
        raise RuleViolation(f"no amphibious assault lands in {target} from {zone} this turn: ships bombard only a "
                            "territory that the combat moves land troops in from their sea zone", "BG-12")
    if any(b["place"] == zone and b.get("kind") == "sea" for b in state.battles):
        raise RuleViolation(f"a sea battle is fought in {zone} this turn: ships in a zone with a sea battle do not "
                            "bombard", "BG-12")
    decided = battle.get("bombard_from", {})
    choice = "ships" if order.units else "none"
    if decided.get(zone, choice) != choice:
        raise RuleViolation(f"`bombard none {zone} > {target}` and a bombard order naming ships there contradict "
                            "each other: keep one", "BG-12")
    chosen: list[Unit] = []
    for uc in order.units:
        if not rules.ut(uc.unit).has("can_bombard"):
            able = ", ".join(t.name for t in rules.scenario.unit_types if t.has("can_bombard")) or "none"
            raise RuleViolation(f"a {uc.unit} cannot bombard; the units of this game that can: {able}", "BG-12")
        taken = {u.id for u in chosen}
        free = sorted((u for u in state.units_at(zone, power) if u.type == uc.unit and u.id not in taken
                       and not u.flags.get("bombard")), key=lambda u: (not u.flags.get("combat_moved"), u.id))
        if len(free) < uc.count:
            raise RuleViolation(f"{power} has {len(free)} {uc.unit} in {zone} not yet named to bombard, not "
                                f"{uc.count}", "BG-12")
        chosen += free[:uc.count]
    if chosen and rules.prop("Shore Bombard Per Ground Unit Restricted"):
        named = len(chosen) + sum(1 for u in state.units if u.owner == power and u.flags.get("bombard") == target)
        landing = sum(1 for u in state.units if u.owner == power and u.flags.get("landing") == target)
        if named > landing:
            raise RuleViolation(f"{named} ships would bombard {target}, where {landing} land units land: no more "
                                "ships bombard than land units land (the map's \"Shore Bombard Per Ground Unit "
                                "Restricted\")", "BG-12")
    battle.setdefault("bombard_from", {})[zone] = choice
    for u in chosen:
        u.mark(bombard=target)
    return {"type": "bombard_order", "power": power, "from": zone, "place": target, "order": order.canonical(),
            "units": count_types(chosen)}


def bombarding(rules: MapFacts, state: State, power: str, battle: dict) -> tuple[list[Unit], list[str]]:
    """BG-12: the ships that bombard the amphibious assault `battle`, and notes on named ships that do not. In a
    zone with a `bombard` order, the ships it named; in the others, by default, the cruisers and battleships
    moved there in the combat move. Ships that fought a sea battle do not bombard; where the map allows one ship
    per land unit landed, the named ships go first, then the strongest."""
    place = battle["place"]
    decided = battle.get("bombard_from", {})
    def strongest(u: Unit) -> tuple[int, int]:
        return -rules.ut(u).attack, u.id

    named: list[Unit] = []
    default: list[Unit] = []
    notes: list[str] = []
    for zone in battle.get("amphibious", []):
        for u in state.units_at(zone, power):
            if u.flags.get("bombard") == place:
                if u.flags.get("fought"):
                    notes.append(f"the {u.type} in {zone} fought a sea battle and does not bombard [BG-12]")
                else:
                    named.append(u)
            elif (zone not in decided and rules.ut(u).has("can_bombard") and u.flags.get("combat_moved")
                  and not u.flags.get("fought") and not u.flags.get("bombard")):
                default.append(u)
    ships = sorted(named, key=strongest) + sorted(default, key=strongest)
    if rules.prop("Shore Bombard Per Ground Unit Restricted"):
        landed = sum(1 for u in state.units_at(place, power) if u.flags.get("amphibious"))
        ids = {u.id for u in named}
        held = count_types(u for u in ships[landed:] if u.id in ids)
        if held:
            notes.append(f"{', '.join(f'{n} {t}' for t, n in held.items())} named to bombard held back: one ship "
                         f"fires per land unit landed, and {landed} came ashore [BG-12]")
        ships = ships[:landed]
    return ships, notes
