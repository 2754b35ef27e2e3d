"""Where the benchmarks find the TripleA maps: the settings the tests read (tests/conftest.py), so that one
setting serves both."""

from __future__ import annotations

import os
from pathlib import Path


def test_maps() -> Path:
    """ADJUDICATOR_TEST_MAPS, else triplea/ in ADJUDICATOR_SHARED, else in ../shared beside the repository."""
    given = os.environ.get("ADJUDICATOR_TEST_MAPS")
    if given:
        return Path(given)
    return Path(os.environ.get("ADJUDICATOR_SHARED") or Path(__file__).resolve().parents[2] / "shared") / "triplea"
