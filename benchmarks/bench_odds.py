"""Exact odds of a 20 v 20 land-and-air battle; the target is under 50 ms of computation. Then the whole
`adjudicator odds` process against `adjudicator --help` (the command's start-up), each the best of 5 runs.

Attackers: 6 infantry, 4 artillery, 4 armour, 4 fighters, 2 tactical bombers (the demo's G40 units: artillery
lifts infantry, fighters and armour lift tactical bombers). Defenders: 10 infantry, 2 artillery, 4 armour, 4 fighters.
Also timed, not held to the target: the same battle with an AA gun among the defenders (its shots make the chain
some three times larger). Run from the repository root: `.venv/bin/python benchmarks/bench_odds.py`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from adjudicator.games import game_module
from adjudicator.odds import read_units, reckon, standalone

TARGET_MS = 50.0
ATTACK = "6 inf, 4 art, 4 arm, 4 ftr, 2 tac"
DEFEND = "10 inf, 2 art, 4 arm, 4 ftr"
COMMAND = Path(sys.executable).parent / "adjudicator"


def computation(rules, attack: str, defend: str, runs: int = 5) -> tuple[float, dict]:
    """The best time of `runs` reckonings (the position made fresh each time, not timed), and the odds."""
    times = []
    for _ in range(runs):
        pos = standalone(rules, read_units(rules, attack, "a", "Germans"), read_units(rules, defend, "d", "Russians"),
                         "Germans", "Russians", "Belarus")
        t0 = time.perf_counter()
        found = reckon(pos)
        times.append((time.perf_counter() - t0) * 1000)
    return min(times), found.to_dict()


def process(*args: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([str(COMMAND), *args], check=True, capture_output=True)
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def main() -> int:
    module = game_module("demo")
    rules = module.RULES(module.scenario(), "")
    assert sum(int(p.split()[0]) for p in ATTACK.split(", ")) == sum(int(p.split()[0]) for p in DEFEND.split(", ")) == 20
    best, found = computation(rules, ATTACK, DEFEND)
    aa, aa_found = computation(rules, ATTACK, DEFEND + ", 1 aa gun")
    print(f"20 v 20 land and air, exact over {found['states']:,} states: {best:.1f} ms (target {TARGET_MS:.0f} ms); "
          f"attacker wins {found['attacker_wins']:.2%}")
    print(f"the same with an AA gun, exact over {aa_found['states']:,} states: {aa:.1f} ms")
    odds_ms = process("odds", "--attacker", ATTACK, "--defender", DEFEND)
    help_ms = process("--help")
    print(f"whole process: `adjudicator odds` {odds_ms:.0f} ms, `adjudicator --help` {help_ms:.0f} ms "
          f"({odds_ms / help_ms:.1f}x)")
    return 0 if best < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
