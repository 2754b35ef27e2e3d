"""The report's summary of a turn, what TripleA's turn summary and a player's spreadsheet show at a glance: the
territories that changed hands, the victory cities each side holds against what it needs, and the damaged ships
and facilities. Sentences, so that every template (and a host's) prints them as they are."""

from __future__ import annotations

# The version of the built-in templates (report.TEMPLATE_VERSION) from which the snapshot of a turn keeps its
# damaged units: `audit` finds none in a snapshot kept with an older report, and compares it without them.
DAMAGE_KEPT_FROM = 3


def summary_lines(setup, turn_index: int, snapshot: dict | None, before: dict | None) -> list[str]:
    """`snapshot`: the position kept after the turn; `before`: the one kept after the turn before (None for the
    first turn: the scenario's owners). A turn adjudicated before snapshots were kept has no summary."""
    if not snapshot:
        return []
    scenario = setup.scenario
    owners_before = before["owners"] if before else (scenario.owners if turn_index <= 1 else None)
    lines = []
    if owners_before is not None:
        lines += _changed_hands(owners_before, snapshot["owners"])
    lines += _victory_cities(scenario, setup.rules, snapshot["owners"])
    lines += _damaged(snapshot)
    return lines


def _changed_hands(before: dict[str, str], after: dict[str, str]) -> list[str]:
    changed = [f"{place} ({before.get(place) or 'nobody'} → {owner})" for place, owner in sorted(after.items())
               if before.get(place) != owner]
    return [f"Changed hands this turn: {', '.join(changed)}."] if changed else []


def _victory_cities(scenario, rules, owners: dict[str, str]) -> list[str]:
    """Each side's count (a territory's victoryCity counts that many), and what the game says each side needs."""
    cities = [t for t in scenario.territories if t.victory_city and not t.hidden]
    if not cities:
        return []
    sides = list(dict.fromkeys(a for p in scenario.players for a in p.alliances))
    side_of = {p.name: [a for a in p.alliances if a in sides] for p in scenario.players}
    counts = {side: sum(t.victory_city for t in cities if side in side_of.get(owners.get(t.name), []))
              for side in sides}
    total = sum(t.victory_city for t in cities)
    held = ", ".join(f"the {side} {n}" for side, n in counts.items())
    goals = rules.victory_city_goals()
    return [f"Victory cities held: {held}, of {total}" + (f"; to win, {'; '.join(goals)}." if goals else ".")]


def damaged_units(state) -> list[list]:
    """The damaged ships and facilities of a position as the snapshot keeps them ([place, owner, type, damage]),
    so that a report of the turn says the same whenever it is written."""
    return [[u.place, u.owner, u.type, u.damage]
            for u in sorted((u for u in state.units if u.damage), key=lambda u: (u.place, u.owner, u.type, u.id))]


def _damaged(snapshot: dict) -> list[str]:
    """A snapshot written before snapshots kept the damage has none to say."""
    damaged = snapshot.get("damaged", [])
    if not damaged:
        return []
    return ["Damaged: " + ", ".join(f"{place}: {owner} {unit} ({n} damage)" for place, owner, unit, n in damaged) + "."]
