"""Speed at game scale (issue 13): a scripted 20-round G40 Alt-Universe game, audited; one big power-turn; the
commands a player runs most. Prints one JSON line of figures.

- `audit_s`: the whole `adjudicator audit DB` command on the 20-round game (180 power-turns; the scripted players
  fight some 170 battles, in about half of the turns), against `floor_s`, the time of `python -c "import sqlmodel, typer, jinja2, dotenv"` on the same
  machine: target `audit_ratio` < 4.
- `power_turn_ms`: engine time (check at submit, then play with dice) of one power-turn of about 40 orders and
  8 battles on that map, the database left out: target < 50 ms.
- `status_ratio`, `dry_run_ratio`, `report_ratio`: each command's time over the floor: target <= 1.2.
- `store_free`: `verify` and `--help` import no part of the store (nor SQLAlchemy).

Each time is the best of several runs, with byte-code caching on (as an installed package has it); each run of a
command follows a run of the floor, and a ratio is the median of those pairs' ratios. The map comes
from ADJUDICATOR_MAPS_PATH, else the test maps (benchmarks/shared.py). Run `python benchmarks/bench_game.py [ROUNDS]` from the
repository root; the played game is kept in benchmarks/.cache (delete it after changing the rules).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))          # runnable from a checkout without installing the package

from adjudicator.config import Settings  # noqa: E402
from adjudicator.errors import SubmissionRejected  # noqa: E402
from shared import test_maps  # noqa: E402

SEED = "cd" * 32
GAME = "g40-alt-universe"
LAND = ("infantry", "infantryC", "artillery", "artilleryC", "mech_infantry", "armour")
WARSHIPS = ("submarine", "destroyer", "cruiser", "battleship")
FACTORIES = ("factory_major", "factory_minor")
RUNS = 5
FLOOR = [sys.executable, "-c", "import sqlmodel, typer, jinja2, dotenv"]


def maps_path() -> list[Path]:
    given = [Path(p) for p in os.environ.get("ADJUDICATOR_MAPS_PATH", "").split(os.pathsep) if p.strip()]
    return given or [test_maps()]


# -- the scripted game ------------------------------------------------------------------------------------

def front_distance(scenario, terr: dict, me: str, enemies: set[str]) -> dict[str, int]:
    """Land territories -> steps over land to the nearest enemy-held one."""
    frontier = [t for t, v in terr.items() if v["owner"] in enemies and not scenario.territory(t).water]
    distance = {t: 0 for t in frontier}
    while frontier:
        nxt = []
        for t in frontier:
            for n in scenario.neighbours(t):
                if n not in distance and not scenario.territory(n).water:
                    distance[n] = distance[t] + 1
                    nxt.append(n)
        frontier = nxt
    return distance


def orders_for(st: dict, scenario, rng: random.Random, big: bool = False) -> list[str]:
    """A turn for the power to move, from the position `status` gives: declare war on every power the rules let
    it, buy infantry for a factory, attack with land stacks and warships next to an enemy (the Allies never a
    city: on Alt-Universe they win from round 8 while the Axis hold fewer than 8, and the game must last its
    rounds), march the Axis's other land
    stacks a step towards the front, place, end. `big` attacks with everything it can (up to 8 battles), an order
    per unit type: the 40-order turn."""
    me = st["power"]
    players = set(scenario.turn_players())
    enemies = {p for p in st["powers"][me]["at_war_with"] if p in players}
    allies, axis = set(), False
    for p in scenario.players:
        if p.name == me:
            allies = {q.name for q in scenario.players if set(q.alliances) & set(p.alliances)}
            axis = "Axis" in p.alliances
    declare = sorted(players - allies - enemies - {me})
    enemies |= set(declare)
    terr = st["territories"]
    factories = sorted(t for t, v in terr.items() if v["owner"] == me and set(v["units"].get(me, {})) & set(FACTORIES))
    count = min(st["powers"][me]["treasury"] // 3, 4 * len(factories), 8 if big else 4)
    lines = [f"buy {count} inf"] if count else []
    lines += [f"war {p}" for p in declare]
    battles, moved, attacked = 0, set(), set()
    limit = 8 if big else 3
    for origin in sorted(terr, key=lambda t: rng.random()):
        mine = terr[origin]["units"].get(me, {})
        water = scenario.territory(origin).water
        kinds = WARSHIPS if water else LAND
        force = {t: n for t, n in mine.items() if t in kinds}
        if not force or battles >= limit:
            continue
        targets = [n for n in sorted(scenario.neighbours(origin)) if scenario.territory(n).water == water
                   and (axis or not scenario.territory(n).victory_city)    # see the docstring
                   and (terr.get(n, {}).get("owner") in enemies if not water
                        else set(terr.get(n, {}).get("units", {})) & enemies)]
        if targets:
            fresh = [t for t in targets if t not in attacked]
            target = rng.choice(fresh or targets)
            attacked.add(target)
            groups = [f"{n} {t}" for t, n in sorted(force.items())]
            lines += [f"cm {g} {origin} > {target}" for g in groups] if big else [f"cm {', '.join(groups)} {origin} > {target}"]
            battles += 1
            moved.add(origin)
    distance = front_distance(scenario, terr, me, enemies) if axis or big else {}
    for origin in sorted(terr):
        force = {t: n for t, n in terr[origin]["units"].get(me, {}).items() if t in LAND}
        if origin in moved or not force or terr[origin]["owner"] != me or origin not in distance:
            continue
        closer = [n for n in sorted(scenario.neighbours(origin)) if terr.get(n, {}).get("owner") == me
                  and distance.get(n, 99) < distance[origin]]
        if closer and distance[origin] > 1:
            groups = [f"{n} {t}" for t, n in sorted(force.items())]
            lines += [f"ncm {g} {origin} > {closer[0]}" for g in groups]
    placed = count
    for f in factories:
        if placed <= 0:
            break
        here = min(placed, 3 if "factory_major" in terr[f]["units"][me] else 1)
        lines.append(f"place {here} inf {f}")
        placed -= here
    return lines + ["end"]


def submit_what_passes(engine, power: str, lines: list[str], dry_run: bool = False) -> tuple[str, dict]:
    """Submit `lines`, dropping each line the rules refuse until the rest is accepted."""
    from adjudicator.game import submit
    while True:
        text = "\n".join(lines) + "\n"
        try:
            return text, submit(engine, power, text, dry_run=dry_run)
        except SubmissionRejected as exc:
            bad = {e.line for e in exc.errors if e.line}
            if not bad:                         # an error of the whole turn (a placement short, say): drop them
                bad = {k + 1 for k, line in enumerate(lines) if line.startswith(("place", "buy"))}
            if not bad or lines == ["end"]:
                raise
            lines = [line for k, line in enumerate(lines, 1) if k not in bad] or ["end"]
            if "end" not in lines:
                lines.append("end")
            placed = sum(int(line.split()[1]) for line in lines if line.startswith("place "))
            lines = [(f"buy {placed} inf" if placed else "") if line.startswith("buy ") else line for line in lines]
            lines = [line for line in lines if line]


def play(db: str, settings: Settings, rounds: int) -> None:
    """Play `rounds` whole rounds of G40 Alt-Universe into `db` with test dice."""
    from adjudicator.game import adjudicate, new_game, open_game, status
    from adjudicator.store.db import open_existing, transaction
    new_game(db, GAME, settings, seed_hex=SEED, game_id="bench-au")
    engine = open_existing(db)
    with transaction(engine) as s:
        scenario = open_game(s).scenario
    rng = random.Random(13)
    while (st := status(engine))["round"] <= rounds:
        submit_what_passes(engine, st["power"], orders_for(st, scenario, rng))
        adjudicate(engine, settings)
    engine.dispose()


def battles(db: str) -> tuple[int, int]:
    """How many battles the game's journal holds, and in how many power-turns."""
    from sqlmodel import select
    from adjudicator.store.db import open_existing, transaction
    from adjudicator.store.journal import Step
    engine = open_existing(db)
    with transaction(engine) as s:
        per_turn: dict[int, int] = {}
        for turn_index, events in s.exec(select(Step.turn_index, Step.events)):
            for event in json.loads(events):
                if event.get("type") == "battle":
                    per_turn[turn_index] = per_turn.get(turn_index, 0) + 1
    engine.dispose()
    return sum(per_turn.values()), len(per_turn)


# -- measuring --------------------------------------------------------------------------------------------

def timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def against_floor(command: list[str], env: dict, runs: int = RUNS) -> tuple[float, float, float]:
    """The best time of `command`, the best of the floor, and the median ratio of each run of `command` to the run of
    the floor right before it: on a shared machine whose speed drifts over minutes, a ratio of times taken minutes
    apart measures the drift."""
    pairs = [(timed(FLOOR, env), timed(command, env)) for _ in range(runs)]
    return min(c for _, c in pairs), min(f for f, _ in pairs), statistics.median(c / f for f, c in pairs)


def store_free(env: dict, *args: str) -> bool:
    """Whether `adjudicator ARGS` runs without importing the store or SQLAlchemy."""
    probe = ("import sys, runpy; sys.argv = ['adjudicator', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('adjudicator', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "bad = [m for m in sys.modules if m.startswith(('adjudicator.store', 'sqlalchemy', 'sqlmodel'))]\n"
             "sys.stderr.write('STORE ' + ' '.join(bad))")
    out = subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True)
    return "STORE " in out.stderr and out.stderr.rsplit("STORE ", 1)[1].strip() == ""


def power_turn(db: str, settings: Settings) -> dict:
    """Engine time of one big turn (the Germans' first, at war with everyone they may attack, an order per unit
    type) on a copy of the position: check as `submit` does, then play with dice; the database left out."""
    from adjudicator import dice
    from adjudicator.game import new_game, open_game, status
    from adjudicator.notation import parse_submission
    from adjudicator.rules import turn
    from adjudicator.store.db import open_existing, transaction
    new_game(db, GAME, settings, seed_hex=SEED, game_id="bench-turn")
    engine = open_existing(db)
    with transaction(engine) as s:
        g = open_game(s)
        st = status(engine)
        scenario = g.scenario
        text, _ = submit_what_passes(engine, st["power"], orders_for(st, scenario, random.Random(7), big=True), dry_run=True)
        parsed = parse_submission(text, g.lexicon, start_phase=g.state.phase, phases=scenario.phases_of(g.state.power),
                                  verbs=g.rules.verbs())
        orders = turn.turn_orders(parsed.submission.orders)
        times, battles = [], 0
        for k in range(RUNS):
            state = g.state.copy()
            roller = dice.Roller(bytes(32), g.game.id, g.state.turn_index)
            start = time.perf_counter()
            errors = g.rules.check(state, orders, parsed.submission.ended)
            results = g.rules.play(state, orders, parsed.submission.ended, roller)
            times.append(time.perf_counter() - start)
            assert not errors, errors
            battles = sum(1 for r in results for e in r.events if e.get("type") == "battle")
    engine.dispose()
    return {"power_turn_ms": round(min(times) * 1000, 1), "power_turn_orders": len(orders), "power_turn_battles": battles}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    cache = ROOT / "benchmarks" / ".cache"
    cache.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as work:
        env["ADJUDICATOR_KEYS_DIR"] = str(Path(work) / "keys")
        settings = Settings(database=None, maps_path=maps_path(), keys_dir=Path(work) / "keys", templates_dir=None)
        db = cache / f"au-{rounds}.db"
        figures: dict = {"rounds": rounds}
        if not db.exists():
            start = time.perf_counter()
            play(str(db), settings, rounds)
            figures["played_s"] = round(time.perf_counter() - start, 1)
        figures["battles"], figures["turns_with_battles"] = battles(str(db))
        cli = [sys.executable, "-m", "adjudicator"]
        timed(cli + ["status", str(db)], env)                    # writes the byte-code caches
        audit, floor, ratio = against_floor(cli + ["audit", str(db)], env, 3)
        floors = [floor]
        check = subprocess.run(cli + ["audit", str(db), "--json"], env=env, capture_output=True, text=True)
        result = json.loads(check.stdout)
        assert result["ok"], result["mismatch"]
        figures.update(audit_s=round(audit, 3), audit_ratio=round(ratio, 2), audited_turns=len(result["turns"]),
                       audited_dice=sum(t["dice"] for t in result["turns"]))
        orders = Path(work) / "orders.txt"
        orders.write_text("end\n")             # the whole turn of the power to move, checked phase by phase
        mover = json.loads(subprocess.run(cli + ["status", str(db), "--json"], env=env, capture_output=True,
                                          text=True).stdout)["power"]
        for name, args in (("status", ["status", str(db)]), ("report", ["report", str(db)]),
                           ("dry_run", ["submit", str(db), str(orders), "--power", mover, "--dry-run"])):
            spent, floor, ratio = against_floor(cli + args, env, 3 * RUNS)
            floors.append(floor)
            figures[f"{name}_s"] = round(spent, 3)
            figures[f"{name}_ratio"] = round(ratio, 2)
        report = Path(work) / "report.md"
        report.write_text(subprocess.run(cli + ["report", str(db)], env=env, capture_output=True, text=True).stdout)
        figures["floor_s"] = round(min(floors), 3)
        figures["store_free"] = store_free(env, "verify", str(report)) and store_free(env, "--help")
        figures.update(power_turn(str(Path(work) / "turn.db"), settings))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
