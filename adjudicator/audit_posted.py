"""`audit --posted`: a player's check that the database is the one the reports they saw came from.

A database that audits clean may still have been rolled back (turns undone and replayed otherwise) or forked (a
copy played on elsewhere): either replays honestly from its own journal. What the player holds against it is the
last report they saw, which prints the turn (in its dice block) and the state hash after it. The journal must hold
that turn with that state hash. The report is read as `verify` reads it (adjudicator/verify.py): as posted, mailed
or pasted back from the forum, in any format, one report or several, a long one in its numbered parts.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from .errors import AdjudicatorError
from .verify import Block, clean, read_blocks

# After the words, the hash's own markup: a Markdown code span, a BBCode font tag (whose name holds hex letters)
_STATE_HASH = re.compile(r"\bstate hash\W{0,3}(?:\[font=[^\[\]]{0,40}\]\W{0,3})?([0-9a-f]{64})(?![0-9a-f])", re.I)


@dataclass
class Posted:
    """One report of the posted text, and what the journal says to it."""

    line: int                   # of its `State hash` line in the cleaned text (of its dice block if it has none)
    game: str
    turn: int                   # 0: no dice block names it
    state_hash: str             # "": the report shows none
    problem: str = ""

    def describe(self) -> str:
        head = f"posted report (line {self.line}): "
        if self.problem:
            return head + "FAILED: " + self.problem
        return head + f"turn {self.turn}, state hash {self.state_hash}: the journal holds it"

    def to_dict(self) -> dict:
        return {**asdict(self), "ok": not self.problem}


def read(text: str, name: str) -> list[Posted]:
    """The reports in the text, each as the turn of the dice block before its `State hash` line and that hash;
    a report cut before its hash, or a hash without a dice block before it, is one with its problem said."""
    hashes = [(n, m[1].lower()) for n, line in enumerate(clean(text), 1) if (m := _STATE_HASH.search(line))]
    marks = sorted([(b.line, b) for b in read_blocks(text)] + hashes, key=lambda mark: mark[0])
    found: list[Posted] = []
    block: Block | None = None
    for line, mark in marks:
        if isinstance(mark, Block):
            if block is not None:
                found.append(Posted(block.line, block.game, block.turn, ""))
            block = mark
        else:
            found.append(Posted(line, block.game if block else "", block.turn if block else 0, mark))
            block = None
    if block is not None:
        found.append(Posted(block.line, block.game, block.turn, ""))
    if not found:
        raise AdjudicatorError(f"{name} shows no turn and state hash: give the report as it was posted or mailed "
                               "(its dice block and the `State hash` line after it); nothing was checked")
    seen, out = set(), []
    for p in found:             # a report posted in parts repeats its turn and hash in each
        if (p.game, p.turn, p.state_hash) not in seen:
            seen.add((p.game, p.turn, p.state_hash))
            out.append(p)
    return out


def check(posted: list[Posted], game_id: str, steps: list) -> None:
    """Say of each posted report whether the journal's `steps` hold its turn with its state hash."""
    held: dict[int, set[str]] = {}
    for step in steps:
        held.setdefault(step.turn_index, set()).add(step.state_hash)
    last = max(held, default=0)
    for p in posted:
        if not p.turn or not p.state_hash:
            p.problem = ("the report shows no turn and state hash: " +
                         ("its dice block names no turn" if p.state_hash else "nothing after its dice block shows "
                          "the state hash (was the report cut off?)"))
        elif p.game and p.game != game_id:
            p.problem = f"the report is of the game {p.game!r}, and this database's game is {game_id!r}"
        elif p.state_hash not in held.get(p.turn, ()):
            where = (f"its journal ends at turn {last}" if p.turn > last else
                     f"its turn {p.turn} has other state hashes")
            p.problem = (f"the database does not hold turn {p.turn} with state hash {p.state_hash} ({where}): it "
                         "was rolled back or forked after that report")
