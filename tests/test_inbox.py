"""`adjudicator inbox`: a mail or a forum post taken into a game. The right player's orders are submitted as
`submit` takes them and answered with the orders as understood; a stranger (a spoofed display name too) is
refused and nothing changes; errors name the line and column of the player's own message; a message is taken
once, also when the command is killed at its commit; a forum account is known by its uid, pinned at first
sight, and an edited post is taken again only when its first version was refused."""

from __future__ import annotations

import json
import mailbox
import sqlite3
from pathlib import Path

import httpx
import pytest

from adjudicator.delivery.deliver import set_topic
from adjudicator.demo import SCRIPT
from adjudicator.incoming import from_mail, from_post
from adjudicator.intake import for_game
from adjudicator.store.db import choose, open_existing
from older_schema import as_schema
from processes import dying

GERMANS = SCRIPT["Germans"]
MAILS = Path(__file__).parent / "mails"


def mail(body: str, msgid: str, sender: str = "Hans <Hans@Example.org>", subject: str = "[t1] orders") -> str:
    return f"From: {sender}\nTo: host@example.org\nSubject: {subject}\nMessage-ID: <{msgid}@example.org>\n\n{body}\n"


def journal(db) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT seq, power, kind FROM submission ORDER BY seq").fetchall()


def intake(db) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT ref, power, accepted, submission FROM intake ORDER BY id").fetchall()


@pytest.fixture
def game(cli, demo_db):
    cli("contact", demo_db, "--player", "Germans=hans@example.org", "--player", "Russians=forum:ivan",
        "--player", "Italians=hans@example.org")
    return demo_db


def test_the_players_mail_is_accepted_once_and_a_strangers_refused_changing_nothing(cli, game, tmp_path):
    (tmp_path / "orders.eml").write_text(mail(GERMANS + "-- \nHans\n", "o1"))
    out = cli("inbox", game, "orders.eml")
    assert "== <o1@example.org> from hans@example.org: accepted for Germans" in out.output
    assert "  buy 2 infantry, 1 armour" in out.output and "(the whole turn" in out.output
    assert journal(game)[-1] == (2, "Germans", "turn")
    again = cli.json("inbox", game, "orders.eml")
    assert again == [{"ref": "<o1@example.org>", "sender": "hans@example.org", "accepted": True, "power": "Germans",
                      "already": True, "answer": again[0]["answer"]}]
    assert again[0]["answer"] == out.output.split("\n", 1)[1].rstrip("\n") and len(journal(game)) == 2
    (tmp_path / "orders.eml").write_text(mail(GERMANS.replace("2 inf,", "3 inf,"), "o1"))     # a mail is never edited
    assert cli.json("inbox", game, "orders.eml") == again and len(journal(game)) == 2

    before = cli.json("status", game)
    (tmp_path / "spoof.eml").write_text(mail(SCRIPT["Russians"], "s1", sender='"hans@example.org" <mallory@evil.example>'))
    refused = cli("inbox", game, "spoof.eml", code=1).output
    assert "mallory@evil.example is not the player of any power in game t1" in refused
    assert "nothing was changed" in refused and "hans" not in refused.split("\n", 1)[1]
    assert cli.json("status", game) == before and len(journal(game)) == 2
    assert intake(game) == [("<o1@example.org>", "Germans", 1, 2), ("<s1@example.org>", "", 0, None)]
    assert cli.json("inbox", game, "spoof.eml", code=1)[0]["already"] is True and len(intake(game)) == 2



def test_with_adjudicator_db_set_the_one_argument_is_the_message(cli, game, tmp_path, monkeypatch):
    """As `submit orders.txt` takes the game ADJUDICATOR_DB names, so does `inbox orders.eml`; a file that is no
    message and no game database is named as such, changing nothing."""
    (tmp_path / "orders.eml").write_text(mail(GERMANS, "o7"))
    monkeypatch.setenv("ADJUDICATOR_DB", str(game))
    assert "from hans@example.org: accepted for Germans" in cli("inbox", "orders.eml").output
    out = cli("inbox", "missing.eml", code=2)
    assert "no message file at missing.eml, and it is not a game database either" in out.output
    assert len(journal(game)) == 2

def test_errors_name_the_line_and_column_of_the_players_own_message(cli, game, tmp_path):
    body = ("power: Germans\n> Host wrote: it is your turn\nbuy 2 inf\ncm 3 inf Poland > Atlantis\nend\n\n"
            "On Mon, 5 Jan 2026 at 09:12, Host <host@example.org> wrote:\n> report\n")
    (tmp_path / "bad.eml").write_text(mail(body, "b1"))
    out = cli.json("inbox", game, "bad.eml", code=1)[0]
    assert not out["accepted"] and out["power"] == "Germans"
    assert "line 4, column 19: invalid" in out["answer"] and "    cm 3 inf Poland > Atlantis" in out["answer"]
    assert "send your whole orders again" in out["answer"] and len(journal(game)) == 1
    # the fix, a new mail, is taken
    (tmp_path / "fix.eml").write_text(mail(GERMANS, "b2"))
    assert cli.json("inbox", game, "fix.eml")[0]["accepted"]


def test_a_player_of_two_powers_names_one_and_an_html_only_mail_is_read(cli, game, tmp_path):
    unnamed = GERMANS.replace("power: Germans\n", "")
    (tmp_path / "two.eml").write_text(mail(unnamed, "i1"))
    out = cli.json("inbox", game, "two.eml", code=1)[0]
    assert "you play Germans and Italians in game t1" in out["answer"] and "`power: Germans`" in out["answer"]
    assert len(journal(game)) == 1
    html = "".join(f"<div>{line}</div>" for line in unnamed.splitlines())
    html_mail = mail(html, "h1", subject="[t1] Germans, round 1").replace("\n\n", "\nContent-Type: text/html\n\n", 1)
    (tmp_path / "h.eml").write_text(html_mail)
    assert cli.json("inbox", game, "h.eml")[0] | {"answer": ""} == {
        "ref": "<h1@example.org>", "sender": "hans@example.org", "accepted": True, "power": "Germans",
        "already": False, "answer": ""}


def test_a_forum_account_is_its_uid_pinned_at_first_sight_and_an_edit_is_taken_only_after_a_refusal(cli, game,
                                                                                                     tmp_path):
    cli("submit", game, "--power", "Germans", "-", input=GERMANS)
    cli("adjudicate", game)

    def posted(orders: str, uid: int, username: str, display: str, pid: int = 50) -> dict:
        content = "<p>" + "<br />\n".join(orders.splitlines()) + "</p>\n"
        return {"pid": pid, "tid": 9, "uid": uid, "content": content,
                "user": {"uid": uid, "username": username, "displayname": display}}

    def take(post: dict, code: int = 0) -> dict:
        (tmp_path / "post.json").write_text(json.dumps(post))
        return cli.json("inbox", game, "post.json", code=code)[0]

    cli("contact", game, "--player", "Italians=@luigi")          # a name to mention in reports only
    assert "`adjudicator contact --player Italians=forum:Luigi`" in take(posted(SCRIPT["Italians"], 8, "Luigi",
                                                                               "Luigi", 48), 1)["answer"]
    # someone who calls himself "ivan" is no one: the display name is not the account
    assert "forum account mallory (user id 66) is not the player" in take(posted(SCRIPT["Russians"], 66, "mallory",
                                                                                  "ivan", 49), 1)["answer"]
    bad = take(posted(SCRIPT["Russians"].replace("4 inf", "4 zeppelins"), 7, "Ivan", "Ivan the Player"), 1)
    assert bad["power"] == "Russians" and "line 3" in bad["answer"]
    assert cli.json("status", game)["powers"]["Russians"]["contact"] == "forum:ivan#7"     # pinned, journalled
    good = take(posted(SCRIPT["Russians"], 7, "ivan_renamed", "Ivan"))                      # edited: taken anew
    assert good["accepted"] and good["power"] == "Russians"
    late = take(posted(SCRIPT["Russians"].replace("Moscow", "Leningrad", 1), 7, "ivan", "Ivan"), 1)
    assert "edited after its orders were accepted" in late["answer"] and "the edit changed nothing" in late["answer"]
    assert [k for _, p, k in journal(game) if p == "Russians"] == ["turn"]
    assert cli.json("audit", game)["ok"]


def test_a_kill_at_the_commit_leaves_the_message_taken_with_its_orders_or_not_at_all(cli, game, tmp_path):
    (tmp_path / "o.eml").write_text(mail(GERMANS, "k1"))
    cut = dying("sqlalchemy.orm.session:Session.commit", "before", "inbox", game, tmp_path / "o.eml")
    assert cut.code == 137 and intake(game) == [] and len(journal(game)) == 1
    done = dying("sqlalchemy.orm.session:Session.commit", "after", "inbox", game, tmp_path / "o.eml")
    assert done.code == 137 and intake(game) == [("<k1@example.org>", "Germans", 1, 2)] and len(journal(game)) == 2
    assert cli.json("inbox", game, "o.eml")[0]["already"] and len(journal(game)) == 2


def test_an_older_database_is_upgraded_and_messages_are_known_to_be_for_their_game(cli, game, tmp_path):
    as_schema(game, 5)
    (tmp_path / "o.eml").write_text(mail(GERMANS, "u1"))
    assert cli.json("inbox", game, "o.eml")[0]["accepted"]
    engine = choose(open_existing(str(game)), str(game))
    assert for_game(engine, from_mail(mail(GERMANS, "u2").encode()))
    assert not for_game(engine, from_mail(mail(GERMANS, "u3", subject="[t2] orders").encode()))
    set_topic(engine, "9")
    assert for_game(engine, from_post({"pid": 1, "uid": 7, "content": "", "tid": 9}, 9))
    assert not for_game(engine, from_post({"pid": 1, "uid": 7, "content": "", "tid": 10}, 10))


def test_a_round_of_real_clients_mails_is_taken_and_every_bad_one_refused_changing_nothing(cli, tmp_path):
    """tests/mails: the players' mails of game kursk-1 as Thunderbird, Gmail and Outlook write them."""
    db = tmp_path / "kursk.db"
    cli("new", db, "--game", "demo", "--id", "kursk-1", "--player", "Germans=juergen@example.org",
        "--player", "Russians=Dmitri.Volkov@example.com", "--player", "Italians=marco.rossi@example.org")

    def take(name: str, code: int) -> dict:
        return cli.json("inbox", db, MAILS / name, code=code)[0]

    bad = take("12-bad-orders-germans.eml", 1)["answer"]
    assert "line 4, column 1: illegal: Germans has 3 infantry in Poland, not 9" in bad
    assert "line 6, column 33: invalid: unknown place 'Belarrus': did you mean Belarus?" in bad
    for stranger in ("13-spoofed-same-name.eml", "14-spoofed-power-name.eml"):
        answer = take(stranger, 1)
        assert answer["power"] is None and "is not the player of any power in game kursk-1" in answer["answer"]
    away = take("11-no-orders-russians.eml", 1)["answer"]
    assert away.startswith("No line of your message reads as an order, so nothing was stored for the Russians")
    attached = take("09-txt-attachment-russians.eml", 1)["answer"]
    assert "Note: the attachment 'russians-round1.txt' was not read" in attached
    assert journal(db) == [] and cli.json("status", db)["power"] == "Germans"

    german = take("01-thunderbird-germans.eml", 0)["answer"]
    assert "Note: lines 1-4 and 22 of your message, before the `power:` line or after `end`" in german
    cli("adjudicate", db)
    assert "  ncm 2 infantry Moscow > Smolensk" in take("06-reply-quoting-report-russians.eml", 0)["answer"]
    cli("adjudicate", db)
    assert "  ncm 1 fighter Italy > Germany" in take("03-outlook-italians.eml", 0)["answer"]    # HTML only
    assert [(p, k) for _, p, k in journal(db)] == [("Germans", "turn"), ("Russians", "turn"), ("Italians", "turn")]

    box = mailbox.mbox(tmp_path / "mixed.mbox")
    for name in ("16-other-game-russians.eml", "17-no-message-id-italians.eml"):
        box.add((MAILS / name).read_bytes())
    box.close()
    mixed = cli.json("inbox", db, tmp_path / "mixed.mbox", code=1)       # Italians' turn is taken: refused
    assert [a.get("skipped", False) for a in mixed] == [True, False] and mixed[1]["power"] == "Italians"
    assert len(journal(db)) == 3

    engine = choose(open_existing(str(db)), str(db))
    for name, ours in (("16-other-game-russians.eml", False), ("07-forwarded-chain-italians.eml", False),
                       ("02-gmail-russians.eml", True)):
        assert for_game(engine, from_mail((MAILS / name).read_bytes())) is ours, name


def test_what_is_no_message_is_refused_with_what_to_give_and_plain_text_needs_its_sender(cli, game, tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.eml").write_text("")
    for given, said in (("folder", "is a folder but no Maildir"), ("empty.eml", "is empty")):
        out = cli("inbox", game, given, code=2)
        assert out.output.startswith(f"error: {given} {said}") and "Traceback" not in out.output
    assert cli("inbox", game, "-", input=GERMANS, code=2).output.startswith(
        "error: standard input holds plain text, not a mail or a forum post: say who sent these orders with --from")
    assert journal(game) == [(1, "host", "contact")] and intake(game) == []
    out = cli.json("inbox", game, "-", "--from", "HANS@example.org", input=GERMANS)[0]
    assert out["accepted"] and out["sender"] == "hans@example.org" and out["ref"].startswith("sha256:")


def test_a_forum_account_is_pinned_to_its_uid_when_given_if_a_forum_is_set(cli, tmp_path, monkeypatch):
    from nodebb_standin import NodeBBStandIn
    with NodeBBStandIn(tokens={"tok": "host"}, users={"ivan": "pw", "marco": "pw", "otto": "pw"}) as forum:
        monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", forum.url)
        monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok")
        db = tmp_path / "g.db"
        cli("new", db, "--game", "demo", "--id", "t1", "--player", "Russians=forum:ivan", "--topic", "7")
        refused = cli("contact", db, "--player", "Italians=forum:Marco Rossi", "--player", "Germans=forum:marco",
                      code=2).output
        assert "the forum has no account with the username 'Marco Rossi'" in refused
        assert [r["path"] for r in forum.requests if "/user/" in r["path"]] == [
            "/forums/api/user/username/ivan", "/forums/api/user/username/Marco%20Rossi"]
        # the account the adjudicator posts as is no player's: its posts are the reports, never orders
        own = cli("contact", db, "--player", "Germans=forum:host", code=2).output
        assert "that is the account the adjudicator posts as" in own
        cli("contact", db, "--player", "Italians=forum:marco", "--player", "Germans=forum:otto")
        contacts = {p: c["contact"] for p, c in cli.json("status", db)["powers"].items()}
        assert (contacts["Russians"], contacts["Italians"]) == ("forum:ivan#1", "forum:marco#2")
        assert contacts["Germans"].startswith("forum:otto#")

        # the topic as the forum serves it: Markdown rendered, a quote of the post replied to, orders in a code block
        forum.open_topic(7, "host", "Game t1 starts: Germans to move.")
        pid = forum.post_as(7, "otto", "@ivan said in [Game 7](/post/1):\n> Germans to move.\n\nHere they are:\n\n"
                                       "```\n" + GERMANS + "```\n\ngood luck")
        page = httpx.get(f"{forum.url}/api/topic/7").json()
        (tmp_path / "topic.json").write_text(json.dumps(page))
        out = cli.json("inbox", db, "topic.json", code=1)
        assert [(a["ref"], a["accepted"], a["power"]) for a in out] == [("post:1", False, None),
                                                                        (f"post:{pid}", True, "Germans")]
        assert "is not the player of any power" in out[0]["answer"]
        forum.edit(pid, "power: Germans\nbuy 9 inf\nend")
        (tmp_path / "topic.json").write_text(json.dumps(httpx.get(f"{forum.url}/api/topic/7").json()))
        assert "the edit changed nothing" in cli.json("inbox", db, "topic.json", code=1)[1]["answer"]


def test_what_a_player_who_sent_the_wrong_thing_is_told(cli, game, tmp_path):
    """From a host's trial of the answers: the acceptance gives the hash the report prints; a correction sent
    behind accepted orders says those stand; orders headed with another player's power are refused in one line;
    a second power's orders in the same mail are named as not read."""
    (tmp_path / "o.eml").write_text(mail(GERMANS, "c1"))
    accepted = cli.json("inbox", game, "o.eml")[0]
    with sqlite3.connect(game) as con:        # the hash the report prints under "Orders as locked"
        (digest,) = con.execute("SELECT sha256 FROM submission WHERE seq = 2").fetchone()
    assert f"(submission 2, sha256 {digest}: the turn's report prints" in accepted["answer"], accepted["answer"]
    (tmp_path / "fix.eml").write_text(mail(GERMANS.replace("2 inf,", "3 inf,"), "c2", subject="[t1] CORRECTION"))
    fix = cli.json("inbox", game, "fix.eml", code=1)[0]["answer"]
    assert fix.startswith("Your orders of <c1@example.org> (submission 2) were taken before this message and are "
                          "locked, to be played next: this message changed nothing."), fix
    (tmp_path / "other.eml").write_text(mail(SCRIPT["Russians"], "c3"))
    other = cli.json("inbox", game, "other.eml", code=1)[0]["answer"]
    assert other.startswith("These orders were not taken, and nothing was changed: they are headed `power: "
                            "Russians`, and you play Germans and Italians in game t1."), other
    assert "line" not in other.split("\n")[0].split("game t1.")[1]             # no cascade of the Russians' errors
    both = SCRIPT["Italians"] + "\n" + SCRIPT["Germans"]
    (tmp_path / "both.eml").write_text(mail(both, "c4"))
    said = cli.json("inbox", game, "both.eml", code=1)[0]["answer"]
    second = both.splitlines().index("power: Germans") + 1
    assert f"line {second} starts orders for another power (`power: Germans`), which were not read" in said, said


def test_plain_text_given_with_another_sender_is_another_message(cli, game, tmp_path):
    """`inbox orders.txt --from`: the host's typo in the sender is refused, and the same file with the right
    sender is taken, not answered 'taken before' (the file and its sender are the message)."""
    (tmp_path / "g.txt").write_text(GERMANS)
    assert "not the player of any power" in cli("inbox", game, "g.txt", "--from", "hans@example.com", code=1).output
    out = cli("inbox", game, "g.txt", "--from", "hans@example.org").output
    assert "accepted for Germans" in out and "taken before" not in out
