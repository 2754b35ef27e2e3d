"""Secrecy of the dice chain (DESIGN.md §1, issue 4 item 9): no command prints, and the game database never
holds, the seed of a turn that is not over, a later seed, or the chain secret s_N; a wrong key file is refused.
Secrecy of the host's logins (issue 27 item 8): no forum token or password is printed, whatever a forum echoes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import TEST_SEED
from nodebb_standin import NodeBBStandIn
from played_game import SCRIPT

from adjudicator import dice

HEX64 = re.compile(r"[0-9a-f]{64}")


def _chain() -> list[bytes]:
    """s_0 … s_N of the test games, walking down from the secret s_N."""
    seeds = [bytes.fromhex(TEST_SEED)]
    for _ in range(dice.CHAIN_LENGTH):
        seeds.append(hashlib.sha256(seeds[-1]).digest())
    return seeds[::-1]


SEEDS = _chain()                                 # SEEDS[i] = s_i


def secret_values(turn: int) -> set[str]:
    """Hex of every seed from the current turn's (not over yet) up to s_N: each gives away this turn's dice."""
    return {s.hex() for s in SEEDS[turn:]}


def leaks(text: str, turn: int) -> set[str]:
    return set(HEX64.findall(text.lower())) & secret_values(turn)


def test_no_command_and_no_database_byte_gives_away_a_seed_before_its_turn_is_over(cli, demo_db):
    def run(*args, code: int | None = 0, input: str | None = None) -> str:
        return cli(*args, code=code, input=input).output

    reads = [["status", demo_db], ["status", demo_db, "--json"], ["rolls", demo_db, "--json"], ["rolls", demo_db]]
    after_adjudication = [["audit", demo_db]] + [
        ["report", demo_db, "--format", fmt] for fmt in ("markdown", "bbcode", "text")]
    for action in SCRIPT:
        if action is None:
            outputs = [run("adjudicate", demo_db)] + [run(*args) for args in after_adjudication]
        else:
            outputs = [run("submit", demo_db, "--power", action[0], input=action[1]),
                       run("submit", demo_db, "--power", action[0], "--dry-run", input=action[1], code=None)]
        outputs += [run(*args) for args in reads]
        turn = cli.json("status", demo_db)["turn_index"]
        assert not any(leaks(out, turn) for out in outputs), "a command printed a seed of a turn not over"
        data = demo_db.read_bytes()
        assert not leaks(data.decode("latin-1"), turn)
        # Raw bytes too (not s_N: the test secret 00…01 occurs in any binary file by chance).
        assert not any(s in data for s in SEEDS[turn:turn + 3]), "a raw seed is in the database"
    assert not leaks(run("audit", demo_db, "--json"), turn)
    assert turn == 7 and SEEDS[6].hex() in run("report", demo_db, "--turn", "6")      # revealed once over


def test_a_wrong_key_file_is_refused_without_a_new_chain(cli, demo_db, tmp_path):
    (key,) = (tmp_path / "keys").glob("*.key")
    other = "ab" * 32
    key.write_text(re.sub(r"secret: [0-9a-f]{64}", f"secret: {other}", key.read_text()))
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    before = cli.json("status", demo_db)
    r = cli("adjudicate", demo_db, code=2)
    assert "does not belong to game t1" in r.output and other not in r.output and TEST_SEED not in r.output
    assert cli.json("status", demo_db) == before and cli.json("rolls", demo_db) == []
    assert [p.name for p in (tmp_path / "keys").iterdir()] == [key.name]


def test_the_chain_checked_above_is_the_games(cli, demo_db):
    assert cli.json("status", demo_db)["anchor"] == SEEDS[0].hex()


# -- forum and mail secrets (issue 27 item 8) ------------------------------------------------------------------------

TOKEN, PASSWORD = "tok-Secr3t/+x9Q", "pa55:w0rd/#"


def echoes(auth: str) -> dict[str, str]:
    """How a forum, or a proxy in front of it, may quote the request's Authorization header back in an error."""
    return {"raw": auth, "json": json.dumps({"Authorization": auth}), "html": f"<pre>{html.escape(auth)}</pre>",
            "percent": quote(auth, safe=""), "base64": base64.b64encode(auth.encode()).decode()}


class EchoingForum(ThreadingHTTPServer):
    """A forum on loopback whose replies fail with `status`, quoting the request's Authorization header in the
    form `form`: as NodeBB's status.message, or as an HTML page (a proxy's), or in a 200 without a post."""

    def __init__(self, status: int, form: str):
        forum = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:                      # /api/config: a forum that knows the token
                self._answer(200, json.dumps({"maximumPostLength": 32767, "uid": 1}), "application/json")

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                echo = echoes(self.headers.get("Authorization", ""))[forum.form]
                if forum.status == 500 or forum.form == "html":
                    return self._answer(forum.status, f"<html><body>{echo}</body></html>", "text/html")
                self._answer(forum.status, json.dumps({"status": {"code": "bad-request", "message": f"bad {echo}"},
                                                       "response": {}}), "application/json")

            def _answer(self, status: int, body: str, ctype: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body.encode())))
                self.end_headers()
                self.wfile.write(body.encode())

        super().__init__(("127.0.0.1", 0), Handler)
        self.status, self.form = status, form
        self.url = f"http://127.0.0.1:{self.server_port}/forums"
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()


def forms_of(secret: str) -> list[str]:
    """The secret, and how the echoes above carry it."""
    return [secret, quote(secret, safe=""), *(echoes(f"{scheme} {secret}")["base64"] for scheme in ("Bearer", "Basic"))]


@pytest.fixture
def posted_game(cli, played_demo, tmp_path, monkeypatch) -> Path:
    """The demo game after a turn, with its forum topic, and no waiting between the forum's retries."""
    from adjudicator.delivery import nodebb
    monkeypatch.setattr(nodebb, "BACKOFF", 0.0)
    shutil.copy(played_demo / "game.db", tmp_path / "game.db")
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", TOKEN)
    return tmp_path / "game.db"


@pytest.mark.parametrize("status", [400, 403, 500, 200])
@pytest.mark.parametrize("form", ["raw", "json", "html", "percent", "base64"])
def test_a_forum_that_echoes_the_token_never_gets_it_printed(cli, posted_game, monkeypatch, status, form):
    forum = EchoingForum(status, form)
    try:
        monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", forum.url)
        r = cli("post", posted_game, "--topic", "7", "--no-picture", code=4)
    finally:
        forum.shutdown()
        forum.server_close()
    assert "topic 7" in r.output or "failed 5 times" in r.output, r.output
    assert not [f for f in forms_of(TOKEN) if f in r.output], r.output


def test_a_password_in_the_forums_address_is_never_printed(cli, posted_game, monkeypatch):
    secret = f"host:{quote(PASSWORD, safe='')}"
    monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", f"http://{secret}@127.0.0.1:9/forums")     # nothing listens
    r = cli("post", posted_game, "--topic", "7", "--no-picture", code=4)
    assert "cannot reach the forum at http://***@127.0.0.1:9/forums" in r.output, r.output
    monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", f"ftp://{secret}@127.0.0.1/forums")
    r2 = cli("post", posted_game, "--no-picture", code=2)
    assert "ADJUDICATOR_NODEBB_URL must be the forum's address" in r2.output, r2.output
    for out in (r.output, r2.output):
        assert not [f for s in (PASSWORD, secret) for f in forms_of(s) if f in out], out


def test_a_mail_server_that_echoes_the_login_never_gets_the_password_printed():
    from adjudicator.delivery.mail import SmtpSettings, _failure
    settings = SmtpSettings(host="smtp.example.org", port=587, user="host@example.org", password=PASSWORD,
                            sender="host@example.org", security="starttls")
    plain = base64.b64encode(f"\0host@example.org\0{PASSWORD}".encode()).decode()      # an AUTH PLAIN login
    for reply in (f"535 no: {PASSWORD}", f"535 AUTH PLAIN {plain} refused", f"535 {quote(PASSWORD, safe='')}"):
        message = _failure(settings, f"the SMTP server answered {reply}").message
        assert not [f for f in (*forms_of(PASSWORD), plain) if f in message] and "***" in message, message


def test_the_map_pictures_link_in_a_post_carries_no_userinfo_of_the_forums_address():
    from adjudicator.delivery.nodebb import NodeBB
    with NodeBBStandIn(tokens={TOKEN: "host"}, users={"host": "pw-host"}) as forum:
        address = forum.url.replace("http://", f"http://host:{quote(PASSWORD, safe='')}@")
        with NodeBB(address, TOKEN, "host", "pw-host") as client:
            link = client.upload("map.png", b"\x89PNG\r\n\x1a\n")
    assert link.startswith(f"{forum.url}/assets/uploads/files/") and "@" not in link, link


# -- secrets in database URLs, settings and topic addresses (red team of issue 27) ---------------------------------

LEAKS = ("S3cretPW", "S3c", "retPW")          # the password, and each half of one with an unencoded '@' in it
DB_URLS = {
    "sslpassword": "postgresql://u@127.0.0.1:1/league?sslpassword=S3cretPW",
    "password parameter": "postgresql://u@127.0.0.1:1/league?password=S3cretPW&sslmode=disable",
    "an '@' in the password": "postgresql://u:S3c@retPW@127.0.0.1:1/league",
    "sslkey and a password": "postgresql://u:S3cretPW@127.0.0.1:1/league?sslkey=S3cretPW-key.pem",
}


@pytest.mark.parametrize("url", DB_URLS)
@pytest.mark.parametrize("command", ["new", "games", "games --json", "status", "copy", "copy back", "settings",
                                     "settings --json"])
def test_a_database_urls_secrets_are_never_printed(cli, played_demo, tmp_path, url, command):
    url = DB_URLS[url]
    args = {"new": ("new", url, "--game", "demo", "--id", "leak"), "games": ("games", url),
            "games --json": ("games", url, "--json"), "status": ("status", url),
            "copy": ("copy", url, tmp_path / "copy.db"), "copy back": ("copy", played_demo / "game.db", url),
            "settings": ("settings",), "settings --json": ("settings", "--json")}[command]
    if command.startswith("settings"):
        (tmp_path / ".env").write_text(f"ADJUDICATOR_DB={url}\n")
    r = cli(*args, code=None)
    assert r.exit_code in (0, 1, 2, 4) and "internal error" not in r.output, r.output
    assert "***" in r.output and not [s for s in LEAKS if s in r.output], r.output


@pytest.mark.parametrize("topic", ["https://bob:S3cretPW@forum.example/topic/abc/x",
                                   "https://bob:S3c@retPW@forum.example/topic/abc/x",
                                   "https://forum.example/topic/abc/x?token=S3cretPW"])
def test_a_topic_address_that_is_refused_is_printed_without_its_login(cli, played_demo, tmp_path, topic):
    for args in (("new", tmp_path / "new.db", "--game", "demo", "--topic", topic),
                 ("post", played_demo / "game.db", "--topic", topic, "--no-picture")):
        out = cli(*args, code=2).stderr
        assert "a topic is given by its number or its address" in out and "***" in out, out
        assert not [s for s in LEAKS if s in out], out
