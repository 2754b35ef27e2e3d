"""STAND-IN for the TripleA importer (adjudicator/triplea/, being written): a Scenario holding only the
names — territories, players, unit types — of the G40 Alt-Universe map, read with xml.etree.

The notation tests need the real map's names, not its rules. Once the importer exists, replace the body of
`g40_names_scenario` with the importer's call; nothing else in the tests depends on how it is built.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

from adjudicator.scenario import Player, Scenario, Territory, UnitType

ROOT = Path(__file__).resolve().parents[1]
G40_XML = ROOT.parent / "shared/triplea/g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"
DEMO_JSON = ROOT / "games/demo/scenario.json"


@cache
def g40_names_scenario() -> Scenario:
    root = ET.parse(G40_XML).getroot()
    return Scenario(
        name="G40 Alt-Universe (names only)",
        source=G40_XML.name,
        territories=[Territory(t.get("name"), water=t.get("water") == "true") for t in root.iter("territory")],
        players=[Player(p.get("name"), optional=p.get("optional") == "true") for p in root.iter("player")],
        unit_types=[UnitType(u.get("name")) for u in root.iter("unit")],
    )


@cache
def demo_scenario() -> Scenario:
    return Scenario.from_json(DEMO_JSON.read_text())
