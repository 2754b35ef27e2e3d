"""TripleA game-XML import: `load_scenario` reads one game XML into a Scenario, `find_map` finds the XML.

Every failure is an `adjudicator.errors.MapError` whose message names the file and says what to do.
"""

from .finder import find_map
from .importer import load_scenario

__all__ = ["find_map", "load_scenario"]
