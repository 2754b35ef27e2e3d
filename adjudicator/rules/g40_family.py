"""The G40 2nd-edition family of the rules core (DESIGN.md "Rules core"): the facts of the map (facts.MapFacts)
with the family's turn driver (turn.py) and the hooks that play the map's politics (national objectives,
victory), as one class whose hooks a game overrides, like python-chess variants.

This is the family layer: it imports the mechanisms (through turn.py and politics.py) and nothing below imports
it, so the rules core has no import circle. Games (games/g40, games/g40_alt_universe, games/demo) subclass
`G40Rules`.
"""

from __future__ import annotations

from ..notation import VerbRegistry
from ..state import State
from . import politics, turn
from .facts import MapFacts


class G40Rules(MapFacts):
    """Base rules of A&A Global 1940 2nd edition, played on any map that provides the data."""

    name = "g40"
    title = "G40 2nd edition base rules"
    no_income = "capital held by the enemy: no income"      # the income line of a power that cannot collect
    takes_bids = True

    # -- the engine's interface (core.RulesCore): a turn is played phase by phase by turn.py ----------

    def covered_phases(self, state: State, orders: list, ended: bool) -> list[str]:
        return turn.covered_phases(self, state, orders, ended)

    def check(self, state: State, orders: list, ended: bool) -> list:
        return turn.check(self, state, orders, ended)

    def play(self, state: State, orders: list, ended: bool, roller, hashed: bool = True) -> list:
        return turn.play(self, state, orders, ended, roller, hashed)

    def check_standing(self, power: str, orders: list) -> list:
        return turn.check_standing(self, power, orders)

    # -- hooks a game overrides ---------------------------------------------------------------------

    def verbs(self):
        """The order verbs of this game: the G40 family's; a game registers its own on top (NOTATION.md)."""
        return VerbRegistry.g40()

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """Income collected at the end of `power`'s turn, with the lines the report shows: territories, then
        each national objective met or missed (BG-37). Reads the state only; collect_income pays."""
        if not self.can_collect_income(state, power):
            return 0, [{"item": self.no_income, "amount": 0}]
        territories = self.scenario.territories_by_name()
        total = sum(territories[t].production for t, o in state.owners.items() if o == power)
        lines = [{"item": "territories", "amount": total}]
        for objective in self.national_objectives(state, power):
            lines.append({"item": "objective", "amount": objective["paid"], **objective})
            total += objective["paid"]
        return total, lines

    def national_objectives(self, state: State, power: str) -> list[dict]:
        """The power's national objectives, each {name, value, met, paid}, from the state at the end of its turn:
        the map's, where its "National Objectives" switch is on. A game with its own objectives overrides this."""
        if not self.prop("National Objectives"):
            return []
        return politics.objectives(self, state, power)

    def check_victory(self, state: State, power: str) -> list[dict]:
        """Called at the end of every power's turn, after income; answers with the report's events (a hold begun,
        kept or broken; the win). The base rules play the map's victory triggers, each to be held for a whole
        round (RULINGS.md "victory"); a game whose rulebook says otherwise overrides this."""
        return politics.victory_check(self, state, power)

    def victory_status(self, state: State) -> dict:
        """Where the game stands toward its end, read by `status` and `submit`: {"winner": the event of the win
        or None, "holds": events of the conditions under way}."""
        return politics.victory_status(self, state)
