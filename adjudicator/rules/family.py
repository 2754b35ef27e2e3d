"""What the families that play TripleA maps share (DESIGN.md "Rules core"): the engine's interface played phase by
phase by the map driver (turn.py), and the income a power collects from the map.

A family (g40_family.G40Rules, classic_family.ClassicRules) subclasses `MapFamily` and gives its own turn
(`turn_start`, `turn_end`: what runs, in its rulebook's order, as a power's turn starts and ends) and its own way
to win. Nothing below the families imports this module, so the rules core has no import circle.
"""

from __future__ import annotations

from ..notation import VerbRegistry
from ..state import State
from . import politics, turn
from .facts import MapFacts


class MapFamily(MapFacts):
    """A rules family played on a TripleA map: the facts of the map, the map driver, and the family's turn."""

    no_income = "capital held by the enemy: no income"      # the income line of a power that cannot collect
    takes_bids = True

    # -- the engine's interface (core.RulesCore): a turn is played phase by phase by turn.py ----------

    def covered_phases(self, state: State, orders: list, ended: bool) -> list[str]:
        return turn.covered_phases(self, state, orders, ended)

    def check(self, state: State, orders: list, ended: bool) -> list:
        return turn.check(self, state, orders, ended)

    def play(self, state: State, orders: list, ended: bool, roller, hashed: bool = True) -> list:
        return turn.play(self, state, orders, ended, roller, hashed)

    def check_standing(self, state: State, power: str, orders: list) -> list:
        return turn.check_standing(self, power, orders)

    # -- the family's turn ----------------------------------------------------------------------------

    def turn_start(self, state: State, power: str) -> list[dict]:
        """Events as `power`'s turn starts, before the orders of its first phase."""
        raise NotImplementedError

    def phase_start(self, state: State, power: str, phase: str) -> list[dict]:
        """Events as each phase of `power`'s turn begins, before its orders (after turn_start in the first); the
        families have none, a game may (the Expanded Global's Peacetime Spending is settled as Purchase begins)."""
        return []

    def phase_end(self, state: State, power: str, phase: str, roller) -> list[dict]:
        """Events as a phase of `power`'s turn ends, after its orders (not the battle or end-of-turn phases, which
        have their own hooks): where a game rolls dice outside battle (the Expanded Global's research). `roller` is
        None while `submit` checks the orders: no dice are rolled then, and what they decide is not known."""
        return []

    def turn_end(self, state: State, roller) -> list[dict]:
        """The end of the mover's turn, ending with close_turn."""
        raise NotImplementedError

    def close_turn(self, state: State, power: str) -> list[dict]:
        """The last steps of every family's end of turn: the map's end-of-turn triggers, the game's own end of turn,
        its victory conditions on the position the turn leaves; then the cursor passes to the next power."""
        events = turn.triggers(self, state, power, "end_turn", "after")
        events += self.end_of_turn(state, power)
        events += self.check_victory(state, power)
        return events + turn.pass_turn(self, state)

    def repair_order(self, state: State, power: str, order) -> dict:
        """A `repair` order of the purchase phase: the family's facilities (BG-29, turn.repair); a game that repairs
        more (the Expanded Global's ships for a fee, EG-30) overrides this."""
        return turn.repair(self, state, power, order)

    def verbs(self):
        """The map families' order verbs (NOTATION.md); a game registers its own on top. A map without a politics
        step never takes `war`: the parser refuses an order of a phase the turn does not have."""
        return VerbRegistry.g40()

    # -- income -------------------------------------------------------------------------------------

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """Income collected at the end of `power`'s turn, with the lines the report shows: territories (and sea
        zones with a value: the classic maps' convoy zones), then each national objective met or missed (BG-37).
        Reads the state only; collect_income pays."""
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
