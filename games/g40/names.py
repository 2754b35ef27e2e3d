"""The words players use for the G40 2nd-edition map's powers, units and relationships (adjudicator/people.py).

The map names nations by their people (`Germans`, `British`); players of Global 1940 name the country ("Germany
declares war on France", "the United Kingdom buys a carrier"), and the rulebook's names for units and facilities
("mech infantry", "minor industrial complex", "naval base"): those are the words here. The neutral owners are
groups of territories, so their words are plural ("the pro-Axis neutrals join Germany"). The map's relationship
types read as what they mean between two powers.
"""

POWERS = {
    "Germans": "Germany", "Russians": "the Soviet Union", "Japanese": "Japan", "Americans": "the United States",
    "Chinese": "China", "British": "the United Kingdom", "UK_Pacific": "UK Pacific", "Italians": "Italy",
    "ANZAC": "ANZAC", "French": "France", "Dutch": "the Netherlands", "Mongolians": "Mongolia",
    "Neutral_True": "the true neutrals", "Neutral_Axis": "the pro-Axis neutrals",
    "Neutral_Allies": "the pro-Allied neutrals",
}
PLURAL = ["Neutral_True", "Neutral_Axis", "Neutral_Allies"]

UNITS = {
    "mech_infantry": "mech infantry", "tactical_bomber": "tactical bomber", "aaGun": "AA gun",
    "factory_minor": "minor factory", "factory_major": "major factory", "factory_upgrade": "factory upgrade",
    "harbour": "naval base", "airfield": "air base",
}

RELATIONSHIPS = {
    "War": "at war with", "Unprovoked": "at war with", "Allied": "allied with", "Friendly": "friendly towards",
    "Neutrality": "neutral towards", "Strict_Neutral": "strictly neutral towards",
    "Friendly_Neutral": "friendly neutral towards", "Unfriendly_Neutral": "unfriendly neutral towards",
    "Concordant": "in concord with", "Custodianship": "custodian for",
}

NAMES = {"powers": POWERS, "plural": PLURAL, "units": UNITS, "relationships": RELATIONSHIPS}
