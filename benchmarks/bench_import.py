"""Timing of the TripleA map import: reading the biggest shared game XML into a Scenario (goal: under 0.5 s, so
that `new` and the tests that load maps stay quick).

Run with `python benchmarks/bench_import.py` from the repository root, with ../shared beside it (or
ADJUDICATOR_SHARED naming the shared folder, or ADJUDICATOR_TEST_MAPS the maps folder).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# Runnable from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.triplea import load_scenario  # noqa: E402
from shared import test_maps  # noqa: E402

MAPS = test_maps()


def main() -> None:
    biggest = max(MAPS.glob("*/map/games/*.xml"), key=lambda p: p.stat().st_size)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        load_scenario(biggest)
        best = min(best, time.perf_counter() - start)
    print(f"import of {biggest.name} ({biggest.stat().st_size // 1024} KiB): best of 3 {best * 1000:.0f} ms "
          f"(goal < 500 ms)")


if __name__ == "__main__":
    main()
