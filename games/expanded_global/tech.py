"""The Expanded Global Scenario's technologies (EG-31 … EG-48): which a nation has, kept in the State.

state.switches["tech:NATION"] = JSON list of the technologies NATION has fully researched (or received), in the
order gained. A technology is a modifier of that nation's unit types, read where a rule asks (`has`), never an
edit of the shared scenario.
"""

from __future__ import annotations

import json

from adjudicator.state import State

# EG-35 … EG-46: Chart 1 is read on one die, Chart 2 on the sum of two.
CHART_1 = {1: "Advanced Artillery", 2: "Increased Factory Production", 3: "Fighting Transports",
           4: "Super Submarines", 5: "Radar", 6: "Improved Shipyards"}
CHART_2 = {7: "Improved Mechanized Infantry", 8: "Long Range Bombers", 9: "Cruise Missiles",
           10: "Ballistic Missiles", 11: "Atomic Bomb", 12: "Nuclear Warhead"}
NUCLEAR = ("Atomic Bomb", "Nuclear Warhead")         # EG-45, EG-46: the Nuclear Technologies
ALL = tuple(CHART_1.values()) + tuple(CHART_2.values())


def technologies(state: State, nation: str) -> list[str]:
    """The technologies `nation` has, in the order gained."""
    return json.loads(state.switches.get(f"tech:{nation}") or "[]")


def has(state: State, nation: str, tech: str) -> bool:
    return tech in technologies(state, nation)


def grant(state: State, nation: str, tech: str) -> bool:
    """`nation` gains `tech`; False if it had it already."""
    held = technologies(state, nation)
    if tech in held:
        return False
    state.switches[f"tech:{nation}"] = json.dumps(held + [tech])
    return True
