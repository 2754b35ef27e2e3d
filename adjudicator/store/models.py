"""The schema's SQLModel tables of the current state and of the submissions: what creates, upgrades and copies a
database (commands read and write their rows in plain SQL, store/db.py). The rest of the journal is in
`journal`."""

from __future__ import annotations

from typing import Optional

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from .schema import now


class Meta(SQLModel, table=True):
    key: str = Field(primary_key=True)
    value: str


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True)
    name: str                                  # the --game name: demo, g40, g40-alt-universe, ...
    title: str                                 # the scenario's name, e.g. "G40 Alt Universe 2.0.8"
    rules_version: str = ""
    anchor: str                                # s_0, hex
    chain_length: int
    dice_mode: str = "normal"                  # "normal" or "strict"
    test_seed: bool = False                    # created with --seed: the reports say so
    salts_required: str = ""                   # strict mode: comma-separated powers whose salts are awaited
    round: int
    power: str
    phase: str
    turn_index: int
    extra: str = "{}"                          # State fields without a table: purchases, standing orders, battles
    state_hash: str = ""
    created_at: str = Field(default_factory=now)


class GameSetup(SQLModel, table=True):
    """What a game fixed at `new` besides its row: a G40 map's scenario is some 360 KB of JSON and its start 120 KB
    more. They sit in a row of their own (schema 4) because the game row is written after every adjudication and
    standing order: a database rewrites a whole row to change one field of it (1 ms a time on SQLite with the setup
    in it), and `audit` of a 20-round game writes the game row some 180 times."""
    __tablename__ = "game_setup"
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    scenario: str                              # the Scenario as JSON, copied once at `new`
    initial_state: str                         # the starting State as JSON


class Power(SQLModel, table=True):
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    name: str = Field(primary_key=True)
    turn_order: int                            # -1 for players that take no turns
    treasury: int = 0
    contact: str = ""


class TerritoryOwner(SQLModel, table=True):
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    territory: str = Field(primary_key=True)
    owner: str
    original_owner: str = ""


class UnitRow(SQLModel, table=True):
    __tablename__ = "unit"
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    id: int = Field(primary_key=True)
    place: str = Field(index=True)
    owner: str
    type: str
    damage: int = 0
    moved: int = 0
    flags: str = "{}"
    carried_by: Optional[int] = None           # id of the transport this unit is aboard


class Relationship(SQLModel, table=True):
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    a: str = Field(primary_key=True)
    b: str = Field(primary_key=True)
    type: str


# -- the journal (append-only): its submissions ------------------------------------------------------

class Submission(SQLModel, table=True):
    __table_args__ = (Index("ux_submission_game_seq", "game_id", "seq", unique=True),
                      # the orders awaiting adjudication (db.locked_submission, audit's replay): a few rows of many
                      Index("ix_submission_game_status", "game_id", "status", "seq"))
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    seq: int                                   # order of acceptance within the game
    power: str
    kind: str                                  # "turn", "standing" or "salt"
    round: int
    turn_index: int
    phase: str                                 # the cursor's phase when it was accepted
    text: str
    sha256: str
    status: str = "locked"                     # "locked" until adjudicated, then "done"
    created_at: str = Field(default_factory=now)


class GameSetting(SQLModel, table=True):
    """Settings of a game that are not rules, e.g. the forum topic its reports go to."""
    __tablename__ = "game_setting"
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    key: str = Field(primary_key=True)
    value: str


def metadata():
    """Every table's definition, for what creates, upgrades or copies a whole database."""
    from . import journal  # noqa: F401  (defines its tables on import)
    return SQLModel.metadata
