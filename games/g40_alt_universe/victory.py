"""Victory in G40 Alt-Universe: the Axis win holding 14 cities, the Allies leaving them fewer than 6 (or, from
round 8, fewer than 8), each for a whole round (AU-02 to AU-06; RULINGS.md "victory-hold" and "neutral-cities").

A whole round cannot be seen in one position, so a hold is a record in State.switches, where it survives from
turn to turn and is part of the state hash that `audit` replays: "victory:Axis:14" = "Japanese:4" means the hold
began with the Japanese turn of round 4. Only the mover's side takes cities during a turn, so looking at the end
of every turn sees every dip. When a side has won, "victory" names the condition and nothing is checked again.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.state import State

WON = "victory"
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


def axis_cities(rules, state: State) -> int:
    """Cities owned by a power of the Axis alliance; a neutral's city counts for nobody (RULINGS.md "neutral-cities")."""
    axis = {p.name for p in rules.scenario.players if COUNTED in p.alliances}
    return sum(state.owners.get(city) in axis for city in rules.cities())


def _hold(record: str) -> tuple[str, int]:
    power, _, round_ = record.rpartition(":")
    return power, int(round_)


def _event(kind: str, cond: Condition, power: str, round_: int, cities: int, **more) -> dict:
    return {"type": kind, "side": cond.side, "counted": COUNTED, "condition": cond.words, "rule": cond.rule,
            "power": power, "round": round_, "until": round_ + 1, "cities": cities, **more}


def check(rules, state: State, power: str) -> list[dict]:
    """At the end of `power`'s turn: each condition met starts a hold with this turn (or, for the round-8
    condition already met when round 8 begins, with the first power's turn of that round); a condition no longer
    met breaks its hold; a hold still met when its power's next turn ends wins the game."""
    if state.switches.get(WON):
        return []
    cities = axis_cities(rules, state)
    players = rules.scenario.turn_players()
    events = []
    for cond in CONDITIONS:
        key = f"victory:{cond.key}"
        record = state.switches.get(key)
        if record:
            starter, start = _hold(str(record))
            if not cond.met(cities, state.round):
                del state.switches[key]
                events.append(_event("victory_hold_broken", cond, starter, start, cities, rule=BROKEN_RULE))
            elif starter == power and state.round > start:
                state.switches[WON] = cond.key
                return events + [_event("victory", cond, starter, start, cities)]
            else:
                events.append(_event("victory_hold", cond, starter, start, cities, new=False))
        elif cond.met(cities, state.round):
            state.switches[key] = f"{power}:{state.round}"
            events.append(_event("victory_hold", cond, power, state.round, cities, new=True))
        elif power == players[-1] and cond.met(cities, state.round + 1):
            state.switches[key] = f"{players[0]}:{state.round + 1}"
            events.append(_event("victory_hold", cond, players[0], state.round + 1, cities, new=True,
                                 at_round_start=True, rule=ROUND_START_RULE))
    return events


def status(rules, state: State) -> dict:
    """The winner, as the event that ended the game, and the holds under way, as the events that report them."""
    cities = axis_cities(rules, state)
    won = state.switches.get(WON)
    holds = []
    for cond in CONDITIONS:
        record = state.switches.get(f"victory:{cond.key}")
        if not record:
            continue
        starter, start = _hold(str(record))
        if cond.key == won:
            return {"winner": _event("victory", cond, starter, start, cities), "holds": []}
        holds.append(_event("victory_hold", cond, starter, start, cities, new=False))
    return {"winner": None, "holds": holds}
