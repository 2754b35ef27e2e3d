"""How long `audit` takes on a long game: 20 rounds of the demo scenario (60 power-turns), target under 2 s.

Every turn the mover buys infantry for its capital, attacks from its strongest stack into a neighbouring enemy
territory, and ends the turn; the orders are written from the position at the start of the turn, so they are
legal whatever the dice did before. Run with `python benchmarks/bench_audit.py [ROUNDS]` from the repository root.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

# Runnable from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.audit import audit  # noqa: E402
from adjudicator.config import Settings  # noqa: E402
from adjudicator.game import adjudicate, new_game, status, submit  # noqa: E402
from adjudicator.games.demo import scenario  # noqa: E402
from adjudicator.store.db import open_existing  # noqa: E402

SEED = "ab" * 32
FIGHTERS = ("infantry", "artillery", "mech_infantry", "armour")
CAPITALS = {"Germans": "Germany", "Russians": "Moscow", "Italians": "Italy"}


def orders_for(st: dict, neighbours) -> str:
    """A legal turn for the power to move, from the position `status` gives."""
    me = st["power"]
    enemies = set(st["powers"][me]["at_war_with"])
    lines = []
    capital = CAPITALS[me]
    count = min(st["powers"][me]["treasury"] // 3, 3)
    if st["territories"][capital]["owner"] == me and count:
        lines += [f"buy {count} inf"]
    stacks = [(sum(n for t, n in place["units"].get(me, {}).items() if t in FIGHTERS), name)
              for name, place in st["territories"].items() if place["owner"] == me]
    for size, origin in sorted(stacks, reverse=True):
        targets = [n for n in sorted(neighbours(origin)) if st["territories"].get(n, {}).get("owner") in enemies]
        if size >= 2 and targets:
            units = ", ".join(f"{n} {t}" for t, n in st["territories"][origin]["units"][me].items() if t in FIGHTERS)
            lines.append(f"cm {units} {origin} > {targets[0]}")
            break
    if lines and lines[0].startswith("buy"):
        lines.append(f"place {count} inf {capital}")
    return "\n".join(lines + ["end"]) + "\n"


def play(db: str, settings: Settings, rounds: int) -> None:
    """Play `rounds` rounds on a new demo game."""
    new_game(db, "demo", settings, seed_hex=SEED, game_id="bench")
    engine = open_existing(db)
    neighbours = scenario().neighbours
    while True:
        st = status(engine)
        if st["round"] > rounds:
            break
        submit(engine, st["power"], orders_for(st, neighbours))
        adjudicate(engine, settings)
    engine.dispose()


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as work:
        settings = Settings(database=None, maps_path=[], keys_dir=Path(work) / "keys", templates_dir=None)
        db = str(Path(work) / "bench.db")
        start = time.perf_counter()
        play(db, settings, rounds)
        played = time.perf_counter() - start
        times = []
        for _ in range(3):
            start = time.perf_counter()
            result = audit(db)
            times.append(time.perf_counter() - start)
        assert result.ok, result.mismatch.message()
        groups = sum(v.groups for v in result.turns.values())
        dice_count = sum(v.dice for v in result.turns.values())
        print(f"{rounds} rounds: {len(result.turns)} power-turns, {result.submissions} submissions, {result.steps} steps, "
              f"{groups} dice groups ({dice_count} dice); played in {played:.2f} s")
        print(f"audit: best {min(times):.3f} s of {len(times)} (target < 2 s)")


if __name__ == "__main__":
    main()
