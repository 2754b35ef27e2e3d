"""Names: the game's own names, the normative aliases, sea-zone and letter-digit forms, plurals, powers."""

import pytest
from g40_names import demo_scenario, g40_names_scenario

from adjudicator.notation import Lexicon, parse_submission
from adjudicator.notation.lexicon import PLACE, POWER, UNIT, UNIT_ALIASES

G40 = Lexicon.from_scenario(g40_names_scenario())
DEMO = Lexicon.from_scenario(demo_scenario())


def one(lex: Lexicon, text: str, **kw):
    result = parse_submission(text, lex, **kw)
    assert result.errors == [], [e.render() for e in result.errors]
    (order,) = result.submission.orders
    return order


@pytest.mark.parametrize("alias, unit", sorted(UNIT_ALIASES.items()))
def test_every_normative_unit_alias_on_g40(alias, unit):
    assert one(G40, f"buy 2 {alias}").units[0].unit == unit
    assert one(G40, f"buy 2 {alias}s").units[0].unit == unit
    assert one(G40, f"buy 2 {alias.upper()}").units[0].unit == unit


def test_aliases_only_for_unit_types_the_game_has():
    assert DEMO.resolve(UNIT, "bb") == []                # the demo has no battleship
    assert DEMO.resolve(UNIT, "inf") == ["infantry"]
    assert G40.resolve(UNIT, "bb") == ["battleship"]


@pytest.mark.parametrize("name", [u.name for u in g40_names_scenario().unit_types if not u.has("marker")])
def test_every_g40_unit_name_plain_plural_and_upper(name):
    assert G40.resolve(UNIT, name) == [name]
    assert G40.resolve(UNIT, name + "s") == [name]
    assert G40.resolve(UNIT, name.upper()) == [name]


@pytest.mark.parametrize("name", ["city", "city_captured", "french_escalation_tracker", "independent_neutral_free"])
def test_bookkeeping_markers_cannot_be_named_in_orders(name):
    assert G40.resolve(UNIT, name) == []


@pytest.mark.parametrize("text, unit", [
    ("mech_infantry", "mech_infantry"), ("Mech Infantry", "mech_infantry"), ("MECH  INFANTRY", "mech_infantry"),
    ("mech infantrys", "mech_infantry"), ("mech infantries", "mech_infantry"), ("infantries", "infantry"),
    ("tactical bomber", "tactical_bomber"), ("Tactical_Bombers", "tactical_bomber"),
    ("aaGun", "aaGun"), ("aa gun", "aaGun"), ("AA Guns", "aaGun"), ("aagun", "aaGun"),
    ("tanks", "armour"), ("infs", "infantry"), ("infantryC", "infantryC"), ("factory minor", "factory_minor"),
])
def test_unit_spellings(text, unit):
    assert G40.resolve(UNIT, text) == [unit]


def test_multi_word_unit_names_in_orders():
    order = one(G40, "cm 2 mech infantry, 1 tactical bomber, 1 aa gun G5 > G6")
    assert [u.unit for u in order.units] == ["mech_infantry", "tactical_bomber", "aaGun"]


@pytest.mark.parametrize("text", ["sz76", "SZ76", "sz 76", "SZ 76", "Sz  76", "76 Sea Zone", "76 sea zone",
                                  "Sea Zone 76", "sea zone 76", "76_Sea_Zone"])
def test_sea_zone_forms(text):
    assert G40.resolve(PLACE, text) == ["76 Sea Zone"]
    assert one(G40, f"ncm 1 trn {text} > {text.replace('76', '77')}").path == ("76 Sea Zone", "77 Sea Zone")


@pytest.mark.parametrize("text, place", [
    ("G5", "G5"), ("g5", "G5"), ("UK12", "UK12"), ("uk 12", "UK12"), ("UK 19", "UK19"), ("US 1", "US1"),
    ("in 10", "IN10"), ("PA 3", "PA3"), ("nl13", "NL13"),
])
def test_g40_places_case_and_letters_space_digits(text, place):
    assert G40.resolve(PLACE, text) == [place]


@pytest.mark.parametrize("text, place", [
    ("East Prussia", "East Prussia"), ("east prussia", "East Prussia"), ("EAST   PRUSSIA", "East Prussia"),
    ("Baltic States", "Baltic States"), ("baltic_states", "Baltic States"), ("sz 2", "2 Sea Zone"),
])
def test_demo_multi_word_places(text, place):
    assert DEMO.resolve(PLACE, text) == [place]


def test_multi_word_places_in_orders():
    order = one(DEMO, "cm 2 inf, 1 arm East Prussia > Baltic States > Leningrad")
    assert order.path == ("East Prussia", "Baltic States", "Leningrad")
    assert one(DEMO, "place 2 mech infantry East Prussia").place == "East Prussia"


@pytest.mark.parametrize("text, power", [
    ("Germans", "Germans"), ("Germany", "Germans"), ("German", "Germans"), ("GER", "Germans"),
    ("Russians", "Russians"), ("Russia", "Russians"), ("Soviet Union", "Russians"), ("USSR", "Russians"),
    ("Soviets", "Russians"), ("RUS", "Russians"),
    ("Japanese", "Japanese"), ("Japan", "Japanese"), ("JAP", "Japanese"), ("JPN", "Japanese"),
    ("Americans", "Americans"), ("USA", "Americans"), ("US", "Americans"), ("America", "Americans"),
    ("United States", "Americans"),
    ("Chinese", "Chinese"), ("China", "Chinese"), ("CHN", "Chinese"),
    ("British", "British"), ("UK", "British"), ("United Kingdom", "British"), ("Britain", "British"),
    ("GB", "British"),
    ("Italians", "Italians"), ("Italy", "Italians"), ("ITA", "Italians"),
    ("ANZAC", "ANZAC"), ("ANZ", "ANZAC"), ("Australia", "ANZAC"),
    ("French", "French"), ("France", "French"), ("FRA", "French"),
    ("pro axis", "Pro_Axis"), ("Independent_Neutral", "Independent_Neutral"),
])
def test_power_names_and_aliases(text, power):
    assert G40.resolve(POWER, text) == [power]
    assert one(G40, f"war {text}", start_phase="politics").power == power


def test_power_aliases_only_for_powers_in_the_game():
    assert DEMO.resolve(POWER, "USA") == []
    assert DEMO.resolve(POWER, "Italy") == ["Italians"]


def test_italy_is_a_place_after_place_and_a_power_after_war():
    assert one(DEMO, "place 2 inf Italy").place == "Italy"
    assert one(DEMO, "war Italy").power == "Italians"
    assert one(DEMO, "cm 1 arm Italy > Balkans").path == ("Italy", "Balkans")


def test_power_prefix_unique_or_ambiguous():
    assert G40.resolve(POWER, "Ital") == ["Italians"]
    assert sorted(G40.resolve(POWER, "Uni")) == ["Americans", "British"]
    assert G40.resolve(POWER, "Ge") == []                  # too short to be a prefix


def test_game_aliases():
    lex = Lexicon.from_scenario(demo_scenario())
    lex.add_unit_alias("grunt", "infantry")
    lex.add_place_alias("EP", "East Prussia")
    lex.add_power_alias("Reds", "Russians")
    order = one(lex, "cm 2 grunts EP > Baltic States")
    assert (order.units[0].unit, order.path[0]) == ("infantry", "East Prussia")
    assert one(lex, "war reds").power == "Russians"
    with pytest.raises(ValueError):
        lex.add_unit_alias("bb", "battleship")


def test_an_alias_shared_by_two_targets_is_ambiguous_but_a_name_wins_over_an_alias():
    lex = Lexicon.from_scenario(demo_scenario())
    lex.add_place_alias("front", "Poland")
    lex.add_place_alias("front", "Ukraine")
    assert lex.resolve(PLACE, "front") == ["Poland", "Ukraine"]
    lex.add_place_alias("moscow", "Leningrad")
    assert lex.resolve(PLACE, "Moscow") == ["Moscow"]


def test_hidden_places_and_marker_units_are_not_names():
    scenario = demo_scenario()
    lex = Lexicon.from_scenario(type(scenario).from_dict({
        **scenario.to_dict(),
        "territories": [{"name": "Germany"}, {"name": "GCap", "hidden": True}],
        "unit_types": [{"name": "infantry"}, {"name": "city", "flags": ["marker"]}],
    }))
    assert lex.resolve(PLACE, "GCap") == []
    assert lex.resolve(UNIT, "city") == []
    assert lex.resolve(UNIT, "inf") == ["infantry"]


def test_suggestions_cover_names_and_aliases():
    assert G40.suggest(PLACE, "Gg5")[0] == "G5"
    assert "armour" in G40.suggest(UNIT, "tnak")
    assert G40.suggest(POWER, "Germny") == ["Germans"]
