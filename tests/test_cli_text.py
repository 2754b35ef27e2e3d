"""What `rolls` and `status` print as text (issue 32): what their help and the README promise, not only --json."""

from __future__ import annotations

from adjudicator.demo import SCRIPT
from adjudicator.people import counted


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
