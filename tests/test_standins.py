"""The stand-ins of the mail and forum servers behave as the real ones do where the adjudicator meets them, through
the real clients (imaplib; the project's NodeBB client and httpx), and the corpus of mails is what its README says."""

from __future__ import annotations

import email
import email.policy
import imaplib
import mailbox
import os
import re
import ssl

import httpx
import pytest

from adjudicator.delivery import nodebb
from adjudicator.demo import SCRIPT
from adjudicator.errors import DeliveryError
from imap_standin import ImapStandIn
from mailroom import (HOST_USER, IMAP_PASSWORD, IMAP_USER, MAILS, TOPIC, game_forum, imap, mail,  # noqa: F401
                      maildir, token)


def connect(server: ImapStandIn, folder: str = "INBOX", readonly: bool = False) -> imaplib.IMAP4:
    client = imaplib.IMAP4(server.host, server.port, timeout=5)
    client.login(IMAP_USER, IMAP_PASSWORD)
    assert client.select(folder, readonly=readonly)[0] == "OK"
    return client


def uids(client: imaplib.IMAP4, *criteria: str) -> list[int]:
    typ, data = client.uid("SEARCH", None, *criteria)
    assert typ == "OK"
    return [int(n) for n in data[0].split()]


# -- IMAP ------------------------------------------------------------------------------------------------------------

def test_imap_login_and_select_as_a_host_meets_them(imap):
    assert {key: os.environ[f"ADJUDICATOR_IMAP_{key}"] for key in ("HOST", "PORT", "USER", "FOLDER")} == \
        {"HOST": "127.0.0.1", "PORT": str(imap.port), "USER": IMAP_USER, "FOLDER": "INBOX"}
    imap.append(mail("01"))
    imap.append(mail("02"))
    client = imaplib.IMAP4(imap.host, imap.port, timeout=5)
    with pytest.raises(imaplib.IMAP4.error, match=r"\[AUTHENTICATIONFAILED\]"):
        client.login(IMAP_USER, "wrong")
    client.login(IMAP_USER, IMAP_PASSWORD)
    assert client.select("Archive") == ("NO", [b"[NONEXISTENT] Mailbox doesn't exist: Archive"])
    assert client.select("inbox") == ("OK", [b"2"])
    assert client.untagged_responses["UIDNEXT"] == [b"3"]
    assert client.untagged_responses["UIDVALIDITY"][0].isdigit()
    assert client.logout()[0] == "BYE"


def test_imap_peek_leaves_mail_unread_and_a_full_fetch_or_store_reads_it(imap):
    for name in ("01", "17"):
        imap.append(mail(name))
    client = connect(imap)
    typ, data = client.uid("FETCH", "1:*", "(BODY.PEEK[])")
    fetched = [part[1] for part in data if isinstance(part, tuple)]
    # served with CRLF line ends, as IMAP servers serve mail (17 was written with LF)
    assert fetched == [mail("01"), mail("17").replace(b"\n", b"\r\n")]
    assert uids(client, "UNSEEN") == [1, 2]
    typ, data = client.uid("FETCH", "2", "(RFC822)")
    assert data[0][0].startswith(b"2 (UID 2 RFC822 {") and b"FLAGS (\\Seen)" in data[1]
    assert uids(client, "UNSEEN") == [1]
    assert client.uid("STORE", "1", "+FLAGS", "(\\Seen)") == ("OK", [b"1 (UID 1 FLAGS (\\Seen))"])
    assert uids(client, "UNSEEN") == []
    client.uid("STORE", "1", "-FLAGS.SILENT", "(\\Seen)")
    assert uids(client, "UNSEEN") == [1] and imap.flags(1) == set()


def test_imap_uid_ranges_and_new_mail_as_dovecot_answers(imap):
    imap.append(mail("01"))
    client = connect(imap)
    assert uids(client, "UID", "5:*") == [1]        # n:* past the last UID still names the last message
    assert imap.append(mail("02")) == 2
    assert client.noop()[0] == "OK" and client.untagged_responses.pop("EXISTS")[-1] == b"2"
    assert uids(client, "UID", "2:*") == [2]
    assert uids(client, "SUBJECT", "[kursk-1]", "FROM", "dmitri") == [2]   # RFC 2047 names decoded
    typ, data = client.uid("FETCH", "2", "(BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
    assert data[0][1] == b"Message-ID: <CAF7x3kPq2Zr9mE1nYw0b8u5Hq+VtLxJd6o4sG9aRk2Nf1cTyDw@mail.example.com>\r\n\r\n"
    assert client.status("INBOX", "(MESSAGES UNSEEN UIDNEXT)") == \
        ("OK", [b"INBOX (MESSAGES 2 UNSEEN 2 UIDNEXT 3)"])


def test_imap_a_read_only_folder_keeps_its_flags(imap):
    imap.append(mail("01"))
    client = connect(imap, readonly=True)
    client.uid("FETCH", "1", "(BODY[])")
    assert client.uid("STORE", "1", "+FLAGS", "(\\Seen)") == ("NO", [b"Mailbox is read-only."])
    assert imap.flags(1) == set()


def test_imap_a_rebuilt_folder_has_new_uids_under_a_new_uidvalidity(imap):
    for name in ("01", "02", "03"):
        imap.append(mail(name))
    client = connect(imap)
    client.uid("STORE", "1:2", "+FLAGS", "(\\Deleted)")
    assert client.expunge() == ("OK", [b"2", b"1"])
    imap.set_uidvalidity(4242)
    with pytest.raises(imaplib.IMAP4.abort, match="UIDVALIDITY changed"):
        client.noop()
    client = connect(imap)
    assert client.untagged_responses["UIDVALIDITY"] == [b"4242"] and uids(client, "ALL") == [1]


def test_imap_refusals_and_broken_connections_on_command(imap):
    imap.append(mail("01"))
    client = connect(imap)
    imap.fail("UID SEARCH", "NO", "[UNAVAILABLE] Internal error occurred.")
    assert client.uid("SEARCH", None, "ALL") == ("NO", [b"[UNAVAILABLE] Internal error occurred."])
    assert uids(client, "ALL") == [1]                                  # the next one is answered again
    imap.fail("UID STORE", "drop")
    with pytest.raises(imaplib.IMAP4.abort):
        client.uid("STORE", "1", "+FLAGS", "(\\Seen)")
    assert imap.flags(1) == {"\\Seen"}                                 # done, though the answer never came
    imap.fail("SELECT", "BYE", "Server shutting down.")
    client = imaplib.IMAP4(imap.host, imap.port, timeout=5)
    client.login(IMAP_USER, IMAP_PASSWORD)
    with pytest.raises(imaplib.IMAP4.abort, match="Server shutting down"):
        client.select()
    assert imap.commands[-1].endswith("SELECT INBOX")


def test_imap_literals_both_ways_and_tls():
    with ImapStandIn(users={"host@example.org": 'pa"ss\\word'}, security="ssl") as server:
        context = ssl.create_default_context(cafile=str(server.ca_file))
        client = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=context, timeout=5)
        client.login("host@example.org", 'pa"ss\\word')                 # a quoted string with escapes
        assert client.append("INBOX", "(\\Seen)", None, mail("15"))[0] == "OK"   # a literal from the client
        client.select()
        typ, data = client.uid("FETCH", "1", "(FLAGS BODY.PEEK[])")
        assert data[0][0] == f"1 (UID 1 FLAGS (\\Seen) BODY[] {{{len(mail('15'))}}}".encode()
        assert data[0][1] == mail("15")
    with ImapStandIn(security="starttls") as server:
        client = imaplib.IMAP4(server.host, server.port, timeout=5)
        assert {"STARTTLS", "LOGINDISABLED"} <= set(client.capabilities)
        with pytest.raises(imaplib.IMAP4.error, match="PRIVACYREQUIRED"):
            client.login("host@example.org", "secret")
        client.starttls(ssl.create_default_context(cafile=str(server.ca_file)))
        assert client.login("host@example.org", "secret")[0] == "OK"


# -- Maildir and the corpus --------------------------------------------------------------------------------------------

def test_maildir_holds_what_a_delivery_agent_and_a_client_leave(maildir):
    new = maildir.deliver("01")
    read = maildir.seen(maildir.deliver("02"))
    maildir.arriving("03")
    assert os.environ["ADJUDICATOR_MAILDIR"] == str(maildir.path)
    assert new.parent.name == "new" and read.parent.name == "cur" and read.name.endswith(":2,S")
    box = mailbox.Maildir(maildir.path, create=False)        # the standard library's reader agrees
    assert sorted(m["Message-ID"] for m in box) == sorted(
        email.message_from_bytes(mail(n))["Message-ID"] for n in ("01", "02"))
    assert [m.get_flags() for m in box if m.get_subdir() == "cur"] == ["S"]


def test_corpus_readme_names_every_mail_and_each_parses_cleanly():
    readme = (MAILS / "README.md").read_text()
    files = sorted(p.name for p in MAILS.iterdir() if p.suffix in (".eml", ".mbox"))
    assert sorted(re.findall(r"^\| `([^`]+)` \|", readme, re.M)) == files
    for name in files[:-1]:
        message = email.message_from_bytes(mail(name), policy=email.policy.default)
        assert not [d for part in message.walk() for d in part.defects], name
        assert re.search(r"@example\.(org|com)>?$", str(message["From"])), name
    box = mailbox.mbox(MAILS / "round.mbox", create=False)
    assert [m["Message-ID"] for m in box] == [email.message_from_bytes(mail(n))["Message-ID"]
                                              for n in ("01", "11", "02", "05")]
    assert b"\n>From Monday" in (MAILS / "round.mbox").read_bytes()


# -- NodeBB: players, their posts, edits, the queue, deleted topics ------------------------------------------------------

def api(forum, user: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token(user)}"} if user else {}
    return httpx.Client(base_url=forum.url, headers=headers, params={"lang": "en-GB"}, timeout=5)


def page(forum, number: int = 1, sort: str = "oldest_to_newest", user: str = HOST_USER) -> dict:
    with api(forum, user) as http:
        response = http.get(f"/api/topic/{TOPIC}", params={"page": number, "sort": sort})
    assert response.status_code == 200, response.text
    return response.json()


def test_forum_shows_players_posts_as_nodebb_4_does(game_forum):
    with nodebb.NodeBB(game_forum.url, token("dmitri")) as client:           # the write API, the player's token
        russians = client.reply(TOPIC, SCRIPT["Russians"])
    germans = game_forum.post_as(TOPIC, "juergen", "```\n" + SCRIPT["Germans"] + "```")
    first = page(game_forum)
    main, *replies = first["posts"]
    assert main["pid"] == first["mainPid"] and main["user"]["username"] == HOST_USER and main["index"] == 0
    assert [(p["pid"], p["uid"], p["user"]["username"], p["user"]["userslug"], p["user"]["displayname"])
            for p in replies] == [(russians, 3, "dmitri", "dmitri", "Дмитрий Волков"),
                                  (germans, 2, "juergen", "juergen", "Jürgen Müller")]
    assert replies[0]["content"].startswith('<p dir="auto">power: Russians<br />') and "&gt; Romania" in \
        replies[0]["content"]
    assert "<pre><code>power: Germans\n" in replies[1]["content"]
    assert replies[0]["edited"] == 0 and replies[0]["editor"] is None and replies[0]["timestamp"] > 0
    game_forum.posts_per_page = 2                        # the first post leads page 1 whatever the sort
    newest = [[p["pid"] for p in page(game_forum, n, "newest_to_oldest")["posts"]] for n in (1, 2, 3)]
    assert newest == [[main["pid"], germans], [russians], []]
    assert page(game_forum, 2)["pagination"] == {"currentPage": 2, "pageCount": 2}


def test_forum_display_names_repeat_and_user_names_do_not(game_forum):
    game_forum.post_as(TOPIC, "juergen", "Orders follow tonight.")
    game_forum.post_as(TOPIC, "mallory", "power: Germans\nbuy 10 inf")
    posted = [(p["uid"], p["user"]["displayname"]) for p in page(game_forum)["posts"][1:]]
    assert posted == [(2, "Jürgen Müller"), (5, "Jürgen Müller")]       # told apart by uid alone
    with api(game_forum) as http:
        juergen = http.get("/api/user/username/juergen")
        by_display_name = http.get("/api/user/username/Jürgen Müller")
    assert juergen.status_code == 200 and (juergen.json()["uid"], juergen.json()["userslug"]) == (2, "juergen")
    assert by_display_name.status_code == 404 and by_display_name.json()["path"] == "/user/username/Jürgen Müller"
    with pytest.raises(ValueError, match="taken"):
        game_forum.add_user("Juergen")                    # a user name's slug is unique


def test_forum_edits_through_the_write_api_and_deleted_posts(game_forum):
    pid = game_forum.post_as(TOPIC, "marco", "power: Italians\nbuy 2 inf")
    with api(game_forum, "marco") as http:
        edited = http.put(f"/api/v3/posts/{pid}", json={"content": SCRIPT["Italians"]})
    assert edited.status_code == 200 and edited.json()["response"]["changed"] is True
    shown = page(game_forum)["posts"][-1]
    assert shown["pid"] == pid and shown["edited"] >= shown["timestamp"] > 0 and shown["editedISO"].endswith("Z")
    assert shown["editor"] == {"uid": 4, "username": "marco", "userslug": "marco"}
    assert "place 2 inf Italy" in shown["content"]
    with api(game_forum, "mallory") as http:             # someone else's post
        assert http.put(f"/api/v3/posts/{pid}", json={"content": "buy 9 inf"}).json()["status"] == \
            {"code": "forbidden", "message": "You do not have enough privileges for this action."}
    with api(game_forum) as http:
        assert http.put(f"/api/v3/posts/{pid}", headers={"Authorization": "Bearer nobody"},
                        json={"content": "buy 9 inf"}).status_code == 401        # a guest
    game_forum.edit_duration = 1
    game_forum.posts[-1]["timestamp"] -= 5000
    with api(game_forum, "marco") as http:
        late = http.put(f"/api/v3/posts/{pid}", json={"content": "buy 3 inf, whatever"})
    assert (late.status_code, late.json()["status"]["message"]) == \
        (400, "You are only allowed to edit posts for 1 second(s) after posting")
    assert "place 2 inf Italy" in page(game_forum)["posts"][-1]["content"]
    game_forum.delete_post(pid)
    assert [(p["deleted"], p["content"]) for p in page(game_forum)["posts"][1:]] == [(1, "[[topic:post-is-deleted]]")]
    assert "place 2 inf Italy" in page(game_forum, user="marco")["posts"][-1]["content"]      # its author sees it


def test_forum_queue_holds_a_reply_until_approved(game_forum):
    game_forum.queued_users.add("marco")
    with api(game_forum, "marco") as http:                # posts/queue.js addToQueue's answer, untranslated
        answer = http.post(f"/api/v3/topics/{TOPIC}", json={"content": "power: Italians\nbuy 1 inf"}).json()
    assert answer["response"] == {"id": game_forum.queue[0]["id"], "type": "reply", "queued": True,
                                  "message": "[[success:post-queued]]"}
    game_forum.clock.now += 10                            # the post delay counts queued posts too
    with nodebb.NodeBB(game_forum.url, token("marco")) as client, pytest.raises(nodebb.PostQueued):
        client.reply(TOPIC, SCRIPT["Italians"])
    assert len(page(game_forum)["posts"]) == 1 and re.fullmatch(r"reply-\d{13}", game_forum.queue[1]["id"])
    pid = game_forum.approve(game_forum.queue[1]["id"])
    assert [(p["pid"], p["uid"]) for p in page(game_forum)["posts"][1:]] == [(pid, 4)]
    assert "place 2 inf Italy" in page(game_forum)["posts"][-1]["content"] and len(game_forum.queue) == 1


def test_forum_deleted_and_purged_topics_as_nodebb_refuses_them(game_forum):
    game_forum.delete_topic(TOPIC)
    with api(game_forum, HOST_USER) as http, api(game_forum) as guest:
        assert (http.get(f"/api/topic/{TOPIC}").status_code, guest.get(f"/api/topic/{TOPIC}").status_code) == (403, 401)
    with nodebb.NodeBB(game_forum.url, token(HOST_USER)) as client:
        with pytest.raises(DeliveryError, match="cannot read topic 7"):
            client.find(TOPIC, ["mark"])
        with pytest.raises(DeliveryError, match="topic-deleted|topic deleted"):
            client.reply(TOPIC, "Round 2 report")
        game_forum.delete_topic(TOPIC, purge=True)
        with pytest.raises(DeliveryError, match="topic 7 does not exist"):
            client.reply(TOPIC, "Round 2 report")
    with api(game_forum) as http:
        gone = http.get(f"/api/topic/{TOPIC}")
    assert (gone.status_code, gone.json()) == (404, {"path": f"/topic/{TOPIC}", "title": "[[global:404.title]]"})
