"""Sgt. Apone's bases as pieces (AP-02, AP-03; games/apone_europe/scenario.py, bases.py): where the start position
puts them, who owns them, that they are no casualties, how players and the status name them. The movement they
give is played by the rule cases (tests/cases/ap_bases.toml)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from adjudicator.games import apone_europe
from adjudicator.games.apone_europe.bases import SERVED_ZONE
from adjudicator.games.apone_europe.scenario import AIR_BASES, NAVAL_BASES
from adjudicator.notation.lexicon import UNIT
from adjudicator.state import State
from adjudicator.triplea import load_scenario


@functools.cache
def _apone(path: Path):
    return apone_europe.scenario_of(load_scenario(path))


@pytest.fixture
def game(maps_dir: Path):
    scenario = _apone(maps_dir / "europe_improved/map/games/europe_improved.xml")
    return scenario, apone_europe.RULES(scenario, ""), State.initial(scenario)


def test_bases_start_with_the_territory_owner(game):
    scenario, rules, state = game
    for kind, places in (("air_base", AIR_BASES), ("naval_base", NAVAL_BASES)):
        for place in places:
            owner = state.owners[place]
            assert state.units_by_owner(place)[owner][kind] == 1, (kind, place)
        assert sorted(u.place for u in state.units if u.type == kind) == sorted(places)


def test_bases_are_no_casualties_and_never_move(game):
    scenario, rules, state = game
    for u in state.units:
        if u.type in ("air_base", "naval_base"):
            assert not rules.is_combatant(u) and rules.ut(u).movement == 0


def test_each_naval_base_serves_a_zone_next_to_it(game):
    scenario, rules, state = game
    assert set(SERVED_ZONE) == set(NAVAL_BASES)
    for place, zone in SERVED_ZONE.items():
        assert scenario.territory(zone).water and zone in scenario.neighbours(place), place


@pytest.mark.parametrize("text, name", [("air base", "air_base"), ("naval bases", "naval_base"),
                                        ("Air_Base", "air_base")])
def test_players_name_the_bases(game, text, name):
    scenario, rules, state = game
    assert rules.lexicon().resolve(UNIT, text) == [name]
