"""The report's victory-city line counts, for each side, the cities it holds against every goal of the game's
victory conditions (issue 32): G40 2nd edition's 8 in Europe or 6 in the Pacific with a capital, Alt-Universe's
14 cities (AU-02 … AU-04), the classic maps' count (CL-17), on positions whose owners the test sets."""

from __future__ import annotations

import pytest

from adjudicator.games.classic import RULES as CLASSIC
from adjudicator.games.g40 import RULES as G40
from adjudicator.games.g40_alt_universe import RULES as AU
from adjudicator.games.g40_alt_universe import DEFAULT_VERSION as AU_VERSION
from adjudicator.triplea import load_scenario
from conftest import G40AU_208

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


@pytest.fixture(scope="module")
def g40(maps_dir):
    return G40(load_scenario(maps_dir / G40_2E), "")


def test_g40_counts_each_theatre_and_the_capitals_against_what_the_side_needs(g40):
    """Berlin, Paris and Warsaw are 3 of the 11 Europe cities; Tokyo and Manila 2 of the 8 Pacific ones."""
    owners = {"Germany": "Germans", "France": "Germans", "Poland": "Italians", "Japan": "Japanese",
              "Philippines": "Japanese", "United Kingdom": "British", "Russia": "Russians", "Southern Italy": "British"}
    axis, allies = g40.victory_city_goals(owners)
    assert axis == ("the Axis hold 3 of the 8 needed in Europe or 2 of the 6 needed in the Pacific, "
                    "and 2 (1 needed) among Germany, Southern Italy, Japan, for a whole round")
    assert allies == ("the Allies hold 2 (1 needed) among United Kingdom, Russia, France, Eastern United States, "
                      "and 1 of the 3 needed among Germany, Southern Italy, Japan, for a whole round")


def test_a_group_the_rulebook_does_not_name_is_counted_among_its_cities(maps_dir):
    """A map whose Europe condition lists other cities is not called Europe: its cities are listed instead."""
    rules = G40(load_scenario(maps_dir / G40_2E), "")
    europe = rules.scenario.condition("conditionAttachmentAxisVictory1")
    option = next(o for o in europe.options if o[0] == "alliedOwnershipTerritories")
    option[1] = option[1].replace(":Ontario", "")
    axis = rules.victory_city_goals({"Germany": "Germans", "Ontario": "Germans"})[0]
    assert axis.startswith("the Axis hold 1 of the 8 needed among these 10 cities (United Kingdom, Russia, Germany, ")
    assert "Eastern United States) or 0 of the 6 needed in the Pacific, and 1 (1 needed) among" in axis


def test_alt_universe_counts_the_axis_cities_against_each_sides_threshold(maps_dir):
    rules = AU(load_scenario(maps_dir / G40AU_208), AU_VERSION)
    cities = rules.cities()
    owners = {city: "Germans" for city in cities[:3]}
    assert rules.victory_city_goals(owners) == [
        "the Axis hold 3 of the 14 needed [AU-02], for a whole round",
        "the Allies need the Axis to hold fewer than 6 [AU-03] or fewer than 8 from round 8 [AU-04], "
        "for a whole round"]
    assert rules.victory_city_goals({city: "Japanese" for city in cities[:15]})[0].startswith(
        "the Axis hold 15 (14 needed) [AU-02]")


def test_a_classic_map_counts_each_sides_cities_against_its_honorable_surrender_figure(maps_dir):
    rules = CLASSIC(load_scenario(maps_dir / "europe/map/games/europe_AAE.xml"), "")
    cities = [t.name for t in rules.scenario.territories if t.victory_city]
    axis = next(p.name for p in rules.scenario.players if "Axis" in p.alliances)
    need = rules.scenario.properties["Axis Honorable Victory VCs"]
    assert rules.victory_city_goals({cities[0]: axis})[0] == (
        f"the Axis hold 1 of the {need} needed as a round ends [CL-17]")


def test_the_alt_universe_map_played_as_g40_counts_its_own_triggers(maps_dir):
    """Its triggers count all 23 cities, and two need the Neutral League to keep NL11: said so, not as the Allies'."""
    rules = G40(load_scenario(maps_dir / G40AU_208), "")
    goals = rules.victory_city_goals(rules.scenario.owners)
    assert goals[0] == "the Axis hold 6 of the 14 needed among all 23 victory cities, for a whole round"
    assert goals[2] == ("the Allies hold 16 (15 needed) among all 23 victory cities, and with Neutral League holding "
                        "1 (1 needed) among NL11, and round 8 or later, for a whole round")
