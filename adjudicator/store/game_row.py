"""A game's row as commands read it: plain fields, read with one SQL statement.

Commands read the game row and write the few fields a turn changes; none needs it as an ORM object. Defining the
mapped class and configuring the mappers is a good part of what `status` costs beyond its imports (issue 13), and
`audit` opens the game some 700 times, so the row is read and written in plain SQL, and the mapped `Game` is
defined only where whole rows are created or copied.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

# The columns of the game row, which every command reads; the scenario and the initial state (a map's are half a
# megabyte of text, fixed at `new`) are the setup's, in the table game_setup (schema 4; older schemas kept them in
# the game row), read only by what parses or replays the setup.
COLUMNS = ("id", "name", "title", "rules_version", "anchor", "chain_length", "dice_mode", "test_seed",
           "salts_required", "round", "power", "phase", "turn_index", "extra", "state_hash", "created_at")
SETUP = ("scenario", "initial_state")


@dataclass
class GameRow:
    id: str
    name: str
    title: str
    rules_version: str
    anchor: str
    chain_length: int
    dice_mode: str
    test_seed: bool
    salts_required: str
    round: int
    power: str
    phase: str
    turn_index: int
    extra: str
    state_hash: str
    created_at: str
    scenario: str | None = None          # the setup: None until read (`the_game(..., setup=True)` or `db.read_setup`)
    initial_state: str | None = None

    @classmethod
    def of(cls, row) -> "GameRow":
        """From a row of `SELECT COLUMNS[, SETUP]` (SQLite gives a boolean column as 0 or 1)."""
        fields = row._asdict()
        fields["test_seed"] = bool(fields["test_seed"])
        return cls(**fields)

    def setup_hash(self) -> str:
        return setup_hash(self, self.scenario, self.initial_state)


def setup_hash(game, scenario: str, initial_state: str) -> str:
    """SHA-256 of all that was fixed when the game was made (the game row's fixed fields and its setup): printed
    from the first report on, so that nobody can swap the setup `audit` replays from, clear the test-dice flag or
    re-key the dice unnoticed."""
    fixed = {"game": game.id, "name": game.name, "rules": game.rules_version, "anchor": game.anchor,
             "chain_length": game.chain_length, "dice": game.dice_mode, "salts_from": game.salts_required,
             "test_seed": bool(game.test_seed)}
    text = f"{json.dumps(fixed, sort_keys=True)}\n{scenario}\n{initial_state}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
