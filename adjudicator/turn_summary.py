"""The report's summary of a turn, what TripleA's turn summary and a player's spreadsheet show at a glance: the
territories that changed hands, the victory cities each side holds against what it needs, and the damaged ships
and facilities. Sentences in the players' words (adjudicator/people.py), so that every template (and a host's)
prints them as they are."""

from __future__ import annotations

from .people import heading, readable, unit, whose

# The version of the built-in templates (report.TEMPLATE_VERSION) from which the snapshot of a turn keeps what
# changed hands in it and its damaged units (SUMMARY_KEYS): `audit` finds neither in a snapshot kept with an older
# report, and compares it without them.
SUMMARY_KEPT_FROM = 3
SUMMARY_KEYS = ("changed", "damaged")


def summary_lines(setup, snapshot: dict | None) -> list[str]:
    """From the position kept after the turn (a turn adjudicated before snapshots were kept has no summary)."""
    if not snapshot:
        return []
    return (_changed_lines(snapshot) + _victory_cities(setup.scenario, setup.rules, snapshot["owners"])
            + _damaged(snapshot))


def changed_hands(before: dict[str, str], after: dict[str, str], kept: dict | None) -> list[list]:
    """The territories whose owner after an adjudication differs from the one at the start of the turn, as the
    snapshot keeps them ([place, owner then, owner now]). `before`: the owners as this adjudication began;
    `kept`: the turn's snapshot so far, when an earlier part of the turn was adjudicated (its owners at the
    turn's start are those it lists)."""
    start = {**before, **{place: was for place, was, _ in (kept or {}).get("changed", [])}}
    return [[place, start.get(place), owner] for place, owner in sorted(after.items()) if start.get(place) != owner]


def _changed_lines(snapshot: dict) -> list[str]:
    changed = [f"{place} ({heading(was) if was else 'nobody'} → {heading(now)})"
               for place, was, now in snapshot.get("changed", [])]
    return [f"Changed hands this turn: {', '.join(changed)}."] if changed else []


def _victory_cities(scenario, rules, owners: dict[str, str]) -> list[str]:
    """What each side holds against every goal of the game (rules.victory_city_goals); a map with victory cities
    and no goal counted in them, each side's count (a territory's victoryCity counts that many)."""
    cities = [t for t in scenario.territories if t.victory_city and not t.hidden]
    if not cities:
        return []
    goals = rules.victory_city_goals(owners)
    if goals:
        return [f"Victory cities: {'; '.join(goals)}."]
    playing = set(scenario.turn_players())         # a map's neutrals share alliances of their own: not sides
    sides = list(dict.fromkeys(a for p in scenario.players if p.name in playing for a in p.alliances))
    side_of = {p.name: [a for a in p.alliances if a in sides] for p in scenario.players}
    counts = {side: sum(t.victory_city for t in cities if side in side_of.get(owners.get(t.name), []))
              for side in sides}
    held = ", ".join(f"the {readable(side)} {n}" for side, n in counts.items())
    return [f"Victory cities held: {held}, of {sum(t.victory_city for t in cities)}."]


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
    return ["Damaged: " + ", ".join(f"{place}: {whose(owner)} {unit(kind)} ({n} damage)"
                                    for place, owner, kind, n in damaged) + "."]
