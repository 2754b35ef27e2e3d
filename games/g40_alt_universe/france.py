"""France's escalation in G40 Alt-Universe (AU-46 to AU-65; Beta-1.1: AU11-02 to AU11-04).

Neutral France climbs an escalation chart as the Axis attack more Independent Neutral territories than the
Allies do; each level loosens what it may do, and level 4 lets it declare war. The map keeps the count with
marker units and counts only German and British conquests; we count every attack from the records of
neutrals.py, failed attacks and fly-overs included (ruling "french-escalation"). The level and the two
Neutral League consequences are kept in `state.spent`: "france:level" (1 when absent; it never goes down),
"france:stopped" (AU-64: the Allies attacked the League first), "france:closed" (AU-65: and France was at level
3, so no more Allied units enter French territories).
"""

from __future__ import annotations

from adjudicator.rules.g40_family import G40Rules
from adjudicator.state import State

from . import neutrals

FRANCE = "French"
TOP = 4
REDUCED_INCOME = 16                       # AU-56: France's income at levels 1 and 2, whatever the tracker shows
NO_LIMIT_FROM = 2                         # AU-59: from level 2 France moves freely in non-combat
FULL_FROM = 3                             # AU-60: full income, free navy; AU-61 Allied non-combat entry
NON_COMBAT_UNITS = 3                      # AU-57: how many units France moves in non-combat at level 1
WHAT = {2: "France moves its units freely in non-combat now (AU-59)",
        3: "France collects its full income, its navy moves freely, and Allied units that did not fight may "
           "move into and out of French territories in non-combat (AU-60, AU-61)",
        4: "France may declare war on the Axis (AU-63)"}


def level(state: State) -> int:
    return state.spent.get("france:level", 1)


def neutral(rules: G40Rules, state: State) -> bool:
    """France is neutral while it is at war with no Axis power (AU-46)."""
    return not neutrals.at_war_with_axis(rules, state, FRANCE)


def counts(rules: G40Rules, state: State) -> dict[str, int]:
    """AU-52: IN territories attacked, each counted once for the side that attacked it first."""
    found = {"Axis": 0, "Allies": 0}
    for place, original in state.original_owners.items():
        if original == neutrals.IN:
            first = neutrals.first_side(rules, state, place)
            if first:
                found[first] += 1
    return found


def update(rules: G40Rules, state: State) -> list[dict]:
    """After an attack: AU-53 the level rises to 1 + the Axis lead, at most 4; AU-54 it never falls; it stops
    rising once France is at war or the Allies attacked the League first (AU-64, AU11-04)."""
    if state.spent.get("france:stopped") or not neutral(rules, state):
        return []
    found = counts(rules, state)
    wanted = min(TOP, 1 + found["Axis"] - found["Allies"])
    now = level(state)
    if wanted <= now:
        return []
    state.spent["france:level"] = wanted
    axis = f"{found['Axis']} Independent Neutral territor{'y' if found['Axis'] == 1 else 'ies'}"
    text = (f"French escalation rises to level {wanted}: the Axis attacked {axis}, the Allies {found['Allies']}. "
            + "; ".join(WHAT[n] for n in range(now + 1, wanted + 1)))
    return [{"type": "rule", "text": text + ".", "rule": "AU-53"}]


def league_attacked_first_by_allies(rules: G40Rules, state: State, beta11: bool) -> list[dict]:
    """AU-64 (AU11-04): the Allies attacked the League before the Axis did: escalation stops for good, and with
    it France's way to war by escalation (a level 4 reached already included); AU-65 (Beta-1.3 only): at level
    3 or 4 no more Allied units enter French territories."""
    if state.spent.get("france:stopped"):
        return []
    state.spent["france:stopped"] = 1
    text = f"The Allies attacked the Neutral League first: French escalation stops at level {level(state)} for good"
    rule = "AU11-04" if beta11 else "AU-64"
    if not beta11 and level(state) >= FULL_FROM:
        state.spent["france:closed"] = 1
        text += ", and no more Allied units may enter French territories (AU-65)"
    return [{"type": "rule", "text": text + ".", "rule": rule}]


def allied_entry(rules: G40Rules, state: State, power: str, phase: str, units) -> str | None:
    """Why Allied `units` of `power` may not enter French territory now (AU-61, AU-65), or None."""
    if state.spent.get("france:closed"):
        return "the Allies attacked the Neutral League first, so no more Allied units may enter French territories"
    if level(state) < FULL_FROM:
        return (f"France is neutral at escalation level {level(state)}: Allied units may enter French territories "
                f"only from level 3")
    if phase != "noncombat_move":
        return "Allied units may enter French territories only in the non-combat move"
    if any(u.flags.get("combat_moved") or u.flags.get("fought") for u in units):
        return "only Allied units that took no part in combat this turn may enter French territories"
    return None


def naval_end(rules: G40Rules, state: State, zone: str, beta11: bool) -> str | None:
    """AU-58 (Beta-1.1: AU11-02, AU11-03): at levels 1 and 2 a French ship may not end its move next to an
    Axis-held territory, unless (Beta-1.3) the zone is also next to a French one. Why not, or None."""
    near = rules.scenario.neighbours(zone)
    axis = sorted(p for p in near if neutrals.side(rules, state.owners.get(p, "")) == "Axis")
    if not axis:
        return None
    if not beta11 and any(state.owners.get(p) == FRANCE for p in near):
        return None
    return f"{zone} is next to Axis-held {', '.join(axis)}"
