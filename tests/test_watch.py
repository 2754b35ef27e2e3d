"""`watch --once` hosting the demo game unattended (issue 33): orders read from the mailbox (IMAP) and the game's
forum topic, each message answered where it came from, each turn adjudicated and its report posted and mailed,
each exactly once, also when the round is run again; a stranger refused, changing nothing."""

from __future__ import annotations

import re
import sqlite3

import pytest

from adjudicator.demo import SCRIPT
from conftest import TEST_SEED
from mailroom import GAME_ID, IMAP_PASSWORD, PLAYERS, TOPIC, game_forum, imap, mail, maildir  # noqa: F401 (fixtures)
from test_delivery import smtp  # noqa: F401 (the mail server, a fixture)

pytestmark = pytest.mark.slow

ITALIAN_STANDING = "power: Italians\nool inf, art, arm\n"      # orders any time: answered at once
REPORT_MARK = re.compile(r"Delivery mark: game \S+, turn (\d+), report \d+, part (\d+) of (\d+)")
ANSWER_MARK = re.compile(r"Answer mark: game \S+, post (\d+), version")


@pytest.fixture
def hosted(cli, tmp_path, game_forum, imap, smtp):
    """The demo game kursk-1 with its topic: the Germans and the Russians play by mail, the Italians by forum."""
    db = tmp_path / "kursk.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", GAME_ID, "--topic", TOPIC,
        "--player", f"Germans={PLAYERS['Germans']}", "--player", f"Russians={PLAYERS['Russians']}",
        "--player", "Italians=forum:marco")
    return db


def host_posts(forum) -> list[dict]:
    return [p for p in forum.posts if p["tid"] == TOPIC and p["user"] == "host" and p["pid"] != forum.posts[0]["pid"]]


def report_parts(forum) -> list[tuple[int, int, int]]:
    return [tuple(map(int, m.groups())) for p in host_posts(forum) if (m := REPORT_MARK.search(p["raw"]))]


def answered_posts(forum) -> list[int]:
    return [int(m[1]) for p in host_posts(forum) if (m := ANSWER_MARK.search(p["raw"]))]


def replies_to(smtp, msgid: str) -> list:
    return [m for m in smtp.messages if str(m["In-Reply-To"] or "").strip() == msgid]


def message_id(raw: bytes) -> str:
    return re.search(rb"^Message-ID: *(\S+)", raw, re.M | re.I)[1].decode()


def test_a_whole_round_from_mail_and_posts_is_taken_played_answered_and_delivered_once(cli, hosted, game_forum,
                                                                                       imap, smtp):
    germans, russians, stranger = mail("01"), mail("02"), mail("14")
    for raw in (germans, stranger, russians):
        imap.append(raw)
    italians = game_forum.post_as(TOPIC, "marco", SCRIPT["Italians"])
    game_forum.post_as(TOPIC, "dmitri", "Good luck everyone!")                  # talk, not orders

    out = cli("watch", hosted, "--once")
    log = out.stderr

    status = cli.json("status", hosted)
    assert (status["round"], status["power"]) == (2, "Germans"), log
    # each turn's report posted once, whole, in turn order; and mailed once to the two players by mail
    parts = report_parts(game_forum)
    assert sorted({p[0] for p in parts}) == [1, 2, 3] and len(parts) == len(set(parts)), parts
    reports = [m for m in smtp.messages if m["Subject"].startswith(f"[{GAME_ID}] round")]
    assert all(m.envelope_to == [PLAYERS["Germans"], PLAYERS["Russians"]] for m in reports)
    assert sorted(m["Subject"] for m in reports) == sorted(
        f"[{GAME_ID}] round 1, {p}" for p in ("Germans", "Russians", "Italians")), [m["Subject"] for m in smtp.messages]
    # each message answered once where it came from: a mail threaded under the player's, a reply quoting the post
    for raw, words in ((germans, "Orders accepted for the Germans"), (russians, "Orders accepted for the Russians"),
                       (stranger, "is not the player of any power")):
        (answer,) = replies_to(smtp, message_id(raw))
        assert words in answer.get_content() and answer["Subject"].startswith("Re:") and f"[{GAME_ID}]" in \
            answer["Subject"] and message_id(raw) in answer["References"], answer
    (to_stranger,) = replies_to(smtp, message_id(stranger))
    assert to_stranger.envelope_to == ["stranger@example.com"]
    assert answered_posts(game_forum) == [italians]
    answer = next(p for p in host_posts(game_forum) if ANSWER_MARK.search(p["raw"]))
    assert answer["raw"].startswith("@marco") and "Orders accepted for the Italians" in answer["raw"]
    assert f"{GAME_ID}: mail" in log and "accepted for Germans" in log and "refused" in log, log

    # run again: nothing is taken, answered, played or delivered twice
    posts, mails = len(game_forum.posts), len(smtp.messages)
    again = cli("watch", hosted, "--once")
    assert (len(game_forum.posts), len(smtp.messages)) == (posts, mails), again.stderr
    assert cli.json("status", hosted)["round"] == 2


def test_a_stranger_changes_nothing_and_a_mail_for_no_game_is_left_unanswered(cli, hosted, imap, smtp):
    imap.append(mail("13"))                     # the German player's display name, another address
    imap.append(mail("16"))                     # another game's orders
    out = cli("watch", hosted, "--once")
    assert cli.json("status", hosted)["power"] == "Germans"
    assert cli.json("status", hosted)["phase"] == "purchase"
    (answer,) = replies_to(smtp, message_id(mail("13")))
    assert answer.envelope_to == ["juergen.mueller@example.com"] and "not taken" in answer.get_content()
    assert not replies_to(smtp, message_id(mail("16")))
    assert "addressed to none of the games watched" in out.stderr, out.stderr


def test_a_game_whose_topic_is_gone_and_a_damaged_game_are_skipped_while_the_others_play(cli, hosted, game_forum,
                                                                                          imap, smtp, tmp_path):
    gone = tmp_path / "gone.db"
    game_forum.open_topic(8, "host", "Game gone-1: orders here", "gone-1")
    cli("new", gone, "--game", "demo", "--seed", TEST_SEED, "--id", "gone-1", "--topic", 8,
        "--player", "Germans=someone@example.org")
    game_forum.delete_topic(8, purge=True)
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(hosted.read_bytes()[:8192])             # cut short, as a full disk leaves it
    imap.append(mail("01"))

    out = cli("watch", gone, damaged, hosted, "--once", code=4)
    assert cli.json("status", hosted)["power"] == "Russians", out.stderr
    assert re.search(r"^gone-1: failed, skipped until the next round: topic 8 does not exist", out.stderr, re.M)
    assert re.search(rf"^{re.escape(str(damaged))}: failed, skipped until the next round: .*damaged", out.stderr,
                     re.M), out.stderr
    assert len(replies_to(smtp, message_id(mail("01")))) == 1


def test_an_answer_refused_for_the_post_delay_goes_in_a_later_round_once(cli, hosted, game_forum):
    clock = game_forum.clock
    game_forum.clock = lambda: 0.0                 # the host's post delay never ends: a newcomer's long one, say
    marco = game_forum.post_as(TOPIC, "marco", ITALIAN_STANDING)
    mallory = game_forum.post_as(TOPIC, "mallory", SCRIPT["Germans"])       # a stranger: refused
    first = cli("watch", hosted, "--once").stderr
    assert answered_posts(game_forum) == [marco], first
    assert f"answer to post:{mallory}: left for a later round" in first
    game_forum.clock = clock                       # the delay is over
    cli("watch", hosted, "--once")
    cli("watch", hosted, "--once")
    assert answered_posts(game_forum) == [marco, mallory]
    assert cli.json("status", hosted)["phase"] == "purchase"
    answer = next(p for p in host_posts(game_forum) if f"post {mallory}," in p["raw"])
    assert "not the player of any power" in answer["raw"]


def test_an_answer_put_in_the_post_queue_is_never_posted_again_and_is_found_once_approved(cli, hosted, game_forum):
    game_forum.queued_users.add("host")
    marco = game_forum.post_as(TOPIC, "marco", ITALIAN_STANDING)
    assert f"answer to post:{marco}: in the forum's post queue" in cli("watch", hosted, "--once").stderr
    assert "in the forum's post queue" in cli("watch", hosted, "--once").stderr
    assert len(game_forum.queue) == 1 and not answered_posts(game_forum)
    approved = game_forum.approve()
    assert f"answer to post:{marco}: sent" in cli("watch", hosted, "--once").stderr
    assert answered_posts(game_forum) == [marco] and not game_forum.queue
    with sqlite3.connect(hosted) as conn:
        assert conn.execute("SELECT sent FROM reply").fetchall() == [(str(approved),)]


def test_mail_from_a_maildir_is_read_where_it_lies_and_each_mail_once(cli, hosted, maildir, smtp, monkeypatch):
    monkeypatch.delenv("ADJUDICATOR_IMAP_HOST", raising=False)
    for var in ("URL", "TOKEN", "USER", "PASSWORD"):
        monkeypatch.delenv(f"ADJUDICATOR_NODEBB_{var}", raising=False)
    first = maildir.deliver("01")
    maildir.arriving("02")                            # still being delivered: no one's to read yet
    assert "accepted for Germans" in cli("watch", hosted, "--once").stderr
    seen = maildir.seen(first)                        # the host's mail client showed it
    maildir.deliver("02")
    out = cli("watch", hosted, "--once").stderr
    assert "accepted for Russians" in out and "from juergen" not in out, out
    assert seen.exists() and len(list((maildir.path / "new").iterdir())) == 1
    assert cli.json("status", hosted)["power"] == "Italians"
    assert [len(replies_to(smtp, message_id(mail(n)))) for n in ("01", "02")] == [1, 1]


@pytest.mark.parametrize("settings, said", [
    ({"ADJUDICATOR_MAILDIR": "Maildir", "ADJUDICATOR_IMAP_HOST": "imap.example.org"}, "unset one"),
    ({"ADJUDICATOR_IMAP_HOST": "imap.example.org", "ADJUDICATOR_IMAP_SECURITY": "none"}, "would travel unencrypted"),
    ({"ADJUDICATOR_IMAP_HOST": "imap.example.org", "ADJUDICATOR_IMAP_PORT": "993x"}, "give a port number"),
    ({"ADJUDICATOR_IMAP_HOST": "imap.example.org"}, "ADJUDICATOR_IMAP_USER and ADJUDICATOR_IMAP_PASSWORD must"),
    ({"ADJUDICATOR_MAILDIR": "nowhere"}, "which is not a Maildir"),
    ({}, "nothing to watch"),
])
def test_settings_that_cannot_work_are_refused_before_anything_is_read(cli, demo_db, monkeypatch, settings, said):
    (demo_db.parent / "Maildir" / "new").mkdir(parents=True)
    (demo_db.parent / "Maildir" / "cur").mkdir()
    monkeypatch.setenv("ADJUDICATOR_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("ADJUDICATOR_SMTP_FROM", "host@example.org")
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    out = cli("watch", demo_db, "--once", code=2)
    assert said in out.stderr and "Traceback" not in out.output


def test_once_and_every_together_are_refused(cli, demo_db):
    assert "give one of them" in cli("watch", demo_db, "--once", "--every", "60", code=2).stderr


@pytest.mark.parametrize("setting, value, said", [
    ("PASSWORD", "wrong", "refused the login of host@example.org ([AUTHENTICATIONFAILED]"),
    ("FOLDER", "Orders", "has no folder 'Orders' to read"),
])
def test_a_mailbox_that_cannot_be_read_is_said_and_the_forum_still_read(cli, hosted, imap, game_forum,
                                                                        monkeypatch, setting, value, said):
    monkeypatch.setenv(f"ADJUDICATOR_IMAP_{setting}", value)
    imap.append(mail("01"))
    marco = game_forum.post_as(TOPIC, "marco", ITALIAN_STANDING)
    out = cli("watch", hosted, "--once", code=4).stderr
    assert said in out and "wrong" not in out.replace(said, ""), out
    assert answered_posts(game_forum) == [marco]
    monkeypatch.delenv(f"ADJUDICATOR_IMAP_{setting}")
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", IMAP_PASSWORD)
    monkeypatch.setenv("ADJUDICATOR_IMAP_FOLDER", "INBOX")
    assert "accepted for Germans" in cli("watch", hosted, "--once").stderr     # the mail waited for the next round


def test_a_folder_renumbered_is_read_again_and_nothing_is_taken_or_answered_twice(cli, hosted, imap, smtp):
    imap.append(mail("01"))
    cli("watch", hosted, "--once")
    sent = len(smtp.messages)
    imap.set_uidvalidity(imap.folders["INBOX"].uidvalidity + 1)       # the mail store rebuilt: new UIDs
    imap.append(mail("02"))
    out = cli("watch", hosted, "--once").stderr
    assert "from juergen" not in out and "accepted for Russians" in out, out
    assert [len(replies_to(smtp, message_id(mail(n)))) for n in ("01", "02")] == [1, 1]
    assert len(smtp.messages) == sent + 2                                 # the Russians' answer and report


def test_bad_mail_is_answered_and_the_mail_after_it_still_taken(cli, hosted, imap, smtp):
    for name in ("12", "11", "01"):              # bad orders, no orders, then the Germans' orders
        imap.append(mail(name))
    cli("watch", hosted, "--once")
    assert cli.json("status", hosted)["power"] == "Russians"
    (bad,) = replies_to(smtp, message_id(mail("12")))
    assert "line 4, column 1" in bad.get_content() and "line 6, column 33" in bad.get_content()
    (away,) = replies_to(smtp, message_id(mail("11")))
    assert "No line of your message reads as an order, so nothing was stored for the Russians" in away.get_content()
    (good,) = replies_to(smtp, message_id(mail("01")))
    assert "Orders accepted for the Germans" in good.get_content()


def test_a_refused_post_edited_into_good_orders_is_taken_and_answered_again(cli, hosted, game_forum):
    cli("contact", hosted, "--player", "Germans=forum:juergen")
    pid = game_forum.post_as(TOPIC, "juergen", SCRIPT["Germans"].replace("Poland > Belarus", "Poland > Belarrus"))
    cli("watch", hosted, "--once")
    assert cli.json("status", hosted)["power"] == "Germans"
    game_forum.edit(pid, SCRIPT["Germans"])
    cli("watch", hosted, "--once")
    assert cli.json("status", hosted)["power"] == "Russians"
    first, second = [p["raw"] for p in host_posts(game_forum) if f"post {pid}," in p["raw"]]
    assert "unknown place 'Belarrus'" in first and "Orders accepted for the Germans" in second
    posts = len(game_forum.posts)
    cli("watch", hosted, "--once")
    assert len(game_forum.posts) == posts


def test_in_a_league_a_damaged_game_is_skipped_and_the_others_play(cli, league, imap, smtp, monkeypatch):
    from sqlalchemy import create_engine, text
    from adjudicator.store.db import url_of
    for var in ("URL", "TOKEN"):
        monkeypatch.delenv(f"ADJUDICATOR_NODEBB_{var}", raising=False)
    for gid in ("bad-1", GAME_ID):
        cli("new", league, "--game", "demo", "--seed", TEST_SEED, "--id", gid, "--player",
            f"Germans={PLAYERS['Germans']}")
    engine = create_engine(url_of(league))
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET dice_mode = 'loaded' WHERE id = 'bad-1'"))
    engine.dispose()
    imap.append(mail("01"))
    out = cli("watch", league, "--once", code=4).stderr
    assert re.search(r"^bad-1: failed, skipped until the next round: .*dice_mode", out, re.M), out
    assert cli.json("status", league, "--id", GAME_ID)["power"] == "Russians"
    assert len(replies_to(smtp, message_id(mail("01")))) == 1


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_mail_is_read_over_tls_with_the_certificate_checked(cli, hosted, smtp, monkeypatch, tmp_path, security):
    from imap_standin import ImapStandIn
    from mailroom import IMAP_PASSWORD, IMAP_USER
    with ImapStandIn(users={IMAP_USER: IMAP_PASSWORD}, security=security) as server:
        trusted = tmp_path / "trusted.pem"                 # the mail servers' two authorities
        trusted.write_bytes(server.ca_file.read_bytes() + smtp.ca_file.read_bytes())
        for key, value in {"HOST": server.host, "PORT": str(server.port), "SECURITY": security,
                           "USER": IMAP_USER, "PASSWORD": IMAP_PASSWORD}.items():
            monkeypatch.setenv(f"ADJUDICATOR_IMAP_{key}", value)
        server.append(mail("01"))
        monkeypatch.setenv("SSL_CERT_FILE", str(smtp.ca_file))     # the IMAP server's authority not trusted
        assert "certificate is not trusted" in cli("watch", hosted, "--once", code=4).stderr
        monkeypatch.setenv("SSL_CERT_FILE", str(trusted))
        assert "accepted for Germans" in cli("watch", hosted, "--once").stderr


def test_a_round_that_could_not_answer_or_mail_ends_in_exit_4_for_cron(cli, hosted, imap, monkeypatch):
    """The mail server down: the German player's orders are taken and his turn played, but neither his answer nor
    the report can be mailed; `--once` says so with exit 4 (something waits for the next round), not 0."""
    import socket
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("ADJUDICATOR_SMTP_PORT", str(port))            # nothing listens there
    imap.append(mail("01"))
    out = cli("watch", hosted, "--once", code=4)
    assert "accepted for Germans" in out.stderr and "not sent, tried again next round" in out.stderr, out.stderr
    assert "not mailed, tried again next round" in out.stderr, out.stderr


def test_a_games_place_in_the_mailbox_is_kept_exactly():
    """A Maildir's place is a file time and an IMAP folder's a UID: kept with 6 digits (`1.79579e+09`), a time
    moved half an hour on and the mail that came meanwhile was never read; a UID past 999,999 was lost too."""
    from adjudicator.sources import Mark
    for last in (1795788123.456789, 1234567.0):
        assert Mark.parse(Mark("box", 3, last).text()) == Mark("box", 3, last)


def test_orders_sent_before_their_turn_wait_for_it_and_are_taken_when_it_comes(cli, hosted, game_forum, imap, smtp):
    """The Italians post, and the Russians mail, before the Germans' orders arrive: nothing is refused. A round
    with no German orders keeps them (unanswered, logged); the round the Germans' mail comes plays all three turns
    in turn order, whatever order the messages came in, and answers each once."""
    italians = game_forum.post_as(TOPIC, "marco", SCRIPT["Italians"])
    imap.append(mail("02"))                                                    # the Russians' orders
    first = cli("watch", hosted, "--once").stderr
    assert first.count("orders for a turn that has not come: kept until it has") == 2, first
    assert not answered_posts(game_forum) and not replies_to(smtp, message_id(mail("02")))
    assert cli.json("status", hosted)["power"] == "Germans"
    imap.append(mail("01"))                                                    # the Germans' orders, last
    second = cli("watch", hosted, "--once").stderr
    status = cli.json("status", hosted)
    assert (status["round"], status["power"]) == (2, "Germans"), second
    assert answered_posts(game_forum) == [italians] and len(replies_to(smtp, message_id(mail("02")))) == 1
    assert "kept until it has" not in second, second
