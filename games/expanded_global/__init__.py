"""The Expanded Global Scenario (MonsieurMurdoch): fourteen nations on the G40 2nd-edition map.

Not playable yet (`games/__init__.py` keeps "expanded-global": None): this package holds its scenario so far —
`scenario.expanded_global(g40)` turns the G40 2nd-edition Scenario, as `adjudicator.triplea.load_scenario` reads
it, into the Expanded Global start position (EG-01, EG-02): the 14 nations, their territories, units, capitals,
starting money and relations, with the 2nd-edition scenario's own politics, triggers and objectives switched off.
The choices the rule document leaves open are in RULINGS.md. The Agenda phases, alliances, influence and victory
come later.
"""
