"""The classic family of the rules core (DESIGN.md "Rules core"): Axis & Allies Europe (1999) and Axis & Allies
Pacific (2001) on their TripleA maps (europe_improved, europe_AAE, pacific), and the games built on them (Sgt.
Apone's Europe rules).

The mechanisms are the G40 family's, switched by the maps' properties and unit options; what differs is the turn
(damaged battleships repaired as their owner's turn ends, units bought and not placed lost, no national
objectives unless the map has them) and the ways to win the maps switch on (victory cities, economic victory, the
Pacific's Japanese victory points). Where the maps and the rulebooks disagree, the rulebook wins: each such choice
is a row of games/classic/RULES.md (CL-…) with its ruling in games/classic/RULINGS.md.
"""

from __future__ import annotations

from ..notation import VerbRegistry
from ..state import State
from . import air, convoy, politics, turn
from .economy import collect_income, lose_unplaced
from .family import MapFamily


class ClassicRules(MapFamily):
    """The classic 1999/2001 rules, played on a TripleA map of the Europe or Pacific game."""

    name = "classic"
    title = "classic 1999/2001 rules (A&A Europe, A&A Pacific)"
    passage_rules = ("CL-08", "CL-08")      # who passes enemy ships is the map's unit options (CL-08)

    # -- the family's turn ------------------------------------------------------------------------------

    def turn_start(self, state: State, power: str) -> list[dict]:
        """Nothing happens as a classic turn starts: repairs come at its end (CL-…)."""
        return turn.repair_ships(self, state, power) if self.prop("Units Repair Hits Start Turn") else []

    def turn_end(self, state: State, roller) -> list[dict]:
        """Aircraft still without a landing are lost; damaged battleships are repaired (the map's "Units Repair
        Hits End Turn"); units bought and not placed are lost unless the map keeps them ("Unplaced units live
        when not placed"); income is collected; the map's end-of-turn triggers; the victory conditions on the
        position the turn leaves; then the cursor passes to the next power."""
        power = state.power
        events = air.lose_unlanded(self, state, power)
        if self.prop("Units Repair Hits End Turn"):
            events += turn.repair_ships(self, state, power)
        events += (turn.held_over(state, power) if self.prop("Unplaced units live when not placed")
                   else lose_unplaced(state, power))
        disrupted = convoy.disrupt(self, state, power, roller)
        events += disrupted
        events.append(collect_income(self, state, power, convoy.loss(disrupted)))
        events += turn.triggers(self, state, power, "end_turn", "after")
        events += self.end_of_turn(state, power)
        events += self.check_victory(state, power)
        return events + turn.pass_turn(self, state)

    # -- hooks a game overrides ---------------------------------------------------------------------

    def verbs(self):
        """The map families' order verbs (NOTATION.md); a classic map has no politics step, so `war` never parses."""
        return VerbRegistry.g40()

    def check_victory(self, state: State, power: str) -> list[dict]:
        """The map's victory triggers, each held a whole round ("Triggered Victory", europe_improved)."""
        return politics.victory_check(self, state, power)

    def victory_status(self, state: State) -> dict:
        return politics.victory_status(self, state)
