"""What `rolls` and `status` print as text (issue 32): what their help and the README promise, not only --json."""

from __future__ import annotations

from adjudicator.demo import SCRIPT


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
