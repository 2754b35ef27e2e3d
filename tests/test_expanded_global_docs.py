"""docs/expanded-global.md, the players' page, says what the adjudicator does: each ```orders block reads without
errors, each ```orders-rejected block gives exactly the errors of the ```output block after it, and every verb of
the game's own is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.games.expanded_global import RULES, scenario_of
from adjudicator.notation import parse_submission
from adjudicator.triplea import load_scenario

G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
DOC = Path(__file__).resolve().parents[1] / "docs" / "expanded-global.md"


@pytest.fixture(scope="module")
def rules(maps_dir):
    return RULES(scenario_of(load_scenario(maps_dir / G40_2ND)))


def _blocks() -> list[tuple[str, str]]:
    return re.findall(r"^```([\w-]*)\n(.*?)^```$", DOC.read_text(), re.M | re.S)


def _read(rules, text: str):
    return parse_submission(text, rules.lexicon(), start_phase="surrenders", phases=rules.scenario.phases_of("Russia"),
                            verbs=rules.verbs(), power="Russia")


def test_every_orders_block_reads(rules):
    accepted = [text for info, text in _blocks() if info == "orders"]
    assert len(accepted) >= 8
    for text in accepted:
        result = _read(rules, text)
        assert result.errors == [] and result.submission.orders, "\n".join(e.render() for e in result.errors)


def test_every_rejected_block_gives_the_documented_errors(rules):
    blocks = _blocks()
    rejected = [(text, out) for (info, text), (after, out) in zip(blocks, blocks[1:]) if info == "orders-rejected"]
    assert rejected
    for text, output in rejected:
        assert "\n".join(e.render() for e in _read(rules, text).errors) == output.rstrip("\n")


def test_the_games_own_verbs_are_documented(rules):
    """Every word the game adds to the G40 verbs, or binds to a step of its own (`war`), is on the page."""
    from adjudicator.notation.verbs import VerbRegistry
    doc = DOC.read_text()
    g40 = VerbRegistry.g40()
    own = {w for w in rules.verbs().words() if g40.get(w) is None or g40.get(w).phase != rules.verbs().get(w).phase}
    assert {"ally", "accept", "war", "influence", "research", "armistice", "strike"} <= own
    missing = sorted(w for w in own if f"`{w} " not in doc and f"`{w}`" not in doc)
    assert missing == [], missing


def test_the_whole_turn_is_legal_for_russia_at_the_start(rules):
    from adjudicator.rules import turn
    from adjudicator.state import State
    [whole] = [text for info, text in _blocks() if info == "orders" and text.rstrip().endswith("end")]
    state = State.initial(rules.scenario)
    state.power, state.phase = "Russia", "surrenders"
    orders = _read(rules, whole).submission
    assert rules.check(state, turn.turn_orders(orders.orders), orders.ended) == []
