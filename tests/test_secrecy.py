"""Secrecy of the dice chain (DESIGN.md §1, issue 4 item 9): no command prints, and the game database never
holds, the seed of a turn that is not over, a later seed, or the chain secret s_N; a wrong key file is refused.
"""

from __future__ import annotations

import hashlib
import re

from conftest import TEST_SEED
from played_game import SCRIPT

from adjudicator import dice

HEX64 = re.compile(r"[0-9a-f]{64}")


def _chain() -> list[bytes]:
    """s_0 … s_N of the test games, walking down from the secret s_N."""
    seeds = [bytes.fromhex(TEST_SEED)]
    for _ in range(dice.CHAIN_LENGTH):
        seeds.append(hashlib.sha256(seeds[-1]).digest())
    return seeds[::-1]


SEEDS = _chain()                                 # SEEDS[i] = s_i


def secret_values(turn: int) -> set[str]:
    """Hex of every seed from the current turn's (not over yet) up to s_N: each gives away this turn's dice."""
    return {s.hex() for s in SEEDS[turn:]}


def leaks(text: str, turn: int) -> set[str]:
    return set(HEX64.findall(text.lower())) & secret_values(turn)


def test_no_command_and_no_database_byte_gives_away_a_seed_before_its_turn_is_over(cli, demo_db):
    def run(*args, code: int | None = 0, input: str | None = None) -> str:
        return cli(*args, code=code, input=input).output

    reads = [["status", demo_db], ["status", demo_db, "--json"], ["rolls", demo_db, "--json"], ["rolls", demo_db]]
    after_adjudication = [["audit", demo_db]] + [
        ["report", demo_db, "--format", fmt] for fmt in ("markdown", "bbcode", "text")]
    for action in SCRIPT:
        if action is None:
            outputs = [run("adjudicate", demo_db)] + [run(*args) for args in after_adjudication]
        else:
            outputs = [run("submit", demo_db, "--power", action[0], input=action[1]),
                       run("submit", demo_db, "--power", action[0], "--dry-run", input=action[1], code=None)]
        outputs += [run(*args) for args in reads]
        turn = cli.json("status", demo_db)["turn_index"]
        assert not any(leaks(out, turn) for out in outputs), "a command printed a seed of a turn not over"
        data = demo_db.read_bytes()
        assert not leaks(data.decode("latin-1"), turn)
        # Raw bytes too (not s_N: the test secret 00…01 occurs in any binary file by chance).
        assert not any(s in data for s in SEEDS[turn:turn + 3]), "a raw seed is in the database"
    assert not leaks(run("audit", demo_db, "--json"), turn)
    assert turn == 7 and SEEDS[6].hex() in run("report", demo_db, "--turn", "6")      # revealed once over


def test_a_wrong_key_file_is_refused_without_a_new_chain(cli, demo_db, tmp_path):
    (key,) = (tmp_path / "keys").glob("*.key")
    other = "ab" * 32
    key.write_text(re.sub(r"secret: [0-9a-f]{64}", f"secret: {other}", key.read_text()))
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    before = cli.json("status", demo_db)
    r = cli("adjudicate", demo_db, code=2)
    assert "does not belong to game t1" in r.output and other not in r.output and TEST_SEED not in r.output
    assert cli.json("status", demo_db) == before and cli.json("rolls", demo_db) == []
    assert [p.name for p in (tmp_path / "keys").iterdir()] == [key.name]


def test_the_chain_checked_above_is_the_games(cli, demo_db):
    assert cli.json("status", demo_db)["anchor"] == SEEDS[0].hex()
