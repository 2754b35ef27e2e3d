"""Two rounds of the Expanded Global Scenario through the command line, as players and a host play it (issue 29):
the United States offer Canada an alliance, which Canada accepts out of turn; Russia declare war on Japan and fight
them the next round; Germany's undeclared attack on the Eastern European Commonwealth is a Surprise Attack; the
United States spend their stored Influence on six markers and take Saudi Arabia with its army; Japan start an
insurgency in Burma with Influence taken in round 1. Then `audit` replays
the game and every turn's report, as posted, verifies against the anchor. The orders hold whatever the dice."""

from __future__ import annotations

import shutil

import pytest

from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, own_folder, play_turns

pytestmark = pytest.mark.slow

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

NATIONS = ["United States", "Russia", "Germany", "Great Britain", "China", "France", "Japan", "Indonesia",
           "Eastern European Commonwealth", "Italy", "India", "Australia", "Union of South American Nations", "Canada"]
INCOMES = [52, 37, 25, 24, 23, 19, 15, 15, 14, 10, 10, 10, 8, 7]

ROUND_1 = {
    "United States": "influence\nalliance Canada\nend\n",
    "Russia": "war Japan\nend\n",
    "Germany": "buy 2 inf\ncm 6 inf, 2 art, 3 arm Greater Southern Germany > Yugoslavia\nplace 2 inf Germany\nend\n",
    "Japan": "influence\nend\n",
}
ROUND_2 = {
    "United States": "influence\ninfluence 6 Saudi Arabia\nend\n",
    "Russia": "cm 6 inf Amur > Korea\nend\n",
    "Japan": "insurgents 1 Burma\nend\n",
}


@pytest.fixture(scope="module")
def game(tmp_path_factory, maps_dir):
    """The game after two rounds, and every turn's report text (played once: 28 turns)."""
    cli = Cli()
    tmp = tmp_path_factory.mktemp("eg")
    db = tmp / "eg.db"
    with own_folder(tmp):
        made, reports = _play(cli, db, maps_dir)
    return cli, db, tmp, made, reports


def _play(cli, db, maps_dir):
    made = cli("new", db, "--game", "expanded-global", "--map", maps_dir / G40_2ND, "--seed", TEST_SEED,
               "--id", "eg-two-rounds").output
    turns = [(n, script.get(n, "end\n")) for script in (ROUND_1, ROUND_2) for n in NATIONS]
    reports = play_turns(cli, db, turns[:1])
    # Canada answer the offer in another nation's turn (Russia's)
    accepted = cli("submit", db, "--power", "Canada", "-", input="accept A1\n").output
    assert "accepted as submission" in accepted, accepted
    return made, reports + play_turns(cli, db, turns[1:])


def test_new_shows_the_fourteen_nations_in_order_with_their_money(game):
    _, _, _, made, _ = game
    assert f"powers in turn order: {', '.join(NATIONS)}" in made, made
    assert "starting PUs: " + ", ".join(f"{n} {k}" for n, k in zip(NATIONS, INCOMES)) in made, made


def test_the_offer_and_the_answer_are_reported_and_the_alliance_forms(game):
    cli, db, _, _, reports = game
    assert "Alliance offer A1: the United States offers an alliance to Canada" in reports[0]
    canada = reports[13]
    assert "Canada accepts the alliance offer A1 of the United States. [EG-60]" in canada, canada
    assert "Canada and the United States are allies. [EG-61]" in canada
    assert cli.json("status", db)["powers"]["Canada"]["at_war_with"] == []


def test_the_declaration_is_reported_and_the_war_is_fought_a_round_later(game):
    cli, db, _, _, reports = game
    assert "Russia declares war on Japan; combat between them may start in round 2. [EG-65]" in reports[1]
    russia_2 = reports[15]
    assert "Korea" in russia_2 and "Battle" in russia_2, russia_2
    assert "Japan" in cli.json("status", db)["powers"]["Russia"]["at_war_with"]


def test_an_undeclared_attack_is_a_surprise_attack(game):
    cli, db, _, _, reports = game
    germany = reports[2]
    assert "Surprise Attack: Germany on the Eastern European Commonwealth" in germany, germany
    assert "Yugoslavia" in germany
    assert "Germany" in cli.json("status", db)["powers"]["Eastern European Commonwealth"]["at_war_with"]


def test_six_influence_markers_take_a_neutral_with_its_army(game):
    cli, db, _, _, reports = game
    us_2 = reports[14]
    assert "The United States takes Saudi Arabia by Influence" in us_2, us_2
    assert cli.json("status", db)["territories"]["Saudi Arabia"]["owner"] == "United States"


def test_an_insurgency_is_fought_with_audited_dice_as_conduct_combat_begins(game):
    cli, db, _, _, reports = game
    japan_2 = reports[20]
    assert "Japan starts an insurgency in Burma (an Original Territory of India): 1 Insurgent for 4 Influence" \
        in japan_2, japan_2
    assert "insurgency:Burma:r1:attacker" in japan_2
    won = "The insurgency of Japan in Burma succeeds" in japan_2
    assert won or "The insurgency of Japan in Burma fails" in japan_2
    owner = cli.json("status", db)["territories"]["Burma"]["owner"]
    assert owner == ("Neutral_True" if won else "India")


def test_the_two_rounds_audit_and_every_report_verifies(game):
    cli, db, tmp, _, reports = game
    assert len(reports) == 28
    every_report_verifies_and_audit_passes(cli, db, tmp, len(reports))


@pytest.fixture
def round_3(game, tmp_path):
    """A copy of the game as round 3 begins (United States and Canada allied), to play on without changing it."""
    cli, db, tmp, _, _ = game
    copy = tmp_path / "round3.db"
    shutil.copyfile(db, copy)
    shutil.copytree(tmp / "keys", tmp_path / "keys", dirs_exist_ok=True)
    return cli, copy


def test_leaving_an_alliance_takes_effect_before_the_declarations_of_the_same_turn(round_3):
    cli, db = round_3
    cli("submit", db, "--power", "United States", "-", input="leave\nwar Canada\nend\n")
    report = cli("adjudicate", db).output
    assert "The United States leaves their alliance: now at peace with Canada" in report, report
    assert "The United States declares war on Canada" in report
    assert cli.json("status", db)["powers"]["United States"]["at_war_with"] == ["Canada"]


@pytest.mark.parametrize("power, text, words", [
    ("Canada", "accept A1", "there is no pending offer A1: it was never made, or it was refused or has "
                            "expired [EG-60]"),
    ("Germany", "refuse A7", "there is no pending offer A7"),
    ("Germany", "leave", "Germany is in no alliance [EG-63]"),
    ("Canada", "leave Germany", "Canada is not allied with Germany [EG-63]"),
    ("Canada", "alliance Russia", "may file only standing orders now"),
    ("United States", "war Japan\ninfluence", "the influence phase is already over"),
])
def test_agreements_that_cannot_be_honoured_are_refused_at_submit_and_change_nothing(round_3, power, text, words):
    cli, db = round_3
    before = cli.json("status", db)
    out = cli("submit", db, "--power", power, "-", input=text + "\n", code=1).output
    assert words in out, out
    assert cli.json("status", db) == before


def test_an_answer_filed_after_the_answerers_own_alliances_step_is_refused(round_3):
    cli, db = round_3
    cli("submit", db, "--power", "United States", "-", input="alliance Russia\nend\n")
    cli("adjudicate", db)
    cli("submit", db, "--power", "Russia", "-", input="war Germany\n")       # played up to its declarations
    cli("adjudicate", db)
    out = cli("submit", db, "--power", "Russia", "-", input="accept A2\n", code=1).output
    assert ("Russia's Make Alliances step of this turn is over, and its next one, where an answer takes effect, comes "
            "after the offer A2 expires as the United States' next turn begins") in out, out
