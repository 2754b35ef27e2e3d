"""The Expanded Global Scenario (MonsieurMurdoch): fourteen nations on the G40 2nd-edition map.

`scenario.expanded_global(g40)` turns the G40 2nd-edition Scenario, as `adjudicator.triplea.load_scenario` reads it,
into the Expanded Global start position (EG-01, EG-02): the 14 nations, their territories, units, capitals, starting
money and relations, with the 2nd-edition scenario's own politics, triggers and objectives switched off.
`rules.ExpandedGlobalRules` plays a nation's turn: the Agenda Phase in EG-09's order, then the Combat Phase, with
Peacetime Spending (EG-29) and the repair fee (EG-30), wars and alliances (politics.py), Influence (EG-49 … EG-54,
influence.py), insurgents (insurgents.py), technology (research.py, strikes.py), surrenders (surrender.py),
armistices and technology exchange (armistice.py), and victory (victory.py). The choices the rule document leaves
open are in RULINGS.md.
"""

from .rules import ExpandedGlobalRules

RULES = ExpandedGlobalRules
NEEDS_MAP = True
FAMILY = "g40"              # adjudicator/families.py: the map properties it plays
MAP = "ww2global40_2nd_edition"     # the G40 2nd-edition game XML its start position is made from


MAP_NAME = MAP_TITLE = "World War II Global 1940 2nd Edition"     # the game name that XML gives itself

# What the G40 family leaves out of the map and this game plays by rulings of its own (adjudicator/game.py): the
# map's technology steps and attachments are replaced by the document's research (RULINGS.md "eg-research",
# "eg-tech-effects"), so `new` does not warn that research is not played.
SETTLED = {"TechnologyDelegate": "eg-research", "TechActivationDelegate": "eg-research",
           "TechAbilityAttachments": "eg-tech-effects", "TechAttachments": "eg-tech-effects"}


def scenario_of(g40):
    """The Expanded Global start position made from the G40 2nd-edition Scenario (scenario.expanded_global); any
    other map is refused: the reassignment names its territories and units."""
    from adjudicator.errors import ConfigError
    from .scenario import expanded_global
    if g40.name != MAP_NAME:
        raise ConfigError(f"the Expanded Global Scenario is made from the G40 2nd-edition map ({MAP}.xml, "
                          f"\"{MAP_NAME}\"); this map is \"{g40.name}\": give that one with --map, or none")
    return expanded_global(g40)
