"""The two scenarios the notation tests read names from: G40 Alt-Universe 2.0.8 (imported from the shared
TripleA maps, or ADJUDICATOR_TEST_MAPS) and the embedded demo."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from adjudicator.games import demo
from adjudicator.scenario import Scenario
from adjudicator.triplea import load_scenario

MAPS = Path(os.environ.get("ADJUDICATOR_TEST_MAPS") or Path(__file__).resolve().parents[2] / "shared" / "triplea")
G40_XML = MAPS / "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"


@cache
def g40_names_scenario() -> Scenario:
    return load_scenario(G40_XML)


@cache
def demo_scenario() -> Scenario:
    return demo.scenario()
