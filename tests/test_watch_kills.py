"""`kill -9` of `watch --once` at the moments where a message, an answer or a report is half done, as real
processes, one after another on the same game: run again after each, the round's orders are all taken once, each
answer and each report part is in the topic once, and a mail sent again after a kill is the same message (the same
Message-ID, which mail clients show once)."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.demo import SCRIPT
from mailroom import GAME_ID, TOPIC, game_forum, imap, mail  # noqa: F401 (fixtures)
from processes import dying, race, run
from test_delivery import smtp  # noqa: F401 (the mail server, a fixture)
from test_watch import answered_posts, hosted, message_id, replies_to, report_parts  # noqa: F401 (hosted: fixture)

pytestmark = pytest.mark.slow

# where a round is cut: after a message is taken, before its answer is recorded as sent, after a turn is played,
# before a report part is recorded as posted or mailed, before the game's place in the mailbox is kept
MOMENTS = [("adjudicator.intake:take", "after"), ("adjudicator.answers:_record", "before"),
           ("adjudicator.game:adjudicate", "after"), ("adjudicator.delivery.deliver:_answered", "before"),
           ("adjudicator.watch:_remember", "before")]


@pytest.mark.parametrize("moments", [MOMENTS[:3], MOMENTS[2:]], ids=["take-answer-play", "play-deliver-mark"])
def test_watch_killed_at_each_moment_and_run_again_does_everything_once(cli, hosted, game_forum, imap, smtp, moments):
    game_forum.post_delay = 0                         # the processes wait for real; the forum's clock is a fake
    germans, russians = mail("01"), mail("02")
    imap.append(germans)
    imap.append(russians)
    italians = game_forum.post_as(TOPIC, "marco", SCRIPT["Italians"])
    for where, when in moments:
        out = dying(where, when, "watch", hosted, "--once")
        assert out.code == 137, (where, when, out.err)
    cli("watch", hosted, "--once")

    status = cli.json("status", hosted)
    assert (status["round"], status["power"]) == (2, "Germans")
    parts = report_parts(game_forum)
    assert sorted(parts) == sorted(set(parts)) and {p[0] for p in parts} == {1, 2, 3}, parts
    assert all(sum(p[0] == turn for p in parts) == parts[[p[0] for p in parts].index(turn)][2] for turn in (1, 2, 3))
    assert answered_posts(game_forum) == [italians]
    for raw in (germans, russians):
        answers = replies_to(smtp, message_id(raw))
        assert answers and len({m["Message-ID"] for m in answers}) == 1, [m["Message-ID"] for m in answers]
    reports = Counter(m["Subject"] for m in smtp.messages if m["Subject"].startswith(f"[{GAME_ID}] round"))
    assert set(reports) == {f"[{GAME_ID}] round 1, {p}" for p in ("Germans", "Russians", "Italians")}
    for subject in reports:
        assert len({m["Message-ID"] for m in smtp.messages if m["Subject"] == subject}) == 1
    posts, mails = len(game_forum.posts), len(smtp.messages)
    cli("watch", hosted, "--once")
    assert (len(game_forum.posts), len(smtp.messages)) == (posts, mails)


def test_ctrl_c_ends_a_watch_cleanly(hosted, imap, smtp):
    out = dying("adjudicator.watch:run_round", "interrupted", "watch", hosted, "--every", "60")
    assert out.code == 0 and "watch: stopped (Ctrl-C)" in out.err and "Traceback" not in out.err, out.err


def test_two_watches_at_once_take_answer_and_deliver_each_thing_once(hosted, game_forum, imap, smtp, tmp_path):
    game_forum.post_delay = 0
    imap.append(mail("01"))
    imap.append(mail("02"))
    italians = game_forum.post_as(TOPIC, "marco", SCRIPT["Italians"])
    outcomes = race([["watch", hosted, "--once"], ["watch", hosted, "--once"]], tmp_path / "race")
    assert all(o.code in (0, 4) for o in outcomes), [o.err for o in outcomes]
    run("watch", hosted, "--once")                      # what a watch that found the game busy left
    assert run("status", hosted).out.splitlines()[1].startswith("round 2, Germans")
    parts = report_parts(game_forum)
    assert sorted(parts) == sorted(set(parts)) and {p[0] for p in parts} == {1, 2, 3}, parts
    assert answered_posts(game_forum) == [italians]
    for raw in (mail("01"), mail("02")):
        assert len({m["Message-ID"] for m in replies_to(smtp, message_id(raw))}) == 1
