"""Politics, triggers and national objectives read from the map: the parts rule cases do not show (reports,
objectives paid a limited number of times, the condition language, maps without political data)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.games import game_module
from adjudicator.people import People, speaking
from adjudicator.report import describe
from adjudicator.rules import economy, politics
from adjudicator.rules.conditions import Conditions, Unsupported, combine, in_rounds
from adjudicator.scenario import Attachment
from adjudicator.state import State
from cases.runner import map_scenario

G40 = "ww2global40_2nd_edition"


@pytest.fixture(scope="module")
def g40():
    scenario = map_scenario(G40)
    return game_module("g40").RULES(scenario)


def fresh(rules) -> State:
    return State.initial(rules.scenario)


def test_the_report_lists_each_objective_met_or_missed(g40):
    state = fresh(g40)
    event = economy.collect_income(g40, state, "Germans")
    with speaking(People(g40.scenario, g40.people_names)):
        lines = describe(event)
    assert lines[0] == "Germany collects 40 PUs (treasury 70)."
    assert "National objective met: Trade with Russia, +5 PUs." in lines           # the map's "Germans 1 …"
    assert "National objective missed: Control Caucasus (5 PUs)." in lines


def test_a_declaration_reports_what_it_brings_with_it(g40):
    state = fresh(g40)
    state.power, state.round = "Japanese", 1
    event = politics.declare_war(g40, state, "Japanese", "UK_Pacific")
    with speaking(People(g40.scenario, g40.people_names)):
        text = " ".join(describe(event))
    assert text.startswith("Japan declares war on UK Pacific; with it, the United Kingdom")
    assert "China is now allied with the United Kingdom" in text


def test_an_objective_with_limited_uses_pays_that_often(g40):
    """The Soviet capture of Berlin (uses 1) pays once, then is listed as paid already."""
    state = fresh(g40)
    state.owners["Germany"] = "Russians"
    first = economy.collect_income(g40, state, "Russians")
    second = economy.collect_income(g40, state, "Russians")
    berlin = [[line for line in e["lines"] if line.get("name") == "Russians 3 Berlin"][0] for e in (first, second)]
    assert berlin[0]["paid"] == 10
    assert berlin[1]["paid"] == 0 and "paid already" in berlin[1]["note"]


def test_status_income_reads_the_state_without_paying(g40):
    state = fresh(g40)
    state.owners["Germany"] = "Russians"
    before = state.hash()
    g40.income(state, "Russians")
    assert state.hash() == before


def test_a_condition_the_engine_cannot_evaluate_is_not_met_and_says_why(g40):
    odd = Attachment("objectiveAttachment_Odd", "Germans", "condition",
                     [["objectiveValue", "5", ""], ["destroyedTUV", "20:currentRound", ""]])
    with pytest.raises(Unsupported, match="destroyedTUV"):
        Conditions(g40).test(fresh(g40), odd)


@pytest.mark.parametrize("spec,round_,expected", [("3", 3, True), ("3", 4, False), ("4-+", 9, True),
                                                   ("2-5", 6, False), ("1:4-+", 1, True)])
def test_rounds(spec, round_, expected):
    assert in_rounds(round_, spec) is expected


@pytest.mark.parametrize("kind,results,expected", [("AND", [True, False], False), ("OR", [False, True], True),
                                                   ("XOR", [True, True], False), ("2", [True, True, False], True),
                                                   ("1-2", [True, True, True], False)])
def test_condition_types(kind, results, expected):
    assert combine(results, kind) is expected


def test_without_political_data_any_non_ally_may_be_declared_on():
    """A map without political actions (the 1999 maps, the demo, games stored before this data was kept)
    keeps the plain declaration: the Soviet war on Germany in round 1 is allowed there."""
    scenario = replace(map_scenario(G40), attachments=[])
    rules = game_module("g40").RULES(scenario)
    state = State.initial(scenario)
    event = politics.declare_war(rules, state, "Russians", "Germans")
    assert event["changes"] == [] and rules.at_war(state, "Russians", "Germans")
    assert not rules.at_war(state, "Russians", "Italians")


# -- through the command line -----------------------------------------------------------------------------------

def test_a_played_g40_round_pays_objectives_refuses_early_wars_and_audits(cli, tmp_path, maps_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", G40, "--seed", "5e" * 32)
    germans = cli.json("status", db)["powers"]["Germans"]
    assert {"name": "Germans 1 Trade with Russia", "value": 5, "met": True, "paid": 5} in germans["objectives"]
    assert germans["income"] == 40
    cli("submit", db, "--power", "Germans", input="end\n")
    report = cli("adjudicate", db).output
    assert "National objective met: Trade with Russia, +5 PUs." in report
    assert "National objective missed: Control Caucasus (5 PUs)." in report
    refused = cli("submit", db, "--power", "Russians", input="war Germans\n", code=1).output
    assert "the Soviet Union may not declare war on Germany now" in refused and "[BG-02]" in refused
    cli("submit", db, "--power", "Russians", input="end\n")
    cli("adjudicate", db)
    cli("submit", db, "--power", "Japanese", input="war UK_Pacific\nend\n")
    report = cli("adjudicate", db).output
    assert "Japan declares war on UK Pacific; with it, the United Kingdom" in report and "at war with Japan" in report
    assert cli.json("status", db)["powers"]["Japanese"]["at_war_with"][:3] == ["ANZAC", "British", "Chinese"]
    assert "OK" in cli("audit", db).output
