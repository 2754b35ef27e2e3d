"""Victory in G40 Alt-Universe: the Axis win holding 14 cities, the Allies leaving them fewer than 6 (or, from
round 8, fewer than 8), each for a whole round (AU-02 to AU-06; RULINGS.md "victory-hold" and "neutral-cities").

The hold of a whole round is the rules core's (rules/conditions.py `check_holds`): this module says what is
counted and how the report words it.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.rules.city_goals import against, side_members
from adjudicator.rules.conditions import Hold, check_holds, hold_status
from adjudicator.state import State

COUNTED = "Axis"      # every condition counts the cities of this alliance


@dataclass(frozen=True)
class Condition:
    key: str              # the hold's record is switches["victory:" + key]
    side: str             # the alliance that wins (the map's alliance names)
    rule: str
    threshold: int
    below: bool           # met when the Axis hold fewer than `threshold` cities, else `threshold` or more
    from_round: int = 1

    def met(self, cities: int, round_: int) -> bool:
        return round_ >= self.from_round and (cities < self.threshold if self.below else cities >= self.threshold)

    @property
    def words(self) -> str:
        return f"fewer than {self.threshold}" if self.below else f"{self.threshold} or more"


CONDITIONS = (Condition("Axis:14", "Axis", "AU-02", 14, below=False),
              Condition("Allies:6", "Allies", "AU-03", 6, below=True),
              Condition("Allies:8", "Allies", "AU-04", 8, below=True, from_round=8))
BROKEN_RULE = "AU-06"
ROUND_START_RULE = "AU-05"     # below 8 as round 8 begins: the hold starts with the first power's turn


def goals(rules, owners: dict[str, str]) -> list[str]:
    """The conditions as the report's summary words them, each side's with the cities it counts: every one
    counts the Axis cities, against the threshold of each of the side's conditions."""
    held = axis_cities(rules, owners)

    def wanted(c: Condition) -> str:
        when = f" from round {c.from_round}" if c.from_round > 1 else ""
        return f"{against(held, c.threshold) if c.side == COUNTED else c.words}{when} [{c.rule}]"
    phrases = []
    for side in dict.fromkeys(c.side for c in CONDITIONS):
        who = "hold" if side == COUNTED else f"need the {COUNTED} to hold"
        phrases.append(f"the {side} {who} {' or '.join(wanted(c) for c in CONDITIONS if c.side == side)}, "
                       "for a whole round")
    return phrases


def axis_cities(rules, owners: dict[str, str]) -> int:
    """Cities owned by a power of the Axis alliance; a neutral's city counts for nobody (RULINGS.md "neutral-cities")."""
    axis = side_members(rules, COUNTED)
    return sum(owners.get(city) in axis for city in rules.cities())


def _holds(rules, state: State):
    """The conditions as holds of the core, on the cities counted now, and the report's words for their events."""
    cities = axis_cities(rules, state.owners)
    by_key = {c.key: c for c in CONDITIONS}
    holds = [Hold(c.key, c.side, c.rule, (lambda round_, c=c: c.met(cities, round_)), BROKEN_RULE, ROUND_START_RULE)
             for c in CONDITIONS]

    def event(kind: str, hold: Hold, power: str, round_: int, **more) -> dict:
        cond = by_key[hold.key]
        return {"type": kind, "side": cond.side, "counted": COUNTED, "condition": cond.words, "rule": cond.rule,
                "power": power, "round": round_, "until": round_ + 1, "cities": cities, **more}
    return holds, event


def check(rules, state: State, power: str) -> list[dict]:
    """At the end of `power`'s turn (AU-02 to AU-06; the round-8 condition already met when round 8 begins
    starts its hold with the first power's turn of that round, AU-05)."""
    holds, event = _holds(rules, state)
    return check_holds(state, power, rules.scenario.turn_players(), holds, event)


def status(rules, state: State) -> dict:
    holds, event = _holds(rules, state)
    return hold_status(state, holds, event)
