"""SQLModel tables: the current state (what `status` reads) and the append-only journal (what `audit` replays)."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Optional

from sqlalchemy import Index, LargeBinary
from sqlmodel import Column, Field, SQLModel

SCHEMA_VERSION = 3        # 2: submission and step numbers unique within a game; 3: snapshots, map art, deliveries
SINCE = {"snapshot": 3, "map_art": 3, "delivery": 3, "game_setting": 3}    # tables younger than schema 1


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


# -- journal (append-only) ------------------------------------------------------------------------

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


class Step(SQLModel, table=True):
    __table_args__ = (Index("ux_step_game_seq", "game_id", "seq", unique=True),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    seq: int
    submission_id: Optional[int] = Field(default=None, foreign_key="submission.id")
    turn_index: int
    round: int
    power: str
    phase: str
    events: str                                # JSON list of report events
    state_hash: str


class DiceGroupRow(SQLModel, table=True):
    __tablename__ = "dice_group"
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    step_id: int = Field(foreign_key="step.id")
    turn_index: int
    label: str
    sides: int
    count: int
    dice: str                                  # JSON list of values
    units: str                                 # JSON list: the unit each value belongs to


class RevealedSeed(SQLModel, table=True):
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    turn_index: int = Field(primary_key=True)
    seed: str                                  # s_i, hex; stored only once turn i is over
    salts: str = "[]"                          # strict mode: the salts folded into the key, in order


class Report(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    turn_index: int
    format: str
    text: str
    created_at: str = Field(default_factory=now)


class Snapshot(SQLModel, table=True):
    """The public position after the last adjudication of a turn: what the report's treasury table and the map
    picture of a past turn show, without replaying the journal. Derived from the state, whose hash is audited;
    `audit` does not compare the snapshot itself yet."""
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    turn_index: int = Field(primary_key=True)
    data: str                                  # JSON: round, power, phase, treasury, owners, units [[place, owner, type, n]]


# -- what the game carries besides its rules (none of it is hashed or replayed) -------------------

class MapArt(SQLModel, table=True):
    """The map's own pictures and outlines, copied at `new` (a game never reads its map folder again)."""
    __tablename__ = "map_art"
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    name: str = Field(primary_key=True)        # e.g. "base.png", "polygons.json", "centers.json", "colours.json"
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class Delivery(SQLModel, table=True):
    """One report part posted to a forum or one mail sent: remembered so that a retry never posts it twice."""
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    turn_index: int
    step: int                                  # the last step of the turn the report covers (a turn played in two
                                               # adjudications has two reports)
    channel: str                               # "nodebb" or "mail"
    part: int                                  # 1-based part of the report (mail: 1)
    parts: int                                 # how many parts the report was split into
    target: str                                # the topic id, or the mail address
    ref: str = ""                              # the post id, or the Message-ID
    created_at: str = Field(default_factory=now)


class GameSetting(SQLModel, table=True):
    """Settings of a game that are not rules, e.g. the forum topic its reports go to."""
    __tablename__ = "game_setting"
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    key: str = Field(primary_key=True)
    value: str
