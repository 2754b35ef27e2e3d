"""Time `verify` on the worst inputs within its limits (verify.MAX_BYTES, MAX_GROUPS, MAX_TURN, MAX_HASHES): each
must be checked, or refused with a message, in well under 3 s. Prints seconds per input and what verify made of
it, in seconds of wall time and of CPU time (on a busy machine the first is the second plus the wait); no
thresholds here (a benchmark).

    python benchmarks/bench_verify.py [--only TEXT]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from adjudicator import dice
from adjudicator.errors import AdjudicatorError
from adjudicator.keys import MAX_GAME_ID
from adjudicator.verify import MAX_BYTES, MAX_GROUPS, MAX_HASHES, MAX_TURN, check, summary

ANCHOR = "ab" * 32


def block(game: str, turn: int, anchor: str, seed: str, groups: list[str] = ()) -> str:
    return "\n".join(["adjudicator dice", f"game: {game}", f"turn: {turn}", f"anchor: {anchor}", f"seed: {seed}",
                      *groups]) + "\n"


def filled(make: Callable[[int], str]) -> str:
    """make(0), make(1), … joined, as many as fit in MAX_BYTES."""
    parts, size, k = [], 0, 0
    while True:
        part = make(k)
        size += len(part.encode())
        if size > MAX_BYTES:
            return "".join(parts)
        parts.append(part)
        k += 1


def real_chain(k: int) -> tuple[str, str]:
    """(anchor, seed of turn MAX_TURN) of a chain of its own: a block that checks out at the latest turn."""
    seed = dice.sha256_hex(f"game {k}".encode())
    return dice.walk(bytes.fromhex(seed), MAX_TURN)[-1].hex(), seed


def game_of_every_turn() -> str:
    """One game's reports from its last possible turn back to turn 1: one walk proves them all."""
    secret = bytes.fromhex(dice.sha256_hex(b"one game"))
    seeds = dice.walk(secret, MAX_TURN)             # seeds[k] = s_{MAX_TURN - k}, seeds[-1] = the anchor
    anchor = seeds[-1].hex()
    return "".join(block("g", turn, anchor, seed, [real_group(seed, "g", turn, "battle:A", 6, 3)])
                   for turn in range(MAX_TURN, 0, -1) for seed in [seeds[MAX_TURN - turn].hex()])


def dice_filled(sides: int, groups: int, before: str = "") -> str:
    """`groups` groups of d`sides` filling MAX_BYTES after `before` (values made up: recomputed all the same)."""
    anchor, seed = real_chain(0)
    head = before + block("g", MAX_TURN, anchor, seed)
    per_group = (MAX_BYTES - len(head.encode()) - 64 * groups) // groups // 2
    values = " ".join(["1"] * per_group)
    return head + "\n".join(f"battle:{k} | d{sides} | {values} | u" for k in range(groups)) + "\n"


def long_game_id(length: int) -> str:
    """A game id of `length` characters on a chain of its own, then one group of d6 filling the paste: every 32 bytes
    of dice once hashed the whole id again (a 2 MB id: 38 s)."""
    secret = bytes.fromhex(dice.sha256_hex(b"long id"))
    anchor = dice.walk(secret, 1)[-1].hex()
    head = block("g" * length, 1, anchor, secret.hex())
    count = (MAX_BYTES - len(head.encode()) - 64) // 2
    return head + real_group(secret.hex(), "g" * length, 1, "L", 6, count) + "\n"


def salted_turn_repeated(salts_line: str) -> str:
    """One revealed block of turn 1 with the `salts:` line given, then blocks of the same game, turn and anchor
    without a seed, each checked with the revealed one's seed and salts (its key once made each time: 21.7 s)."""
    secret = bytes.fromhex(dice.sha256_hex(b"salted"))
    anchor = dice.walk(secret, 1)[-1].hex()
    head = block("g", 1, anchor, secret.hex(), [salts_line, "x | d6 | 1 | u"])
    repeated = filled(lambda k: f"adjudicator dice\ngame: g\nturn: 1\nanchor: {anchor}\ny{k} | d6 | 1 | u\n")
    rest = repeated[:MAX_BYTES - len(head.encode())]
    rest = rest[:rest.rindex("adjudicator dice")]
    return head + "\n".join(rest.split("\n")[:4 * (MAX_GROUPS - 1)]) + "\n"


def real_group(seed: str, game: str, turn: int, label: str, sides: int, count: int) -> str:
    values = dice.roll(bytes.fromhex(seed), game, turn, label, sides, count)
    return f"{label} | d{sides} | {' '.join(map(str, values))} | u"


def many_anchors_checking_out() -> str:
    """As many games as verify walks the chains of, each at its last turn: every die checks out."""
    text = ""
    for k in range(MAX_HASHES // MAX_TURN):
        anchor, seed = real_chain(k)
        text += block(f"g{k}", MAX_TURN, anchor, seed, [real_group(seed, f"g{k}", MAX_TURN, "battle:A", 6, 3)])
    return text


INPUTS: dict[str, Callable[[], str]] = {
    "forged blocks at the last turn": lambda: filled(
        lambda k: block("g", MAX_TURN, ANCHOR, dice.sha256_hex(str(k)))),
    "forged blocks, each its own anchor": lambda: filled(
        lambda k: block("g", MAX_TURN, dice.sha256_hex(f"a{k}"), dice.sha256_hex(str(k)))),
    f"{MAX_HASHES // MAX_TURN} games at their last turn": many_anchors_checking_out,
    f"one game, all {MAX_TURN} turns": game_of_every_turn,
    "one group of d129 filling the paste": lambda: dice_filled(129, 1),
    f"{MAX_GROUPS:,} groups of d129": lambda: dice_filled(129, MAX_GROUPS),
    "both: 256 games, then one group of d129": lambda: dice_filled(129, 1, many_anchors_checking_out()),
    "one block repeated": lambda: filled(lambda k, chain=real_chain(0): block("g", MAX_TURN, *chain, ["x | d6 | 1 | i"])),
    "a 2 MB game id, then a million dice": lambda: long_game_id(2_000_000),
    f"a {MAX_GAME_ID}-character game id, a group filling the paste": lambda: long_game_id(MAX_GAME_ID),
    "a salt of 2 MB, then its turn's blocks": lambda: salted_turn_repeated("salts: " + "s" * 2_000_000),
    "2 MB of short salts, then its turn's blocks": lambda: salted_turn_repeated("salts: " + " | ".join(["s"] * 400_000)),
    "turn lines of 1,000 digits": lambda: filled(lambda k: block("g", int("9" * 1000), ANCHOR, ANCHOR)),
    "Arabic-Indic and superscript digits": lambda: filled(lambda k: block("g", 1, ANCHOR, ANCHOR,
                                                                          ["x | d٦ | ١ ² | inf", "y | d6 | ① | inf"])),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="run only the inputs whose name holds this text")
    only = ap.parse_args().only
    for name, make in INPUTS.items():
        if only not in name:
            continue
        text = make()
        start, cpu = time.perf_counter(), time.process_time()
        try:
            code, lines = summary(check(text))
            outcome = f"exit {code}: {lines[0][:90]}"
        except AdjudicatorError as exc:
            outcome = "refused: " + exc.message[:90]
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{name:40} {len(text.encode()):>10,} bytes {seconds:6.2f} s ({cpu:.2f} s CPU)  {outcome}", flush=True)


if __name__ == "__main__":
    main()
