"""Three rounds of the Expanded Global Scenario through the command line, as players and a host play it (issue 31):
research succeeds on each chart (the United States on Chart 1, Great Britain twice on Chart 2); Russia's Insurgents
make a Chinese territory neutral; three wars end in a surrender, one on each kind of terms — China to Japan on
Military terms, Canada to the United States on Political terms once Ontario, its capital, has fallen, France to
Italy on Land terms after Italy took Tunisia and Southern France; Indonesia and Australia make an armistice that
pays Australia 5 IPCs. Every turn's report, as posted, verifies against the anchor, `audit` replays the game, and a
research die changed in a post fails `verify`."""

from __future__ import annotations

import pytest

from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, own_folder, play_turns

pytestmark = pytest.mark.slow

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

NATIONS = ["United States", "Russia", "Germany", "Great Britain", "China", "France", "Japan", "Indonesia",
           "Eastern European Commonwealth", "Italy", "India", "Australia", "Union of South American Nations", "Canada"]

ROUNDS = [
    {
        "United States": "research 10 chart 1\nwar Canada\nend\n",
        "Russia": "influence\ninsurgents 2 Shensi\nend\n",
        "Great Britain": "research 4 chart 2\nend\n",
        "Japan": "war China\nend\n",
        "Indonesia": "war Australia\nend\n",
        "Italy": "war France\nend\n",
    },
    {
        "United States": "cm 1 inf, 3 mech, 1 arm Central United States > Ontario\n"
                         "cm 1 inf, 1 art Eastern United States > Ontario\n"
                         "cm 1 ftr Eastern United States > Ontario\ncm 1 bmb Central United States > Ontario\n"
                         "ncm 1 ftr Ontario > Eastern United States\nncm 1 bmb Ontario > Central United States\nend\n",
        "China": "surrender Japan\nend\n",
        "Japan": "accept S1 military a\nend\n",
        "Indonesia": "armistice Australia pay 5\nend\n",
        "Italy": "cm 1 inf, 1 art Libya > Tunisia\ncm 1 mech, 1 arm Tobruk > Libya > Tunisia\n"
                 "cm 2 inf, 2 art, 1 arm Northern Italy > Southern France\ncm 1 bmb Northern Italy > Southern France\n"
                 "ncm 1 bmb Southern France > Northern Italy\nend\n",
        "Australia": "accept R2\nend\n",
        "Canada": "surrender United States\nend\n",
    },
    {
        "United States": "accept S3 political\nend\n",
        "France": "surrender Italy\nend\n",
        "Italy": "accept S4 land Tunisia, Southern France\nend\n",
    },
]


@pytest.fixture(scope="module")
def game(tmp_path_factory, maps_dir):
    """The game after three rounds (42 turns), and every turn's report text."""
    cli = Cli()
    tmp = tmp_path_factory.mktemp("eg-endings")
    db = tmp / "eg.db"
    with own_folder(tmp):
        cli("new", db, "--game", "expanded-global", "--map", maps_dir / G40_2ND, "--seed", TEST_SEED,
            "--id", "eg-whole-game")
        reports = play_turns(cli, db, [(n, script.get(n, "end\n")) for script in ROUNDS for n in NATIONS])
    return cli, db, tmp, reports


def _turn(reports, round_, nation):
    return reports[(round_ - 1) * len(NATIONS) + NATIONS.index(nation)]


def test_research_succeeds_on_chart_1(game):
    cli, db, _, reports = game
    us = _turn(reports, 1, "United States")
    assert "The United States buys 10 research dice for 50 IPCs (Chart 1 named for breakthroughs)" in us, us
    assert "1 six, 1 breakthrough on Chart 1. [EG-32]" in us
    assert "The United States gains Advanced Artillery (Chart 1: chart1:United States:1 1: Advanced Artillery)" in us
    assert cli.json("status", db)["technologies"]["United States"] == ["Advanced Artillery"]


def test_research_succeeds_twice_on_chart_2_and_rolls_again_what_gives_nothing(game):
    cli, db, _, reports = game
    gb = _turn(reports, 1, "Great Britain")
    assert "2 sixes, 2 breakthroughs on Chart 2. [EG-32]" in gb, gb
    assert "Great Britain gains Improved Mechanized Infantry (Chart 2: chart2:Great Britain:1 3+4 = 7" in gb
    assert "6: no technology: rolled again" in gb and "held already: rolled again" in gb
    assert "= 9: Cruise Missiles); it takes effect at once. [EG-34]" in gb
    assert cli.json("status", db)["technologies"]["Great Britain"] == ["Improved Mechanized Infantry",
                                                                       "Cruise Missiles"]


def test_an_insurgency_makes_its_territory_neutral(game):
    cli, db, _, reports = game
    russia = _turn(reports, 1, "Russia")
    assert "Russia starts an insurgency in Shensi (an Original Territory of China): 2 Insurgents for 8 Influence" in russia
    assert "insurgency:Shensi:r1:attacker" in russia, russia
    assert "The insurgency of Russia in Shensi succeeds: Shensi is no longer China's but neutral" in russia
    shensi = cli.json("status", db)["territories"]["Shensi"]
    assert shensi["owner"] == "Neutral_True", shensi


def test_the_armistice_pays_its_income_in_the_next_round(game):
    cli, db, _, reports = game
    indonesia = _turn(reports, 2, "Indonesia")
    assert "Armistice offer R2: Indonesia offers Australia an armistice — Indonesia pays 5 IPCs" in indonesia, indonesia
    australia = _turn(reports, 2, "Australia")
    assert "Australia accepts the armistice offer R2 of Indonesia. [EG-23]" in australia, australia
    assert ("Armistice R2: Indonesia and Australia are at peace — Indonesia pays 5 IPCs. The 5 IPCs given are usable "
            "from round 3. [EG-22]") in australia
    later = _turn(reports, 3, "Australia")
    assert "Australia receives 5 IPCs given by Indonesia in the armistice R2" in later, later
    status = cli.json("status", db)
    assert "Australia" not in status["powers"]["Indonesia"]["at_war_with"]


def test_military_terms_remove_half_the_losers_land_units(game):
    cli, db, _, reports = game
    assert "Surrender offer S1: China offers to surrender to Japan" in _turn(reports, 2, "China")
    japan = _turn(reports, 2, "Japan")
    assert "Japan accepts the surrender offer S1 of China, on these terms: military a. [EG-13]" in japan, japan
    assert ("China surrenders to Japan (offer S1): at peace with Japan. Terms: Military A — half of their 44 land "
            "units, rounded up, cheapest first, removed: 22 infantry. [EG-17]") in japan
    assert "China" not in cli.json("status", db)["powers"]["Japan"]["at_war_with"]


def test_political_terms_need_the_capital_and_give_its_income(game):
    cli, db, _, reports = game
    assert "Ontario is captured from Canada by the United States" in _turn(reports, 2, "United States")
    assert "Surrender offer S3: Canada offers to surrender to the United States" in _turn(reports, 2, "Canada")
    us = _turn(reports, 3, "United States")
    assert "The United States accepts the surrender offer S3 of Canada, on these terms: political. [EG-13]" in us, us
    assert "Canada surrenders to the United States (offer S3): at peace with the United States. Terms: Political" in us
    assert "Political surrender: United States over Canada (while United States hold Ontario)" in us
    status = cli.json("status", db)
    assert status["powers"]["United States"]["income"] == 52 + 7, status["powers"]["United States"]


def test_land_terms_make_the_occupied_territories_the_victors_original_ones(game):
    cli, db, _, reports = game
    assert "Southern France is captured from France by Italy" in _turn(reports, 2, "Italy")
    italy = _turn(reports, 3, "Italy")
    assert "Italy accepts the surrender offer S4 of France, on these terms: land Tunisia, Southern France." in italy
    assert ("France surrenders to Italy (offer S4): at peace with Italy. Terms: Land — Tunisia and Southern France "
            "become Original Territories of Italy. [EG-16]") in italy, italy
    status = cli.json("status", db)
    for place in ("Tunisia", "Southern France"):
        assert status["territories"][place]["owner"] == "Italy"
    assert status["original_by_surrender"] == {"Southern France": "Italy", "Tunisia": "Italy"}
    assert status["political_terms"] == {"Canada": "United States"}


def test_every_report_verifies_and_the_game_audits(game):
    cli, db, tmp, reports = game
    assert len(reports) == 3 * len(NATIONS)
    every_report_verifies_and_audit_passes(cli, db, tmp, len(reports))


def test_a_research_die_changed_in_a_post_fails_verify(game):
    cli, db, tmp, _ = game
    post = cli("report", db, "--turn", 1, "--format", "text").output
    line = next(x for x in post.splitlines() if x.startswith("research:United States | d6 | "))
    values = line.split(" | ")[2].split()
    values[4] = "5" if values[4] == "6" else "6"
    forged = tmp / "forged.txt"
    forged.write_text(post.replace(line, line.replace(line.split(" | ")[2], " ".join(values))))
    out = cli("verify", forged, code=1).output
    assert "DOES NOT CHECK OUT" in out and "group research:United States" in out, out
