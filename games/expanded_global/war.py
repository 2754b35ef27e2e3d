"""The Expanded Global's line between "at war" and "combat allowed" at sea and in raids (EG-06, EG-66, EG-67).

RULINGS.md "eg-shared-sea-zones", "eg-surprise-attack". The engine's hostility (hostile units, blocking, convoys,
scrambles, raids, battles) asks MapFacts.fights, which ExpandedGlobalRules answers with politics.combat_allowed:
nations at war whose combat is not allowed yet share zones as nations at peace do. A battle between them is
only by an order of the mover, which is a Surprise Attack:

* `attack NATION ZONE` in the combat move: the mover's units in ZONE (already there, or moved in by an earlier
  order) attack NATION's units there; without combat allowed with NATION it is a Surprise Attack;
* `attack ZONE`: units that stay in a zone with an enemy they have combat allowed with fight it there;
* a raid on a facility of a nation without combat allowed (`raiding`) is a Surprise Attack too.
"""

from __future__ import annotations

from adjudicator.notation.parser import Reader
from adjudicator.rules import movement
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from . import politics
from .phrases import said

VERB = "attack"
USAGE = "attack [NATION] ZONE"


def register(reg) -> None:
    """Bind `attack` to the combat move in the game's registry."""
    reg.register(VERB, phase="combat_move", usage=USAGE, parse=_parse)


def _parse(r: Reader) -> dict:
    """The nation comes first: a nation's name can also be a place (Japan), a sea zone's never starts with one."""
    nation = r.leading_power()
    return {"nation": nation, "place": r.place()} if nation else {"place": r.place()}


def attack(rules, state: State, power: str, zone: str, nation: str | None) -> dict:
    """Declare a sea battle in `zone` for `power`'s units there: against `nation` (a Surprise Attack without
    combat allowed), or against the enemies there it has combat allowed with."""
    if not rules.is_water(zone):
        raise RuleViolation(f"`attack` names a sea zone; {zone} is land: a combat move into it attacks it", "EG-66")
    armed = [u for u in state.units_at(zone, power) if rules.is_combatant(u) and rules.unit_value(u, "attacker") > 0]
    if not armed:
        raise RuleViolation(f"{power} have no unit in {zone} that can attack", "EG-66")
    if nation is None:
        if not rules.hostile_units(state, power, zone):
            raise RuleViolation(f"{zone} holds no unit of a nation {power} have combat allowed with: to attack a "
                                f"nation there without it, name it (`attack NATION {zone}`, a Surprise Attack)",
                                "EG-66")
    else:
        if nation == power or rules.friendly(state, power, nation):
            raise RuleViolation(f"{power} may not attack {nation}: not an ally's units, nor their own", "EG-66")
        if not state.units_at(zone, nation):
            raise RuleViolation(f"{zone} holds no unit of {nation} to attack", "EG-66")
        if not politics.combat_allowed(rules, state, power, nation):
            politics.surprise_attack(rules, state, power, nation)
    for u in armed:
        u.mark(combat_moved=True)
    movement.declare(state, zone, power, "sea")
    return said({"type": "attack_order", "power": power, "place": zone,
                 "against": sorted({u.owner for u in rules.hostile_units(state, power, zone)}), "rule": "EG-66"})


def raiding(rules, state: State, power: str, place: str) -> None:
    """A raid on a facility of a nation `power` has no combat allowed with is a Surprise Attack (RULINGS.md
    "eg-surprise-attack")."""
    owner = rules.owner(state, place)
    if (owner in politics.nations(rules) and owner != power and not rules.friendly(state, power, owner)
            and not politics.combat_allowed(rules, state, power, owner)
            and any(rules.ut(u).has("can_be_damaged") for u in state.units_at(place, owner))):
        politics.surprise_attack(rules, state, power, owner)
