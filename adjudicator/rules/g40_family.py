"""The G40 2nd-edition family of the rules core (DESIGN.md "Rules core"): the map family (family.MapFamily) with the
G40 turn — ships repaired as their owner's turn starts, convoy disruption and national objectives at its end — and
the map's victory triggers, as one class whose hooks a game overrides, like python-chess variants.

Games (games/g40, games/g40_alt_universe, games/demo) subclass `G40Rules`; nothing in the rules core imports it.
"""

from __future__ import annotations

from ..state import State
from . import air, city_goals, convoy, politics, turn
from .economy import collect_income
from .family import MapFamily


class G40Rules(MapFamily):
    """Base rules of A&A Global 1940 2nd edition, played on any map that provides the data."""

    name = "g40"
    title = "G40 2nd edition base rules"

    # -- the family's turn: what the driver runs as a power's turn starts and ends --------------------

    def turn_start(self, state: State, power: str) -> list[dict]:
        """BG-21: damaged ships are repaired as their owner's turn starts, where the map says so."""
        return turn.repair_ships(self, state, power) if self.prop("Units Repair Hits Start Turn") else []

    def turn_end(self, state: State, roller) -> list[dict]:
        """Aircraft still without a landing are lost; convoy disruption (BG-38); BG-37 income; units bought and not
        placed are kept; the map's end-of-turn triggers, the game's own end of turn, its victory conditions on the
        position the turn leaves; then the cursor passes to the next power."""
        power = state.power
        events = air.lose_unlanded(self, state, power)
        disrupted = convoy.disrupt(self, state, power, roller)
        events += disrupted
        events.append(collect_income(self, state, power, convoy.loss(disrupted)))
        events += turn.held_over(state, power)
        return events + self.close_turn(state, power)

    # -- hooks a game overrides ---------------------------------------------------------------------

    def check_victory(self, state: State, power: str) -> list[dict]:
        """Called at the end of every power's turn, after income; answers with the report's events (a hold begun,
        kept or broken; the win). The base rules play the map's victory triggers, each to be held for a whole
        round (RULINGS.md "victory"); a game whose rulebook says otherwise overrides this."""
        return politics.victory_check(self, state, power)

    def victory_status(self, state: State) -> dict:
        """Where the game stands toward its end, read by `status` and `submit`: {"winner": the event of the win
        or None, "holds": events of the conditions under way}."""
        return politics.victory_status(self, state)

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        return city_goals.trigger_goals(self, owners)
