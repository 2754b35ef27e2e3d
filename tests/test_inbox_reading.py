"""Reading one message as players send them (incoming.py): who sent it is the channel's word (the From addr-spec,
the forum uid), never the display name; the orders are the sender's own lines, numbered as they wrote them, with
quotes, signatures, top-posted tails and forwards left out; what is not read (attachments, a forward) is said; a
file that holds no message is refused with a message saying what to give."""

from __future__ import annotations

import json
import mailbox
import random
from pathlib import Path

import pytest

from adjudicator import message_files
from adjudicator.incoming import NotAMessage, from_mail, from_post, read

ORDERS = "power: Germans\nbuy 2 inf\nend"
MAILS = Path(__file__).parent / "mails"


def mail(body: str, sender: str = "Hans Gruber <Hans.Gruber@Example.org>", headers: str = "",
         kind: str = "text/plain") -> bytes:
    return (f"From: {sender}\nTo: host@example.org\nSubject: [t1] orders\n{headers}"
            f"Content-Type: {kind}; charset=utf-8\n\n{body}\n").encode()


def test_the_sender_is_the_from_address_never_the_display_name():
    spoof = from_mail(mail(ORDERS, sender='"hans.gruber@example.org" <mallory@evil.example>'))
    assert spoof.sender == "mallory@evil.example" and spoof.sender_name == "hans.gruber@example.org"
    real = from_mail(mail(ORDERS))
    assert real.sender == "hans.gruber@example.org" and real.text == ORDERS
    twice = from_mail(mail(ORDERS, sender="a@example.org, b@example.org"))
    assert twice.sender == "" and "several senders" in twice.problems[0]
    # no Message-ID: the mail's own bytes name it, so the same mail is the same message
    assert real.ref.startswith("sha256:") and real.ref == from_mail(mail(ORDERS)).ref
    assert from_mail(mail(ORDERS, headers="Message-ID: <a1@example.org>\n")).ref == "<a1@example.org>"


def test_a_top_posted_reply_keeps_the_senders_lines_where_they_wrote_them():
    body = ("power: Germans\n> a quoted line between\nbuy 2 inf\nend\n\n"
            "On Mon, 5 Jan 2026 at 09:12, Host <host@example.org>\nwrote:\n> [t1] round 1 report\n> Germans buy ...\n")
    got = from_mail(mail(body)).text
    assert got.splitlines() == ["power: Germans", "", "buy 2 inf", "end"]
    outlook = from_mail(mail(f"{ORDERS}\n\n-----Original Message-----\nFrom: Host\nbuy 9 inf\n")).text
    headers = from_mail(mail(f"{ORDERS}\n\nFrom: Host <host@example.org>\nSent: Monday\nTo: x\n\nbuy 9 inf")).text
    signed = from_mail(mail(f"{ORDERS}\n-- \nHans, buy 9 inf")).text
    assert outlook == headers == signed == ORDERS


def test_a_flowed_mail_has_its_long_order_on_one_line_as_the_player_wrote_it():
    body = "power: Germans\ncm 3 inf, 1 art, 1 arm Poland \n> Belarus\n From here on, nothing\nbuy 2 inf \n\nend"
    flowed = from_mail(mail(body, kind="text/plain; format=flowed"))
    assert flowed.text.splitlines() == ["power: Germans", "cm 3 inf, 1 art, 1 arm Poland > Belarus",
                                        "From here on, nothing", "buy 2 inf ", "end"]
    delsp = from_mail(mail("power: Germans\nbuy 2 in \nf\nend", kind="text/plain; format=flowed; delsp=yes"))
    assert delsp.text == "power: Germans\nbuy 2 inf\nend"


def test_a_forward_is_someone_elses_words_and_is_said_to_be_unread():
    inline = from_mail(mail("see below\n\n---------- Forwarded message ---------\nFrom: Hans\n\nbuy 2 inf\nend"))
    assert inline.text == "see below" and "forwarded" in inline.problems[0]
    attached = (b"From: fritz@example.org\nSubject: fwd\nMIME-Version: 1.0\nContent-Type: multipart/mixed; "
                b"boundary=XX\n\n--XX\nContent-Type: text/plain\n\nFYI\n--XX\nContent-Type: message/rfc822\n\n"
                b"From: hans@example.org\nSubject: orders\n\nbuy 2 inf\nend\n--XX--\n")
    got = from_mail(attached)
    assert got.text == "FYI" and "someone else's words" in got.problems[0] and "buy" not in got.text


def test_html_only_mail_and_attachments():
    html = ('<html><head><style>div {color: red}</style></head><body><div dir="ltr"><div>power: Germans</div>'
            '<div>buy 2&nbsp;inf<br></div><div>end</div></div><br><div class="gmail_quote">On Mon, Jan 5, 2026 '
            'Host &lt;host@example.org&gt; wrote:<br><blockquote>Report<br>buy 9 inf</blockquote></div></body></html>')
    got = from_mail(mail(html, kind="text/html"))
    assert got.text == ORDERS and got.problems == ()
    both = (b"From: hans@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=M\n\n"
            b"--M\nContent-Type: multipart/alternative; boundary=A\n\n--A\nContent-Type: text/plain\n\n"
            + ORDERS.encode() + b"\n--A\nContent-Type: text/html\n\n<p>other words</p>\n--A--\n"
            b"--M\nContent-Type: text/plain\nContent-Disposition: attachment; filename=orders.txt\n\nbuy 9 inf\n"
            b"--M\nContent-Type: image/png\nContent-Disposition: attachment; filename=map.png\n"
            b"Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--M--\n")
    got = from_mail(both)
    assert got.text == ORDERS
    assert [p.split(" was ")[0] for p in got.problems] == ["the attachment 'orders.txt'", "the attachment 'map.png'"]


def post(content: str, pid: int = 41, uid: int = 7, username: str = "ivan", display: str = "Germany's player"):
    return {"pid": pid, "tid": 12, "uid": uid, "content": content, "timestamp": 1, "deleted": 0,
            "user": {"uid": uid, "username": username, "displayname": display}}


def test_a_forum_post_is_its_authors_uid_and_its_own_lines():
    content = ('<p><a class="plugin-mentions-user" href="/user/host">@host</a> said in '
               '<a href="/post/3">Kursk</a>:</p>\n<blockquote>\n<p>your turn, buy 9 inf</p>\n</blockquote>\n'
               '<p>power: Germans<br />\nbuy 2 inf<br />\nend</p>\n')
    got = from_post(post(content), 12)
    assert (got.channel, got.ref, got.sender, got.sender_name) == ("forum", "post:41", "forum-uid:7", "Germany's player")
    assert got.text.splitlines() == ["", "", "", "", "power: Germans", "buy 2 inf", "end"]
    assert got.reply == {"tid": 12, "pid": 41, "username": "ivan"}
    fenced = from_post(post("<p>my orders:</p>\n<pre><code>buy 2 inf\ncm 1 inf A &gt; B\n</code></pre>\n"), 12)
    assert fenced.text == "my orders:\n\n```\nbuy 2 inf\ncm 1 inf A > B\n```"
    edited = from_post(post("<p>power: Germans<br />\nbuy 1 inf<br />\nend</p>"), 12)
    assert edited.ref == got.ref and edited.version != got.version
    with pytest.raises(NotAMessage, match="pid, uid and content"):
        from_post({"content": "<p>x</p>"}, 12)


def test_files_of_every_kind_are_read_and_what_is_none_is_refused(tmp_path, monkeypatch):
    box = mailbox.mbox(tmp_path / "box.mbox")
    box.add(mail(ORDERS, headers="Message-ID: <1@x>\n"))
    box.add(mail("From the front:\nbuy 1 inf", sender="fritz@example.org", headers="Message-ID: <2@x>\n"))
    box.close()
    got = read(str(tmp_path / "box.mbox"))
    assert [(m.ref, m.sender) for m in got] == [("<1@x>", "hans.gruber@example.org"), ("<2@x>", "fritz@example.org")]
    assert got[1].text == "From the front:\nbuy 1 inf"        # mbox's >From escape undone
    clients = read(str(MAILS / "round.mbox"))                  # as a mail server's mbox holds them (mboxo)
    assert [m.sender for m in clients] == ["juergen@example.org", "dmitri.volkov@example.com",
                                           "dmitri.volkov@example.com", "marco.rossi@example.org"]
    assert "\nFrom Monday evening on I can play again." in clients[1].text

    maildir = mailbox.Maildir(tmp_path / "Maildir")
    maildir.add(mail(ORDERS, headers="Message-ID: <3@x>\n"))
    assert [m.ref for m in read(str(tmp_path / "Maildir"))] == ["<3@x>"]
    (tmp_path / "topic.json").write_text(json.dumps({"tid": 12, "posts": [post("<p>buy 2 inf</p>"), post("<p>end</p>", 42)]}))
    assert [m.ref for m in read(str(tmp_path / "topic.json"))] == ["post:41", "post:42"]

    (tmp_path / "orders.txt").write_text(ORDERS)
    assert read(str(tmp_path / "orders.txt"), "Hans@Example.org")[0].sender == "hans@example.org"
    assert read(str(tmp_path / "orders.txt"), "forum-uid:7")[0].channel == "forum"
    (tmp_path / "m.eml").write_bytes(mail(ORDERS))
    (tmp_path / "empty.eml").write_bytes(b"\n \n")
    (tmp_path / "save.tsvg").write_bytes(b"\x1f\x8b\x08\x00\x00\x00binary")
    (tmp_path / "folder").mkdir()
    (tmp_path / "big.eml").write_bytes(mail(ORDERS * 100))
    monkeypatch.setattr(message_files, "MOST", 1000)
    for args, said in [(("orders.txt",), "orders.txt holds plain text, not a mail or a forum post: say who sent these orders with --from"),
                       (("orders.txt", "Germans"), "give the sender's mail address, or forum-uid:N"),
                       (("m.eml", "hans@example.org"), "--from is only for orders saved as plain text"),
                       (("empty.eml",), "is empty"), (("save.tsvg",), "holds binary data, not a message"),
                       (("folder",), "is a folder but no Maildir"), (("big.eml",), "holds more than 1,000 bytes"),
                       (("nowhere.eml",), "no file or folder at")]:
        with pytest.raises(NotAMessage, match=said.replace("(", r"\(")) as caught:
            read(str(tmp_path / args[0]), *args[1:])
        assert "Traceback" not in caught.value.message


def test_a_mangled_mail_is_still_read_never_a_crash():
    """Real clients' mails cut, spliced and corrupted at random (a malformed From, a group where an address was
    due, an unknown charset, a broken boundary): each is read, and what it lacks is said, so that it is answered."""
    rng = random.Random(33)
    corpus = [p.read_bytes() for p in sorted(MAILS.glob("*.eml"))]
    splices = [b"=?utf-8?b?", b"=?x-unknown?q?a?=", b"\r\n", b"<", b">", b'"', b"boundary=", b"--", b"@", b",",
               b":;", b"=\n", b"\x00", b"Content-Type: message/rfc822\n", b"charset=zzz", b"multipart/", b"text/html"]
    for _ in range(300):
        data = bytearray(rng.choice(corpus))
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(data) or 1)
            if rng.random() < 0.4 and data:
                data[i] = rng.randrange(256)
            elif rng.random() < 0.5:
                del data[i:i + rng.randint(1, 50)]
            else:
                data[i:i] = rng.choice(splices)
        got = from_mail(bytes(data))
        assert got.sender or got.problems
