"""The rough edges a new user hits first: the version, the default database, the help, turns out of range, a
map that is not there, the maps the adjudicator can find, and the README's worked example run as written."""

from __future__ import annotations

import importlib.metadata
import os
import re
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import cli as cli_module
from adjudicator.cli import app
from conftest import TEST_SEED

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

GERMAN_TURN = """\
buy 2 inf, 1 arm
cm 3 inf, 1 art, 1 arm Poland > Belarus
ncm 2 inf Germany > Poland
place 2 inf, 1 arm Germany
end
"""


def submissions(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("select power, kind from submission order by seq").fetchall()


# -- --version --------------------------------------------------------------------------------------

def test_version_prints_the_installed_version_and_exits_0(cli):
    r = cli("--version")
    assert r.stdout == f"adjudicator {importlib.metadata.version('adjudicator')}\n"


def test_version_of_a_checkout_that_is_not_installed_is_pyprojects(cli, monkeypatch):
    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    monkeypatch.setattr(cli_module, "_PYPROJECT", ROOT / "pyproject.toml")
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert cli("--version").stdout == f"adjudicator {expected}\n"


def test_version_from_a_real_process(tmp_path):
    r = subprocess.run([sys.executable, "-m", "adjudicator", "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and re.fullmatch(r"adjudicator \d+\.\d+\S*\n", r.stdout), r.stdout + r.stderr


# -- ADJUDICATOR_DB -----------------------------------------------------------------------------------

def test_every_command_uses_ADJUDICATOR_DB_when_no_database_is_named(cli, tmp_path, monkeypatch):
    db = tmp_path / "env.db"
    monkeypatch.setenv("ADJUDICATOR_DB", str(db))
    created = cli("new", "--game", "demo", "--seed", TEST_SEED, "--id", "env-1").stdout
    assert db.exists() and f"in {db}" in created
    cli("submit", "--power", "Russians", input="ool inf, art, arm\n")           # no argument: standard input
    fix = tmp_path / "fix.txt"
    fix.write_text("pus Italians 13\n")
    cli("edit", fix, "--reason", "a forgotten PU")                                # a lone argument: the file
    orders = tmp_path / "germans.txt"
    orders.write_text(GERMAN_TURN)
    assert "would be accepted" in cli("submit", orders, "--power", "Germans", "--dry-run").stdout
    cli("submit", orders, "--power", "Germans")
    assert submissions(db) == [("Russians", "standing"), ("host", "edit"), ("Germans", "turn")]
    assert "round 1, Germans" in cli("adjudicate").stdout
    status = cli.json("status")
    assert (status["game"], status["power"], status["powers"]["Italians"]["treasury"]) == ("env-1", "Russians", 13)
    assert "Belarus" in cli("report", "--format", "text").stdout
    assert {g["turn"] for g in cli.json("rolls")} == {1}
    assert "OK:" in cli("audit").stdout
    cli("map", "-o", tmp_path / "now.png")
    assert (tmp_path / "now.png").read_bytes().startswith(b"\x89PNG")


def test_without_ADJUDICATOR_DB_a_missing_database_is_named_as_missing(cli):
    for command in (["status"], ["report"], ["rolls"], ["audit"], ["adjudicate"], ["map", "-o", "x.png"],
                    ["new", "--game", "demo"], ["submit", "--power", "Germans"], ["edit", "--reason", "r"],
                    ["post"], ["mail"], ["contact", "--player", "Germans=hans@example.org"]):
        r = cli(*command, input="end\n", code=2)
        assert "no game database given" in r.output and "ADJUDICATOR_DB" in r.output, (command, r.output)


def test_a_dotenv_file_in_the_working_folder_sets_the_database(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_DB", "unset below")      # recorded, so the value .env loads is undone after
    monkeypatch.delenv("ADJUDICATOR_DB")
    (tmp_path / ".env").write_text("ADJUDICATOR_DB=from-dotenv.db\n")
    cli("new", "--game", "demo", "--id", "dotenv-1")
    assert (tmp_path / "from-dotenv.db").exists()
    assert cli.json("status")["game"] == "dotenv-1"
    cli("submit", "-", "--power", "Germans", input="end\n")
    assert submissions(tmp_path / "from-dotenv.db") == [("Germans", "turn")]


def test_a_database_named_on_the_command_line_always_wins(cli, tmp_path, monkeypatch):
    default, other = tmp_path / "default.db", tmp_path / "other.db"
    cli("new", default, "--game", "demo", "--id", "default-1")
    cli("new", other, "--game", "demo", "--id", "other-1")
    monkeypatch.setenv("ADJUDICATOR_DB", str(default))
    assert cli.json("status", other)["game"] == "other-1"
    cli("submit", other, "--power", "Russians", input="ool inf\n")               # a lone game database: the DB
    orders = tmp_path / "germans.txt"
    orders.write_text(GERMAN_TURN)
    cli("submit", other, orders, "--power", "Germans")
    assert submissions(other) == [("Russians", "standing"), ("Germans", "turn")] and submissions(default) == []
    r = cli("submit", tmp_path / "typo.db", "--power", "Germans", input="end\n", code=2)
    assert "typo.db" in r.output and "not a game database" in r.output
    r = cli("status", "", code=2)                                                 # "$GAME" of an unset variable
    assert "empty" in r.output
    assert submissions(default) == []


def test_a_lone_orders_file_without_ADJUDICATOR_DB_or_a_dash_says_to_name_the_database(cli, demo_db):
    r = cli("submit", "-", "--power", "Germans", input="end\n", code=2)
    assert "no game database given" in r.output
    r = cli("submit", demo_db, "--power", "Germans", input="end\n")               # the database, orders on stdin
    assert "accepted" in r.output


# -- --help ------------------------------------------------------------------------------------------

FLAGS = {"submit": ["--dry-run", "--json"], "adjudicate": ["--post", "--mail", "--without-salts", "--json"],
         "status": ["--json"], "edit": ["--dry-run", "--json"], "rolls": ["--json"], "report": ["--json"],
         "new": ["--json"], "audit": ["--json"], "verify": ["--json"]}


@pytest.mark.parametrize("command", sorted(FLAGS))
def test_help_shows_flags_as_flags_without_a_value(command):
    out = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
    for flag in FLAGS[command]:
        [line] = [line for line in out.splitlines() if re.match(rf"[\s│|*]*{flag}\s", line)]   # its row
        after = line.split(flag, 1)[1].split()
        assert after and after[0][0].isupper(), f"{flag} is shown taking a value: {line.strip()}"
        assert not re.search(r"<bool>|BOOLEAN|\[true\|false\]", line), line


# -- turns out of range ----------------------------------------------------------------------------------

def test_rolls_of_a_turn_not_played_is_an_error_like_report(cli, demo_db):
    r = cli("rolls", demo_db, "--turn", "1", code=2)
    assert "no dice of turn 1" in r.stderr and "nothing has been adjudicated yet" in r.stderr
    assert "no dice have been rolled yet" in cli("rolls", demo_db).stdout
    cli("submit", demo_db, "--power", "Germans", input=GERMAN_TURN)
    cli("adjudicate", demo_db)
    cli("submit", demo_db, "--power", "Russians", input="end\n")
    cli("adjudicate", demo_db)
    assert {g["turn"] for g in cli.json("rolls", demo_db, "--turn", "1")} == {1}
    assert "no dice were rolled in turn 2" in cli("rolls", demo_db, "--turn", "2").stdout
    assert cli.json("rolls", demo_db, "--turn", "2") == []                  # played, but nothing rolled
    for turn, why in (("99", "it has not been played"), ("3", "it has not been played"),
                      ("0", "turns are numbered from 1"), ("-2", "turns are numbered from 1")):
        r = cli("rolls", demo_db, "--turn", turn, code=2)
        assert r.stdout == "" and r.stderr == f"error: no dice of turn {turn}: {why}; the turns played so far are 1 to 2\n"
        assert cli.json("rolls", demo_db, "--turn", turn, code=2) == {
            "error": f"no dice of turn {turn}: {why}; the turns played so far are 1 to 2"}
        assert "no report for turn" in cli("report", demo_db, "--turn", turn, code=2).stderr


# -- a map that is not there -----------------------------------------------------------------------------

def how_to_give_a_map(message: str, home: Path) -> None:
    """What every "no map" message must tell a host: --map with a path or a name, ADJUDICATOR_MAPS_PATH, and TripleA's
    download folder, searched."""
    assert "--map PATH" in message and "--map NAME" in message and "TripleA game XML" in message
    assert "ADJUDICATOR_MAPS_PATH" in message and "adjudicator maps" in message
    assert f"TripleA keeps the maps it downloads in {home / 'triplea' / 'downloadedMaps'}" in message


@pytest.mark.parametrize("args", [["--game", "g40-alt-universe"], ["--game", "g40-alt-universe", "--rules", "beta-1.1"],
                                  ["--game", "g40"]])
def test_new_without_a_map_found_says_how_to_give_one_and_where_it_looked(cli, tmp_path, monkeypatch, args):
    home = tmp_path / "home"
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(tmp_path / "my-maps"))
    r = cli("new", tmp_path / "g.db", *args, code=2)
    message = " ".join(r.stderr.split())
    how_to_give_a_map(message, home)
    assert f"{tmp_path / 'my-maps'} (missing)" in message
    assert f"{home / 'triplea' / 'downloadedMaps'} (missing)" in message
    if "g40-alt-universe" in args:
        xml = "G40_Alt_Universe_v2.0.4_beta-1.1.xml" if "beta-1.1" in args else "G40_Alt_Universe_v2.0.8_beta-1.3.xml"
        assert f"is played on TripleA's game XML {xml}, of the map 'G40 Alt Universe'" in message
    assert not (tmp_path / "g.db").exists()


def test_a_map_name_found_nowhere_counts_the_maps_in_each_folder_searched(cli, tmp_path, maps_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    message = " ".join(cli("new", tmp_path / "g.db", "--game", "g40", "--map", "Axis and Allies 1914", code=2).stderr.split())
    assert f"{maps_dir} (5 maps)" in message
    how_to_give_a_map(message, tmp_path / "home")


# -- the tests' own shared folder ---------------------------------------------------------------------------

def test_without_the_shared_folder_the_tests_say_which_setting_to_use(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("ADJUDICATOR_TEST_MAPS", "ADJUDICATOR_SHARED")}
    env["ADJUDICATOR_SHARED"] = str(tmp_path / "no-shared")
    tests = ROOT / "tests"
    needing = [f"{tests / 'test_cli.py'}::test_new_g40_alt_universe_from_the_208_xml",          # the maps_dir fixture
               f"{tests / 'test_cases.py'}::test_every_base_rule_has_a_case_and_the_readme_prints_the_coverage",
               f"{tests / 'test_notation_names.py'}"]                                          # g40_names, collecting
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "--no-header", "-rfE",
                        "--continue-on-collection-errors", *needing],
                       capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode in (1, 2), r.stdout[-3000:]
    for what, where in (("the TripleA test maps", "triplea"), ("the rules ledger", "rules/LEDGER.md"),
                        ("the G40 Alt-Universe test map", "triplea/g40_alt_universe")):
        assert f"{what} not found at {tmp_path / 'no-shared' / where}" in r.stdout, r.stdout[-3000:]
    assert r.stdout.count("set ADJUDICATOR_SHARED to the shared folder") >= 3


# -- possessives ----------------------------------------------------------------------------------------------

def test_possessive_of_plural_adjective_and_singular_power_names():
    from adjudicator.words import possessive
    assert [possessive(p) for p in ("Russians", "Germans", "ANZAC", "UK_Pacific", "British", "Chinese", "French",
                                    "Japanese", "Pro_Axis")] == [
        "Russians'", "Germans'", "ANZAC's", "UK_Pacific's", "British", "Chinese", "French", "Japanese", "Pro_Axis's"]
    assert [possessive(p, the=True) + " turn" for p in ("Russians", "British", "ANZAC")] == [
        "the Russians' turn", "the British turn", "ANZAC's turn"]


def no_bad_possessive(text: str) -> str:
    """Neither `Russians's turn` nor `Russians turn` nor `ANZAC units`."""
    assert not re.search(r"\b(Germans|Russians|Italians|Americans)(?:'s)? (turn|orders|units|transports)\b", text), text
    assert not re.search(r"\bANZAC (turn|orders|units|transports)\b", text) and "s's " not in text, text
    return text


def test_messages_name_whose_turn_and_orders_with_the_possessive(cli, demo_db):
    out = no_bad_possessive(cli("submit", demo_db, "--power", "Russians", input="buy 1 inf\n", code=1).stderr)
    assert "it is the Germans' turn (round 1, purchase): Russians may file only standing orders now" in out
    cli("submit", demo_db, "--power", "Germans", input="buy 1 inf\n")
    out = no_bad_possessive(cli("submit", demo_db, "--power", "Germans", input="buy 1 inf\n", code=1).stderr)
    assert "the Germans' orders for this turn are already locked" in out
    out = no_bad_possessive(cli("edit", demo_db, "--reason", "r", input="pus Germans 1\n", code=1).stderr)
    assert "the Germans' orders are locked" in out
    cli("adjudicate", demo_db)
    cli("submit", demo_db, "--power", "Germans", input="end\n")
    cli("adjudicate", demo_db)
    out = no_bad_possessive(cli("submit", demo_db, "--power", "Germans", input="buy 1 inf\n", code=1).stderr)
    assert "it is the Russians' turn (round 1, purchase)" in out
    out = no_bad_possessive(cli("edit", demo_db, "--reason", "r", input="owner Ukraine Germans\n", code=1).stderr)
    assert "the Russians' units in Ukraine, held by Germans, their enemy" in out
    for fmt in ("markdown", "bbcode", "text"):
        no_bad_possessive(cli("report", demo_db, "--turn", "1", "--format", fmt).stdout)
    no_bad_possessive(cli("status", demo_db).stdout)


def test_a_singular_power_takes_s(cli, tmp_path, maps_dir):
    from conftest import G40AU_208
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--id", "au")
    out = cli("edit", db, "--reason", "r", input="war ANZAC Germans\nadd ANZAC 1 infantry G5\n", code=1).stderr
    assert "ANZAC's units in G5, held by Germans, their enemy" in no_bad_possessive(out)


def test_a_game_reported_before_the_possessives_were_fixed_still_audits(cli, demo_db):
    cli("submit", demo_db, "--power", "Russians", input="ool inf, art, arm\n")
    cli("submit", demo_db, "--power", "Germans", input=GERMAN_TURN)
    cli("adjudicate", demo_db)
    with sqlite3.connect(demo_db) as con:
        assert con.execute("select count(*) from report where text like '%Russians'' standing order%'").fetchone()[0]
        con.execute("update report set text = replace(text, 'Russians'' standing order', 'Russians''s standing order')")
    assert "OK:" in cli("audit", demo_db).stdout
    with sqlite3.connect(demo_db) as con:          # a changed fact is still found
        con.execute("update report set text = replace(text, 'Russians''s standing order', 'Italians'' standing order')")
    assert "report 1" in cli("audit", demo_db, code=1).stdout


# -- maps -------------------------------------------------------------------------------------------------------

def test_maps_lists_each_game_xml_with_the_name_new_takes_and_the_games_that_play_it(cli, tmp_path, maps_dir, monkeypatch):
    from adjudicator.triplea import find_map
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    listed = cli.json("maps")
    xmls = sorted(maps_dir.glob("*/map/games/*.xml"))
    assert sorted(Path(m["xml"]) for m in listed["maps"]) == xmls
    for m in listed["maps"]:                         # the name shown picks that very file, and no path is needed
        assert find_map(m["map"], [maps_dir]) == Path(m["xml"]) and "/" not in m["map"], m
    by_name = {m["map"]: m for m in listed["maps"]}
    assert by_name["G40_Alt_Universe_v2.0.8_beta-1.3"]["games"] == [
        {"game": "g40-alt-universe", "rules": "beta-1.3", "default": True}, {"game": "g40", "rules": None, "default": True}]
    assert by_name["G40_Alt_Universe_v2.0.4_beta-1.1"]["games"][0] == {"game": "g40-alt-universe", "rules": "beta-1.1", "default": False}
    assert (by_name["G40_Alt_Universe.xml"]["name"], by_name["G40_Alt_Universe.xml"]["version"]) == ("G40 Alt Universe", "2.0.12")
    assert by_name["pacific"]["games"] == [{"game": "classic", "rules": None, "default": True}]
    assert by_name["pacific"]["family"] == "classic" and by_name["pacific"]["refused"] == {}
    assert by_name["ww2global40_2nd_edition"]["family"] == "g40"
    assert listed["searched"][0] == {"folder": str(maps_dir), "exists": True, "from": "ADJUDICATOR_MAPS_PATH", "maps": 5}
    assert listed["searched"][-1]["from"] == "TripleA" and not listed["searched"][-1]["exists"]
    text = cli("maps").stdout
    assert re.search(r"^G40_Alt_Universe_v2\.0\.4_beta-1\.1 +G40 Alt Universe 2\.0\.4 +g40-alt-universe --rules beta-1\.1, g40$", text, re.M)
    assert re.search(r"^G40_Alt_Universe_v2\.0\.8_beta-1\.3 +G40 Alt Universe 2\.0\.8 +g40-alt-universe \(rules beta-1\.3\), g40$", text, re.M)
    assert f"searched: {maps_dir} (5 maps); {tmp_path / 'home' / 'triplea' / 'downloadedMaps'} (TripleA's download folder, missing)" in text
    cli("new", tmp_path / "au12.db", "--game", "g40", "--map", "G40_Alt_Universe.xml")      # as listed
    assert cli.json("status", tmp_path / "au12.db")["title"] == "G40 Alt Universe 2.0.12"


def test_maps_reads_tripleas_download_folder_and_names_zipped_maps(cli, tmp_path, maps_dir):
    downloaded = tmp_path / "home" / "triplea" / "downloadedMaps"
    downloaded.mkdir(parents=True)
    (downloaded / "pacific").symlink_to(maps_dir / "pacific", target_is_directory=True)
    (downloaded / "big_world.zip").write_bytes(b"PK\x03\x04")
    listed = cli.json("maps")
    assert [(m["map"], m["name"]) for m in listed["maps"]] == [("pacific", "Pacific")]
    assert listed["searched"] == [{"folder": str(downloaded), "exists": True, "from": "TripleA", "maps": 1}]
    assert listed["zipped"] == [str(downloaded / "big_world.zip")]
    assert f"not read: {downloaded / 'big_world.zip'} is zipped" in cli("maps").stdout
    _found_but_refused(cli, tmp_path)


def _found_but_refused(cli, tmp_path):
    """`new --map pacific` finds the map by its name, then refuses it for --game g40, naming the game that plays it
    (the G40 family cannot play its rules), and plays it as --game classic."""
    out = cli("new", tmp_path / "p.db", "--game", "g40", "--map", "pacific", code=2).output
    assert "the map pacific.xml sets rules that the G40 family" in out and "nothing was written" in out, out
    assert "play it as --game classic" in out and not (tmp_path / "p.db").exists()
    cli("new", tmp_path / "p.db", "--game", "classic", "--map", "pacific")
    assert cli.json("status", tmp_path / "p.db")["name"] == "classic"


def test_maps_when_none_is_found_says_where_it_looked_and_how_to_add_a_folder(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(tmp_path / "my-maps"))
    (tmp_path / "my-maps").mkdir()
    text = " ".join(cli("maps").stdout.split())
    downloaded = tmp_path / "home" / "triplea" / "downloadedMaps"
    assert text.startswith("no TripleA maps found")
    assert f"searched: {tmp_path / 'my-maps'} (0 maps); {downloaded} (TripleA's download folder, missing)" in text
    assert f"download them in TripleA (it keeps them in {downloaded})" in text
    assert "add it to ADJUDICATOR_MAPS_PATH (in the environment or .env" in text and "--map PATH" in text
    assert cli.json("maps")["maps"] == []


# -- the README's worked example ----------------------------------------------------------------------------

README = ROOT / "README.md"
EXAMPLE = re.compile(r"<!-- worked-example -->\n(.*?)<!-- /worked-example -->", re.S)
FENCE = re.compile(r"^(`{3,})[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)


def example_blocks(readme: str) -> list[tuple[str, str, tuple[int, int]]]:
    """The fenced blocks of the README's worked example, in order: ("file", name) for a block the comment
    `<!-- file: NAME -->` introduces, ("session", "") for one of `$ command` lines and their output; with where
    each block's body is in the README."""
    region = EXAMPLE.search(readme)
    assert region, "README.md has no <!-- worked-example --> … <!-- /worked-example --> region"
    blocks = []
    for fence in FENCE.finditer(readme, region.start(1), region.end(1)):
        before = readme[:fence.start()].rstrip().rsplit("\n", 1)[-1]
        named = re.fullmatch(r"<!-- file: (\S+) -->", before)
        if named:
            blocks.append(("file", named.group(1), fence.span(2)))
        elif fence.group(2).startswith("$ "):
            blocks.append(("session", "", fence.span(2)))
    return blocks


def session(body: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a block of `$ command` lines."""
    pairs: list[tuple[str, list[str]]] = []
    lines = body.split("\n")
    while lines:
        line = lines.pop(0)
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and lines:
                command = command[:-1] + lines.pop(0).strip()
            pairs.append((command, []))
        else:
            pairs[-1][1].append(line)
    return [(command, "\n".join(out).rstrip("\n")) for command, out in pairs]


def test_the_readme_worked_example_runs_as_written(tmp_path, monkeypatch):
    """Every command of the README's worked example, run in a shell in a new folder with a new home folder, prints
    exactly what the README shows (ADJUDICATOR_UPDATE_README=1 writes what they print into the README instead)."""
    readme = README.read_text(encoding="utf-8")
    folder, home, bin_dir = tmp_path / "work", tmp_path / "home", tmp_path / "bin"
    for d in (folder, home, bin_dir):
        d.mkdir()
    (bin_dir / "adjudicator").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m adjudicator "$@"\n')
    (bin_dir / "adjudicator").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ADJUDICATOR_", "XDG_"))}
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONUNBUFFERED="1")
    update = os.environ.get("ADJUDICATOR_UPDATE_README") == "1"
    blocks, edits, commands = example_blocks(readme), [], 0
    assert [kind for kind, _, _ in blocks].count("file") >= 1 and [kind for kind, _, _ in blocks].count("session") >= 4
    for kind, name, (start, end) in blocks:
        body = readme[start:end]
        if kind == "file":
            (folder / name).write_text(body, encoding="utf-8")
            continue
        shown = []
        for command, expected in session(body):
            r = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=False, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
            printed = r.stdout.rstrip("\n")
            assert "Traceback" not in printed, printed
            assert str(tmp_path) not in printed, f"a path of this machine in the output of {command}"
            if not update:
                assert printed == expected, f"$ {command}\n--- README shows ---\n{expected}\n--- it prints ---\n{printed}"
            shown.append(f"$ {command}\n{printed}".rstrip("\n"))
            commands += 1
        edits.append((start, end, "\n".join(shown) + "\n"))
    assert commands >= 8
    if update:
        for start, end, text in reversed(edits):
            readme = readme[:start] + text + readme[end:]
        README.write_text(readme, encoding="utf-8")


def test_a_maps_path_that_names_a_map_folder_itself_finds_its_games(cli, tmp_path, maps_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir / "pacific"))
    listed = cli.json("maps")
    assert [(m["map"], m["searched"]) for m in listed["maps"]] == [("pacific", str(maps_dir / "pacific"))]
    assert listed["searched"][0]["maps"] == 1
    _found_but_refused(cli, tmp_path)


def test_a_dotenv_named_by_ADJUDICATOR_ENV_names_files_relative_to_itself(cli, tmp_path, monkeypatch):
    for key in ("ADJUDICATOR_DB", "ADJUDICATOR_MAPS_PATH"):
        monkeypatch.setenv(key, "unset below")          # recorded, so the values .env loads are undone after
        monkeypatch.delenv(key)
    (tmp_path / "league.env").write_text("ADJUDICATOR_DB=games/kursk.db\nADJUDICATOR_MAPS_PATH=maps\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "players" / "hans").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "players" / "hans")
    monkeypatch.setenv("ADJUDICATOR_ENV", "../../league.env")     # a .env in a folder above is read only if named
    cli("new", "--game", "demo", "--id", "kursk")
    assert (tmp_path / "games" / "kursk.db").exists()
    assert cli.json("status")["game"] == "kursk"
    assert cli.json("maps")["searched"][0]["folder"] == str(tmp_path / "maps")


def test_orders_typed_at_a_terminal_are_asked_for(demo_db, tmp_path):
    import pty
    main, terminal = pty.openpty()
    env = {**os.environ, "ADJUDICATOR_KEYS_DIR": str(tmp_path / "keys")}
    process = subprocess.Popen([sys.executable, "-m", "adjudicator", "submit", str(demo_db), "--power", "Germans"],
                               stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    os.write(main, b"end\n\x04")
    out, err = process.communicate(timeout=60)
    os.close(main)
    os.close(terminal)
    assert "reading the orders from the keyboard" in err and "Ctrl-D" in err
    assert process.returncode == 0 and "1 order(s) of the Germans accepted" in out


def test_every_game_package_ships_in_the_wheel():
    """The wheel lists its packages by name (pyproject.toml): a game folder left out installs as an empty
    namespace, and `new --game` then fails only on an installed copy, never in a checkout."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {f"adjudicator.games.{p.parent.name}" for p in (ROOT / "games").glob("*/__init__.py")}
    assert folders - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
