"""A real SMTP server (aiosmtpd) on loopback, for tests of mail delivery.

    with SMTPServer(security="starttls", auth={"host": "secret"}) as server:
        monkeypatch.setenv("SSL_CERT_FILE", str(server.ca_file))
        ... send to server.host:server.port ...
        server.messages[0]["Subject"], server.messages[0].envelope_to

Each server has its own certificate authority (trustme), so a client trusts it only when told to through
SSL_CERT_FILE, as a host would for a private mail server. With `auth`, logging in is required before mail is
accepted, and (for starttls) only possible after STARTTLS, so a client that skips either step is refused.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import tempfile
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import trustme
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

HOST = "127.0.0.1"


class ReceivedMessage(EmailMessage):
    """A message as the server received it, with its SMTP envelope, the bytes on the wire (`raw`) and whether they
    came over TLS."""

    envelope_from: str
    envelope_to: list[str]
    raw: bytes
    tls: bool


def free_port() -> int:
    """A port nothing listens on (the kernel's pick, released at once)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class _Handler:
    def __init__(self, refuse: set[str], login_required: bool, data_delay: float):
        self.refuse = refuse
        self.login_required = login_required
        self.data_delay = data_delay
        self.messages: list[ReceivedMessage] = []

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          options: list[str]) -> str:
        if self.login_required and not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          options: list[str]) -> str:
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        # Stored as a mail store or client does, with the wire's CRLF line ends made "\n"
        message = message_from_bytes(envelope.original_content.replace(b"\r\n", b"\n"), _class=ReceivedMessage,
                                     policy=policy.default)
        message.envelope_from = envelope.mail_from
        message.envelope_to = list(envelope.rcpt_tos)
        message.raw = envelope.original_content
        message.tls = server.transport.get_extra_info("ssl_object") is not None
        self.messages.append(message)
        await asyncio.sleep(self.data_delay)      # kept, not yet confirmed: a client that dies now cannot tell
        return "250 OK"


class SMTPServer:
    """security: "none" (plain), "starttls" (plain, offers STARTTLS) or "ssl" (TLS from the first byte).
    auth: logins and passwords the server accepts, or None for a server that takes mail from anyone.
    refuse: recipient addresses answered with 550.
    data_delay: seconds between keeping a message and saying so (250 after DATA): a slow server.
    smtp_options: passed on to aiosmtpd's SMTP, e.g. data_size_limit."""

    host = HOST

    def __init__(self, security: str = "none", auth: dict[str, str] | None = None, refuse: tuple[str, ...] = (),
                 data_delay: float = 0.0, **smtp_options):
        if security not in ("none", "starttls", "ssl"):
            raise ValueError(f"unknown security {security!r}")
        self.security = security
        self.port = free_port()
        self._handler = _Handler(set(refuse), login_required=auth is not None, data_delay=data_delay)
        self._folder = tempfile.TemporaryDirectory(prefix="smtp-ca-")
        self.ca_file = Path(self._folder.name) / "ca.pem"
        ca = trustme.CA()
        ca.cert_pem.write_to_path(str(self.ca_file))
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ca.issue_cert(HOST, "localhost").configure_cert(tls)
        options = smtp_options | ({"tls_context": tls} if security == "starttls" else
                                  {"ssl_context": tls} if security == "ssl" else {})
        if auth is not None:
            # aiosmtpd counts only STARTTLS as TLS, so a "none" or "ssl" server must not ask for it; logging in is
            # required by the handler, since aiosmtpd's auth_required warns when TLS is not
            options |= {"authenticator": _Authenticator(auth), "auth_require_tls": security == "starttls"}
        self._controller = Controller(self._handler, hostname=HOST, port=self.port, **options)

    @property
    def messages(self) -> list[ReceivedMessage]:
        return self._handler.messages

    @property
    def data_delay(self) -> float:
        return self._handler.data_delay

    @data_delay.setter
    def data_delay(self, seconds: float) -> None:
        self._handler.data_delay = seconds

    def start(self) -> SMTPServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()
        self._folder.cleanup()

    def __enter__(self) -> SMTPServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


class _Authenticator:
    def __init__(self, logins: dict[str, str]):
        self.logins = logins

    def __call__(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                 data: LoginPassword) -> AuthResult:
        login, password = data.login.decode(), data.password.decode()
        # handled=False: aiosmtpd answers a refusal with 535 itself
        return AuthResult(success=self.logins.get(login) == password, handled=False, auth_data=data)
