"""Any TripleA map of the G40 family played with the G40 2nd-edition base rules: the map's XML brings all the data.

A map whose properties the family does not play (adjudicator/families.py) is refused at `new`."""

from adjudicator.rules.g40_family import G40Rules

from .names import NAMES
from .theatres import CITY_GROUPS


class G40MapRules(G40Rules):
    """The family's base rules, reported in the words Global 1940 players use (names.py); the family's class knows
    no game's words, as adjudicator/ knows no game."""
    people_names = NAMES
    city_groups = CITY_GROUPS


RULES = G40MapRules
NEEDS_MAP = True
FAMILY = "g40"          # adjudicator/families.py: the map properties it plays
DEFAULT_MAP = None
RULE_VERSIONS: dict[str, str] = {}
