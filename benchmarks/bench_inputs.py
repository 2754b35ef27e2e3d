"""Time the reading of pathological inputs: every input is read in time linear in its size, or refused at once
by a documented limit (README, "Input limits"). Prints seconds per input, and the peak memory of `submit` given
a 10 MB file; no thresholds here (a benchmark).

    python benchmarks/bench_inputs.py [--only TEXT]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adjudicator.config import Settings
from adjudicator.errors import AdjudicatorError
from adjudicator.game import edit, new_game, submit
from adjudicator.store.db import open_existing
from adjudicator.verify import check, summary

GROUP = "battle:Belarus:r{k}:attacker | d6 | 1 4 1 6 3 5 6 | infantry@1"
BLOCK = ("adjudicator dice\ngame: g\nturn: 1\nanchor: " + "ab" * 32 + "\nseed: " + "cd" * 32 + "\n")
JUNK_LINES = 130        # lines of 2,000 characters: just under the submission's byte limit

VERIFY = {
    "50,000 '>' on a line": ">" * 50_000 + "\n" + BLOCK,
    "'x', 100,000 spaces, 'y'": "x" + " " * 100_000 + "y\n" + BLOCK,
    "30,000 dice groups": BLOCK + "\n".join(GROUP.format(k=k) for k in range(30_000)),
    "100,000 nested [quote]": "[quote]" * 100_000 + BLOCK,
    "20,000 dice groups (the limit)": BLOCK + "\n".join(GROUP.format(k=k) for k in range(20_000)),
    "'<p' 1,000,000 times": "<p" * 1_000_000 + "\n" + BLOCK,
    "240,000 empty dice blocks": "adjudicator dice\n" * 240_000,
    "4 MiB of CR": BLOCK + "\r" * (4 * 1024 * 1024 - 200),
}
SUBMIT = {
    "'[b=' 20,000 times": "[b=" * 20_000,
    "100,000 nested [code]": "[code]" * 100_000 + "\nbuy 1 inf\n",
    "ncm of 10,000 units": "ncm 10000 inf Germany > Poland\n",
    "a list of 10,000 units": "ncm " + ", ".join(["1 inf"] * 10_000) + " Germany > Poland\n",
    "10 MB of orders": "buy 1 inf\n" * 1_000_000,
    "100,000 lines of '>'": "> \n" * 100_000,
    "262,144 CRs": "\r" * 262_144,
    "40,000 nested [code] (in limits)": "[code]" * 40_000 + "\nbuy 1 inf\n",
    "'[b=' 650 times on 130 lines": ("[b=" * 650 + "\n") * 130,
    "5,000 order lines (the limit)": "buy 1 inf\n" * 4_999,
    "'ncm 1 inf , , …' on 130 lines": ("ncm 1 inf " + ", " * 995 + "\n") * JUNK_LINES,
    "'retreat , , …' on 130 lines": ("retreat " + ", " * 995 + "\n") * JUNK_LINES,
    "'buy buy …' on 130 lines": ("buy " * 499 + "\n") * JUNK_LINES,
    "'place inf, inf, …' on 130 lines": ("place " + "inf, " * 398 + "\n") * JUNK_LINES,
}
# A host's corrections: 5,000,000 units took 13.5 s and 2 GB before the limit on units in all (issue 27).
EDIT = {
    "5,000 lines adding 1,000 infantry": "add Germans 1000 inf Germany\n" * 5_000,
    "10 lines adding 1,000 infantry (limit)": "add Germans 1000 inf Germany\n" * 10,
}
# Orders for a stack no real game has, put there with `edit`: 1,000 infantry in Germany.
STACK = {
    "ncm of the 1,000 infantry": "ncm 1000 inf Germany > Poland\n",
    "a list of 250 items of 1 inf": "ncm " + ", ".join(["1 inf"] * 250) + " Germany > Poland\n",
    "1,000 orders of 1 infantry": "ncm 1 inf Germany > Poland\n" * 1_000,
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


# Run from a small Python of its own: a child starts with the memory of the process it was forked from.
PEAK = "import os, subprocess, sys; c = subprocess.Popen(sys.argv[1:]); print(os.wait4(c.pid, 0)[2].ru_maxrss)"


def peak_memory_of_submit(db: str, folder: Path, megabytes: int) -> float:
    """MiB at the peak of `adjudicator submit --dry-run` of a file of `megabytes` MB."""
    orders = folder / "big.txt"
    orders.write_text("buy 1 inf\n" * (megabytes * 100_000))
    command = [sys.executable, "-m", "adjudicator", "submit", db, "--power", "Germans", "--dry-run", orders]
    out = subprocess.run([sys.executable, "-c", PEAK, *map(str, command)], capture_output=True, text=True,
                         env={"ADJUDICATOR_KEYS_DIR": str(folder / "keys")})
    return int(out.stdout.split()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="run only the inputs whose name holds this text")
    only = ap.parse_args().only
    for name, text in VERIFY.items():
        if only in name:
            seconds, outcome = timed(lambda: summary(check(text)))
            print(f"verify  {name:34} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database=None, maps_path=[], keys_dir=Path(folder) / "keys", templates_dir=None)
        db = str(Path(folder) / "g.db")
        new_game(db, "demo", settings, seed_hex="00" * 31 + "01", game_id="bench")
        engine = open_existing(db)
        for name, text in SUBMIT.items():
            if only in name:
                seconds, outcome = timed(lambda: submit(engine, "Germans", text, dry_run=True))
                print(f"submit  {name:34} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
        if only in "peak memory":
            peaks = ", ".join(f"{peak_memory_of_submit(db, Path(folder), mb):.0f} MiB for {mb} MB"
                              for mb in (0, 10, 100))
            print(f"submit  peak memory of the whole command: {peaks}")
        for name, text in EDIT.items():
            if only in name:
                seconds, outcome = timed(lambda: edit(engine, text, "bench", dry_run=True))
                print(f"edit    {name:34} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
        edit(engine, "add Germans 996 inf Germany\n", "bench: a stack no real game has")
        for name, text in STACK.items():
            if only in name:
                seconds, outcome = timed(lambda: submit(engine, "Germans", text, dry_run=True))
                print(f"stack   {name:34} {len(text):>10,} chars {seconds:8.3f} s  {outcome}")
        engine.dispose()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
