"""TripleA game-XML import, checked against every map under shared/triplea.

The expected numbers were counted independently of the importer (a separate ElementTree script) and agree
with research/triplea_xml.md where it gives them. A new XML in the folder fails `test_every_xml_is_covered`
until its numbers are added here.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from adjudicator.errors import MapError
from adjudicator.scenario import G40_PHASES, PHASES, Scenario
from adjudicator.triplea import find_map, load_scenario

G40AU_208 = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"
G40AU_204 = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.4_beta-1.1.xml"
G40AU_2012 = "g40_alt_universe/map/games/G40_Alt_Universe.xml"
G40AU_NO_ESC = "g40_alt_universe/map/games/G40_Alt_Universe_No_Escalation.xml"
G40_2ND = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
EUROPE_ALPHA = "europe/map/games/europe_incomplete.xml"
EUROPE_BETA = "europe/map/games/europe_AAE.xml"
EUROPE_IMPROVED = "europe_improved/map/games/europe_improved.xml"
PACIFIC = "pacific/map/games/pacific.xml"

G40AU_PUS = {"Germans": 44, "Russians": 42, "Japanese": 30, "Americans": 58, "Chinese": 12, "British": 45,
             "Italians": 14, "ANZAC": 12, "French": 16}
G40AU_MAJORS = ["Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "Italians", "ANZAC", "French"]
EUROPE_PUS = {"Germans": 40, "Russians": 24, "British": 25, "Americans": 40}

# name, version, territories, sea zones, connections, unitPlacement elements, units placed, owned territories
# (Pacific and G40 2nd edition declare 3 and 1 owners twice),
# players, unit types, relationships, relationship types, hidden territories, canal attachments, canals,
# production rules, frontiers, supports, steps, properties (without notes), starting PUs.
EXPECTED = {
    G40AU_208: dict(name="G40 Alt Universe", version="2.0.8", territories=372, sea=127, connections=941,
                    placements=568, units=830, owners=245, players=13, unit_types=31, relationships=78,
                    relationship_types=10, hidden=9, canal_attachments=4, canals=2, production_rules=22,
                    frontiers=3, supports=4, steps=91, properties=87, resources=G40AU_PUS),
    G40AU_204: dict(name="G40 Alt Universe", version="2.0.4", territories=372, sea=127, connections=941,
                    placements=573, units=850, owners=245, players=13, unit_types=32, relationships=78,
                    relationship_types=10, hidden=9, canal_attachments=4, canals=2, production_rules=22,
                    frontiers=3, supports=6, steps=91, properties=87, resources=G40AU_PUS),
    G40AU_2012: dict(name="G40 Alt Universe", version="2.0.12", territories=372, sea=127, connections=941,
                     placements=571, units=822, owners=245, players=13, unit_types=33, relationships=78,
                     relationship_types=10, hidden=9, canal_attachments=4, canals=2, production_rules=22,
                     frontiers=3, supports=4, steps=91, properties=89, resources={**G40AU_PUS, "French": 6}),
    G40AU_NO_ESC: dict(name="G40 Alt Universe No Escalation", version="2.0.9", territories=372, sea=127,
                       connections=941, placements=567, units=815, owners=245, players=13, unit_types=33,
                       relationships=78, relationship_types=10, hidden=9, canal_attachments=4, canals=2,
                       production_rules=22, frontiers=3, supports=4, steps=91, properties=89,
                       resources={**G40AU_PUS, "French": 6}),
    G40_2ND: dict(name="World War II Global 1940 2nd Edition", version="4.0", territories=332, sea=128,
                  connections=830, placements=361, units=589, owners=209, players=15, unit_types=19,
                  relationships=105, relationship_types=10, hidden=1, canal_attachments=10, canals=5,
                  production_rules=25, frontiers=4, supports=4, steps=111, properties=122,
                  resources={"Germans": 30, "Russians": 37, "Japanese": 26, "British": 28, "UK_Pacific": 17,
                             "ANZAC": 10, "Italians": 10, "Americans": 52, "Chinese": 12, "French": 19}),
    EUROPE_ALPHA: dict(name="Europe - Alpha", version="1.4", territories=96, sea=35, connections=242,
                       placements=133, units=206, owners=61, players=4, unit_types=12, relationships=6,
                       relationship_types=2, hidden=0, canal_attachments=2, canals=1, production_rules=12,
                       frontiers=1, supports=1, steps=34, properties=26, resources=EUROPE_PUS),
    EUROPE_BETA: dict(name="Europe - Beta", version="1.0", territories=96, sea=35, connections=242,
                      placements=133, units=206, owners=61, players=4, unit_types=12, relationships=6,
                      relationship_types=2, hidden=0, canal_attachments=2, canals=1, production_rules=12,
                      frontiers=1, supports=1, steps=34, properties=33, resources=EUROPE_PUS),
    EUROPE_IMPROVED: dict(name="Europe Improved", version="1.8", territories=96, sea=35, connections=242,
                          placements=133, units=206, owners=61, players=5, unit_types=12, relationships=10,
                          relationship_types=2, hidden=0, canal_attachments=2, canals=1, production_rules=12,
                          frontiers=1, supports=1, steps=37, properties=46, resources=EUROPE_PUS),
    PACIFIC: dict(name="Pacific", version="1.1", territories=116, sea=54, connections=244, placements=170,
                  units=247, owners=80, players=6, unit_types=15, relationships=15, relationship_types=2,
                  hidden=0, canal_attachments=0, canals=0, production_rules=25, frontiers=3, supports=1,
                  steps=39, properties=50,
                  resources={"Japanese": 19, "British": 22, "Australians": 25, "Commonwealth": 0, "Chinese": 0,
                             "Americans": 75}),
}


@functools.cache
def _load(path: Path) -> Scenario:
    return load_scenario(path)


@pytest.fixture
def g40au(maps_dir: Path) -> Scenario:
    return _load(maps_dir / G40AU_208)


def _counts(s: Scenario) -> dict:
    return dict(
        name=s.name, version=s.version, territories=len(s.territories), sea=sum(t.water for t in s.territories),
        connections=len(s.connections), placements=len(s.placements), units=sum(p.quantity for p in s.placements),
        owners=len(s.owners), players=len(s.players), unit_types=len(s.unit_types),
        relationships=len(s.relationships), relationship_types=len(s.relationship_types),
        hidden=sum(t.hidden for t in s.territories), canal_attachments=sum(len(c.sea_zones) for c in s.canals),
        canals=len(s.canals), production_rules=len(s.production_rules), frontiers=len(s.frontiers),
        supports=len(s.supports), steps=len(s.sequence), properties=len(s.properties), resources=s.resources,
    )


# -- every XML --------------------------------------------------------------------------------------------


def test_every_xml_is_covered(maps_dir: Path):
    found = {p.relative_to(maps_dir).as_posix() for p in maps_dir.glob("*/map/games/*.xml")}
    assert found == set(EXPECTED)


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_counts(maps_dir: Path, relative: str):
    scenario = _load(maps_dir / relative)
    assert _counts(scenario) == EXPECTED[relative]
    assert scenario.source == Path(relative).name


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_scenario_is_consistent(maps_dir: Path, relative: str):
    scenario = _load(maps_dir / relative)
    names = {t.name for t in scenario.territories}
    assert all(a in names and b in names for a, b in scenario.connections)
    assert {s.phase for s in scenario.sequence} <= set(PHASES) | {""}
    pairs = {frozenset((a, b)) for a, b, _ in scenario.relationships}
    players = [p.name for p in scenario.players]
    assert len(pairs) == len(players) * (len(players) - 1) // 2
    assert {t for _, _, t in scenario.relationships} <= {r.name for r in scenario.relationship_types}
    guests = {p for host in scenario.turn_players() for p, phase in scenario.guests_of(host) if phase == "purchase"}
    for player in scenario.turn_players():
        # a power buys at the start of its turn, or inside another's (UK_Pacific in the British turn)
        assert (scenario.phases_of(player)[0] == "purchase") != (player in guests)
        assert scenario.phases_of(player)[-1] == "end_turn"


@pytest.mark.parametrize("relative", [G40AU_208, EUROPE_IMPROVED])
def test_json_round_trip(maps_dir: Path, relative: str):
    scenario = _load(maps_dir / relative)
    again = Scenario.from_json(scenario.to_json())
    assert again == scenario
    assert again.to_json() == scenario.to_json()


# -- G40 Alt-Universe 2.0.8 spot values (research/triplea_xml.md §2-§4) ---------------------------------------


def test_g40au_units(g40au: Scenario):
    infantry = g40au.unit_type("infantry")
    assert (infantry.attack, infantry.defense, infantry.movement, infantry.cost) == (1, 2, 1, 3)
    assert infantry.has("infantry") and infantry.transport_cost == 2 and infantry.domain == "land"
    assert g40au.unit_type("armour").has("can_blitz")
    assert g40au.unit_type("submarine").has("sub") and g40au.unit_type("submarine").domain == "sea"
    assert g40au.unit_type("destroyer").has("destroyer")
    assert g40au.unit_type("tactical_bomber").has("strategic_bomber")
    bomber = g40au.unit_type("bomber")
    assert (bomber.domain, bomber.attack, bomber.defense, bomber.movement, bomber.cost) == ("air", 4, 0, 6, 12)
    carrier = g40au.unit_type("carrier")
    assert (carrier.hit_points, carrier.carrier_capacity, carrier.cost) == (2, 2, 16)
    assert carrier.options["whenCombatDamaged"] == ["1:2:unitsMayNotLandOnCarrier",
                                                    "1:2:unitsMayNotLeaveAlliedCarrier"]
    assert g40au.unit_type("fighter").carrier_cost == 1
    assert g40au.unit_type("transport").transport_capacity == 5
    assert g40au.unit_type("aaGun").flags == ["aa", "no_combat_move"]
    assert g40au.unit_type("factory_major").flags == ["infrastructure", "factory", "aa_bombing", "can_be_damaged"]
    assert g40au.unit_type("harbour").has("naval_base") and g40au.unit_type("airfield").has("air_base")
    assert g40au.unit_type("fake_unit").cost is None


def test_g40au_markers(g40au: Scenario):
    markers = {u.name for u in g40au.unit_types if u.has("marker")}
    assert markers == {"city", "city_captured", "minor_ic_captured", "major_ic_captured", "independent_neutral_free",
                       "independent_neutral_captured", "french_escalation_tracker"}
    assert all(g40au.unit_type(m).has("infrastructure") for m in markers)


def test_g40au_supports(g40au: Scenario):
    supports = {s.name: s for s in g40au.supports}
    artillery = supports["supportAttachmentInfantryAndMechInf"]
    assert artillery.provider == "artillery"
    assert artillery.targets == ["infantry", "mech_infantry"]
    assert (artillery.bonus, artillery.number, artillery.offence, artillery.defence) == (1, 1, True, False)
    assert (artillery.bonus_type, artillery.faction, artillery.dice) == ("infantry_bonus", "allied", "strength")
    assert len(artillery.players) == 13
    assert supports["supportAttachmentInfantryC"].players == ["Chinese"]
    assert {s.provider for s in g40au.supports} == {"artillery", "artilleryC", "fighter", "armour"}


def test_g40au_territories(g40au: Scenario):
    uk21 = g40au.territory("UK21")
    assert g40au.owners["UK21"] == "Italians" and uk21.original_owner == "British"
    g5 = g40au.territory("G5")
    assert (g5.production, g5.victory_city, g5.original_owner, g5.water) == (4, 1, "Germans", False)
    assert g40au.territory("40 Sea Zone").water and g40au.territory("40 Sea Zone").original_owner is None
    hidden = {t.name for t in g40au.territories if t.hidden}
    assert hidden == {"GCap", "RCap", "JCap", "USCap", "CCap", "UKCap", "ICap", "ACap", "FCap"}
    assert g40au.territory("GCap").capital == "Germans"
    assert sum(t.convoy_zone for t in g40au.territories) == 51
    assert sum(t.victory_city for t in g40au.territories) == 23
    assert g40au.territory("PA1").options["captureUnitOnEnteringBy"] == ["British:Russians:Americans:French:ANZAC"]
    assert g40au.neighbours("GCap") == set()


def test_g40au_players_and_politics(g40au: Scenario):
    assert g40au.turn_players() == G40AU_MAJORS
    assert g40au.phases_of("Germans") == list(G40_PHASES)
    assert g40au.phases_of("Chinese") == list(G40_PHASES)      # no airborne step, but that one is not played
    assert [p.name for p in g40au.players if p.optional] == ["Independent_Neutral", "Pro_Axis", "Pro_Allies",
                                                             "Neutral_League"]
    assert g40au.player("Germans").alliances == ["Axis"]
    archetypes = {r.name: r.archetype for r in g40au.relationship_types}
    assert archetypes == {"Allied": "allied", "War": "war", "Unprovoked": "war", "Neutrality": "neutral",
                          "Concordant": "neutral", "Custodianship": "allied", "Friendly": "allied",
                          "Strict_Neutral": "neutral", "Friendly_Neutral": "allied", "Unfriendly_Neutral": "war"}
    assert g40au.relationship_type("Concordant").options["canMoveThroughCanals"] == "true"
    wars = {frozenset((a, b)) for a, b, t in g40au.relationships if t == "War"}
    assert wars == {frozenset(("British", "Italians")), frozenset(("Italians", "ANZAC"))}


def test_g40au_sequence(g40au: Scenario):
    steps = {s.name: s for s in g40au.sequence}
    assert (steps["germansNonCombatMove"].phase, steps["germansCombatMove"].phase) == ("noncombat_move",
                                                                                      "combat_move")
    assert steps["germansAirborneCombatMove"].phase == ""
    assert steps["germanBid"].phase == "" and steps["gameInitDelegate"].player is None
    assert steps["germansPurchase"].delegate == "purchase"
    assert steps["germansPurchase"].display == "Purchase Units"
    assert steps["germansNonCombatMove"].display == "Non Combat Move"


def test_g40au_production_and_options(g40au: Scenario):
    assert g40au.resources == G40AU_PUS
    assert len(g40au.frontiers["production"]) == 19
    assert g40au.player_production["Chinese"] == "productionChinese_Allied_Access_Open"
    assert [r.name for r in g40au.frontier_of("Chinese")] == ["buyInfantryC", "buyArtilleryC", "buyAAGunC"]
    assert next(r for r in g40au.production_rules if r.name == "buyArmour").results == {"armour": 1}
    assert [(c.name, c.sea_zones, c.land_territories) for c in g40au.canals] == [
        ("AngloFrench Strait", ["40 Sea Zone", "23 Sea Zone"], ["UK5", "F3"]),
        ("GermanItalian Strait", ["72 Sea Zone", "60 Sea Zone"], ["G19", "I1"]),
    ]
    assert g40au.properties["Use Politics"] == "true"
    assert g40au.properties["mapName"] == "g40_alt_universe"
    assert "notes" not in g40au.properties and "Unenforced Rules" in g40au.notes
    assert g40au.dice_sides == 6
    assert g40au.placements[0].quantity >= 1


# -- other maps -----------------------------------------------------------------------------------------------


def test_maps_without_relationships_get_alliance_based_ones(maps_dir: Path):
    europe = _load(maps_dir / EUROPE_IMPROVED)
    assert [(r.name, r.archetype) for r in europe.relationship_types] == [("Allied", "allied"), ("War", "war")]
    kinds = {frozenset((a, b)): t for a, b, t in europe.relationships}
    assert kinds[frozenset(("Germans", "Russians"))] == "War"
    assert kinds[frozenset(("British", "Americans"))] == "Allied"
    assert kinds[frozenset(("Russians", "Middle_East"))] == "Allied"


def test_old_style_artillery_becomes_a_support(maps_dir: Path):
    europe = _load(maps_dir / EUROPE_IMPROVED)
    (support,) = europe.supports
    assert (support.provider, support.targets, support.bonus, support.number) == ("artillery", ["infantry"], 1, 1)
    assert europe.unit_type("artillery").has("artillery")
    pacific = _load(maps_dir / PACIFIC)
    assert pacific.supports[0].targets == ["infantry", "marine"]


def test_classic_maps_flags(maps_dir: Path):
    europe = _load(maps_dir / EUROPE_IMPROVED)
    assert europe.unit_type("submarine").has("sub")          # written as isFirstStrike + canEvade
    assert europe.unit_type("aaGun").flags == ["infrastructure", "aa", "aa_bombing", "no_combat_move"]   # isAA
    assert europe.unit_type("factory").flags == ["infrastructure", "factory", "can_be_damaged"]
    assert europe.phases_of("Germans") == ["purchase", "combat_move", "battle", "noncombat_move", "place",
                                           "end_turn"]
    pacific = _load(maps_dir / PACIFIC)
    assert not pacific.unit_type("airfield").has("marker")   # a real, placed base
    assert pacific.phases_of("Chinese")[0] == "purchase"      # NoPUPurchaseDelegate
    assert pacific.turn_players() == ["Japanese", "British", "Australians", "Chinese", "Americans"]
    assert pacific.owners["Johnston"] == "Americans"          # declared twice: the later one wins, as in TripleA


def test_costs_prefer_starting_frontiers(maps_dir: Path):
    g40 = _load(maps_dir / G40_2ND)
    assert g40.unit_type("carrier").cost == 16                # not buyCarrierShipyards (13)
    assert _load(maps_dir / PACIFIC).unit_type("infantry").cost == 3   # not the industrial-technology rule (2)
    assert g40.territory("Pripet Marshes").hidden


# -- errors ---------------------------------------------------------------------------------------------------


def _raises_naming(path: Path) -> str:
    with pytest.raises(MapError) as caught:
        load_scenario(path)
    assert path.name in caught.value.message
    return caught.value.message


def test_error_missing_file(tmp_path: Path):
    assert "no such file" in _raises_naming(tmp_path / "nowhere.xml")


def test_error_directory(tmp_path: Path):
    assert "folder" in _raises_naming(tmp_path)


def test_error_not_xml(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_text("just some text\n")
    assert "not an XML file" in _raises_naming(path)


def test_error_malformed_xml(maps_dir: Path, tmp_path: Path):
    text = (maps_dir / EUROPE_IMPROVED).read_bytes()
    path = tmp_path / "cut.xml"
    path.write_bytes(text[: len(text) // 2])
    message = _raises_naming(path)
    assert "malformed XML at line" in message and "column" in message


def test_error_other_root(tmp_path: Path):
    path = tmp_path / "other.xml"
    path.write_text('<?xml version="1.0"?>\n<project><name>x</name></project>\n')
    assert "<project>" in _raises_naming(path)


def test_error_no_map(tmp_path: Path):
    path = tmp_path / "empty_game.xml"
    path.write_text('<?xml version="1.0"?>\n<game><info name="x" version="1"/></game>\n')
    assert "<map>" in _raises_naming(path)


@pytest.mark.parametrize("old, new, unknown", [
    ("<connection ", '<connection t1="Atlantis" t2="Germany"/>\n<connection ', "territory 'Atlantis'"),
    ('<unitPlacement unitType="infantry"', '<unitPlacement unitType="dragon"', "unit type 'dragon'"),
    ('owner="Germans"/>', 'owner="Martians"/>', "player 'Martians'"),
])
def test_error_unknown_reference(maps_dir: Path, tmp_path: Path, old: str, new: str, unknown: str):
    text = (maps_dir / EUROPE_IMPROVED).read_text(encoding="utf-8-sig")
    assert old in text
    path = tmp_path / "broken.xml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert unknown in _raises_naming(path)


# -- find_map -------------------------------------------------------------------------------------------------


def test_find_map_by_folder_name(maps_dir: Path):
    assert find_map("europe_improved", [maps_dir]) == maps_dir / EUROPE_IMPROVED
    assert find_map("World-War-II-Global", [maps_dir]) == maps_dir / G40_2ND


def test_find_map_by_file_stem(maps_dir: Path):
    assert find_map("G40_Alt_Universe_v2.0.8_beta-1.3", [maps_dir]) == maps_dir / G40AU_208


def test_find_map_by_info_name(maps_dir: Path):
    assert find_map("Europe Improved", [maps_dir]) == maps_dir / EUROPE_IMPROVED
    assert find_map("europe - alpha", [maps_dir]) == maps_dir / EUROPE_ALPHA


def test_find_map_existing_file(maps_dir: Path):
    assert find_map(str(maps_dir / PACIFIC), []) == maps_dir / PACIFIC


def test_find_map_ambiguous_folder(maps_dir: Path):
    with pytest.raises(MapError) as caught:
        find_map("g40_alt_universe", [maps_dir])
    message = caught.value.message
    assert "ambiguous" in message
    for relative in (G40AU_208, G40AU_204, G40AU_2012, G40AU_NO_ESC):
        assert Path(relative).name in message


def test_find_map_not_found_suggests(maps_dir: Path, tmp_path: Path):
    with pytest.raises(MapError) as caught:
        find_map("europ_improvd", [maps_dir, tmp_path / "missing"])
    message = caught.value.message
    assert "did you mean" in message and "europe_improved" in message
    assert str(maps_dir) in message and "missing" in message
