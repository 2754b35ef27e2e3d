"""`kill -9` of `new`, `submit` and `adjudicate` at many moments, as real processes: afterwards the game is
absent or whole, `status` and `audit` work, and the state is exactly the one before or the one after
(issue: integrity, a crash mid-command).

Each runs on a SQLite file and on a game of a league's PostgreSQL database (beside another game), there at a third
as many moments. CI kills each command at 8 moments; `pytest tests/test_kills.py --kill-moments 50` is the stress run."""

from __future__ import annotations

import json
import random
import shutil
import time

import pytest

from adjudicator.demo import SCRIPT
from backends import BACKENDS, NEIGHBOUR, Target, new_args, target
from processes import killed, run

pytestmark = pytest.mark.slow

TEST_SEED = "00" * 31 + "01"
def timed(*args) -> float:
    start = time.monotonic()
    r = run(*args)
    assert r.code == 0, r.err
    return time.monotonic() - start


def moments(full: float, seed: int, count: int) -> list[float]:
    """Kill moments over the command's whole run (a process forked from the zygote has no start-up of Python to
    skip), and a little past it."""
    rng = random.Random(seed)
    return sorted(rng.uniform(0.0, 1.05 * full) for _ in range(count))


def state(g) -> dict:
    r = run("status", *g.args, "--json")
    assert r.code == 0 and "Traceback" not in r.err, r.err
    return json.loads(r.out)


def audit_passes(g) -> None:
    r = run("audit", *g.args)
    assert r.code == 0, r.out + r.err


def rows(g, table: str) -> int:
    return g.count(table)


def test_new_killed_leaves_no_game_or_a_whole_one_and_no_orphan_key(tmp_path, kill_moments):
    keys = tmp_path / "keys"
    full = timed("new", tmp_path / "probe.db", "--game", "demo", "--id", "probe")
    (tmp_path / "probe.db").unlink()
    shutil.rmtree(keys)
    for k, after in enumerate(moments(full, 1, kill_moments)):
        db = tmp_path / f"g{k}.db"
        killed(["new", db, "--game", "demo", "--id", f"g{k}"], after)
        g = Target(str(db), f"g{k}", tmp_path)
        if db.exists():
            st = state(g)
            assert st["game"] == f"g{k}" and st["turn_index"] == 1
            audit_passes(g)
        else:
            # Whatever the killed `new` left is gone once `new` of the same path runs again.
            assert run("new", db, "--game", "demo", "--id", f"g{k}").code == 0
            audit_passes(g)
        leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(f".g{k}.db")]
        # Killed between linking the finished file into place and unlinking its temporary name, `new` leaves
        # that name as a second link to the game itself: clutter, not damage.
        assert all(p.samefile(db) for p in leftovers), leftovers
        games = {p.name.split(".")[0] for p in keys.iterdir()} if keys.exists() else set()
        assert games <= {f"g{i}" for i in range(k + 1)}
        assert len(list(keys.glob(f"g{k}.*.key"))) == 1


def test_new_killed_in_a_league_leaves_no_game_or_a_whole_one(request, tmp_path, kill_moments):
    """In a league `new` is one transaction, committed once the key is written: killed, it leaves the game whole
    with its key, or no game (and maybe a key no game uses, which `new` cannot tell from another database's key of
    the same id, so it stays), and never disturbs the league's other game."""
    league = target(request, tmp_path, "probe", "postgresql")
    keys = tmp_path / "keys"
    full = timed("new", *new_args(league), "--game", "demo")
    for k, after in enumerate(moments(full, 1, league.fewer(kill_moments, 3))):
        g = Target(league.db, f"g{k}", tmp_path, league.league)        # every game into the one league
        killed(["new", *new_args(g), "--game", "demo"], after)
        if g.sql("select count(*) from game where id = :game") == [(0,)]:
            assert run("new", *new_args(g), "--game", "demo").code == 0
        st = state(g)
        assert st["game"] == f"g{k}" and st["turn_index"] == 1
        audit_passes(g)
        assert (keys / f"g{k}.{st['anchor'][:16]}.key").exists()
        assert {p.name.split(".")[0] for p in keys.iterdir()} <= {NEIGHBOUR, "probe", *(f"g{i}" for i in range(k + 1))}
    assert len(league.sql("select id from game")) == league.fewer(kill_moments, 3) + 2       # and the neighbour


@pytest.fixture(params=BACKENDS)
def game(request, tmp_path):
    g = target(request, tmp_path, "kill")
    assert run("new", *new_args(g), "--game", "demo", "--seed", TEST_SEED).code == 0
    (tmp_path / "Germans.txt").write_text(SCRIPT["Germans"])
    return g


def test_submit_killed_stores_the_orders_whole_or_not_at_all(game, tmp_path, kill_moments):
    orders = tmp_path / "Germans.txt"
    probe = game.clone("probe")
    full = timed("submit", *probe.args, "--power", "Germans", orders)
    before = state(game)["state_hash"]
    for k, after in enumerate(moments(full, 2, game.fewer(kill_moments, 3))):
        copy = game.clone(f"k{k}")
        killed(["submit", *copy.args, "--power", "Germans", orders], after)
        assert state(copy)["state_hash"] == before
        assert rows(copy, "submission") in (0, 1)
        audit_passes(copy)
        if rows(copy, "submission") == 0:
            assert run("submit", *copy.args, "--power", "Germans", orders).code == 0


def test_adjudicate_killed_plays_the_turn_whole_or_not_at_all(game, tmp_path, kill_moments):
    assert run("submit", *game.args, "--power", "Germans", tmp_path / "Germans.txt").code == 0
    probe = game.clone("probe")
    full = timed("adjudicate", *probe.args)
    before, after_hash = state(game)["state_hash"], state(probe)["state_hash"]
    for k, after in enumerate(moments(full, 3, game.fewer(kill_moments, 3))):
        copy = game.clone(f"k{k}")
        killed(["adjudicate", *copy.args], after)
        st = state(copy)
        assert st["state_hash"] in (before, after_hash)
        played = st["state_hash"] == after_hash
        assert (rows(copy, "report"), st["turn_index"]) == ((1, 2) if played else (0, 1))
        assert rows(copy, "step") == (rows(probe, "step") if played else 0)
        audit_passes(copy)
