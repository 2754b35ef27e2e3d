"""One message a player sent (a mail, or a forum post), reduced to what taking it into a game needs: who sent it,
its stable identity, and the orders in the sender's own words.

Who sent it is what the channel vouches for, never what a message says of itself: a mail's From address (its
addr-spec, not the display name anyone can write), a forum post's user id (not the username or display name
shown with it). The orders are the sender's own text: quoted, signed-off and forwarded parts are someone else's
words or no orders (own_words), and an HTML-only mail or a post is read as its reader sees it (html_text).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from email import errors as mail_errors, policy
from email.message import EmailMessage
from email.parser import BytesParser

from .errors import AdjudicatorError
from .html_text import html_to_text
from .inputs import whole_number
from .orders_block import orders_block
from .own_words import own_words

MAIL, FORUM = "mail", "forum"
FORUM_UID = "forum-uid:"            # a forum sender's identity: forum-uid:<uid>
# What the email package raises on a header or part it cannot parse (a malformed From, a group where an address
# was due, an unknown charset): such a mail is still read, and answered for what it lacks.
_UNREADABLE = (ValueError, TypeError, IndexError, AttributeError, LookupError, AssertionError,
               mail_errors.MessageError)


class NotAMessage(AdjudicatorError):
    """A file or an object that holds no message that can be read: nothing was taken."""


@dataclass(frozen=True)
class Incoming:
    channel: str                    # MAIL or FORUM
    ref: str                        # the Message-ID, `post:<pid>`, or `sha256:<hex>` of a mail without one
    sender: str                     # the From addr-spec, lower-cased; or forum-uid:<uid>
    sender_name: str                # display name or username: for the answer's greeting, never for identity
    subject: str
    text: str                       # the sender's own lines, numbered as they wrote them
    version: str                    # sha256 of `text`; of a post, of its content as rendered: an edit makes
                                    # another, a later adjudicator reading the same post otherwise does not
    reply: dict = field(default_factory=dict, compare=False)   # what an answer needs to thread to the message
    problems: tuple[str, ...] = ()  # what was wrong with the message as such, to tell the sender


def _orders(text: str) -> tuple[str, list[str]]:
    """The orders in a message's text (the sender's own words, then the block from the header to `end`), and
    what the sender should be told was left out."""
    own, notes = own_words(text)
    block, aside = orders_block(own)
    return block, notes + aside


def _version(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# -- mail ------------------------------------------------------------------------------------------------------

def from_mail(raw: bytes) -> Incoming:
    """A mail as it was received (RFC 5322 bytes)."""
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    problems: list[str] = []
    sender, name = _sender(msg, problems)
    body = msg.get_body(preferencelist=("plain", "html"))
    if body is None:
        text = ""
        problems.append("the mail has no text to read orders from (write them in the mail itself, not in an "
                        "attachment)")
    else:
        content = _content(body)
        if body.get_content_type() == "text/html":
            text = html_to_text(content)
        elif str(body.get_param("format", "", header="content-type")).lower() == "flowed":
            text = _unflowed(content, str(body.get_param("delsp", "", header="content-type")).lower() == "yes")
        else:
            text = content
    problems += _not_read(msg, body)
    text, notes = _orders(text)
    problems += notes
    ref = _header(msg, "Message-ID") or f"sha256:{hashlib.sha256(raw).hexdigest()}"
    subject = _header(msg, "Subject")
    reply = {"message_id": _header(msg, "Message-ID"), "references": _header(msg, "References"),
             "in_reply_to": _header(msg, "In-Reply-To"), "from": _header(msg, "From"), "subject": subject}
    return Incoming(MAIL, ref, sender, name, subject, text, _version(text), reply, tuple(problems))


def _header(msg: EmailMessage, name: str) -> str:
    """A header's value as text, "" when missing or unreadable (a mail from a broken client is still answered)."""
    try:
        value = msg.get(name)
    except _UNREADABLE:
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _sender(msg: EmailMessage, problems: list[str]) -> tuple[str, str]:
    """The From addr-spec, lower-cased, and the display name; ("", "") with a problem said when there is not
    exactly one address."""
    try:
        header = msg.get("From")
        addresses = [a for a in getattr(header, "addresses", ()) if a.addr_spec and "@" in a.addr_spec]
    except _UNREADABLE:
        addresses = []
    if len(addresses) != 1:
        problems.append("the mail's From line does not name one sender address" if not addresses else
                        "the mail's From line names several senders; orders come from one player's address")
        return "", ""
    return addresses[0].addr_spec.strip().lower(), addresses[0].display_name


def _content(part: EmailMessage) -> str:
    try:
        return part.get_content()
    except _UNREADABLE:                                      # an unknown charset, a broken transfer encoding
        data = part.get_payload(decode=True) or b""
        return data.decode("utf-8", errors="replace")


def _unflowed(text: str, delsp: bool) -> str:
    """A format=flowed body (RFC 3676, Thunderbird's default) as its sender wrote it: a line the client broke
    (ending in a space) joined to the next again, so that a long order is one line and the lines keep the
    numbers the player sees; the space a client stuffed before a line starting with a space, "From " or ">"
    taken away. Quoted lines and the signature separator are left as they are (they are dropped anyway)."""
    lines: list[str] = []
    held: str | None = None
    for line in text.splitlines():
        if line.startswith(" "):
            line = line[1:]
        soft = line.endswith(" ") and line != "-- " and not line.startswith(">")
        line = line[:-1] if soft and delsp else line
        held = line if held is None else held + line
        if not soft:
            lines.append(held)
            held = None
    return "\n".join(lines + ([held] if held is not None else []))


def _not_read(msg: EmailMessage, body: EmailMessage | None) -> list[str]:
    """What the mail carries besides its text, said so the sender knows it was not read."""
    said: list[str] = []

    def visit(part: EmailMessage, alternative: bool) -> None:
        kind = part.get_content_type()
        if kind == "message/rfc822":
            said.append("a mail attached to yours (a forward) was not read: it is someone else's words, not your "
                        "orders; write your orders in your own text")
        elif part.is_multipart():
            for child in part.iter_parts():
                visit(child, kind == "multipart/alternative")
        elif part is not body and not (alternative and part.get_content_maintype() == "text"):
            name = part.get_filename()
            said.append(f"the attachment {name!r} was not read: orders are read from the mail's own text only"
                        if name else f"a part of the mail ({kind}) was not read: orders are read from the mail's "
                        "own text only")
    visit(msg, False)
    return said


# -- forum -----------------------------------------------------------------------------------------------------

def from_post(post: dict, tid: int) -> Incoming:
    """A post object as NodeBB 4's `GET /api/topic/{tid}` lists it (content rendered to HTML)."""
    if not isinstance(post, dict):
        raise NotAMessage("a forum post must be a NodeBB post object (with pid, uid and content)")
    pid, uid = _number(post.get("pid")), _number(post.get("uid"))
    if pid is None or uid is None or not isinstance(post.get("content"), str):
        raise NotAMessage("a forum post must be a NodeBB post object with pid, uid and content (as "
                          "GET /api/topic/{tid} lists them)")
    user = post.get("user") if isinstance(post.get("user"), dict) else {}
    username = str(user.get("username") or "")
    problems: list[str] = []
    if post.get("deleted") in (1, True, "1"):
        problems.append("the post was deleted")
        text = ""
    else:
        text, problems = _orders(html_to_text(post["content"], source_breaks=True))
    reply = {"tid": tid, "pid": pid, "username": username}
    return Incoming(FORUM, f"post:{pid}", f"{FORUM_UID}{uid}", str(user.get("displayname") or username), "",
                    text, _version(post["content"]), reply, tuple(problems))


def _number(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else \
        whole_number(value, 19) if isinstance(value, str) else None


# -- plain text ------------------------------------------------------------------------------------------------

def from_text(text: str, sender: str, data: bytes) -> Incoming:
    """Orders saved as plain text, whose sender the host vouches for (`inbox --from`): a mail address or
    forum-uid:<uid>. The file as read (`data`) and its sender are the message's identity and its only version: a
    file changed, or given with another sender (a typo of the host's mended), is another message."""
    channel = FORUM if sender.startswith(FORUM_UID) else MAIL
    own, notes = _orders(text)
    digest = hashlib.sha256(sender.encode("utf-8") + b"\n" + data).hexdigest()
    return Incoming(channel, f"sha256:{digest}", sender, "", "", own, digest, {}, tuple(notes))


def vouched_sender(given: str) -> str:
    """The sender the host names with `--from`: a mail address (lower-cased) or forum-uid:<uid>."""
    from .contacts import ADDRESS
    given = given.strip()
    if given.lower().startswith(FORUM_UID):
        uid = whole_number(given[len(FORUM_UID):], 19)
        if uid is not None:
            return f"{FORUM_UID}{uid}"
    elif ADDRESS.fullmatch(given):
        return given.lower()
    raise NotAMessage(f"--from {given[:80]!r}: give the sender's mail address, or forum-uid:N for the forum "
                      "account with user id N")


# -- files -----------------------------------------------------------------------------------------------------

def read(source: str, sender: str | None = None) -> list[Incoming]:
    """Every message in `source` (see message_files), in the order given. Orders saved as plain text carry no
    sender: the host names it (`sender`, `inbox --from`); a mail or a post names its own, and `sender` is refused
    with one, so that the host's word never overrides what the channel vouches for."""
    from .inputs import decode
    from .message_files import load, posts
    found: list[Incoming] = []
    for kind, data in load(source):
        if sender is not None and kind != "text":
            raise NotAMessage("--from is only for orders saved as plain text: a mail's sender is its From "
                              "address and a forum post's its user id; leave --from out")
        if kind == "mail":
            found.append(from_mail(data))
        elif kind == "json":
            found += [from_post(post, tid) for post, tid in posts(data)]
        elif sender is None:
            raise NotAMessage(f"{'standard input' if source == '-' else source} holds plain text, not a mail or a "
                              "forum post: say who sent these orders with --from ADDRESS (or --from forum-uid:N for "
                              "a forum account)")
        else:
            found.append(from_text(decode(data), vouched_sender(sender), data))
    return found
