"""Seeded fuzz examples that run in CI: random damage to a played game's database, mangled reports and pastes up
to the limits. Whatever they get, commands answer with a message and an exit code of 0, 1 or 2, never an
internal error. `python benchmarks/fuzz_long.py` runs thousands of these (figures in the README)."""

from __future__ import annotations

import random
import shutil

import pytest
from fuzzing import COMMANDS, crashed, damage, mangle_report, paste


def no_crash(result, what: str) -> None:
    assert not crashed(result), (what, result.exit_code, result.output, result.exception)


@pytest.mark.parametrize("seed", range(25))
def test_a_randomly_damaged_database_never_crashes_a_command(cli, played_demo, tmp_path, seed):
    db = tmp_path / "game.db"
    shutil.copy(played_demo / "game.db", db)
    shutil.copytree(played_demo / "keys", tmp_path / "keys", dirs_exist_ok=True)
    (tmp_path / "orders.txt").write_text("power: Russians\nbuy 1 inf\nend\n")
    what = damage(random.Random(seed), db)
    for command in COMMANDS:
        no_crash(cli(command[0], db, *command[1:], code=None), f"{what}: {command[0]}")


@pytest.mark.parametrize("seed", range(20))
def test_mangled_reports_and_random_pastes_never_crash(cli, demo_db, tmp_path, seed):
    rng = random.Random(seed)
    (tmp_path / "g.txt").write_text("power: Germans\nbuy 1 inf\nend\n")
    cli("submit", demo_db, "--power", "Germans", tmp_path / "g.txt", code=None)
    report = cli("report", demo_db, code=None).output if seed % 2 else "adjudicator dice\n"
    (tmp_path / "post.txt").write_text(mangle_report(rng, report))
    no_crash(cli("verify", tmp_path / "post.txt", code=None), "verify")
    no_crash(cli("submit", demo_db, "--power", "Russians", "--dry-run", "-", input=paste(rng), code=None), "submit")
