"""The game site of a long game (issue 35): `adjudicator site` on a scripted 20-round G40 Alt-Universe game (180
power-turns, benchmarks/bench_game.py's players), built from nothing, then rebuilt after one more power-turn, which
must cost a fraction of the first build (only that turn's page and picture, the page before it and the index are
made). Prints one JSON line of figures: both times, the files, and the sizes a phone loads (the index, a turn page,
the script and stylesheet, a map picture).

Run `python benchmarks/bench_site.py [ROUNDS]` from the repository root; the played game and its key are kept in
benchmarks/.cache (delete them after changing the rules)."""

from __future__ import annotations

import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))          # runnable from a checkout without installing the package

from adjudicator.config import Settings  # noqa: E402
from bench_game import maps_path, orders_for, play, submit_what_passes  # noqa: E402


def one_more_turn(db: str, settings: Settings) -> None:
    from adjudicator.game import adjudicate, open_game, status
    from adjudicator.store.db import open_existing, transaction
    engine = open_existing(db)
    with transaction(engine) as s:
        scenario = open_game(s).scenario
    st = status(engine)
    submit_what_passes(engine, st["power"], orders_for(st, scenario, random.Random(st["turn_index"])))
    adjudicate(engine, settings)
    engine.dispose()


def built(db: str, out: Path) -> tuple[float, dict]:
    from adjudicator.site.pages import build
    from adjudicator.store.db import open_existing
    engine = open_existing(db)
    start = time.perf_counter()
    result = build(engine, str(out))
    engine.dispose()
    return time.perf_counter() - start, result


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    cache = ROOT / "benchmarks" / ".cache"
    keys = cache / f"site-keys-{rounds}"
    settings = Settings(database=None, maps_path=maps_path(), keys_dir=keys, templates_dir=None)
    played = cache / f"site-au-{rounds}.db"
    if not played.exists():
        cache.mkdir(exist_ok=True)
        play(str(played), settings, rounds)
    with tempfile.TemporaryDirectory() as work:
        db, out = str(Path(work) / "game.db"), Path(work) / "site"
        shutil.copy(played, db)
        first, result = built(db, out)
        one_more_turn(db, settings)
        again, after = built(db, out)
        turns = sorted((out / "turns").glob("*.html"))
        maps = sorted((out / "maps").glob("*.png"))
        print(json.dumps({
            "rounds": rounds, "turn_pages": result["turns"], "files": result["files"],
            "build_s": round(first, 1), "rebuild_after_one_turn_s": round(again, 2),
            "rebuild_fraction": round(again / first, 3), "rebuilt_files": len(after["written"]),
            "index_kb": round((out / "index.html").stat().st_size / 1024, 1),
            "turn_page_kb_median": round(statistics.median(p.stat().st_size for p in turns) / 1024, 1),
            "turn_page_kb_max": round(max(p.stat().st_size for p in turns) / 1024, 1),
            "script_and_css_kb": round(sum((out / n).stat().st_size for n in ("dice.js", "site.css")) / 1024, 1),
            "map_kb_median": round(statistics.median(p.stat().st_size for p in maps) / 1024, 1),
        }))


if __name__ == "__main__":
    main()
