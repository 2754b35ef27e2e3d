"""Fuzzing `submit` through the store: whatever is submitted, it is either accepted whole or rejected with
documented errors, and a rejected submission leaves the database exactly as it was."""

from __future__ import annotations

import shutil
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.errors import AMBIGUOUS, ILLEGAL, INVALID, AdjudicatorError, SubmissionRejected
from adjudicator.game import new_game, submit
from adjudicator.config import load_settings
from adjudicator.store.db import open_existing

LINES = [
    "buy 2 inf, 1 arm", "buy 40 arm", "buy 1 bb", "war Italians", "war Russians",
    "cm 3 inf, 1 art, 1 arm Poland > Belarus", "cm 1 inf Poland > Belarus > Smolensk", "cm 2 ftr Germany > Poland > Belarus",
    "move 1 arm Poland > Belarus > Smolensk", "cm 1 mech East Prussia > Baltic States", "retreat Belarus > Poland",
    "retreat Belarus > Germany", "ool Belarus: arm, inf", "ool inf, art", "ncm 2 inf Germany > Poland",
    "ncm 1 inf Germany > Moscow", "ncm 2 ftr Belarus > Poland", "place 2 inf Germany", "place 1 arm Poland",
    "place 9 inf Germany", "repair 1 Germany", "end", "[combat move]", "[purchase]", "power: Russians", "round: 2",
    "scramble Germany > 1 Sea Zone", "submerge never", "salt xyz", "bomb 1 ftr Germany > Poland", "cm 1 dd 1 Sea Zone > 2 Sea Zone",
    "ncm 1 trn 1 Sea Zone > 1 Sea Zone", "Hello team, here are my orders!", "-- ", "[code]", "[/code]", "> buy 1 inf",
]


def snapshot(db) -> tuple:
    with sqlite3.connect(db) as con:
        return tuple(con.execute(f"select * from {t} order by 1, 2").fetchall()
                     for t in ("game", "power", "territoryowner", "unit", "relationship", "submission", "step"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(LINES), max_size=8), power=st.sampled_from(["Germans", "Russians", "Italians"]))
def test_submit_is_all_or_nothing(tmp_path_factory, lines, power):
    template = tmp_path_factory.getbasetemp() / "fuzz-template.db"
    if not template.exists():          # one game (and key file) for all examples; each example gets a copy
        new_game(str(template), "demo", load_settings(), seed_hex="11" * 32, game_id="fuzz")
    db = tmp_path_factory.mktemp("g") / "g.db"
    shutil.copyfile(template, db)
    engine = open_existing(str(db))
    before = snapshot(db)
    try:
        out = submit(engine, power, "\n".join(lines) + "\n")
    except SubmissionRejected as exc:
        assert exc.errors and all(e.kind in (INVALID, ILLEGAL, AMBIGUOUS) for e in exc.errors)
        assert snapshot(db) == before
    except AdjudicatorError as exc:      # e.g. an empty submission: still a documented error, still nothing stored
        assert exc.message
        assert snapshot(db) == before
    else:
        assert out["orders"]
        assert snapshot(db) != before
    finally:
        engine.dispose()
