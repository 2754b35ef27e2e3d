"""Shared fixtures: the TripleA test maps from ../shared (or ADJUDICATOR_SHARED), a private keys folder, and a CLI
runner.

Every test runs in its own working folder, so no developer's `.env` or key files leak into it.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from adjudicator import config
from adjudicator.cli import app, command

# typer's CliRunner builds the click command from `app` again at every invoke, half of a quick command's time in
# process; the tests invoke the one the program builds once, as `adjudicator` itself does.
typer.testing._get_command = lambda typer_app: command() if typer_app is app else typer.main.get_command(typer_app)

G40AU_208 = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"
TEST_SEED = "00" * 31 + "01"

# The tests read the shared folder (TripleA maps in triplea/, the rules ledger in rules/), checked out beside the
# repository as ../shared; elsewhere, these settings say where it is.
SHARED_SETTINGS = ("set ADJUDICATOR_SHARED to the shared folder (the one holding triplea/ and rules/), or "
                   "ADJUDICATOR_TEST_MAPS to its triplea/ folder (<map>/map/games/*.xml)")


def shared_folder() -> Path:
    """ADJUDICATOR_SHARED, or ../shared beside the repository."""
    return Path(os.environ.get("ADJUDICATOR_SHARED") or Path(__file__).resolve().parents[2] / "shared")


def maps_folder() -> Path:
    """The TripleA test maps: ADJUDICATOR_TEST_MAPS, or the shared folder's triplea/."""
    return Path(os.environ.get("ADJUDICATOR_TEST_MAPS") or shared_folder() / "triplea")


def missing_shared(what: str, path: Path) -> str:
    """The message of a test that cannot find the shared folder: where it looked and which setting to use."""
    return f"{what} not found at {path}: {SHARED_SETTINGS}"


def pytest_addoption(parser):
    group = parser.getgroup("integrity", "races and kills of real processes (CI runs each once; a stress run more)")
    group.addoption("--race-runs", type=int, default=1, help="how many times each race is run")
    group.addoption("--kill-moments", type=int, default=8, help="how many kill moments each command gets")


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: a worker more than the cores. The race, kill, delivery and watch tests spend much of their time
    waiting (for their processes, a slow forum, a mail server holding a mail), which another worker's work fills:
    on two cores, three workers ran the suite some 10 s sooner than two."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(config, items):
    """The modules marked `slow` run first. xdist gives each worker a whole module at a time (--dist loadfile,
    in collection order: --no-loadscope-reorder); a long module started last would leave the other workers idle
    while it ends, so the long ones start first and the many short ones fill the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)     # stable: a module's tests keep their order


def pytest_generate_tests(metafunc):
    if "race_run" in metafunc.fixturenames:
        metafunc.parametrize("race_run", range(metafunc.config.getoption("race_runs")))


@pytest.fixture
def kill_moments(request) -> int:
    return request.config.getoption("kill_moments")


@pytest.fixture(scope="session")
def maps_dir() -> Path:
    folder = maps_folder()
    if not folder.is_dir():
        pytest.fail(missing_shared("the TripleA test maps", folder))
    return folder


@pytest.fixture(autouse=True)
def private_env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ADJUDICATOR_KEYS_DIR", str(tmp_path / "keys"))
    for key in ("ADJUDICATOR_DB", "ADJUDICATOR_MAPS_PATH", "ADJUDICATOR_TEMPLATES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    # which settings a .env put into the environment, remembered per process: a test starts as a new process does,
    # and a value an earlier test's .env set (the same mail server's name) is not taken for a file's here
    monkeypatch.setattr(config, "_loaded", {})


class Cli:
    """Runs `adjudicator ARGS` in-process and keeps the result."""

    def __init__(self):
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, code: int | None = 0):
        result = self.runner.invoke(app, [str(a) for a in args], input=input)
        if code is not None:
            assert result.exit_code == code, f"exit {result.exit_code}, expected {code}\n{result.output}\n{result.exception!r}"
        assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), repr(result.exception)
        return result

    def json(self, *args: str, input: str | None = None, code: int | None = 0):
        return json.loads(self(*args, "--json", input=input, code=code).stdout)


@pytest.fixture
def cli() -> Cli:
    return Cli()


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server of the test session's own (tests/pgserver.py). Where none can be started the tests that
    need it fail, saying what to install: CI installs the server, so a league test never passes unrun."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail("the league tests need the PostgreSQL driver: pip install '.[test,postgres]'")
    from pgserver import Server, Unavailable
    try:
        server = Server()
    except Unavailable as exc:
        pytest.fail(str(exc))
    yield server
    server.stop()


@pytest.fixture
def league(pg_server) -> str:
    """The URL of a new, empty database on the test server: a league of the test's own."""
    return pg_server.url(pg_server.create_database())


@pytest.fixture
def demo_db(cli, tmp_path) -> Path:
    db = tmp_path / "demo.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "t1")
    return db


@pytest.fixture(scope="session")
def played_demo(tmp_path_factory) -> Path:
    """A folder with a demo game after the Germans' turn (game.db) and its key (keys/), made once per session
    for tests that copy and damage it."""
    from adjudicator.demo import SCRIPT
    folder = tmp_path_factory.mktemp("played")
    runner, db = CliRunner(), folder / "game.db"
    env = {"ADJUDICATOR_KEYS_DIR": str(folder / "keys")}
    (folder / "Germans.txt").write_text(SCRIPT["Germans"])
    for args in (["new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "dmg"],
                 ["submit", db, "--power", "Germans", folder / "Germans.txt"], ["adjudicate", db]):
        assert runner.invoke(app, list(map(str, args)), env=env).exit_code == 0
    return folder


@contextmanager
def own_folder(folder: Path):
    """Keys and home of their own for a fixture that plays a game once for a whole module, as private_env gives each
    test (the autouse fixture is not yet in force when a module's fixtures run)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ADJUDICATOR_KEYS_DIR", str(folder / "keys"))
        env.setenv("HOME", str(folder / "home"))
        yield


def play_turns(cli: Cli, db: Path, turns: list[tuple[str, str]]) -> list[str]:
    """Each (power, orders) in turn through `submit` and `adjudicate`, the cursor standing at that power; the
    reports' text."""
    reports = []
    for power, orders in turns:
        assert cli.json("status", db)["power"] == power
        cli("submit", db, "--power", power, "-", input=orders)
        reports.append(cli("adjudicate", db).output)
    return reports


def every_report_verifies_and_audit_passes(cli: Cli, db: Path, folder: Path, turns: int) -> None:
    """Each turn's report, as posted (text), verifies against the anchor; `audit` replays the whole game."""
    for turn in range(1, turns + 1):
        post = folder / f"turn{turn}.txt"
        post.write_text(cli("report", db, "--turn", turn, "--format", "text").output)
        checked = cli("verify", post).output
        assert f"turn {turn} (dice block" in checked and "seed leads to anchor" in checked, checked
    audit = cli("audit", db).output
    assert "\nOK: every revealed seed" in audit, audit
