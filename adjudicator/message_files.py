"""The messages a host hands to `inbox`: one mail (.eml), a mailbox (mbox), a Maildir folder, a forum post or
topic page saved from NodeBB's API (JSON), or orders saved as plain text; from a file, a folder or standard input.

What is none of these (an empty or binary file, a folder that is no Maildir, a file far larger than a game's
mails) is refused before anything is read into the game, with a message that says what to give instead.
"""

from __future__ import annotations

import codecs
import json
import re
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path

from .incoming import NotAMessage

MOST = 25 * 1024 * 1024     # bytes of one file or folder: a season's mails with pictures, far below a lost disk image
_HEADER_LINE = re.compile(rb"[!-9;-~]+:")
_MBOX_START = re.compile(rb"(?:\A|\n\r?\n)From [^\n]*\n")     # a From line after a blank line
_MBOX_ESCAPE = re.compile(rb"(?m)^>(>*From )")
_TEXT_MARKS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
GIVE = ("give a mail (.eml), a mailbox (mbox), a Maildir folder, a forum post or topic saved as JSON from "
        "NodeBB's API, or the orders as plain text with --from")


def load(source: str) -> list[tuple[str, bytes]]:
    """(kind, bytes) of each message in `source` (a path, or - for standard input); kind is "mail", "json" or
    "text"."""
    if source != "-" and Path(source).is_dir():
        return [("mail", data) for data in _maildir(Path(source))]
    data = _read(source)
    if data.lstrip()[:1] in (b"{", b"["):
        return [("json", data)]
    if data.startswith(b"From "):
        return [("mail", m) for m in _mbox(data)]
    if _is_mail(data):
        return [("mail", data)]
    return [("text", data)]


def _read(source: str) -> bytes:
    from .inputs import read_bytes
    if source != "-" and not Path(source).exists():
        raise NotAMessage(f"no file or folder at {source}: {GIVE}")
    data = read_bytes(source, "message", MOST)
    _check("standard input" if source == "-" else source, data)
    return data


def _check(name: str, data: bytes) -> None:
    if len(data) > MOST:
        raise NotAMessage(f"{name} holds more than {MOST:,} bytes, far more than a game's mails: nothing was "
                          f"read. {GIVE[0].upper()}{GIVE[1:]}")
    if not data.strip():
        raise NotAMessage(f"{name} is empty: there is no message in it to take")
    if b"\x00" in data[:65536] and not data.startswith(_TEXT_MARKS):
        raise NotAMessage(f"{name} holds binary data, not a message: {GIVE}")


def _is_mail(data: bytes) -> bool:
    """Whether `data` starts with a mail's header lines, one of them From (plain orders may start with
    `power: …` lines, but name no From)."""
    if not _HEADER_LINE.match(data):
        return False
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(data)
    return headers.get("From") is not None


def _mbox(data: bytes) -> list[bytes]:
    """The mails of an mbox: each starts at a `From ` line; `>From ` lines in them are unescaped (mboxrd)."""
    starts = [m.end() for m in _MBOX_START.finditer(data)]
    ends = [m.start() for m in _MBOX_START.finditer(data)][1:] + [len(data)]
    return [_MBOX_ESCAPE.sub(rb"\1", data[a:b]) for a, b in zip(starts, ends) if data[a:b].strip()]


def _maildir(folder: Path) -> list[bytes]:
    """The mails of a Maildir folder (new/ and cur/, oldest first by name as Maildir names them)."""
    if not (folder / "cur").is_dir() or not (folder / "new").is_dir():
        raise NotAMessage(f"{folder} is a folder but no Maildir (it has no cur/ and new/ folders in it): {GIVE}")
    files = sorted((p for sub in ("new", "cur") for p in (folder / sub).iterdir() if p.is_file()),
                   key=lambda p: p.name)
    if sum(p.stat().st_size for p in files) > MOST:
        raise NotAMessage(f"the Maildir {folder} holds more than {MOST:,} bytes of mail: take its messages a "
                          "few at a time")
    mails = []
    for p in files:
        data = p.read_bytes()
        _check(str(p), data)
        mails.append(data)
    if not mails:
        raise NotAMessage(f"the Maildir {folder} holds no mail")
    return mails


def posts(data: bytes) -> list[tuple[dict, int]]:
    """(post, tid) of a saved NodeBB post object, a list of them, or a topic page (`GET /api/topic/{tid}`)."""
    try:
        body = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotAMessage(f"the JSON given cannot be read ({str(exc)[:80]}): save the post or topic as NodeBB's "
                          "API gives it (GET /api/topic/TID)") from None
    if isinstance(body, dict) and isinstance(body.get("posts"), list):
        found = [(p, body.get("tid")) for p in body["posts"]]
    elif isinstance(body, dict):
        found = [(body, body.get("tid"))]
    elif isinstance(body, list):
        found = [(p, p.get("tid") if isinstance(p, dict) else None) for p in body]
    else:
        found = []
    if not found or any(not isinstance(tid, int) or isinstance(tid, bool) for _, tid in found):
        raise NotAMessage("the JSON given is no NodeBB post or topic (each post needs its tid, as GET "
                          "/api/topic/TID gives it)")
    return found
