"""The Expanded Global scenario made from the G40 2nd-edition map (games/expanded_global; RULINGS.md there)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest

from adjudicator.games.expanded_global.scenario import (
    NATIONS, NEUTRAL_OWNERS, PEACE, TURN_PHASES, expanded_global, turn_sequence,
)
from adjudicator.notation.lexicon import POWER, Lexicon
from adjudicator.picture import KNOWN_COLOURS
from adjudicator.rules import politics, turn
from adjudicator.rules.g40_family import G40Rules
from adjudicator.scenario import Scenario
from adjudicator.state import State
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"

# EG-01's order, EG-02's incomes.
EG_02 = {
    "United States": 52, "Russia": 37, "Germany": 25, "Great Britain": 24, "China": 23, "France": 19, "Japan": 15,
    "Indonesia": 15, "Eastern European Commonwealth": 14, "Italy": 10, "India": 10, "Australia": 10,
    "Union of South American Nations": 8, "Canada": 7,
}
G40_POWERS = ("Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "UK_Pacific", "Italians",
              "ANZAC", "French", "Dutch")


@functools.cache
def _g40(path: Path) -> Scenario:
    return load_scenario(path)


@pytest.fixture
def g40(maps_dir: Path) -> Scenario:
    return _g40(maps_dir / G40_2ND)


@pytest.fixture
def eg(g40: Scenario) -> Scenario:
    return expanded_global(g40)


def _land_income(s: Scenario, owners: dict[str, str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for t in s.territories:
        if not t.water and owners.get(t.name):
            found[owners[t.name]] = found.get(owners[t.name], 0) + t.production
    return found


def test_fourteen_nations_in_eg01_order(eg):
    assert [n.name for n in NATIONS] == list(EG_02)
    assert eg.turn_players() == list(EG_02)
    assert [p.name for p in eg.players] == list(EG_02) + list(NEUTRAL_OWNERS)
    assert all(p.optional for p in eg.players if p.name in NEUTRAL_OWNERS)
    assert not any(p.optional for p in eg.players if p.name in EG_02)


def test_each_nation_plays_the_agenda_then_the_combat_phase(eg, g40):
    """EG-07, EG-09: the Agenda's six steps in their order, then the Combat Phase (RULINGS.md "turn")."""
    assert TURN_PHASES == ("surrenders", "purchase", "research", "influence", "alliances", "declare_war",
                           "combat_move", "battle", "noncombat_move", "place", "end_turn")
    for name in EG_02:
        assert eg.phases_of(name) == list(TURN_PHASES)
        assert eg.guests_of(name) == []
    assert turn_sequence(g40, list(EG_02)) == eg.sequence
    assert len({s.name for s in eg.sequence}) == len(eg.sequence)


def test_names_abbreviations_and_colours(eg):
    lex = Lexicon.from_scenario(eg)
    for n in NATIONS:
        assert lex.resolve(POWER, n.name) == [n.name]
        assert lex.resolve(POWER, n.abbreviation) == [n.name]
        assert KNOWN_COLOURS[n.name] == n.colour
    assert len({n.colour for n in NATIONS}) == len(NATIONS)
    assert len({n.abbreviation for n in NATIONS}) == len(NATIONS)


def test_eg02_income_exact_for_every_nation(eg):
    assert {n: i for n, i in _land_income(eg, eg.owners).items() if n in EG_02} == EG_02


def test_eg02_is_starting_money_too(eg):
    assert {p: eg.resources.get(p, 0) for p in EG_02} == EG_02
    assert not any(eg.resources.get(p) for p in NEUTRAL_OWNERS)
    assert eg.tokens == {}


def test_every_land_territory_owned_by_a_nation_or_a_neutral(eg):
    owners = set(EG_02) | set(NEUTRAL_OWNERS)
    for t in eg.territories:
        if not t.water and not t.hidden:
            assert eg.owners.get(t.name) in owners, t.name
    assert not set(eg.owners.values()) & set(G40_POWERS)


def test_every_unit_owned_by_a_nation_or_a_neutral(eg, g40):
    owners = set(EG_02) | set(NEUTRAL_OWNERS)
    assert {p.owner for p in eg.placements} <= owners
    count = lambda s, kind=None: sum(p.quantity for p in s.placements if kind in (None, p.unit_type))
    assert count(eg) == count(g40)
    for kind in {p.unit_type for p in g40.placements}:
        assert count(eg, kind) == count(g40, kind), kind


def test_units_on_land_belong_to_the_territory_owner(eg):
    water = {t.name for t in eg.territories if t.water}
    for p in eg.placements:
        if p.territory not in water:
            assert eg.owners[p.territory] == p.owner, p


def test_reassigned_units_and_fleets(eg):
    def has(place, owner, kind):
        return any(p.territory == place and p.owner == owner and p.unit_type == kind for p in eg.placements)
    assert has("Manchuria", "China", "infantry")              # Japan's army in originally Chinese land
    assert has("Poland", "Eastern European Commonwealth", "infantry")
    assert has("Turkey", "Eastern European Commonwealth", "infantry")     # Turkey's standing army
    assert has("Argentina", "Union of South American Nations", "infantry")
    assert has("India", "India", "infantry")                  # UK_Pacific's units were British
    assert has("106 Sea Zone", "Canada", "destroyer")         # the British fleet off Canada
    assert has("37 Sea Zone", "India", "battleship")          # the British fleet off India
    assert has("6 Sea Zone", "Japan", "battleship")
    assert has("110 Sea Zone", "Great Britain", "battleship")


def test_neutral_standing_armies_kept(eg, g40):
    kept = {"Spain": 6, "Sweden": 6, "Switzerland": 2, "Afghanistan": 4, "Iraq": 3}
    for place, n in kept.items():
        units = [p for p in eg.placements if p.territory == place]
        assert sum(p.quantity for p in units) == n, place
        assert {p.owner for p in units} == {g40.owners[place]}, place


def test_capitals_owned_by_their_nation(eg):
    capitals = {t.name: t.capital for t in eg.territories if t.capital}
    assert sorted(capitals.values()) == sorted(EG_02)
    for n in NATIONS:
        assert capitals[n.capital] == n.name
        assert eg.owners[n.capital] == n.name
    rules = G40Rules(eg)
    assert {n: rules.capital_of(n) for n in EG_02} == {n.name: n.capital for n in NATIONS}


def test_original_territories_are_the_starting_ones(eg):
    for t in eg.territories:
        if not t.water and t.name in eg.owners:
            assert t.original_owner == eg.owners[t.name], t.name
    state = State.initial(eg)
    assert all(state.original_owners[t] == o for t, o in eg.owners.items() if t in state.original_owners)


def test_relations_all_peace(eg):
    names = list(EG_02)
    kinds = {eg.relationship_type(t).archetype for a, b, t in eg.relationships if a in names or b in names}
    assert kinds == {"neutral"}
    pairs = {frozenset((a, b)): t for a, b, t in eg.relationships}
    state = State.initial(eg)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert pairs[frozenset((a, b))] == PEACE
            assert state.relationship(a, b) == PEACE
        for b in NEUTRAL_OWNERS:
            assert eg.relationship_type(pairs[frozenset((a, b))]).archetype == "neutral"
    rules = G40Rules(eg)
    assert not any(rules.at_war(state, a, b) for a in names for b in names + list(NEUTRAL_OWNERS) if a != b)


def test_g40_scenario_switched_off(eg, g40):
    assert g40.attachments_of("trigger") and g40.attachments_of("political") and g40.attachments_of("condition")
    assert eg.attachments == []
    for kind in ("trigger", "political", "condition"):
        assert eg.attachments_of(kind) == []
    for prop in ("Use Triggers", "National Objectives", "Use Politics", "Triggered Victory",
                 "Use Kamikaze Suicide Attacks"):
        assert eg.properties[prop] == "false", prop
    assert not any(k.endswith(" bid") for k in eg.properties)
    names = set(G40_POWERS)
    for p in eg.players:
        assert not p.options, p.name       # giveUnitControl, suicideAttackResources, captureUnitOnEnteringBy ...
    for t in eg.territories:
        assert not {"capital", "originalOwner", "changeUnitOwners", "whenCapturedByGoesTo",
                    "captureUnitOnEnteringBy", "kamikazeZone"} & set(t.options), t.name
    for u in eg.unit_types:
        assert not names & {w for vs in u.options.values() for v in vs for w in str(v).split(":")}, u.name
    assert not names & set(eg.player_production)
    assert set(eg.player_production.values()) == {"production"}
    for s in eg.supports:
        assert not names & set(s.players)
    assert {p for s in eg.supports for p in s.players} == set(EG_02)


def test_nothing_of_the_g40_scenario_fires(eg):
    rules = G40Rules(eg)
    state = State.initial(eg)
    assert rules.kamikaze_zones() == []
    assert all(rules.suicide_attack(n) is None for n in EG_02)
    for n in EG_02:
        assert rules.national_objectives(state, n) == []
        assert politics.objectives(rules, state, n) == []     # none even with the switch turned on
        for phase in TURN_PHASES:
            assert turn.triggers(rules, state, n, phase, "before") == []
            assert turn.triggers(rules, state, n, phase, "after") == []
    switched_on = copy.deepcopy(eg)
    switched_on.properties.update({"Use Triggers": "true", "National Objectives": "true"})
    rules_on, state_on = G40Rules(switched_on), State.initial(switched_on)
    for n in EG_02:
        assert rules_on.national_objectives(state_on, n) == []
        assert turn.triggers(rules_on, state_on, n, "end_turn", "after") == []


def test_g40_scenario_is_left_unchanged(g40):
    before = g40.to_json()
    expanded_global(g40)
    assert g40.to_json() == before


def test_round_trip_state_and_income(eg):
    back = Scenario.from_json(eg.to_json())
    assert back.to_json() == eg.to_json()
    assert [p.name for p in back.players] == [p.name for p in eg.players]
    assert back.turn_players() == list(EG_02)
    state = State.initial(back)
    assert (state.round, state.power, state.phase) == (1, "United States", "surrenders")
    assert {n: state.treasury[n] for n in EG_02} == EG_02
    rules = G40Rules(back)
    for n, income in EG_02.items():
        assert rules.income(state, n)[0] == income, n
