"""The words players use for the Alt-Universe map (adjudicator/people.py): the G40 words, plus the map's own
neutral owners and the plundered factory a capture leaves. Its other additions are China's own variants
(`infantryC`, named as the common type they are a variant of) and markers (`city`, `city_captured`,
`independent_neutral_free`…), which a report never shows."""

from adjudicator.games.g40.names import NAMES as G40

POWERS = {**G40["powers"], "Independent_Neutral": "the independent neutrals", "Pro_Axis": "the pro-Axis neutrals",
          "Pro_Allies": "the pro-Allied neutrals", "Neutral_League": "the Neutral League"}
PLURAL = [*G40["plural"], "Independent_Neutral", "Pro_Axis", "Pro_Allies"]
UNITS = {**G40["units"], "factory_minor_plundered": "plundered minor factory"}

NAMES = {**G40, "powers": POWERS, "plural": PLURAL, "units": UNITS}
