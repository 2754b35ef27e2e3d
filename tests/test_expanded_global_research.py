"""Technology research in the Expanded Global Scenario through the command line (EG-31 … EG-34): the United States
buy research dice in their first turn; the report names the dice (`research:United States`, then each chart roll)
and the technology gained, `status` lists it, and the posted report's research dice verify like battle dice."""

from __future__ import annotations

import pytest

from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, own_folder
from narrative_dice import each_changed_die_is_named, verify

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"


@pytest.fixture(scope="module")
def game(tmp_path_factory, maps_dir):
    cli = Cli()
    tmp = tmp_path_factory.mktemp("eg-research")
    db = tmp / "eg.db"
    with own_folder(tmp):
        cli("new", db, "--game", "expanded-global", "--map", maps_dir / G40_2ND, "--seed", TEST_SEED,
            "--id", "eg-research")
        refused = cli("submit", db, "--power", "United States", "-", input="research 11 chart 1\nend\n",
                      code=None).output
        cli("submit", db, "--power", "United States", "-", input="research 10 chart 1\nend\n")
        report = cli("adjudicate", db).output
    return cli, db, tmp, refused, report


def test_research_the_nation_cannot_pay_for_is_refused_at_submit(game):
    _, _, _, refused, _ = game
    assert "11 research dice cost 55 IPCs (5 each); the United States has 52" in refused, refused
    assert "EG-31" in refused


def test_the_report_names_the_research_dice_and_the_technology_gained(game):
    cli, db, _, _, report = game
    assert "The United States buys 10 research dice for 50 IPCs (Chart 1 named for breakthroughs); 2 IPCs left." in report
    assert "The United States researches (research:United States):" in report, report
    assert "research:United States" in report
    status = cli.json("status", db)
    gained = status["technologies"].get("United States", [])
    if "breakthrough on Chart 1" in report or "United States gains " in report:
        assert gained and f"The United States gains {gained[0]} (Chart 1: chart1:United States:1" in report, report
        assert "chart1:United States:1" in report
    else:
        assert "no 6, the research fails" in report and gained == []


def test_the_research_dice_verify(game):
    cli, db, tmp, _, _ = game
    every_report_verifies_and_audit_passes(cli, db, tmp, 1)


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_a_research_die_changed_in_the_narrative_is_named(game, tmp_path, fmt):
    """The research line and each chart roll print their dice right after their group's label: `verify` holds
    them to the dice block (issue 32 item 5)."""
    cli, db, _, _, _ = game
    text = cli("report", db, "--turn", 1, "--format", fmt).output
    each_changed_die_is_named(cli, tmp_path, text, {
        r"\(research:United States\): \d, (\d)": "research:United States",
        r"chart1:United States:1 (\d)": "chart1:United States:1"})
    assert "group(s) checked in the dice block only" not in verify(cli, tmp_path, text)
