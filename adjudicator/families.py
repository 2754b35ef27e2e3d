"""Which rules family plays a TripleA map: every property, unit option, step and attachment a map may set, and
what each family does with it (DESIGN.md "Rules core").

A family is a column of one table: `Family.properties` (and `.unit_options`, `.steps`, `.attachments`) maps each
TripleA name to one of three states —

- **honoured**: a mechanism of the rules core reads it, so any value plays as the map says;
- **fixed**: the family's rulebook decides it. A map that sets it away from TripleA's default to a value other
  than the family's is refused at `new` — or warned, where the difference is harmless (`harmless`, with why);
- **cosmetic**: it changes nothing in play (display, AI hints, a switch TripleA itself no longer reads).

Only what a map sets *away from TripleA's default* is judged: a map that leaves a property out, or sets it to the
default, asks for what TripleA plays anyway, and the G40 maps (the family's own) pass unchanged. A name the table
does not know (a map's own switch, a newer TripleA's) cannot be compared with a default: it is warned, naming it,
never refused — the family does not read it, and refusing every map a newer TripleA writes would be worse.

The check runs at `new` only: a stored game never reads its map again (DESIGN.md "State"), so `copy` and every
later command leave it alone. There are two families: the G40 family and the classic 1999/2001 rules.
This module imports nothing from adjudicator/rules/ but the honoured names, which rules/properties.py owns.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .rules.properties import HONOURED
from .triplea.importer import MapSettings
from .triplea.units import READ_OPTIONS

HONOURED_STATE, FIXED, COSMETIC = "honoured", "fixed", "cosmetic"
ANY = "*"       # a fixed value meaning: whatever the map gives, the family plays its rulebook's rule for it


@dataclass(frozen=True)
class Rule:
    """One name's state in one family. For `fixed`, `value` is what the family plays (ANY: the rulebook's rule,
    whatever the map gives; None: nothing but TripleA's default), `note` what the family does instead, and
    `harmless` whether a map that differs is only warned."""

    state: str
    note: str = ""
    value: str | None = None
    harmless: bool = False


def honoured(note: str = "") -> Rule:
    return Rule(HONOURED_STATE, note)


def fixed(value: str | None, note: str, harmless: bool = False) -> Rule:
    return Rule(FIXED, note, value, harmless)


def cosmetic(note: str) -> Rule:
    return Rule(COSMETIC, note)


# TripleA's default for each property it reads (games.strategy.triplea.Properties; "Damage From Bombing…" falls
# back to "SBR Affects Unit Production"), as the string a map would write. None: TripleA no longer reads the name,
# so any value a map writes is judged. A name starting with "* " is a pattern: "<player> bid", "<alliance> …".
TRIPLEA_DEFAULTS: dict[str, str | None] = {name: "false" for name in (
    "AA Territory Restricted", "Airborne Attacks Only In Enemy Territories",
    "Airborne Attacks Only In Existing Battles",
    "All Rockets Attack", "Always on AA", "Attacker Retreat Planes", "Blitz Through Factories And AA Restricted",
    "Can Scramble Into Air Battles", "Capture Units On Entering Territory", "Choose AA Casualties",
    "Defending Suicide and Munition Units Do Not Fire", "Economic Victory",
    "Force AA Attacks For Last Step Of Fly Over",
    "Give Units By Territory", "Honorable Surrender", "Kamikaze Airplanes", "LHTR Carrier production rules",
    "LHTR Heavy Bombers", "Limit Rocket Damage Per Turn", "Limit SBR Damage Per Turn",
    "Limit SBR Damage To Factory Production", "Low Luck", "Low Luck for AntiAircraft",
    "Low Luck for Bombing and Territory Damage", "Low Luck for Technology", "More Constructions with Factory",
    "More Constructions without Factory", "Move existing fighters to new carriers", "Movement By Territory Restricted",
    "Multiple AA Per Territory", "Naval Units May Not NonCombat Move Into Controlled Sea Zones",
    "Neutral Flyover Allowed", "Neutrals Are Blitzable", "Neutrals Are Impassable",
    "On Entering Units Destroyed Instead Of Captured", "Pacific Theater",
    "Paratroopers Can Attack Deep Into Enemy Territory", "Paratroopers Can Move During Non Combat",
    "Place in Any Territory", "Placement Restricted By Factory", "Production Per Valued Territory Restricted",
    "Production Per X Territories Restricted", "Remove All Tech Tokens At End Of Turn",
    "Rockets Can Fly Over Impassables", "Roll AA Individually", "SBR Affects Unit Production", "Selectable Tech Roll",
    "Selectable Zero Movement Units", "Sub Control Sea Zone Restricted", "Submarines Defending May Submerge Or Retreat",
    "Submarines Prevent Unescorted Amphibious Assaults", "Suicide and Munition Casualties Restricted",
    "Surviving Air Move To Land", "Tech Development", "Territory Turn Limit", "Transport Control Sea Zone",
    "Transport Restricted Unload", "Two hit battleship", "Unit Placement In Enemy Seas",
    "Unit Placement Per Territory Restricted", "Unit Placement Restrictions", "Units Can Be Changed On Capture",
    "Units Can Be Destroyed Instead Of Captured", "Units Repair Hits End Turn", "Unlimited Constructions",
    "Unplaced units live when not placed", "Use Politics", "Use Shipyards", "WW2V2", "WW2V3", "WW2V3 Tech Model",
    "Battles May Be Preceeded By Air Battles",
)} | {name: str(default).lower() for name, (default, _) in HONOURED.items()} | {
    "Heavy Bomber Dice Rolls": "2", "Multiply PUs": "1", "Super Sub Defence Bonus": "0",
    "maxFactoriesPerTerritory": "1", "neutralCharge": "0",
    "* bid": "0",                               # BidPurchaseDelegate: "<player> bid", 0 PUs when absent
    "* Honorable Victory VCs": None, "* Economic Victory": None,     # EndRoundDelegate: "<alliance> …"
    # Read by nothing in today's TripleA (older engines, or maps' own notes):
    "Allied Air Dependents": None, "Hari-Kari Units": None, "Occupied Territories": None,
    "Rocket Attacks Per Factory Infinite": None, "Sub Retreat DD Restricted": None,
    # A map's own switches, read by its conditions (gameProperty), not by TripleA's engine:
    "Paid By USA": None, "Pop-Up For Each Allied Power": None, "Pop-Up For Russia Only": None,
    # Display only (TripleA's UI and map loader):
    "mapName": None, "notes": None, "Display Sea Names": None, "Display Units as Counters": None,
}
# Honoured names whose TripleA default differs from the engine's reading of an absent property: none today, but
# the engine's own default (rules/properties.py) is what a map that leaves it out plays, so it is the one compared.

NO_TECH = "the G40 family plays no research and development (TripleA's technology), so it changes nothing"
NO_AIRBORNE = "the G40 family plays no airborne assault (paratroopers are a technology), so it changes nothing"
NO_ROCKETS = "the G40 family fires no rockets (a technology), so it changes nothing"
BY_RULEBOOK = "the G40 family plays this by its rulebook, as the G40 2nd-edition map sets it"
MIDDLE_EAST = ("a switch of europe_improved's own Middle East penalty, played by its user actions, which are left "
               "out (games/classic/RULINGS.md \"middle-east-penalty\")")

G40_PROPERTIES: dict[str, Rule] = {name: honoured(what) for name, (_, what) in HONOURED.items()} | {
    # -- the family's rulebook decides: the G40 maps set these as the rulebook plays them ---------------------
    "AA Territory Restricted": fixed(ANY, "the G40 family fires AA only in battles (BG-10): there is no fly-over AA, "
                                          "so it changes nothing", harmless=True),
    "Airborne Attacks Only In Enemy Territories": fixed(ANY, NO_AIRBORNE, harmless=True),
    "Airborne Attacks Only In Existing Battles": fixed(ANY, NO_AIRBORNE, harmless=True),
    "Paratroopers Can Attack Deep Into Enemy Territory": fixed(ANY, NO_AIRBORNE, harmless=True),
    "Paratroopers Can Move During Non Combat": fixed(ANY, NO_AIRBORNE, harmless=True),
    "All Rockets Attack": fixed(ANY, NO_ROCKETS, harmless=True),
    "Limit Rocket Damage Per Turn": fixed(ANY, NO_ROCKETS, harmless=True),
    "Rockets Can Fly Over Impassables": fixed(ANY, NO_ROCKETS, harmless=True),
    "Rocket Attacks Per Factory Infinite": fixed(ANY, NO_ROCKETS, harmless=True),
    "LHTR Heavy Bombers": fixed(ANY, NO_TECH, harmless=True),
    "Heavy Bomber Dice Rolls": fixed(ANY, NO_TECH, harmless=True),
    "Remove All Tech Tokens At End Of Turn": fixed(ANY, NO_TECH, harmless=True),
    "Selectable Tech Roll": fixed(ANY, NO_TECH, harmless=True),
    "Low Luck for Technology": fixed(ANY, NO_TECH, harmless=True),
    "WW2V3 Tech Model": fixed(ANY, NO_TECH, harmless=True),
    "Super Sub Defence Bonus": fixed(ANY, NO_TECH + " (super submarines are a technology)", harmless=True),
    "Tech Development": fixed("false", "the G40 family plays no research and development: the map's technology "
                                       "rolls are left out", harmless=True),
    "Use Shipyards": fixed("true", "the G40 family prices ships by the map's starting production frontier (G40's "
                                   "shipyards are a technology it does not play)", harmless=True),
    "Always on AA": fixed(ANY, "the G40 family fires AA only in battles (BG-10): there is no fly-over AA, so it "
                               "changes nothing", harmless=True),
    "Attacker Retreat Planes": fixed("true", "the G40 family lets an attacker retreat aircraft with the rest (BG-23)"),
    "Blitz Through Factories And AA Restricted": fixed("true", "the G40 family does not let a blitz pass a territory "
                                                               "with an enemy factory or AA gun (BG-04)"),
    "Can Scramble Into Air Battles": fixed("false", "the G40 family fights no air battle before a battle, so there is "
                                                    "none to scramble into (BG-30)", harmless=True),
    "Battles May Be Preceeded By Air Battles": fixed("false", "the G40 family fights no air battle before a land or "
                                                              "sea battle, only before a raid (BG-27)"),
    "Capture Units On Entering Territory": fixed("true", "the G40 family captures facilities with their territory"),
    "On Entering Units Destroyed Instead Of Captured": fixed("false", "the G40 family captures facilities with their "
                                                                      "territory; it destroys none"),
    "Units Can Be Destroyed Instead Of Captured": fixed(ANY, BY_RULEBOOK),
    "Units Can Be Changed On Capture": fixed(ANY, BY_RULEBOOK),
    "Choose AA Casualties": fixed("true", "the G40 family lets the owner of aircraft hit by AA choose which are lost"),
    "Roll AA Individually": fixed("true", "the G40 family rolls one AA die per aircraft, up to three per gun (BG-10)"),
    "Multiple AA Per Territory": fixed("true", "the G40 family lets every AA gun in a territory fire (BG-10)"),
    "Force AA Attacks For Last Step Of Fly Over": fixed(ANY, "the G40 family fires AA only in battles, so it changes "
                                                             "nothing", harmless=True),
    "Defending Suicide and Munition Units Do Not Fire": fixed("false", "the G40 family has no suicide units (its "
                                                                       "kamikaze strikes are tokens)", harmless=True),
    "Suicide and Munition Casualties Restricted": fixed("false", "the G40 family has no suicide units (its kamikaze "
                                                                 "strikes are tokens)", harmless=True),
    "Kamikaze Airplanes": fixed("false", "the G40 family's aircraft are not lost when they hit (kamikaze strikes are "
                                         "tokens: 'Use Kamikaze Suicide Attacks')"),
    "Give Units By Territory": fixed(ANY, BY_RULEBOOK),
    "LHTR Carrier production rules": fixed("true", "the G40 family places new fighters on carriers as its rulebook "
                                                   "says (the 'Produce … carriers' switches)"),
    "Move existing fighters to new carriers": fixed("false", "the G40 family lands aircraft already in play on a new "
                                                             "carrier only at the end of non-combat ('Land existing "
                                                             "fighters on new carriers'); none move at placement"),
    "Low Luck": fixed("false", "the G40 family rolls every die (audited dice); it plays no low luck"),
    "Low Luck for AntiAircraft": fixed("false", "the G40 family rolls every AA die; it plays no low luck"),
    "Low Luck for Bombing and Territory Damage": fixed("false", "the G40 family rolls every raid die; no low luck"),
    "Limit SBR Damage Per Turn": fixed("false", "the G40 family limits raid damage by the facility's own maximum "
                                                "(BG-28), not per turn"),
    "Limit SBR Damage To Factory Production": fixed("false", "the G40 family limits raid damage by the facility's "
                                                             "own maximum (BG-28), not by the territory's value"),
    "SBR Affects Unit Production": fixed("false", "the G40 family reads this switch under its newer name 'Damage From "
                                                  "Bombing Done To Units Instead Of Territories'"),
    "More Constructions with Factory": fixed("false", "the G40 family places one facility of a kind per territory"),
    "More Constructions without Factory": fixed("false", "the G40 family places one facility of a kind per territory"),
    "Unlimited Constructions": fixed("false", "the G40 family places one facility of a kind per territory"),
    "Movement By Territory Restricted": fixed("true", "the G40 family honours the map's movement restrictions "
                                                      "by its rulebook"),
    "Naval Units May Not NonCombat Move Into Controlled Sea Zones": fixed(
        "false", "the G40 family lets ships end a non-combat move only where no enemy warship blocks them (BG-07): "
                 "enemy transports and submarines do not"),
    "Neutral Flyover Allowed": fixed("false", "the G40 family forbids aircraft to fly over neutrals (BG-41)"),
    "Neutrals Are Blitzable": fixed("true", "the G40 family moves into neutrals by its rulebook (BG-41)"),
    "Neutrals Are Impassable": fixed("false", "the G40 family lets armies attack and take neutral territories "
                                              "(BG-41), while aircraft may not fly over them"),
    "neutralCharge": fixed("0", "the G40 family charges nothing to enter a neutral territory (BG-41)"),
    "Occupied Territories": fixed(ANY, BY_RULEBOOK),
    "Allied Air Dependents": fixed(ANY, BY_RULEBOOK),
    "Hari-Kari Units": fixed(ANY, BY_RULEBOOK),
    "Surviving Air Move To Land": fixed(ANY, BY_RULEBOOK),
    "Pacific Theater": fixed("false", "the G40 family plays no Pacific-1999 rules (Japanese victory points, "
                                      "the Chinese as a side of the Americans)"),
    "Place in Any Territory": fixed("true", "the G40 family places new units at the map's factories by its rulebook"),
    "Placement Restricted By Factory": fixed("true", "the G40 family places no more units than a factory produces"),
    "Production Per Valued Territory Restricted": fixed(
        "false", "the G40 family's factories produce what their kind allows (a major 10, a minor 3, less damage), "
                 "not the territory's value"),
    "Production Per X Territories Restricted": fixed(ANY, BY_RULEBOOK),
    "Unit Placement In Enemy Seas": fixed("true", "the G40 family places ships in a factory's sea zone even where "
                                                  "enemy ships are (a battle follows)"),
    "Unit Placement Per Territory Restricted": fixed(ANY, BY_RULEBOOK),
    "Unit Placement Restrictions": fixed("true", "the G40 family honours each unit's placement restrictions"),
    "Unplaced units live when not placed": fixed("true", "the G40 family keeps units bought but not placed"),
    "Sub Control Sea Zone Restricted": fixed("false", "the G40 family decides by its rulebook which ships hold a sea "
                                                      "zone (convoys, canals)"),
    "Transport Control Sea Zone": fixed("false", "the G40 family decides by its rulebook which ships hold a sea zone "
                                                 "(convoys, canals)"),
    "Submarines Prevent Unescorted Amphibious Assaults": fixed(ANY, BY_RULEBOOK),
    "Submarines Defending May Submerge Or Retreat": fixed("false", "the G40 family's defending submarines may "
                                                                   "submerge (BG-17) but never retreat"),
    "Transport Restricted Unload": fixed("true", "the G40 family's transports unload into one territory a turn "
                                                 "(BG-13)"),
    "Territory Turn Limit": fixed("false", "the G40 family limits raid damage by the facility's own maximum (BG-28), "
                                           "not per territory and turn"),
    "Two hit battleship": fixed(ANY, "the G40 family gives units the hit points the map's unit types say"),
    "Units Repair Hits End Turn": fixed("false", "the G40 family repairs damaged ships at the start of their owner's "
                                                 "turn, at a naval base ('Units Repair Hits Start Turn', BG-21), "
                                                 "not at the end of every turn"),
    "Use Politics": fixed(ANY, "the G40 family plays the map's political actions where its turn has a politics "
                               "step"),
    "WW2V2": fixed("false", "the G40 family plays the 2nd-edition (Global 1940) rules, not the Revised (WW2V2) rules "
                            "the map is made for"),
    "WW2V3": fixed(ANY, "the G40 family plays the 2nd-edition rules, whatever the map says of WW2V3"),
    "Honorable Surrender": fixed("false", "the G40 family ends the game only by the map's victory triggers "
                                          "('Triggered Victory'), not by a side's count of victory cities"),
    "Economic Victory": fixed("false", "the G40 family has no economic victory: the game ends by the map's victory "
                                       "triggers"),
    "* Honorable Victory VCs": fixed(ANY, "counted only where 'Honorable Surrender' is on", harmless=True),
    "* Economic Victory": fixed(ANY, "counted only where 'Economic Victory' is on", harmless=True),
    "Multiply PUs": fixed("1", "the G40 family pays income as the map's territories are valued, not multiplied"),
    "maxFactoriesPerTerritory": fixed("2", "the G40 family allows one factory per territory (a minor or a major, "
                                           "upgraded in place)"),
    "* bid": fixed("0", "the G40 family takes a bid only from `new --bid POWER=PUS`: the map's is not given",
                   harmless=True),
    # -- the map's own switches, read by its triggers (europe_improved's Middle East penalty): -----------------
    "Paid By USA": fixed(None, MIDDLE_EAST, harmless=True),
    "Pop-Up For Each Allied Power": fixed(None, MIDDLE_EAST, harmless=True),
    "Pop-Up For Russia Only": fixed(None, MIDDLE_EAST, harmless=True),
    # -- changes nothing in play ---------------------------------------------------------------------------------
    "mapName": cosmetic("the map folder TripleA draws it with"),
    "notes": cosmetic("the map's notes, shown by TripleA"),
    "Display Sea Names": cosmetic("TripleA's display"),
    "Display Units as Counters": cosmetic("TripleA's display"),
    "Selectable Zero Movement Units": cosmetic("TripleA's user interface"),
    "Sub Retreat DD Restricted": cosmetic("TripleA itself no longer reads it"),
}

# Unit options (UnitAttachment). Honoured: read by the importer into a unit's abilities (triplea/units.py), or
# kept verbatim and read by a mechanism of the rules (the second list: combat, bombing, scramble, production…).
_READ_UNIT_OPTIONS = READ_OPTIONS + (
    "isArtillery", "airAttack", "airDefense", "attackAA", "maxAAattacks", "targetsAA", "blockade", "bombingBonus",
    "bombingMaxDieSides", "bombingTargets", "canEscort", "canIntercept", "canProduceXUnits",
    "canOnlyBePlacedInTerritoryValuedAtX", "canScramble", "maxScrambleCount", "maxScrambleDistance", "consumesUnits",
    "givesMovement", "maxDamage", "maxOperationalDamage", "receivesAbilityWhenWith", "special",
    "unitPlacementRestrictions", "whenCapturedChangesInto",
)
NO_TARGETS = ("the G40 family decides who may hit whom by its rulebook: submarines never hit aircraft, and aircraft "
              "hit submarines only with a friendly destroyer ('Air Attack Sub Restricted', BG-18)")
G40_UNIT_OPTIONS: dict[str, Rule] = {name: honoured() for name in _READ_UNIT_OPTIONS} | {
    "bombard": fixed(None, "the G40 family's ships bombard at their attack value (BG-12), not at a value of their "
                           "own"),
    "canAirBattle": fixed(None, "the G40 family fights no air battle before a land or sea battle (only before a "
                                "raid: canEscort, canIntercept)", harmless=True),
    "canNotTarget": fixed(None, NO_TARGETS),
    "canNotBeTargetedBy": fixed(None, NO_TARGETS),
    "canMoveThroughEnemies": fixed("false", "the G40 family lets only submarines pass enemy ships, by its rulebook "
                                            "(BG-07, BG-19); a map may only forbid it to a unit (false)"),
    "canBeMovedThroughByEnemies": fixed("false", "the G40 family lets enemies pass only submarines and transports the "
                                                 "map's 'Ignore … In Movement' names, by its rulebook (BG-07); a map "
                                                 "may only make a unit block (false)"),
    "isMarine": fixed(None, "the G40 family gives marines no bonus in an amphibious assault"),
    "canBeCapturedOnEnteringBy": fixed(ANY, BY_RULEBOOK),
    "canBeGivenByTerritoryTo": fixed(ANY, BY_RULEBOOK),
    "constructionType": fixed(ANY, BY_RULEBOOK),
    "constructionsPerTerrPerTypePerTurn": fixed(ANY, BY_RULEBOOK),
    "maxConstructionsPerTypePerTerr": fixed(ANY, BY_RULEBOOK),
    "isConstruction": fixed(ANY, BY_RULEBOOK),
    "isLandTransport": fixed(ANY, BY_RULEBOOK),
    "whenCombatDamaged": fixed(ANY, BY_RULEBOOK),
    "unitPlacementOnlyAllowedIn": fixed(ANY, BY_RULEBOOK),
    "offensiveAttackAA": fixed(ANY, BY_RULEBOOK),
    "isAirTransportable": fixed(ANY, NO_AIRBORNE, harmless=True),
    "isRocket": fixed(ANY, NO_ROCKETS, harmless=True),
    "isSuicideOnAttack": fixed(ANY, "bookkeeping units of the map that never fight in the G40 family"),
    "isSuicideOnDefense": fixed(ANY, "bookkeeping units of the map that never fight in the G40 family"),
    "createsResourcesList": fixed(ANY, "the G40 family pays income by its rulebook; a game of the family pays what "
                                       "its own document adds"),
    "createsUnitsList": fixed(ANY, "the G40 family builds units only by purchase; a game of the family adds what its "
                                   "own document says"),
}

# Steps by the class of their delegate. Honoured: the importer gives them a phase (triplea/importer.py).
# The others are dropped; a dropped step the family plays another way is cosmetic, one it does not play is a
# harmless difference (the G40 maps have technology and airborne steps the family leaves out, as G40 games
# always have).
G40_STEPS: dict[str, Rule] = {name: honoured() for name in (
    "PurchaseDelegate", "NoPUPurchaseDelegate", "PoliticsDelegate", "MoveDelegate", "BattleDelegate",
    "PlaceDelegate", "NoAirCheckPlaceDelegate", "EndTurnDelegate", "NoPUEndTurnDelegate")} | {
    "InitializationDelegate": cosmetic("the family sets the game up itself at `new`"),
    "EndRoundDelegate": cosmetic("the family checks victory itself ('Triggered Victory')"),
    "BidPurchaseDelegate": cosmetic("the family plays a bid from `new --bid` instead"),
    "BidPlaceDelegate": cosmetic("the family plays a bid from `new --bid` instead"),
    "TechnologyDelegate": fixed(None, "the G40 family plays no research and development: these steps are left out",
                                harmless=True),
    "TechActivationDelegate": fixed(None, "the G40 family plays no research and development: these steps are left "
                                          "out", harmless=True),
    "SpecialMoveDelegate": fixed(None, "the G40 family plays no airborne assault: these steps are left out",
                                 harmless=True),
    "UserActionDelegate": fixed(None, "the G40 family plays none of the map's user actions: these steps are left "
                                      "out", harmless=True),
}

# Attachments by class. Honoured: read by the importer and played (rules/conditions.py, rules/politics.py).
G40_ATTACHMENTS: dict[str, Rule] = {name: honoured() for name in (
    "UnitAttachment", "UnitSupportAttachment", "TerritoryAttachment", "CanalAttachment", "PlayerAttachment",
    "RelationshipTypeAttachment", "RulesAttachment", "PoliticalActionAttachment", "TriggerAttachment")} | {
    "TechAttachment": fixed(None, "the G40 family plays no research and development", harmless=True),
    "TechAbilityAttachment": fixed(None, "the G40 family plays no research and development", harmless=True),
    "UserActionAttachment": fixed(None, "the G40 family plays none of the map's user actions", harmless=True),
}


# The classic family (A&A Europe 1999, A&A Pacific 2001; adjudicator/rules/classic_family.py): the same mechanisms,
# so the same honoured names, and its own rulebook where the maps set what the G40 family fixes. The notes name the
# rows of games/classic/RULES.md.
CLASSIC_BY_RULEBOOK = "the classic family plays this by its rulebook (games/classic/RULES.md)"
NO_CLASSIC_TECH = "the classic family plays no weapons development (optional in the boxes, left out in the maps)"
def _shared(table: dict[str, Rule]) -> dict[str, Rule]:
    """The G40 family's fixed entries, for a family that plays them the same way: the note says whose rule it is."""
    return {name: replace(rule, note=f"{rule.note} (the same in the classic family)")
            if rule.state == FIXED and "G40 family" in rule.note else rule for name, rule in table.items()}


CLASSIC_PROPERTIES: dict[str, Rule] = _shared(G40_PROPERTIES) | {
    name: honoured(what) for name, (_, what) in HONOURED.items()} | {
    "WW2V2": fixed(ANY, "the classic family plays the 1999/2001 rulebooks, not TripleA's Revised-rules switch "
                        "(games/classic/RULINGS.md \"ww2v2\")", harmless=True),
    "WW2V3": fixed("false", "the classic family plays the 1999/2001 rulebooks, not the WW2V3 rules"),
    "neutralCharge": fixed(ANY, "the classic family's neutrals are impassable (CL-10): nothing pays to enter them",
                           harmless=True),
    "Move existing fighters to new carriers": fixed(
        ANY, "the classic family lands fighters on a new carrier at the end of the non-combat move, as 'Land "
             "existing fighters on new carriers' does (CL-22)", harmless=True),
    "Occupied Territories": fixed(ANY, CLASSIC_BY_RULEBOOK, harmless=True),
    "Tech Development": fixed("false", NO_CLASSIC_TECH, harmless=True),
    "Heavy Bomber Dice Rolls": fixed(ANY, NO_CLASSIC_TECH, harmless=True),
    "Units Repair Hits Start Turn": fixed("false", "the classic family repairs battleships as their owner's turn "
                                                   "ends (CL-06)"),
    "Choose AA Casualties": fixed(ANY, "the classic family lets the owner of aircraft hit by AA choose which are "
                                       "lost, by its order of loss (CL-02, CL-03), never at random", harmless=True),
    "Roll AA Individually": fixed(ANY, "the classic family rolls one AA die per aircraft and lets their owner choose "
                                       "the losses (CL-02), so it changes nothing", harmless=True),
    "* Honorable Victory VCs": honoured("the victory cities a side needs (CL-17)"),
    "* Economic Victory": honoured("the income a side needs (CL-18)"),
    "Unplaced units live when not placed": honoured(HONOURED["Unplaced units live when not placed"][1]),
    "* bid": fixed("0", "the classic family takes a bid only from `new --bid POWER=PUS`: the map's is not given",
                   harmless=True),
}
CLASSIC_UNIT_OPTIONS: dict[str, Rule] = _shared(G40_UNIT_OPTIONS) | {
    "bombard": honoured("the value a ship bombards at (CL-14)"),
    "canMoveThroughEnemies": honoured("whether the unit may pass enemy units (CL-08)"),
    "canBeMovedThroughByEnemies": honoured("whether enemy units may pass the unit (CL-08)"),
    "canNotTarget": fixed(ANY, "the classic family decides who may hit whom by its rulebook (CL-08)", harmless=True),
    "canNotBeTargetedBy": fixed(ANY, "the classic family decides who may hit whom by its rulebook (CL-08)",
                                harmless=True),
    "isMarine": honoured("marines attack one higher landing from the sea (CL-21)"),
    "canAirBattle": fixed(ANY, "the classic family fights no air battle before a land or sea battle", harmless=True),
}
CLASSIC_STEPS: dict[str, Rule] = _shared(G40_STEPS) | {
    "TechnologyDelegate": fixed(None, NO_CLASSIC_TECH + ": these steps are left out", harmless=True),
    "TechActivationDelegate": fixed(None, NO_CLASSIC_TECH + ": these steps are left out", harmless=True),
    "UserActionDelegate": fixed(None, "the classic family plays none of the map's user actions (europe_improved's "
                                      "Middle East penalty): these steps are left out", harmless=True),
}
CLASSIC_ATTACHMENTS: dict[str, Rule] = _shared(G40_ATTACHMENTS) | {
    "TechAttachment": fixed(None, NO_CLASSIC_TECH, harmless=True),
    "TechAbilityAttachment": fixed(None, NO_CLASSIC_TECH, harmless=True),
    "UserActionAttachment": fixed(None, "the classic family plays none of the map's user actions", harmless=True),
}


@dataclass(frozen=True)
class Family:
    """One column of the table: a rules family and the state of every TripleA name in it."""

    name: str
    title: str
    properties: dict[str, Rule]
    unit_options: dict[str, Rule]
    steps: dict[str, Rule]
    attachments: dict[str, Rule]


FAMILIES: dict[str, Family] = {
    "g40": Family("g40", "the G40 family (Global 1940 2nd edition)", G40_PROPERTIES, G40_UNIT_OPTIONS, G40_STEPS,
                  G40_ATTACHMENTS),
    "classic": Family("classic", "the classic family (A&A Europe 1999, A&A Pacific 2001)", CLASSIC_PROPERTIES,
                      CLASSIC_UNIT_OPTIONS, CLASSIC_STEPS, CLASSIC_ATTACHMENTS),
}


@dataclass
class Finding:
    """One thing a map sets that the family does not honour: `refused` stops `new`, otherwise it is a warning."""

    kind: str           # "property", "unit option", "step", "attachment", "unknown property", "unknown …"
    name: str
    value: str
    note: str
    refused: bool

    def text(self) -> str:
        return f"{self.name} = {self.value}: {self.note}" if self.value else f"{self.name}: {self.note}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "value": self.value, "note": self.note, "refused": self.refused}


def _same(a: str, b: str) -> bool:
    """Values as TripleA reads them: booleans and numbers by meaning, not spelling ("True", " 2")."""
    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return True
    try:
        return int(a) == int(b)
    except ValueError:
        return False


def _pattern(name: str, settings: MapSettings, table: dict) -> str:
    """The table's key for a property name: itself, or "* bid" for "<player> bid", "* …" for "<alliance> …"."""
    if name in table or name in TRIPLEA_DEFAULTS:
        return name
    for owner in settings.players + settings.alliances:
        if name.startswith(owner + " ") and "* " + name[len(owner) + 1:] in TRIPLEA_DEFAULTS:
            return "* " + name[len(owner) + 1:]
    return name


def _judge(kind: str, name: str, value: str, rule: Rule | None, default: str | None, family: Family) -> Finding | None:
    if default is not None and _same(value, default):
        return None                                    # TripleA's default: what TripleA plays anyway
    if rule is None:
        return Finding(f"unknown {kind}", name, value, f"not known to the adjudicator: {family.title} ignores it",
                       refused=False)
    if rule.state != FIXED or rule.value == ANY or (rule.value is not None and _same(value, rule.value)):
        return None
    return Finding(kind, name, value, rule.note, refused=not rule.harmless)


def check(settings: MapSettings, family: Family) -> list[Finding]:
    """Everything the map sets that `family` does not honour, refusals first, in the map's terms."""
    found: list[Finding | None] = []
    for name, value in settings.properties.items():
        name = name.strip()             # europe_improved writes "SBR Affects Unit Production " with a space
        key = _pattern(name, settings, family.properties)
        default = TRIPLEA_DEFAULTS.get(key)
        found.append(_judge("property", name, value.strip(), family.properties.get(key), default, family))
    for option, units in sorted(settings.unit_options.items()):
        # A unit option left false is TripleA's default for every boolean one; any other value is judged per unit,
        # and the units the family would not play as the map says are named together.
        judged = {unit: _judge("unit option", f"unit option {option}", value.strip(), family.unit_options.get(option),
                               "false", family) for unit, value in units.items()}
        differing = {unit: finding for unit, finding in judged.items() if finding is not None}
        if differing:
            finding = next(iter(differing.values()))
            finding.value = ", ".join(f"{unit} {units[unit].strip()}" for unit in differing)
            found.append(finding)
    for delegate, steps in sorted(settings.steps.items()):
        finding = _judge("step", delegate, "", family.steps.get(delegate), None, family)
        if finding is not None:
            finding.name = f"{len(steps)} step{'s' if len(steps) != 1 else ''} of {delegate} ({', '.join(steps[:3])}" \
                           f"{', …' if len(steps) > 3 else ''})"
        found.append(finding)
    for attachment, count in sorted(settings.attachments.items()):
        finding = _judge("attachment", attachment, "", family.attachments.get(attachment), None, family)
        if finding is not None:
            finding.name = f"{count} {attachment}{'s' if count != 1 else ''}"
        found.append(finding)
    real = [f for f in found if f is not None]
    return [f for f in real if f.refused] + [f for f in real if not f.refused]


def families_for(settings: MapSettings) -> dict[str, list[Finding]]:
    """Each family and what it would say of the map."""
    return {name: check(settings, family) for name, family in FAMILIES.items()}


def warning_lines(findings: list[Finding]) -> list[str]:
    """The warnings of a check, one line per reason: a map's many technology steps and attachments are one line."""
    by_note: dict[str, list[Finding]] = {}
    for f in findings:
        if not f.refused:
            by_note.setdefault(f.note, []).append(f)
    return ["; ".join(f"{f.name} = {f.value}" if f.value else f.name for f in group) + f": {note}"
            for note, group in by_note.items()]


def families_playing(settings: MapSettings) -> list[str]:
    """The families that play the map: those with nothing to refuse in it."""
    return [name for name, findings in families_for(settings).items() if not any(f.refused for f in findings)]


def refusal(settings: MapSettings, family: Family, game: str, findings: list[Finding], others: list[str]) -> str:
    """Why `new --game GAME` refuses the map: each property that stops it and what the family does instead, then
    what would play the map (`others`: the games of the families that do), or that none does yet."""
    stops = "\n".join(f"  {f.text()}" for f in findings if f.refused)
    where = (f"play it as --game {' or --game '.join(others)}" if others else
             "no game of this version plays it; `adjudicator maps` shows which game plays each map")
    return (f"the map {settings.source} sets rules that {family.title} does not play, so --game {game} cannot play "
            f"it:\n{stops}\n{where}; nothing was written")
