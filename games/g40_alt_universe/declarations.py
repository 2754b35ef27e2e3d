"""Who may declare war when in G40 Alt-Universe (AU-10 to AU-50, AU-63; Beta-1.1: AU11-01), by the document.

The map's political actions say which relationships a declaration changes, and they are played as they are;
their conditions are not used: they test battles we would have to read from TripleA's own records, miss the US
exception (A4 or UK10 taken) and France's Neutral League route, and misspell Italy's UK19 step. The document's
gates are checked here instead, from the state and the attack records of neutrals.py.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.g40_family import G40Rules
from adjudicator.state import State

from . import france, neutrals

PROTECTORATES = ("PA4", "PA10", "PA11", "PA12")                      # AU-14
LEAGUE_NEAR_RUSSIA = ("NL3", "NL4", "NL5", "NL6", "NL7", "NL8")       # AU-15


def check(rules: G40Rules, state: State, power: str, target: str) -> None:
    """Raise RuleViolation, in the document's words and with its id, unless `power` may declare war on `target`."""
    mine = neutrals.side(rules, power)
    if target == neutrals.LEAGUE:
        if mine == "Allies" and not neutrals.at_war_with_axis(rules, state, power):
            _refuse(power, target, "an Allied power may attack neutral territories only while it is at war", "AU-121")
        return
    if mine == "Axis" or neutrals.side(rules, target) != "Axis":
        return                                   # AU-10, AU-17, AU-43: the Axis declare at any time
    if power == "Russians":
        opens = 3 if rules.rules_version == "beta-1.1" else 4
        if (state.round >= opens or neutrals.at_war_with_axis(rules, state, power)
                or neutrals.attacked_by(rules, state, PROTECTORATES + LEAGUE_NEAR_RUSSIA, "Axis")):
            return
        _refuse(power, target, f"the Soviet Union may not declare war before round {opens} unless an Axis power "
                f"has declared war on it or attacked {', '.join(PROTECTORATES)} or one of NL3 to NL8",
                rules.declaration_rule(power))
    if power == "Americans":
        if state.round >= 3 or neutrals.at_war_with_axis(rules, state, power) or _axis_took(rules, state, ("A4", "UK10")):
            return
        _refuse(power, target, "the US may not declare war before round 3 unless an Axis power has declared war "
                "on it or the Axis have captured A4 or UK10", "AU-22")
    if power == "Chinese":
        if state.round >= 3 or neutrals.at_war_with_axis(rules, state, power):
            return
        _refuse(power, target, "China may not declare war before round 3 unless an Axis power has declared war "
                "on it", "AU-27")
    if power == "ANZAC":
        _refuse(power, target, "ANZAC is at war and at peace with exactly the powers the UK is: the UK declares "
                "for both", "AU-45")
    if power == france.FRANCE:
        if (neutrals.at_war_with_axis(rules, state, power)
                or (france.level(state) >= france.TOP and not state.spent.get("france:stopped"))
                or neutrals.attacked_by(rules, state, ("UK19",), "Axis")
                or neutrals.first_league_attack(rules, state) == "Axis"):
            return
        _refuse(power, target, f"France may declare war only once an Axis power has declared war on it or "
                f"attacked UK19, or attacked the Neutral League before any Allied power did, or at escalation "
                f"level 4 (now {france.level(state)})", "AU-47")


def _axis_took(rules: G40Rules, state: State, places) -> bool:
    """AU-24: an Axis power holds, or has taken, one of `places`."""
    return any(neutrals.side(rules, state.owners.get(p, "")) == "Axis" or
               state.spent.get(f"captured:{p}") for p in places)


def _refuse(power: str, target: str, why: str, rule: str):
    raise RuleViolation(f"{power} may not declare war on {target} now: {why}", rule)
