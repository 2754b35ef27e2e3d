"""Sgt. Apone's Alternate Rules v1.2 for Axis & Allies Europe (1999): the classic family on the europe_improved map,
with the air and naval bases and the Combat Air Patrol of A&A Pacific, the Egypt industrial complex and its
set-aside treasury, Germany's victory points, paratroopers, commandos and no sub stalling (LEDGER rows AP-01 …
AP-34; RULINGS.md).

`scenario_of` makes the start position from the map's (scenario.py); `rules.AponeRules` plays it; players' page:
docs/apone-europe.md.
"""

from .rules import AponeRules

RULES = AponeRules
NEEDS_MAP = True
FAMILY = "classic"          # adjudicator/families.py: the map properties it plays
MAP = "europe_improved"     # the TripleA game XML its start position is made from
MAP_NAME = MAP_TITLE = "Europe Improved"     # the game name that XML gives itself
# What the map sets that the classic family leaves out, and the ruling (RULINGS.md) by which this game plays it:
# `new` has nothing to warn of (adjudicator.game.check_map).
SETTLED = {"Germans bid": "bids", "Russians bid": "bids", "Paid By USA": "middle-east-payer",
           "Pop-Up For Each Allied Power": "middle-east-payer", "Pop-Up For Russia Only": "middle-east-payer",
           "UserActionDelegate": "middle-east-payer", "UserActionAttachments": "middle-east-payer"}


def scenario_of(europe):
    """The Apone start position made from the europe_improved Scenario (scenario.apone); any other map is refused:
    the rules name its territories."""
    from adjudicator.errors import ConfigError
    from .scenario import apone
    if europe.name != MAP_NAME:
        raise ConfigError(f"Sgt. Apone's rules are played on the europe_improved map ({MAP}.xml, \"{MAP_NAME}\"); "
                          f"this map is \"{europe.name}\": give that one with --map, or none")
    return apone(europe)
