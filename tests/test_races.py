"""Commands racing on one game, as real processes: exactly one wins where only one may, none is lost where all
may, nothing is written twice, and `audit` passes after every race (issue: integrity, racing commands).

Each race runs on a SQLite file and on a game of a league's PostgreSQL database (which holds another game: a
command locks only its own game's row), there with half as many processes. CI runs each race once; `pytest tests/test_races.py --race-runs 20` is the
stress run."""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from adjudicator.demo import SCRIPT
from backends import BACKENDS, NEIGHBOUR, new_args, target
from processes import paused, race, run

pytestmark = pytest.mark.slow

TEST_SEED = "00" * 31 + "01"
BUSY = "another command is working on this game"
STANDING = ["ool inf, art, mech, arm", "ool art, inf, arm", "ool arm, inf"]


@pytest.fixture(params=BACKENDS)
def game(request, tmp_path):
    g = target(request, tmp_path, "race")
    assert run("new", *new_args(g), "--game", "demo", "--seed", TEST_SEED).code == 0
    for power, text in SCRIPT.items():
        (tmp_path / f"{power}.txt").write_text(text)
    for k, text in enumerate(STANDING):
        (tmp_path / f"standing{k}.txt").write_text(text + "\n")
    return g


def submit(g, power: str, file: str) -> list[str]:
    return ["submit", *g.args, "--power", power, str(g.folder / file)]


def sql(g, statement: str) -> list[tuple]:
    """Rows of `statement` over the game's own rows (`:game` is its id)."""
    return g.sql(statement)


def assert_clean(outcomes, allowed: dict[int, tuple[str, ...]]) -> None:
    """Every process ended as a player expects: an allowed exit code with one of its messages, never a crash."""
    for o in outcomes:
        assert "internal error" not in o.err and "Traceback" not in o.err, o.err
        assert o.code in allowed, (o.args, o.code, o.err)
        if allowed[o.code]:
            assert any(m in o.out + o.err for m in allowed[o.code]), (o.args, o.code, o.out, o.err)


def assert_audit_passes(g) -> None:
    r = run("audit", *g.args)
    assert r.code == 0, r.out + r.err
    seqs = [s for (s,) in sql(g, "select seq from submission where game_id = :game order by id")]
    assert seqs == list(range(1, len(seqs) + 1))
    steps = [s for (s,) in sql(g, "select seq from step where game_id = :game order by id")]
    assert steps == list(range(1, len(steps) + 1))


def test_twenty_racing_whole_turn_submissions_lock_exactly_one(game, tmp_path, race_run):
    outcomes = race([submit(game, "Germans", "Germans.txt")] * game.fewer(20), tmp_path / "run")
    assert Counter(o.code for o in outcomes)[0] == 1, [(o.code, o.err) for o in outcomes]
    assert_clean(outcomes, {0: ("accepted as submission 1",), 1: ("already locked",), 2: (BUSY,)})
    assert game.count("submission") == 1
    assert_audit_passes(game)


def test_standing_orders_racing_a_whole_turn_are_all_kept_in_order(game, tmp_path, race_run):
    commands = [submit(game, ["Russians", "Italians", "Germans"][k % 3], f"standing{k % 3}.txt")
                for k in range(game.fewer(12))]
    commands += [submit(game, "Germans", "Germans.txt")] * game.fewer(4)
    outcomes = race(commands, tmp_path / "run")
    assert_clean(outcomes, {0: ("accepted as submission",), 1: ("already locked",), 2: (BUSY,)})
    turns = [o for o in outcomes if o.args[-1].endswith("Germans.txt")]
    assert sum(o.code == 0 for o in turns) == 1
    accepted = sum(o.code == 0 for o in outcomes)
    assert game.count("submission") == accepted
    assert_audit_passes(game)


def test_adjudicate_racing_submissions_keeps_the_adjudicated_turn(game, tmp_path, race_run):
    assert run(*submit(game, "Germans", "Germans.txt")).code == 0
    commands = [["adjudicate", *game.args]] * game.fewer(3)
    commands += [submit(game, "Russians", f"standing{k % 3}.txt") for k in range(game.fewer(8))]
    commands += [submit(game, "Russians", "Russians.txt")] * 2
    outcomes = race(commands, tmp_path / "run")
    assert_clean(outcomes, {0: (), 1: ("nothing to adjudicate", "already locked", "it is the Germans' turn",
                                       "turn"), 2: (BUSY,)})
    played = sum(o.code == 0 for o in outcomes if o.args[0] == "adjudicate")
    russians = sum(o.code == 0 for o in outcomes if o.args[-1].endswith("Russians.txt"))
    # The Germans' turn is played once; the Russians' only if their orders got in before another adjudicate.
    assert 1 <= played <= 1 + russians and russians <= 1
    status = json.loads(run("status", *game.args, "--json").out)
    assert status["turn_index"] == 1 + played and status["power"] == ["Russians", "Italians"][played - 1]
    assert game.count("report") == played
    assert_audit_passes(game)


def test_racing_adjudications_play_the_turn_once(game, tmp_path, race_run):
    assert run(*submit(game, "Germans", "Germans.txt")).code == 0
    outcomes = race([["adjudicate", *game.args]] * game.fewer(8), tmp_path / "run")
    assert Counter(o.code for o in outcomes)[0] == 1, [(o.code, o.err) for o in outcomes]
    assert_clean(outcomes, {0: ("Germans",), 1: ("nothing to adjudicate",), 2: (BUSY,)})
    assert game.count("report") == 1
    assert sql(game, "select status from submission where game_id = :game") == [("done",)]
    assert_audit_passes(game)


def test_a_command_that_waits_too_long_says_so_and_changes_nothing(game, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_BUSY_TIMEOUT", "0.2")
    before = game.count("submission")
    with game.held():                      # another command holds the game
        r = run(*submit(game, "Germans", "Germans.txt"))
    assert r.code == 2 and BUSY in r.err and "try again" in r.err, r.err
    assert game.count("submission") == before


@pytest.mark.parametrize("game", ["postgresql"], indirect=True)
def test_a_game_of_a_league_never_waits_for_another(game, monkeypatch):
    """A command on one game of a league locks that game's row only: another game's long adjudication does not
    hold it up, while a second command on the same game still waits for it."""
    monkeypatch.setenv("ADJUDICATOR_BUSY_TIMEOUT", "0.2")
    with game.held(NEIGHBOUR):
        r = run(*submit(game, "Germans", "Germans.txt"))
        assert r.code == 0 and "accepted as submission 1" in r.out, r.err
        r = run("submit", game.db, "--id", NEIGHBOUR, "--power", "Russians", game.folder / "standing0.txt")
        assert r.code == 2 and BUSY in r.err, r.err
    assert game.count("submission") == 1
    assert_audit_passes(game)


@pytest.mark.parametrize("backend", BACKENDS)
def test_racing_new_games_of_one_id_make_one_and_tell_the_others_it_is_taken(request, tmp_path, backend, race_run):
    """Every loser is told what the same `new` run afterwards is told (the file exists; the league holds the id),
    never that another command is working, and leaves no key behind."""
    g = target(request, tmp_path, "twin", backend)
    outcomes = race([["new", *new_args(g), "--game", "demo"]] * g.fewer(6), tmp_path / "run")
    assert Counter(o.code for o in outcomes) == {0: 1, 2: len(outcomes) - 1}, [(o.code, o.err) for o in outcomes]
    again = run("new", *new_args(g), "--game", "demo")
    assert again.code == 2 and BUSY not in again.err
    assert {o.err for o in outcomes if o.code} == {again.err}
    assert len(list((tmp_path / "keys").glob("twin.*.key"))) == 1
    assert_audit_passes(g)


def test_a_new_game_waiting_for_another_of_its_id_in_a_league_is_told_the_id_is_taken(request, tmp_path):
    """The same race, its order fixed: the first `new` has written its game's row and is stopped before it
    commits; the second reaches the same id and waits; then the first commits. The second stumbled on the first
    one's row and said that another command was working."""
    g = target(request, tmp_path, "twin", "postgresql")
    first = paused("adjudicator.keys:KeyStore.create", tmp_path / "go", "new", *new_args(g), "--game", "demo")
    with ThreadPoolExecutor(1) as pool:
        second = pool.submit(run, "new", *new_args(g), "--game", "demo")
        deadline = time.monotonic() + 60
        while g.sql("select count(*) from pg_stat_activity where wait_event_type = 'Lock'") == [(0,)]:
            assert not second.done() and time.monotonic() < deadline, second.result()
            time.sleep(0.05)
        (tmp_path / "go").touch()
        assert first.wait(60) == 0, first.communicate()
        loser = second.result()
    assert loser.code == 2 and "already holds a game with the id twin" in loser.err, loser.err
    assert len(list((tmp_path / "keys").glob("twin.*.key"))) == 1
    assert_audit_passes(g)
