"""Commands racing on one game, as real processes: exactly one wins where only one may, none is lost where all
may, nothing is written twice, and `audit` passes after every race (issue: integrity, racing commands).

CI runs each race once; `pytest tests/test_races.py --race-runs 20` is the stress run."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest

from adjudicator.demo import SCRIPT
from processes import race, run

TEST_SEED = "00" * 31 + "01"
BUSY = "another command is working on this game"
STANDING = ["ool inf, art, mech, arm", "ool art, inf, arm", "ool arm, inf"]


@pytest.fixture
def game(tmp_path):
    db = tmp_path / "race.db"
    assert run("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "race").code == 0
    for power, text in SCRIPT.items():
        (tmp_path / f"{power}.txt").write_text(text)
    for k, text in enumerate(STANDING):
        (tmp_path / f"standing{k}.txt").write_text(text + "\n")
    return db


def submit(db, power: str, file: str) -> list[str]:
    return ["submit", str(db), "--power", power, str(db.parent / file)]


def sql(db, statement: str) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute(statement).fetchall()


def assert_clean(outcomes, allowed: dict[int, tuple[str, ...]]) -> None:
    """Every process ended as a player expects: an allowed exit code with one of its messages, never a crash."""
    for o in outcomes:
        assert "internal error" not in o.err and "Traceback" not in o.err, o.err
        assert o.code in allowed, (o.args, o.code, o.err)
        if allowed[o.code]:
            assert any(m in o.out + o.err for m in allowed[o.code]), (o.args, o.code, o.out, o.err)


def assert_audit_passes(db) -> None:
    r = run("audit", db)
    assert r.code == 0, r.out + r.err
    seqs = [s for (s,) in sql(db, "select seq from submission order by id")]
    assert seqs == list(range(1, len(seqs) + 1))
    steps = [s for (s,) in sql(db, "select seq from step order by id")]
    assert steps == list(range(1, len(steps) + 1))


def test_twenty_racing_whole_turn_submissions_lock_exactly_one(game, tmp_path, race_run):
    outcomes = race([submit(game, "Germans", "Germans.txt")] * 20, tmp_path / "run")
    assert Counter(o.code for o in outcomes)[0] == 1, [(o.code, o.err) for o in outcomes]
    assert_clean(outcomes, {0: ("accepted as submission 1",), 1: ("already locked",), 2: (BUSY,)})
    assert sql(game, "select count(*) from submission") == [(1,)]
    assert_audit_passes(game)


def test_standing_orders_racing_a_whole_turn_are_all_kept_in_order(game, tmp_path, race_run):
    commands = [submit(game, ["Russians", "Italians", "Germans"][k % 3], f"standing{k % 3}.txt") for k in range(12)]
    commands += [submit(game, "Germans", "Germans.txt")] * 4
    outcomes = race(commands, tmp_path / "run")
    assert_clean(outcomes, {0: ("accepted as submission",), 1: ("already locked",), 2: (BUSY,)})
    turns = [o for o in outcomes if o.args[-1].endswith("Germans.txt")]
    assert sum(o.code == 0 for o in turns) == 1
    accepted = sum(o.code == 0 for o in outcomes)
    assert sql(game, "select count(*) from submission") == [(accepted,)]
    assert_audit_passes(game)


def test_adjudicate_racing_submissions_keeps_the_adjudicated_turn(game, tmp_path, race_run):
    assert run(*submit(game, "Germans", "Germans.txt")).code == 0
    commands = [["adjudicate", str(game)]] * 3 + [submit(game, "Russians", f"standing{k % 3}.txt") for k in range(8)]
    commands += [submit(game, "Russians", "Russians.txt")] * 2
    outcomes = race(commands, tmp_path / "run")
    assert_clean(outcomes, {0: (), 1: ("nothing to adjudicate", "already locked", "it is the Germans' turn",
                                       "turn"), 2: (BUSY,)})
    played = sum(o.code == 0 for o in outcomes if o.args[0] == "adjudicate")
    russians = sum(o.code == 0 for o in outcomes if o.args[-1].endswith("Russians.txt"))
    # The Germans' turn is played once; the Russians' only if their orders got in before another adjudicate.
    assert 1 <= played <= 1 + russians and russians <= 1
    status = json.loads(run("status", game, "--json").out)
    assert status["turn_index"] == 1 + played and status["power"] == ["Russians", "Italians"][played - 1]
    assert sql(game, "select count(*) from report") == [(played,)]
    assert_audit_passes(game)


def test_racing_adjudications_play_the_turn_once(game, tmp_path, race_run):
    assert run(*submit(game, "Germans", "Germans.txt")).code == 0
    outcomes = race([["adjudicate", str(game)]] * 8, tmp_path / "run")
    assert Counter(o.code for o in outcomes)[0] == 1, [(o.code, o.err) for o in outcomes]
    assert_clean(outcomes, {0: ("Germans",), 1: ("nothing to adjudicate",), 2: (BUSY,)})
    assert sql(game, "select count(*) from report") == [(1,)]
    assert sql(game, "select status from submission") == [("done",)]
    assert_audit_passes(game)


def test_a_command_that_waits_too_long_says_so_and_changes_nothing(game, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_BUSY_TIMEOUT", "0.2")
    before = sql(game, "select count(*) from submission")
    con = sqlite3.connect(game, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")         # another command holds the game
    try:
        r = run(*submit(game, "Germans", "Germans.txt"))
    finally:
        con.execute("ROLLBACK")
        con.close()
    assert r.code == 2 and BUSY in r.err and "try again" in r.err, r.err
    assert sql(game, "select count(*) from submission") == before
