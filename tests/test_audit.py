"""`audit`: an honest game replays from its setup and journal; every kind of tampering fails and is named.

The game (tests/played_game.py) has battles, a turn adjudicated in two parts, standing orders filed while
orders were locked and between two parts, and a turn in progress whose seed is not revealed yet.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from played_game import GAME_ID, LAST_TURN, play

from adjudicator import dice
from adjudicator.demo import DEMO_SEED

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    return play(tmp_path_factory.mktemp("played"))


@pytest.fixture
def game_db(played, tmp_path) -> Path:
    """A fresh copy of the played game, to tamper with; no key file comes with it."""
    return Path(shutil.copy(played, tmp_path / "copy.db"))


def sql(db: Path, statement: str, *args) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute(statement, args).fetchall()


# -- honest games ---------------------------------------------------------------------------------

def test_an_honest_game_replays_without_the_key_and_without_changing_a_byte(cli, game_db):
    before = game_db.read_bytes()
    out = cli("audit", game_db).output
    assert game_db.read_bytes() == before
    lines = out.splitlines()
    assert lines[0].startswith(f"audit of game {GAME_ID}: 10 submission(s)")
    assert sum(line.startswith("turn ") for line in lines) == LAST_TURN
    assert "turn 1 (round 1, Germans): seed follows the chain; 6 dice group(s), 18 dice recomputed" in out
    assert "turn 4 (round 2, Germans): seed follows the chain" in out           # the turn played in two parts
    assert f"turn {LAST_TURN} (round 3, Germans): in progress" in out and "not checkable yet" in out
    assert lines[-1].startswith("OK:")


def test_audit_json(cli, game_db):
    out = cli.json("audit", game_db)
    assert out["ok"] and out["mismatch"] is None and out["game"] == GAME_ID
    assert [t["turn"] for t in out["turns"]] == list(range(1, LAST_TURN + 1))
    assert [t["revealed"] for t in out["turns"]] == [True] * (LAST_TURN - 1) + [False]
    assert out["state_hash"] == cli.json("status", game_db)["state_hash"]


def test_a_new_game_and_a_game_with_orders_locked_but_not_adjudicated_replay(cli, demo_db):
    cli("audit", demo_db)
    cli("submit", demo_db, "--power", "Russians", input="ool inf\n")
    cli("submit", demo_db, "--power", "Germans", input="buy 1 inf\n")
    assert "OK:" in cli("audit", demo_db).output


def test_audit_of_a_missing_or_damaged_database_says_so(cli, tmp_path, game_db):
    assert "no game database" in cli("audit", tmp_path / "nothing.db", code=2).output
    sql(game_db, "update game_setup set initial_state = '{}'")
    assert "stored setup is damaged" in cli("audit", game_db, code=2).output


# -- tampering ------------------------------------------------------------------------------------

def change_a_die(db):
    (label, values), = sql(db, "select label, dice from dice_group where turn_index = 2 order by id limit 1")
    values = json.loads(values)
    values[-1] = values[-1] % 6 + 1
    sql(db, "update dice_group set dice = ? where label = ? and turn_index = 2", json.dumps(values), label)
    return ["turn 2", f"dice group {label}", "values"]


def change_orders_keeping_the_old_hash(db):
    sql(db, "update submission set text = replace(text, 'buy 2 inf', 'buy 3 inf') where seq = 8")
    return ["submission 8 (Russians)", "SHA-256 of its text"]


def change_orders_and_their_hash(db):
    (text,), = sql(db, "select text from submission where seq = 8")
    text = text.replace("2 inf", "3 inf")
    sql(db, "update submission set text = ?, sha256 = ? where seq = 8", text, hashlib.sha256(text.encode()).hexdigest())
    return ["turn 5", "(purchase)"]


def change_a_state_hash(db):
    (seq, phase), = sql(db, "select seq, phase from step where turn_index = 4 and phase = 'battle'")
    sql(db, "update step set state_hash = ? where seq = ?", "0" * 64, seq)
    return ["turn 4", f"step {seq} (battle)", "state hash"]


def change_a_revealedseed(db):
    sql(db, "update revealedseed set seed = ? where turn_index = 3", hashlib.sha256(b"forged").hexdigest())
    return ["turn 3", "revealed seed", "SHA-256 of the revealed seed must be the seed of turn 2"]


def delete_a_dice_group(db):
    (label,), = sql(db, "select label from dice_group where turn_index = 4 order by id desc limit 1")
    sql(db, "delete from dice_group where label = ? and turn_index = 4", label)
    return ["turn 4", f"dice group {label}", "the journal does not hold it"]


def delete_a_dice_group_of_the_turn_in_progress(db):
    (label,), = sql(db, "select label from dice_group where turn_index = ? order by id limit 1", LAST_TURN)
    sql(db, "delete from dice_group where label = ?", label)
    return [f"turn {LAST_TURN}", f"dice group {label}", "the journal does not hold it"]


def delete_a_revealedseed(db):
    sql(db, "delete from revealedseed where turn_index = 2")
    return ["turn 2", "must reveal its seed"]


def reveal_the_seed_of_the_turn_in_progress(db):
    seed = dice.chain_seed(bytes.fromhex(DEMO_SEED), LAST_TURN).hex()
    sql(db, "insert into revealedseed (game_id, turn_index, seed, salts) values (?, ?, ?, '[]')", GAME_ID, LAST_TURN, seed)
    return [f"turn {LAST_TURN}", "this turn is not"]


def swap_the_numbers_of_two_submissions(db):
    # The Germans' first part of turn 4 and the Russians' order of loss filed while it was locked; a forger
    # drops the uniqueness of the numbers first.
    sql(db, "drop index ux_submission_game_seq")
    sql(db, "update submission set seq = case seq when 4 then 5 else 4 end where seq in (4, 5)")
    return ["submission 5 (Germans)", "acceptance order"]


def swap_two_submissions_entirely(db):
    cols = "power, kind, round, turn_index, phase, text, sha256, status"
    a, b = sql(db, f"select {cols} from submission where seq in (1, 2) order by seq")
    for seq, row in ((1, b), (2, a)):
        sql(db, f"update submission set ({cols}) = ({', '.join('?' * 8)}) where seq = ?", *row, seq)
    return ["submission 1 (Russians)", "expected round 1, turn 1, purchase, found round 1, turn 2, purchase"]


def damage_a_dice_column(db):
    (label,), = sql(db, "select label from dice_group where turn_index = 1 order by id limit 1")
    sql(db, "update dice_group set dice = 'two sixes' where label = ? and turn_index = 1", label)
    return ["turn 1", f"dice group {label}", "must be a JSON list"]


def change_the_current_state(db):
    sql(db, "update power set treasury = treasury + 10 where name = 'Italians'")
    return ["current state (treasury Italians)", "expected 22, found 32"]


def edit_a_stored_report(db):
    sql(db, "update report set text = replace(text, 'Germans buy', 'Germans bought') where id = 1")
    return ["turn 1", "report 1", "stored report"]


def clear_the_test_dice_flag(db):
    sql(db, "update game set test_seed = 0")
    return ["turn 1", "report 1, line"]


def edit_the_scenario(db):
    sql(db, "update game_setup set scenario = replace(scenario, 'Eastern Front', 'Western Front')")
    return ["turn 1", "report 1, line"]


def edit_the_initial_state(db):
    (text,), = sql(db, "select initial_state from game_setup")
    start = json.loads(text)
    start["treasury"]["Russians"] += 5
    sql(db, "update game_setup set initial_state = ?", json.dumps(start, sort_keys=True))
    return ["turn 1", "state hash"]


def edit_a_snapshot(db, turn: int, change) -> None:
    (data,), = sql(db, "select data from snapshot where turn_index = ?", turn)
    position = json.loads(data)
    change(position)
    sql(db, "update snapshot set data = ? where turn_index = ?", json.dumps(position, sort_keys=True), turn)


def add_pus_to_a_snapshot(db):
    edit_a_snapshot(db, 2, lambda p: p["treasury"].update(Russians=p["treasury"]["Russians"] + 500))
    return ["turn 2", "snapshot of turn 2 (treasury Russians)", "expected 33, found 533"]


def add_a_unit_to_a_snapshot(db):
    edit_a_snapshot(db, 3, lambda p: p["units"].append(["Moscow", "Russians", "armour", 1]))
    return ["turn 3", "snapshot of turn 3 (units)", "the position kept after the turn"]


def move_a_unit_in_a_snapshot(db):
    def move(position):
        unit = next(u for u in position["units"] if u[:3] == ["Moscow", "Russians", "infantry"])
        unit[0] = "Smolensk"
    edit_a_snapshot(db, 5, move)
    return ["turn 5", "snapshot of turn 5 (units item", 'expected "Moscow", found "Smolensk"']


def change_an_owner_in_the_snapshot_of_the_turn_in_progress(db):
    edit_a_snapshot(db, LAST_TURN, lambda p: p["owners"].update(Moscow="Germans"))
    return [f"turn {LAST_TURN}", f"snapshot of turn {LAST_TURN} (owners Moscow)", 'expected "Russians", found "Germans"']


def delete_a_snapshot(db):
    sql(db, "delete from snapshot where turn_index = 4")
    return ["turn 4", "snapshot of turn 4", "the journal lacks this one"]


def add_a_snapshot_of_a_turn_never_played(db):
    sql(db, "insert into snapshot (game_id, turn_index, data) select game_id, 9, data from snapshot where turn_index = 1")
    return ["turn 9", "snapshot of turn 9", "never adjudicated"]


def damage_a_snapshot(db):
    sql(db, "update snapshot set data = '[1, 2]' where turn_index = 1")
    return ["turn 1", "snapshot of turn 1", "must be a JSON object"]


TAMPERING = [edit_a_stored_report, clear_the_test_dice_flag, edit_the_scenario, edit_the_initial_state, change_a_die, change_orders_keeping_the_old_hash, change_orders_and_their_hash, change_a_state_hash,
             change_a_revealedseed, delete_a_dice_group, delete_a_dice_group_of_the_turn_in_progress,
             delete_a_revealedseed, reveal_the_seed_of_the_turn_in_progress, swap_the_numbers_of_two_submissions,
             swap_two_submissions_entirely, damage_a_dice_column, change_the_current_state, add_pus_to_a_snapshot,
             add_a_unit_to_a_snapshot, move_a_unit_in_a_snapshot, change_an_owner_in_the_snapshot_of_the_turn_in_progress, delete_a_snapshot,
             add_a_snapshot_of_a_turn_never_played, damage_a_snapshot]


@pytest.mark.parametrize("tamper", TAMPERING, ids=[t.__name__ for t in TAMPERING])
def test_tampering_fails_and_names_the_place(cli, game_db, tamper):
    fragments = tamper(game_db)
    out = cli("audit", game_db, code=1).output
    failure = out.splitlines()[-1]
    assert failure.startswith("FAILED at the first mismatch:"), out
    for fragment in fragments:
        assert fragment in failure, failure


def test_the_first_mismatch_is_named_when_there_are_several(cli, game_db):
    change_a_state_hash(game_db)
    expected = change_a_die(game_db)            # turn 2 comes before turn 4
    out = cli.json("audit", game_db, code=1)
    assert not out["ok"] and out["mismatch"]["turn"] == 2
    assert all(fragment in out["mismatch"]["message"] for fragment in expected)
    assert {"expected", "found", "where", "what"} <= out["mismatch"].keys()


# -- what players saw: the anchor and the orders' hashes --------------------------------------------

def test_a_game_re_keyed_with_a_new_chain_fails_against_the_anchor_players_saw(cli, tmp_path):
    """A host replays the same orders into a game with the same id on a new dice chain: it audits clean on its
    own, but not against the anchor published at the start, and neither do its reports."""
    first = tmp_path / "first.db"
    anchor = cli.json("new", first, "--game", "demo", "--seed", "11" * 32, "--id", "g")["anchor"]
    rekeyed = tmp_path / "rekeyed.db"
    cli("new", rekeyed, "--game", "demo", "--seed", "22" * 32, "--id", "g")
    (tmp_path / "o.txt").write_text("power: Germans\nbuy 2 inf\nend\n")
    cli("submit", rekeyed, "--power", "Germans", tmp_path / "o.txt")
    (tmp_path / "post.md").write_text(cli("adjudicate", rekeyed).output)
    cli("audit", rekeyed)
    out = cli.json("audit", rekeyed, "--anchor", anchor, code=1)
    assert out["mismatch"]["where"] == "anchor" and anchor in out["mismatch"]["expected"]
    assert "anchor" in cli("verify", tmp_path / "post.md", "--anchor", anchor, code=1).output
    cli("audit", first, "--anchor", anchor.upper())
    assert "--anchor" in cli("audit", first, "--anchor", "abc", code=2).output


def test_a_host_who_swaps_locked_orders_after_the_salts_is_caught_by_the_published_hash(cli, tmp_path):
    """Strict dice of a game stored before salts bound the orders they salt (today's games refuse to roll:
    tests/test_strict.py): the Germans' orders are locked and salted; the host rewrites them (text and hash) and
    adjudicates. Audit cannot know, but the report prints the hash of the orders it played, which is not the
    one `submit` printed to the Germans."""
    db = tmp_path / "strict.db"
    cli("new", db, "--game", "demo", "--dice", "strict", "--id", "s")
    sql(db, "update game set dice_mode = 'strict'")
    (tmp_path / "o.txt").write_text("power: Germans\nbuy 2 inf\nend\n")
    posted = cli.json("submit", db, "--power", "Germans", tmp_path / "o.txt")["sha256"]
    for power, salt in (("Russians", "red sky"), ("Italians", "blue sea")):
        cli("submit", db, "--power", power, "-", input=f"salt {salt}\n")
    swapped = "power: Germans\nbuy 5 inf\nend\n"
    sql(db, "update submission set text = ?, sha256 = ? where kind = 'turn'", swapped,
        hashlib.sha256(swapped.encode()).hexdigest())
    report = cli("adjudicate", db).output
    assert posted not in report and hashlib.sha256(swapped.encode()).hexdigest() in report
    assert "Germans, submission 1, sha256" in report
    assert cli.json("audit", db)["orders"][0]["sha256"] != posted


def test_the_orders_hash_is_in_every_report_format_and_in_rolls(cli, demo_db, tmp_path):
    from adjudicator.demo import SCRIPT
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    sha = cli.json("submit", demo_db, "--power", "Germans", tmp_path / "g.txt")["sha256"]
    assert sha == hashlib.sha256(SCRIPT["Germans"].encode()).hexdigest()
    cli("adjudicate", demo_db)
    for fmt in ("markdown", "bbcode", "text"):
        assert sha in cli("report", demo_db, "--format", fmt).output
    groups = cli.json("rolls", demo_db)
    assert groups and all(g["orders_sha256"] == sha for g in groups)
    assert cli.json("audit", demo_db)["orders"] == [{"seq": 1, "power": "Germans", "kind": "turn", "sha256": sha,
                                                      "status": "done"}]


# -- on two cores (adjudicator/audit_halves.py) ------------------------------------------------------

@pytest.fixture
def split_at(monkeypatch):
    """Make `audit` hand the submissions after the first `k` to a second process, on any machine; records whether
    the first process took the second's verdict (False: it replayed the rest itself)."""
    from adjudicator import audit_halves
    taken: list[bool] = []
    take_over = audit_halves.SecondHalf.take_over

    def spied(self, first):
        taken.append(take_over(self, first))
        return taken[-1]

    def split(k: int | None) -> list[bool]:
        monkeypatch.setattr(audit_halves, "split_point", lambda journal: k)
        return taken

    monkeypatch.setattr(audit_halves.SecondHalf, "take_over", spied)
    return split


def one_core(cli, db, code=0) -> str:
    from adjudicator import audit_halves
    enabled, audit_halves.ENABLED = audit_halves.ENABLED, False
    try:
        return cli("audit", db, code=code).output
    finally:
        audit_halves.ENABLED = enabled


@pytest.mark.parametrize("k", range(1, 10))
def test_two_cores_give_the_verdict_of_one_wherever_the_journal_is_split(cli, game_db, split_at, k):
    """Where orders are locked at the split (the second process cannot start there), the first replays alone."""
    alone = one_core(cli, game_db)
    taken = split_at(k)
    assert cli("audit", game_db).output == alone
    assert taken == [k not in LOCKED_AT]


LOCKED_AT = {4}         # the split before the Russians' order of loss, filed while the Germans' orders were locked;
                        # 5 and 6 split the Germans' turn played in two parts


@pytest.mark.parametrize("k", [2, 5, 8])
@pytest.mark.parametrize("tamper", TAMPERING, ids=[t.__name__ for t in TAMPERING])
def test_two_cores_name_the_first_mismatch_as_one_does(cli, game_db, split_at, tamper, k):
    """Tampered before the split, after it or at it: the same verdict, the same words."""
    tamper(game_db)
    alone = one_core(cli, game_db, code=1)
    split_at(k)
    assert cli("audit", game_db, code=1).output == alone


def test_the_split_falls_where_no_orders_are_locked(played, monkeypatch):
    from adjudicator import audit, audit_halves
    journal = audit.read_journal(str(played))
    subs = journal.submissions
    monkeypatch.setattr(audit_halves, "MIN_SUBMISSIONS", 2)
    monkeypatch.setattr(audit_halves, "_two_cores", lambda: True)
    found = set()
    for share in (0.1, 0.3, 0.5, 0.7, 0.9):
        monkeypatch.setattr(audit_halves, "SHARE", share)
        k = audit_halves.split_point(journal)       # None: no such point near the share
        if k is not None:
            assert all(s.turn_index < subs[k].turn_index for s in subs[:k] if s.kind == "turn")
            found.add(k)
    assert len(found) > 1 and not found & (LOCKED_AT | {5, 6})     # nor inside a turn played in two parts


def test_two_cores_bring_a_host_correction_forward(cli, game_db, split_at):
    """The second process starts after a host's correction: it must apply it as the journal has it."""
    cli("edit", game_db, "-", "--reason", "a forgotten payment", input="pus Germans 3\n")
    cli("submit", game_db, "--power", "Russians", "-", input="ool inf\n")
    alone = one_core(cli, game_db)
    taken = split_at(11)
    assert cli("audit", game_db).output == alone
    assert taken == [True]
