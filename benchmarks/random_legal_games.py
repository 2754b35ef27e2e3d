"""The long run of random legal turns (issue 26, item 1): whole games of random legal turns (tests/legal_turns.py)
on the G40 2nd-edition map, the G40 Alt-Universe 2.0.8 map, with `--game classic` europe_improved and pacific,
with `--game expanded-global` the G40 2nd-edition map and with `--game apone-europe` europe_improved, each audited
at the end. The generator knows Sgt. Apone's own orders only as the classic game's: his rules refuse some of its
lines (commandos it tries to place, British units it places in Egypt without set-aside money), counted as refusals.

    python benchmarks/random_legal_games.py [--games N] [--rounds R] [--seed S] [--jobs J] [--cli-turns C]
                                            [--errors FILE] [--maps NAME,…]

plays N games on each map named (tests/legal_turns.py MAPS: g40, g40-alt-universe, classic-europe, classic-pacific,
expanded-global, apone-europe; all by default; seeds S, S+1, …, a map's seeds playing the same games whatever else is
played) of R rounds each (by default 5 games of 6 rounds on the six maps: some 1380 power-turns), J at a time in separate processes;
the first C power-turns of each game go through the CLI (its own process), where exit code 3 is an internal error.
It prints the counts (power-turns, orders written and accepted by kind, refusals by rule, battles, amphibious
landings, raids, scrambles, internal errors, audits; by map too) and the time, as one JSON object; every internal
error (seed, power, round, orders, traceback) goes to FILE (default: standard error). Each turn's report is checked
by `verify`. Exit code 1 on any internal error, failed audit or report whose dice do not verify. The maps come from
ADJUDICATOR_TEST_MAPS or the shared folder, as for the tests (benchmarks/shared.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))              # runnable from a checkout without installing the package
sys.path.insert(0, str(ROOT / "tests"))

from shared import test_maps  # noqa: E402



def one_game(game: str, seed: int, rounds: int, cli_turns: int) -> dict:
    """Play and audit one game in a folder of its own; its tally as a dict."""
    import legal_turns
    from adjudicator.config import Settings
    with tempfile.TemporaryDirectory() as work:
        keys = Path(work) / "keys"
        os.environ["ADJUDICATOR_KEYS_DIR"] = str(keys)
        settings = Settings(database=None, maps_path=[test_maps()], keys_dir=keys, templates_dir=None)
        tally = legal_turns.Tally()
        start = time.perf_counter()
        cli = legal_turns.subprocess_cli({"ADJUDICATOR_KEYS_DIR": str(keys), "PYTHONPATH": str(ROOT)})
        legal_turns.play_game(str(Path(work) / "game.db"), game, test_maps(), seed, rounds, settings, tally,
                              cli=cli, cli_turns=cli_turns)
        return {"tally": tally, "seconds": time.perf_counter() - start, "game": game, "seed": seed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games on each map")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of each game")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1), help="games played at once")
    parser.add_argument("--cli-turns", type=int, default=2, help="power-turns of each game played through the CLI")
    parser.add_argument("--errors", help="write the internal errors here (JSON), not to standard error")
    parser.add_argument("--maps", default=None,
                        help="the maps played, comma-separated names of tests/legal_turns.py MAPS (default: all: "
                             "g40, g40-alt-universe, classic-europe, classic-pacific, expanded-global, apone-europe)")
    args = parser.parse_args()
    if not (test_maps() / "world_war_ii_global").is_dir():
        print(f"the TripleA test maps are not at {test_maps()}: set ADJUDICATOR_TEST_MAPS or ADJUDICATOR_SHARED",
              file=sys.stderr)
        return 2
    import legal_turns
    games = args.maps.split(",") if args.maps else list(legal_turns.MAPS)
    unknown = [g for g in games if g not in legal_turns.MAPS]
    if unknown:
        print(f"no such map: {', '.join(unknown)} (there are {', '.join(legal_turns.MAPS)})", file=sys.stderr)
        return 2
    start = time.perf_counter()
    total = legal_turns.Tally()
    by_map = {game: legal_turns.Tally() for game in games}
    per_game = []
    jobs = [(game, args.seed + k, args.rounds, args.cli_turns) for k in range(args.games) for game in games]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done in pool.map(one_game, *zip(*jobs)):
            total.add(done["tally"])
            by_map[done["game"]].add(done["tally"])
            per_game.append({"game": done["game"], "seed": done["seed"], "power_turns": done["tally"].power_turns,
                             "internal_errors": len(done["tally"].internal_errors),
                             "seconds": round(done["seconds"], 1)})
    maps = {game: {"power_turns": t.power_turns, "battles": t.events["battles"],
                   "internal_errors": len(t.internal_errors), "audits_passed": sum(a["ok"] for a in t.audits),
                   "audits": len(t.audits), "reports_failing_verify": len(t.verify_failures)}
            for game, t in by_map.items()}
    figures = {**total.summary(), "maps": maps, "games": per_game, "wall_s": round(time.perf_counter() - start, 1)}
    print(json.dumps(figures, indent=1))
    errors = [{k: v for k, v in e.items()} for e in total.internal_errors]
    if errors:
        text = json.dumps(errors, indent=1)
        if args.errors:
            Path(args.errors).write_text(text)
        else:
            print(text, file=sys.stderr)
    failed_audits = [a for a in total.audits if not a["ok"]]
    for a in failed_audits:
        print(f"audit of {a['game']} failed:\n  " + "\n  ".join(a["lines"][:20]), file=sys.stderr)
    for v in total.verify_failures:
        print(f"the report of {v['game']} seed {v['seed']} round {v['round']} {v['power']} fails verify:\n  "
              + "\n  ".join(v["lines"]), file=sys.stderr)
    print(f"{len(total.internal_errors)} internal errors in {total.power_turns} power-turns; "
          f"{len(total.audits) - len(failed_audits)} of {len(total.audits)} audits passed; "
          f"{figures['wall_s']} s", file=sys.stderr)
    return 1 if total.internal_errors or failed_audits or total.verify_failures else 0


if __name__ == "__main__":
    sys.exit(main())
