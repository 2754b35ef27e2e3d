"""`submit` warns about units bought and not placed (issue 32): the submission is still accepted; a turn posted
in parts is warned by the part that reaches the place phase, counting what an earlier part bought."""

from __future__ import annotations

from adjudicator.demo import SCRIPT


def file(tmp_path, name: str, text: str):
    (tmp_path / name).write_text(text)
    return tmp_path / name


def after_germans(cli, db, tmp_path) -> None:
    cli("submit", db, "--power", "Germans", file(tmp_path, "g.txt", SCRIPT["Germans"]))
    cli("adjudicate", db)


def test_a_whole_turn_placing_fewer_than_it_bought_is_accepted_with_a_warning(cli, demo_db, tmp_path):
    after_germans(cli, demo_db, tmp_path)
    short = SCRIPT["Russians"].replace("place 1 inf Leningrad\n", "")
    out = cli("submit", demo_db, "--power", "Russians", file(tmp_path, "r.txt", short), "--dry-run").output
    assert "would be accepted" in out
    assert "warning: bought but not placed by these orders: 1 infantry;" in out
    accepted = cli.json("submit", demo_db, "--power", "Russians", file(tmp_path, "r.txt", short))
    assert accepted["accepted"] and accepted["warnings"][0].startswith("bought but not placed by these orders: 1 infantry;")


def test_a_turn_that_places_all_it_bought_has_no_warning(cli, demo_db, tmp_path):
    after_germans(cli, demo_db, tmp_path)
    out = cli.json("submit", demo_db, "--power", "Russians", file(tmp_path, "r.txt", SCRIPT["Russians"]))
    assert out["warnings"] == []


def test_a_turn_in_parts_is_warned_by_the_part_that_places(cli, demo_db, tmp_path):
    after_germans(cli, demo_db, tmp_path)
    first = cli.json("submit", demo_db, "--power", "Russians",
                     file(tmp_path, "r1.txt", "buy 4 inf\ncm 3 inf, 1 art Ukraine > Romania\n"))
    assert "place" not in first["covers"] and first["warnings"] == []    # its place orders are still to come
    cli("adjudicate", demo_db)
    second = cli.json("submit", demo_db, "--power", "Russians",
                      file(tmp_path, "r2.txt", "ncm 2 inf Moscow > Smolensk\nplace 2 inf Moscow\nend\n"))
    assert second["accepted"] and second["warnings"][0].startswith("bought but not placed by these orders: 2 infantry;")
