"""Adjudicate a 40-unit sea-and-air battle on the G40 2nd-edition map; the target is under 20 ms of engine time.

Attackers: 2 battleships, 2 cruisers, 4 destroyers, 4 submarines, 1 carrier, 6 fighters, 3 tactical bombers.
Defenders: 1 battleship, 2 cruisers, 4 destroyers, 3 submarines, 2 carriers, 4 fighters, 2 transports.
Each run is one full battle (every round to the end) under a different seed, with real audited dice.
Run from the repository root: `.venv/bin/python benchmarks/bench_sea_battle.py [MAPS_FOLDER]`.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from adjudicator import dice
from adjudicator.rules.g40_family import G40Rules
from adjudicator.rules.combat import Battle, BattleOrders
from adjudicator.state import State
from adjudicator.triplea import load_scenario
from shared import test_maps

TARGET_MS = 20.0
XML = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
ZONE = "110 Sea Zone"
ATTACK = {"battleship": 2, "cruiser": 2, "destroyer": 4, "submarine": 4, "carrier": 1, "fighter": 6, "tactical_bomber": 3}
DEFEND = {"battleship": 1, "cruiser": 2, "destroyer": 4, "submarine": 3, "carrier": 2, "fighter": 4, "transport": 2}


def position(scenario) -> State:
    state = State.initial(scenario)
    state.units = [u for u in state.units if u.place != ZONE]
    for owner, army in (("Germans", ATTACK), ("British", DEFEND)):
        for unit, n in army.items():
            for _ in range(n):
                u = state.add_unit(unit, owner, ZONE)
                if owner == "Germans":
                    u.mark(combat_moved=True)
    return state


def main() -> int:
    maps = Path(sys.argv[1]) if len(sys.argv) > 1 else test_maps()
    scenario = load_scenario(maps / XML)
    rules = G40Rules(scenario)
    base = position(scenario)
    assert sum(ATTACK.values()) + sum(DEFEND.values()) == 40
    times, rounds = [], []
    for seed in range(50):
        state = base.copy()
        roller = dice.Roller(dice.sha256_hex(f"bench {seed}").encode()[:32], "bench", 1)
        t0 = time.perf_counter()
        event = Battle(rules, state, "Germans", ZONE, roller, BattleOrders()).fight()
        times.append((time.perf_counter() - t0) * 1000)
        rounds.append(len(event["rounds"]))
    mean, worst = statistics.mean(times), max(times)
    print(f"40-unit sea-and-air battle: mean {mean:.2f} ms, median {statistics.median(times):.2f} ms, "
          f"worst {worst:.2f} ms over 50 battles of {min(rounds)}-{max(rounds)} rounds (target {TARGET_MS:.0f} ms)")
    return 0 if mean < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
