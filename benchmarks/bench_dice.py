"""Timings of the audited dice: is rolling or chain derivation ever a cost worth thinking about?

Run with `python benchmarks/bench_dice.py` from the repository root.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Runnable from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.dice import CHAIN_LENGTH, Roller, anchor, chain_seed, seed_follows, seed_matches_anchor  # noqa: E402

SECRET = bytes(range(32))


def timed(what: str, fn, repeat: int = 3) -> float:
    """Best of `repeat` runs, so a busy machine does not inflate the figure."""
    best = min(_once(fn) for _ in range(repeat))
    print(f"{what:<58} {best * 1000:10.2f} ms")
    return best


def _once(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def roll_million_d6() -> None:
    roller = Roller(chain_seed(SECRET, 1), "bench", 1)
    for g in range(100_000):
        roller.roll(f"battle:G{g}:r1:attacker", 6, 10)


def main() -> None:
    print(f"Python {sys.version.split()[0]}, chain length {CHAIN_LENGTH}")
    t = timed("1,000,000 d6 in 100,000 groups of 10 (Roller)", roll_million_d6, repeat=2)
    print(f"{'':<58} {t / 1e6 * 1e9:10.0f} ns per die, {t / 1e5 * 1e6:.1f} us per group")
    timed("anchor: 4096 hashes from s_N to s_0", lambda: anchor(SECRET))
    timed("seed of turn 1 (the longest derivation, 4095 hashes)", lambda: chain_seed(SECRET, 1))
    s4096 = chain_seed(SECRET, CHAIN_LENGTH)
    a = anchor(SECRET)
    timed("verify s_4096 against the anchor (4096 hashes)", lambda: seed_matches_anchor(s4096, CHAIN_LENGTH, a))
    seeds = [chain_seed(SECRET, i) for i in range(CHAIN_LENGTH + 1)]
    timed("audit 4096 revealed seeds pairwise (seed_follows)",
          lambda: all(seed_follows(seeds[i], seeds[i - 1]) for i in range(1, CHAIN_LENGTH + 1)))
    timed("derive every seed s_1..s_4096 from s_N, one by one (naive)",
          lambda: [chain_seed(SECRET, i) for i in range(1, CHAIN_LENGTH + 1)], repeat=1)
    verify_wall_time()


def verify_wall_time() -> None:
    """`adjudicator verify` of a posted report, start to exit (goal: under 0.5 s; it loads neither the store,
    the rules nor the templates, which tests/test_verify.py checks)."""
    command = Path(sys.executable).with_name("adjudicator")
    with tempfile.TemporaryDirectory() as tmp:
        demo = subprocess.run([str(command), "demo"], capture_output=True, text=True, check=True).stdout
        post = Path(tmp) / "report.md"
        post.write_text(demo, encoding="utf-8")
        timed("`adjudicator verify` of the demo's reports (goal < 500 ms)",
              lambda: subprocess.run([str(command), "verify", str(post)], capture_output=True))


if __name__ == "__main__":
    main()
