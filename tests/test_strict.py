"""Strict dice (`new --dice strict`, DESIGN.md §7): the other powers salt the dice key after the mover's orders
are locked, so that not even the host can know a die before the orders are fixed.

What players rely on: nothing is rolled until the salts the game awaits are in (or the host's recorded
fallback); the key is H(s_i || salt_1 || … || salt_k) with the salts in turn order, which the host cannot
rearrange; each salt binds the sha256 of the orders it salts, so orders swapped after the salts are refused; the
report prints the salts and what they bind, and `verify` and `audit` use them. Games stored before salts were
bound (dice mode `strict`) keep the key in acceptance order, and still replay.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest
from conftest import TEST_SEED
from test_audit import sql

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
    assert f"the salt binds the orders of Germans locked with sha256 {locked}" in salt(cli, strict_db, "Russians",
                                                                                       "red sky at night")
    assert "move this turn" in salt(cli, strict_db, "Germans", "mine", code=1)
    assert "already salted turn 1" in salt(cli, strict_db, "Russians", "again", code=1)
    assert "Italians" in cli("adjudicate", strict_db, code=1).output
    assert cli.json("rolls", strict_db) == []
    salt(cli, strict_db, "Italians", "42 é")

    report = cli("adjudicate", strict_db).output
    assert f"salts: red sky at night | 42 é\nbinds: {locked} | {locked}\norders: {locked}\n" in report
    assert ("salted by the Russians (`red sky at night`), the Italians (`42 é`), in turn order; the salts bind the orders "
            f"with sha256 {locked}") in report
    key = dice.turn_key(seed(1), ["red sky at night", "42 é"])
    groups = cli.json("rolls", strict_db)
    assert groups and all(g["salts"] == ["red sky at night", "42 é"] for g in groups)
    for g in groups:
        assert g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"])
    assert any(g["values"] != dice.roll(seed(1), "s1", 1, g["label"], g["sides"], g["count"]) for g in groups)

    post = tmp_path / "post.md"
    post.write_text(report, encoding="utf-8")
    assert f"salted by 2 salt(s) bound to the orders with sha256 {locked}; " in cli("verify", post).output
    assert (f"Every block's salts bind the orders given with --orders ({locked})."
            in cli("verify", post, "--orders", locked.upper()).output)
    assert "--orders must be 32 bytes" in cli("verify", post, "--orders", "abcd", code=2).output
    post.write_text(report.replace("salts: red sky at night | 42 é", "salts: 42 é | red sky at night"), encoding="utf-8")
    assert "DOES NOT CHECK OUT" in cli("verify", post, code=1).output
    other = dice.sha256_hex("other orders")
    post.write_text(report.replace(f"binds: {locked} | {locked}", f"binds: {locked} | {other}"), encoding="utf-8")
    out = cli("verify", post, code=1).output
    assert f"salt 2 ('42 é') was given for the orders with sha256 '{other}', not for those salted, '{locked}'" in out
    post.write_text(report.replace(f"binds: {locked} | {locked}\n", ""), encoding="utf-8")
    assert "names the orders of 0 salt(s) for 2 salt(s)" in cli("verify", post, code=1).output
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
    assert "without the salts of the Italians" in report and "salts: only me" in report
    assert "OK:" in cli("audit", strict_db).output
    with sqlite3.connect(strict_db) as con:          # hiding the fallback makes the replay wait for the salt
        seq, events = con.execute("select seq, events from step where phase != 'standing' order by seq").fetchone()
        events = json.loads(events)
        events[0]["missing"] = []
        con.execute("update step set events = ? where seq = ?", (json.dumps(events, sort_keys=True), seq))
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


# Salts the notation accepts but `verify` read otherwise (HTML tags split or dropped, a code fence at the end of the
# line taken off): an honest report then failed to check out. Each position: alone, first or last of the line.
UNREADABLE_SALTS = {"abc~~~": "abc", "abc```": "abc", "a<br>b": "a", "a <p> b": "a", "&amp;": "&", "x <b>y</b>": "x y"}


@pytest.mark.parametrize("text, read", UNREADABLE_SALTS.items())
def test_a_salt_verify_would_read_otherwise_is_refused(cli, strict_db, text, read):
    cli("submit", strict_db, "--power", "Germans", input="end\n")
    out = salt(cli, strict_db, "Russians", text, code=1)
    assert f"`verify` would read this salt back from a report as {read!r}" in out and "Choose a salt" in out
    assert cli.json("status", strict_db)["awaiting"] == "salts from Russians, Italians"


def test_salts_that_look_like_markup_but_read_back_verify_in_every_format(cli, strict_db, tmp_path):
    """`d6` between two salts once made verify read the `salts:` line as a wrapped dice line; `<3`, `&` and code
    markers inside a salt are read back as they are."""
    from adjudicator import report, salts, verify
    from test_reports import _markdown
    assert salts.read_back("d6") is None
    block = report.dice_block({"game": {"id": "g", "anchor": "a"}, "turn": {"index": 1}, "seed": "b",
                               "salts": ["x", "d6", "y"], "dice": []})
    assert [b.salts for b in verify.read_blocks(block)] == [["x", "d6", "y"]]
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    salt(cli, strict_db, "Russians", "d6 <3 AT&T ~~~ x")
    salt(cli, strict_db, "Italians", "y ``` z <3")
    cli("adjudicate", strict_db)
    for fmt in report.FORMATS:
        text = cli("report", strict_db, "--format", fmt).stdout
        posted = [text] + ([_markdown().render(text)] if fmt == "markdown" else [])    # as NodeBB shows it
        for k, form in enumerate(posted):
            (tmp_path / f"{fmt}{k}").write_text(form, encoding="utf-8")
            assert "2 salt(s) bound" in cli("verify", tmp_path / f"{fmt}{k}").output


def test_every_salt_accepted_reads_back_from_every_report_format(cli, strict_db):
    """Whatever a player writes after `salt`, if it is accepted, verify reads it back from the reports byte for
    byte: printed by the real templates, in the first or the last place, as posted and as NodeBB renders it."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from adjudicator import report, salts, verify
    from adjudicator.notation.text import clean_text
    from test_reports import _markdown
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    salt(cli, strict_db, "Russians", "SALTA")
    salt(cli, strict_db, "Italians", "SALTB")
    cli("adjudicate", strict_db)
    texts = [cli("report", strict_db, "--format", fmt).stdout for fmt in report.FORMATS]
    markup = st.sampled_from(["<br>", "<p>", "</p>", "<b>", "<", ">", "```", "~~~", "&amp;", "&lt;", "&", "[code]",
                              "[/code]", "[quote]", "[/quote]", "d6", "|", " ", "`", "\u00a0", "\u200b"])
    pieces = st.one_of(markup, st.characters(codec="utf-8", exclude_categories=["Cs"]))

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(pieces, min_size=1, max_size=12).map("".join))
    def accepted_salts_read_back(raw: str) -> None:
        lines = clean_text(f"salt {raw}")
        if len(lines) != 1 or not lines[0].text.startswith("salt "):
            return
        text = lines[0].text[len("salt "):]
        if salts._salt_text_problem(text) is not None:
            return
        for text_a, text_b in ((text, "SALTB"), ("SALTA", text), (text, text)):
            for fmt, report_text in zip(report.FORMATS, texts):
                forms = [report_text.replace("SALTA", text_a).replace("SALTB", text_b)]
                if fmt == "markdown":
                    forms.append(_markdown().render(forms[0]))        # as NodeBB shows it
                for form in forms:
                    assert [b.salts for b in verify.read_blocks(form)] == [[text_a, text_b]], (text, form)

    accepted_salts_read_back()


def test_normal_games_take_no_salts_and_no_fallback(cli, demo_db):
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    assert "--dice strict" in salt(cli, demo_db, "Russians", "x", code=1)
    assert "--without-salts is for games created with `--dice strict`" in cli("adjudicate", demo_db, "--without-salts",
                                                                                code=2).output


def test_the_published_hash_is_the_sha256_of_the_orders_as_sent(cli, strict_db):
    out = cli("submit", strict_db, "--power", "Germans", input=GERMANS).output
    published = re.search(r"sha256 ([0-9a-f]{64})", out).group(1)
    assert published == dice.sha256_hex(GERMANS)


# -- what the host holds: the database ---------------------------------------------------------------

def test_the_salts_key_the_dice_in_turn_order_whatever_order_they_came_in(cli, strict_db):
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    salt(cli, strict_db, "Italians", "first in")
    salt(cli, strict_db, "Russians", "second in")
    report = cli("adjudicate", strict_db).output
    assert "salts: second in | first in" in report            # the Russians play before the Italians
    key = dice.turn_key(seed(1), ["second in", "first in"])
    groups = cli.json("rolls", strict_db)
    assert groups and all(g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"]) for g in groups)
    assert "OK:" in cli("audit", strict_db).output


def test_orders_swapped_after_the_salts_are_refused_and_a_full_rewrite_shows_to_the_players(cli, strict_db, tmp_path):
    locked = cli.json("submit", strict_db, "--power", "Germans", input=GERMANS)["sha256"]
    salt(cli, strict_db, "Russians", "red sky")
    salt(cli, strict_db, "Italians", "blue sea")
    swapped = "buy 5 inf\nend\n"
    new = dice.sha256_hex(swapped)
    sql(strict_db, "update submission set text = ?, sha256 = ? where kind = 'turn'", swapped, new)
    out = cli("adjudicate", strict_db, code=2).output
    assert (f"the orders of Germans locked now (sha256 {new}) are not those the salts were given for (Russians for "
            f"sha256 {locked}; Italians for sha256 {locked})") in out
    assert sql(strict_db, "select count(*) from dice_group") == [(0,)]
    audit = cli("audit", strict_db, code=1).output
    assert "FAILED" in audit and f'"binds": "{new}"' in audit and f'"binds": "{locked}"' in audit
    # the host rewrites the bindings too: the dice roll, and every report prints with each salt the orders it binds,
    # which are not the ones `submit` told the salters
    sql(strict_db, "update step set events = replace(events, ?, ?)", locked, new)
    report = cli("adjudicate", strict_db).output
    assert f"binds: {new} | {new}\norders: {new}" in report and locked not in report
    # `audit` checks that the journal agrees with itself, and this one does: what shows the rewrite is the sha256
    # `submit` told the mover and the salters, which `verify --orders` holds the report to
    assert "OK:" in cli("audit", strict_db).output
    post = tmp_path / "post.md"
    post.write_text(report, encoding="utf-8")
    out = cli("verify", post, "--orders", locked, code=1).output
    assert (f"its salts do not bind the orders with sha256 {locked} given with --orders: they bind '{new}'. Those are "
            "not the orders `submit` told you of: the host changed them") in out


def test_salts_the_host_rearranged_change_no_die_and_fail_the_audit(cli, strict_db, tmp_path):
    """The host adjudicates on a copy, dislikes the dice, and swaps the two salts' rows in the game, as if the
    Italians' had come first, to get the dice of the other order: they are the same dice."""
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    salt(cli, strict_db, "Russians", "red sky")
    salt(cli, strict_db, "Italians", "blue sea")
    trial = shutil.copy(strict_db, tmp_path / "trial.db")
    cli("adjudicate", trial)
    (first, *russian), (second, *italian) = sql(strict_db, "select id, power, text, sha256 from submission "
                                                           "where kind = 'salt' order by seq")
    sql(strict_db, "update submission set power = ?, text = ?, sha256 = ? where id = ?", *italian, first)
    sql(strict_db, "update submission set power = ?, text = ?, sha256 = ? where id = ?", *russian, second)
    assert "salts: red sky | blue sea" in cli("adjudicate", strict_db).output
    groups = cli.json("rolls", strict_db)
    assert groups == cli.json("rolls", trial)
    key = dice.turn_key(seed(1), ["red sky", "blue sea"])
    assert all(g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"]) for g in groups)
    audit = cli("audit", strict_db, code=1).output
    assert "FAILED at the first mismatch: turn 1, step 1" in audit and "\"power\": \"Italians\", \"salt\": \"blue sea\"" in audit


def test_a_game_stored_before_salts_were_bound_keeps_its_key_in_acceptance_order(cli, strict_db, tmp_path):
    assert cli.json("status", strict_db)["dice"] == "strict"                # as players chose it, in either kind
    sql(strict_db, "update game set dice_mode = 'strict'")         # as games created before stored it
    cli("submit", strict_db, "--power", "Germans", input=GERMANS)
    assert "binds" not in salt(cli, strict_db, "Italians", "first in")
    salt(cli, strict_db, "Russians", "second in")
    report = cli("adjudicate", strict_db).output
    assert "salts: first in | second in\nholds:" in report and "in that order" in report
    key = dice.turn_key(seed(1), ["first in", "second in"])
    groups = cli.json("rolls", strict_db)
    assert groups and all(g["values"] == dice.roll(key, "s1", 1, g["label"], g["sides"], g["count"]) for g in groups)
    assert sql(strict_db, "select count(*) from step where events like '%\"type\": \"salt\"%'") == [(0,)]
    assert "OK:" in cli("audit", strict_db).output
    post = tmp_path / "post.md"
    post.write_text(report, encoding="utf-8")
    assert "all match" in cli("verify", post).output


def test_salts_bind_and_key_in_turn_order_in_a_league(cli, league):
    """On PostgreSQL, beside another strict game whose rows interleave: each game's salts bind its own orders."""
    locked = {}
    for gid, orders in (("a", GERMANS), ("b", "end\n")):
        cli("new", league, "--game", "demo", "--seed", TEST_SEED, "--id", gid, "--dice", "strict")
        locked[gid] = cli.json("submit", league, "--id", gid, "--power", "Germans", input=orders)["sha256"]
    for power in ("Italians", "Russians"):
        for gid in ("a", "b"):
            cli("submit", league, "--id", gid, "--power", power, input=f"salt {power} {gid}\n")
    for gid in ("a", "b"):
        report = cli("adjudicate", league, "--id", gid).output
        assert f"salts: Russians {gid} | Italians {gid}\nbinds: {locked[gid]} | {locked[gid]}\n" in report
        assert "OK:" in cli("audit", league, "--id", gid).output
