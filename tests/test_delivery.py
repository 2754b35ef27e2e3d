"""Reports delivered end to end: a demo game adjudicated, posted to a NodeBB stand-in and mailed through a real
SMTP server on loopback, received intact; what a failure leaves, and that nothing goes out twice."""

from __future__ import annotations

import sqlite3
from functools import partial

import pytest

from adjudicator import verify
from adjudicator.delivery import nodebb
from adjudicator.demo import SCRIPT
from conftest import TEST_SEED
from nodebb_standin import NodeBBStandIn
from smtp_server import SMTPServer
from test_nodebb import Clock

TOKEN, USER, PASSWORD = "tok-host", "host", "pw-host"
TOPIC = 7
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def forum(monkeypatch):
    """The stand-in forum, its post delay kept on a fake clock that the in-process client's waits (post delay,
    back-off) advance: they wait out the forum as before, in no time. A client process still waits for real."""
    clock = Clock()
    monkeypatch.setattr(nodebb, "NodeBB", partial(nodebb.NodeBB, sleep=clock.sleep))
    with NodeBBStandIn(tokens={TOKEN: USER}, users={USER: PASSWORD, "bob": "x"}, topics={TOPIC}, post_delay=1,
                       clock=clock) as f:
        monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", f.url)
        monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", TOKEN)
        monkeypatch.setenv("ADJUDICATOR_NODEBB_USER", USER)
        monkeypatch.setenv("ADJUDICATOR_NODEBB_PASSWORD", PASSWORD)
        yield f


@pytest.fixture
def smtp(monkeypatch):
    with SMTPServer("starttls", auth={"host@example.org": "mail-pw"}) as server:
        monkeypatch.setenv("SSL_CERT_FILE", str(server.ca_file))
        for key, value in {"HOST": server.host, "PORT": str(server.port), "SECURITY": "starttls",
                           "USER": "host@example.org", "PASSWORD": "mail-pw", "FROM": "host@example.org"}.items():
            monkeypatch.setenv(f"ADJUDICATOR_SMTP_{key}", value)
        yield server


@pytest.fixture
def game(cli, tmp_path):
    db = tmp_path / "pbem.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "pbem-1", "--topic", f"https://forum.example/topic/{TOPIC}/kursk",
        "--player", "Germans=hans@example.org", "--player", "Russians=ivan@example.org", "--player", "Italians=@bob")
    return db


def test_a_two_turn_game_is_posted_and_mailed_and_both_arrive_intact(cli, game, forum, smtp):
    for power in ("Germans", "Russians"):
        cli("submit", game, "--power", power, "-", input=SCRIPT[power])
        out = cli("adjudicate", game, "--post", "--mail")
        assert "posted turn" in out.stderr and "mailed turn" in out.stderr
    posts = [p for p in forum.posts if p["tid"] == TOPIC]
    assert len(posts) == 2
    for turn, post in enumerate(posts, 1):
        assert f"round 1, {['Germans', 'Russians'][turn - 1]}" in post["raw"]
        for text in (post["raw"], post["html"]):                     # as stored, and as the forum shows it
            blocks = verify.check(text)
            assert [(b.status, b.turn) for b in blocks] == [("match", turn)], [b.problems for b in blocks]
        assert f"![Map after turn {turn}](" in post["raw"]
    assert [u["data"][:8] for u in forum.uploads] == [PNG, PNG]
    assert forum.uploads[0]["url"] in posts[0]["raw"]
    def dice(text):
        return [(g.label, g.values) for g in verify.check(text)[0].groups]
    assert dice(posts[0]["html"]) == dice(cli("report", game, "--turn", 1).stdout)

    mails = smtp.messages
    assert [m["Subject"] for m in mails] == ["[pbem-1] round 1, Germans", "[pbem-1] round 1, Russians"]
    for turn, message in enumerate(mails, 1):
        assert sorted(message.envelope_to) == ["hans@example.org", "ivan@example.org"]
        body = message.get_body(("plain",)).get_content()
        assert [(b.status, b.turn) for b in verify.check(body)] == [("match", turn)]
        assert body == cli("report", game, "--turn", turn, "--format", "text").stdout.rstrip("\n") + "\n"
        pictures = [part for part in message.iter_attachments() if part.get_content_type() == "image/png"]
        assert len(pictures) == 1 and pictures[0].get_content()[:8] == PNG

    assert "already posted" in cli("post", game, "--turn", 1).stdout       # never twice
    assert "already mailed" in cli("mail", game, "--turn", 2).stdout
    assert len(forum.posts) == 2 and len(smtp.messages) == 2
    assert forum.notified == []                                               # "@bob" notifies nobody


def test_a_forum_that_fails_keeps_the_turn_and_post_sends_it_later(cli, game, forum):
    forum.fail_next = [503] * 6                      # more than the client's five tries
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    out = cli("adjudicate", game, "--post", code=4)
    assert "The turn is adjudicated and kept" in out.stderr and "## Demo" in out.stdout
    assert cli.json("status", game)["power"] == "Russians"
    assert forum.posts == []
    assert "posted turn 1" in cli("post", game).stdout
    assert len(forum.posts) == 1


def test_a_long_report_goes_out_in_parts_and_a_retry_posts_only_the_rest(cli, game, forum, monkeypatch):
    forum.max_post_length = 3600
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", game)
    out = cli("post", game, "--no-picture")
    parts = [p["raw"] for p in forum.posts]
    assert len(parts) >= 2 and "posted turn 1" in out.stdout
    for k, text in enumerate(parts, 1):
        assert f"(part {k} of {len(parts)})" in text and len(text) <= 3600
        assert [b.status for b in verify.check(text)] == ["match"]
    with sqlite3.connect(game) as con:                  # as if the forum had failed after the first part
        con.execute("delete from delivery where part > 1")
    del forum.posts[1:]
    cli("post", game)
    assert [p["raw"] for p in forum.posts] == parts


def test_post_and_adjudicate_post_refuse_without_the_settings_they_need(cli, tmp_path, monkeypatch):
    db = tmp_path / "g.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "g")
    cli("submit", db, "--power", "Germans", "-", input=SCRIPT["Germans"])
    for key in ("URL", "TOKEN"):
        monkeypatch.delenv(f"ADJUDICATOR_NODEBB_{key}", raising=False)
    assert "ADJUDICATOR_NODEBB_URL is not set" in cli("adjudicate", db, "--post", code=2).stderr
    monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", "http://127.0.0.1:9/forum")
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "t")
    assert "no forum topic yet" in cli("adjudicate", db, "--post", code=2).stderr
    assert "ADJUDICATOR_SMTP_HOST is not set" in cli("adjudicate", db, "--mail", code=2).stderr
    assert cli.json("status", db)["awaiting"] == "adjudicate"             # nothing was played
    for topic in ("kursk", "9" * 5000, "\u0661\u0662"):  # int() fails on 5000 digits, reads Arabic-Indic
        assert "topic is given by its number" in cli("post", db, "--topic", topic, code=2).stderr
    monkeypatch.setenv("ADJUDICATOR_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("ADJUDICATOR_SMTP_FROM", "host@example.org")
    assert "no player of this game has a mail address" in cli("mail", db, code=2).stderr


def test_a_queued_post_is_not_taken_for_a_post(cli, game, forum):
    forum.queued_users.add(USER)
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    out = cli("adjudicate", game, "--post", code=4)
    assert "queue" in out.stderr
    with sqlite3.connect(game) as con:        # intended, not posted: once approved, `post` finds it in the topic
        assert con.execute("select part, ref from delivery").fetchall() == [(1, "")]


def test_post_and_mail_use_ADJUDICATOR_DB_when_no_database_is_named(cli, game, forum, smtp, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_DB", str(game))
    cli("submit", "--power", "Germans", input="end\n")
    cli("adjudicate")
    assert "posted turn 1 to topic 7" in cli("post", "--no-picture").stdout
    assert "mailed turn 1 to hans@example.org, ivan@example.org" in cli("mail", "--no-picture").stdout
    assert len(forum.posts) == 1 and len(smtp.messages) == 1


def test_without_the_upload_login_the_post_has_no_map_line_and_the_host_is_told(cli, game, forum, monkeypatch):
    """The map cannot be uploaded without the forum login: the players' post says nothing of the host's settings
    (it once said 'Map: not uploaded (… ADJUDICATOR_NODEBB_USER …)'); the host reads it in the command's warning."""
    monkeypatch.delenv("ADJUDICATOR_NODEBB_PASSWORD")
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    out = cli("adjudicate", game, "--post")
    posts = [p for p in forum.posts if p["tid"] == TOPIC]
    assert posts and not any("ADJUDICATOR_" in p["raw"] or "Map:" in p["raw"] for p in posts)
    assert "warning: no map picture: the forum login for uploads (ADJUDICATOR_NODEBB_USER and _PASSWORD)" in out.stderr
    assert forum.uploads == []
