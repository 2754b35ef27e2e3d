"""The classic 1999/2001 rules (A&A Europe, A&A Pacific) on their TripleA maps: europe_improved (the default),
europe_AAE, pacific. The map's XML brings the data; the family (adjudicator/rules/classic_family.py) plays it, and
this game's RULES.md numbers its rules (CL-…), RULINGS.md says where the rulebooks overrule the maps.

A map whose properties the family does not play (adjudicator/families.py) is refused at `new`."""

from adjudicator.rules.classic_family import ClassicRules

from .names import NAMES


class ClassicGame(ClassicRules):
    """The family as this game plays it, in the words of its players."""

    people_names = NAMES


RULES = ClassicGame
NEEDS_MAP = True
FAMILY = "classic"      # adjudicator/families.py: the map properties it plays
DEFAULT_MAP = None
RULE_VERSIONS: dict[str, str] = {}
