"""A demo game played far enough for the dice tests: seven power-turns, five battles, test dice.

Round 1 is the demo's own script. In round 2 the Germans play their turn in two parts, and the Russians
file a standing order of loss while the first part is locked (it decides their casualties at Smolensk) and
another between the two parts. Round 3 stops after the Germans' first part: turn 7's dice are rolled but its
seed is not revealed. Every order is legal whatever the dice of the battles before it.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.config import Settings
from adjudicator.demo import DEMO_SEED, SCRIPT as DEMO
from adjudicator.game import adjudicate, new_game, submit
from adjudicator.store.db import open_existing

ADJUDICATE = None
GAME_ID = "demo"
LAST_TURN = 7          # in progress: its seed is not revealed
SCRIPT: list[tuple[str, str] | None] = [
    ("Germans", DEMO["Germans"]), ADJUDICATE,
    ("Russians", DEMO["Russians"]), ADJUDICATE,
    ("Italians", DEMO["Italians"]), ADJUDICATE,
    ("Germans", "buy 1 inf\ncm 2 ftr Poland > Belarus > Smolensk\ncm 3 arm Germany > Poland > Ukraine\n"),
    ("Russians", "ool mech, inf\n"), ADJUDICATE,
    ("Russians", "ool inf\n"),
    ("Germans", "place 1 inf Germany\nend\n"), ADJUDICATE,
    ("Russians", "buy 2 inf\nplace 2 inf Moscow\nend\n"), ADJUDICATE,
    ("Italians", "end\n"), ADJUDICATE,
    ("Germans", "cm 3 arm Ukraine > Bryansk\n"), ADJUDICATE,
]


def play(folder: Path) -> Path:
    """Play SCRIPT into `folder`/game.db (key file in `folder`/keys) and return the database's path."""
    settings = Settings(database=None, maps_path=[], keys_dir=folder / "keys", templates_dir=None)
    db = folder / "game.db"
    new_game(str(db), "demo", settings, seed_hex=DEMO_SEED, game_id=GAME_ID)
    engine = open_existing(str(db))
    for action in SCRIPT:
        if action is ADJUDICATE:
            adjudicate(engine, settings)
        else:
            submit(engine, *action)
    engine.dispose()
    return db
