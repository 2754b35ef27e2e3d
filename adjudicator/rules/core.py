"""The seam between the engine and a game's rules: all that game.py, the reports and `audit` ask of a rule set.

The G40 family implements it on the map's units and properties (g40_family.G40Rules, which plays its turns through
turn.py); a game that shares no mechanics with it (Allies vs. Axis, a board game) implements it on its own.
Everything else — store, dice, journal, notation core, reports, audit, delivery — is the same for both.
"""

from __future__ import annotations

from ..errors import OrderError
from ..scenario import Scenario
from ..state import State


class RulesCore:
    """A rule set as the engine sees it. A method that raises NotImplementedError must be given by the game."""

    name = ""
    title = ""
    phase_titles: dict[str, str] = {}      # the report's heading of a phase, where the game names it its own way
    # The report's words for a battle a game fights its own way, by the flag its battle event carries: "attacker"
    # (a format of {power}, the attacker's possessive) and the words of each result (battle_account.own_words)
    battle_words: dict[str, dict[str, str]] = {}
    people_names: dict = {}                # the words players use for its powers, units… (adjudicator/people.py)
    # The rulebook's names of groups of victory cities ({"Europe": [cities]}), which the map's data lacks: the
    # report names a group a victory condition counts by its theatre where it is one of these (rules/city_goals.py)
    city_groups: dict[str, list[str]] = {}
    takes_corrections = True               # whether `edit` (the host's corrections of units and owners) applies
    takes_bids = False                     # whether a game may start with bids (`new --bid`), played in round 0

    def __init__(self, scenario: Scenario, rules_version: str = ""):
        self.scenario = scenario
        self.rules_version = rules_version

    def begin(self, state: State) -> None:
        """Set up, in a new game's first state (its options already in `state.switches`), what State.initial does
        not read from the scenario; the map's setup is all the G40 family needs."""

    def lexicon(self):
        """The names players may use for this game's units, places and powers."""
        from ..notation import Lexicon
        return Lexicon.from_scenario(self.scenario)

    def verbs(self):
        """The order verbs of this game (notation.VerbRegistry)."""
        raise NotImplementedError

    def covered_phases(self, state: State, orders: list, ended: bool) -> list[str]:
        """The phases of the mover's turn, from the cursor, that a submission of `orders` covers."""
        raise NotImplementedError

    def check(self, state: State, orders: list, ended: bool) -> list[OrderError]:
        """Every rules error of the mover's turn orders, without dice and without changing `state`."""
        raise NotImplementedError

    def play(self, state: State, orders: list, ended: bool, roller, hashed: bool = True) -> list:
        """Play the covered phases on `state` with `roller`'s dice: one turn.StepResult per phase played, with the
        state hash after it unless not `hashed` (a position brought forward to be replayed from, audit_halves)."""
        raise NotImplementedError

    def check_standing(self, state: State, power: str, orders: list) -> list[OrderError]:
        """Standing orders the game cannot honour now; a game without standing orders has none to check."""
        return []

    def off_turn(self, state: State, power: str) -> str:
        """What a player may post while another plays, told to one who posts turn orders out of turn."""
        return f"{power} may file only standing orders now"

    def file_standing(self, state: State, power: str, order) -> None:
        """File a standing order of a verb the game registered (a GameVerb of no phase: an answer to an offer…),
        once check_standing has passed it; a game that registers such a verb says what filing it does."""
        raise NotImplementedError(f"the {self.name} game registered the standing order {order.name!r} but files none")

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """What `power` collects per turn, with the lines `status` shows."""
        raise NotImplementedError

    def enemies_of(self, state: State, power: str) -> list[str]:
        raise NotImplementedError

    def victory_status(self, state: State) -> dict:
        """{"winner": the event of the win or None, "holds": events of conditions under way}; a winner event that
        carries "text" is printed as it is."""
        return {"winner": None, "holds": []}

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        """What each side holds in victory cities, given the territories' owners, against what it needs to win,
        as phrases of the report's summary ("the Axis hold 10 of the 14 needed, for a whole round [AU-02]"); none
        where the game's victory is not counted in cities."""
        return []

    def status_fields(self, state: State) -> dict:
        """Fields of `status --json` that the game fills its own way (e.g. a board game's defend armies as the
        territories' units), laid over the engine's; "notes", lines `status` prints under its table."""
        return {}

    def public_units(self, state: State) -> list[list] | None:
        """The units a picture of the position shows, as db.position lists them ([place, owner, type, n]), for a
        game whose position is not the state's units (a board game's defend armies and tokens); None: those."""
        return None

    def position_lines(self, state: State) -> list[str]:
        """The game's own picture of the position as fixed-width text, printed after the turn in its report."""
        return []
