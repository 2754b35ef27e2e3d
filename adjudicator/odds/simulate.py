"""The fallback where exact odds are out of reach: the adjudicator's own battle, fought many times, with dice
from a generator seeded once for all the runs, so that a run of `odds` can be repeated to the last digit; these
dice decide nothing in a game, so they need not be the audited kind anyone can recheck."""

from __future__ import annotations

import random

from .. import dice
from .position import Position

DEFAULT_RUNS = 2000
WORK = 3_200_000          # a run costs some units × rounds, and rounds grow with the units: 2,000 runs of 40 units
FEWEST_RUNS = 50


def default_runs(units: int) -> int:
    """Runs enough for error bars of a few points, fewer for a big battle (whose runs cost more), so that a
    simulation takes seconds."""
    return max(FEWEST_RUNS, min(DEFAULT_RUNS, WORK // max(1, units * units)))


def fight(position: Position, roller) -> tuple[str, list, list, bool]:
    """One battle of the position, fought by the adjudicator on a copy of it: how it ended (as the exact chain
    names it), the units of each side still on the board (survivors, retreated or left), and whether the
    attacker took the territory."""
    state = position.state.copy()
    battle = position.battle(state, roller)
    att, dfn = [u.id for u in battle.att], [u.id for u in battle.dfn]
    result = battle.fight()["result"]
    ended = {"captured": "won", "cleared": "won", "destroyed": "destroyed", "retreated": "retreated",
             "stalemate": "stalemate"}.get(result, "held")
    return (ended, [state.unit(i) for i in att if state.unit(i)], [state.unit(i) for i in dfn if state.unit(i)],
            result == "captured")


def simulate(position: Position, runs: int, seed: int) -> dict[tuple, float]:
    """How often each end came up in `runs` battles: {(result, attacker survivors, defender survivors, captured):
    share}, survivors as sorted (type, count) pairs."""
    counts: dict[tuple, int] = {}
    rng = random.Random(seed)

    def draw(label: str, sides: int, count: int) -> list[int]:
        return [rng.randint(1, sides) for _ in range(count)]
    for _ in range(runs):
        ended, att, dfn, captured = fight(position, dice.FixedRoller(draw))
        key = (ended, _tally(att), _tally(dfn), captured)
        counts[key] = counts.get(key, 0) + 1
    return {k: n / runs for k, n in counts.items()}


def _tally(units: list) -> tuple[tuple[str, int], ...]:
    counted: dict[str, int] = {}
    for u in units:
        counted[u.type] = counted.get(u.type, 0) + 1
    return tuple(sorted(counted.items()))
