"""What `rolls` and `status` print as text (issue 32): what their help and the README promise, not only --json."""

from __future__ import annotations

from adjudicator.demo import SCRIPT
from adjudicator.people import counted
from conftest import G40AU_208, TEST_SEED
from report_checks import IDENTIFIER


def play_germans(cli, db, tmp_path) -> None:
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    cli("submit", db, "--power", "Germans", tmp_path / "g.txt")
    cli("adjudicate", db)


def test_rolls_as_text_shows_each_turns_seed_and_the_units_of_every_group(cli, demo_db, tmp_path):
    play_germans(cli, demo_db, tmp_path)
    groups = cli.json("rolls", demo_db)
    text = cli("rolls", demo_db).output
    assert f"turn 1, seed {groups[0]['seed']}" in text.splitlines()
    for g in groups:
        assert f"  {g['label']}  d{g['sides']}: {' '.join(map(str, g['values']))}  ({', '.join(g['units'])})" \
            in text.splitlines()


def unit_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("  ")]


def test_status_as_text_shows_the_units_by_territory_filtered_by_power_and_place(cli, demo_db, tmp_path):
    play_germans(cli, demo_db, tmp_path)
    whole = cli.json("status", demo_db)["territories"]
    lines = unit_lines(cli("status", demo_db).output)
    assert len(lines) == sum(1 for t in whole.values() if t["units"])
    belarus = whole["Belarus"]
    assert f"  Belarus (Germans): Germans " + ", ".join(counted(n, u.replace("_", " "))
                                                       for u, n in belarus["units"]["Germans"].items()) in lines
    assert not any("_" in line for line in lines), "units in players' words (mech infantry), not the map's"
    russians = unit_lines(cli("status", demo_db, "--power", "rus").output)       # names as orders take them
    assert russians and all(": Russians " in line and "Germans" not in line.split(":", 1)[1] for line in russians)
    assert len(russians) == sum(1 for t in whole.values() if "Russians" in t["units"])
    out = cli("status", demo_db, "--place", "moscow", "--place", "Belarus").output
    assert [line.split(" (")[0].strip() for line in unit_lines(out)] == ["Moscow", "Belarus"]
    assert "no units of Italians in Belarus" in cli("status", demo_db, "--power", "Italians", "--place", "Belarus").output


def test_status_json_takes_the_same_filters_and_a_wrong_name_is_refused(cli, demo_db):
    only = cli.json("status", demo_db, "--power", "Italians")
    assert only["territories"] and all(list(t["units"]) == ["Italians"] for t in only["territories"].values())
    assert only["filter"] == {"power": "Italians", "places": []}
    assert list(cli.json("status", demo_db, "--place", "Romania")["territories"]) == ["Romania"]
    wrong = cli("status", demo_db, "--place", "Atlantis", code=2)
    assert "--place Atlantis: not a territory or sea zone of this game" in wrong.output
    assert "--power Martians: not a power of this game" in cli("status", demo_db, "--power", "Martians", code=2).output


def test_status_as_text_names_powers_and_neutrals_as_players_do(cli, maps_dir, tmp_path):
    """The Alt-Universe map's powers are `Germans`, `UK_Pacific`-like identifiers and its neutrals `Pro_Axis`:
    status as text says Germany and the pro-Axis neutrals, as the reports do; `--power` takes either name."""
    db = tmp_path / "au.db"
    cli("new", db, "--map", maps_dir / G40AU_208, "--game", "g40-alt-universe", "--seed", TEST_SEED)
    text = cli("status", db).output
    assert not IDENTIFIER.findall(text.split("\n", 1)[1]), IDENTIFIER.findall(text)     # the title line names the rules
    table = {line.split("  ")[0] for line in text.splitlines()[4:13]}
    assert {"Germany", "Soviet Union", "United States", "United Kingdom"} <= table, table
    assert "  PX3 (Pro-Axis neutrals): Pro-Axis neutrals 3 infantry" in text.splitlines()
    germany = cli("status", db, "--power", "Germany").output
    assert germany == cli("status", db, "--power", "Germans").output
    assert unit_lines(germany) and all(": Germany " in line for line in unit_lines(germany))
