"""The two scenarios the notation tests read names from: G40 Alt-Universe 2.0.8 (imported from the shared
TripleA maps: ADJUDICATOR_SHARED or ADJUDICATOR_TEST_MAPS say where they are) and the embedded demo."""

from __future__ import annotations

from functools import cache

import pytest

from adjudicator.games import demo
from adjudicator.scenario import Scenario
from adjudicator.triplea import load_scenario
from conftest import G40AU_208, maps_folder, missing_shared

G40_XML = maps_folder() / G40AU_208


@cache
def g40_names_scenario() -> Scenario:
    if not G40_XML.is_file():
        pytest.fail(missing_shared("the G40 Alt-Universe test map", G40_XML))
    return load_scenario(G40_XML)


@cache
def demo_scenario() -> Scenario:
    return demo.scenario()
