"""A scripted round of Sgt. Apone's Europe through the command line (issue 30): the Germans buy paratroopers and a
commando and raid East Poland with it; the British bomb Germany, put two fighters on Combat Air Patrol and set
IPCs aside for Egypt; the Germans count their victory points as each of their turns ends, and drop their
paratroopers as the next round begins. Then `audit` replays the game and every report, as posted, verifies. The
orders hold whatever the dice."""

from __future__ import annotations

import pytest

from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, own_folder, play_turns

EUROPE = "europe_improved/map/games/europe_improved.xml"

ROUND_1 = [
    ("Germans", """buy 2 para, 1 commando
cm 6 inf, 1 art, 2 arm Poland > East Poland
commando East Poland 1 infantry
place 2 para Germany
end
"""),
    ("Russians", "end\n"),
    ("British", """bomb 1 bmb United Kingdom > English Channel Sea Zone > Netherlands-Belgium > Germany
ncm 1 bmb Germany > Netherlands-Belgium > English Channel Sea Zone > United Kingdom
cap 2 ftr United Kingdom > North Sea Sea Zone
setaside 5
end
"""),
    ("Americans", "end\n"),
]
ROUND_2_GERMANS = ("Germans", "drop 2 para Germany > Poland > Baltic States\nend\n")


@pytest.fixture(scope="module")
def game(tmp_path_factory, maps_dir):
    """The game after a round and the Germans' next turn, and each turn's report."""
    cli = Cli()
    tmp = tmp_path_factory.mktemp("ap")
    db = tmp / "ap.db"
    with own_folder(tmp):
        made = cli("new", db, "--game", "apone-europe", "--map", maps_dir / EUROPE, "--seed", TEST_SEED,
                   "--id", "ap-round").output
        reports = play_turns(cli, db, ROUND_1 + [ROUND_2_GERMANS])
    return cli, db, tmp, made, reports


def test_new_plays_the_map_with_no_property_warning(game):
    _, _, _, made, _ = game
    assert "warning" not in made, made
    assert "powers in turn order: Germans, Russians, British, Americans" in made


def test_the_bases_and_the_egypt_complex_are_on_the_board(game):
    cli, db, _, _, _ = game
    places = cli.json("status", db)["territories"]
    assert places["Iceland"]["units"]["British"] == {"air_base": 1, "naval_base": 1}
    assert places["Egypt"]["owner"] == "British" and places["Egypt"]["units"]["British"].get("factory") == 1


def test_a_commando_raid_and_the_german_victory_points(game):
    _, _, _, _, reports = game
    germans = reports[0]
    assert "commando" in germans.lower() and "East Poland" in germans, germans
    assert "Germans' victory points, end of their turn of round 1" in germans, germans


def test_a_raid_on_germany_a_patrol_and_a_set_aside(game):
    cli, db, _, _, reports = game
    british = reports[2]
    assert "Germany" in british and "raid" in british.lower(), british
    assert "Combat Air Patrol" in british or "patrol" in british.lower(), british
    assert cli.json("status", db)["victory_points"]["Germans"]["points"] >= 0


def test_the_paratroopers_drop_and_the_round_audits_and_verifies(game):
    cli, db, tmp, _, reports = game
    assert "Baltic States" in reports[4], reports[4]
    every_report_verifies_and_audit_passes(cli, db, tmp, len(reports))
