"""The victory cities each side holds against every goal of the map's victory triggers, for the report's summary
(issue 32): "the Axis hold 4 of the 8 needed in Europe or 2 of the 6 needed in the Pacific". One total of cities
says nothing against a map that wants 8 of one group or 6 of another, so each ownership test of a trigger's
conditions is counted on its own cities.

A group of cities is named by a theatre only where the game's table names that very group (Rules.city_groups:
the rulebook's words, as the map's data has none); the map's every victory city is "all N victory cities", a
short group is named by its cities, and a longer one is counted "among these N cities", listed, so that a map
with other conditions still says what it counts.
"""

from __future__ import annotations

from ..people import powers
from .facts import MapFacts
from .politics import goal_words, victory_triggers, trigger_side

LISTED = 4      # a group of up to this many cities reads as its names; a longer one only where no theatre names it


def against(held: int, needed: int) -> str:
    """A count against its goal, as every game's summary says it ("4 of the 8 needed"; "3 (1 needed)" once met)."""
    return f"{held} of the {needed} needed" if held < needed else f"{held} ({needed} needed)"


def side_members(rules: MapFacts, side: str) -> set[str]:
    return {p.name for p in rules.scenario.players if side in p.alliances}


def _where(rules: MapFacts, places: list[str]) -> str:
    named = {frozenset(cities): theatre for theatre, cities in rules.city_groups.items()}.get(frozenset(places))
    if named:
        return f"in {named}"
    if set(places) == {t.name for t in rules.scenario.territories if t.victory_city}:
        return f"among all {len(places)} victory cities"
    if len(places) <= LISTED:
        return f"among {', '.join(places)}"
    return f"among these {len(places)} cities ({', '.join(places)})"


def held_against(rules: MapFacts, owners: dict[str, str], name: str, side: str) -> str:
    """A condition in the words of politics.goal_words, its ownership tests as the cities the side holds against
    those needed: an allied ownership test counts the side's powers, a direct one the condition's own, named
    where they are not the side's (Alt-Universe's Allies win only while the Neutral League keeps NL11)."""
    members = side_members(rules, side)

    def counted(cond, option: str, places: list[str], needed: int) -> str:
        own = members if option.startswith("allied") else set(cond.names("players") or [cond.attach_to])
        held = sum(owners.get(p) in own for p in places)
        words = f"{against(held, min(needed, len(places)))} {_where(rules, places)}"
        return words if own & members else f"with {powers(sorted(own))} holding {words}"
    return goal_words(rules, name, 0, counted)


def trigger_goals(rules: MapFacts, owners: dict[str, str]) -> list[str]:
    """Every victory trigger of the map as the summary says it: the side, what it holds against each goal, and
    the hold of a whole round the game plays (RULINGS.md "victory")."""
    phrases = []
    for trigger in victory_triggers(rules):
        side = trigger_side(rules, trigger)
        goal = ", and ".join(held_against(rules, owners, n, side) for n in trigger.names("conditions", "trigger"))
        phrases.append(f"the {side} hold {goal}, for a whole round")
    return phrases
