"""Random games on the demo: whatever legal-looking orders players send, an accepted submission always
adjudicates, the cursor always moves on, and `audit` replays the whole game at the end."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.audit import audit
from adjudicator.config import load_settings
from adjudicator.errors import SubmissionRejected
from adjudicator.game import adjudicate, new_game, status, submit
from adjudicator.games import demo
from adjudicator.store.db import open_existing

SCENARIO = demo.scenario()
BUYABLE = ["infantry", "artillery", "armour", "fighter", "mech_infantry"]
CAPITAL = {"Germans": "Germany", "Russians": "Moscow", "Italians": "Italy"}


def random_orders(rng: random.Random, st_: dict) -> str:
    """A plausible turn for the power to move: a purchase, a few moves along random paths, placements, end."""
    power = st_["power"]
    mine = {t: u[power] for t, u in ((t, v["units"]) for t, v in st_["territories"].items()) if power in u}
    bought = f"{rng.randint(1, 2)} {rng.choice(BUYABLE)}" if rng.random() < 0.7 else None
    lines = [f"buy {bought}"] if bought else []
    for verb in ("cm", "ncm"):
        for _ in range(rng.randint(0, 3)):
            if not mine:
                break
            start = rng.choice(sorted(mine))
            unit = rng.choice(sorted(mine[start]))
            path = [start]
            for _ in range(rng.randint(1, 2)):
                path.append(rng.choice(sorted(SCENARIO.neighbours(path[-1]))))
            lines.append(f"{verb} {rng.randint(1, mine[start][unit])} {unit} {' > '.join(path)}")
            if verb == "cm" and rng.random() < 0.3:
                lines.append(f"retreat {path[-1]} > {path[0]} if attackers < 2")
    if bought and rng.random() < 0.8:
        lines.append(f"place {bought} {CAPITAL[power]}")
    return "\n".join(lines + ["end"]) + "\n"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_always_adjudicate_and_audit(tmp_path_factory, seed):
    rng = random.Random(seed)
    db = str(tmp_path_factory.mktemp("game") / "g.db")
    new_game(db, "demo", load_settings(), game_id=f"rnd-{seed}")
    engine = open_existing(db)
    try:
        accepted = 0
        for _ in range(9):                                   # three rounds of three powers
            st_ = status(engine)
            for _attempt in range(6):
                try:
                    submit(engine, st_["power"], random_orders(rng, st_))
                    break
                except SubmissionRejected:
                    continue
            else:
                submit(engine, st_["power"], "end\n")
            accepted += 1
            before = st_["turn_index"]
            adjudicate(engine, load_settings())
            assert status(engine)["turn_index"] == before + 1
        assert accepted == 9
    finally:
        engine.dispose()
    result = audit(db)
    assert result.ok, result.lines()
