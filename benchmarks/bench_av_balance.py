"""Balance of our Allies vs. Axis board (games/allies_vs_axis/board.json): many games between players who play
alike at random, and how often each side wins. Neither side should win much more than half of the games that end.

Run with `python benchmarks/bench_av_balance.py [GAMES] [--players 2|3|4] [--mode MODE] [--sudden-death]` from
the repository root. Each game is played on the rules' own code with audited dice of a seed of its own, its orders
written as a player would write them (with conditions on the spin's outcome) and read by the game's notation.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from pathlib import Path

# Runnable from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.dice import Roller  # noqa: E402
from adjudicator.games import game_module  # noqa: E402
from adjudicator.notation import parse_submission  # noqa: E402
from adjudicator.state import State  # noqa: E402

AV = game_module("allies-vs-axis")
TABLES = {2: ["British", "Germans"], 3: ["British", "Germans", "Americans"], 4: ["British", "Germans", "Americans", "Japanese"]}
MAX_ROUNDS = 80


def orders(rules, state: State, rnd: random.Random) -> str:
    """A player without a plan: answers every kind of space the way the dice of `rnd` choose, never idle."""
    from adjudicator.games.allies_vs_axis.turn import ransom_price
    me, board = state.power, state.board
    if me in board["prisons"]:
        if state.treasury[me] + rules.yields(state, me)["money"] < ransom_price(rules, state, me) or rnd.random() < 0.2:
            return "ransom refuse\n"
        lines = ["ransom pay", "spin"]
    else:
        lines = ["spin"]
    if rnd.random() < 0.15:
        lines.append(f"if land opponent: step {rnd.choice(['+1', '-1'])}")
    lines.append("if land neutral: treaty" if rnd.random() < 0.5 else "if land neutral: invade auto")
    lines += ["if land neutral: invade auto", "if land secret: base", "if land ally: ally"]
    lines += [f"if land opponent: card {name}" for name in sorted(set(board["hands"][me]))]
    lines.append("if land opponent: invade auto")
    pool = board["pools"][me]
    share = rnd.choice((0.25, 0.5, 0.75))
    for space in sorted(s for s, o in state.owners.items() if o == me and rules.kind(s) in ("territory", "main")):
        units = [f"{min(int(pool[u] * share), 200)} {u}" for u in rules.allowed_units(space) if int(pool[u] * share)]
        if units:
            lines.append(f"if land {space}: defend {', '.join(units)} {space}")
    budget = min(int(state.treasury[me] * rnd.choice((0, 0.2, 0.4))) // 35, 200)
    if budget:
        lines.append(f"recruit {budget} tank")
    return "\n".join(lines + ["end"]) + "\n"


def play_one(n_players: int, options: list[str], seed: int) -> tuple[str | None, int]:
    scenario = AV.seat(AV.scenario(), TABLES[n_players], options)
    rules = AV.RULES(scenario, "")
    state = State.initial(scenario)
    state.switches.update({f"option:{o}": True for o in options})
    rules.begin(state)
    rnd = random.Random(seed)
    while state.board["winner"] is None and state.round <= MAX_ROUNDS:
        parsed = _submitted(rules, state, orders(rules, state, rnd), scenario.phases_of(state.power))
        key = hashlib.sha256(f"balance|{seed}|{state.turn_index}".encode()).digest()
        rules.play(state, parsed.submission.orders, parsed.submission.ended, Roller(key, f"bench-{seed}", state.turn_index))
    winner = state.board["winner"]
    return (winner["side"] if winner else None), state.round, _ahead(rules, state)


def _submitted(rules, state: State, text: str, phases: list[str]):
    """The orders as `submit` takes them: the lines it refuses (a step the player cannot pay, more units than it can
    have) are dropped, as a player told so would drop them, until the rest is accepted."""
    lexicon, verbs = rules.lexicon(), rules.verbs()
    while True:
        parsed = parse_submission(text, lexicon, start_phase=state.phase, phases=phases, verbs=verbs)
        assert not parsed.errors, (text, [e.render() for e in parsed.errors])
        refused = {e.line for e in rules.check(state, parsed.submission.orders, parsed.submission.ended)}
        if not refused:
            return parsed
        text = "\n".join(line for i, line in enumerate(text.splitlines(), 1) if i not in refused) + "\n"


def _ahead(rules, state: State) -> str | None:
    """The side holding more spaces, for a game still going at the round limit."""
    held = Counter(rules.side(o) for o in state.owners.values())
    return None if held["Allies"] == held["Axis"] else max(held, key=held.get)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="?", type=int, default=400)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--mode", choices=("normal", "les-miserables", "fierce-battles"), default="normal")
    parser.add_argument("--sudden-death", action="store_true")
    args = parser.parse_args()
    options = ([args.mode] if args.mode != "normal" else []) + (["sudden-death"] if args.sudden_death else [])
    start = time.perf_counter()
    results = [play_one(args.players, options, seed) for seed in range(args.games)]
    wins = Counter(side for side, _, _ in results)
    ended = sum(n for side, n in wins.items() if side)
    rounds = sorted(r for side, r, _ in results if side)
    ahead = Counter(lead for side, _, lead in results if side is None)
    print(f"{args.games} games, {args.players} players ({', '.join(TABLES[args.players])}), mode {args.mode}"
          f"{', Sudden Death' if args.sudden_death else ', Conqueror'}: {time.perf_counter() - start:.1f} s")
    for side in ("Allies", "Axis"):
        print(f"  {side:<7} win {wins[side]:4} ({100 * wins[side] / max(ended, 1):5.1f}% of the {ended} games that ended)")
    print(f"  no winner after {MAX_ROUNDS} rounds: {wins[None]} (more spaces held then: Allies {ahead['Allies']}, "
          f"Axis {ahead['Axis']}, even {ahead[None]})")
    if rounds:
        print(f"  rounds to the end: median {rounds[len(rounds) // 2]}, shortest {rounds[0]}, longest {rounds[-1]}")


if __name__ == "__main__":
    main()
