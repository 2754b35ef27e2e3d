"""What a game folder mailed around may do to the host who runs the adjudicator in it (issue 27): a `.env` or a
template in it runs no code, reads no setting from a folder above, and sends the forum token through no proxy.
"""

from __future__ import annotations

import http.client
import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from adjudicator.demo import SCRIPT
from nodebb_standin import NodeBBStandIn

ESCAPES = {
    "a shell command": "{{ cycler.__init__.__globals__.os.system('touch escaped') }}",
    "a format string": "{{ '{0.__init__.__globals__[os].environ}'.format(cycler) }}",
    "a changed context": "{{ phases.append(1) }}",
}


@pytest.fixture(autouse=True)
def restored_environ(monkeypatch):
    """The settings a `.env` loads into this process's environment are undone after each test."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def played(cli, played_demo, tmp_path) -> Path:
    """A copy of the demo game after the Germans' turn, with its key."""
    shutil.copy(played_demo / "game.db", tmp_path / "game.db")
    shutil.copytree(played_demo / "keys", tmp_path / "keys", dirs_exist_ok=True)
    return tmp_path / "game.db"


def templates(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "report.text.j2").write_text(text)
    return folder


# -- templates -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("escape", ESCAPES)
def test_a_template_that_reaches_for_python_is_refused_and_runs_nothing(cli, played, tmp_path, monkeypatch, escape):
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(templates(tmp_path / "mine", ESCAPES[escape])))
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2 in ADJUDICATOR_TEMPLATES" in out and "tried an unsafe operation" in out, out
    assert "Traceback" not in out and not (tmp_path / "escaped").exists()


def test_a_template_named_by_a_dotenv_runs_nothing_when_a_turn_is_adjudicated(cli, demo_db, tmp_path):
    templates(tmp_path / "mailed", ESCAPES["a shell command"])
    (tmp_path / ".env").write_text("ADJUDICATOR_TEMPLATES=mailed\n")
    cli("submit", demo_db, "--power", "Germans", "-", input=SCRIPT["Germans"])
    before = cli.json("status", demo_db)
    assert "tried an unsafe operation" in cli("adjudicate", demo_db, "--format", "text", code=2).stderr
    assert not (tmp_path / "escaped").exists() and cli.json("status", demo_db) == before     # nothing was played


def test_code_compiled_outside_the_sandbox_is_never_taken_from_the_cache(cli, played, tmp_path, monkeypatch):
    from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader
    folder = templates(tmp_path / "mine", ESCAPES["a format string"])
    unsandboxed = Environment(loader=FileSystemLoader(str(folder)), bytecode_cache=FileSystemBytecodeCache())
    assert "ADJUDICATOR_KEYS_DIR" in unsandboxed.get_template("report.text.j2").render()     # the environment
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(folder))
    assert "tried an unsafe operation" in cli("report", played, "--format", "text", code=2).stderr


def test_a_hosts_own_template_lays_out_the_report_and_a_broken_one_is_named(cli, played, tmp_path, monkeypatch):
    folder = templates(tmp_path / "mine", "{{ game.id }} turn {{ turn.index }}: {{ phases | length }} phases\n")
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(folder))
    assert cli("report", played, "--format", "text").stdout.strip() == "dmg turn 1: 7 phases"
    assert cli("report", played, "--format", "markdown").stdout.startswith("## Demo")      # built-in, untouched
    templates(folder, "{% for x in phases %}\n")
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2 in ADJUDICATOR_TEMPLATES" in out and "failed" in out, out


# -- which .env is read ----------------------------------------------------------------------------------------------

def test_a_dotenv_in_a_folder_above_is_not_read(cli, tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("ADJUDICATOR_DB=game.db\n")
    (tmp_path / "mailed" / "game").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "mailed" / "game")
    cli("new", tmp_path / "game.db", "--game", "demo", "--id", "above")
    assert "no game database given" in cli("status", code=2).stderr
    assert cli("settings").stdout.startswith(f"no .env file in this folder ({Path.cwd()})")
    assert cli.json("settings")["file"] is None


def test_settings_say_which_file_was_read_and_hide_what_is_secret(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok-from-the-environment")
    (tmp_path / ".env").write_text("ADJUDICATOR_DB=postgresql://host:hunter2@db.example.org/league\n"
                                   "ADJUDICATOR_NODEBB_TOKEN=tok-from-the-file\nADJUDICATOR_SMTP_PASSWORD=pw-0f-mail\n")
    out = cli("settings").stdout
    assert out.startswith(f"settings read from {tmp_path / '.env'} (the environment wins over it)\n")
    assert "ADJUDICATOR_DB" in out and "postgresql://***@db.example.org/league  (.env)" in out
    rows = {row["key"]: row for row in cli.json("settings")["settings"]}
    assert rows["ADJUDICATOR_NODEBB_TOKEN"] == {"key": "ADJUDICATOR_NODEBB_TOKEN", "value": "(set, hidden)",
                                                "from": "environment"}
    assert rows["ADJUDICATOR_SMTP_PASSWORD"]["from"] == "file"
    assert not [s for s in ("hunter2", "tok-from", "pw-0f-mail") if s in out + str(rows)]


def test_a_dotenv_cannot_copy_a_secret_of_the_environment_into_a_setting(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok-from-the-environment")
    (tmp_path / ".env").write_text("ADJUDICATOR_SMTP_FROM=${ADJUDICATOR_NODEBB_TOKEN}@example.org\n")
    rows = {row["key"]: row["value"] for row in cli.json("settings")["settings"]}
    assert rows["ADJUDICATOR_SMTP_FROM"] == "${ADJUDICATOR_NODEBB_TOKEN}@example.org"


def test_ADJUDICATOR_ENV_names_the_file_to_read_or_none(cli, tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("ADJUDICATOR_DB=here.db\n")
    monkeypatch.setenv("ADJUDICATOR_ENV", "")
    assert "no game database given" in cli("status", code=2).stderr
    assert cli("settings").stdout.startswith("no .env file read (ADJUDICATOR_ENV is empty)")
    monkeypatch.setenv("ADJUDICATOR_ENV", "league.env")
    out = cli("status", code=2).stderr
    assert "ADJUDICATOR_ENV names league.env, which is not a file" in out and "Traceback" not in out


# -- proxies ---------------------------------------------------------------------------------------------------------

class ForwardingProxy(ThreadingHTTPServer):
    """A plain-HTTP proxy on loopback that passes every request on and keeps the addresses it was asked for."""

    def __init__(self):
        proxy = self
        self.requests: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                proxy.requests.append(self.path)
                target = urlsplit(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                connection = http.client.HTTPConnection(target.netloc, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
                connection.request(self.command, target.path + (f"?{target.query}" if target.query else ""), body,
                                   headers)
                answer = connection.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_port}"
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()


@pytest.mark.parametrize("key", ["HTTP_PROXY", "http_proxy", "ALL_PROXY"])
def test_a_proxy_in_a_dotenv_is_not_honoured_and_one_in_the_environment_is(cli, played, tmp_path, monkeypatch, key):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        for variant in (name, name.lower()):
            monkeypatch.delenv(variant, raising=False)
    other = tmp_path / "other.db"
    shutil.copy(played, other)
    proxy = ForwardingProxy()
    try:
        # no post delay: the second post follows the first at once, not after the forum's 10 s
        with NodeBBStandIn(tokens={"tok-host": "host"}, topics={7}, post_delay=0) as forum:
            monkeypatch.setenv("ADJUDICATOR_NODEBB_URL", forum.url)
            monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok-host")
            (tmp_path / ".env").write_text(f"{key}={proxy.url}\n")
            r = cli("post", played, "--topic", "7", "--no-picture")
            assert f"{key} in {tmp_path / '.env'} is not honoured" in r.stderr and "set it in the real" in r.stderr
            assert "posted turn 1" in r.stdout and proxy.requests == [] and len(forum.posts) == 1
            (tmp_path / ".env").unlink()
            monkeypatch.setenv(key, proxy.url)
            assert "posted turn 1" in cli("post", other, "--topic", "7", "--no-picture").stdout
            assert len(forum.posts) == 2 and f"{forum.url}/api/v3/topics/7?lang=en-GB" in proxy.requests
    finally:
        proxy.shutdown()
        proxy.server_close()


def test_a_dotenv_cannot_send_the_environments_forum_token_to_a_forum_it_names(cli, played, tmp_path, monkeypatch):
    with NodeBBStandIn(tokens={"tok-host": "host"}, topics={7}) as theirs:
        monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok-host")
        monkeypatch.delenv("ADJUDICATOR_NODEBB_URL", raising=False)
        (tmp_path / ".env").write_text(f"ADJUDICATOR_NODEBB_URL={theirs.url}\n")
        out = cli("post", played, "--topic", "7", "--no-picture", code=2).stderr
        assert "ADJUDICATOR_NODEBB_URL comes from the settings file" in out and "ADJUDICATOR_NODEBB_TOKEN" in out
        assert theirs.posts == [] and "tok-host" not in out
        (tmp_path / ".env").write_text(f"ADJUDICATOR_NODEBB_URL={theirs.url}\nADJUDICATOR_NODEBB_TOKEN=tok-host\n")
        monkeypatch.delenv("ADJUDICATOR_NODEBB_TOKEN")
        assert "posted turn 1" in cli("post", played, "--topic", "7", "--no-picture").stdout   # both from the file


def test_a_dotenv_cannot_send_the_environments_mail_password_to_a_server_it_names(cli, played, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_SMTP_PASSWORD", "hunter2")
    monkeypatch.setenv("ADJUDICATOR_SMTP_FROM", "host@example.org")
    monkeypatch.delenv("ADJUDICATOR_SMTP_HOST", raising=False)
    (tmp_path / ".env").write_text("ADJUDICATOR_SMTP_HOST=127.0.0.1\nADJUDICATOR_SMTP_PORT=9\n")
    out = cli("mail", played, code=2).stderr
    assert "ADJUDICATOR_SMTP_HOST and ADJUDICATOR_SMTP_PORT come from the settings file" in out, out
    assert "ADJUDICATOR_SMTP_PASSWORD" in out
    assert "hunter2" not in out


# -- what a host's template may read, and how much it may make (red team of issue 27) -------------------------------

def _leaky(folder: Path, target: Path | str) -> Path:
    """A templates folder of a mailed game: a link to a file of the host's, which the report template includes."""
    folder.mkdir(exist_ok=True)
    os.symlink(target, folder / "e.j2")
    (folder / "report.text.j2").write_text('{% include "report.markdown.j2" %}{% include "e.j2" %}\n')
    return folder


@pytest.mark.parametrize("target", ["/proc/self/environ", "the key file", "a link inside"])
def test_a_template_that_is_a_symbolic_link_is_refused(cli, played, tmp_path, monkeypatch, target):
    monkeypatch.setenv("ADJUDICATOR_NODEBB_TOKEN", "tok-of-the-host")
    if target == "the key file":
        target = next(p for p in (tmp_path / "keys").rglob("*") if p.is_file())
    elif target == "a link inside":
        (tmp_path / "t7").mkdir()
        (tmp_path / "t7" / "inside.txt").write_text("tok-of-the-host\n")
        target = "inside.txt"
    if target == "/proc/self/environ" and not Path(target).exists():
        pytest.skip("no /proc here")
    (tmp_path / ".env").write_text("ADJUDICATOR_TEMPLATES=t7\n")
    _leaky(tmp_path / "t7", target)
    r = cli("report", played, "--format", "text", code=2)
    assert "the template e.j2 in ADJUDICATOR_TEMPLATES" in r.stderr and "symbolic link" in r.stderr, r.output
    assert "tok-of-the-host" not in r.output and "Traceback" not in r.output


def test_a_template_that_is_no_regular_file_or_too_long_is_refused(cli, played, tmp_path, monkeypatch):
    folder = templates(tmp_path / "mine", '{% include "pipe.j2" %}\n')
    os.mkfifo(folder / "pipe.j2")                          # opening it for reading would wait for a writer forever
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(folder))
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template pipe.j2 in ADJUDICATOR_TEMPLATES" in out and "not a regular file" in out, out
    from adjudicator import report
    templates(folder, "x" * (report.TEMPLATE_FILE_LIMIT + 1))
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2" in out and "longer than" in out, out


BOMBS = {
    "a division by zero": ("{{ 1/0 }}", "failed: ZeroDivisionError"),
    "a range beyond the sandbox's": ("{{ range(200000)|list }}", "failed: OverflowError"),
    "a huge range": ("{{ range(10**9)|list }}", "larger than the limit"),
    "a long string": ("{{ 'x' * 4000000000 }}", "larger than the limit"),
    "a long list": ("{{ [1] * 10**9 }}", "larger than the limit"),
    "a huge power": ("{{ 7 ** (10 ** 12) }}", "larger than the limit"),
    "a wide format": ("{{ '%*s' % (10**9, 'x') }}", "larger than the limit"),
    "a wide filter": ("{{ 'x'|center(10**9) }}", "larger than the limit"),
    "a wide method": ("{{ 'x'.ljust(10**9) }}", "larger than the limit"),
    "doubling by filters": ("{{ ('x' * 9000000)|replace('x', 'xx') }}", "larger than the limit"),
    "doubling by joins": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                          "{% endfor %}{{ ns.s|length }}", "larger than the limit"),
    "doubling by sums": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
                         "{% endfor %}{{ ns.s|length }}", "larger than the limit"),
    "a product no check foresees": ("{{ ('x\\n' * 5000000)|indent(5000000) }}", "MemoryError"),
    "a recursion": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "failed: RecursionError"),
    "a wide str.format": ("{{ '{:>900000000}'.format('x') }}", "larger than the limit"),
    "a long report": ("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", "beyond the limit"),
}


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_template_that_fails_or_asks_too_much_is_named_not_an_internal_error(cli, played, tmp_path, monkeypatch,
                                                                                bomb):
    text, said = BOMBS[bomb]
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(templates(tmp_path / "mine", text)))
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2 in ADJUDICATOR_TEMPLATES" in out and said in out, out


def test_a_template_that_runs_too_long_is_stopped(cli, played, tmp_path, monkeypatch):
    from adjudicator import report
    monkeypatch.setattr(report, "TIME_LIMIT", 0.5)
    loops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}done"
    monkeypatch.setenv("ADJUDICATOR_TEMPLATES", str(templates(tmp_path / "mine", loops)))
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2 in ADJUDICATOR_TEMPLATES" in out and "longer than 0.5 seconds" in out, out
    assert cli("report", played, "--format", "markdown").stdout.startswith("## Demo")     # built-in, untouched


# -- every setting of a secret's destination (red team of issue 27) -------------------------------------------------

@pytest.mark.parametrize("given", ["ADJUDICATOR_SMTP_PORT", "ADJUDICATOR_SMTP_SECURITY",
                                   "ADJUDICATOR_SMTP_PORT and ADJUDICATOR_SMTP_SECURITY"])
def test_a_dotenv_cannot_move_the_environments_mail_login_to_another_port_or_to_clear_text(cli, played, tmp_path,
                                                                                         monkeypatch, given):
    monkeypatch.setenv("ADJUDICATOR_SMTP_HOST", "localhost")
    monkeypatch.setenv("ADJUDICATOR_SMTP_USER", "host@example.org")
    monkeypatch.setenv("ADJUDICATOR_SMTP_PASSWORD", "hunter2")
    for key in ("ADJUDICATOR_SMTP_PORT", "ADJUDICATOR_SMTP_SECURITY"):
        monkeypatch.delenv(key, raising=False)
    values = {"ADJUDICATOR_SMTP_PORT": "2526", "ADJUDICATOR_SMTP_SECURITY": "none"}
    (tmp_path / ".env").write_text("".join(f"{key}={values[key]}\n" for key in given.split(" and ")))
    out = cli("mail", played, code=2).stderr
    assert f"{given} {'come' if ' and ' in given else 'comes'} from the settings file" in out, out
    assert "ADJUDICATOR_SMTP_USER, ADJUDICATOR_SMTP_PASSWORD from the environment" in out and "hunter2" not in out


@pytest.mark.parametrize("secret", ["PGPASSWORD", "PGPASSFILE", "PGSERVICE", "a service file in the URL"])
def test_a_dotenv_cannot_send_the_environments_database_password_to_a_server_it_names(cli, tmp_path, monkeypatch,
                                                                                       secret):
    import socket
    for key in ("PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE", "PGSYSCONFDIR", "PGSSLKEY", "PGSSLCERT"):
        monkeypatch.delenv(key, raising=False)
    theirs = socket.socket()
    theirs.bind(("127.0.0.1", 0))
    theirs.listen()
    theirs.setblocking(False)
    url = f"postgresql://host@127.0.0.1:{theirs.getsockname()[1]}/league"
    if secret == "a service file in the URL":
        url += "?service=league"
        said = "names service=, which has libpq read a file of this computer's secrets"
    else:
        monkeypatch.setenv(secret, "S3cretPW")
        said = f"ADJUDICATOR_DB comes from the settings file {tmp_path / '.env'}, but {secret} from the environment"
    (tmp_path / ".env").write_text(f"ADJUDICATOR_DB={url}\n")
    try:
        for command in (("status",), ("games",), ("submit", "orders.txt", "--power", "Germans")):
            out = cli(*command, code=2).stderr
            assert said in out and "S3cretPW" not in out, out
        with pytest.raises(BlockingIOError):
            theirs.accept()                                   # no connection was even tried
    finally:
        theirs.close()
