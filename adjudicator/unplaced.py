"""`submit`'s warning about units bought and not placed: the orders reach the place phase and leave some of what
the power bought (in these orders, in an earlier part of the turn, or held over) without a place order. A
warning, not an error: the game keeps or loses such units by its own rules, and the report says which."""

from __future__ import annotations

from collections import Counter

from .notation.orders import Buy, Place
from .people import units as units_phrase
from .state import State


def unplaced(state: State, power: str, orders: list, covers: list[str]) -> dict[str, int]:
    """What `power` has bought and these orders do not place. A submission that stops before the place phase (a
    turn posted in parts) places nothing yet: the part that reaches it is the one warned."""
    if "place" not in covers:
        return {}
    left = Counter(state.purchases.get(power, {}))
    for o in orders:
        if isinstance(o, Buy) and o.power in ("", power):
            left.update({u.unit: u.count for u in o.units})
        elif isinstance(o, Place):
            left.subtract({u.unit: u.count for u in o.units})
    return {unit: n for unit, n in left.items() if n > 0}


def warning(units: dict[str, int]) -> list[str]:
    if not units:
        return []
    return [f"bought but not placed by these orders: {units_phrase(units)}; add place orders before `adjudicate` "
            "if that is a mistake (the game keeps or loses such units by its rules, and the report says which)"]
