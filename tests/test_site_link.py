"""ADJUDICATOR_SITE_URL: `post` and `mail` end each report with the address of its turn's page on the game's site,
and the post still verifies; a setting that is no web address is refused before anything is sent."""

from __future__ import annotations

from adjudicator import verify
from adjudicator.demo import SCRIPT
from test_delivery import forum, game, smtp  # noqa: F401  (fixtures)

SITE = "https://games.example/kursk-1/"


def test_post_and_mail_end_with_the_turn_page_and_still_verify(cli, game, forum, smtp, monkeypatch):  # noqa: F811
    monkeypatch.setenv("ADJUDICATOR_SITE_URL", SITE)
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", game, "--post", "--mail")
    link = f"{SITE}turns/1.html"
    [post] = forum.posts
    lines = [line for line in post["raw"].splitlines() if line.strip()]
    assert lines[-2].endswith(link) and lines[-1].startswith("Delivery mark:"), lines[-2:]
    for text in (post["raw"], post["html"]):
        assert [(b.status, b.turn) for b in verify.check(text)] == [("match", 1)]
    [mail] = smtp.messages
    body = mail.get_body(("plain",)).get_content()
    assert body.rstrip().endswith(link)
    assert [(b.status, b.turn) for b in verify.check(body)] == [("match", 1)]


def test_a_site_address_that_is_no_web_address_is_refused_and_nothing_is_sent(cli, game, forum, smtp, monkeypatch):  # noqa: F811
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", game)
    monkeypatch.setenv("ADJUDICATOR_SITE_URL", "games.example/kursk")
    for step in ("post", "mail"):
        out = cli(step, game, code=None)
        assert out.exit_code != 0 and "ADJUDICATOR_SITE_URL must be the web address" in out.output, out.output
        assert "Traceback" not in out.output
    assert forum.posts == [] and smtp.messages == []
