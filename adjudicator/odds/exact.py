"""Exact battle odds: the battle as a Markov chain over who is still in it, reckoned round by round.

A node is each side's units in the battle, one status per unit the battle began with: its damage while it fights,
or DEAD, LEFT (out of the battle but alive: a game's bombers after round 1) or DOOMED (struck before round 1 by a
bombardment whose casualties fire back: it fires in round 1, cannot be chosen again, and dies after it). Every
die a side rolls is its own chance, so a side's hits follow the distribution of a sum of unequal coin flips, and
the hits of the two sides are independent; where hits fall is decided by the adjudicator's own code
(`combat.assign_hits`, by the order of loss `Battle.defender_ool` gives the defenders), which takes them one after
another: each side's casualties walk down a chain of nodes, one hit a step.

Only what decides the battle's next round is in a node, so the chain is small. From the first round whose rules are those of every later one (the
homogeneous rounds: no bombardment casualties pending, no game hook that answers differently in a later round),
a node's chance to stay as it is (no hit either way) is folded in exactly (each way out is divided by the
chance of leaving), and nodes are settled strongest first: every way out of a node leaves fewer hit points.

What the chain cannot follow exactly is refused with `NotExact` and its reason, and the battle is simulated
instead (adjudicator.odds.simulate): submarines that submerge, commando raids, retreats that leave units behind,
a blow-up of the state space, and hits of different kinds that tie in how many units they may fall on.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from ..rules.combat import MAX_ROUNDS, Battle, assign_hits
from ..state import Unit

DEAD, LEFT, DOOMED = -1, -2, -3
MAX_NODES = 20_000          # beyond this many nodes a battle is simulated: the chain would take seconds
MAX_WORK = 2_000_000       # beyond this many ways out of its rounds, too: about 1-2 µs each, so seconds

Key = tuple[int, ...]
Hit = tuple[int, frozenset]          # how many hits, and the unit types they may fall on
End = tuple[str, Key, Key]           # how the battle ended: won, destroyed, held, retreated, stalemate


class NotExact(Exception):
    """Why a battle is simulated rather than reckoned exactly."""


class _Rolled(Exception):
    """A game hook asked for dice while the odds only looked."""


class _NoDice:
    """A roller for looking: any roll means the hook does something the chain cannot follow."""

    def roll(self, *args, **kwargs):
        raise _Rolled()


def poisson_binomial(chances: list[float]) -> list[float]:
    """The chance of each number of hits from dice that each hit with its own chance."""
    dist = [1.0]
    for p in chances:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * q
            nxt[k + 1] += v * p
        dist = nxt
    return dist


class ExactOdds:
    """The chain of one battle, set up as `Battle` sets it up (the same units, orders of loss and orders)."""

    def __init__(self, battle: Battle, retreat_open: bool, max_nodes: int = MAX_NODES):
        self.b = battle
        self.rules = battle.rules
        self.base = {"attacker": list(battle.att), "defender": list(battle.dfn)}
        self.at = {role: {u.id: i for i, u in enumerate(units)} for role, units in self.base.items()}
        self.retreat = battle.orders.retreat if retreat_open else None
        self.max_nodes = max_nodes
        self._fire: dict = {}
        self._chains: dict = {}
        self._leaving: dict = {}
        self._threats: dict = {}
        self._helpless_keys: dict = {}
        self._helpless_ends: dict = {}
        self._counts: dict = {}
        self._reaches: dict = {}           # what a shooter's hits may fall on, by what it faces
        self._groups: dict = {}            # the pool of a shooter's hits, by its type
        self._ools: dict = {}
        self._type_sets: dict = {}
        self._sort_sets: dict = {}
        self._sort = {role: [(u.type, u.owner, repr(sorted(u.flags.items()))) for u in units]
                      for role, units in self.base.items()}
        self._hp = {role: [self.rules.ut(u).hit_points for u in units] for role, units in self.base.items()}
        self._first = any(self.rules.first_strike(u) for units in self.base.values() for u in units)
        self._alive: dict[Key, bool] = {}
        self._steady = MAX_ROUNDS
        # BG-13 needs both sides at each end of a round; a battle without transports skips it
        self._transports = any(self.rules.defenceless(u, role) for role, units in self.base.items() for u in units)
        self.nodes = 0
        self.work = 0
        self._refuse_what_is_not_followed()

    # -- what the chain does not follow ------------------------------------------------------------------

    def _refuse_what_is_not_followed(self) -> None:
        b, rules = self.b, self.rules
        size = math.prod(1 + sum(rules.ut(u).hit_points - u.damage for u in units) for units in self.base.values())
        if size > self.max_nodes:
            raise NotExact(f"the battle has some {size:,} states to follow, more than the {self.max_nodes:,} "
                           "reckoned exactly")
        if b.sea and (b.orders.submerge is not None or any(
                rules.can_submerge(u, defending=True) and b.state.standing.get(u.owner, {}).get("submerge")
                for u in b.dfn)):
            raise NotExact("submarines here may submerge, which changes the battle as it goes")
        if self.retreat is not None and any(rules.kept_in_battle(u) for u in b.att):
            raise NotExact("a retreat here would leave units behind to fight on")
        if not b.sea and b.dfn:
            trial = b.state.copy()
            try:
                rules.opening_strikes(trial, b.power, b.place, [trial.unit(u.id) for u in b.dfn], _NoDice())
            except _Rolled:
                raise NotExact("the game's own strikes before round 1 (commando raids) come first") from None

    # -- a side as units ------------------------------------------------------------------------------------

    def units(self, role: str, key: Key, doomed: bool = True) -> list[Unit]:
        """Fresh copies of the side's units in the battle, damaged as the key says (DOOMED ones with `doomed`)."""
        out = []
        for u, s in zip(self.base[role], key):
            if s >= 0 or (doomed and s == DOOMED):
                c = u.clone(None)
                if s >= 0 and c.damage != s:
                    c.damage = s
                out.append(c)
        return out

    def _set(self, akey: Key, dkey: Key) -> tuple[list[Unit], list[Unit]]:
        """Put the node's units into the battle, whose methods (values, support, who may hit whom) read them."""
        b = self.b
        b.att, b.dfn = self.units("attacker", akey), self.units("defender", dkey)
        return b.att, b.dfn

    def _present(self, role: str, key: Key, units: list[Unit]) -> Key:
        """The key after the battle's own code took some of the side's units out (they are DEAD) or damaged some."""
        at = {u.id: u for u in units}
        return tuple((at[u.id].damage if s >= 0 else s) if u.id in at else (DEAD if s >= 0 or s == DOOMED else s)
                     for u, s in zip(self.base[role], key))

    def _mark(self, role: str, key: Key, units: list[Unit], status: int) -> Key:
        ids = {u.id for u in units}
        return tuple(status if u.id in ids else s for u, s in zip(self.base[role], key))

    # -- dice --------------------------------------------------------------------------------------------

    def fire(self, role: str, shooters: list[Unit], side: list[Unit], kinds: dict[str, Unit],
             value: Callable[[Unit], int] | None = None):
        """Each way one side's dice can fall: its chance, and the hits by the unit types they may fall on (`kinds`:
        one target of each type). The hits are pooled as `Battle._fire` pools them (by `hit_group`), each pool
        falling on what its first shooter may hit. Hits of one pool only come as (the types they may fall on, the
        chance of each number of hits)."""
        b, sides = self.b, self.rules.scenario.dice_sides
        pools: dict[tuple, list] = {}
        looked = (role, b._destroyer(side), frozenset(kinds))
        for u, v, n in b.shooters(shooters, role, value):
            reach = self._reaches.get((u.type, u.owner, looked))
            if reach is None:
                may = b._may_hit(u, side, role)
                reach = self._reaches[(u.type, u.owner, looked)] = frozenset(k for k, t in kinds.items() if may(t))
            group = self._groups.get(u.type)
            if group is None:
                group = self._groups[u.type] = b.hit_group(u)
            pool = pools.setdefault(group, [reach, []])
            if pool[0] != reach:
                raise NotExact("hits of one kind here would fall on different units by who scored them")
            pool[1].append(1.0 - ((sides - v) / sides) ** n)
        merged: dict[frozenset, list[float]] = {}
        for reach, chances in pools.values():
            merged.setdefault(reach, []).extend(chances)
        if len(merged) == 1:
            [(reach, chances)] = merged.items()
            return reach, poisson_binomial(chances)
        ways: list[tuple[float, tuple[Hit, ...]]] = [(1.0, ())]
        for reach, chances in merged.items():
            dist = poisson_binomial(chances)
            ways = [(p * q, hits + ((k, reach),) if k else hits) for p, hits in ways for k, q in enumerate(dist) if q]
        return ways

    # -- hits -------------------------------------------------------------------------------------------

    def take(self, role: str, key: Key, hits: tuple[Hit, ...]) -> Key:
        """The side after `hits`: the adjudicator's own casualty choice (`assign_hits`, by the order of loss the
        battle gives that side), one hit at a time as it takes them, the pools with fewest possible targets first."""
        if not hits:
            return key
        if len(hits) > 1:
            counts = self._counts.get((role, key))
            if counts is None:
                counts = self._counts[(role, key)] = {}
                for u, s in zip(self.base[role], key):
                    if s >= 0:
                        counts[u.type] = counts.get(u.type, 0) + 1
            reached = {reach: sum(n for t, n in counts.items() if t in reach) for _, reach in hits}
            if len(set(reached.values())) < len(reached):
                raise NotExact("hits of different kinds here may fall on as many units, so which are taken first "
                               "depends on who scored them")
            hits = tuple(sorted(hits, key=lambda h: reached[h[1]]))
        ool = self._ool(role, key)
        for count, reach in hits:
            chain = self._chain(role, key, reach, ool)
            key = chain[min(count, len(chain) - 1)]
        return key

    def _chain(self, role: str, key: Key, reach: frozenset, ool: list[str]) -> list[Key]:
        """The side after 0, 1, 2 … hits that may fall on `reach`, until none is left to take one. `ool`: the order
        of loss the side took the first of these hits by. `assign_hits` takes hits one by one, each after the
        last: asked for them all at once, it names the damaged units in turn, then the dead (a unit soaks a hit
        while one can), which are the chain's steps; the chain from each step on is the rest of it."""
        found = self._chains.get((role, key, reach, id(ool)))
        if found is None:
            targets = self.units(role, key, doomed=False)
            room = sum(self._hp[role][self.at[role][u.id]] - u.damage for u in targets)
            damaged, killed = assign_hits(self.rules, targets, [(room, lambda u: u.type in reach)], ool, role)
            at, now = self.at[role], list(key)
            found = [key]
            for u in damaged:
                now[at[u.id]] += 1
                found.append(tuple(now))
            for u in killed:
                now[at[u.id]] = DEAD
                found.append(tuple(now))
            for i, k in enumerate(found):
                self._chains.setdefault((role, k, reach, id(ool)), found[i:])
        return found

    def _ool(self, role: str, key: Key) -> list[str]:
        """The order of loss a side takes a round's hits by (the defenders': that of the power with most units)."""
        if role == "attacker":
            return self.b.att_ool
        found = self._ools.get(key)
        if found is None:
            targets = self.units(role, key, doomed=False)
            found = self._ools[key] = self.b.defender_ool(targets) if targets else []
        return found

    def opening(self) -> dict[tuple[Key, Key], float]:
        """The nodes the battle starts round 1 in: after AA fire and shore bombardment (BG-25, BG-12)."""
        b, rules = self.b, self.rules
        akey = tuple(u.damage for u in self.base["attacker"])
        dkey = tuple(u.damage for u in self.base["defender"])
        start = {(akey, dkey): 1.0}
        if not b.dfn:
            return start
        if not b.sea:
            aimed = b.aa_shots()
            if aimed is not None:
                aim, _, air = aimed
                sides = rules.scenario.dice_sides
                dist = poisson_binomial([v / sides for v in aim])
                targets = {u.id for u in air}
                start = {}
                for hits, p in enumerate(dist):
                    if p:
                        a = self._aa_losses(akey, targets, hits)
                        start[(a, dkey)] = start.get((a, dkey), 0.0) + p
        ships = b.orders.bombard
        if ships:
            doomed = rules.prop("Naval Bombard Casualties Return Fire")
            after: dict[tuple[Key, Key], float] = {}
            for (a, d), p in start.items():
                self._set(a, d)
                for d2, q in self._taken("defender", d, self.fire("attacker", ships, ships, self._kinds(b.dfn),
                                                                 rules.bombard_value)).items():
                    if doomed:
                        d2 = tuple(DOOMED if s == DEAD and s0 != DEAD else s for s, s0 in zip(d2, d))
                    after[(a, d2)] = after.get((a, d2), 0.0) + p * q
            start = after
        return start

    def _aa_losses(self, akey: Key, targets: set[int], hits: int) -> Key:
        """The attacker after AA hits, chosen as `Battle._aa_fire` chooses them."""
        units = self.units("attacker", akey)
        _, killed = assign_hits(self.rules, units, [(hits, lambda u: u.id in targets)], self.b.att_ool, "attacker")
        return self._mark("attacker", self._present("attacker", akey, units), killed, DEAD)

    # -- a round -----------------------------------------------------------------------------------------

    def round(self, rnd: int, akey: Key, dkey: Key) -> list:
        """Where a round that begins in this node ends, as (chance, None, {("go", a, d) or ("end", result, a, d):
        chance}) or, where the sides' ends can be told apart (neither is left with transports alone), each side's
        ways apart: (chance, [(attacker after the fire, in the battle, what becomes of it, its key after, chance)],
        [(defender after the fire, in the battle, chance)]); one or two for each way the first strikes fall."""
        b = self.b
        if not (self._alive_key(akey) and any(s >= 0 or s == DOOMED for s in dkey)):   # nobody left to fight
            return [(1.0, None, {self._end(akey, dkey, self.units("attacker", akey), self.units("defender", dkey)): 1.0})]
        if self._transports and (self._helpless("attacker", akey) or self._helpless("defender", dkey)):
            self._set(akey, dkey)
            b._unescorted({})
            if not (b.att and b.dfn):
                return [(1.0, None, {self._end(akey, dkey, b.att, b.dfn): 1.0})]
            akey, dkey = self._present("attacker", akey, b.att), self._present("defender", dkey, b.dfn)
        sorts = (self._sorts("attacker", akey), self._sorts("defender", dkey))
        threat = self._threats.get(sorts)
        if threat is None:
            self._set(akey, dkey)
            threat = self._threats[sorts] = (b._threat(b.att, "attacker", b.dfn) or b._threat(b.dfn, "defender", b.att))
        if not threat:
            return [(1.0, None, {("end", "stalemate", akey, dkey): 1.0})]
        out: list = []
        for (a, d, fired), p in self._surprise(akey, dkey).items():
            a_after, d_after = self._exchange(rnd, a, d, fired)
            # where a side is left with transports alone, the battle's own code says what becomes of it (BG-13)
            a_bad = {a2: q for a2, q in a_after.items() if self._transports and self._helpless("attacker", a2)}
            d_bad = {d2: q for d2, q in d_after.items() if self._transports and self._helpless("defender", d2)}
            a_ok = [(a2, q) for a2, q in a_after.items() if a2 not in a_bad]
            d_ok = [(d2, q) for d2, q in d_after.items() if d2 not in d_bad]
            if a_ok and d_ok:
                out.append((p, [(a2, self._alive_key(a2), *self._after_round(rnd, a2), qa) for a2, qa in a_ok],
                            [(d2, self._alive_key(d2), qd) for d2, qd in d_ok]))
            if a_bad or d_bad:
                nodes: dict = {}
                for a2, qa in a_after.items():
                    for d2, qd in (d_after.items() if a2 in a_bad else d_bad.items()):
                        node = self._after_round(rnd, a2, d2)
                        nodes[node] = nodes.get(node, 0.0) + qa * qd
                out.append((p, None, nodes))
        return out

    def _helpless(self, role: str, key: Key) -> bool:
        """Whether the side may be one that BG-13 destroys without a roll: defenceless units alone in the battle."""
        found = self._helpless_keys.get((role, key))
        if found is None:
            units = [u for u, s in zip(self.base[role], key) if s >= 0 or s == DOOMED]
            found = self._helpless_keys[(role, key)] = bool(units) and all(
                self.rules.defenceless(u, role) for u in units)
        return found

    @staticmethod
    def _spread(branches: list, scale: float, live: dict, ends: dict, stay: tuple | None = None) -> list:
        """Add a round's ways out, times `scale`, to the live nodes and the ends (leaving out `stay`, the node
        itself); returns the nodes that were not live before."""
        new = []
        for p, a_side, d_side in branches:
            if a_side is None:
                for node, q in d_side.items():
                    if node[0] == "end":
                        ends[node[1:]] = ends.get(node[1:], 0.0) + p * q * scale
                    elif node[1:] != stay:
                        if node[1:] not in live:
                            new.append(node[1:])
                        live[node[1:]] = live.get(node[1:], 0.0) + p * q * scale
                continue
            w = p * scale
            go = [(a3, qa) for _, _, kind, a3, qa in a_side if kind == "go"]
            other = [(kind, a3, qa) for _, _, kind, a3, qa in a_side if kind != "go"]
            get = live.get
            for d2, d_alive, qd in d_side:
                wd = w * qd
                if not d_alive:
                    for a2, a_alive, _, _, qa in a_side:
                        end = ("won" if a_alive else "destroyed", a2, d2)
                        ends[end] = ends.get(end, 0.0) + wd * qa
                    continue
                for a3, qa in go:
                    node = (a3, d2)
                    v = get(node)
                    if v is None:
                        new.append(node)
                        live[node] = wd * qa
                    else:
                        live[node] = v + wd * qa
                for kind, a3, qa in other:
                    end = (kind, a3, d2)
                    ends[end] = ends.get(end, 0.0) + wd * qa
        if stay is not None and stay in live:       # the node's own share is folded in by the caller
            del live[stay]
            new.remove(stay)
        return new

    @staticmethod
    def _staying(branches: list, a: Key, d: Key) -> float:
        """The chance that a round changes nothing."""
        total = 0.0
        for p, a_side, d_side in branches:
            if a_side is None:
                total += p * d_side.get(("go", a, d), 0.0)
            else:
                total += (p * sum(qa for _, _, kind, a3, qa in a_side if kind == "go" and a3 == a)
                          * sum(qd for d2, _, qd in d_side if d2 == d))
        return total

    def _alive_key(self, key: Key) -> bool:
        found = self._alive.get(key)
        if found is None:
            found = self._alive[key] = any(s >= 0 for s in key)
        return found

    def _exchange(self, rnd: int, a: Key, d: Key, fired: frozenset) -> tuple[dict[Key, float], dict[Key, float]]:
        """Both sides' main fire, at once (BG-15): each side's chances of ending the exchange as each key."""
        rules = self.rules
        step = min(rnd, self._steady)

        def attacker_fire():
            att, dfn = self._set(a, d)
            return self.fire("attacker", [u for u in att if u.id not in fired and not rules.holds_fire(u, rnd)], att,
                             self._kinds([u for u in dfn if d[self.at["defender"][u.id]] != DOOMED]))

        def defender_fire():
            att, dfn = self._set(a, d)
            return self.fire("defender", [u for u in dfn if u.id not in fired], dfn, self._kinds(att))
        a_ways = self._ways("attacker", step, a, fired, self._types("defender", d), attacker_fire)
        d_ways = self._ways("defender", step, d, fired, self._types("attacker", a), defender_fire)
        d_after = self._taken("defender", d, a_ways)
        if DOOMED in d:                     # struck by the bombardment: they fired back, and die now
            undone: dict[Key, float] = {}
            for d2, q in d_after.items():
                d2 = tuple(DEAD if s == DOOMED else s for s in d2)
                undone[d2] = undone.get(d2, 0.0) + q
            d_after = undone
        return self._taken("attacker", a, d_ways), d_after

    def _taken(self, role: str, key: Key, ways) -> dict[Key, float]:
        """A side's chances of being left as each key by the enemy's dice (`ways`, or the chance of each number of
        hits of a single pool: `fire`)."""
        after: dict[Key, float] = {}
        if isinstance(ways, tuple):
            reach, dist = ways
            chain = self._chain(role, key, reach, self._ool(role, key))
            last = len(chain) - 1
            for k, q in enumerate(dist):
                if q:
                    k2 = chain[k if k < last else last]
                    after[k2] = after.get(k2, 0.0) + q
            return after
        for q, hits in ways:
            k2 = self.take(role, key, hits)
            after[k2] = after.get(k2, 0.0) + q
        return after

    def _ways(self, role: str, step: int, key: Key, fired: frozenset, enemy: frozenset, reckon) -> list:
        """A side's dice, reckoned once for its units, who fired first and the kinds of unit it faces (a unit's
        value and what it may hit depend on those, never on how many of each it faces)."""
        found = self._fire.get((role, step, key, fired, enemy))
        if found is None:
            found = self._fire[(role, step, key, fired, enemy)] = reckon()
        return found

    def _types(self, role: str, key: Key) -> frozenset:
        """The unit types of a side that may be hit."""
        found = self._type_sets.get((role, key))
        if found is None:
            found = self._type_sets[(role, key)] = frozenset(
                u.type for u, s in zip(self.base[role], key) if s >= 0)
        return found

    def _sorts(self, role: str, key: Key) -> frozenset:
        """The sorts of unit a side has in the battle: type, owner and marks (what a unit's value depends on)."""
        found = self._sort_sets.get((role, key))
        if found is None:
            found = self._sort_sets[(role, key)] = frozenset(
                sort for sort, s in zip(self._sort[role], key) if s >= 0 or s == DOOMED)
        return found

    @staticmethod
    def _kinds(units: list[Unit]) -> dict[str, Unit]:
        """One unit of each type, in the order they come."""
        kinds: dict[str, Unit] = {}
        for u in units:
            kinds.setdefault(u.type, u)
        return kinds

    def _surprise(self, akey: Key, dkey: Key) -> dict[tuple[Key, Key, frozenset], float]:
        """BG-16, BG-20, as `Battle._surprise`: first strikes whose casualties go at once; and who fired."""
        b, rules = self.b, self.rules
        if not self._first:
            return {(akey, dkey, frozenset()): 1.0}
        att, dfn = self._set(akey, dkey)
        a_first = [u for u in att if rules.first_strike(u) and not b._destroyer(dfn)]
        d_first = [u for u in dfn if rules.first_strike(u) and not b._destroyer(att)
                   and rules.prop("Defending Subs Sneak Attack")]
        fired = frozenset(u.id for u in a_first + d_first)
        if not fired:
            return {(akey, dkey, fired): 1.0}
        d_after = self._taken("defender", dkey, self.fire("attacker", a_first, att, self._kinds(dfn))) if a_first \
            else {dkey: 1.0}
        a_after = self._taken("attacker", akey, self.fire("defender", d_first, dfn, self._kinds(att))) if d_first \
            else {akey: 1.0}
        return {(a2, d2, fired): qa * qd for a2, qa in a_after.items() for d2, qd in d_after.items()}

    def _after_round(self, rnd: int, akey: Key, dkey: Key | None = None):
        """The end of a round: defenceless transports (BG-13), then units that leave and the retreat order (BG-23),
        which look at the attacker only. Without `dkey` (no side is left with transports alone): what becomes of
        the attacker, and its key, whatever defender is left in the battle."""
        if dkey is not None:
            found = self._helpless_ends.get((min(rnd, self._steady), akey, dkey))
            if found is None:
                found = self._helpless_ends[(min(rnd, self._steady), akey, dkey)] = self._unescorted(rnd, akey, dkey)
            return found
        if not self._alive_key(akey):
            return "held", akey
        step = min(rnd, self._steady)
        found = self._leaving.get((step, akey))
        if found is None:
            found = self._leaving[(step, akey)] = self._attacker_after(rnd, akey)
        return found

    def _unescorted(self, rnd: int, akey: Key, dkey: Key):
        """The end of a round where a side may be left with transports alone: the battle's own `_unescorted`."""
        b = self.b
        self._set(akey, dkey)
        b._unescorted({})
        akey, dkey = self._present("attacker", akey, b.att), self._present("defender", dkey, b.dfn)
        if not (b.att and b.dfn):
            return self._end(akey, dkey, b.att, b.dfn)
        kind, akey = self._after_round(rnd, akey)
        return ("go", akey, dkey) if kind == "go" else ("end", kind, akey, dkey)

    def _attacker_after(self, rnd: int, akey: Key) -> tuple[str, Key]:
        att = self.units("attacker", akey)
        going = [u for u in att if self.rules.leaves_battle(u, rnd)]
        if going:
            akey = self._mark("attacker", akey, going, LEFT)
            if len(going) == len(att):
                return "held", akey
        order = self.retreat
        if order is not None and rnd >= (order.after_round or 1) and (
                order.if_attackers_below is None or len(att) - len(going) < order.if_attackers_below):
            return "retreated", akey
        return "go", akey

    def _end(self, akey: Key, dkey: Key, att: list[Unit], dfn: list[Unit]):
        """A battle over: defenders struck by the bombardment die with it (`Battle.fight`'s pending)."""
        akey = self._present("attacker", akey, att)
        dkey = tuple(DEAD if s == DOOMED else s for s in self._present("defender", dkey, dfn))
        if any(s >= 0 for s in dkey):
            return ("end", "held", akey, dkey)
        return ("end", "won" if att else "destroyed", akey, dkey)

    # -- the whole battle ---------------------------------------------------------------------------------

    def steady_from(self) -> int:
        """The first round whose rules are those of every later round (retreat conditions, a game's round hooks)."""
        rules, att = self.rules, self.base["attacker"]
        kinds = {(u.type, repr(sorted(u.flags.items()))): u for u in att}.values()

        def rules_of(rnd: int) -> tuple:
            order = self.retreat
            return (tuple(rules.leaves_battle(u, rnd) for u in kinds), tuple(rules.holds_fire(u, rnd) for u in kinds),
                    order is not None and rnd >= (order.after_round or 1))
        last = rules_of(MAX_ROUNDS)
        first = MAX_ROUNDS
        while first > 1 and rules_of(first - 1) == last:
            first -= 1
        return first

    def solve(self) -> dict[End, float]:
        """The chance of each way the battle can end."""
        ends: dict[End, float] = {}
        live = self.opening()
        self._steady = steady = max(self.steady_from(), 2 if any(DOOMED in d for _, d in live) else 1)
        for rnd in range(1, steady):
            nxt: dict[tuple[Key, Key], float] = {}
            for (a, d), p in live.items():
                self._count()
                self._spread(self._weighed(self.round(rnd, a, d)), p, nxt, ends)
            live = nxt
        heap = [(-self._strength(a, d), a, d) for a, d in live]
        heapq.heapify(heap)
        while heap:
            _, a, d = heapq.heappop(heap)
            m = live.pop((a, d))
            self._count()
            branches = self._weighed(self.round(steady, a, d))
            stay = self._staying(branches, a, d)
            if stay >= 1.0 - 1e-15:        # nothing can change any more: the battle ends by the round limit
                ends[("stalemate", a, d)] = ends.get(("stalemate", a, d), 0.0) + m
                continue
            for node in self._spread(branches, m / (1.0 - stay), live, ends, (a, d)):
                heapq.heappush(heap, (-self._strength(*node), *node))
        return ends

    def _strength(self, akey: Key, dkey: Key) -> int:
        """Hit points left in the battle: every way out of a node leaves fewer (the order nodes are settled in)."""
        total = 0
        for role, key in (("attacker", akey), ("defender", dkey)):
            for hp, s in zip(self._hp[role], key):
                if s >= 0:
                    total += hp - s
                elif s == DOOMED:
                    total += 1
        return total

    def _weighed(self, branches: list) -> list:
        """A round's ways out, counted as the work of spreading them: a node of a big battle has thousands (every
        number of hits on each side, every choice of casualties), so the states alone do not say how long the
        chain takes."""
        self.work += sum(len(d_side) * (len(a_side) if a_side is not None else 1) for _, a_side, d_side in branches)
        if self.work > MAX_WORK:
            raise NotExact(f"the battle is too big to reckon exactly in a few seconds ({self.nodes:,} states "
                           f"followed, and more to come)")
        return branches

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise NotExact(f"the battle has more than {self.max_nodes:,} states to follow")

