"""The Expanded Global turn (games/expanded_global/rules.py; RULINGS.md "turn", "at-war", "peacetime-spending",
"repair-fee"). The rules themselves are rule cases (tests/cases/eg_turn.toml); these test the pieces around them."""

from __future__ import annotations

import pytest

from adjudicator.errors import ConfigError
from adjudicator.games import GAMES, base_games, played_on
from adjudicator.games.expanded_global import RULES, scenario_of
from adjudicator.games.expanded_global.rules import ExpandedGlobalRules
from adjudicator.games.expanded_global.scenario import TURN_PHASES
from adjudicator.notation import parse_submission
from adjudicator.report import PHASE_TITLES, describe
from adjudicator.scenario import AGENDA_PHASES, PHASES
from adjudicator.state import State, pair_key
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


def _rules(maps_dir) -> ExpandedGlobalRules:
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def test_registered_as_a_game_of_its_own_made_from_the_2nd_edition_map():
    assert GAMES["expanded-global"] == "expanded_global" and RULES is ExpandedGlobalRules
    assert base_games(["g40"]) == ["g40"]           # it does not play any G40 map: only the one it is made from
    assert {"game": "expanded-global", "rules": None, "default": False} in played_on("ww2global40_2nd_edition", ["g40"])
    assert all(g["game"] != "expanded-global" for g in played_on("G40_Alt_Universe", ["g40"]))


def test_another_map_is_refused(maps_dir):
    with pytest.raises(ConfigError, match="made from the G40 2nd-edition map"):
        scenario_of(load_scenario(maps_dir / "g40_alt_universe/map/games/G40_Alt_Universe.xml"))


def test_agenda_phases_are_in_the_vocabulary_with_titles():
    assert set(TURN_PHASES) <= set(PHASES)
    assert all(p in PHASE_TITLES for p in TURN_PHASES)


def test_move_in_the_agenda_is_a_combat_move_and_the_order_cites_eg09(maps_dir):
    rules = _rules(maps_dir)
    phases = rules.scenario.phases_of("Canada")
    for start in ("surrenders", "research", "declare_war"):
        parsed = parse_submission("move 1 inf Ontario > Quebec", rules.lexicon(), start_phase=start, phases=phases,
                                  verbs=rules.verbs(), power="Canada")
        assert [o.phase for o in parsed.submission.orders] == ["combat_move"], start
    parsed = parse_submission("ncm 1 inf Ontario > Quebec\nrepair 1 bb 110 Sea Zone", rules.lexicon(),
                              start_phase="surrenders", phases=phases, verbs=rules.verbs(), power="Canada")
    assert [e.rule for e in parsed.errors] == ["EG-09"]


def test_repair_reads_units_then_a_sea_zone_or_a_place_then_a_facility(maps_dir):
    rules = _rules(maps_dir)
    read = {text: parse_submission(text, rules.lexicon(), verbs=rules.verbs(), phases=TURN_PHASES,
                                   start_phase="purchase").submission.orders[0].canonical()
            for text in ("repair 1 bb 110 Sea Zone", "repair 1 110 Sea Zone battleship", "repair 2 Germany factory")}
    assert read["repair 1 bb 110 Sea Zone"] == read["repair 1 110 Sea Zone battleship"] == \
        "repair 1 110 Sea Zone battleship"
    assert read["repair 2 Germany factory"] == "repair 2 Germany factory"     # a facility: N damage points (BG-29)


def test_war_status_taken_as_purchase_begins(maps_dir):
    rules = _rules(maps_dir)
    state = State.initial(rules.scenario)
    assert rules.phase_start(state, "Canada", "research") == []
    [peace] = rules.phase_start(state, "Canada", "purchase")
    assert peace == {"type": "spending", "power": "Canada", "at_war_with": [], "income": 7, "cap": 3}
    assert "at most 3 IPCs" in describe(peace)[0]
    state.relationships[pair_key("Canada", "Germany")] = "War"
    [war] = rules.phase_start(state, "Canada", "purchase")
    assert war["cap"] is None and war["at_war_with"] == ["Germany"]
    assert rules.peacetime_limit(state, "Canada") is None
