"""The narrative's rolls outside a battle's rounds, read back for verify_narrative: a bombing raid (its air battle,
its AA and its damage), convoy disruption, kamikaze strikes, and a game's own roll printed right after the label
of its group (named_rolls).

They are the engine's own sentences (report.raid_phrases, report.describe, report.kamikaze_phrase,
battle_account.raid_shots), so each is read on its fixed words, wherever in the post it stands. A raid's and a
convoy's dice groups are named by map keys the text words otherwise (`sbr:X:factory_major` is "the major factory
in X", `convoy:Z:Germans` is "in Z against Germany"), so such a roll is tied to its group by the place it names:
where the block holds several groups of that place, by the facility's words, else in the order they were rolled
(the order the narrative tells them in).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_RAID = re.compile(r" raids? the ")
_RAID_AA = re.compile(r"(?:.+'s AA fires|AA fires \(.+?\) at every raiding aircraft): "
                      r"(?:[0-9]{1,9} shots? @[0-9]{1,9}: )?([0-9 ]+) → .*")
_BOMBING = re.compile(r"Bombing: ([0-9 ]+) → .*")
_CONVOY = re.compile(r"Convoy disruption in (.{1,400}?): ([0-9 ]+) — dice of .*")
_KAMIKAZE = re.compile(r"Kamikaze in (.{1,200}?): .+? hitting on [0-9]{1,9} or less: (.*)")
_STRIKE = re.compile(r"\b([0-9]{1,9}) (?:missed|damaged|sunk)\b")
_GROUPED = re.compile(r"@[0-9]{1,9}(?: best of [0-9]{1,9})?: ([0-9() ]+)")
_PLAIN = re.compile(r"([0-9 ]+) \([0-9]{1,9} hits?\)")
_SBR_PARTS = (":air:attacker", ":air:defender", ":aa")
_AFTER_LABEL = re.compile(r"(?:\): | )([0-9]{1,9}(?:(?:, |\+)[0-9]{1,9}){0,9999})(?![0-9])")
MAX_NAMED = 300         # groups looked for by name in one paste: a turn's own rolls are a few, and each search is a
                        # pass over its narrative (a paste may hold 20,000 groups and megabytes of text)


@dataclass
class Tie:
    """How a roll finds its dice group in the block: the kind of group, the place the narrative names with the
    words around it, the part of the raid, and which raid or convoy line of that place it is."""

    kind: str               # "sbr" or "convoy"
    subject: str            # "major factory in United Kingdom", "40 Sea Zone against Germany"
    part: str               # the label's tail: ":air:attacker", ":aa", "" (the damage)
    event: int              # the line of the raid's first sentence or of the convoy line


class Reader:
    """Reads the narrative line by line; a raid's sentences follow its first one (`… raids the … with …`)."""

    def __init__(self) -> None:
        self.raid: tuple[str, int] | None = None        # the raid being told: its subject and first line

    def rolls(self, line: str, number: int) -> list[tuple[str | None, Tie | None, str, list[int]]]:
        """The rolls `line` prints: (label or None, how to tie it, how a reader finds it, its dice)."""
        if found := _KAMIKAZE.fullmatch(line):
            values = [int(v) for v in _STRIKE.findall(found.group(2))]
            return [(f"kamikaze:{found.group(1)}", None, f"the kamikaze strikes in {found.group(1)}", values)]
        if found := _CONVOY.fullmatch(line):
            tie = Tie("convoy", found.group(1), "", number)
            return [(None, tie, f"the convoy disruption in {found.group(1)}", _numbers(found.group(2)))]
        if subject := _raided(line):
            self.raid = (subject, number)
            return []
        if self.raid is None:
            return []
        subject, first = self.raid
        on = f"the raid on the {subject}"
        if sides := _air_battle(line):
            return [(None, Tie("sbr", subject, f":air:{side}", first), f"the {who} in the air battle of {on}", values)
                    for side, who, told in zip(("attacker", "defender"), ("raiders", "interceptors"), sides)
                    if (values := _side_values(told))]
        if found := _RAID_AA.fullmatch(line):
            return [(None, Tie("sbr", subject, ":aa", first), f"the AA fire at {on}", _numbers(found.group(1)))]
        if found := _BOMBING.fullmatch(line):
            return [(None, Tie("sbr", subject, "", first), f"the damage of {on}", _numbers(found.group(1)))]
        return []

    def battle_opens(self) -> None:
        self.raid = None


def _raided(line: str) -> str | None:
    """What `… raids the major factory in X with 2 bombers.` raids: "major factory in X"."""
    found = _RAID.search(line)
    if not found or found.start() == 0:
        return None
    end = line.find(" with ", found.end(), found.end() + 400)
    return line[found.end():end] if end > found.end() else None


def _air_battle(line: str) -> tuple[str, str] | None:
    """The raiders' and the interceptors' dice of `Air battle with …: raiders …, interceptors …; raiders lose
    …`, found by plain search: a pasted line may be megabytes, which a pattern of three open parts would take
    minutes to try."""
    if not line.startswith("Air battle with "):
        return None
    a = line.find(": raiders ")
    b = line.find(", interceptors ", a)
    c = line.find("; raiders lose ", b)
    if min(a, b, c) < 0:
        return None
    return line[a + len(": raiders "):b], line[b + len(", interceptors "):c]


def _numbers(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"[0-9]{1,9}", text)]


def _side_values(told: str) -> list[int]:
    """One side of an air battle as report.dice_phrase prints it: by unit (`2 bombers@1: 3 3 → 0 hits`), the dice
    alone (`3 3 (0 hits)`), or `no dice`."""
    if found := _PLAIN.fullmatch(told):
        return _numbers(found.group(1))
    return [v for found in _GROUPED.findall(told) for v in _numbers(found)]


class Places:
    """The raids' and convoys' places of one game's turn, from its groups' labels, each with what was rolled
    there in the order rolled: (place, facility) by place, (zone, power) by zone. Built once, so tying a roll
    costs the length of its sentence, never a pass over the groups (a paste may hold 20,000 of them)."""

    def __init__(self, labels: list[str]) -> None:
        found: dict[str, dict[str, dict[tuple[str, str], None]]] = {"sbr": {}, "convoy": {}}
        for label in labels:
            kind, _, base = label.partition(":")
            if kind == "sbr":
                for part in _SBR_PARTS:
                    if base.endswith(part):
                        base = base[:-len(part)]
                        break
            elif kind != "convoy":
                continue
            place, _, what = base.rpartition(":")       # (place, facility) or (zone, power)
            if place:
                found[kind].setdefault(place, {})[(place, what)] = None
        self.rolled = {kind: {place: list(there) for place, there in by_place.items()}
                       for kind, by_place in found.items()}
        self.named: dict[tuple[str, frozenset], list[tuple[str, str]]] = {}   # a raid's place and facility words
        for place, facility in (p for there in found["sbr"].values() for p in there):
            self.named.setdefault((place, _words(facility.replace("_", " "))), []).append((place, facility))

    def of(self, t: Tie) -> list[tuple[str, str]]:
        """What was rolled at the place `t` names: a raid's subject ends with ` in PLACE`, a convoy's begins with
        `ZONE against `; the longest place that fits is taken."""
        words, sep = self.rolled[t.kind], " in " if t.kind == "sbr" else " against "
        cuts = [m.start() for m in re.finditer(re.escape(sep), t.subject)]
        for cut in (cuts if t.kind == "sbr" else reversed(cuts)):
            place = t.subject[cut + len(sep):] if t.kind == "sbr" else t.subject[:cut]
            if place in words:
                return words[place]
        return []


def _words(text: str) -> frozenset:
    return frozenset(text.lower().split())


def tie(t: Tie, places: Places, seen: dict) -> str | None:
    """The label of the block's group `t` prints, among the `places` of the game's turn; `seen` remembers, per
    block and place, the raids and convoy lines met so far."""
    found = places.of(t)
    if not found:
        return None
    met = seen.setdefault((t.kind, found[0][0]), {})        # event line -> its place among the events there
    nth = met.setdefault(t.event, len(met))
    chosen = found[0] if len(found) == 1 else None
    if chosen is None and t.kind == "sbr":
        named = places.named.get((found[0][0], _words(t.subject[:-len(" in " + found[0][0])])), [])
        chosen = named[0] if len(named) == 1 else None
    if chosen is None:
        chosen = found[nth] if nth < len(found) else None
    if chosen is None:
        return None
    return f"{t.kind}:{chosen[0]}:{chosen[1]}{t.part}"


def named_rolls(lines: list[str], blocks: list, unread: list) -> list[tuple]:
    """The rolls a game's own sentence prints right after naming its group (`research (research:Germans): 6, 2,
    3 — …`, `chart1:Germans:1 3+4 = 7: …`): each (block, group) of `unread` is looked for in the narrative before
    its block (after the block before it). Returns (block, group, line, dice) for each roll found."""
    at = {id(b): k for k, b in enumerate(blocks)}
    texts: dict[int, tuple[str, list[int], int]] = {}
    found = []
    for b, g in unread[:MAX_NAMED]:
        k = at[id(b)]
        if k not in texts:
            first = blocks[k - 1].line if k else 0          # 0-based: the line after the block before it
            region = lines[first:max(b.line - 1, first)]
            starts = [0]
            for line in region:
                starts.append(starts[-1] + len(line) + 1)
            texts[k] = ("\n".join(region), starts, first)
        text, starts, first = texts[k]
        pos, looked = text.find(g.label), 0
        while pos >= 0 and looked < MAX_NAMED:         # a pasted text may name a short label a million times
            looked += 1
            dice = _AFTER_LABEL.match(text, pos + len(g.label))
            if dice and (pos == 0 or not text[pos - 1].isalnum()):
                found.append((b, g, first + bisect.bisect_right(starts, pos), _numbers(dice.group(1))))
            pos = text.find(g.label, pos + 1)
    return found
