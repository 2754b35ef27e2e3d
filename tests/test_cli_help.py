"""`--help` explains the tool (issue 32): every command shows an example, every value it takes is named in words
(never Typer's `<str>`), `new --help` names every game the registry holds, `submit --help` points to the
notation guide."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.cli import app
from adjudicator.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = [c.name or c.callback.__name__ for c in app.registered_commands]


def help_text(cli, monkeypatch, *command: str) -> str:
    """The help as one line of words: no frame, no wrapping."""
    monkeypatch.setenv("COLUMNS", "300")
    out = cli(*command, "--help").output
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", out).split())


def test_the_walk_finds_every_command():
    assert {"new", "submit", "status", "rolls", "report", "verify", "settings"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_has_an_example_and_names_its_values_in_words(cli, monkeypatch, command):
    text = help_text(cli, monkeypatch, command)
    assert f"Example: adjudicator {command}" in text
    assert not re.search(r"<[a-z]+>", text), text
    assert "<=x<=" not in text, text             # the bounds of a number, not the word for it
    for word in re.findall(r"(\S+) The (?:folder|directory)\b", text):    # a folder is not named a file
        assert "FOLDER" in word, (word, text)


def test_the_top_level_help_lists_every_command(cli, monkeypatch):
    text = help_text(cli, monkeypatch)
    assert all(command in text for command in COMMANDS)


def test_new_help_names_every_game_the_registry_plays(cli, monkeypatch):
    text = help_text(cli, monkeypatch, "new")
    playable = [name for name, module in GAMES.items() if module]
    assert playable and all(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in playable), text
    assert "to come" not in text


def test_submit_help_points_to_the_notation_guide(cli, monkeypatch):
    text = help_text(cli, monkeypatch, "submit")
    assert "docs/notation.md" in text and "the README's Orders section" in text
    assert (ROOT / "docs" / "notation.md").is_file()
    assert "\n## Orders\n" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_number_option_given_words_is_refused_in_words(cli, demo_db):
    said = " ".join(cli("rolls", demo_db, "--turn", "three", code=2).output.replace("│", " ").split())
    assert "'three' is not a whole number" in said and "int" not in said.split(), said
