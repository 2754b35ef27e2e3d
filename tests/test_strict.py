"""Strict dice (`new --dice strict`, DESIGN.md §7): the other powers salt the dice key after the mover's orders
are locked, so that not even the host can know a die before the orders are fixed.

What players rely on: nothing is rolled until the salts the game awaits are in (or the host's recorded
fallback); the key is H(s_i || salt_1 || … || salt_k) in acceptance order; the report prints the salts, and
`verify` and `audit` use them.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from conftest import TEST_SEED

from adjudicator import dice
from adjudicator.demo import SCRIPT

GERMANS = SCRIPT["Germans"]          # two battles


@pytest.fixture
def strict_db(cli, tmp_path):
    db = tmp_path / "strict.db"
    out = cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "s1", "--dice", "strict").output
    assert "strict dice: each turn's dice await the salts of every other power that takes turns" in out
    return db


def salt(cli, db, power: str, text: str, code: int = 0):
    return cli("submit", db, "--power", power, input=f"salt {text}\n", code=code).output


def seed(i: int) -> bytes:
    return dice.chain_seed(bytes.fromhex(TEST_SEED), i)


def test_nothing_is_rolled_until_the_salts_are_in_and_the_key_folds_them_in_order(cli, strict_db, tmp_path):
    assert "no orders of Germans are locked yet" in salt(cli, strict_db, "Russians", "too early", code=1)
    locked = cli.json("submit", strict_db, "--power", "Germans", input=GERMANS)["sha256"]
    r = cli("adjudicate", strict_db, code=1)
    assert "awaits the salts of Russians, Italians" in r.output and locked in r.output
    assert cli.json("status", strict_db)["awaiting"] == "salts from Russians, Italians"
    salt(cli, strict_db, "Russians", "red sky at night")
    assert "move this turn" in salt(cli, strict_db, "Germans", "mine", code=1)
    assert "already salted turn 1" in salt(cli, strict_db, "Russians", "again", code=1)
    assert "Italians" in cli("adjudicate", strict_db, code=1).output
    assert cli.json("rolls", strict_db) == []
    salt(cli, strict_db, "Italians", "42 é")

    report = cli("adjudicate", strict_db).output
    assert "salts: red sky at night | 42 é" in report
    assert "salted by Russians (`red sky at night`), Italians (`42 é`), in that order" in report
    key = dice.turn_key(seed(1), ["red sky at night", "42 é"])
    groups = cli.json("rolls", strict_db)
    assert groups and all(g["salts"] == ["red sky at night", "42 é"] for g in groups)
    for g in groups:
        assert g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"])
    assert any(g["values"] != dice.roll(seed(1), "s1", 1, g["label"], g["sides"], g["count"]) for g in groups)

    post = tmp_path / "post.md"
    post.write_text(report, encoding="utf-8")
    assert "all match" in cli("verify", post).output
    post.write_text(report.replace("salts: red sky at night | 42 é", "salts: 42 é | red sky at night"), encoding="utf-8")
    assert "DOES NOT CHECK OUT" in cli("verify", post, code=1).output
    assert "OK:" in cli("audit", strict_db).output


def test_salts_close_when_the_first_part_is_adjudicated_and_key_every_part(cli, strict_db):
    cli("submit", strict_db, "--power", "Germans", input="buy 1 inf\ncm 3 inf, 1 art, 1 arm Poland > Belarus\n")
    salt(cli, strict_db, "Russians", "one")
    salt(cli, strict_db, "Italians", "two")
    cli("adjudicate", strict_db)
    assert "already fixed" in salt(cli, strict_db, "Russians", "late", code=1)
    cli("submit", strict_db, "--power", "Germans", input="place 1 inf Germany\nend\n")
    report = cli("adjudicate", strict_db).output           # the second part awaits no salt
    assert "salts: one | two" in report
    key = dice.turn_key(seed(1), ["one", "two"])
    for g in cli.json("rolls", strict_db):
        assert g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"])
    assert "OK:" in cli("audit", strict_db).output


def test_the_hosts_fallback_is_recorded_and_replays(cli, strict_db, tmp_path):
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    salt(cli, strict_db, "Russians", "only me")
    report = cli("adjudicate", strict_db, "--without-salts").output
    assert "without the salts of Italians" in report and "salts: only me" in report
    assert "OK:" in cli("audit", strict_db).output
    with sqlite3.connect(strict_db) as con:          # hiding the fallback makes the replay wait for the salt
        (events,) = con.execute("select events from step where seq = 1").fetchone()
        events = json.loads(events)
        events[0]["missing"] = []
        con.execute("update step set events = ? where seq = 1", (json.dumps(events, sort_keys=True),))
    assert "awaits the salts of Italians" in cli("audit", strict_db, code=1).output


def test_salt_from_limits_whose_salts_are_awaited(cli, tmp_path):
    db = tmp_path / "g.db"
    assert "Russians" in cli("new", db, "--game", "demo", "--dice", "strict", "--salt-from", "USSR").output
    cli("submit", db, "--power", "Germans", input="end\n")
    assert "awaits the salts of Russians for" in cli("adjudicate", db, code=1).output
    salt(cli, db, "Russians", "x")
    cli("adjudicate", db)
    cli("submit", db, "--power", "Russians", input="end\n")
    cli("adjudicate", db)                                  # the Russians' own turn awaits nobody
    assert cli.json("rolls", db) == [] and cli.json("status", db)["power"] == "Italians"


@pytest.mark.parametrize("args, fragment", [
    (["--salt-from", "Russians"], "--salt-from is for games created with `--dice strict`"),
    (["--dice", "strict", "--salt-from", "Martians"], "not a power"),
    (["--dice", "sometimes"], "--dice takes normal or strict"),
])
def test_bad_strict_options(cli, tmp_path, args, fragment):
    r = cli("new", tmp_path / "x.db", "--game", "demo", *args, code=2)
    assert fragment in r.output and not (tmp_path / "x.db").exists()


def test_salts_that_a_report_could_not_carry_are_refused(cli, strict_db):
    cli("submit", strict_db, "--power", "Germans", input="end\n")
    assert "may not contain '|'" in salt(cli, strict_db, "Russians", "a | b", code=1)
    assert "printable" in salt(cli, strict_db, "Russians", "bell\x07", code=1)
    assert "at most 200" in salt(cli, strict_db, "Russians", "x" * 201, code=1)
    assert "one salt per power per turn" in cli("submit", strict_db, "--power", "Russians", input="salt a\nsalt b\n",
                                                code=1).output


def test_normal_games_take_no_salts_and_no_fallback(cli, demo_db):
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    assert "--dice strict" in salt(cli, demo_db, "Russians", "x", code=1)
    assert "--without-salts is for games created with `--dice strict`" in cli("adjudicate", demo_db, "--without-salts",
                                                                                code=2).output


def test_the_published_hash_is_the_sha256_of_the_orders_as_sent(cli, strict_db):
    out = cli("submit", strict_db, "--power", "Germans", input=GERMANS).output
    published = re.search(r"sha256 ([0-9a-f]{64})", out).group(1)
    assert published == dice.sha256_hex(GERMANS)
