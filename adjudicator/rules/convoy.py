"""Convoy disruption (BG-38), at the end of a power's turn, before it collects income.

Enemy ships and aircraft in the power's convoy zones (the map's `blockadeZone`) roll the map's `blockade`
dice each (submarine 2, surface warship 1, fighter and tactical bomber 2 on the G40 maps; carriers and
transports none). The dice showing 1–3 cost the power their sum in PUs, at most the value of its territories
next to that zone; a power the map makes immune (`immuneToBlockade`, China) loses nothing.
"""

from __future__ import annotations

from ..state import State
from .facts import MapFacts

DISRUPTING = 3          # a die at or below this disrupts


def disrupt(rules: MapFacts, state: State, power: str, roller) -> list[dict]:
    """Roll the convoy dice against `power`; returns one event per disrupted zone (none while checking)."""
    if not rules.prop("Convoy Blockades Roll Dice For Cost") or roller is None or _immune(rules, power):
        return []
    events = []
    for zone in (t for t in rules.scenario.territories if t.convoy_zone):
        shores = sorted(n for n in rules.scenario.neighbours(zone.name) if state.owners.get(n) == power)
        if not shores:
            continue
        cap = sum(rules.scenario.territory(n).production for n in shores)
        raiders = sorted((u for u in state.units_at(zone.name) if rules.fights(state, power, u.owner)
                          and rules.number(u, "blockade", 0) > 0), key=lambda u: (u.type, u.id))
        if not raiders or cap <= 0:
            continue
        names = [f"{u.type}" for u in raiders for _ in range(rules.number(u, "blockade", 0))]
        label = f"convoy:{zone.name}:{power}"
        sides = rules.scenario.dice_sides
        values = roller.roll(label, sides, len(names), units=names)
        rolled = sum(v for v in values if v <= DISRUPTING)
        events.append({"type": "convoy", "power": power, "zone": zone.name, "label": label, "sides": sides,
                       "values": values, "units": names, "rolled": rolled, "cap": cap, "loss": min(rolled, cap),
                       "shores": shores})
    return events


def loss(events: list[dict]) -> int:
    return sum(e["loss"] for e in events if e["type"] == "convoy")


def _immune(rules: MapFacts, power: str) -> bool:
    try:
        options = rules.scenario.player(power).options
    except KeyError:
        return False
    return any(v.strip().lower() == "true" for v in options.get("immuneToBlockade", []))
