"""A game's mails as players' mail clients show them: one conversation across the turns, no player's address
shown to another, and a map picture small enough to mail however large it was drawn."""

from __future__ import annotations

import io
import random
import sqlite3

from PIL import Image

from adjudicator import picture
from adjudicator.delivery.small_picture import MOST, fit
from adjudicator.demo import SCRIPT
from test_delivery import game, smtp  # noqa: F401  (fixtures)

ADDRESSES = (b"hans@example.org", b"ivan@example.org")


def headers(message) -> tuple:
    return message["Message-ID"], message["In-Reply-To"], message["References"]


def test_two_turns_mails_are_one_thread_that_a_run_again_keeps(cli, game, smtp):
    for power in ("Germans", "Russians"):
        cli("submit", game, "--power", power, "-", input=SCRIPT[power])
        cli("adjudicate", game, "--mail")
    first, second = smtp.messages
    assert first["In-Reply-To"] is None and first["References"] is None
    assert second["In-Reply-To"] == first["Message-ID"] and second["References"] == first["Message-ID"]
    assert first["Message-ID"] != second["Message-ID"]
    for message in (first, second):
        assert sorted(message.envelope_to) == ["hans@example.org", "ivan@example.org"]
        assert message["To"].addresses == () and message["Bcc"] is None
        assert not any(address in message.raw for address in ADDRESSES)      # no player sees another's address
    # a run killed before its answer was recorded, run again: the same message in the same thread
    with sqlite3.connect(game) as con:
        con.execute("DELETE FROM delivery WHERE channel = 'mail' AND turn_index = 2")
    cli("mail", game, "--turn", 2)
    assert headers(smtp.messages[-1]) == headers(second)


def noise(width: int, height: int) -> bytes:
    """A picture no palette shrinks: random pixels."""
    rng = random.Random(7)
    image = Image.frombytes("RGB", (width, height), bytes(rng.getrandbits(8) for _ in range(width * height * 3)))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_a_picture_drawn_too_large_is_mailed_smaller(cli, game, smtp, monkeypatch):
    large = noise(900, 700)
    assert len(large) > 3 * MOST
    monkeypatch.setattr(picture, "draw", lambda *args, **kw: large)
    cli("submit", game, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", game, "--mail")
    [attached] = [p for p in smtp.messages[0].iter_attachments() if p.get_content_type() == "image/png"]
    data = attached.get_content()
    assert len(data) <= MOST
    with Image.open(io.BytesIO(data)) as sent:
        assert 400 <= sent.width < 900 and abs(sent.width / sent.height - 900 / 700) < 0.01


def test_a_picture_that_cannot_be_made_small_enough_is_not_sent():
    large = noise(600, 600)
    assert fit(large, most=2_000) is None
    small = noise(20, 20)
    assert fit(small) == small
