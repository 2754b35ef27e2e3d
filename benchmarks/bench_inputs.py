"""Time the reading of pathological inputs: every input is read in time linear in its size, or refused at once
by a documented limit (README, "Input limits"). Prints seconds per input; no thresholds here (a benchmark).

    python benchmarks/bench_inputs.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from adjudicator.config import Settings
from adjudicator.errors import AdjudicatorError
from adjudicator.game import new_game, submit
from adjudicator.store.db import open_existing
from adjudicator.verify import check

GROUP = "battle:Belarus:r{k}:attacker | d6 | 1 4 1 6 3 5 6 | infantry@1"
BLOCK = ("adjudicator dice\ngame: g\nturn: 1\nanchor: " + "ab" * 32 + "\nseed: " + "cd" * 32 + "\n")

VERIFY = {
    "50,000 '>' on a line": ">" * 50_000 + "\n" + BLOCK,
    "'x', 100,000 spaces, 'y'": "x" + " " * 100_000 + "y\n" + BLOCK,
    "30,000 dice groups": BLOCK + "\n".join(GROUP.format(k=k) for k in range(30_000)),
    "100,000 nested [quote]": "[quote]" * 100_000 + BLOCK,
    "20,000 dice groups (the limit)": BLOCK + "\n".join(GROUP.format(k=k) for k in range(20_000)),
    "'<p' 1,000,000 times": "<p" * 1_000_000 + "\n" + BLOCK,
}
SUBMIT = {
    "'[b=' 20,000 times": "[b=" * 20_000,
    "100,000 nested [code]": "[code]" * 100_000 + "\nbuy 1 inf\n",
    "ncm of 10,000 units": "ncm 10000 inf Germany > Poland\n",
    "a list of 10,000 units": "ncm " + ", ".join(["1 inf"] * 10_000) + " Germany > Poland\n",
    "10 MB of orders": "buy 1 inf\n" * 1_000_000,
    "100,000 lines of '>'": "> \n" * 100_000,
    "40,000 nested [code] (in limits)": "[code]" * 40_000 + "\nbuy 1 inf\n",
    "'[b=' 650 times on 130 lines": ("[b=" * 650 + "\n") * 130,
    "5,000 order lines (the limit)": "buy 1 inf\n" * 4_999,
    "ncm of 1,000 units (the limit)": "ncm 1000 inf Germany > Poland\n",
    "a list of 250 unit items": "ncm " + ", ".join(["1 inf"] * 250) + " Germany > Poland\n",
}


def timed(fn) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        fn()
        outcome = "read"
    except AdjudicatorError as exc:
        lines = exc.message.splitlines()
        outcome = "refused: " + lines[min(1, len(lines) - 1)][:100]
    return time.perf_counter() - start, outcome


def main() -> None:
    for name, text in VERIFY.items():
        seconds, outcome = timed(lambda: check(text))
        print(f"verify  {name:28} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database=None, maps_path=[], keys_dir=Path(folder) / "keys", templates_dir=None)
        db = str(Path(folder) / "g.db")
        new_game(db, "demo", settings, seed_hex="00" * 31 + "01", game_id="bench")
        engine = open_existing(db)
        for name, text in SUBMIT.items():
            seconds, outcome = timed(lambda: submit(engine, "Germans", text, dry_run=True))
            print(f"submit  {name:28} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
        engine.dispose()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
