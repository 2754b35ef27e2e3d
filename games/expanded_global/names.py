"""The words players use for the Expanded Global's nations and the G40 map's units (adjudicator/people.py).

The nations already carry their countries' names (games/expanded_global/scenario.py NATIONS); those that a
sentence names with an article get it here. Units, the neutral owners and relationships are the G40 map's."""

from adjudicator.games.g40.names import NAMES as G40

POWERS = {**G40["powers"], "United States": "the United States",
          "Eastern European Commonwealth": "the Eastern European Commonwealth",
          "Union of South American Nations": "the Union of South American Nations"}

NAMES = {**G40, "powers": POWERS}
