"""SQLModel tables of the journal besides its submissions (steps, dice, seeds, reports), and of what a game
carries besides its rules. Defined on first use, by what still reads them through the ORM (`audit`'s reading of a
stored journal, deliveries, map art): a SQLModel table costs some 5 ms to define."""

from __future__ import annotations

from typing import Optional

from sqlalchemy import Index, LargeBinary
from sqlmodel import Column, Field, SQLModel

from .schema import now


class Step(SQLModel, table=True):
    __table_args__ = (Index("ux_step_game_seq", "game_id", "seq", unique=True),
                      # a turn's steps and the standing orders before them (report.turn_context), schema 4
                      Index("ix_step_game_turn", "game_id", "turn_index"),
                      Index("ix_step_game_phase", "game_id", "phase"))
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
    __table_args__ = (Index("ix_dice_group_step", "step_id"),                    # audit's compare, step by step
                      Index("ix_dice_group_game_turn", "game_id", "turn_index"))  # a turn's report and rolls
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
    template_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})    # report.TEMPLATE_VERSION
    created_at: str = Field(default_factory=now)


class Snapshot(SQLModel, table=True):
    """The public position after the last adjudication of a turn: what the report's treasury table and the map
    picture of a past turn show, without replaying the journal. `audit` compares each with the replay's."""
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
    """One report part posted to a forum or one mail sent: remembered so that a retry never posts it twice. The
    row is written before the request goes, without a ref (the intent), and given its ref once the forum or the
    mail server answered: a row without one is a part that may or may not have gone out (delivery.deliver)."""
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    turn_index: int
    step: int                                  # the last step of the turn the report covers (a turn played in two
                                               # adjudications has two reports)
    channel: str                               # "nodebb" or "mail"
    part: int                                  # 1-based part of the report (mail: 1)
    parts: int                                 # how many parts the report was split into
    target: str                                # the topic id, or the mail address
    ref: str = ""                              # the post id, or the Message-ID; "" until the answer came
    created_at: str = Field(default_factory=now)


class Intake(SQLModel, table=True):
    """A message taken into the game by `inbox` or `watch` (intake.py): written in the transaction of the
    submission it made, so that a message is taken once, with its submission, even across a kill; a refused one
    too, so that it is answered once. A forum post edited after it was taken comes again under its ref with
    another version (schema 6)."""
    __table_args__ = (Index("ux_intake_game_ref_version", "game_id", "ref", "version", unique=True),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    ref: str                                   # the Message-ID, post:<pid>, or sha256:<hex>
    version: str                               # sha256 of the orders' text as read
    channel: str                               # "mail" or "forum"
    sender: str                                # the From addr-spec, or forum-uid:<uid>
    power: str = ""                            # the power it was taken for; "" when refused before one was known
    accepted: bool = False
    submission: Optional[int] = None           # the seq of the submission it made
    answer: str                                # the answer's text, given again when the message comes again
    created_at: str = Field(default_factory=now)


class Reply(SQLModel, table=True):
    """The answer `watch` sends to a message taken in (answers.py), recorded as a report's delivery is: the intent,
    with the whole text to send, before it goes; what the mail server or the forum answered once it came. A run
    killed in between sends the same mail again (the same Message-ID), or finds the forum reply by its mark before
    posting it again: each answer goes out once (schema 7)."""
    __table_args__ = (Index("ux_reply_game_ref_version", "game_id", "ref", "version", unique=True),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    ref: str                                   # the message answered: its intake ref
    version: str                               # and version (an edited post is answered again)
    channel: str                               # "mail" or "forum"
    target: str                                # the mail address, or the topic id
    subject: str = ""                          # a mail's subject
    thread: str = ""                           # a mail's References, space-separated
    body: str                                  # the text sent
    mark: str                                  # a mail's Message-ID, or the forum reply's last line
    sent: str = ""                             # "" until sent; the Message-ID or post id; QUEUED in the post queue
    created_at: str = Field(default_factory=now)
