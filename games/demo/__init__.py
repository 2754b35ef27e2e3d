"""The embedded demo scenario: a small Eastern Front written for newcomers and as the test suite's fixture.

It plays with the unchanged G40 base rules; its data is `scenario.json` beside this file.
"""

from importlib.resources import files

from adjudicator.games.g40.names import RELATIONSHIPS, UNITS
from adjudicator.rules.g40_family import G40Rules
from adjudicator.scenario import Scenario


class DemoRules(G40Rules):
    name = "demo"
    title = "G40 2nd edition base rules (demo scenario)"
    # Its units are the G40 map's and read as G40 players name them ("AA gun", "major factory"); its powers keep
    # the map's own words, as newcomers see them in the orders ("the Germans buy…")
    people_names = {"units": UNITS, "relationships": RELATIONSHIPS}


RULES = DemoRules
NEEDS_MAP = False
RULE_VERSIONS: dict[str, str] = {}


def scenario() -> Scenario:
    return Scenario.from_json(files(__name__).joinpath("scenario.json").read_text(encoding="utf-8"))
