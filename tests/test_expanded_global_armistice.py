"""Armistices and technology exchange across submissions (games/expanded_global/armistice.py; RULINGS.md
"eg-armistice", "eg-armistice-terms", "eg-armistice-refused", "eg-armistice-income", "eg-technology-exchange"): an
offer in one nation's turn, the answer filed by the other, its effect at the answerer's step, the report's lines."""

from __future__ import annotations

import pytest

from adjudicator.games.expanded_global import RULES, armistice, scenario_of, tech
from adjudicator.notation import parse_submission
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


@pytest.fixture(scope="module")
def rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def _orders(rules, text, power, phase):
    parsed = parse_submission(text, rules.lexicon(), verbs=rules.verbs(), phases=rules.scenario.phases_of(power),
                              start_phase=phase)
    assert not parsed.errors, parsed.errors
    return parsed.submission.orders


def _at_war(rules):
    state = State.initial(rules.scenario)
    state.set_relationship("Japan", "China", rules.war_type())
    state.power, state.phase = "Japan", "surrenders"
    return state


def test_the_terms_are_written_back_canonically(rules):
    [o] = _orders(rules, "Armistice china pay 5 TAKE yunnan ,kwangsi give tech radar give formosa", "Japan",
                  "surrenders")
    assert o.canonical() == "armistice China give Formosa take Yunnan, Kwangsi pay 5 give tech Radar"
    assert _orders(rules, o.canonical(), "Japan", "surrenders")[0].canonical() == o.canonical()
    [x] = _orders(rules, "exchange germany give long range bombers take radar", "Japan", "research")
    assert x.canonical() == "exchange Germany give Long Range Bombers take Radar"
    [bare] = _orders(rules, "armistice China", "Japan", "surrenders")
    assert bare.canonical() == "armistice China"


def test_an_offer_accepted_in_another_submission_makes_peace_at_the_answerers_step(rules):
    state = _at_war(rules)
    tech.grant(state, "Japan", "Radar")
    [o] = _orders(rules, "armistice China give Formosa take Yunnan pay 5 give tech Radar", "Japan", "surrenders")
    offer = rules.game_order(state, "Japan", o)
    assert offer["type"] == "armistice_offer" and offer["offer"] == "R1"
    assert "Offer R1: Japan offer China an armistice: Japan give Formosa; China give Yunnan" in \
        "\n".join(rules.position_lines(state))
    [answer] = _orders(rules, "accept R1", "China", "surrenders")
    assert rules.check_standing(state, "China", [answer]) == []
    rules.file_standing(state, "China", answer)
    assert rules.at_war(state, "Japan", "China")            # not before China's own surrenders step
    accepted, done = rules.phase_start(state, "China", "surrenders")
    assert accepted["type"] == "offer_accepted" and done["type"] == "armistice"
    assert not rules.at_war(state, "Japan", "China")
    assert state.owners["Formosa"] == "China" and state.original_owners["Formosa"] == "Japan"       # EG-26
    assert tech.has(state, "China", "Radar") and tech.has(state, "Japan", "Radar")
    assert state.treasury["Japan"] == 10 and state.treasury["China"] == 23
    notes = "\n".join(rules.position_lines(state))
    assert "Armistice R1 (round 1): Japan and China at peace" in notes
    assert "Income held for China: 5 IPCs from Japan" in notes and "Technologies China received: Radar" in notes
    state.round = 2
    [paid] = rules.turn_start(state, "China")
    assert paid["type"] == "armistice_income" and state.treasury["China"] == 28
    status = rules.status_fields(state)
    assert status["armistices"][0]["between"] == ["Japan", "China"] and status["income_held"] == {}


def test_accept_takes_no_terms_and_a_refusal_bars_further_offers(rules):
    state = _at_war(rules)
    rules.game_order(state, "Japan", _orders(rules, "armistice China", "Japan", "surrenders")[0])
    with pytest.raises(RuleViolation, match="takes no terms"):
        armistice.politics.file_answer(rules, state, "China", "accept", "R1", "pay 5")
    armistice.politics.file_answer(rules, state, "China", "refuse", "R1")
    [refused] = rules.phase_start(state, "China", "surrenders")
    assert refused["type"] == "offer_refused"
    assert "No armistice between China and Japan in this war" in "\n".join(rules.position_lines(state))
    with pytest.raises(RuleViolation) as exc:
        rules.game_order(state, "China", _orders(rules, "armistice Japan", "China", "surrenders")[0])
    assert exc.value.rule == "EG-24"


def test_an_exchange_is_answered_at_the_answerers_research_step(rules):
    state = State.initial(rules.scenario)
    tech.grant(state, "Germany", "Nuclear Warhead")
    tech.grant(state, "Japan", "Radar")
    [o] = _orders(rules, "exchange Japan give Nuclear Warhead take Radar", "Germany", "research")
    assert rules.game_order(state, "Germany", o)["offer"] == "X1"
    armistice.politics.file_answer(rules, state, "Japan", "accept", "X1")
    assert rules.phase_start(state, "Japan", "surrenders") == []
    accepted, done = rules.phase_start(state, "Japan", "research")
    assert done["type"] == "technology_exchanged" and "Japan receive Nuclear Warhead" in done["text"]
    assert tech.technologies(state, "Japan") == ["Radar", "Nuclear Warhead"]
    assert tech.technologies(state, "Germany") == ["Nuclear Warhead", "Radar"]


def test_an_armistice_brings_both_alliances_to_peace_and_every_member_answers(rules):
    state = _at_war(rules)
    state.set_relationship("Japan", "Italy", "Allied")
    state.set_relationship("Italy", "China", rules.war_type())
    event = rules.game_order(state, "Japan", _orders(rules, "armistice China take Yunnan", "Japan", "surrenders")[0])
    assert event["addressed"] == ["China", "Italy"] and "China and Italy may answer" in event["text"]
    armistice.politics.file_answer(rules, state, "China", "accept", "R1")
    [accepted] = rules.phase_start(state, "China", "surrenders")
    assert accepted["waiting"] == ["Italy"] and rules.at_war(state, "Japan", "China")
    armistice.politics.file_answer(rules, state, "Italy", "accept", "R1")
    accepted, done = rules.phase_start(state, "Italy", "surrenders")
    assert done["peace"] == [["Japan", "China"], ["Italy", "China"]] and "Italy–China" in done["text"]
    assert not rules.at_war(state, "Italy", "China") and state.owners["Yunnan"] == "Japan"


def test_a_refusal_by_an_ally_bars_every_pair_of_the_two_alliances(rules):
    state = _at_war(rules)
    state.set_relationship("Japan", "Italy", "Allied")
    state.set_relationship("Italy", "China", rules.war_type())
    rules.game_order(state, "Japan", _orders(rules, "armistice China", "Japan", "surrenders")[0])
    armistice.politics.file_answer(rules, state, "Italy", "refuse", "R1")
    rules.phase_start(state, "Italy", "surrenders")
    with pytest.raises(RuleViolation, match="only surrender"):
        rules.game_order(state, "China", _orders(rules, "armistice Italy", "China", "surrenders")[0])


def test_an_armistice_through_the_command_line_is_reported_and_audits(tmp_path, maps_dir):
    """Russia declare war on Japan; Japan offer an armistice in the same round, paying 5 IPCs; Russia accept out of
    turn; the armistice is made at Russia's next Resolving Surrenders and Armistices step; every report verifies."""
    from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, own_folder

    nations = [p.name for p in rules_scenario(maps_dir).players if not p.optional]
    cli, db = Cli(), tmp_path / "eg.db"
    reports = []
    with own_folder(tmp_path):
        cli("new", db, "--game", "expanded-global", "--map", maps_dir / G40_2ND, "--seed", TEST_SEED, "--id", "eg-arm")
        for i, nation in enumerate(nations + nations[:2]):
            script = {"Russia": "war Japan\nend\n", "Japan": "armistice Russia pay 5\nend\n"}.get(nation, "end\n")
            if i >= len(nations):
                script = "end\n"
            if nation == "Indonesia":
                answered = cli("submit", db, "--power", "Russia", "-", input="accept R1\n").output
                assert "accepted as submission" in answered, answered
            cli("submit", db, "--power", nation, "-", input=script)
            reports.append(cli("adjudicate", db).output)
        japan, russia_2 = reports[nations.index("Japan")], reports[-1]
        assert "Armistice offer R1: Japan offers Russia an armistice — Japan pays 5 IPCs" in japan, japan
        assert "Offer R1: Japan offer Russia an armistice: Japan pay 5 IPCs; awaiting Russia" in japan, japan
        assert "Armistice R1: Japan and Russia are at peace — Japan pays 5 IPCs" in russia_2, russia_2
        assert "Income held for Russia: 5 IPCs from Japan" in russia_2, russia_2
        assert not cli.json("status", db)["armistices"] == []
        every_report_verifies_and_audit_passes(cli, db, tmp_path, len(reports))


def rules_scenario(maps_dir):
    return scenario_of(load_scenario(maps_dir / G40_2ND))
