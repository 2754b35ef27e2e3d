"""What the speed-ups (issue 13) must not change: the state hash, a copy of the state, the rows a save leaves, and
what another process wrote. The figures themselves are in benchmarks/bench_game.py, never in a timed test."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

from adjudicator.config import Settings
from adjudicator.game import adjudicate, open_game, status, submit
from adjudicator.state import State, canonical_json
from adjudicator.store import db
from adjudicator.store.db import open_existing, transaction

from played_game import play

PROBE = """import runpy, sys
sys.argv = ["adjudicator", *sys.argv[1:]]
try:
    runpy.run_module("adjudicator", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("adjudicator.store", "sqlalchemy", "sqlmodel")))))
"""


def _loaded(tmp_path):
    played = play(tmp_path)
    engine = open_existing(str(played))
    with transaction(engine) as s:
        state = open_game(s).state
    return played, engine, state


def test_the_state_hash_and_copy_are_those_of_the_canonical_json(tmp_path):
    _, engine, state = _loaded(tmp_path)
    state.units[0].flags = {"fought": True, "bonus": 1, "landing": "Poland"}
    state.units[1].flags = {"bonus": True}                       # True and 1 give different texts
    for _ in range(2):                                           # the second time from the cached unit texts
        assert state.canonical() == canonical_json(state.to_dict())
    copy = state.copy()
    assert copy == State.from_dict(json.loads(canonical_json(state.to_dict())))
    copy.units[0].mark(fought=False)
    assert state.units[0].flags["fought"] is True                # a deep copy
    engine.dispose()


def test_a_save_leaves_the_rows_a_fresh_write_would(tmp_path):
    played, engine, state = _loaded(tmp_path)
    with transaction(engine, write=True) as s:
        g = open_game(s)
        g.state.units[0].place = "Ukraine"
        g.state.remove_units([g.state.units[1].id])
        g.state.add_unit("infantry", "Germans", "Poland")
        g.state.owners["Ukraine"] = "Germans"
        g.state.treasury["Germans"] += 7
        db.save_state(s, g.game, g.state)
        s.commit()
        expected = g.state.hash()
    with sqlite3.connect(played) as con:
        units = con.execute("select id, place, owner, type from unit order by id").fetchall()
        treasury = dict(con.execute("select name, treasury from power").fetchall())
    assert (units[0][1], units[-1][1:]) == ("Ukraine", ("Poland", "Germans", "infantry"))
    assert state.units[1].id not in {u[0] for u in units}
    assert treasury["Germans"] == state.treasury["Germans"] + 7
    other = open_existing(str(played))                           # another process: reads the tables
    with transaction(other) as s:
        assert open_game(s).state.hash() == expected
    engine.dispose()
    other.dispose()


def test_a_territory_left_without_owner_keeps_its_original_owner(tmp_path):
    """A board game removes the owner of a knocked-out player's territories (Allies vs. Axis): the original
    owner must survive the save, or the state read back hashes differently and the game no longer audits."""
    played, engine, _ = _loaded(tmp_path)
    with transaction(engine, write=True) as s:
        g = open_game(s)
        place = next(t for t in g.state.original_owners if t in g.state.owners)
        del g.state.owners[place]
        db.save_state(s, g.game, g.state)
        s.commit()
        expected, original = g.state.hash(), g.state.original_owners[place]
    other = open_existing(str(played))                           # another process: reads the tables
    with transaction(other) as s:
        state = open_game(s).state
    assert (place not in state.owners, state.original_owners[place]) == (True, original)
    assert state.hash() == expected
    engine.dispose()
    other.dispose()


def test_a_game_changed_by_another_process_is_read_again(tmp_path):
    played = play(tmp_path)
    settings = Settings(database=None, maps_path=[], keys_dir=tmp_path / "keys", templates_dir=None)
    mine, theirs = open_existing(str(played)), open_existing(str(played))
    before = status(mine)
    submit(theirs, before["power"], "end\n")
    adjudicate(theirs, settings)
    after = status(mine)                                         # the state this engine kept is stale now
    assert (after["round"], after["power"]) != (before["round"], before["power"])
    assert after["state_hash"] == status(theirs)["state_hash"] != before["state_hash"]
    mine.dispose()
    theirs.dispose()


def test_verify_and_help_never_import_the_store(tmp_path):
    played = play(tmp_path)
    report = tmp_path / "report.md"
    engine = open_existing(str(played))
    with transaction(engine) as s:
        from adjudicator.report import render
        report.write_text(render(s, 1, "markdown"))
    engine.dispose()
    for args in (["verify", str(report)], ["--help"], ["verify", "--help"]):
        out = subprocess.run([sys.executable, "-c", "import json\n" + PROBE, *args], capture_output=True, text=True)
        assert json.loads(out.stdout.strip().splitlines()[-1]) == [], (args, out.stdout, out.stderr)
