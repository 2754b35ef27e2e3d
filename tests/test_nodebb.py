"""The NodeBB client against a stand-in that answers as NodeBB 4 does (tests/nodebb_standin.py)."""

from __future__ import annotations

import threading
import time
from importlib import metadata

import httpx
import pytest

from adjudicator.delivery.nodebb import PASSWORD_VAR, TOKEN_VAR, URL_VAR, USER_VAR, NodeBB, PostQueued
from adjudicator.errors import ConfigError, DeliveryError
from nodebb_standin import NodeBBStandIn

pytestmark = pytest.mark.slow

TOKEN, PASSWORD = "tok-s3cret", "pa55-s3cret"
REPORT = "Turn 3, Germany\nAttack on Karelia: 12 infantry@2\n"


class Clock:
    """A fake clock shared by the stand-in's post delay and the client's sleep: waits take no time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def forum(**settings) -> NodeBBStandIn:
    return NodeBBStandIn(**{"tokens": {TOKEN: "alice"}, "users": {"alice": PASSWORD, "bob": "pw-bob"},
                            "topics": {7}, **settings})


def client(f: NodeBBStandIn, clock: Clock | None = None, **options) -> NodeBB:
    return NodeBB(f.url, TOKEN, "alice", PASSWORD, sleep=(clock or Clock()).sleep, **options)


def real_sleep(sleeps: list[float], scale: float):
    """A sleep that really waits, `scale` times shorter, for tests where the forum is busy in real time."""
    return lambda seconds: (sleeps.append(seconds), time.sleep(seconds * scale))


def nodebb_answer(status: int, message: str) -> httpx.Response:
    code = {400: "bad-request", 401: "not-authorised"}[status]
    return httpx.Response(status, json={"status": {"code": code, "message": message}, "response": {}})


# -- replying ------------------------------------------------------------------------------------------------------

def test_reply_returns_the_new_posts_pid():
    with forum() as f, client(f) as nodebb:
        pid = nodebb.reply(7, REPORT)
    assert [(p["pid"], p["tid"], p["user"]) for p in f.posts] == [(pid, 7, "alice")]


def test_routes_go_under_the_forums_path_and_a_trailing_slash_is_harmless():
    with forum(relative_path="/forums") as f, NodeBB(f.url + "/", TOKEN, sleep=Clock().sleep) as nodebb:
        nodebb.max_post_length()
        nodebb.reply(7, REPORT)
    assert [r["path"] for r in f.requests] == ["/forums/api/config", "/forums/api/v3/topics/7"]
    assert len(f.posts) == 1


def test_requests_name_adjudicator_and_its_version_and_carry_the_token():
    with forum() as f, client(f) as nodebb:
        nodebb.reply(7, REPORT)
    headers = f.requests[0]["headers"]
    assert headers["User-Agent"] == f"adjudicator/{metadata.version('adjudicator')}"
    assert headers["Authorization"] == f"Bearer {TOKEN}"


def test_forum_stores_the_report_with_its_end_trimmed_only():
    with forum() as f, client(f) as nodebb:
        nodebb.reply(7, "  Turn 3\n\nGermany moves  \n\n")
    assert f.posts[0]["raw"] == "  Turn 3\n\nGermany moves"


def test_forum_renders_newlines_as_breaks_and_fenced_code_as_it_is():
    with forum() as f, client(f) as nodebb:
        nodebb.reply(7, "Dice & rolls\nline two\n\n```\n3 <inf> hit\n  12 rolls\n```\n")
        page = httpx.get(f"{f.url}/api/topic/7").json()
    rendered = page["posts"][0]["content"]
    assert rendered.startswith('<p dir="auto">Dice &amp; rolls<br />\nline two</p>')
    assert "<pre><code>3 &lt;inf&gt; hit\n  12 rolls\n</code></pre>" in rendered


def test_a_mention_in_the_text_notifies_and_links_the_user():
    with forum() as f, client(f) as nodebb:
        pid = nodebb.reply(7, "Your move, @bob.")
    assert f.notified == [] and "@bob." in f.posts[0]["raw"]      # "bob." is no user slug: a link, no notice
    assert 'href="/forums/user/bob"' in f.posts[0]["html"]
    with forum() as f, client(f) as nodebb:
        pid = nodebb.reply(7, "Your move, @bob")
    assert f.notified == [(pid, "bob")]


def test_code_addresses_and_dice_notation_mention_nobody():
    text = "12 infantry@2 and bob@example.com\n`@bob` inline\n\n```\n@bob in a fence\n```\n"
    with forum() as f, client(f) as nodebb:
        nodebb.reply(7, text)
    assert f.notified == [] and "plugin-mentions" not in f.posts[0]["html"]


def test_max_post_length_comes_from_the_forums_config():
    with forum(max_post_length=5000) as f, client(f) as nodebb:
        assert nodebb.max_post_length() == 5000


def test_max_post_length_defaults_when_the_config_lacks_it():
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json={"relative_path": ""}))
    with NodeBB("https://forum.example", TOKEN, transport=transport) as nodebb:
        assert nodebb.max_post_length() == 32767


# -- waiting and retrying ------------------------------------------------------------------------------------------

def test_post_delay_is_waited_out_then_the_reply_posted():
    clock = Clock()
    with forum(post_delay=10, clock=clock) as f, client(f, clock) as nodebb:
        nodebb.reply(7, REPORT)
        nodebb.reply(7, REPORT + "part 2")
    assert clock.sleeps == [11.0] and len(f.posts) == 2


def test_messages_are_asked_for_in_english_so_a_german_forum_is_understood():
    clock = Clock()
    with forum(post_delay=10, clock=clock, language="de") as f, client(f, clock) as nodebb:
        nodebb.reply(7, REPORT)
        nodebb.reply(7, REPORT + "part 2")
    assert clock.sleeps == [11.0] and len(f.posts) == 2


def test_post_delay_waits_are_bounded():
    clock = Clock()
    refuse = nodebb_answer(400, "You can only post once every 10 second(s) - please wait before posting again")
    with NodeBB("https://forum.example", TOKEN, sleep=clock.sleep,
                transport=httpx.MockTransport(lambda request: refuse)) as nodebb:
        with pytest.raises(DeliveryError, match="once every 10 second"):
            nodebb.reply(7, REPORT)
    assert clock.sleeps == [11.0, 11.0, 11.0]


def test_503_and_429_are_retried_with_back_off_and_retry_after():
    clock = Clock()
    with forum(fail_next=[503, (429, {"Retry-After": "7"}), 500]) as f, client(f, clock) as nodebb:
        pid = nodebb.reply(7, REPORT)
    assert clock.sleeps == [1.0, 7.0, 4.0]
    assert [p["pid"] for p in f.posts] == [pid]


@pytest.mark.parametrize("odd", ["\u00b2", "\u2460", "\u0667", "9" * 400])
def test_a_retry_after_in_digits_that_are_not_ascii_is_taken_as_none(odd):
    """str.isdigit() takes '²', '①' and Arabic-Indic digits, which float() refuses: such a header is no delay."""
    clock = Clock()
    with forum(fail_next=[(429, {"Retry-After": odd})]) as f, client(f, clock) as nodebb:
        pid = nodebb.reply(7, REPORT)
    assert clock.sleeps == [1.0] and [p["pid"] for p in f.posts] == [pid]


def test_gives_up_after_five_failures_and_says_to_post_again():
    clock = Clock()
    with forum(fail_next=[503] * 5) as f, client(f, clock) as nodebb:
        with pytest.raises(DeliveryError, match="adjudicator post") as failure:
            nodebb.reply(7, REPORT)
    assert "503" in failure.value.message and clock.sleeps == [1.0, 2.0, 4.0, 8.0] and f.posts == []


def test_a_long_retry_after_is_not_waited():
    clock = Clock()
    with forum(fail_next=[(429, {"Retry-After": "3600"})]) as f, client(f, clock) as nodebb:
        with pytest.raises(DeliveryError, match="3600 s"):
            nodebb.reply(7, REPORT)
    assert clock.sleeps == []


def test_an_unreachable_forum_names_the_url_variable():
    with forum() as f:
        url = f.url                                 # nobody listens there any more
    clock = Clock()
    with NodeBB(url, TOKEN, sleep=clock.sleep) as nodebb:
        with pytest.raises(DeliveryError, match=URL_VAR):
            nodebb.reply(7, REPORT)
    assert clock.sleeps == [1.0, 2.0, 4.0, 8.0]


def test_a_lost_answer_does_not_post_the_reply_twice():
    sleeps: list[float] = []
    with forum(reply_time=0.4) as f:
        with NodeBB(f.url, TOKEN, sleep=real_sleep(sleeps, 0.5), timeout=0.2) as nodebb:
            pid = nodebb.reply(7, REPORT)               # times out; the forum posts it all the same
        time.sleep(0.3)
    assert [p["pid"] for p in f.posts] == [pid] and sleeps == [1.0]


def test_already_posting_is_waited_out():
    sleeps: list[float] = []
    with forum(reply_time=1.0, post_delay=0) as f:
        def post(text: str) -> None:
            with NodeBB(f.url, TOKEN, sleep=real_sleep(sleeps, 0.2)) as nodebb:
                nodebb.reply(7, text)
        first = threading.Thread(target=post, args=(REPORT + "part 1",))
        first.start()
        assert f.started_posting.wait(10), "the first reply never began"   # no head start: a busy machine is slow
        post(REPORT + "part 2")
        first.join()
    assert sorted(p["raw"][-6:] for p in f.posts) == ["part 1", "part 2"]
    assert 400 in [r["status"] for r in f.requests] and sleeps


# -- refusals ------------------------------------------------------------------------------------------------------

def test_a_token_the_forum_does_not_know_is_named():
    with forum() as f, NodeBB(f.url, "wrong-s3cret", sleep=Clock().sleep) as nodebb:
        with pytest.raises(DeliveryError, match=TOKEN_VAR) as failure:
            nodebb.reply(7, REPORT)
    assert f.requests[0]["status"] == 403                # NodeBB runs it as a guest's request
    assert "does not know the token" in failure.value.message and "wrong-s3cret" not in failure.value.message


def test_an_account_without_the_reply_privilege_is_named():
    with forum(cannot_reply={"alice"}) as f, client(f) as nodebb:
        with pytest.raises(DeliveryError, match=TOKEN_VAR) as failure:
            nodebb.reply(7, REPORT)
    assert "uid 1" in failure.value.message and "privilege to reply in topic 7" in failure.value.message


def test_a_403_page_not_from_nodebb_is_told_apart():
    with forum(fail_next=[403]) as f, client(f) as nodebb:
        with pytest.raises(DeliveryError, match=TOKEN_VAR) as failure:
            nodebb.reply(7, REPORT)
    assert "firewall or bot protection" in failure.value.message


def test_http_401_names_the_token():
    transport = httpx.MockTransport(lambda request: nodebb_answer(401, "A valid login session was not found."))
    with NodeBB("https://forum.example", TOKEN, transport=transport) as nodebb:
        with pytest.raises(DeliveryError, match=f"{TOKEN_VAR} is wrong, revoked or expired") as failure:
            nodebb.reply(7, REPORT)
    assert TOKEN not in failure.value.message


def test_an_unknown_topic_names_the_topic_option():
    with forum() as f, client(f) as nodebb:
        with pytest.raises(DeliveryError, match="--topic") as failure:
            nodebb.reply(8, REPORT)
    assert URL_VAR not in failure.value.message


def test_a_wrong_forum_path_names_the_url_variable():
    with forum(relative_path="/forums") as f:
        wrong = f.url.replace("/forums", "/forum")
        with NodeBB(wrong, TOKEN, sleep=Clock().sleep) as nodebb:
            with pytest.raises(DeliveryError, match=URL_VAR):
                nodebb.reply(7, REPORT)
            with pytest.raises(DeliveryError, match=URL_VAR):
                nodebb.max_post_length()


def test_a_malformed_url_is_a_config_error():
    with pytest.raises(ConfigError, match=URL_VAR):
        NodeBB("www.axisandallies.org/forums", TOKEN)


def test_a_queued_reply_is_not_taken_for_a_post():
    with forum(queued_users={"alice"}) as f, client(f) as nodebb:
        with pytest.raises(PostQueued, match="moderator"):
            nodebb.reply(7, REPORT)
    assert f.posts == [] and len(f.queue) == 1


def test_too_long_a_reply_names_the_limit():
    with forum(max_post_length=50) as f, client(f) as nodebb:
        with pytest.raises(DeliveryError, match="limit of 50 characters"):
            nodebb.reply(7, "x" * 51)
    assert f.posts == []


# -- uploads -------------------------------------------------------------------------------------------------------

def test_upload_returns_the_absolute_url_of_the_stored_picture():
    with forum(relative_path="/forums") as f, client(f) as nodebb:
        url = nodebb.upload("Turn 3 map.png", b"\x89PNG picture")
        assert url is not None and url.startswith(f.url + "/assets/uploads/files/") and url.endswith("-map.png")
        assert httpx.get(url).content == b"\x89PNG picture"
    assert f.uploads[0]["user"] == "alice"


def test_upload_logs_in_once():
    with forum() as f, client(f) as nodebb:
        nodebb.upload("a.png", b"one")
        nodebb.upload("b.png", b"two")
    assert [r["path"] for r in f.requests].count("/forums/api/v3/utilities/login") == 1 and len(f.uploads) == 2


def test_replies_after_an_upload_do_not_carry_the_login_session():
    with forum() as f, client(f) as nodebb:
        nodebb.upload("map.png", b"picture")
        nodebb.reply(7, REPORT)                      # with the session cookie NodeBB would want a CSRF token
    assert len(f.posts) == 1 and "Cookie" not in f.requests[-1]["headers"]


def test_upload_without_user_and_password_returns_none():
    with forum() as f, NodeBB(f.url, TOKEN) as nodebb:
        assert nodebb.upload("map.png", b"picture") is None
    assert f.requests == []


def test_upload_with_a_wrong_password_names_the_variables():
    with forum() as f, NodeBB(f.url, TOKEN, "alice", "wrong-s3cret", sleep=Clock().sleep) as nodebb:
        with pytest.raises(DeliveryError, match=f"{USER_VAR} and {PASSWORD_VAR}") as failure:
            nodebb.upload("map.png", b"picture")
    assert "wrong-s3cret" not in failure.value.message and TOKEN not in failure.value.message


def test_the_forum_refuses_uploads_with_a_bearer_token_alone():
    with forum() as f:
        answer = httpx.post(f"{f.url}/api/post/upload", headers={"Authorization": f"Bearer {TOKEN}"},
                            files={"files[]": ("map.png", b"picture", "image/png")})
    assert (answer.status_code, answer.text) == (403, "Forbidden") and f.uploads == []


def test_upload_understands_the_bare_list_of_older_forums():
    with forum(legacy_upload=True) as f, client(f) as nodebb:
        assert nodebb.upload("map.png", b"picture") == f"{f.url.split('/forums')[0]}{f.uploads[0]['url']}"


def test_too_big_a_picture_is_refused_without_retrying():
    clock = Clock()
    with forum(max_file_kb=1) as f, client(f, clock) as nodebb:
        with pytest.raises(DeliveryError, match="Maximum allowed file size is 1 kB"):
            nodebb.upload("map.png", b"x" * 2048)
    assert clock.sleeps == [] and f.uploads == []
