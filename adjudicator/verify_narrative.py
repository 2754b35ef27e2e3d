"""The dice a report's battle narrative prints, checked against its dice block.

A reader reads the narrative ("Round 1, attacker: 2 infantry@1: 4 1 → …"), not the dice block; a die changed in
the narrative alone would pass a check of the block. So every battle die the narrative prints is read back and
compared with the block's group of the same roll.

The narrative is read on its structure, never on unit or power words (which a game or a host may word as it
likes, with spaces): a battle begins at the line before `Attacking:` (the place is that line up to its first
`: `), a roll is a line `Round N, <side>: …` (the first of a round is the attacker's, the second the defender's;
`, surprise strike` marks the submarines' first strike), `AA fire: …` or `Shore bombardment…`, up to the battle's
`Result:`, and its dice are the value lists after each `@N:`. They are listed by unit group, as
report.grouped_dice prints them, so the block's dice are put in that order (by the group's unit field) before
comparing.

The narrative's other rolls are the engine's own fixed sentences too, wherever they stand (verify_other_rolls):
a bombing raid (`… raids the major factory in X with …`, then its air battle, its AA and its `Bombing:` damage),
convoy disruption and kamikaze strikes; and a game's own sentence that prints a roll right after its group's
label (`research (research:Germans): 6, 2, 3`). Which dice are read back is said plainly (CHECKED): the other
rolls a game tells in its own words follow no sentence the engine knows, so their groups are named as checked in
the dice block only. A narrative of an earlier template that prints no `@N:` lists is not read back; nothing
in it is taken for a die.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from . import verify_other_rolls as other

CHECKED = ("the dice printed in the narrative (battle rounds, AA fire, shore bombardment, bombing raids with their "
           "air battles and AA, convoy disruption, kamikaze, and any roll printed right after its group's label, as "
           "research is) are compared with the dice block; a game's rolls told in its own words without their "
           "label (spins, card draws, strikes) are checked in the dice block only, and named so above")

MAX_PLACE = 200         # characters of a place's name: a real map's are far shorter; a pasted line may be megabytes
_BULLET = re.compile(r"^(?:[-*•]\s+|\[\*\]\s*)")
_MARKUP = re.compile(r"\*\*|\[/?b\]", re.I)
_ROUND = re.compile(r"Round ([0-9]{1,9})(, surprise strike)?, ([^:]{1,200}): (.*)")
_VALUES = re.compile(r"@[0-9]{1,9}(?: best of [0-9]{1,9})?: ([0-9() ]+)")


@dataclass
class Told:
    """One roll as the narrative prints it."""

    line: int               # 1-based, in the cleaned text (verify.clean), as the dice block's lines are numbered
    label: str              # the dice group it prints
    what: str               # how a reader finds it: "Round 1, attacker in Belarus"
    values: list[int]
    tie: other.Tie | None = None        # a roll whose group is found by the place it names (a raid's, a convoy's)


def told_rolls(lines: list[str]) -> list[Told]:
    """Every roll the battle narrative prints with its dice, in the order of the text."""
    told: list[Told] = []
    place = None
    sides: dict[tuple[int, bool], int] = {}       # rolls of each round (and its surprise strike) read so far
    reader = other.Reader()
    for k, raw in enumerate(lines):
        line = _BULLET.sub("", _MARKUP.sub("", raw).strip())
        if _opens_battle(lines, k):
            place, sides = line.split(": ", 1)[0].strip()[:MAX_PLACE], {}
            reader.battle_opens()
            continue
        rolls = reader.rolls(line, k + 1)
        told += [Told(k + 1, label or "", what, values, how) for label, how, what, values in rolls if values]
        if rolls or place is None:
            continue
        if line.startswith("Result:"):      # the battle is over: what follows (a raid's AA fire) is not its roll
            place = None
            continue
        label, what = _roll_of(line, place, sides)
        if label is None:
            continue
        values = [int(v) for found in _VALUES.findall(line) for v in re.findall(r"[0-9]+", found)]
        if values:
            told.append(Told(k + 1, label, f"{what} in {place}", values))
    return told


def _opens_battle(lines: list[str], k: int) -> bool:
    """A battle's first line is the one before `Attacking: …` (the units of both sides)."""
    nxt = next((x for x in lines[k + 1:k + 3] if x.strip()), "")
    return ": " in lines[k] and _BULLET.sub("", nxt.strip()).startswith("Attacking:")


def _roll_of(line: str, place: str, sides: dict) -> tuple[str | None, str]:
    if line.startswith("AA fire:"):
        return f"aa:{place}:r1", "AA fire"
    if line.startswith("Shore bombardment"):
        return f"bombard:{place}", "Shore bombardment"
    found = _ROUND.fullmatch(line)
    if not found or found.group(3) in ("losses", "surprise strike"):     # not a roll: `Round 1, surprise strike: …`
        return None, ""
    rnd, surprise, side = int(found.group(1)), bool(found.group(2)), found.group(3)
    nth = sides.get((rnd, surprise), 0)
    sides[(rnd, surprise)] = nth + 1
    if side not in ("attacker", "defender"):
        side = ("attacker", "defender")[min(nth, 1)]
    label = f"battle:{place}:r{rnd}:{side}" + (":surprise" if surprise else "")
    return label, f"Round {rnd}{', surprise strike' if surprise else ''}, {side}"


def in_narrative_order(values: list[int], units: str) -> list[int]:
    """A group's dice as the narrative lists them: by unit (the block's unit field, one unit a die), each unit's
    dice in the order rolled, the units in the order they first rolled (report.grouped_dice)."""
    names = [u.strip() for u in units.split(",")]
    if len(names) != len(values):
        return values
    by_unit: dict[str, list[int]] = {}
    for name, value in zip(names, values):
        by_unit.setdefault(name, []).append(value)
    return [v for dice in by_unit.values() for v in dice]


def cross_check(blocks: list, lines: list[str]) -> None:
    """Each block is held to the rolls the narrative before it prints (after the block before it: one post's
    narrative comes before its block). A roll whose group is in another block of the same game and turn (a report
    split into parts, all pasted) is checked against that; one whose group is in no block pasted is counted as
    not checked, never as wrong. Problems name the narrative's line. The groups no roll of the narrative was held
    to (a game's own rolls, told in its own words) are kept in each block's `block_only`, to be named."""
    groups = {(b.game, b.turn, g.label): g for b in blocks for g in b.groups}
    groups.update({(b.game, b.turn, alias): g for b in blocks for g in b.groups for alias in aliases(g.label)[1:]
                   if (b.game, b.turn, alias) not in groups})
    labels: dict[tuple, list[str]] = {}            # each game's and turn's labels, in the order rolled
    for b in blocks:
        labels.setdefault((b.game, b.turn), []).extend(g.label for g in b.groups)
    places = {key: other.Places(found) for key, found in labels.items()}
    seen: dict[int, dict] = {}                  # per block: the raids and convoys of each place met
    told = told_rolls(lines)
    starts = [b.line for b in blocks]
    ordered: dict[int, list[int]] = {}      # each group put in order once: a paste may name one huge group often
    read: set[int] = set()                  # the groups some roll of the narrative was held to
    for t in told:
        at = bisect.bisect_right(starts, t.line)        # the first block after the roll's line, else the last
        owner = blocks[min(at, len(blocks) - 1)] if blocks else None
        if owner is None:
            continue
        label = t.label if t.tie is None else other.tie(t.tie, places[(owner.game, owner.turn)],
                                                        seen.setdefault(id(owner), {}))
        group = groups.get((owner.game, owner.turn, label)) if label else None
        if group is None:
            owner.narrative_elsewhere += 1
            continue
        read.add(id(group))
        _hold(owner, group, t, ordered)
    unread = [(b, g) for b in blocks for g in b.groups if id(g) not in read]
    for b, g, line, values in other.named_rolls(lines, blocks, unread):
        read.add(id(g))
        _hold(b, g, Told(line, g.label, g.label, values), ordered)
    for b in blocks:
        b.block_only = [g for g in b.groups if id(g) not in read]


def _hold(owner, group, t: Told, ordered: dict[int, list[int]]) -> None:
    """Compare one roll the narrative prints with its group, a problem of the block naming the line if they differ."""
    expected = ordered.get(id(group))
    if expected is None:
        expected = ordered[id(group)] = in_narrative_order(group.values, group.units)
    if expected != t.values:
        owner.problems.append(f"line {t.line}: the narrative prints the dice of {t.what} as "
                              f"{_dice(t.values)}, but the dice block's group {group.label} (line "
                              f"{group.line}) holds {_dice(expected)} for them")
    else:
        owner.narrative_checked += 1


def aliases(label: str) -> list[str]:
    """The labels the narrative may print a dice group's rolls under: its own, and `battle:…` for a game's own kind
    of battle, which labels its dice with a word of its own (`insurgency:PLACE:r1:attacker`)."""
    if label.count(":") >= 3 and not label.startswith("battle:"):
        return [label, "battle:" + label.split(":", 1)[1]]
    return [label]


def _dice(values: list[int], most: int = 40) -> str:
    """Dice as a problem quotes them: a pasted roll may be a million dice long."""
    shown = " ".join(map(str, values[:most]))
    return shown if len(values) <= most else f"{shown} … ({len(values):,} dice)"
