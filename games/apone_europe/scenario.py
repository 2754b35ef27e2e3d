"""The Apone start position: the europe_improved map's, with the bases of AP-02 and AP-03 added as pieces on the
board (RULINGS.md "bases"), so that `status` lists them with the territory's units and they change hands with it.

Their effects are A&A Pacific's, played by the game's rules (bases.py), not by G40's `givesMovement`: the pieces
carry no TripleA options.

Every power's purchase list also gets the paratroopers (AP-25) and commandos (AP-29) of units.py.
"""

from __future__ import annotations

import copy

from adjudicator.scenario import Placement, Scenario, UnitType

from . import cap, units

AIR_BASE = "air_base"
NAVAL_BASE = "naval_base"

AIR_BASES = ("Crete", "Cyprus", "France", "Iceland", "Malta", "Sicily")                            # AP-02
NAVAL_BASES = ("Archangel", "France", "Germany", "Gibraltar", "Iceland", "Norway", "United States")  # AP-03
EGYPT = "Egypt"     # AP-04: its industrial complex, and the territory with it, are British (AP-07)


def _base(name: str, flag: str) -> UnitType:
    """A base: a piece that never moves or fights, cannot be a casualty, and is captured with its territory."""
    return UnitType(name=name, domain="land", flags=["infrastructure", flag])


def apone(europe: Scenario) -> Scenario:
    """The europe_improved Scenario (left unchanged) made into Apone's."""
    s = copy.deepcopy(europe)
    for cache in [k for k in s.__dict__ if k.startswith("_")]:
        del s.__dict__[cache]
    s.name = "Sgt. Apone's Europe"
    s.version = f"v1.2 on {europe.name} {europe.version}"
    s.notes = "Sgt. Apone's Alternate Rules v1.2 for A&A Europe (1999): games/apone_europe/RULINGS.md."
    s.unit_types += [_base(AIR_BASE, "air_base"), _base(NAVAL_BASE, "naval_base")]
    s.placements += [Placement(t, europe.owners[t], AIR_BASE) for t in AIR_BASES]
    s.placements += [Placement(t, europe.owners[t], NAVAL_BASE) for t in NAVAL_BASES]
    s.unit_types += units.unit_types()                                  # AP-25, AP-29
    s.production_rules += units.production_rules()
    for frontier in s.frontiers.values():
        frontier += [r.name for r in units.production_rules()]
    s.owners[EGYPT] = "British"                                 # AP-07, RULINGS.md "egypt-ic"
    s.placements.append(Placement(EGYPT, "British", "factory"))  # AP-04
    s.sequence = cap.with_landing_phase(s.sequence)     # AAP's Phase 2, landing the Combat Air Patrols (AP-06)
    return s
