"""The words players use for the Expanded Global's nations and the G40 map's units (adjudicator/people.py).

The nations already carry their countries' names (scenario.NATIONS); they are listed here so that the game's own
sentences agree with them (`Canada accepts`), with the article a sentence gives some (`the United States`). Units,
the neutral owners and relationships are the G40 map's."""

from adjudicator.games.g40.names import NAMES as G40

from .scenario import NATIONS

WITH_THE = ("United States", "Eastern European Commonwealth", "Union of South American Nations")
POWERS = {**G40["powers"], **{n.name: f"the {n.name}" if n.name in WITH_THE else n.name for n in NATIONS}}

NAMES = {**G40, "powers": POWERS}
