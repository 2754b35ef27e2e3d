"""The TripleA game properties the rules core honours (DESIGN.md "Rules core").

A map switches rules with `<property name=… value=…>`; the engine reads these names and nothing else, with
TripleA's own default where a map leaves one out, so that a map of another edition plays by its own switches
rather than by ours. A game whose rulebook says otherwise overrides `MapFacts.prop` (facts.py) for that name (and writes
a RULINGS.md entry): where map data and rulebook disagree, the rulebook wins. Every other name a map may set
is fixed or cosmetic for the family, and `new` refuses a map that sets one the family does not play
(adjudicator/families.py, which reads HONOURED as its honoured column).
"""

from __future__ import annotations

# name -> (TripleA's default, what it switches on when true)
HONOURED: dict[str, tuple[bool, str]] = {
    "Submersible Subs": (False, "submarines may submerge instead of fighting (BG-17)"),
    "Sub Retreat Before Battle": (False, "defending submarines may submerge before the first round"),
    "Defending Subs Sneak Attack": (False, "defending submarines also fire a surprise strike (BG-16)"),
    "Air Attack Sub Restricted": (False, "aircraft cannot hit submarines without a friendly destroyer (BG-18)"),
    "Ignore Sub In Movement": (False, "enemy submarines do not stop moving ships (BG-07)"),
    "Ignore Transport In Movement": (False, "enemy transports do not stop moving ships (BG-07)"),
    "Subs Can End NonCombat Move With Enemies": (False, "submarines may end a non-combat move among enemy ships"),
    "Transport Casualties Restricted": (False, "transports are taken as casualties last (BG-13)"),
    "Unescorted Transport Dies": (True, "transports left alone against armed enemies are destroyed (BG-13)"),
    "Units Repair Hits Start Turn": (False, "damaged ships are repaired at the start of their owner's turn (BG-21)"),
    "Two HitPoint Units Require Repair Facilities": (False, "that repair needs an operative naval base (BG-21)"),
    "Previous Units Fight": (False, "the attacker's units already in a contested sea zone join its battle there"),
    "Shore Bombard Per Ground Unit Restricted": (False, "at most one bombarding ship per land unit landed (BG-12)"),
    "Naval Bombard Casualties Return Fire": (False, "units hit by shore bombardment still fire back (BG-12)"),
    "Units May Give Bonus Movement": (False, "air bases and naval bases give +1 movement (BG-31, BG-32)"),
    "Scramble Rules In Effect": (False, "aircraft at an air base may scramble into an attacked sea zone (BG-30)"),
    "Scrambled Units Return To Base": (False, "scrambled aircraft return to their base after the battle"),
    "Scramble To Sea Only": (False, "aircraft scramble only into sea zones"),
    "Scramble From Island Only": (False, "aircraft scramble only from islands"),
    "Scramble To Any Amphibious Assault": (False, "aircraft scramble into any sea zone an amphibious assault lands "
                                                  "from, not only from the territory assaulted (BG-30)"),
    "Raids May Be Preceeded By Air Battles": (False, "escorts and interceptors fight before a raid (BG-27)"),
    "Use Bombing Max Dice Sides And Bonus": (False, "raid damage uses the bomber's own die and bonus (BG-27)"),
    "Damage From Bombing Done To Units Instead Of Territories": (False, "raids damage the facility itself (BG-28)"),
    "Convoy Blockades Roll Dice For Cost": (False, "convoy disruption rolls dice per raider (BG-38)"),
    "Produce fighters on carriers": (False, "new fighters may be placed on new carriers (BG-15)"),
    "Produce new fighters on old carriers": (False, "new fighters may be placed on carriers already at sea (BG-15)"),
    "Land existing fighters on new carriers": (False, "aircraft may end non-combat where a new carrier will be placed"),
    "Partial Amphibious Retreat": (False, "attackers that did not land from the sea may retreat (BG-23)"),
    "National Objectives": (False, "national objectives are paid with income (BG-37)"),
    "Use Kamikaze Suicide Attacks": (False, "the owner of a kamikaze zone may spend tokens on strikes there (RULINGS.md \"kamikaze\")"),
    "Kamikaze Suicide Attacks Done By Current Territory Owner": (False, "the zone's current owner strikes, not its original one"),
    "Kamikaze Suicide Attacks Only Where Battles Are": (False, "kamikaze strikes only where the mover fights or lands from"),
    "Triggered Victory": (False, "the map's victory triggers end the game (RULINGS.md \"victory\")"),
    # Read by the classic family (games/classic/RULES.md); the G40 family fixes them (adjudicator/families.py).
    "Units Repair Hits End Turn": (False, "damaged battleships are repaired as their owner's turn ends (CL-06)"),
    "Unplaced units live when not placed": (False, "units bought and not placed are kept, not lost (CL-09)"),
    "Neutrals Are Impassable": (False, "no unit enters or flies over a neutral territory (CL-10)"),
    "Naval Units May Not NonCombat Move Into Controlled Sea Zones": (
        False, "ships may not enter a sea zone an enemy holds (a convoy zone) in the non-combat move (CL-12)"),
    "Submarines Defending May Submerge Or Retreat": (False, "defending submarines may submerge, even where "
                                                            "\"Submersible Subs\" is off (CL-13)"),
    "Limit SBR Damage To Factory Production": (False, "each raiding bomber costs at most the territory's value (CL-05)"),
    "Limit SBR Damage Per Turn": (False, "raids on a territory cost at most its value a turn (CL-05)"),
    "Production Per Valued Territory Restricted": (
        False, "a power that buys nothing is given infantry for its territories with a value (CL-16)"),
    "Honorable Surrender": (False, "a side wins holding its count of victory cities (CL-17)"),
    "Economic Victory": (False, "a side wins with its income at the map's figure (CL-18)"),
    "Pacific Theater": (False, "Japan collects victory points with its income, and only its destroyers carry troops "
                               "(CL-19, CL-24)"),
    "Attacker Retreat Planes": (False, "aircraft may retreat from an amphibious assault while the units that came "
                                       "ashore fight on (CL-30)"),
    "Multiple AA Per Territory": (False, "a territory may hold more than one AA gun of a power (CL-29)"),
    "Give Units By Territory": (False, "units placed where the map gives them to another power change owner "
                                       "(canBeGivenByTerritoryTo, changeUnitOwners; CL-11)"),
    "Use Triggers": (False, "the map's triggers fire: conditions switched, relationships changed (rules/politics.py)"),
}


def prop(properties: dict[str, str], name: str) -> bool:
    """A true/false property as the map sets it, TripleA's default otherwise."""
    default, _ = HONOURED[name]
    value = properties.get(name)
    if value is None:
        return default
    return value.strip().lower() == "true"
