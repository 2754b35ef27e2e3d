"""`adjudicator contact`: a player's mail address or forum name is added or changed after `new` (a new address,
a power changing hands), journalled like a host's correction and replayed by `audit`, without touching the
position or the dice; a wrong power or a malformed address is refused and changes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator.demo import SCRIPT
from conftest import TEST_SEED
from test_audit import one_core, split_at  # noqa: F401  (fixture)
from test_delivery import smtp  # noqa: F401  (fixture)


def contacts(cli, db) -> dict[str, str]:
    return {name: p["contact"] for name, p in cli.json("status", db)["powers"].items()}


def journalled(db) -> list[tuple[str, str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT power, kind, text FROM submission ORDER BY seq").fetchall()


def test_contacts_added_and_changed_after_new_are_journalled_audited_and_leave_the_dice_alone(cli, demo_db, tmp_path,
                                                                                            monkeypatch):
    assert set(contacts(cli, demo_db).values()) == {""}
    before = cli.json("status", demo_db)
    out = cli.json("contact", demo_db, "--player", "Germans=hans@example.org", "--player", "Russia=@ivan_forum")
    assert out["changes"] == [{"power": "Germans", "was": "", "now": "hans@example.org"},
                              {"power": "Russians", "was": "", "now": "@ivan_forum"}]
    shown = cli("contact", demo_db, "--player", "Germans=fritz@example.org").output
    assert "Germans: hans@example.org -> fritz@example.org" in shown
    after = cli.json("status", demo_db)
    assert {p: c for p, c in contacts(cli, demo_db).items() if c} == {"Germans": "fritz@example.org",
                                                                       "Russians": "@ivan_forum"}
    assert after["state_hash"] == before["state_hash"] and after["awaiting"] == before["awaiting"]
    assert journalled(demo_db) == [("host", "contact", "Germans=hans@example.org\nRussians=@ivan_forum\n"),
                                   ("host", "contact", "Germans=fritz@example.org\n")]

    # the turn is played as it is in the same game without the changes: same dice, same position
    twin = tmp_path / "twin.db"
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    for db, keys in ((demo_db, "keys"), (twin, "twin_keys")):
        monkeypatch.setenv("ADJUDICATOR_KEYS_DIR", str(tmp_path / keys))
        if db == twin:
            cli("new", twin, "--game", "demo", "--seed", TEST_SEED, "--id", "t1")
        cli("submit", db, "--power", "Germans", tmp_path / "g.txt")
        if db == demo_db:
            cli("contact", db, "--player", "Italians=luigi@example.org")     # while the orders are locked
        cli("adjudicate", db)
    assert cli.json("rolls", demo_db) == cli.json("rolls", twin)
    assert cli.json("status", demo_db)["state_hash"] == cli.json("status", twin)["state_hash"]
    monkeypatch.setenv("ADJUDICATOR_KEYS_DIR", str(tmp_path / "keys"))
    cli("contact", demo_db, "--player", "Russians=ivan@example.org")         # between turns
    assert cli.json("audit", demo_db)["ok"]

    with sqlite3.connect(demo_db) as con:
        con.execute("UPDATE submission SET text = 'Germans=mallory@example.org\n' WHERE seq = 2")
    assert "SHA-256 of its text" in cli.json("audit", demo_db, code=1)["mismatch"]["message"]


@pytest.mark.parametrize("given, fragment", [
    (["Gremans=hans@example.org"], "Gremans: not a power of this game (did you mean Germans?)"),
    (["Germans=hans@"], "'hans@' is no mail address"),
    (["Germans=hans @example.org"], "is no mail address"),
    (["Germans=@hans@example.org"], "is no mail address"),
    (["Germans="], "the contact is empty"),
    (["Germans"], "--player takes POWER=CONTACT"),
    (["Germans=hans@example.org\nBcc: all@example.org"], "printable characters"),
    ([], "give the new contacts as --player POWER=CONTACT"),
    (["Germans=hans@example.org", "Italians=luigi@example"], "'luigi@example' is no mail address"),
    (["Germans=hans@example.org", "Germany=fritz@example.org"], "names Germans twice"),
])
def test_a_wrong_contact_is_refused_and_changes_nothing(cli, demo_db, given, fragment):
    cli("contact", demo_db, "--player", "Russians=ivan@example.org")
    before, journal = contacts(cli, demo_db), journalled(demo_db)
    args = [a for g in given for a in ("--player", g)]
    out = cli.json("contact", demo_db, *args, code=2)
    assert fragment in out["error"]
    assert "Traceback" not in out["error"]
    assert contacts(cli, demo_db) == before and journalled(demo_db) == journal


def test_new_refuses_a_malformed_address_as_contact_does(cli, tmp_path):
    out = cli("new", tmp_path / "g.db", "--game", "demo", "--player", "Germans=hans@example", code=2)
    assert "'hans@example' is no mail address" in out.output
    assert not (tmp_path / "g.db").exists()


@pytest.mark.parametrize("k", [1, 2, 3])
def test_contact_changes_audit_alike_on_two_cores_wherever_the_journal_is_split(cli, demo_db, tmp_path, split_at, k):
    """The second process fast-forwards over a contact change as over no change of the position."""
    for power in ("Germans", "Russians"):
        (tmp_path / f"{power}.txt").write_text(SCRIPT[power])
    cli("contact", demo_db, "--player", "Germans=hans@example.org")
    cli("submit", demo_db, "--power", "Germans", tmp_path / "Germans.txt")
    cli("adjudicate", demo_db)
    cli("contact", demo_db, "--player", "Russians=ivan@example.org")
    cli("submit", demo_db, "--power", "Russians", tmp_path / "Russians.txt")
    cli("adjudicate", demo_db)
    alone = one_core(cli, demo_db)
    taken = split_at(k)
    assert cli("audit", demo_db).output == alone
    assert taken == [k != 1]            # at 1 no step is made yet: the second process has no position to start from


def test_the_report_is_mailed_to_the_contacts_as_they_are_when_it_goes(cli, demo_db, tmp_path, smtp):
    """A player who gave an address after `new` gets the report; one who moved gets it at the new address only."""
    for power in ("Germans", "Russians"):
        (tmp_path / f"{power}.txt").write_text(SCRIPT[power])
    cli("contact", demo_db, "--player", "Germans=hans@example.org", "--player", "Russians=ivan@example.org")
    cli("submit", demo_db, "--power", "Germans", tmp_path / "Germans.txt")
    cli("adjudicate", demo_db, "--mail")
    cli("contact", demo_db, "--player", "Germans=fritz@example.org")
    cli("submit", demo_db, "--power", "Russians", tmp_path / "Russians.txt")
    cli("adjudicate", demo_db, "--mail")
    received: dict[str, set[str]] = {}
    for m in smtp.messages:
        received.setdefault(m["Subject"], set()).update(m.envelope_to)
    assert received == {"[t1] round 1, Germans": {"hans@example.org", "ivan@example.org"},
                        "[t1] round 1, Russians": {"fritz@example.org", "ivan@example.org"}}
