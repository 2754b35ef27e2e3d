"""Mailing a turn report over SMTP.

The password only ever travels inside TLS (STARTTLS or TLS from the start), except to a relay on this machine, and
certificates are always verified: against the system's store, or the file SSL_CERT_FILE names for a private
authority. Every failure becomes a DeliveryError naming the ADJUDICATOR_SMTP_* setting to look at.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import smtplib
import socket
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

from ..config import MAIL, check_destination
from ..errors import ConfigError, DeliveryError
from ..redact import redact

DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}

Attachment = tuple[str, bytes, str]   # file name, contents, MIME type ("image/png")


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None = field(repr=False)   # kept out of reprs, so out of logs and tracebacks
    sender: str                                 # an address, or "Name <address>"
    security: str                               # starttls | ssl | none


def smtp_settings(env: Mapping[str, str] = os.environ) -> SmtpSettings:
    """The settings come from the environment (and .env) only, so that a mail password never lands in a game
    database that is shared or posted."""
    host = env.get("ADJUDICATOR_SMTP_HOST", "").strip()
    if env is os.environ:
        check_destination(MAIL, ("ADJUDICATOR_SMTP_USER", "ADJUDICATOR_SMTP_PASSWORD"))
    if not host:
        raise ConfigError("ADJUDICATOR_SMTP_HOST is not set: give the name of the mail server, e.g. smtp.gmail.com")
    security = env.get("ADJUDICATOR_SMTP_SECURITY", "").strip().lower() or "starttls"
    if security not in DEFAULT_PORTS:
        raise ConfigError(f"ADJUDICATOR_SMTP_SECURITY is {security!r}: use starttls (port 587), ssl (TLS from the "
                          f"start, port 465) or none (a relay without TLS)")
    port = DEFAULT_PORTS[security]
    if port_text := env.get("ADJUDICATOR_SMTP_PORT", "").strip():
        try:
            port = int(port_text)
        except ValueError:
            port = 0
        if not 0 < port < 65536:
            raise ConfigError(f"ADJUDICATOR_SMTP_PORT is {port_text!r}: give a port number from 1 to 65535")
    user = env.get("ADJUDICATOR_SMTP_USER", "").strip() or None
    password = env.get("ADJUDICATOR_SMTP_PASSWORD") or None
    for name, value in (("ADJUDICATOR_SMTP_USER", user), ("ADJUDICATOR_SMTP_PASSWORD", password)):
        if value and not value.isascii():   # smtplib sends logins as ASCII only
            raise ConfigError(f"{name} holds characters outside ASCII, which SMTP login cannot send")
    sender = env.get("ADJUDICATOR_SMTP_FROM", "").strip() or (user if user and "@" in user else "")
    if not sender:
        raise ConfigError("ADJUDICATOR_SMTP_FROM is not set: give the address reports are sent from")
    if "@" not in parseaddr(sender)[1]:
        raise ConfigError(f"ADJUDICATOR_SMTP_FROM is {sender!r}, which is not a mail address")
    return SmtpSettings(host=host, port=port, user=user, password=password, sender=sender, security=security)


def message_id(settings: SmtpSettings, key: str) -> str:
    """The Message-ID of the mail that `key` names, the same on every try: a mail sent again because the server's
    answer was lost is the same message, which mail clients and many servers keep only once."""
    return f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}@{_domain(settings)}>"


def _domain(settings: SmtpSettings) -> str:
    # The sender's domain, not make_msgid's default: that asks DNS for this machine's name, which can stall and
    # tells every player the host's machine name.
    return parseaddr(settings.sender)[1].rpartition("@")[2]


def compose(settings: SmtpSettings, to: Sequence[str], subject: str, text: str,
            attachments: Sequence[Attachment] = (), msgid: str | None = None,
            thread: Sequence[str] = ()) -> EmailMessage:
    """The report goes quoted-printable: every line arrives exactly as written however long it is (a dice line runs
    to hundreds of characters), where 8bit would break SMTP's limit of 998 characters a line. The text's line ends
    become CRLF on the wire and "\\n" again when read; a text not ending in a line end gets one.

    Players are not shown each other's addresses: a mail to more than one goes to them as blind copies (on the
    envelope only, under "undisclosed-recipients"). `thread`: the Message-IDs of the mails this one follows, the
    last its parent, so that mail clients show a game's mails as one conversation."""
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to[0] if len(to) == 1 else "undisclosed-recipients:;"
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = msgid or make_msgid(domain=_domain(settings))
    if thread:
        message["In-Reply-To"] = thread[-1]
        message["References"] = " ".join(thread)
    message.set_content(text, cte="quoted-printable")
    for name, data, mime_type in attachments:
        maintype, _, subtype = mime_type.partition("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message


def send(settings: SmtpSettings, to: Sequence[str], subject: str, text: str,
         attachments: Sequence[Attachment] = (), *, msgid: str | None = None, thread: Sequence[str] = (),
         timeout: float = 60.0) -> str:
    """Mail the report to every address in `to` and return its Message-ID (`msgid`, else a new one).

    Every recipient gets it, or none does: a refused address stops the mail before its contents are sent, so that
    mailing again once the address is fixed sends no one a second copy."""
    if not to:
        raise DeliveryError("no recipients: there is no address to mail the report to")
    if settings.security == "none" and _logs_in(settings) and not _is_loopback(settings.host):
        raise ConfigError(f"ADJUDICATOR_SMTP_SECURITY is none, so the password for {settings.host} would travel "
                          f"unencrypted: use starttls or ssl, or none only for a relay on this machine (localhost)")
    message = compose(settings, to, subject, text, attachments, msgid, thread)
    try:
        _transmit(settings, message, to, timeout)
    except OSError as exc:   # smtplib's and ssl's errors included
        raise _failure(settings, _explain(exc, settings, timeout)) from None
    return message["Message-ID"]


def _transmit(settings: SmtpSettings, message: EmailMessage, to: Sequence[str], timeout: float) -> None:
    context = ssl.create_default_context()   # verifies; reads SSL_CERT_FILE now, not at import
    if settings.security == "ssl":
        smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=timeout)
    with smtp:   # QUIT on the way out also drops a transaction left unfinished
        _secure_and_log_in(smtp, settings, context)
        _hand_over(smtp, settings, message, to)


def _secure_and_log_in(smtp: smtplib.SMTP, settings: SmtpSettings, context: ssl.SSLContext) -> None:
    where = f"the SMTP server {settings.host}:{settings.port}"
    smtp.ehlo_or_helo_if_needed()
    if settings.security == "starttls":
        if not smtp.has_extn("starttls"):
            raise _failure(settings, f"{where} does not offer STARTTLS, so nothing was sent (starttls never falls "
                                     f"back to plain text): check ADJUDICATOR_SMTP_SECURITY and ADJUDICATOR_SMTP_PORT "
                                     f"(ssl is usually 465)")
        smtp.starttls(context=context)
        smtp.ehlo_or_helo_if_needed()
    if _logs_in(settings):
        if not smtp.has_extn("auth"):
            raise _failure(settings, f"{where} offers no login: leave ADJUDICATOR_SMTP_USER and "
                                     f"ADJUDICATOR_SMTP_PASSWORD empty for this server")
        smtp.login(settings.user, settings.password)


def _hand_over(smtp: smtplib.SMTP, settings: SmtpSettings, message: EmailMessage, to: Sequence[str]) -> None:
    """All recipients are asked for before the data goes, so that one refusal sends the mail to no one."""
    sender = parseaddr(settings.sender)[1]
    international = not all(address.isascii() for address in (sender, *to))
    if international and not smtp.has_extn("smtputf8"):
        raise _failure(settings, f"the SMTP server {settings.host} cannot take addresses outside ASCII (SMTPUTF8)")
    code, reply = smtp.mail(sender, ["SMTPUTF8"] if international else [])
    if code != 250:
        raise smtplib.SMTPSenderRefused(code, reply, sender)
    refused = []
    for address in to:
        code, reply = smtp.rcpt(address)
        if code not in (250, 251):
            refused.append(f"{address} ({_said(code, reply)})")
    if refused:
        raise _failure(settings, f"the SMTP server refused {', '.join(refused)}: nothing was sent; correct the "
                                 f"address and mail again")
    code, reply = smtp.data(message.as_bytes(policy=policy.SMTPUTF8 if international else policy.SMTP))
    if code != 250:   # smtplib checks every reply but this last one
        raise smtplib.SMTPDataError(code, reply)


def _logs_in(settings: SmtpSettings) -> bool:
    return bool(settings.user and settings.password)


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _said(code: int, reply: bytes | str) -> str:
    return f"{code} {reply.decode(errors='replace') if isinstance(reply, bytes) else reply}".strip()


def _explain(exc: OSError, settings: SmtpSettings, timeout: float) -> str:
    where = f"the SMTP server {settings.host}:{settings.port}"
    check = "check ADJUDICATOR_SMTP_HOST and ADJUDICATOR_SMTP_PORT"
    match exc:
        # smtplib reports a reply that never came as a disconnection, caused by the timeout
        case TimeoutError() | smtplib.SMTPServerDisconnected(__context__=TimeoutError()):
            return (f"no answer from {where} within {timeout:g} s: {check} (a port that wants TLS from the start, "
                    f"usually 465, needs ADJUDICATOR_SMTP_SECURITY=ssl)")
        case smtplib.SMTPAuthenticationError():
            return (f"{where} refused the login of {settings.user} ({_said(exc.smtp_code, exc.smtp_error)}): check "
                    f"ADJUDICATOR_SMTP_USER and ADJUDICATOR_SMTP_PASSWORD; Gmail and Outlook accounts with two-step "
                    f"sign-in want an app password (made in the account's security settings), not the account's own")
        case smtplib.SMTPResponseException(smtp_code=530):
            return (f"{where} wants a login ({_said(exc.smtp_code, exc.smtp_error)}): set ADJUDICATOR_SMTP_USER and "
                    f"ADJUDICATOR_SMTP_PASSWORD")
        case smtplib.SMTPSenderRefused():
            return (f"{where} refused the sender {exc.sender} ({_said(exc.smtp_code, exc.smtp_error)}): check "
                    f"ADJUDICATOR_SMTP_FROM (many servers take only the login's own address)")
        case smtplib.SMTPResponseException():
            return f"{where} answered {_said(exc.smtp_code, exc.smtp_error)}"
        case smtplib.SMTPServerDisconnected():
            return f"{where} closed the connection ({exc}): {check} and ADJUDICATOR_SMTP_SECURITY"
        case smtplib.SMTPException():
            return f"{where} failed: {exc}"
        case ssl.SSLCertVerificationError():
            return (f"the TLS certificate of {where} is not trusted ({exc.verify_message}): ADJUDICATOR_SMTP_HOST must "
                    f"be the name in the certificate, and a server with a private certificate authority needs "
                    f"SSL_CERT_FILE set to that authority's certificate (a relay on this machine can use "
                    f"ADJUDICATOR_SMTP_SECURITY=none)")
        case ssl.SSLError():
            return (f"TLS with {where} failed ({exc.reason or exc}): check that ADJUDICATOR_SMTP_SECURITY suits the "
                    f"port: ssl for TLS from the start (usually 465), starttls for 587")
        case socket.gaierror():
            return f"cannot find the SMTP server {settings.host!r} ({exc.strerror}): check ADJUDICATOR_SMTP_HOST"
        case ConnectionRefusedError():
            return f"{where} refused the connection (nothing listens there): {check}"
        case _:
            return f"cannot reach {where} ({exc.strerror or exc}): {check}"


def _failure(settings: SmtpSettings, text: str) -> DeliveryError:
    """A server's reply can echo anything it was sent (an AUTH PLAIN login is base64), so the password is blotted
    out of every message, as the forum's path does."""
    return DeliveryError(redact(text, [settings.password]))
