"""The embedded demo scenario: a small Eastern Front written for newcomers and as the test suite's fixture.

It plays with the unchanged G40 base rules; its data is `scenario.json` beside this file.
"""

from importlib.resources import files

from adjudicator.rules.g40_family import G40Rules
from adjudicator.scenario import Scenario


class DemoRules(G40Rules):
    name = "demo"
    title = "G40 2nd edition base rules (demo scenario)"


RULES = DemoRules
NEEDS_MAP = False
RULE_VERSIONS: dict[str, str] = {}


def scenario() -> Scenario:
    return Scenario.from_json(files(__name__).joinpath("scenario.json").read_text(encoding="utf-8"))
