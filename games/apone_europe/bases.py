"""AP-02, AP-03: the air and naval bases of A&A Pacific (1999) on Sgt. Apone's board (RULINGS.md "air-bases",
"naval-bases", "base-owner").

A base is a piece in its territory (scenario.py): it serves whoever holds it now, and that power's allies, and
changes hands with the territory. An air base gives an aircraft +1 movement for the turn when its first move
starts there, and +1 for a move that ends there (base to base: +2). A naval base serves one sea zone; in the
non-combat move a ship moving from a served zone to another served zone moves 3 instead of 2.
"""

from __future__ import annotations

from adjudicator.rules.facts import MapFacts
from adjudicator.state import State, Unit

from .scenario import AIR_BASE, NAVAL_BASE

# The sea zone each naval base serves (RULINGS.md "naval-bases"): the one Apone names, or the territory's only one.
SERVED_ZONE = {
    "Archangel": "White Sea Sea Zone",
    "France": "Bay of Biscay Sea Zone",
    "Germany": "Baltic Sea Sea Zone",
    "Gibraltar": "Strait of Gibraltar Sea Zone",
    "Iceland": "Denmark Strait Sea Zone",
    "Norway": "Norwegian Sea Sea Zone",
    "United States": "U.S. Eastern Coast Sea Zone",
}


def _friendly_bases(rules: MapFacts, state: State, power: str, kind: str) -> set[str]:
    """The territories whose base of `kind` serves `power`: its own and its allies'."""
    return {u.place for u in state.units if u.type == kind and rules.friendly(state, power, u.owner)}


def start_bonus(rules: MapFacts, state: State, unit: Unit) -> int:
    """AP-02: +1 for the turn to an aircraft whose first move starts in a territory with a friendly air base."""
    if not rules.is_air(unit) or rules.is_water(unit.place):
        return 0
    return int(unit.place in _friendly_bases(rules, state, unit.owner, AIR_BASE))


def route_bonus(rules: MapFacts, state: State, unit: Unit, start: str, phase: str) -> dict[str, int]:
    """AP-02: +1 to an aircraft's move that ends in a territory with a friendly air base, in either move phase.
    AP-03: +1 to a ship's non-combat move from a zone a friendly naval base serves to another such zone."""
    if rules.is_air(unit):
        return dict.fromkeys(_friendly_bases(rules, state, unit.owner, AIR_BASE), 1)
    if rules.ut(unit).domain != "sea" or phase != "noncombat_move":
        return {}
    zones = {SERVED_ZONE[t] for t in _friendly_bases(rules, state, unit.owner, NAVAL_BASE) if t in SERVED_ZONE}
    if start not in zones:
        return {}
    return dict.fromkeys(zones - {start}, 1)
