"""Bombers in G40 Alt-Universe: defending like transports (AU-102, AU-103) and, in Beta-1.1, attacking for one
combat round with a bigger bombing bonus in overwhelming raids (AU11-09 to AU11-12).

The document's "bombers" are the heavy bombers. The map marks tactical bombers as strategic bombers too, but
limits them to bombing bases (bombingTargets), which tells the two apart without naming a unit type.

The 2.0.4 map that goes with Beta-1.1 builds the single-round attack from a helper unit, the payload: bombers
attack at 0 there and the payload, a 0/0 unit that dies after round 1, lifts one bomber to 4. We play the
rule itself instead (RULINGS.md "bomber-payload"), so the bomber gets the payload's strength as its own and
the payload becomes bookkeeping.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.rules.g40_family import G40Rules
from adjudicator.scenario import Scenario, UnitType
from adjudicator.state import Unit

PAYLOAD = "bomber_payload"
OVERWHELMING_BONUS = 4          # AU11-12: what each bomber adds to its damage die in an overwhelming raid
SINGLE_ROUND = ("Beta-1.1 bombers attack in the first round only; they count as retreated and land in the "
                "non-combat move (AU11-09, AU11-10)")


def is_bomber(rules: G40Rules, unit: Unit | str) -> bool:
    """A heavy bomber: a strategic bomber free to raid any facility."""
    return rules.ut(unit).has("strategic_bomber") and not rules.names(unit, "bombingTargets")


def played_types(scenario: Scenario) -> dict[str, UnitType]:
    """The unit types whose numbers differ from the map's (RULINGS.md "bomber-payload"): where the map has a
    payload, each unit it supports attacks with the payload's bonus as its own strength, and the payload is a
    marker that never moves or fights, like the map's city markers."""
    if PAYLOAD not in {t.name for t in scenario.unit_types}:
        return {}
    played: dict[str, UnitType] = {}
    for sup in scenario.supports:
        if sup.provider == PAYLOAD and sup.offence:
            for name in sup.targets:
                t = played.get(name) or scenario.unit_type(name)
                played[name] = replace(t, attack=t.attack + sup.bonus)
    payload = scenario.unit_type(PAYLOAD)
    played[PAYLOAD] = replace(payload, domain="land", movement=0, flags=[*payload.flags, "marker"])
    return played


def leaves_battle(rules: G40Rules, unit: Unit, rnd: int) -> str:
    """AU11-09, AU11-10 (RULINGS.md "retreated-bombers"): attacking bombers leave after the first round."""
    return SINGLE_ROUND if rnd == 1 and is_bomber(rules, unit) else ""


def bombing_bonus(rules: G40Rules, unit: Unit, escorts: int, interceptors: int) -> int:
    """AU11-12 (RULINGS.md "overwhelming-raid"): a bomber adds 4 when nothing intercepts it or its escorts are
    at least twice the interceptors."""
    if is_bomber(rules, unit) and (interceptors == 0 or escorts >= 2 * interceptors):
        return OVERWHELMING_BONUS
    return rules.number(unit, "bombingBonus", 0)
