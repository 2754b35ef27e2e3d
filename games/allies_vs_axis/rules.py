"""The Allies vs. Axis rule set on the engine's core (adjudicator.rules.core), not on the G40 rules.

Its position lives in `State.board`: tokens, unit pools, defend armies, imprisonments, hands, card piles, the
counts behind rising prices, frozen and beaten players, the winner. Money is the state's treasury and the owners
of spaces its owners, so that the engine's treasury and owner views read it as for any game.
"""

from __future__ import annotations

import json

from adjudicator.errors import ILLEGAL, OrderError
from adjudicator.rules.core import RulesCore
from adjudicator.state import State
from adjudicator.words import named

from . import army, orders as av_orders

MODES = ("les-miserables", "fierce-battles", "world-ruler")
PHASES = ("spin", "actions")


class AvRules(RulesCore):
    name = "allies-vs-axis"
    title = "Allies vs. Axis v2.0 (board of our own)"
    phase_titles = {"spin": "Spin and landing", "actions": "Actions"}
    takes_corrections = False

    def __init__(self, scenario, rules_version: str = ""):
        super().__init__(scenario, rules_version)
        self.data = json.loads(scenario.properties["board"])
        self.spaces = [s["name"] for s in self.data["spaces"]]
        self.space = {s["name"]: s for s in self.data["spaces"]}
        self.power_of = self.data["units"]
        self.powers = scenario.turn_players()

    def off_turn(self, state: State, power: str) -> str:
        """This game keeps no standing orders: a whole turn is posted when it comes."""
        return (f"Allies vs. Axis keeps no orders between turns, so {named(power)} post their whole turn when it "
                "comes (`status` says whose turn it is)")

    # -- the game's settings ------------------------------------------------------------------------

    def mode(self, state: State) -> str:
        return next((m for m in MODES if state.switches.get(f"option:{m}")), "normal")

    def settings(self, state: State) -> dict:
        return self.data["modes"][self.mode(state)]

    def prison_limit(self, state: State) -> int:
        """AV-48 (RULINGS.md "imprisonment-limit"): 3, or 5 with the option."""
        return 5 if state.switches.get("option:prison-limit-5") else 3

    def price(self, name: str) -> int:
        return self.data["prices"][name]

    def many(self) -> bool:
        """3 or 4 players: cheaper steps and ransoms (AV-39, AV-45)."""
        return len(self.powers) > 2

    # -- sides ----------------------------------------------------------------------------------------

    def side(self, power: str) -> str:
        return self.data["powers"][power]["side"]

    def main_of(self, power: str) -> str:
        return self.data["powers"][power]["main"]

    def in_game(self, state: State) -> list[str]:
        return [p for p in self.powers if p not in state.board["out"]]

    def opponents(self, state: State, a: str, b: str) -> bool:
        """Opposite sides; in The World Ruler every other player (AV-49)."""
        if a == b:
            return False
        return self.mode(state) == "world-ruler" or self.side(a) != self.side(b)

    def enemies_of(self, state: State, power: str) -> list[str]:
        return [p for p in self.in_game(state) if self.opponents(state, power, p)]

    def direct_opponent(self, state: State, power: str) -> str | None:
        """AV-34: in a 2-player game the other player; else the first of the power's table still in the game, and
        after the table (which names only the other side) the next opponent in turn order: in The World Ruler every
        other player is one (RULINGS.md "world-ruler-seats")."""
        left = [p for p in self.in_game(state) if p != power]
        if len(self.powers) == 2:
            return left[0] if left else None
        i = self.powers.index(power)
        after = [p for p in self.powers[i + 1:] + self.powers[:i] if p in left and self.opponents(state, power, p)]
        return next((p for p in self.data["powers"][power]["opponents"] if p in left), after[0] if after else None)

    # -- spaces -----------------------------------------------------------------------------------------

    def kind(self, space: str) -> str:
        return self.space[space]["kind"]

    def seaport(self, space: str) -> bool:
        return bool(self.space[space].get("seaport"))

    def allowed_units(self, space: str) -> tuple[str, ...]:
        """AV-23, AV-28, AV-30: battleships take no part where there is no seaport."""
        return army.UNITS if self.seaport(space) else army.UNITS[:3]

    def natural_ally(self, space: str) -> bool:
        """AV-06: a Main Territory no player chose (one taken from its player is a territory like any other)."""
        return self.kind(space) == "main" and self.scenario.territory(space).capital not in self.powers

    def land_kind(self, state: State, power: str, space: str) -> str:
        """What the space is to `power` now, as `if land KIND:` names it (orders.LAND_KINDS)."""
        kind = self.kind(space)
        if kind in ("fortune", "strategy"):
            return kind
        owner = state.owners.get(space)
        if owner is None and self.natural_ally(space):
            # RULINGS.md "natural-allies", "ally-condition": `ally` is one the power may set up; the other side's is
            # no kind a condition names, as nothing can be done there
            mine = self.mode(state) == "world-ruler" or self.side(self.scenario.territory(space).capital) == \
                self.side(power)
            return "ally" if mine else "other side's ally"
        if owner is None:
            return "secret" if kind == "secret" else "neutral"
        if owner == power:
            return "own"
        return "opponent" if self.opponents(state, power, owner) else "friendly"

    def defend_power(self, state: State, space: str) -> int:
        return army.defend_power(state.board["armies"].get(space, {}), self.power_of)

    def position_of(self, state: State, power: str) -> str:
        return self.spaces[state.board["tokens"][power] - 1]

    def advance(self, token: int, steps: int) -> int:
        """The space number (1-based) `steps` spaces clockwise of `token`, round the loop (back for a negative)."""
        return (token - 1 + steps) % len(self.spaces) + 1

    def recruit_cost(self, units: dict[str, int]) -> int:
        """AV-41 (RULINGS.md "recruit-prices")."""
        return sum(self.data["recruit"][u] * n for u, n in units.items())

    # -- the engine's interface -------------------------------------------------------------------------

    def begin(self, state: State) -> None:
        """The board at the start: tokens on the Main Territories (AV-03, AV-05), the mode's pools, the
        territories' starting defend armies, full card piles, nothing counted yet."""
        start = {u: n for u, n in self.settings(state)["start"].items() if u != "money"}
        from .cards import full_pile
        state.board = {
            "tokens": {p: self.spaces.index(self.main_of(p)) + 1 for p in self.powers},
            "pools": {p: dict(start) for p in self.powers},
            "armies": {s["name"]: dict(s["army"]) for s in self.data["spaces"]
                       if s.get("army") and s.get("power") in (None, *self.powers)},
            "prisons": {}, "imprisoned": {p: 0 for p in self.powers}, "hands": {p: [] for p in self.powers},
            "piles": {deck: full_pile(self, state, deck) for deck in ("fortune", "strategy")},
            "discards": {"fortune": [], "strategy": []},
            "treaties": {p: 0 for p in self.powers}, "steps": {p: 0 for p in self.powers},
            "frozen": [], "out": {}, "winner": None,
        }

    def lexicon(self):
        lex = super().lexicon()
        for alias, unit in (("tanks", "tank"), ("arm", "tank"), ("air", "aircraft"),
                            ("plane", "aircraft"), ("planes", "aircraft"), ("ftr", "aircraft"),
                            ("ship", "battleship"), ("ships", "battleship")):
            lex.add_unit_alias(alias, unit)
        return lex

    def verbs(self):
        return av_orders.verbs([c["name"] for deck in self.data["cards"].values() for c in deck])

    def covered_phases(self, state: State, orders: list, ended: bool) -> list[str]:
        todo = list(PHASES[PHASES.index(state.phase):])
        if ended:
            return todo
        last = max((PHASES.index(o.phase) for o in orders if o.phase in PHASES), default=None)
        return [] if last is None else [p for p in todo if PHASES.index(p) <= last]

    def check(self, state: State, orders: list, ended: bool) -> list[OrderError]:
        from .turn import check
        return check(self, state, orders, ended)

    def play(self, state: State, orders: list, ended: bool, roller, hashed: bool = True) -> list:
        from .turn import play
        return play(self, state, orders, ended, roller, hashed)

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """AV-09, AV-17: the money every space the power owns yields each turn (its units are in `yields`)."""
        total = self.yields(state, power)["money"]
        return total, [{"item": "territories", "amount": total}]

    def yields(self, state: State, power: str) -> dict[str, int]:
        out = {"money": 0, **{u: 0 for u in army.UNITS}}
        for s, o in sorted(state.owners.items()):
            if o == power:
                for what, n in self.space[s].get("yields", {}).items():
                    out[what] += n
        return out

    def victory_status(self, state: State) -> dict:
        return {"winner": state.board.get("winner"), "holds": []}

    def status_fields(self, state: State) -> dict:
        from .view import status_fields
        return status_fields(self, state)

    def public_units(self, state: State) -> list[list]:
        from .view import public_units
        return public_units(self, state)

    def position_lines(self, state: State) -> list[str]:
        from .view import position_lines
        return position_lines(self, state)


def order_error(order, message: str, rule: str) -> OrderError:
    return OrderError(ILLEGAL, message, order.line, order.column, order.source, rule=rule)
