"""Random *legal* turns on the real maps (issue 26, item 1): the G40 maps, the classic family's europe_improved and
pacific, and the Expanded Global Scenario made from the G40 2nd-edition map (MAPS); the generator behind
tests/test_random_legal_games.py (a short seeded run in CI) and benchmarks/random_legal_games.py (the long run).

For the power to move, `turn_lines` reads the position (the engine's own State, rules and scenario) and writes a
whole turn as a player would, in the phases the map's sequence gives it (no declaration of war where there is no
politics step; a purchase for a power that buys inside another's turn, as the Australians in the British turn; the
units its turn's start gives it placed, as China's infantry): a purchase and repairs (within the rules'
`peacetime_limit`, where they have one), the game's own Agenda steps where its verbs exist (Influence taken and
markers bought on a neutral, an alliance offered), now and then a declaration of war, attacks only on those the
rules allow combat with (`combat_allowed`, where they part war and combat) or, now and then, a deliberate Surprise
Attack, amphibious assaults (troops boarding from the coast, cargo already aboard, transports sailing first, two
landings from one sea zone), sea battles, carriers sailing with their aircraft, air attacks with a landing place in
reach, strategic bombing raids with escorts, retreat conditions and orders of loss; then non-combat moves (aircraft
flying home from their battles, troops boarding and unloading, ships and carriers moving on), and placements at the
factories. `standing_lines` writes standing orders (scrambles, orders of loss, submerge, intercept, answers to the
alliance offers addressed to it) for any power; a nation an offer waits on files them before the next turn.

`submit_legal` submits a turn and, when the rules refuse lines, drops them and submits the rest again: what is
accepted is legal by the engine's own check. `play_game` plays whole rounds that way through the library API
(game.new_game, submit, adjudicate, status, audit.audit), counting what was accepted and what the turns did, and
recording every internal error: any exception but a rejected submission, with its seed, power, orders and
traceback. A few power-turns may go through the CLI instead (`cli_turns`), where exit code 3 is the internal error.
"""

from __future__ import annotations

import json
import random
import re
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.errors import SubmissionRejected
from adjudicator.game import adjudicate, new_game, open_game, status, submit
from adjudicator.rules import air
from adjudicator.rules.economy import factory_capacity, price_list
from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.movement import allowances
from adjudicator.store.db import open_existing, rows, transaction

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
G40_AU = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"
EUROPE = "europe_improved/map/games/europe_improved.xml"
PACIFIC = "pacific/map/games/pacific.xml"
# what a run plays, by name: the game (`--game`) and its map's XML in triplea/; a G40 entry's name is its game, as
# before the classic entries came, so that its seeds play what they played
MAPS = {"g40": ("g40", G40_2E), "g40-alt-universe": ("g40-alt-universe", G40_AU),
        "classic-europe": ("classic", EUROPE), "classic-pacific": ("classic", PACIFIC),
        "expanded-global": ("expanded-global", G40_2E), "apone-europe": ("apone-europe", EUROPE)}


def units_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in counts.items() if n)


def path_text(path: list[str]) -> str:
    return " > ".join(path)


class Position:
    """The position of the power to move, read for writing orders: its units by place with the movement they
    have left, and the paths its land, sea and air units may take."""

    def __init__(self, g, rng: random.Random):
        self.rng = rng
        self.state = g.state
        self.rules = g.rules
        self.scenario = g.scenario
        self.power = g.state.power
        st, rules, power = self.state, self.rules, self.power
        self.enemies = set(rules.enemies_of(st, power))
        self.players = set(self.scenario.turn_players())
        mine = [u for u in st.units if u.owner == power]
        self.left = {uid: n - st.unit(uid).moved for uid, n in allowances(rules, st, mine).items()}
        self.used: set[int] = set()               # units given an order this turn
        self.mine = [u for u in st.units if u.owner == power]
        # whom the power may fight: where a game lets war and combat part (a war declared this round: the Expanded
        # Global's EG-65), its rules say so (`combat_allowed`); now and then one nation it may not fight yet is
        # attacked all the same, a deliberate Surprise Attack (EG-66)
        allowed = getattr(rules, "combat_allowed", None)
        self.fights = None if allowed is None else {p for p in self.enemies if allowed(st, power, p)}
        self.surprise = None
        if allowed is not None and rng.random() < 0.05:
            victims = sorted(p for p in self.players - {power} - self.fights if not rules.friendly(st, power, p))
            self.surprise = rng.choice(victims) if victims else None
        self._landing: dict[tuple[str, bool], int] = {}
        self._spots: set[str] | None = None

    def landing_distance(self, place: str, deck: bool) -> int:
        """Steps from `place` to where an aircraft may land afterwards (the engine's own search: BG-06); `deck`:
        one that lands on carriers, which may also be there by the end of the turn."""
        key = (place, deck)
        if key not in self._landing:
            if deck and self._spots is None:
                self._spots = air.future_carrier_spots(self.rules, self.state, self.power)
            self._landing[key] = air.landing_distance(self.rules, self.state, self.power, place,
                                                      self._spots if deck else None, at_sea=deck)
        return self._landing[key]

    # -- what the units are -------------------------------------------------------------------------------

    def ut(self, u):
        return self.rules.ut(u)

    def water(self, place: str) -> bool:
        return self.rules.is_water(place)

    def movable(self, u, combat: bool) -> bool:
        t = self.ut(u)
        if t.movement == 0 or t.has("marker"):         # facilities never move; the classic AA gun does
            return False
        if u.flags.get("unloaded") or u.flags.get("landing"):
            return False
        return not (combat and t.has("no_combat_move"))

    def free(self, place: str, kinds: tuple[str, ...], combat: bool, need: int = 1, cargo: bool | None = None) -> list:
        """The mover's units at `place` of the domains `kinds`, without orders yet, with `need` movement left;
        `cargo`: only those aboard a transport (True) or only those not aboard (False)."""
        out = []
        for u in self.state.units_at(place, self.power):
            if u.id in self.used or self.ut(u).domain not in kinds or not self.movable(u, combat):
                continue
            if self.left.get(u.id, 0) < need:
                continue
            if cargo is not None and (u.carried_by is not None) != cargo:
                continue
            out.append(u)
        return out

    def pick(self, units: list, most: int | None = None) -> list:
        """A random non-empty part of `units` (all of them, often)."""
        if not units:
            return []
        units = list(units)
        self.rng.shuffle(units)
        n = len(units) if self.rng.random() < 0.4 else self.rng.randint(1, len(units))
        return units[:min(n, most or n)]

    def take(self, units: list) -> dict[str, int]:
        self.used.update(u.id for u in units)
        return dict(Counter(u.type for u in units))

    # -- places -------------------------------------------------------------------------------------------

    def places_with(self, kinds: tuple[str, ...]) -> list[str]:
        return sorted({u.place for u in self.mine if self.ut(u).domain in kinds})

    def hostile(self, place: str) -> bool:
        """Entering `place` starts a battle the power means to fight: against enemies it may fight (all of them
        there), or in the land of its Surprise Attack's victim."""
        rules, st = self.rules, self.state
        if self.surprise and not self.water(place) and rules.owner(st, place) == self.surprise:
            return not rules.impassable(place)
        if not rules.is_attack(st, self.power, place):
            return False
        if self.water(place) and not rules.hostile_units(st, self.power, place):
            return False            # a sea zone an enemy owns is no battle without its units
        if self.fights is None:
            return True
        owners = {u.owner for u in rules.hostile_units(st, self.power, place)}
        if rules.is_hostile_land(st, self.power, place):
            owners.add(rules.owner(st, place))
        return owners <= self.fights

    def friendly_land(self, place: str) -> bool:
        rules, st = self.rules, self.state
        return (not self.water(place) and rules.is_friendly_land(st, self.power, place)
                and not rules.hostile_units(st, self.power, place) and not rules.impassable(place))

    def neighbours(self, place: str) -> list[str]:
        return sorted(self.scenario.neighbours(place))

    def paths(self, start: str, limit: int, step) -> dict[str, list[str]]:
        """Shortest paths from `start` of at most `limit` steps, through places `step(a, b)` allows."""
        found = {start: [start]}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if len(found[here]) - 1 >= limit:
                continue
            for nxt in self.neighbours(here):
                if nxt not in found and step(here, nxt):
                    found[nxt] = found[here] + [nxt]
                    queue.append(nxt)
        return found

    def air_paths(self, start: str, limit: int) -> dict[str, list[str]]:
        rules, st, power = self.rules, self.state, self.power
        return self.paths(start, limit, lambda a, b: rules.air_passable(st, power, b) and not rules.impassable(b)
                          and rules.crossing_closed(st, power, a, b) is None)

    def sea_paths(self, start: str, limit: int, end_anywhere: bool = False) -> dict[str, list[str]]:
        """Sea paths that pass only through zones no enemy warship holds (the last may hold one)."""
        rules, st, power = self.rules, self.state, self.power

        def step(a: str, b: str) -> bool:
            return (self.water(b) and rules.crossing_closed(st, power, a, b) is None and self.canal_open(a, b)
                    and (a == start or not rules.blocks_ships(st, power, a)))
        return self.paths(start, limit, step)

    def canal_open(self, a: str, b: str) -> bool:
        """Ships may pass from `a` to `b`: every canal between them is held by the mover or an ally (BG-07), as for
        ships no canal excepts."""
        try:
            for canal in self.scenario.canals:
                if a in canal.sea_zones and b in canal.sea_zones:
                    self.rules.check_canal(self.state, self.power, canal, a, b)
        except RuleViolation:
            return False
        return True

    def land_paths(self, start: str, limit: int) -> dict[str, list[str]]:
        """Land paths through friendly land, the last step into any land."""
        def step(a: str, b: str) -> bool:
            return not self.water(b) and not self.rules.impassable(b) and (a == start or self.friendly_land(a))
        return self.paths(start, limit, step)


@dataclass
class Plan:
    """The lines of one turn, by phase, and what the non-combat move must still do."""

    buy: list[str] = field(default_factory=list)
    agenda: list[str] = field(default_factory=list)     # a game's steps between purchase and war: Influence, alliances
    politics: list[str] = field(default_factory=list)
    cm: list[str] = field(default_factory=list)
    ncm: list[str] = field(default_factory=list)
    place: list[str] = field(default_factory=list)
    flown: list[tuple[str, str, int, int]] = field(default_factory=list)   # aircraft at a battle: place, type, n, left
    attacked: set[str] = field(default_factory=set)
    passed: set[str] = field(default_factory=set)       # enemy land blitzed through: taken, no battle there

    def lines(self) -> list[str]:
        return self.buy + self.agenda + self.politics + self.cm + self.ncm + self.place + ["end"]


# -- the turn --------------------------------------------------------------------------------------------

def turn_lines(g, rng: random.Random) -> list[str]:
    """A whole random turn for the power to move in the open game `g` (game.Loaded)."""
    pos = Position(g, rng)
    plan = Plan()
    phases = set(g.scenario.phases_of(pos.power)) or {"purchase", "politics", "combat_move", "noncombat_move", "place"}
    bought = _purchase(pos, plan) if "purchase" in phases else {}
    if _phase_of(g.rules, "influence") in phases:
        _influence(pos, plan)
    if _phase_of(g.rules, "ally") in phases:
        _alliance(pos, plan)
    if _phase_of(g.rules, "war") in phases:
        _politics(pos, plan)
    if "combat_move" in phases:
        _sea_battles(pos, plan)
        _amphibious(pos, plan)
        _land_attacks(pos, plan)
        _air_attacks(pos, plan)
        _raids(pos, plan)
        _battle_orders(pos, plan)
    if "noncombat_move" in phases:
        _noncombat(pos, plan)
    if "place" in phases:
        waiting = _given(g)
        waiting.update(bought)
        _placements(pos, plan, dict(waiting))
    return plan.lines()


def _phase_of(rules, word: str) -> str | None:
    """The phase whose order the verb `word` is, if the game has the verb: where its orders go in a turn."""
    found = rules.verbs().get(word)
    return found.phase if found else None


def _given(g) -> Counter:
    """What the power to move has to place before it buys: units bought earlier (the Australians' purchase in the
    British turn) and what its turn's start gives it (China's infantry: CL-16), by the rules' own turn start
    played on a copy of the position."""
    st = g.state
    if st.phase == g.scenario.phases_of(st.power)[0]:
        st = st.copy()
        g.rules.turn_start(st, st.power)
    return Counter(st.purchases.get(st.power, {}))


def _prices(pos: Position, power: str | None = None) -> dict[str, int]:
    return price_list(pos.rules, pos.state, power or pos.power)


def _shop(rng, prices: dict[str, int], money: int, bought: Counter, tries: int, full=lambda: False) -> None:
    """Up to `tries` random units bought into `bought` with `money`, until none is affordable or `full()`."""
    for _ in range(tries):
        if full():
            break
        affordable = [u for u, c in prices.items() if c <= money]
        if not affordable:
            break
        u = rng.choice(affordable)
        bought[u] += 1
        money -= prices[u]


def _purchase(pos: Position, plan: Plan) -> dict[str, int]:
    """Repairs of damaged facilities, then a random purchase of what the power's factories can take; together
    within what the rules let it spend (`peacetime_limit`: the Expanded Global's Peacetime Spending, EG-29)."""
    rng, st = pos.rng, pos.state
    limit = getattr(pos.rules, "peacetime_limit", lambda *_: None)(st, pos.power)
    budget = st.treasury.get(pos.power, 0) if limit is None else min(st.treasury.get(pos.power, 0), limit)
    for u in pos.mine:
        if (u.damage and pos.ut(u).has("can_be_damaged") and not pos.water(u.place) and (budget or limit is None)
                and rng.random() < 0.6):
            n = rng.randint(1, min(u.damage, max(budget, 1)))
            kind = "airfield" if pos.ut(u).has("air_base") else "harbour" if pos.ut(u).has("naval_base") else ""
            plan.buy.append(f"repair {n} {u.place}" + (f" {kind}" if kind else ""))
            budget -= n
    prices = _prices(pos)
    room = sum(factory_capacity(pos.rules, st, pos.power, t) for t in st.owners if st.owners[t] == pos.power)
    coastal = any(factory_capacity(pos.rules, st, pos.power, t) and any(pos.water(n) for n in pos.neighbours(t))
                  for t in st.owners if st.owners[t] == pos.power)
    if rng.random() < 0.15 or not prices:
        return {}
    bought: Counter = Counter()
    spend = int(budget * rng.uniform(0.5, 1.0))
    choices = [u for u in prices if not pos.ut(u).has("marker")
               and (pos.ut(u).domain != "sea" or coastal) and not pos.rules.is_facility(u)]
    facilities = [u for u in prices if pos.rules.is_facility(u) and not pos.ut(u).has("marker")]
    if facilities and rng.random() < 0.08:
        f = rng.choice(facilities)
        if prices[f] <= spend:
            bought[f] += 1
            spend -= prices[f]
    _shop(rng, {u: prices[u] for u in choices}, spend, bought, 40,
          full=lambda: sum(bought.values()) >= room + (1 if rng.random() < 0.1 else 0))
    if bought:
        plan.buy.append(f"buy {units_text(dict(bought))}")
    for guest, phase in pos.scenario.guests_of(pos.power):     # UK_Pacific's purchase in the British turn
        if phase == "purchase" and rng.random() < 0.7:
            guest_prices = {u: c for u, c in _prices(pos, guest).items() if not pos.rules.is_facility(u)}
            theirs: Counter = Counter()
            _shop(rng, guest_prices, st.treasury.get(guest, 0), theirs, 6)
            if theirs:
                plan.buy.append(f"buy {guest} {units_text(dict(theirs))}")
    return dict(bought)


def _influence(pos: Position, plan: Plan) -> None:
    """Now and then Influence taken (`influence`), and markers bought with what is stored on a neutral (EG-49 …
    EG-53): the take played on a copy of the position says how much there will be."""
    from adjudicator.games.expanded_global import influence
    rng, rules, st = pos.rng, pos.rules, pos.state
    pool = st.spent.get(influence.POOL.format(pos.power), 0)
    if rng.random() < 0.5:
        plan.agenda.append("influence")
        pool = influence.take(rules, st.copy(), pos.power)["stored"]
    neutrals = sorted(t for t in st.owners if influence.is_neutral(rules, st, t) and not rules.impassable(t))
    if pool >= influence.MARKER_COST and neutrals and rng.random() < 0.6:
        plan.agenda.append(f"influence {rng.randint(1, pool // influence.MARKER_COST)} {rng.choice(neutrals)}")


def _alliance(pos: Position, plan: Plan) -> None:
    """Now and then an alliance offered to a nation outside the power's alliance that neither alliance is at war
    with (EG-60)."""
    from adjudicator.games.expanded_global import politics
    rng, rules, st = pos.rng, pos.rules, pos.state
    if rng.random() > 0.15 or _joining(pos):
        return
    mine = politics.bloc(rules, st, pos.power)
    others = sorted(p for p in pos.players - set(mine)
                    if not any(rules.at_war(st, a, b) for a in mine for b in politics.bloc(rules, st, p)))
    if others:
        plan.agenda.append(f"ally {rng.choice(others)}")


def _joining(pos: Position) -> bool:
    """The power has accepted an alliance offer: the alliance may form, and bring its wars, as its Make Alliances
    begins, before its `ally` or `war` is read; it writes neither this turn."""
    answers = pos.state.switches
    return any(answers.get(f"answer:{oid}:{pos.power}") == "accept" for oid in _offers(pos.rules, pos.state))


def _politics(pos: Position, plan: Plan) -> None:
    """Now and then a declaration of war on a power of the other side."""
    rng, rules, st = pos.rng, pos.rules, pos.state
    if rng.random() > (0.08 if st.round == 1 else 0.2):
        return
    if _joining(pos):
        return
    others = sorted(p for p in pos.players - pos.enemies - {pos.power} if not rules.friendly(st, pos.power, p))
    if others:
        target = rng.choice(others)
        plan.politics.append(f"war {target}")
        pos.enemies.add(target)


def _sea_battles(pos: Position, plan: Plan) -> None:
    """Warships (with the carriers' own aircraft, now and then) sail to enemy ships one or two zones away."""
    rng, rules, st = pos.rng, pos.rules, pos.state
    for zone in pos.places_with(("sea",)):
        if not pos.water(zone) or rng.random() < 0.3:
            continue
        ships = [u for u in pos.free(zone, ("sea",), True) if pos.ut(u).attack or pos.ut(u).carrier_capacity]
        if not ships:
            continue
        reach = max(pos.left[u.id] for u in ships)
        targets = [z for z in pos.sea_paths(zone, reach) if z != zone and pos.hostile(z)]
        if not targets:
            continue
        target = rng.choice(targets)
        path = pos.sea_paths(zone, reach)[target]
        subs = [u for u in ships if pos.ut(u).has("sub")]
        chosen = pos.pick(ships) if not subs or rng.random() < 0.5 else subs + pos.pick([u for u in ships if u not in subs])
        group = [u for u in chosen if pos.left[u.id] >= len(path) - 1]
        if not group:
            continue
        counts = pos.take(group)
        if any(pos.ut(u).carrier_capacity for u in group) and rng.random() < 0.6:
            planes = [u for u in pos.free(zone, ("air",), True) if pos.ut(u).carrier_cost]
            counts.update(pos.take(pos.pick(planes)))
        plan.cm.append(f"cm {units_text(counts)} {path_text(path)}")
        plan.attacked.add(target)
        for u in group:
            pos.left[u.id] -= len(path) - 1


def _cargo_fit(pos: Position, room: int, land: list) -> list:
    """Land units from `land` that fit in `room` transport places, a random few."""
    rng = pos.rng
    chosen = []
    for u in sorted(land, key=lambda u: rng.random()):
        cost = pos.ut(u).transport_cost
        if cost and cost <= room:
            chosen.append(u)
            room -= cost
    return chosen


def _amphibious(pos: Position, plan: Plan) -> None:
    """Amphibious assaults: cargo already aboard sails and lands, troops board from the coast and land from the
    transports' zone, or the transports sail first and take the troops aboard there; two landings from one
    zone where two transports are."""
    rng, rules, st = pos.rng, pos.rules, pos.state
    for zone in pos.places_with(("sea",)):
        if not pos.water(zone) or rng.random() < 0.1:
            continue
        boats = sorted((u for u in pos.free(zone, ("sea",), True, need=0) if pos.rules.carries(u)),
                       key=lambda u: (u.moved, u.id))
        landed: set[str] = set()            # a second transport of the zone lands elsewhere if it can
        for boat in boats:
            if boat.id in pos.used or rng.random() < 0.15:
                continue
            cargo = [c for c in st.cargo_of(boat) if c.id not in pos.used and pos.movable(c, True)]
            room = pos.rules.carries(boat) - sum(pos.ut(c).transport_cost for c in st.cargo_of(boat))
            sail = pos.sea_paths(zone, pos.left[boat.id]) if pos.left[boat.id] > 0 else {zone: [zone]}
            if cargo:
                # cargo aboard: sail (or not) and land
                options = [(z, t) for z, p in sail.items() for t in pos.neighbours(z)
                           if not pos.water(t) and pos.hostile(t) and not rules.impassable(t)]
                if not options:
                    continue
                z, target = rng.choice([o for o in options if o[1] not in landed] or options)
                landed.add(target)
                units = pos.take(cargo)
                if z == zone:
                    plan.cm.append(f"cm {units_text(units)} {zone} > {target}")
                else:
                    pos.used.add(boat.id)
                    plan.cm.append(f"cm 1 {boat.type}, {units_text(units)} {path_text(sail[z])} > {target}")
                plan.attacked.add(target)
                continue
            # troops board from the coast: land from this zone, sail with them aboard and land, or sail first and
            # take them aboard where the transport arrives
            home_shores = [c for c in pos.neighbours(zone) if not pos.water(c) and st.owners.get(c) == pos.power
                           and pos.free(c, ("land",), True, cargo=False)]
            ways = []
            for z, path in sail.items():
                targets = [t for t in pos.neighbours(z) if not pos.water(t) and pos.hostile(t) and not rules.impassable(t)]
                if not targets:
                    continue
                if z == zone and home_shores:
                    ways.append(("here", z, targets, home_shores))
                elif home_shores:
                    ways.append(("aboard", z, targets, home_shores))
                shores = [c for c in pos.neighbours(z) if not pos.water(c) and st.owners.get(c) == pos.power
                          and pos.free(c, ("land",), True, cargo=False)]
                if z != zone and shores:
                    ways.append(("there", z, targets, shores))
            if not ways:
                continue
            how, z, targets, shores = rng.choice(ways)
            shore = rng.choice(shores)
            troops = _cargo_fit(pos, room, pos.free(shore, ("land",), True, cargo=False))
            if not troops:
                continue
            target = rng.choice([t for t in targets if t not in landed] or targets)
            landed.add(target)
            units = pos.take(troops)
            if how == "here":
                plan.cm.append(f"cm {units_text(units)} {shore} > {zone} > {target}")
            elif how == "aboard":
                pos.used.add(boat.id)
                plan.cm.append(f"cm {units_text(units)} {shore} > {zone}")
                plan.cm.append(f"cm 1 {boat.type}, {units_text(units)} {path_text(sail[z])} > {target}")
            else:
                pos.used.add(boat.id)
                plan.cm.append(f"cm 1 {boat.type} {path_text(sail[z])}")
                plan.cm.append(f"cm {units_text(units)} {shore} > {z} > {target}")
            plan.attacked.add(target)
            if rng.random() < 0.5 and z != zone:    # an escort, or a ship to bombard
                escorts = [u for u in pos.free(zone, ("sea",), True) if rules.is_warship(u)]
                escort = [u for u in pos.pick(escorts, 2) if pos.left[u.id] >= len(sail[z]) - 1]
                if escort:
                    plan.cm.append(f"cm {units_text(pos.take(escort))} {path_text(sail[z])}")


def _land_attacks(pos: Position, plan: Plan) -> None:
    """Land stacks attack hostile land next door, or two steps away for units that move two."""
    rng, rules = pos.rng, pos.rules
    places = pos.places_with(("land",))
    for place in places + [p for p in places if rng.random() < 0.2]:     # some stacks split to attack twice
        if pos.water(place) or rng.random() < 0.55:
            continue
        force = pos.free(place, ("land",), True)
        if not force:
            continue
        reach = pos.land_paths(place, 2)
        targets = [t for t, p in reach.items()
                   if t != place and len(p) == 2 and pos.hostile(t) and t not in plan.passed]
        far = [t for t, p in reach.items() if len(p) == 3 and pos.hostile(t) and pos.friendly_land(p[1])
               and t not in plan.passed]
        # a blitz: through empty enemy land to the place beyond it
        blitz = [[place, m, t] for m in pos.neighbours(place) if not pos.water(m) and pos.hostile(m)
                 and rules.is_hostile_land(pos.state, pos.power, m) and not rules.hostile_units(pos.state, pos.power, m)
                 for t in pos.neighbours(m) if t != place and not pos.water(t) and pos.hostile(t)]
        fast = [u for u in force if pos.ut(u).has("can_blitz") and pos.left[u.id] >= 2]
        if blitz and fast and rng.random() < 0.3:
            path = rng.choice(blitz)
            plan.cm.append(f"cm {units_text(pos.take(pos.pick(fast)))} {path_text(path)}")
            plan.attacked.update(path[1:])
            plan.passed.add(path[1])
            continue
        if far and rng.random() < 0.25:
            target = rng.choice(far)
            force = [u for u in force if pos.left[u.id] >= 2]
        elif targets:
            target = rng.choice(targets)
        else:
            continue
        group = pos.pick(force)
        if not any(pos.ut(u).attack for u in group):
            continue
        plan.cm.append(f"cm {units_text(pos.take(group))} {path_text(reach[target])}")
        plan.attacked.add(target)


def _air_group(pos: Position, place: str, kinds=None, combat: bool = True) -> list:
    return [u for u in pos.free(place, ("air",), combat) if kinds is None or kinds(u)]


def _air_attacks(pos: Position, plan: Plan) -> None:
    """Aircraft join the turn's battles (or attack on their own) where they can still land afterwards."""
    rng = pos.rng
    for place in pos.places_with(("air",)):
        if rng.random() < 0.4:
            continue
        planes = _air_group(pos, place)
        if not planes:
            continue
        reach = max(pos.left[u.id] for u in planes)
        paths = pos.air_paths(place, reach)
        targets = [t for t in paths if t != place and (t in plan.attacked or pos.hostile(t)) and t not in plan.passed]
        joined = [t for t in targets if t in plan.attacked]
        if not targets:
            continue
        target = rng.choice(joined if joined and rng.random() < 0.7 else targets)
        path = paths[target]
        group = []
        for u in pos.pick(planes):
            deck = bool(pos.ut(u).carrier_cost)
            after = pos.left[u.id] - (len(path) - 1)
            if after >= 0 and pos.landing_distance(target, deck) <= after:
                group.append(u)
        if not group:
            continue
        counts = pos.take(group)
        plan.cm.append(f"cm {units_text(counts)} {path_text(path)}")
        plan.attacked.add(target)
        for t, n in counts.items():
            plan.flown.append((target, t, n, min(pos.left[u.id] for u in group if u.type == t) - (len(path) - 1)))


def _raids(pos: Position, plan: Plan) -> None:
    """Strategic bombing raids on facilities in reach, with fighters as escorts now and then."""
    rng, rules, st = pos.rng, pos.rules, pos.state
    for place in pos.places_with(("air",)):
        bombers = _air_group(pos, place, lambda u: pos.ut(u).has("strategic_bomber"))
        if not bombers or rng.random() < 0.4:
            continue
        reach = max(pos.left[u.id] for u in bombers)
        paths = pos.air_paths(place, reach)
        targets = []
        for t, p in paths.items():
            if pos.water(t) or not rules.is_hostile_land(st, pos.power, t) or not pos.hostile(t) or t in plan.passed:
                continue
            for f in st.units_at(t):
                if pos.ut(f).has("can_be_damaged") and rules.at_war(st, pos.power, f.owner):
                    targets.append((t, f))
        if not targets:
            continue
        both = [(t, f) for t, f in targets if t in plan.attacked]      # a raid and a battle in one place
        target, facility = rng.choice(both if both and rng.random() < 0.4 else targets)
        path = paths[target]
        group = [u for u in pos.pick(bombers) if pos.left[u.id] - (len(path) - 1) >= pos.landing_distance(target, False)]
        if not group:
            continue
        counts = pos.take(group)
        escorts = [u for u in _air_group(pos, place, lambda u: not pos.ut(u).has("strategic_bomber"))
                   if pos.left[u.id] >= len(path) - 1 + 1]
        if escorts and rng.random() < 0.5:
            more = pos.pick(escorts, 2)
            counts.update(pos.take(more))
            group += more
        kind = ("airfield" if pos.ut(facility).has("air_base") else "harbour" if pos.ut(facility).has("naval_base")
                else "factory" if rng.random() < 0.5 else "")
        plan.cm.append(f"bomb {units_text(counts)} {path_text(path)}" + (f" {kind}" if kind else ""))
        for t, n in counts.items():
            plan.flown.append((target, t, n, min(pos.left[u.id] for u in group if u.type == t) - (len(path) - 1)))


def _battle_orders(pos: Position, plan: Plan) -> None:
    """Retreat conditions, attacking submarines submerging, and orders of loss for some of the turn's battles."""
    rng = pos.rng
    for line in list(plan.cm):
        parsed = split_move(line)
        if parsed is None or parsed[0] != "cm":
            continue
        _, units, path = parsed
        domains = {pos.ut(t).domain for t in units}
        water = [pos.water(p) for p in path]
        if path[-1] not in plan.attacked or not (domains == {"land"} and not any(water)
                                                  or domains == {"sea"} and all(water)):
            continue
        if rng.random() < 0.4:
            cond = rng.choice(["", f" after round {rng.randint(1, 3)}", f" if attackers < {rng.randint(1, 4)}",
                               f" after round {rng.randint(1, 2)} if attackers < {rng.randint(2, 5)}"])
            plan.cm.append(f"retreat {path[-1]} > {path[-2]}{cond}")
        if any(pos.ut(t).has("sub") for t in units) and domains == {"sea"} and rng.random() < 0.6:
            when = rng.choice(["", f" after round {rng.randint(1, 2)}", f" if attackers < {rng.randint(2, 5)}"])
            plan.cm.append(f"submerge {path[-1]}{when}")     # the attacking submarines leave the battle
    for target in sorted(plan.attacked - plan.passed):
        if rng.random() < 0.25:
            types = sorted({u.type for u in pos.mine if u.id in pos.used and pos.ut(u).domain != "air"})
            if types:
                rng.shuffle(types)
                plan.cm.append(f"ool {target}: {', '.join(types)}")


def _noncombat(pos: Position, plan: Plan) -> None:
    rng, rules, st = pos.rng, pos.rules, pos.state
    # aircraft fly home from their battles and raids (or are left to the default landing)
    carriers = {u.place for u in pos.mine if pos.ut(u).carrier_capacity and u.id not in pos.used}
    for target, unit_type, n, left in plan.flown:
        if rng.random() < 0.1 or left <= 0:
            continue
        deck = bool(pos.ut(unit_type).carrier_cost)
        homes = [p for p, path in pos.air_paths(target, left).items() if p != target and p not in plan.attacked
                 and (air.held_land(rules, st, pos.power, p) or (deck and p in carriers))]
        if homes:
            home = rng.choice(homes)
            plan.ncm.append(f"ncm {n} {unit_type} {path_text(pos.air_paths(target, left)[home])}")
    # carriers sail with their aircraft; other ships move on
    for zone in pos.places_with(("sea",)):
        if not pos.water(zone) or rng.random() < 0.5:
            continue
        ships = [u for u in pos.free(zone, ("sea",), False) if not pos.rules.carries(u)
                 and not u.flags.get("combat_moved")]
        if not ships:
            continue
        reach = min(pos.left[u.id] for u in ships)
        bold = rng.random() < 0.3               # into a zone fought for this turn: legal only if it was won
        quiet = [z for z, p in pos.sea_paths(zone, reach).items() if z != zone
                 and (z in plan.attacked if bold else not pos.hostile(z) and z not in plan.attacked)]
        if not quiet:
            continue
        dest = rng.choice(quiet)
        group = pos.pick(ships)
        counts = pos.take(group)
        if any(pos.ut(u).carrier_capacity for u in group) and rng.random() < 0.7:
            planes = [u for u in pos.free(zone, ("air",), False) if pos.ut(u).carrier_cost]
            counts.update(pos.take(pos.pick(planes)))
        plan.ncm.append(f"ncm {units_text(counts)} {path_text(pos.sea_paths(zone, reach)[dest])}")
    # transports: troops board from the coast, or cargo sails and unloads on friendly land
    for zone in pos.places_with(("sea",)):
        if not pos.water(zone) or rules.blocks_ships(st, pos.power, zone):
            continue
        for boat in (u for u in pos.free(zone, ("sea",), False, need=0) if pos.rules.carries(u)):
            if rng.random() < 0.4 or boat.flags.get("combat_moved"):
                continue
            cargo = [c for c in st.cargo_of(boat) if c.id not in pos.used and pos.movable(c, False)
                     and not c.flags.get("combat_moved")]
            if cargo:
                sail = pos.sea_paths(zone, pos.left[boat.id]) if pos.left[boat.id] > 0 else {zone: [zone]}
                options = [(z, t) for z, p in sail.items() for t in pos.neighbours(z)
                           if pos.friendly_land(t) and t not in plan.attacked
                           and not rules.blocks_ships(st, pos.power, z)]
                if options:
                    z, shore = rng.choice(options)
                    units = pos.take(cargo)
                    if z == zone:
                        plan.ncm.append(f"ncm {units_text(units)} {zone} > {shore}")
                    else:
                        pos.used.add(boat.id)
                        plan.ncm.append(f"ncm 1 {boat.type}, {units_text(units)} {path_text(sail[z])} > {shore}")
                continue
            room = pos.rules.carries(boat)
            shores = [c for c in pos.neighbours(zone) if pos.friendly_land(c) and st.owners.get(c) == pos.power]
            if shores:
                shore = rng.choice(shores)
                troops = _cargo_fit(pos, room, [u for u in pos.free(shore, ("land",), False, cargo=False)
                                                if not u.flags.get("combat_moved")])
                if troops:
                    plan.ncm.append(f"ncm {units_text(pos.take(troops))} {shore} > {zone}")
    # land units march a step or two over friendly land
    for place in pos.places_with(("land",)):
        if pos.water(place) or rng.random() < 0.6:
            continue
        force = [u for u in pos.free(place, ("land",), False) if not u.flags.get("combat_moved")]
        if not force:
            continue
        reach = pos.land_paths(place, 2)
        bold = rng.random() < 0.3               # into land taken this turn: legal only if it was taken
        dests = [t for t, p in reach.items() if t != place and len(p) == 2 and t in plan.attacked] if bold else [
            t for t, p in reach.items() if t != place and pos.friendly_land(t) and t not in plan.attacked]
        if not dests:
            continue
        dest = rng.choice(dests)
        group = [u for u in pos.pick(force) if pos.left[u.id] >= len(reach[dest]) - 1]
        if group:
            plan.ncm.append(f"ncm {units_text(pos.take(group))} {path_text(reach[dest])}")
    # aircraft that did not fight move to another friendly place
    for place in pos.places_with(("air",)):
        if rng.random() < 0.7:
            continue
        planes = [u for u in pos.free(place, ("air",), False) if not u.flags.get("combat_moved")]
        if not planes:
            continue
        reach = min(pos.left[u.id] for u in planes)
        paths = pos.air_paths(place, reach)
        homes = [p for p in paths if p != place and p not in plan.attacked and air.held_land(rules, st, pos.power, p)]
        if homes:
            home = rng.choice(homes)
            plan.ncm.append(f"ncm {units_text(pos.take(pos.pick(planes)))} {path_text(paths[home])}")


def _placements(pos: Position, plan: Plan, bought: dict[str, int]) -> None:
    """Place what was bought at the power's factories: land and air units on the factory's territory, ships in a
    sea zone next to it, a new facility on a territory of its own."""
    rng, rules, st = pos.rng, pos.rules, pos.state
    if not bought or rng.random() < 0.05:
        return
    room = {t: factory_capacity(rules, st, pos.power, t) for t in sorted(st.owners) if st.owners[t] == pos.power}
    room = {t: n for t, n in room.items() if n > 0}
    decks: list[str] = []                   # sea zones where a new carrier is placed: new fighters may go aboard
    for unit, count in sorted(bought.items(), key=lambda item: (not pos.ut(item[0]).carrier_capacity, item[0])):
        t = pos.ut(unit)
        if rules.is_facility(unit):
            replaces = {f[1] for f in rules.fields(unit, "consumesUnits") if len(f) == 2}
            spots = [p for p in sorted(st.owners) if st.owners[p] == pos.power and not pos.water(p)
                     and pos.scenario.territory(p).production >= 1 and p not in plan.attacked
                     and (not replaces or replaces & {u.type for u in st.units_at(p, pos.power)})]
            if spots:
                plan.place.append(f"place {count} {unit} {rng.choice(spots)}")
            continue
        left = count
        for factory in sorted(room, key=lambda p: rng.random()):
            if left <= 0:
                break
            n = min(left, room[factory])
            if n <= 0:
                continue
            if t.domain == "sea":
                zones = [z for z in pos.neighbours(factory) if pos.water(z)]
                if not zones:
                    continue
                where = rng.choice(zones)
                if t.carrier_capacity:
                    decks.append(where)
            elif t.carrier_cost and decks and rules.prop("Produce fighters on carriers") and rng.random() < 0.5:
                where = rng.choice(decks)
                n = min(n, 2)
            else:
                where = factory
            plan.place.append(f"place {n} {unit} {where}")
            room[factory] -= n
            left -= n


# -- standing orders -------------------------------------------------------------------------------------

def standing_lines(g, power: str, rng: random.Random) -> list[str]:
    """Standing orders for `power`: scrambles from its air bases into the sea zones next to them, an order of
    loss, submerge and intercept, and kamikaze strikes where the game has them."""
    rules, st = g.rules, g.state
    lines = []
    for place in sorted(t for t, o in st.owners.items() if o == power):
        if any(rules.ut(u).has("air_base") for u in st.units_at(place)) and rng.random() < 0.6:
            for zone in sorted(n for n in g.scenario.neighbours(place) if rules.is_water(n)):
                lines.append(f"scramble {place} > {zone}" + (f" max {rng.randint(1, 3)}" if rng.random() < 0.4 else ""))
    if rng.random() < 0.4:
        types = sorted({u.type for u in st.units if u.owner == power and rules.is_combatant(u)})
        rng.shuffle(types)
        if types:
            lines.append(f"ool {', '.join(types)}")
    if rng.random() < 0.3:
        lines.append(f"submerge {rng.choice(['always', 'never'])}")
    lines += _answers(g, power, rng)
    zones = getattr(rules, "kamikaze_zones", lambda: [])()     # kamikaze tokens, where the game has them
    mine = [z for z in zones if rules.kamikaze_striker(st, z) == power]
    if mine and rng.random() < 0.7:
        if rng.random() < 0.1:
            lines.append("kamikaze none")
        else:
            for zone in rng.sample(mine, min(len(mine), rng.randint(1, 3))):
                ships = [t for t in ("battleship", "carrier", "cruiser", "destroyer")     # those the map has
                         if any(u.name == t for u in rules.scenario.unit_types)]
                targets = rng.sample(ships, min(len(ships), rng.randint(0, 2)))
                lines.append(f"kamikaze {zone}" + (f" max {rng.randint(1, 3)}" if rng.random() < 0.5 else "")
                             + (f": {', '.join(targets)}" if targets else ""))
    if rng.random() < 0.3:
        lines.append(f"intercept {rng.choice(['always', 'never'])}")
    return lines


# -- submitting what the rules accept ---------------------------------------------------------------------

def _offers(rules, state) -> dict[str, dict]:
    """The alliance offers pending, where the game has them (politics.offers): id -> offer."""
    if rules.verbs().get("accept") is None:
        return {}
    from adjudicator.games.expanded_global import politics
    return politics.offers(state)


def _addressed(g) -> dict[str, list[str]]:
    """Nation -> the pending alliance offers it has not answered yet."""
    out: dict[str, list[str]] = {}
    for oid, found in _offers(g.rules, g.state).items():
        for nation in found["members"]:
            if nation != found["from"] and f"answer:{oid}:{nation}" not in g.state.switches:
                out.setdefault(nation, []).append(oid)
    return out


def _answers(g, power: str, rng: random.Random) -> list[str]:
    """`power`'s answers to the alliance offers addressed to it: most accepted, some refused, a few left
    unanswered (refused by silence at the deadline, EG-60)."""
    return [f"{'accept' if rng.random() < 0.7 else 'refuse'} {oid}" for oid in _addressed(g).get(power, [])
            if rng.random() < 0.8]


def verb(line: str) -> str:
    """An order's kind for the counts: its verb, with the combat moves told apart by what they do."""
    return line.split(" ", 1)[0]


def drop_refused(lines: list[str], errors) -> list[str]:
    """`lines` without those the errors name; errors of the whole submission drop the placements, then the
    purchase, then the non-combat moves."""
    bad = {e.line for e in errors if e.line}
    if not bad:
        for kinds in (("place",), ("buy", "repair"), ("ncm",), ("cm", "bomb", "retreat", "ool"),
                      ("war", "ally", "influence")):
            bad = {k + 1 for k, line in enumerate(lines) if line.startswith(kinds)}
            if bad:
                break
    kept = [line for k, line in enumerate(lines, 1) if k not in bad and line != "end"]
    return kept + ["end"] if lines and lines[-1] == "end" else kept


@dataclass
class Tally:
    """What a run did: power-turns, orders written and accepted by kind, what the turns brought about, and every
    internal error with what it takes to reproduce it."""

    power_turns: int = 0
    cli_turns: int = 0
    written: Counter = field(default_factory=Counter)
    accepted: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    submissions: int = 0
    rejections: int = 0
    refused: Counter = field(default_factory=Counter)           # refusals by rule
    examples: dict = field(default_factory=dict)                # a few refusals of each rule: line and message
    internal_errors: list[dict] = field(default_factory=list)
    audits: list[dict] = field(default_factory=list)
    verify_failures: list[dict] = field(default_factory=list)   # reports whose dice `verify` finds wrong

    def add(self, other: "Tally") -> None:
        self.power_turns += other.power_turns
        self.cli_turns += other.cli_turns
        self.written.update(other.written)
        self.accepted.update(other.accepted)
        self.events.update(other.events)
        self.submissions += other.submissions
        self.rejections += other.rejections
        self.refused.update(other.refused)
        for rule, examples in other.examples.items():
            seen = self.examples.setdefault(rule, [])
            seen += examples[:5 - len(seen)]
        self.internal_errors += other.internal_errors
        self.audits += other.audits
        self.verify_failures += other.verify_failures

    def summary(self) -> dict:
        return {"power_turns": self.power_turns, "cli_turns": self.cli_turns, "submissions": self.submissions,
                "rejections": self.rejections,
                "accepted_by_kind": dict(sorted(self.accepted.items())),
                "written_by_kind": dict(sorted(self.written.items())),
                "acceptance": round(sum(self.accepted.values()) / max(1, sum(self.written.values())), 3),
                "events": dict(sorted(self.events.items())),
                "refused_by_rule": dict(self.refused.most_common()),
                "refusals": self.examples,
                "internal_errors": len(self.internal_errors),
                "audits": [f"{a['game']}: {'ok' if a['ok'] else 'FAILED'}" for a in self.audits],
                "audits_failed": sum(1 for a in self.audits if not a["ok"]),
                "reports_failing_verify": len(self.verify_failures)}


MOVE = re.compile(r"^(\w+) ((?:\d+ \w+, )*\d+ \w+) (.+)$")


def split_move(line: str) -> tuple[str, dict[str, int], list[str]] | None:
    """A move or raid line as this module writes it: its verb, units and path."""
    head, *rest = line.split(" > ")
    found = MOVE.match(head)
    if not found or not rest:
        return None
    units = {t: int(n) for n, t in (item.split(" ") for item in found.group(2).split(", "))}
    return found.group(1), units, [found.group(3)] + rest


def kind_of(line: str, g) -> str:
    """The kind of an order line, for the counts: its verb, and for a move what it does (`cm amphibious`: troops
    landing from the sea, `ncm board`: troops boarding, `cm carrier+air`: a carrier sailing with its aircraft)."""
    word = verb(line)
    if word == "submerge" and line.split(" ")[1:2] not in (["always"], ["never"]):
        return "submerge in battle"
    parsed = split_move(line) if word in ("cm", "ncm") else None
    if parsed is None:
        return word
    _, units, path = parsed
    domains = {g.rules.ut(t).domain for t in units}
    water = [_is_water(g, p) for p in path]
    if "land" in domains and any(water):
        if water[-1]:
            return f"{word} board"
        return f"{word} amphibious" if word == "cm" else f"{word} unload"
    if "sea" in domains:
        return f"{word} carrier+air" if "air" in domains else f"{word} sea"
    return f"{word} {'air' if 'air' in domains else 'land'}"


def _is_water(g, place: str) -> bool:
    try:
        return g.scenario.territory(place).water
    except KeyError:
        return False


class InternalError(Exception):
    """An exception other than a rejected submission: a bug, recorded with what reproduces it."""


def submit_legal(engine, power: str, lines: list[str], tally: Tally, context: dict, g=None,
                 submitter=None, tries: int = 8) -> list[str] | None:
    """Submit `lines` for `power`, dropping the lines the rules refuse until the rest is accepted; the accepted
    lines, or None if nothing was. Any other exception is recorded in `tally` and raised as InternalError."""
    written = list(lines)
    send = submitter or (lambda text: submit(engine, power, text))
    for _ in range(tries):
        if not lines:
            break
        text = "\n".join(lines) + "\n"
        tally.submissions += 1
        try:
            send(text)
        except SubmissionRejected as exc:
            tally.rejections += 1
            for e in exc.errors:
                rule = e.rule or e.kind
                tally.refused[rule] += 1
                seen = tally.examples.setdefault(rule, [])
                if len(seen) < 5:
                    seen.append(f"{e.source or '(submission)'}: {e.message}")
            shorter = drop_refused(lines, exc.errors)
            if shorter == lines:
                break
            lines = shorter
            continue
        except Exception as exc:        # noqa: BLE001 - the point: any other exception is a bug
            record(tally, context, power, text, exc)
            raise InternalError(str(exc)) from exc
        for line in written:
            tally.written[kind_of(line, g) if g else verb(line)] += 1
        for line in lines:
            tally.accepted[kind_of(line, g) if g else verb(line)] += 1
        return lines
    for line in written:
        tally.written[kind_of(line, g) if g else verb(line)] += 1
    return None


def record(tally: Tally, context: dict, power: str, orders: str, exc: BaseException, where: str = "submit") -> None:
    tally.internal_errors.append({**context, "power": power, "where": where, "orders": orders,
                                  "error": f"{type(exc).__name__}: {exc}",
                                  "traceback": "".join(traceback.format_exception(exc))})


# -- whole games ------------------------------------------------------------------------------------------

def open_position(engine):
    with transaction(engine) as s:
        return open_game(s)


def turn_events(engine, turn_index: int) -> list[dict]:
    """The events the journal holds for one power-turn."""
    with transaction(engine) as s:
        found = rows(s, "SELECT events FROM step WHERE turn_index = :t AND phase != 'standing'", t=turn_index)
    return [e for (events,) in found for e in json.loads(events)]


def count_events(tally: Tally, events: list[dict]) -> None:
    for e in events:
        kind = e.get("type")
        if kind == "battle":
            tally.events["battles"] += 1
            tally.events["sea battles" if e.get("sea") else "land battles"] += 1
            if e.get("result") == "retreated":
                tally.events["retreats"] += 1
        elif kind == "assault_landing":
            tally.events["amphibious landings"] += 1
        elif kind == "raid":
            tally.events["raids"] += 1
            tally.events["raids with an air battle"] += bool(e.get("interceptors") or e.get("air_battle"))
        elif kind == "scramble":
            tally.events["scrambles" if e.get("units") else "scrambles ordered, none could"] += 1
        elif kind == "war":
            tally.events["declarations of war"] += 1
        else:
            tally.events[kind] += 1


def play_game(db: str, game: str, maps_dir: Path, seed: int, rounds: int, settings, tally: Tally,
              cli=None, cli_turns: int = 0, log=None) -> None:
    """Play `rounds` rounds of the MAPS entry `game` with random legal turns from `seed`, then audit it. `cli(args,
    input)` runs the adjudicator's CLI and returns its exit code and output: the first `cli_turns` power-turns go
    through it, where exit code 3 is an internal error."""
    from adjudicator.audit import audit
    rng = random.Random(seed)
    game_id = f"rnd-{game}-{seed}"
    family, xml = MAPS[game]
    new_game(db, family, settings, map_arg=str(maps_dir / xml), seed_hex=f"{seed:064x}", game_id=game_id)
    engine = open_existing(db)
    context = {"game": game, "seed": seed}
    try:
        while True:
            st = status(engine)
            if st["round"] > rounds or st["victory"]["winner"]:
                break
            g = open_position(engine)
            here = {**context, "round": st["round"], "turn_index": st["turn_index"]}
            # standing orders: most powers file some at the start, and now and then one files new ones, in or out
            # of its turn
            filing = ([p for p in g.scenario.turn_players() if rng.random() < 0.7] if st["turn_index"] == 1 else
                      [rng.choice(g.scenario.turn_players())] if rng.random() < 0.3 else [])
            filing += [p for p in _addressed(g) if p not in filing]     # nations answering alliance offers
            for other in filing:
                standing = standing_lines(g, other, rng)
                if standing:
                    submit_legal(engine, other, standing, tally, here, g)
            power = st["power"]
            lines = turn_lines(g, rng)
            through_cli = tally.cli_turns < cli_turns and cli is not None
            submitter = _cli_submitter(cli, db, power, tally, here) if through_cli else None
            try:
                accepted = submit_legal(engine, power, lines, tally, here, g, submitter)
                if accepted is None:
                    submit_legal(engine, power, ["end"], tally, here, g, submitter)
            except InternalError:
                try:
                    submit_legal(engine, power, ["end"], tally, here, g, submitter)
                except InternalError:
                    return
            try:
                if through_cli:
                    code, out = cli(["adjudicate", db])
                    if code != 0:
                        raise RuntimeError(f"adjudicate exited {code}: {out}")
                    tally.cli_turns += 1
                else:
                    played = adjudicate(engine, settings)
                    check_report(tally, here, power, played["report"], st["anchor"])
            except Exception as exc:    # noqa: BLE001
                record(tally, here, power, "(the locked submission)", exc, "adjudicate")
                return
            tally.power_turns += 1
            count_events(tally, turn_events(engine, st["turn_index"]))
            if log:
                log(f"{game} seed {seed} round {st['round']} {power}: {len(lines)} lines written")
    finally:
        engine.dispose()
        try:
            result = audit(db)
            tally.audits.append({"game": game_id, "ok": result.ok, "lines": result.lines()})
        except Exception as exc:        # noqa: BLE001
            record(tally, context, "-", "(audit)", exc, "audit")
            tally.audits.append({"game": game_id, "ok": False, "lines": [f"{type(exc).__name__}: {exc}"]})


def check_report(tally: Tally, context: dict, power: str, text: str, anchor: str) -> None:
    """`verify` the turn's report as posted: every die recomputed from its text must match."""
    from adjudicator import verify
    try:
        blocks = verify.check(text, anchor)
    except verify.VerifyError:
        tally.events["reports without dice"] += 1
        return
    code, lines = verify.summary(blocks, anchor)
    if code == 1:
        tally.verify_failures.append({**context, "power": power, "lines": lines[:20]})
    else:
        tally.events["reports verified"] += 1


def _cli_submitter(cli, db: str, power: str, tally: Tally, context: dict):
    """A submitter through the CLI: exit 1 is a rejection (its errors read from --json), 3 an internal error."""
    def send(text: str) -> None:
        code, out = cli(["submit", db, "-", "--power", power, "--json"], text)
        if code == 0:
            return
        if code == 1:
            try:
                found = json.loads(out)
            except ValueError:
                found = {}
            from adjudicator.errors import OrderError
            errors = [OrderError(e["kind"], e["message"], e.get("line", 0)) for e in found.get("errors", [])]
            raise SubmissionRejected(errors or [OrderError("illegal", out)])
        raise RuntimeError(f"submit exited {code}: {out}")
    return send


def subprocess_cli(env: dict | None = None):
    """`cli(args, input)` running `python -m adjudicator ARGS` as its own process (forked from the test processes'
    zygote), as a player would: its exit code (3: an internal error) and what it printed."""
    import os
    from processes import command
    environment = {**os.environ, **(env or {})}
    environment.pop("ADJUDICATOR_DEBUG", None)

    def run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
        done = command(*args, input=stdin, env=environment)
        out, err = done.communicate()
        return done.returncode, out + err
    return run
