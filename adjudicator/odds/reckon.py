"""A battle's odds as players read them: who wins, what survives, what it costs each side, and the likeliest
ends; exact where the chain can follow the battle (adjudicator.odds.exact), simulated with error bars where not."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .exact import LEFT, ExactOdds, NotExact
from .position import Position
from .simulate import default_runs, simulate

TOP = 10            # the likeliest ends listed
WINS = {"won": "attacker_wins", "destroyed": "draw"}      # every other end leaves the defender holding


@dataclass
class Odds:
    """What `odds` prints and `--json` gives: the shares of the ends players weigh an attack by, and how they were
    found (exact over so many states, or simulated, with the runs and seed that repeat it)."""

    attacker: str
    defender: list[str]
    place: str
    attacking: dict[str, int]
    defending: dict[str, int]
    method: str                                  # "exact" or "simulation"
    attacker_wins: float = 0.0                   # every defender destroyed, an attacker left in the battle
    defender_wins: float = 0.0                   # the defender holds: the attacker destroyed, retreated, stuck
    draw: float = 0.0                            # both sides destroyed
    captures: float = 0.0                        # the attacker wins with a unit that takes the territory
    retreats: float = 0.0                        # the attacker retreats by its order
    survivors: dict[str, dict[str, float]] = field(default_factory=dict)     # expected, by side and type
    ipc_swing: float = 0.0                       # defender's losses less the attacker's, in PUs, expected
    outcomes: list[dict] = field(default_factory=list)
    why: str = ""                                # why the battle was simulated
    runs: int = 0
    seed: int = 0
    states: int = 0                              # nodes the exact chain settled
    round: int = 1                               # the game round it is fought in (rules of a round: CL-26)

    def error(self, p: float) -> float:
        """One standard error of a simulated share (0 for exact odds)."""
        return math.sqrt(max(0.0, p * (1 - p)) / self.runs) if self.runs else 0.0

    def to_dict(self) -> dict:
        out = {"attacker_wins": self.attacker_wins, "defender_wins": self.defender_wins, "draw": self.draw,
               "captures": self.captures, "retreats": self.retreats, "method": self.method, "place": self.place,
               "attacker": self.attacker, "defenders": self.defender, "attacking": self.attacking,
               "defending": self.defending, "expected_survivors": self.survivors, "ipc_swing": self.ipc_swing,
               "outcomes": self.outcomes, "round": self.round}
        if self.method == "exact":
            out["states"] = self.states
        else:
            out.update(why=self.why, runs=self.runs, seed=self.seed,
                       standard_error={k: self.error(out[k]) for k in ("attacker_wins", "defender_wins", "draw")})
        return out


def reckon(position: Position, runs: int | None = None, seed: int = 1, simulate_only: str = "") -> Odds:
    """The odds of the position's battle: exact, unless the chain cannot follow it; then `runs` simulated battles
    (by default as many as the battle's size allows in seconds: simulate.default_runs) from `seed`. `simulate_only`: why to simulate all the same (to set the odds beside a battle calculator's)."""
    battle = position.battle()
    rules = position.rules
    odds = Odds(position.power, sorted({u.owner for u in battle.dfn}), position.place, _count(battle.att),
                _count(battle.dfn), "exact", round=position.state.round)
    try:
        if simulate_only:
            raise NotExact(simulate_only)
        chain = ExactOdds(battle, position.retreat_open())
        land = not rules.is_water(position.place)
        base = chain.base["attacker"]
        ends = [(p, r, _alive(base, a, True), _alive(chain.base["defender"], d, False),
                 r == "won" and land and any(rules.can_capture(u) for u, s in zip(base, a) if s >= 0))
                for (r, a, d), p in chain.solve().items()]
        odds.states = chain.nodes
    except NotExact as exc:
        runs = runs or default_runs(sum(odds.attacking.values()) + sum(odds.defending.values()))
        odds.method, odds.why, odds.runs, odds.seed = "simulation", str(exc), runs, seed
        ends = [(p, r, att, dfn, captured) for (r, att, dfn, captured), p in simulate(position, runs, seed).items()]
    _sum_up(odds, ends, rules)
    return odds


def _alive(units: list, key: tuple, left: bool) -> tuple[tuple[str, int], ...]:
    """The survivors of a side at an end, as (type, count) pairs; the attacker's count those that left."""
    counted: dict[str, int] = {}
    for u, s in zip(units, key):
        if s >= 0 or (left and s == LEFT):
            counted[u.type] = counted.get(u.type, 0) + 1
    return tuple(sorted(counted.items()))


def _count(units: list) -> dict[str, int]:
    counted: dict[str, int] = {}
    for u in units:
        counted[u.type] = counted.get(u.type, 0) + 1
    return dict(sorted(counted.items()))


def _sum_up(odds: Odds, ends: list, rules) -> None:
    """Odds, expected survivors and IPC swing from the ends: [(chance, result, attacker left, defender left,
    whether the attacker takes the territory)]."""
    price = {t: rules.ut(t).cost or 0 for t in {**odds.attacking, **odds.defending}}
    start_att = sum(price[t] * n for t, n in odds.attacking.items())
    start_dfn = sum(price[t] * n for t, n in odds.defending.items())
    survivors: dict[str, dict[str, float]] = {"attacker": {}, "defender": {}}
    grouped: dict[tuple, float] = {}
    swing = 0.0
    for p, result, att, dfn, captured in ends:
        key = WINS.get(result, "defender_wins")
        setattr(odds, key, getattr(odds, key) + p)
        if captured:
            odds.captures += p
        if result == "retreated":
            odds.retreats += p
        for side, left in (("attacker", att), ("defender", dfn)):
            for t, n in left:
                survivors[side][t] = survivors[side].get(t, 0.0) + p * n
        lost_att = start_att - sum(price[t] * n for t, n in att)
        lost_dfn = start_dfn - sum(price[t] * n for t, n in dfn)
        swing += p * (lost_dfn - lost_att)
        grouped[(result, att, dfn)] = grouped.get((result, att, dfn), 0.0) + p
    for key in ("attacker_wins", "defender_wins", "draw", "captures", "retreats"):    # sums of floats: 1.0000000000000002
        setattr(odds, key, min(1.0, max(0.0, getattr(odds, key))))
    odds.ipc_swing = swing
    odds.survivors = {side: dict(sorted(found.items())) for side, found in survivors.items()}
    top = sorted(grouped.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
    odds.outcomes = [{"probability": p, "result": RESULTS[r], "attacker": dict(a), "defender": dict(d)}
                     for (r, a, d), p in top]


RESULTS = {"won": "attacker wins", "destroyed": "both destroyed", "held": "defender holds",
           "retreated": "attacker retreats", "stalemate": "neither side can hit the other"}

