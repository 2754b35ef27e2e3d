"""docs/apone-europe.md, the players' page, says what the adjudicator does: each ```orders block reads without
errors, and every order of the game's own is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.games.apone_europe import MAP, RULES, scenario_of
from adjudicator.notation import parse_submission
from adjudicator.triplea import load_scenario

DOC = Path(__file__).resolve().parents[1] / "docs" / "apone-europe.md"


@pytest.fixture(scope="module")
def rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / MAP / "map" / "games" / f"{MAP}.xml")), "")


def _blocks() -> list[tuple[str, str]]:
    return re.findall(r"^```([\w-]*)\n(.*?)^```$", DOC.read_text(), re.M | re.S)


def test_every_orders_block_reads(rules):
    accepted = [text for info, text in _blocks() if info == "orders"]
    assert len(accepted) >= 8
    for text in accepted:
        for power in rules.scenario.turn_players():
            result = parse_submission(text, rules.lexicon(), start_phase=rules.scenario.phases_of(power)[0],
                                      phases=rules.scenario.phases_of(power), verbs=rules.verbs(), power=power)
            if not result.errors:
                break
        assert result.errors == [] and result.submission.orders, "\n".join(e.render() for e in result.errors)


def test_the_games_own_orders_are_documented(rules):
    doc = DOC.read_text()
    for word in ("drop", "commando", "setaside", "egypt", "cap", "land", "submerge"):
        assert rules.verbs().get(word) is not None, word
        assert f"`{word} " in doc or f"`{word}`" in doc, word
