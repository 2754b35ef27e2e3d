"""Unit power arithmetic of Allies vs. Axis: attack power, defend power with support, and paying a power in units.

Armies are plain {unit: count} dicts; the unit order weakest to strongest is the order of `POWER_OF`.
"""

from __future__ import annotations

UNITS = ("infantry", "tank", "aircraft", "battleship")      # weakest first (AV-25)


def attack_power(army: dict[str, int], power_of: dict[str, int]) -> int:
    """AV-31: the sum of the units' powers."""
    return sum(power_of[u] * army.get(u, 0) for u in UNITS)


def defend_power(army: dict[str, int], power_of: dict[str, int]) -> int:
    """AV-32 (RULINGS.md "defend-support"): each unit's power, plus +1 for every pair of it and a unit of a weaker
    type: the units of each weaker type support as many stronger units as there are of them, one each."""
    total = attack_power(army, power_of)
    for k, strong in enumerate(UNITS):
        for weak in UNITS[:k]:
            total += min(army.get(strong, 0), army.get(weak, 0))
    return total


def weakest_first(pool: dict[str, int], amount: int, power_of: dict[str, int],
                  allowed: tuple[str, ...] = UNITS) -> tuple[dict[str, int], int]:
    """The units of `pool` that make up `amount` of power taking whole units weakest first (AV-25; RULINGS.md
    "penalty-overshoot": the last unit may pay more than is owed, and the excess is lost), and what is still
    owed when the allowed units run out."""
    taken: dict[str, int] = {}
    owed = amount
    for unit in UNITS:
        if owed <= 0:
            break
        if unit not in allowed or not pool.get(unit):
            continue
        n = min(pool[unit], -(-owed // power_of[unit]))
        taken[unit] = n
        owed -= n * power_of[unit]
    return taken, max(owed, 0)


def tally(units) -> dict[str, int]:
    """An order's unit counts (`5 inf, 2 inf, 1 tank`) as one army."""
    out: dict[str, int] = {}
    for u in units:
        out[u.unit] = out.get(u.unit, 0) + u.count
    return out


def short_of(have: dict[str, int], want: dict[str, int]) -> dict[str, int]:
    """How many `have` holds of each unit that `want` asks more of than it holds: empty when it holds enough."""
    return {u: have.get(u, 0) for u, n in want.items() if n > have.get(u, 0)}


def take(pool: dict[str, int], units: dict[str, int]) -> None:
    for unit, n in units.items():
        pool[unit] = pool.get(unit, 0) - n


def add(pool: dict[str, int], units: dict[str, int]) -> None:
    for unit, n in units.items():
        pool[unit] = max(0, pool.get(unit, 0) + n)


def phrase(army: dict[str, int]) -> str:
    shown = [f"{army[u]} {u}" for u in UNITS if army.get(u)]
    return ", ".join(shown) or "no units"
