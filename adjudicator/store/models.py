"""SQLModel tables of the current state (what `status` reads) and of the submissions; the rest of the journal
is in `journal`, defined only by the commands that write or replay it."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Optional

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

SCHEMA_VERSION = 3        # 2: submission and step numbers unique within a game; 3: snapshots, map art, deliveries
# Every table of a game database, with the schema version that brought it: what `open_existing` checks a
# database for without defining the journal's tables (tests/test_store.py keeps it equal to the metadata).
TABLES = {"meta": 1, "game": 1, "power": 1, "territoryowner": 1, "unit": 1, "relationship": 1, "submission": 1,
          "step": 1, "dice_group": 1, "revealedseed": 1, "report": 1,
          "snapshot": 3, "map_art": 3, "delivery": 3, "game_setting": 3}


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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
    scenario: str                              # the Scenario as JSON, copied once at `new`
    initial_state: str                         # the starting State as JSON
    round: int
    power: str
    phase: str
    turn_index: int
    extra: str = "{}"                          # State fields without a table: purchases, standing orders, battles
    state_hash: str = ""
    created_at: str = Field(default_factory=now)

    def setup_hash(self) -> str:
        """SHA-256 of all that was fixed when the game was made: printed from the first report on, so that nobody
        can swap the setup `audit` replays from, clear the test-dice flag or re-key the dice unnoticed."""
        fixed = {"game": self.id, "name": self.name, "rules": self.rules_version, "anchor": self.anchor,
                 "chain_length": self.chain_length, "dice": self.dice_mode, "salts_from": self.salts_required,
                 "test_seed": bool(self.test_seed)}
        text = f"{json.dumps(fixed, sort_keys=True)}\n{self.scenario}\n{self.initial_state}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    __table_args__ = (Index("ux_submission_game_seq", "game_id", "seq", unique=True),)
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
