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

import pytest

from imap_standin import ImapStandIn
from mailroom import IMAP_PASSWORD, IMAP_USER, MAILS, imap, mail, maildir  # noqa: F401  (fixtures)


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
        ("OK", [b'"INBOX" (MESSAGES 2 UNSEEN 2 UIDNEXT 3)'])


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
