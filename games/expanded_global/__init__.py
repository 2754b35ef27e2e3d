"""The Expanded Global Scenario (MonsieurMurdoch): fourteen nations on the G40 2nd-edition map.

Not playable yet (`games/__init__.py` keeps "expanded-global": None): this package holds its scenario and its turn
so far — `scenario.expanded_global(g40)` turns the G40 2nd-edition Scenario, as `adjudicator.triplea.load_scenario`
reads it, into the Expanded Global start position (EG-01, EG-02): the 14 nations, their territories, units, capitals,
starting money and relations, with the 2nd-edition scenario's own politics, triggers and objectives switched off;
`rules.ExpandedGlobalRules` plays a nation's turn: the Agenda Phase in EG-09's order, then the Combat Phase, with
Peacetime Spending (EG-29) and the repair fee (EG-30), Influence (EG-49 … EG-54, influence.py) and victory
(victory.py). The choices the rule document leaves open are in RULINGS.md. The Agenda's other orders (surrenders,
research, alliances, declarations) come later.
"""

from .rules import ExpandedGlobalRules

RULES = ExpandedGlobalRules
NEEDS_MAP = True
FAMILY = "g40"              # adjudicator/families.py: the map properties it plays
MAP = "ww2global40_2nd_edition"     # the G40 2nd-edition game XML its start position is made from


def scenario_of(g40):
    """The Expanded Global start position made from the G40 2nd-edition Scenario (scenario.expanded_global)."""
    from .scenario import expanded_global
    return expanded_global(g40)
