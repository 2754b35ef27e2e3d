"""Mailing a report, against a real SMTP server on loopback in each security mode, and each failure a host meets."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from adjudicator.delivery.mail import SmtpSettings, send, smtp_settings
from adjudicator.errors import ConfigError, DeliveryError
from smtp_server import SMTPServer, free_port

LOGINS = {"host@example.org": "correct horse"}
REPORT = "\n".join([
    "Turn 3 — Germany (Frühling 1942)",
    "Dice: " + " ".join(str(i % 6 + 1) for i in range(1000)),   # 2,000 characters on one line
    "From here the Panzers roll east.",                           # mbox would mangle it to ">From"
    ".",                                                          # SMTP would end the data here, unstuffed
    "trailing spaces   ",
    "\tindented with a tab",
    "",
]) + "\n"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64 + b"\r\n.\r\n"


@pytest.fixture
def serve(monkeypatch) -> Callable[..., SMTPServer]:
    """Starts servers that stop after the test; the client trusts the last one's certificate authority."""
    servers: list[SMTPServer] = []

    def start(security: str, auth: dict[str, str] | None = None, **options) -> SMTPServer:
        server = SMTPServer(security, auth=auth, **options).start()
        servers.append(server)
        monkeypatch.setenv("SSL_CERT_FILE", str(server.ca_file))
        return server

    yield start
    for server in servers:
        server.stop()


def settings_for(server: SMTPServer, login: bool = True, **changes) -> SmtpSettings:
    user, password = next(iter(LOGINS.items())) if login else (None, None)
    values = dict(host=server.host, port=server.port, user=user, password=password,
                  sender="A&A Adjudicator <bot@example.org>", security=server.security)
    return SmtpSettings(**(values | changes))


def failure(settings: SmtpSettings, to: tuple[str, ...] = ("player@example.org",), **options) -> str:
    with pytest.raises(DeliveryError) as caught:
        send(settings, list(to), "Turn 3", REPORT, **options)
    assert caught.value.exit_code == 4
    if settings.password:
        assert settings.password not in caught.value.message
    return caught.value.message


@pytest.mark.parametrize("security, auth", [("none", None), ("starttls", LOGINS), ("ssl", LOGINS)])
def test_the_report_arrives_intact_for_every_recipient(serve, security, auth):
    server = serve(security, auth)
    to = ["germany@example.org", "ussr@example.net"]
    message_id = send(settings_for(server, login=auth is not None), to, "Turn 3 — Germany", REPORT,
                      [("map.png", PNG, "image/png")])
    [received] = server.messages
    assert received.tls == (security != "none")
    assert (received.envelope_from, received.envelope_to) == ("bot@example.org", to)
    assert received["From"] == "A&A Adjudicator <bot@example.org>"
    assert received["To"].addresses == () and not any(a.encode() in received.raw for a in to)   # blind copies
    assert received["Subject"] == "Turn 3 — Germany"
    assert received["Message-ID"] == message_id and message_id.endswith("@example.org>")
    assert received["Date"].datetime is not None
    body = received.get_body(("plain",))
    assert body["Content-Transfer-Encoding"] in ("quoted-printable", "base64")
    assert body.get_content() == REPORT
    assert max(map(len, received.raw.splitlines())) <= 998
    assert b"\n" not in received.raw.replace(b"\r\n", b"")   # bare line feeds are refused by many servers
    [picture] = received.iter_attachments()
    assert (picture.get_filename(), picture.get_content_type(), picture.get_content()) == ("map.png", "image/png", PNG)


def test_a_login_without_tls_goes_only_to_a_relay_on_this_machine(serve):
    server = serve("none", LOGINS)
    send(settings_for(server), ["germany@example.org"], "Turn 3", REPORT)
    assert len(server.messages) == 1
    with pytest.raises(ConfigError, match="ADJUDICATOR_SMTP_SECURITY is none"):
        send(settings_for(server, host="smtp.example.org"), ["germany@example.org"], "Turn 3", REPORT)


def test_international_addresses(serve):
    server = serve("starttls", LOGINS)
    send(settings_for(server), ["jürgen@example.org"], "Turn 3", REPORT)
    assert server.messages[0].envelope_to == ["jürgen@example.org"]
    assert server.messages[0]["To"] == "jürgen@example.org"


def test_a_wrong_password_names_the_settings_and_app_passwords(serve):
    server = serve("starttls", LOGINS)
    message = failure(settings_for(server, password="hunter2-wrong"))
    assert "535" in message and "ADJUDICATOR_SMTP_USER" in message and "ADJUDICATOR_SMTP_PASSWORD" in message
    assert "app password" in message
    assert not server.messages


def test_starttls_missing_sends_nothing(serve):
    server = serve("none", LOGINS)   # would take the password in clear
    message = failure(settings_for(server, security="starttls"))
    assert "does not offer STARTTLS" in message and "ADJUDICATOR_SMTP_SECURITY" in message
    assert not server.messages


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_an_untrusted_certificate_is_refused(serve, monkeypatch, security):
    server = serve(security, LOGINS)
    monkeypatch.delenv("SSL_CERT_FILE")
    message = failure(settings_for(server))
    assert "not trusted" in message and "SSL_CERT_FILE" in message and "ADJUDICATOR_SMTP_SECURITY" in message
    assert not server.messages


def test_tls_from_the_start_to_a_plain_server(serve):
    server = serve("none")
    message = failure(settings_for(server, login=False, security="ssl"))
    assert message.startswith("TLS with the SMTP server") and "ADJUDICATOR_SMTP_SECURITY" in message


def test_a_refused_recipient_is_named_and_no_one_gets_the_mail(serve):
    server = serve("starttls", LOGINS, refuse=("nobody@example.org",))
    message = failure(settings_for(server), to=("germany@example.org", "nobody@example.org"))
    assert "nobody@example.org (550" in message and "germany@example.org" not in message
    assert not server.messages


def test_a_server_that_wants_a_login(serve):
    server = serve("starttls", LOGINS)
    message = failure(settings_for(server, login=False))
    assert "530 5.7.0 Authentication required" in message and "set ADJUDICATOR_SMTP_USER" in message


def test_other_smtp_errors_give_code_and_text(serve):
    server = serve("none", data_size_limit=len(PNG) // 2)
    message = failure(settings_for(server, login=False), attachments=[("map.png", PNG, "image/png")])
    assert "552 Error: Too much mail data" in message
    assert not server.messages


def test_no_recipients():
    assert failure(SmtpSettings("127.0.0.1", 25, None, None, "bot@example.org", "none"), to=()).startswith("no recipients")


def test_no_server_listening():
    message = failure(SmtpSettings("127.0.0.1", free_port(), None, None, "bot@example.org", "none"))
    assert "refused the connection" in message
    assert "ADJUDICATOR_SMTP_HOST" in message and "ADJUDICATOR_SMTP_PORT" in message


def test_unknown_host():
    message = failure(SmtpSettings("no-such-host.invalid", 587, "u", "s3cret-pw", "bot@example.org", "starttls"))
    assert "cannot find the SMTP server 'no-such-host.invalid'" in message and "ADJUDICATOR_SMTP_HOST" in message


def test_a_server_that_never_answers():
    with socket.create_server(("127.0.0.1", 0)) as silent:   # accepts connections, says nothing
        message = failure(SmtpSettings("127.0.0.1", silent.getsockname()[1], None, None, "bot@example.org", "none"),
                          timeout=0.3)
    assert "no answer" in message and "0.3 s" in message and "ADJUDICATOR_SMTP_PORT" in message


def test_settings_from_the_environment():
    env = {"ADJUDICATOR_SMTP_HOST": "smtp.gmail.com", "ADJUDICATOR_SMTP_USER": "host@gmail.com",
           "ADJUDICATOR_SMTP_PASSWORD": "abcd efgh ijkl mnop"}
    quiet_relay = {"ADJUDICATOR_SMTP_SECURITY": "none", "ADJUDICATOR_SMTP_USER": "", "ADJUDICATOR_SMTP_FROM": "a@b.org"}
    settings = smtp_settings(env)
    assert settings == SmtpSettings("smtp.gmail.com", 587, "host@gmail.com", "abcd efgh ijkl mnop", "host@gmail.com",
                                    "starttls")
    assert "abcd" not in repr(settings)
    assert smtp_settings(env | {"ADJUDICATOR_SMTP_SECURITY": "SSL"}).port == 465
    assert smtp_settings(env | quiet_relay).port == 25
    assert smtp_settings(env | {"ADJUDICATOR_SMTP_PORT": "2525"}).port == 2525
    assert smtp_settings(env | {"ADJUDICATOR_SMTP_FROM": "Bot <bot@example.org>"}).sender == "Bot <bot@example.org>"


@pytest.mark.parametrize("changes, setting", [
    ({"ADJUDICATOR_SMTP_HOST": ""}, "ADJUDICATOR_SMTP_HOST"),
    ({"ADJUDICATOR_SMTP_USER": "host"}, "ADJUDICATOR_SMTP_FROM"),      # a login that is no address
    ({"ADJUDICATOR_SMTP_FROM": "the host"}, "ADJUDICATOR_SMTP_FROM"),
    ({"ADJUDICATOR_SMTP_PORT": "smtp"}, "ADJUDICATOR_SMTP_PORT"),
    ({"ADJUDICATOR_SMTP_PORT": "70000"}, "ADJUDICATOR_SMTP_PORT"),
    ({"ADJUDICATOR_SMTP_SECURITY": "tls"}, "ADJUDICATOR_SMTP_SECURITY"),
    ({"ADJUDICATOR_SMTP_PASSWORD": "Kennwort-ü"}, "ADJUDICATOR_SMTP_PASSWORD"),
])
def test_bad_settings_name_the_setting(changes, setting):
    env = {"ADJUDICATOR_SMTP_HOST": "smtp.example.org", "ADJUDICATOR_SMTP_USER": "host@example.org"}
    with pytest.raises(ConfigError, match=setting):
        smtp_settings(env | changes)
