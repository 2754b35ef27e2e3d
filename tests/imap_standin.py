"""An IMAP4rev1 server on loopback for tests of reading mail, faithful (RFC 3501) in what Python's imaplib meets.

    with ImapStandIn(users={"host@example.org": "secret"}) as server:
        server.append(raw_mail)
        client = imaplib.IMAP4(server.host, server.port)
        client.login("host@example.org", "secret")
        client.select("INBOX")
        client.uid("SEARCH", "UNSEEN")

What a test can make it do: append mail (`append`), renumber a folder under a new UIDVALIDITY as a rebuilt mail store
does (`set_uidvalidity`), and answer the next command of a name with NO or BAD, drop the connection half-way through
its answer (after doing what it asks, as when a connection breaks while the answer travels), close with BYE, or hang
until the server stops (`fail`). `commands` logs every command received.

Where RFC 3501 leaves a choice, the stand-in does as Dovecot 2.3 does: UIDs `n:*` with n past the last UID still
name the last message (the range is unordered); a message is served with CRLF line ends whatever it was stored with;
FETCH of BODY[] or RFC822 (not BODY.PEEK[]) sets \\Seen in a folder opened read-write and says so with FLAGS;
new mail is announced with `* n EXISTS` before the answer to the next command; a LOGIN refused says
[AUTHENTICATIONFAILED] (RFC 5530), a folder that does not exist [NONEXISTENT]. Not offered: AUTHENTICATE, IDLE,
UIDPLUS, COPY/MOVE, folders other than those given.
"""

from __future__ import annotations

import email
import email.policy
import re
import socketserver
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
SYSTEM_FLAGS = ("\\Answered", "\\Flagged", "\\Deleted", "\\Seen", "\\Draft")
# A token: a parenthesis, a quoted string, or an atom, which may hold a bracketed section with spaces and
# parentheses in it (BODY.PEEK[HEADER.FIELDS (SUBJECT FROM)]).
_TOKEN = re.compile(rb'\s*(?:(?P<open>\()|(?P<close>\))|"(?P<quoted>(?:[^"\\]|\\.)*)"'
                    rb'|(?P<atom>[^\s()"\[\]]*\[[^\]]*\][^\s()"]*|[^\s()"]+))')
_LITERAL = re.compile(rb"\{(\d+)(\+?)\}\r?\n\Z")


@dataclass
class Message:
    uid: int
    raw: bytes
    flags: set[str]
    internaldate: float


@dataclass
class Folder:
    uidvalidity: int
    uidnext: int = 1
    messages: list[Message] = field(default_factory=list)


@dataclass
class Failure:
    command: str
    answer: str          # "NO", "BAD", "BYE", "drop" or "hang"
    text: str


class BadCommand(Exception):
    """A command the server cannot parse or does not know: answered BAD, nothing done."""


class Refused(Exception):
    """A command understood and refused: answered NO with its response code and text, nothing done."""


class ImapStandIn:
    """users: login -> password. folders: names of the folders there are (INBOX always). security: "none", "ssl"
    (TLS from the first byte) or "starttls" (LOGINDISABLED until STARTTLS), with a certificate authority of its own
    (`ca_file`, for SSL_CERT_FILE) as the SMTP test server has. uidvalidity: of every folder at the start."""

    host = HOST

    def __init__(self, users: dict[str, str] | None = None, folders: tuple[str, ...] = ("INBOX",),
                 security: str = "none", uidvalidity: int | None = None):
        if security not in ("none", "ssl", "starttls"):
            raise ValueError(f"unknown security {security!r}")
        self.users = dict(users if users is not None else {"host@example.org": "secret"})
        start = uidvalidity if uidvalidity is not None else int(time.time())
        self.folders = {_folder_name(name): Folder(start) for name in ("INBOX", *folders)}
        self.security = security
        self.commands: list[str] = []      # each command as received, literals shown as {n}
        self.failures: list[Failure] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.tls: ssl.SSLContext | None = None
        self.ca_file: Path | None = None
        if security != "none":
            self._ca_folder = tempfile.TemporaryDirectory(prefix="imap-ca-")
            self.tls, self.ca_file = _certificates(Path(self._ca_folder.name))
        self._server: socketserver.ThreadingTCPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- the test API ----------------------------------------------------------------------------------------------

    def append(self, raw: bytes, folder: str = "INBOX", flags: tuple[str, ...] = (),
               when: float | None = None) -> int:
        """Deliver a mail into a folder, as the mail server does when it arrives; returns its UID."""
        with self.lock:
            box = self.folders[_folder_name(folder)]
            uid = box.uidnext
            box.messages.append(Message(uid, _crlf(raw), set(flags), time.time() if when is None else when))
            box.uidnext += 1
            return uid

    def set_uidvalidity(self, value: int, folder: str = "INBOX") -> None:
        """The folder rebuilt (a restored backup, a new server): the same mails under new UIDs from 1, so a client
        must forget the UIDs it kept. A session that has the folder open is closed with BYE at its next command."""
        with self.lock:
            box = self.folders[_folder_name(folder)]
            box.uidvalidity = value
            for uid, message in enumerate(box.messages, start=1):
                message.uid = uid
            box.uidnext = len(box.messages) + 1

    def fail(self, command: str, answer: str = "NO", text: str = "") -> None:
        """The next command named `command` ("LOGIN", "SELECT", "UID FETCH", ...) is answered `answer`: "NO" or
        "BAD" (nothing done), "BYE" (the server closes the connection, as on shutting down), "drop" (done, and the
        connection cut half-way through the answer) or "hang" (no answer until the server stops)."""
        if answer not in ("NO", "BAD", "BYE", "drop", "hang"):
            raise ValueError(f"unknown answer {answer!r}")
        with self.lock:
            self.failures.append(Failure(command.upper(), answer, text or f"{command} refused by the test"))

    def flags(self, uid: int, folder: str = "INBOX") -> set[str]:
        with self.lock:
            return set(next(m for m in self.folders[_folder_name(folder)].messages if m.uid == uid).flags)

    def uids(self, folder: str = "INBOX") -> list[int]:
        with self.lock:
            return [m.uid for m in self.folders[_folder_name(folder)].messages]

    # -- running ---------------------------------------------------------------------------------------------------

    def __enter__(self) -> ImapStandIn:
        handler = type("Handler", (_Session,), {"server_state": self})
        self._server = socketserver.ThreadingTCPServer((HOST, 0), handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        if self.security != "none":
            self._ca_folder.cleanup()

    def _failure(self, command: str) -> Failure | None:
        with self.lock:
            found = next((f for f in self.failures if f.command == command), None)
            if found:
                self.failures.remove(found)
            return found


def _certificates(folder: Path) -> tuple[ssl.SSLContext, Path]:
    import trustme
    ca = trustme.CA()
    ca_file = folder / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(HOST, "localhost").configure_cert(context)
    return context, ca_file


def _folder_name(name: str) -> str:
    """INBOX is case-insensitive (RFC 3501 5.1); other names are not."""
    return "INBOX" if name.upper() == "INBOX" else name


def _crlf(raw: bytes) -> bytes:
    return re.sub(rb"(?<!\r)\n", b"\r\n", raw)


def _astring(text: str) -> str:
    """A mailbox name as Dovecot writes it: bare when it is an atom, else quoted."""
    if re.fullmatch(r"[A-Za-z0-9._/&+-]+", text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Session(socketserver.StreamRequestHandler):
    """One client's connection: its state (not authenticated, authenticated, selected) and its open folder."""

    server_state: ImapStandIn

    def setup(self) -> None:
        super().setup()
        self.user: str | None = None
        self.folder: str | None = None
        self.readonly = False
        self.known = 0                  # the message count this client was told (EXISTS)
        self.uidvalidity = 0
        self.tls = False

    def finish(self) -> None:
        """Writes go straight to the socket (which STARTTLS replaces), so it is closed here, TLS or not."""
        super().finish()
        self.request.close()

    def handle(self) -> None:
        try:
            if self.server_state.security == "ssl":
                self._start_tls()
            self._send(f"* OK [CAPABILITY {self._capabilities()}] IMAP stand-in ready.")
            while True:
                tokens = self._read_command()
                if tokens is None or not self._run(tokens):
                    return
        except (OSError, ssl.SSLError):
            return                       # the client went away, or spoke no TLS to a TLS port

    def _start_tls(self) -> None:
        """TLS from here on (at once for "ssl", after STARTTLS's OK for "starttls"): the socket is replaced."""
        assert self.server_state.tls is not None
        self.request = self.server_state.tls.wrap_socket(self.request, server_side=True)
        self.rfile = self.request.makefile("rb")
        self.tls = True

    # -- reading -----------------------------------------------------------------------------------------------------

    def _read_command(self) -> list | None:
        """A command line with its literals read in: `{n}` is answered with a continuation request (+), then n
        bytes are read; `{n+}` (LITERAL+) is not offered, so it is taken the same way."""
        parts: list[bytes | tuple[bytes]] = []
        shown = b""
        while True:
            line = self.rfile.readline(65536)
            if not line:
                return None
            literal = _LITERAL.search(line)
            if not literal:
                parts.append(line.rstrip(b"\r\n"))
                shown += line.rstrip(b"\r\n")
                break
            parts.append(line[:literal.start()])
            shown += line[:literal.start()] + b"{" + literal[1] + b"}"
            size = int(literal[1])
            self._send("+ Ready for literal data")
            parts.append((self.rfile.read(size),))
        with self.server_state.lock:
            self.server_state.commands.append(shown.decode("latin-1"))
        return _tokens(parts)

    # -- answering ---------------------------------------------------------------------------------------------------

    def _send(self, line: str | bytes) -> None:
        self.request.sendall((line.encode() if isinstance(line, str) else line) + b"\r\n")

    def _run(self, tokens: list) -> bool:
        """Answer one command; False when the connection is to close."""
        if len(tokens) < 2 or not isinstance(tokens[0], str) or not isinstance(tokens[1], str):
            tag = tokens[0] if tokens and isinstance(tokens[0], str) else "*"
            self._send(f"{tag} BAD Error in IMAP command received by server.")
            return True
        tag, name, args = tokens[0], tokens[1].upper(), tokens[2:]
        if name == "UID" and args and isinstance(args[0], str):
            name, args = f"UID {args[0].upper()}", args[1:]
        if self.folder and self.uidvalidity != self.server_state.folders[self.folder].uidvalidity:
            self._send("* BYE Mailbox UIDVALIDITY changed, reconnect.")
            return False
        failure = self.server_state._failure(name)
        if failure and failure.answer in ("NO", "BAD"):
            self._send(f"{tag} {failure.answer} {failure.text}")
            return True
        if failure and failure.answer == "BYE":
            self._send(f"* BYE {failure.text}")
            return False
        if failure and failure.answer == "hang":
            self.server_state.stopping.wait()
            return False
        try:
            lines, done, keep = self._execute(name, args)
            answer = b"".join(line + b"\r\n" for line in lines) + f"{tag} OK {done}\r\n".encode()
        except Refused as refused:
            answer, keep = f"{tag} NO {refused}\r\n".encode(), True
        except BadCommand as bad:
            answer, keep = f"{tag} BAD Error in IMAP command {name}: {bad}\r\n".encode(), True
        if failure:                                                 # "drop": done, half of the answer sent
            self.request.sendall(answer[:max(1, len(answer) // 2)])
            return False
        self.request.sendall(answer)
        if name == "STARTTLS" and keep:
            self._start_tls()
        return keep

    def _capabilities(self) -> str:
        words = ["IMAP4rev1"]
        if self.server_state.security == "starttls" and not self.tls:
            words += ["STARTTLS", "LOGINDISABLED"]
        return " ".join(words)

    def _execute(self, name: str, args: list) -> tuple[list[bytes], str, bool]:
        """The untagged lines, the text of the tagged OK, and whether the connection stays open."""
        if name == "CAPABILITY":
            return [f"* CAPABILITY {self._capabilities()}".encode()], "Capability completed.", True
        if name == "NOOP" or name == "CHECK" and self.folder:
            return self._news(), f"{name.title()} completed.", True
        if name == "LOGOUT":
            return [b"* BYE Logging out"], "Logout completed.", False
        if name == "STARTTLS":
            if self.server_state.security != "starttls" or self.tls:
                raise BadCommand("TLS is not offered here" if not self.tls else "TLS is already active")
            return [], "Begin TLS negotiation now.", True
        if name == "LOGIN":
            return self._login(args)
        if self.user is None:
            raise BadCommand("Not logged in" if name in _COMMANDS else "Unknown command")
        if name in ("SELECT", "EXAMINE"):
            return self._select(args, readonly=name == "EXAMINE")
        if name in ("STATUS", "LIST", "APPEND"):
            return getattr(self, f"_{name.lower()}")(args)
        if name not in _COMMANDS:
            raise BadCommand("Unknown command")
        if self.folder is None:
            raise BadCommand("No mailbox selected")
        if name in ("CLOSE", "EXPUNGE"):
            return self._expunge(close=name == "CLOSE")
        by_uid = name.startswith("UID ")
        verb = name.removeprefix("UID ")
        news = self._news()
        if verb == "SEARCH":
            lines, done = self._search(args, by_uid)
        elif verb == "FETCH":
            lines, done = self._fetch(args, by_uid)
        else:
            lines, done = self._store(args, by_uid)
        return news + lines, done, True

    # -- commands ----------------------------------------------------------------------------------------------------

    def _login(self, args: list) -> tuple[list[bytes], str, bool]:
        if len(args) != 2 or not all(isinstance(a, str) for a in args):
            raise BadCommand("LOGIN takes a user name and a password")
        if self.user is not None:
            raise BadCommand("Already logged in")
        if "LOGINDISABLED" in self._capabilities():
            raise Refused("[PRIVACYREQUIRED] Plaintext authentication disallowed on non-secure (SSL/TLS) "
                          "connections.")
        if self.server_state.users.get(args[0]) != args[1]:
            raise Refused("[AUTHENTICATIONFAILED] Authentication failed.")
        self.user = args[0]
        return [], f"[CAPABILITY {self._capabilities()}] Logged in", True

    def _select(self, args: list, readonly: bool) -> tuple[list[bytes], str, bool]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise BadCommand("SELECT takes a mailbox name")
        self.folder = None                              # RFC 3501 6.3.1: a failed SELECT leaves none selected
        name = _folder_name(args[0])
        with self.server_state.lock:
            box = self.server_state.folders.get(name)
            if box is None:
                raise Refused(f"[NONEXISTENT] Mailbox doesn't exist: {args[0]}")
            unseen = next((i for i, m in enumerate(box.messages, start=1) if "\\Seen" not in m.flags), None)
            self.folder, self.readonly, self.known = name, readonly, len(box.messages)
            self.uidvalidity = box.uidvalidity
            lines = [f"* FLAGS ({' '.join(SYSTEM_FLAGS)})",
                     f"* OK [PERMANENTFLAGS ({' '.join(SYSTEM_FLAGS)} \\*)] Flags permitted."
                     if not readonly else "* OK [PERMANENTFLAGS ()] Read-only mailbox.",
                     f"* {len(box.messages)} EXISTS", "* 0 RECENT"]
            lines += [f"* OK [UNSEEN {unseen}] First unseen."] if unseen else []
            lines += [f"* OK [UIDVALIDITY {box.uidvalidity}] UIDs valid", f"* OK [UIDNEXT {box.uidnext}] Predicted next UID"]
        done = "[READ-ONLY] Examine completed." if readonly else "[READ-WRITE] Select completed."
        return [line.encode() for line in lines], done, True

    def _status(self, args: list) -> tuple[list[bytes], str, bool]:
        if len(args) != 2 or not isinstance(args[0], str) or not isinstance(args[1], list):
            raise BadCommand("STATUS takes a mailbox name and a list of items")
        with self.server_state.lock:
            box = self.server_state.folders.get(_folder_name(args[0]))
            if box is None:
                raise Refused(f"[NONEXISTENT] Mailbox doesn't exist: {args[0]}")
            values = {"MESSAGES": len(box.messages), "UIDNEXT": box.uidnext, "UIDVALIDITY": box.uidvalidity,
                      "UNSEEN": sum("\\Seen" not in m.flags for m in box.messages), "RECENT": 0}
        items = [str(item).upper() for item in args[1]]
        if unknown := [item for item in items if item not in values]:
            raise BadCommand(f"Invalid status item {unknown[0]}")
        listed = " ".join(f"{item} {values[item]}" for item in items)
        return [f"* STATUS {_astring(_folder_name(args[0]))} ({listed})".encode()], "Status completed.", True

    def _list(self, args: list) -> tuple[list[bytes], str, bool]:
        if len(args) != 2 or not all(isinstance(a, str) for a in args):
            raise BadCommand("LIST takes a reference and a mailbox pattern")
        pattern = re.compile(re.escape(args[0] + args[1]).replace(r"\*", ".*").replace("%", "[^/]*") + r"\Z")
        names = [n for n in self.server_state.folders if pattern.match(n) or pattern.match(n.lower())]
        return [f'* LIST (\\HasNoChildren) "/" {_astring(n)}'.encode() for n in names], "List completed.", True

    def _append(self, args: list) -> tuple[list[bytes], str, bool]:
        if len(args) < 2 or not isinstance(args[0], str) or not isinstance(args[-1], bytes):
            raise BadCommand("APPEND takes a mailbox name, optional flags and date, and the message as a literal")
        name = _folder_name(args[0])
        if name not in self.server_state.folders:
            raise Refused(f"[TRYCREATE] Mailbox doesn't exist: {args[0]}")
        flags = tuple(args[1]) if len(args) > 2 and isinstance(args[1], list) else ()
        self.server_state.append(args[-1], name, flags)
        return [], "Append completed.", True

    def _news(self) -> list[bytes]:
        """Mail come in since the client was last told, announced as RFC 3501 7.3.1 has it."""
        if self.folder is None:
            return []
        with self.server_state.lock:
            count = len(self.server_state.folders[self.folder].messages)
        if count == self.known:
            return []
        self.known = count
        return [f"* {count} EXISTS".encode()]

    def _expunge(self, close: bool) -> tuple[list[bytes], str, bool]:
        if self.readonly:
            if close:
                self.folder = None
                return [], "Close completed.", True
            raise Refused("Mailbox is read-only.")
        with self.server_state.lock:
            box = self.server_state.folders[self.folder]
            gone = [i for i, m in enumerate(box.messages[:self.known], start=1) if "\\Deleted" in m.flags]
            box.messages = [m for m in box.messages if "\\Deleted" not in m.flags]
        self.known -= len(gone)
        if close:
            self.folder = None
            return [], "Close completed.", True
        return [f"* {seq} EXPUNGE".encode() for seq in reversed(gone)], "Expunge completed.", True

    def _view(self) -> list[Message]:
        """The messages this client knows of, in sequence-number order."""
        with self.server_state.lock:
            return list(self.server_state.folders[self.folder].messages[:self.known])

    def _chosen(self, spec: object, by_uid: bool) -> list[tuple[int, Message]]:
        """The (sequence number, message) pairs a sequence set or UID set names. `*` is the largest number in
        use, and a range is unordered, so `n:*` with n past the end still names the last message."""
        if not isinstance(spec, str) or not re.fullmatch(r"(\d+|\*)(:(\d+|\*))?(,(\d+|\*)(:(\d+|\*))?)*", spec):
            raise BadCommand("Invalid messageset")
        view = self._view()
        numbers = [m.uid for m in view] if by_uid else list(range(1, len(view) + 1))
        largest = numbers[-1] if numbers else 0
        chosen: set[int] = set()
        for piece in spec.split(","):
            low, _, high = piece.partition(":")
            ends = [largest if end == "*" else int(end) for end in (low, high or low)]
            if not by_uid and (0 in ends or max(ends) > largest):
                raise BadCommand("Invalid messageset")
            chosen |= {n for n in numbers if min(ends) <= n <= max(ends)}
        return [(seq, m) for seq, m in enumerate(view, start=1) if (m.uid if by_uid else seq) in chosen]

    def _search(self, args: list, by_uid: bool) -> tuple[list[bytes], str]:
        if len(args) >= 2 and isinstance(args[0], str) and args[0].upper() == "CHARSET":
            if str(args[1]).upper() not in ("US-ASCII", "UTF-8"):
                raise Refused("[BADCHARSET (US-ASCII UTF-8)] Unsupported charset")
            args = args[2:]
        if not args:
            raise BadCommand("Missing search parameters")
        view = self._view()
        every = set(range(1, len(view) + 1))
        found = set(every)
        rest = list(args)
        while rest:
            found &= self._criterion(rest, view, every)
        numbers = [view[seq - 1].uid if by_uid else seq for seq in sorted(found)]
        return [("* SEARCH" + "".join(f" {n}" for n in numbers)).encode()], "Search completed."

    def _criterion(self, rest: list, view: list[Message], every: set[int]) -> set[int]:
        """The sequence numbers one search key matches, taken from the front of `rest`."""
        key = rest.pop(0)
        if isinstance(key, list):
            inner, found = list(key), set(every)
            while inner:
                found &= self._criterion(inner, view, every)
            return found
        if not isinstance(key, str):
            raise BadCommand("Unknown argument")
        word = key.upper()
        flagged = {"SEEN": "\\Seen", "ANSWERED": "\\Answered", "FLAGGED": "\\Flagged", "DELETED": "\\Deleted",
                   "DRAFT": "\\Draft"}
        if word == "ALL":
            return set(every)
        if word in flagged:
            return {seq for seq in every if flagged[word] in view[seq - 1].flags}
        if word.startswith("UN") and word[2:] in flagged:
            return {seq for seq in every if flagged[word[2:]] not in view[seq - 1].flags}
        if word == "NOT":
            return every - self._criterion(rest, view, every)
        if word == "OR":
            return self._criterion(rest, view, every) | self._criterion(rest, view, every)
        if word == "UID":
            return {seq for seq, _ in self._chosen(rest.pop(0) if rest else None, True)}
        if word in ("SUBJECT", "FROM", "TO", "HEADER"):
            field_name = (rest.pop(0) if word == "HEADER" and rest else word)
            if not rest or not isinstance(field_name, str):
                raise BadCommand(f"Missing argument of {word}")
            wanted = _text(rest.pop(0)).lower()
            return {seq for seq in every if wanted in _header(view[seq - 1].raw, field_name).lower()}
        if re.fullmatch(r"[\d*:,]+", key):
            return {seq for seq, _ in self._chosen(key, False)}
        raise BadCommand(f"Unknown argument {key}")

    def _fetch(self, args: list, by_uid: bool) -> tuple[list[bytes], str]:
        if len(args) != 2:
            raise BadCommand("FETCH takes a message set and the items")
        items = args[1] if isinstance(args[1], list) else [args[1]]
        words = [str(item).upper() for item in items]
        if "FAST" in words:
            words = ["FLAGS", "INTERNALDATE", "RFC822.SIZE"]
        if by_uid and "UID" not in words:
            words.insert(0, "UID")
        for word in words:
            if not (word in ("UID", "FLAGS", "INTERNALDATE", "RFC822.SIZE", "RFC822", "RFC822.HEADER", "RFC822.TEXT")
                    or _SECTION.fullmatch(word)):
                raise BadCommand(f"Unknown parameter {word}")
        lines = []
        for seq, message in self._chosen(args[0], by_uid):
            parts, marks_seen = [], False
            for word in words:
                value, reads = self._item(message, word)
                parts.append(value)
                marks_seen |= reads
            if marks_seen and not self.readonly and "\\Seen" not in message.flags:
                with self.server_state.lock:
                    message.flags.add("\\Seen")
                if "FLAGS" not in words:
                    parts.append(f"FLAGS ({' '.join(sorted(message.flags))})".encode())
            lines.append(f"* {seq} FETCH (".encode() + b" ".join(parts) + b")")
        return lines, "Fetch completed."

    def _item(self, message: Message, word: str) -> tuple[bytes, bool]:
        """One FETCH item as answered, and whether fetching it marks the message read."""
        if word == "UID":
            return f"UID {message.uid}".encode(), False
        if word == "FLAGS":
            with self.server_state.lock:
                return f"FLAGS ({' '.join(sorted(message.flags))})".encode(), False
        if word == "INTERNALDATE":
            when = time.strftime("%d-%b-%Y %H:%M:%S +0000", time.gmtime(message.internaldate))
            return f'INTERNALDATE "{when}"'.encode(), False
        if word == "RFC822.SIZE":
            return f"RFC822.SIZE {len(message.raw)}".encode(), False
        head, _, body = message.raw.partition(b"\r\n\r\n")
        if word in ("RFC822", "RFC822.HEADER", "RFC822.TEXT"):
            data = {"RFC822": message.raw, "RFC822.HEADER": head + b"\r\n\r\n", "RFC822.TEXT": body}[word]
            return _literal(word, data), word != "RFC822.HEADER"
        found = _SECTION.fullmatch(word)
        assert found
        section = found["section"]
        if section == "":
            data = message.raw
        elif section == "HEADER":
            data = head + b"\r\n\r\n"
        elif section == "TEXT":
            data = body
        else:
            names = {n.upper() for n in found["fields"].split()}
            kept = [field for field in re.split(rb"\r\n(?![ \t])", head)
                    if field.split(b":", 1)[0].strip().decode("latin-1").upper() in names]
            data = b"".join(field + b"\r\n" for field in kept) + b"\r\n"
        answered = f"BODY[HEADER.FIELDS ({found['fields']})]" if found["fields"] is not None else f"BODY[{section}]"
        return _literal(answered, data), not found["peek"]

    def _store(self, args: list, by_uid: bool) -> tuple[list[bytes], str]:
        if len(args) != 3 or not isinstance(args[1], str):
            raise BadCommand("STORE takes a message set, FLAGS, +FLAGS or -FLAGS, and the flags")
        how = re.fullmatch(r"([+-]?)FLAGS(\.SILENT)?", args[1].upper())
        if not how:
            raise BadCommand(f"Unknown STORE item {args[1]}")
        flags = args[2] if isinstance(args[2], list) else [args[2]]
        if not all(isinstance(f, str) for f in flags) or any(f.lower() == "\\recent" for f in flags):
            raise BadCommand("Invalid system flag")
        named = {next((s for s in SYSTEM_FLAGS if s.lower() == f.lower()), f) for f in flags}
        chosen = self._chosen(args[0], by_uid)
        if self.readonly:
            raise Refused("Mailbox is read-only.")
        lines = []
        with self.server_state.lock:
            for seq, message in chosen:
                if how[1] == "+":
                    message.flags |= named
                elif how[1] == "-":
                    message.flags -= named
                else:
                    message.flags = set(named)
                if not how[2]:
                    uid = f"UID {message.uid} " if by_uid else ""
                    lines.append(f"* {seq} FETCH ({uid}FLAGS ({' '.join(sorted(message.flags))}))".encode())
        return lines, "Store completed."


_COMMANDS = {"CAPABILITY", "NOOP", "CHECK", "LOGOUT", "STARTTLS", "LOGIN", "SELECT", "EXAMINE", "STATUS", "LIST",
             "APPEND", "CLOSE", "EXPUNGE", "SEARCH", "FETCH", "STORE", "UID SEARCH", "UID FETCH", "UID STORE"}
_SECTION = re.compile(r"BODY(?P<peek>\.PEEK)?\[(?P<section>|HEADER|TEXT|HEADER\.FIELDS \((?P<fields>[^()]*)\))\]")


def _literal(name: str, data: bytes) -> bytes:
    return f"{name} {{{len(data)}}}\r\n".encode() + data


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _header(raw: bytes, name: str) -> str:
    """A header's text as a person reads it (RFC 2047 words decoded), which SEARCH matches."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return " ".join(str(value) for value in message.get_all(name, []))


def _tokens(parts: list) -> list:
    """The command's tokens: atoms and quoted strings as str, literals as bytes, parenthesised lists as lists."""
    stack: list[list] = [[]]
    for part in parts:
        if isinstance(part, tuple):
            stack[-1].append(part[0])
            continue
        position = 0
        while position < len(part.rstrip()):
            found = _TOKEN.match(part, position)
            if not found:
                stack[-1].append(part[position:].strip().decode("latin-1"))
                break
            position = found.end()
            if found["open"]:
                stack.append([])
            elif found["close"]:
                if len(stack) > 1:
                    inner = stack.pop()
                    stack[-1].append(inner)
            elif found["quoted"] is not None:
                stack[-1].append(re.sub(rb"\\(.)", rb"\1", found["quoted"]).decode("utf-8", "replace"))
            else:
                stack[-1].append(found["atom"].decode("utf-8", "replace"))
    while len(stack) > 1:
        inner = stack.pop()
        stack[-1].append(inner)
    return stack[0]
