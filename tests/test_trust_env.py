"""What a game folder mailed around may do to the host who runs the adjudicator in it (issue 27): a `.env` or a
template in it runs no code, reads no setting from a folder above, and sends the forum token through no proxy.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from adjudicator.demo import SCRIPT

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
    assert cli("report", played, "--format", "text").stdout.strip() == "dmg turn 1: 8 phases"
    assert cli("report", played, "--format", "markdown").stdout.startswith("## Demo")      # built-in, untouched
    templates(folder, "{% for x in phases %}\n")
    out = cli("report", played, "--format", "text", code=2).stderr
    assert "the template report.text.j2 in ADJUDICATOR_TEMPLATES" in out and "failed" in out, out
