"""`kill -9` of `post` and `mail` while the forum or the mail server holds the request, and at random moments, as
real processes: run again, `post` leaves each part in the topic exactly once, and `mail` sends a mail whose
answer never came again as the same message (the same Message-ID), and never one that was recorded (issue 27,
"Trust when someone tries": delivered twice after a kill).

Each runs on a SQLite file and on a game of a league's PostgreSQL database, there at a third as many moments."""

from __future__ import annotations

import re
import sqlite3

import pytest

from adjudicator import verify
from adjudicator.demo import SCRIPT
from backends import BACKENDS, new_args, target
from conftest import TEST_SEED
from processes import killed, race, run
from test_delivery import TOPIC, USER, forum, smtp  # noqa: F401 (the stand-in forum and mail server, as fixtures)
from test_kills import moments, timed

pytestmark = pytest.mark.slow

HELD = 10            # kills while the forum or the server holds the request, per backend (a league: a third)
ADDRESSES = ["hans@example.org", "ivan@example.org"]
_PART = re.compile(r"\(part (\d+) of (\d+)\)$", re.M)          # the report's heading of a part


@pytest.fixture(params=BACKENDS)
def game(request, tmp_path):
    """The demo game after the Germans' turn, not delivered yet, with a topic and two players' addresses. Made by
    processes of their own, which leave no connection to a league's database behind: it is cloned."""
    g = target(request, tmp_path, "pbem")
    for args, orders in ((["new", *new_args(g), "--game", "demo", "--seed", TEST_SEED, "--topic", TOPIC, "--player",
                           f"Germans={ADDRESSES[0]}", "--player", f"Russians={ADDRESSES[1]}"], None),
                         (["submit", *g.args, "--power", "Germans", "-"], SCRIPT["Germans"]),
                         (["adjudicate", *g.args], None)):
        out = run(*args, input=orders)
        assert out.code == 0, out.err
    return g


@pytest.fixture
def slow_forum(forum):
    """The forum, posting at once, with a report in three parts or more."""
    forum.post_delay = 0
    forum.max_post_length = 3000
    return forum


def topic_parts(forum) -> list[tuple[int, int]]:
    """(part, of) of every post in the topic, in the order posted: a complete report reads (1, n) … (n, n)."""
    return [tuple(map(int, _PART.search(p["raw"]).groups())) for p in forum.posts if p["tid"] == TOPIC]


def posted_once(cli, g, forum) -> None:
    """Run after a kill, `post` leaves each part in the topic exactly once, in order, each verifying on its own
    (the mark line at its end is no part of the dice), recorded with its post id; run again, it posts nothing."""
    cli("post", *g.args)
    parts = topic_parts(forum)
    assert parts == [(k, parts[0][1]) for k in range(1, parts[0][1] + 1)], parts
    assert all([b.status for b in verify.check(p["html"])] == ["match"] for p in forum.posts)
    recorded = g.sql("select part, ref from delivery where game_id = :game and channel = 'nodebb' order by part")
    assert recorded == [(k, str(p["pid"])) for k, p in enumerate(forum.posts, 1)]
    assert "already posted" in cli("post", *g.args).stdout
    assert topic_parts(forum) == parts


def test_post_killed_while_the_forum_holds_the_reply_posts_each_part_once(cli, game, slow_forum):
    cli("post", *game.clone("probe").args, "--no-picture")
    parts = len(slow_forum.posts)
    assert parts >= 3
    for k in range(game.fewer(HELD, 3)):
        copy = game.clone(f"k{k}")
        slow_forum.posts.clear()
        at = k % parts + 1                           # the part whose answer never comes
        # that part stored, then answered late: the kill falls in between; the parts before it answered at once
        slow_forum.answer_time = lambda stored, at=at: 2.0 if stored >= at else 0.0
        out = killed(["post", *copy.args, "--no-picture"], 60, when=lambda: len(slow_forum.posts) >= at)
        assert out.code == -9 and len(slow_forum.posts) == at, (out.code, out.err)
        slow_forum.answer_time = 0.0
        posted_once(cli, copy, slow_forum)


def test_post_killed_at_any_moment_posts_each_part_once(cli, game, slow_forum, kill_moments):
    slow_forum.answer_time = 0.2
    full = timed("post", *game.clone("probe").args)      # with the map picture, uploaded before the first part
    for k, after in enumerate(moments(full, 4, game.fewer(kill_moments, 3))):
        copy = game.clone(f"k{k}")
        slow_forum.posts.clear()
        slow_forum.answer_time = 0.2
        killed(["post", *copy.args], after)
        slow_forum.answer_time = 0.0
        posted_once(cli, copy, slow_forum)
        assert "![Map after turn 1](" in slow_forum.posts[0]["raw"]


def test_two_posts_at_once_post_each_part_once(cli, game, slow_forum, tmp_path, monkeypatch):
    """`post` and `post` of one game at once (a cron job and the host by hand): each took the other's intents for
    a killed run's and posted them again. One waits for the other's delivery lock, then finds it all posted; given
    no time to wait (ADJUDICATOR_BUSY_TIMEOUT=0), it stops with exit 4 and sends nothing."""
    slow_forum.answer_time = 0.5                 # the forum answers slowly: the two runs overlap for a second or more
    copy = game.clone("impatient")
    outs = race([["post", *game.args, "--no-picture"]] * 2, tmp_path / "race")
    assert [o.code for o in outs] == [0, 0], [o.err for o in outs]
    assert sorted("already posted" in o.out for o in outs) == [False, True], [o.out for o in outs]
    parts = topic_parts(slow_forum)
    assert len(parts) >= 3 and parts == [(k, parts[0][1]) for k in range(1, parts[0][1] + 1)], parts
    slow_forum.posts.clear()
    monkeypatch.setenv("ADJUDICATOR_BUSY_TIMEOUT", "0")
    outs = race([["post", *copy.args, "--no-picture"]] * 2, tmp_path / "race2")
    # Given no time to wait, at least one stops with exit 4 and says why. Which lock it meets depends on the
    # moment: the other's delivery lock, or (when the two start in the same instant, as on a loaded machine) the
    # game's own, which may turn both away; then a later `post` does the work. Never is a part posted twice.
    busy = ("another `post` or `mail` of this game is under way", "another command is working on this game")
    assert sorted(o.code for o in outs)[-1] == 4 and {o.code for o in outs} <= {0, 4}, [o.err for o in outs]
    assert all(any(b in o.err for b in busy) for o in outs if o.code == 4), [o.err for o in outs]
    if 0 not in (o.code for o in outs):
        assert topic_parts(slow_forum) == []
        cli("post", *copy.args, "--no-picture")
    assert topic_parts(slow_forum) == parts


def test_two_mails_at_once_mail_each_address_once(cli, game, smtp, tmp_path):
    smtp.data_delay = 1.0
    outs = race([["mail", *game.args, "--no-picture"]] * 2, tmp_path / "race")
    assert [o.code for o in outs] == [0, 0], [o.err for o in outs]
    assert sorted("already mailed" in o.out for o in outs) == [False, True], [o.out for o in outs]
    assert len(smtp.messages) == 1 and sorted(smtp.messages[0].envelope_to) == ADDRESSES


def mailed_as_one_message(cli, g, server) -> None:
    """Run after a kill, `mail` leaves every address mailed, every mail of the turn one message (a single
    Message-ID) and every address recorded with it; run again, it sends nothing."""
    cli("mail", *g.args, "--no-picture")
    (msgid,) = {m["Message-ID"] for m in server.messages}
    assert {a for m in server.messages for a in m.envelope_to} == set(ADDRESSES)
    recorded = g.sql("select target, ref from delivery where game_id = :game and channel = 'mail' order by target")
    assert recorded == [(a, msgid) for a in ADDRESSES]
    sent = len(server.messages)
    assert "already mailed" in cli("mail", *g.args, "--no-picture").stdout
    assert len(server.messages) == sent


def test_mail_killed_while_the_server_holds_the_data_sends_the_same_message_again(cli, game, smtp):
    for k in range(game.fewer(HELD, 3)):
        copy = game.clone(f"k{k}")
        smtp.messages.clear()
        smtp.data_delay = 2.0
        out = killed(["mail", *copy.args, "--no-picture"], 60, when=lambda: len(smtp.messages) >= 1)
        assert out.code == -9 and len(smtp.messages) == 1, (out.code, out.err)
        smtp.data_delay = 0.0
        mailed_as_one_message(cli, copy, smtp)
        first, second = smtp.messages                # sent again, as the same message
        assert second["Message-ID"] == first["Message-ID"] and second.envelope_to == first.envelope_to


def test_mail_killed_at_any_moment_is_sent_again_only_as_the_same_message(cli, game, smtp, kill_moments):
    smtp.data_delay = 0.3
    full = timed("mail", *game.clone("probe").args, "--no-picture")
    for k, after in enumerate(moments(full, 5, game.fewer(kill_moments, 3))):
        copy = game.clone(f"k{k}")
        smtp.messages.clear()
        killed(["mail", *copy.args, "--no-picture"], after)
        mailed_as_one_message(cli, copy, smtp)
        assert len(smtp.messages) <= 2


def test_a_part_sent_by_a_killed_run_is_found_on_any_page_as_the_forum_rewrote_it(cli, tmp_path, forum):
    """The forum reflowed the part's Markdown as it stored it, others posted after it (quoting it, too) so that it
    is pages back: `post` finds it there, records it, and posts nothing again."""
    forum.post_delay, forum.posts_per_page = 0, 3
    forum.rewrite = lambda text: re.sub(r"\n+", "\n\n", text).replace("_", r"\_").replace(",", " ,")
    db = tmp_path / "g.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "kursk_1", "--topic", TOPIC)
    cli("submit", db, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", db, "--post")
    (mine,) = forum.posts
    for k in range(8):                            # a player quoting the report, then chatting
        quote = "\n".join("> " + line for line in mine["raw"].splitlines()) if k == 0 else f"Nice dice {k}"
        forum.posts.append({**mine, "pid": 100 + k, "uid": forum.uids["bob"], "user": "bob", "raw": quote,
                            "html": forum.render(quote)})
    with sqlite3.connect(db) as con:              # as a run killed while the forum held the reply left it
        con.execute("update delivery set ref = ''")
    forum.topics.discard(TOPIC)                   # a topic that cannot be read: nothing is posted on a guess
    assert "cannot read topic 7" in cli("post", db, code=4).stderr
    forum.topics.add(TOPIC)
    forum.requests.clear()
    out = cli("post", db)
    assert "already posted" in out.stdout and f"post ids {mine['pid']}" in out.stdout
    assert [p["user"] for p in forum.posts].count(USER) == 1
    with sqlite3.connect(db) as con:
        assert con.execute("select ref from delivery").fetchall() == [(str(mine["pid"]),)]
    pages = [r["query"].get("page") for r in forum.requests if r["path"].endswith(f"/api/topic/{TOPIC}")]
    assert pages == ["1", "2", "3"]


def test_a_mark_a_player_salted_into_an_earlier_post_does_not_pass_for_the_part(cli, tmp_path, forum):
    """The red team's attack on issue 27's marks: a player salts (strict dice) the words of turn 2's mark, turn 1's
    post prints the salt, and the forum answers turn 2's reply with a 502 (a proxy that failed before NodeBB
    stored it). Looking for the part, `post` must not take turn 1's post for it: a mark is the post's last line,
    and holds the state hash after the report's last step, which nobody has before the report is made. Turn 2 is
    posted once; and so is it when the account's own post holds the whole real mark somewhere else than at its
    end (a quote of it, or a salt that guessed it)."""
    forum.post_delay = 0
    db = tmp_path / "sg.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "sg", "--dice", "strict", "--topic", TOPIC)
    cli("submit", db, "--power", "Germans", "-", input=SCRIPT["Germans"])
    turn2 = 18                                # the last step of turn 2, which its report covers (checked below)
    forged = f"Delivery mark: game sg, turn 2, report {turn2}, part 1 of 1."
    for power, text in (("Russians", forged), ("Italians", "any")):
        cli("submit", db, "--power", power, "-", input=f"salt {text}\n")
    cli("adjudicate", db, "--post")
    (first,) = forum.posts
    assert forged in first["raw"]
    cli("submit", db, "--power", "Russians", "-", input=SCRIPT["Russians"])
    for power in ("Germans", "Italians"):
        cli("submit", db, "--power", power, "-", input="salt any\n")
    cli("adjudicate", db)
    with sqlite3.connect(db) as con:
        step, state = con.execute("select seq, state_hash from step where turn_index = 2 order by seq desc").fetchone()
    assert step == turn2, "the turn's steps changed: make the forged mark name the report's step"
    mark = f"Delivery mark: game sg, turn 2, report {step}, part 1 of 1, state {state[:16]}."
    planted = f"Quoting the host:\n\n{mark}\n\nMore to come."
    forum.posts.append({**first, "pid": 900, "raw": planted, "html": forum.render(planted)})
    forum.requests.clear()
    forum.fail_next = [None, 502]             # /api/config, then the reply
    out = cli("post", db, "--no-picture")
    assert "posted turn 2" in out.stdout, out.stdout
    mine = [p for p in forum.posts if p["user"] == USER and p["pid"] not in (first["pid"], 900)]
    assert len(mine) == 1 and "round 1, Russians" in mine[0]["raw"]
    assert mine[0]["raw"].rstrip().endswith(mark)
    with sqlite3.connect(db) as con:
        assert con.execute("select ref from delivery where turn_index = 2").fetchall() == [(str(mine[0]["pid"]),)]
    assert [(r["method"], r["status"]) for r in forum.requests][:3] == [("GET", 200), ("POST", 502), ("GET", 200)]
