"""The property check (DESIGN.md "Rules core"): every TripleA property, unit option, step and attachment of the
nine game XMLs is in each family's column of adjudicator/families.py; `new --game g40` plays the G40 maps as before
and refuses the Europe and Pacific maps, naming each property that stops them and the game that plays them, writing
nothing; `new --game classic` plays those and refuses the G40 maps; `maps` shows each map's family and what it does
not honour."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.families import ANY, COSMETIC, FAMILIES, FIXED, HONOURED_STATE, TRIPLEA_DEFAULTS, check, families_for
from adjudicator.rules.properties import HONOURED
from adjudicator.triplea.importer import read_settings
from adjudicator.triplea.units import READ_OPTIONS
from conftest import TEST_SEED

pytestmark = pytest.mark.slow

G40 = FAMILIES["g40"]
CLASSIC = FAMILIES["classic"]
G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
AU = "g40_alt_universe/map/games/"
G40_MAPS = {                       # XML -> the --game (and --rules) that plays it
    G40_2E: ("g40",),
    AU + "G40_Alt_Universe.xml": ("g40",),
    AU + "G40_Alt_Universe_No_Escalation.xml": ("g40",),
    AU + "G40_Alt_Universe_v2.0.4_beta-1.1.xml": ("g40-alt-universe", "--rules", "beta-1.1"),
    AU + "G40_Alt_Universe_v2.0.8_beta-1.3.xml": ("g40-alt-universe", "--rules", "beta-1.3"),
}
# XML -> the properties (and unit options) that stop the G40 family, each with words of what it does instead.
REFUSED = {
    "europe_improved/map/games/europe_improved.xml": {
        "Units Repair Hits End Turn = true": "at the start of their owner's turn",
        "Submarines Defending May Submerge Or Retreat = true": "never retreat",
        "Neutrals Are Impassable = true": "lets armies attack and take neutral territories",
        "Naval Units May Not NonCombat Move Into Controlled Sea Zones = true": "no enemy warship blocks them",
        "unit option bombard = destroyer 2": "at their attack value",
        "unit option canNotTarget = submarine fighter:bomber": "submarines never hit aircraft",
        "unit option canNotBeTargetedBy = submarine fighter:bomber": "only with a friendly destroyer",
    },
    "europe/map/games/europe_AAE.xml": {
        "Units Repair Hits End Turn = true": "at a naval base",
        "WW2V2 = true": "not the Revised (WW2V2) rules",
        "Move existing fighters to new carriers = true": "none move at placement",
        "neutralCharge = 9999999": "charges nothing to enter a neutral",
        "Neutrals Are Impassable = true": "aircraft may not fly over them",
        "Naval Units May Not NonCombat Move Into Controlled Sea Zones = true": "BG-07",
        "Honorable Surrender = true": "victory triggers",
    },
    "europe/map/games/europe_incomplete.xml": {
        "Units Repair Hits End Turn = true": "BG-21",
        "WW2V2 = true": "2nd-edition",
        "Move existing fighters to new carriers = true": "Land existing fighters on new carriers",
        "neutralCharge = 9999999": "BG-41",
        "Neutrals Are Impassable = true": "BG-41",
        "Naval Units May Not NonCombat Move Into Controlled Sea Zones = true": "BG-07",
        "unit option bombard = destroyer 2": "BG-12",
    },
    "pacific/map/games/pacific.xml": {
        "Honorable Surrender = true": "victory triggers",
        "Economic Victory = true": "no economic victory",
        "WW2V2 = true": "2nd-edition",
        "Pacific Theater = true": "no Pacific-1999 rules",
        "Move existing fighters to new carriers = true": "none move at placement",
        "Units Repair Hits End Turn = true": "BG-21",
        "neutralCharge = 9999999": "BG-41",
        "Production Per Valued Territory Restricted = true": "not the territory's value",
        "Neutrals Are Impassable = true": "BG-41",
        "unit option isMarine = marine true": "no bonus in an amphibious assault",
    },
}


def all_xmls(maps_dir: Path) -> list[Path]:
    found = sorted(maps_dir.glob("*/map/games/*.xml"))
    assert len(found) == 9, found
    return found


@pytest.mark.parametrize("family", [G40, CLASSIC], ids=lambda f: f.name)
def test_every_property_unit_option_step_and_attachment_of_the_nine_maps_is_in_each_column(maps_dir, family):
    """No unknown names: each is honoured, fixed or cosmetic for each family (patterns: "<player> bid")."""
    seen = 0
    for xml in all_xmls(maps_dir):
        settings = read_settings(xml)
        unknown = [f.text() for f in check(settings, family) if f.kind.startswith("unknown")]
        assert unknown == [], (xml.name, unknown)
        for name in settings.properties:
            name = name.strip()
            owners = [o for o in settings.players + settings.alliances if name.startswith(o + " ")]
            keys = [name] + ["* " + name[len(o) + 1:] for o in owners]
            assert any(k in family.properties for k in keys), (xml.name, name)
            seen += 1
        for option in settings.unit_options:
            assert option in family.unit_options, (xml.name, option)
        for delegate in settings.steps:
            assert delegate in family.steps, (xml.name, delegate)
        for attachment in settings.attachments:
            assert attachment in family.attachments, (xml.name, attachment)
    assert seen > 500


def test_the_table_is_consistent_with_the_engine_and_triplea():
    """A family honours only what the rules read (rules/properties.py, with TripleA's defaults) and judges every
    name they read (the G40 family fixes some the classic family honours); every fixed or cosmetic entry says
    what the family does, and every name has a TripleA default or a pattern."""
    for family in FAMILIES.values():
        for name, (default, _) in HONOURED.items():
            assert family.properties[name].state in (HONOURED_STATE, FIXED), (family.name, name)
            assert TRIPLEA_DEFAULTS[name] == str(default).lower()
        honoured = {n for n, rule in family.properties.items() if rule.state == HONOURED_STATE}
        assert honoured - set(HONOURED) <= {"* Honorable Victory VCs", "* Economic Victory"}, family.name
        for table in (family.properties, family.unit_options, family.steps, family.attachments):
            for name, rule in table.items():
                assert rule.state in (HONOURED_STATE, FIXED, COSMETIC), name
                assert rule.state == HONOURED_STATE or rule.note, name
        assert all(family.unit_options[name].state == HONOURED_STATE for name in READ_OPTIONS)
        assert set(family.properties) <= set(TRIPLEA_DEFAULTS) | set(HONOURED), \
            set(family.properties) - set(TRIPLEA_DEFAULTS)


def test_the_g40_2nd_edition_map_sets_nothing_the_family_refuses_and_only_dropped_steps_are_warned(maps_dir):
    """The family is the 2nd-edition map's own: its properties are all honoured or fixed at its values; what is
    warned is what the importer drops and G40 games never played (technology, airborne assaults)."""
    findings = check(read_settings(maps_dir / G40_2E), G40)
    assert not any(f.refused for f in findings)
    assert {f.kind for f in findings} == {"step", "attachment"}
    for f in findings:
        assert "research and development" in f.note or "airborne" in f.note


@pytest.mark.parametrize("xml", sorted(G40_MAPS))
def test_the_g40_maps_are_played_as_before(cli, tmp_path, maps_dir, xml):
    game = G40_MAPS[xml]
    db = tmp_path / "g.db"
    result = cli("new", db, "--game", *game, "--map", maps_dir / xml, "--seed", TEST_SEED)
    assert "created game" in result.stdout and "error" not in result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert all("left out" in w or "research and development" in w for w in warnings), warnings
    assert cli.json("status", db)["round"] == 1


@pytest.mark.parametrize("xml", sorted(REFUSED))
def test_the_europe_and_pacific_maps_are_refused_by_g40_naming_each_property_and_writing_nothing(
        cli, tmp_path, maps_dir, xml):
    db = tmp_path / "x.db"
    out = cli.json("new", db, "--game", "g40", "--map", maps_dir / xml, code=2)["error"]
    stops = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert len(stops) == len(REFUSED[xml]), stops
    for name, words in REFUSED[xml].items():
        line = next((s for s in stops if s.startswith(name + ": ")), None)
        assert line is not None and words in line, (name, stops)
    assert f"the map {Path(xml).name} sets rules that the G40 family" in out
    assert "play it as --game classic" in out and out.endswith("nothing was written")
    assert not db.exists() and not any((tmp_path / "keys").glob("*")), "a refused map wrote a game or a key"
    text = cli("new", db, "--game", "g40", "--map", maps_dir / xml, code=2).stderr
    assert text.startswith("error: ") and "Traceback" not in text and "Neutrals Are Impassable = true" in text


def _g40_with(tmp_path: Path, maps_dir: Path, *properties: tuple[str, str]) -> Path:
    """The G40 2nd-edition XML with these properties added to its list (a later one wins in TripleA, as here)."""
    text = (maps_dir / G40_2E).read_text(encoding="utf-8")
    added = "".join(f'\n    <property name="{n}" value="{v}" editable="false"/>' for n, v in properties)
    xml = tmp_path / "g40_changed.xml"
    xml.write_text(text.replace("</propertyList>", added + "\n</propertyList>", 1), encoding="utf-8")
    return xml


def test_a_property_set_to_triplea_s_default_is_fine_and_away_from_it_is_refused(cli, tmp_path, maps_dir):
    ok = _g40_with(tmp_path, maps_dir, ("Neutrals Are Impassable", "false"), ("WW2V2", "False"), ("neutralCharge", " 0"))
    cli("new", tmp_path / "ok.db", "--game", "g40", "--map", ok)
    bad = _g40_with(tmp_path, maps_dir, ("Neutrals Are Impassable", "true"))
    out = cli("new", tmp_path / "bad.db", "--game", "g40", "--map", bad, code=2).stderr
    assert "Neutrals Are Impassable = true: the G40 family lets armies attack" in out
    assert "WW2V2" not in out and not (tmp_path / "bad.db").exists()


def test_a_harmless_difference_and_an_unknown_property_are_warned_by_name(cli, tmp_path, maps_dir):
    """A map's bid is not given (`--bid` is), and a name the table does not know is ignored, said so."""
    xml = _g40_with(tmp_path, maps_dir, ("Germans bid", "12"), ("Frobnicate Dice", "true"))
    result = cli("new", tmp_path / "w.db", "--game", "g40", "--map", xml)
    assert "warning: Germans bid = 12: the G40 family takes a bid only from `new --bid POWER=PUS`" in result.stderr
    assert ("warning: Frobnicate Dice = true: not known to the adjudicator: the G40 family (Global 1940 2nd edition) "
            "ignores it") in result.stderr
    assert "created game" in result.stdout
    out = cli.json("new", tmp_path / "w2.db", "--game", "g40", "--map", xml)
    assert any(w.startswith("Frobnicate Dice = true") for w in out["warnings"])


def test_a_stored_game_is_not_checked_again(cli, tmp_path, maps_dir):
    """The check is at `new` only: a game made on a map that is then changed or deleted still copies and opens."""
    xml = _g40_with(tmp_path, maps_dir)
    cli("new", tmp_path / "g.db", "--game", "g40", "--map", xml, "--seed", TEST_SEED)
    xml.write_text(xml.read_text(encoding="utf-8").replace("</propertyList>", '<property name="WW2V2" value="true"/>'
                                                                              "</propertyList>"), encoding="utf-8")
    cli("copy", tmp_path / "g.db", tmp_path / "copy.db")
    xml.unlink()
    assert cli.json("status", tmp_path / "copy.db")["round"] == 1


def test_maps_shows_each_maps_family_and_what_it_does_not_honour(cli, maps_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    listed = {m["map"]: m for m in cli.json("maps")["maps"]}
    assert len(listed) == 9
    for name in ("ww2global40_2nd_edition", "G40_Alt_Universe.xml", "G40_Alt_Universe_v2.0.8_beta-1.3"):
        assert listed[name]["family"] == "g40" and listed[name]["refused"] == {}
        assert all(not f["refused"] for f in listed[name]["not_honoured"])
    assert {f["name"] for f in listed["ww2global40_2nd_edition"]["not_honoured"]} >= {"15 TechAttachments"}
    for name in ("europe_AAE", "europe_incomplete", "europe_improved", "pacific"):
        assert listed[name]["family"] == "classic" and listed[name]["refused"] == {}
        made_for = [{"game": "apone-europe", "rules": None, "default": False}] if name == "europe_improved" else []
        assert listed[name]["games"] == made_for + [{"game": "classic", "rules": None, "default": True}]
        assert all(not f["refused"] for f in listed[name]["not_honoured"])
    text = cli("maps").stdout
    assert "    family classic, not honoured: Germans bid = 12; Russians bid = 12" in text
    assert "    family g40, not honoured: 8 steps of SpecialMoveDelegate" in text
    assert any(line.startswith("pacific ") and line.endswith("classic") for line in text.splitlines())


CLASSIC_MAPS = ("europe_improved/map/games/europe_improved.xml", "europe/map/games/europe_AAE.xml",
                "europe/map/games/europe_incomplete.xml", "pacific/map/games/pacific.xml")


@pytest.mark.parametrize("xml", CLASSIC_MAPS)
def test_the_classic_family_plays_the_europe_and_pacific_maps_warning_only_what_it_leaves_out(cli, tmp_path, maps_dir,
                                                                                              xml):
    """What the G40 family refuses in these maps the classic family honours, or fixes as its rulebook plays it;
    what it warns is a map's own bid, its user actions (europe_improved's Middle East pop-ups) and technology."""
    findings = check(read_settings(maps_dir / xml), CLASSIC)
    assert not any(f.refused for f in findings), [f.text() for f in findings if f.refused]
    for name in REFUSED[xml]:
        assert not any(f.text().startswith(name) for f in findings), name
    result = cli("new", tmp_path / "c.db", "--game", "classic", "--map", maps_dir / xml, "--seed", TEST_SEED)
    assert "created game" in result.stdout
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert all(" bid = " in w or "user actions" in w or "Middle East" in w or "weapons development" in w
               for w in warnings), warnings


def test_the_classic_family_refuses_the_g40_maps_naming_what_stops_it(cli, tmp_path, maps_dir):
    out = cli.json("new", tmp_path / "c.db", "--game", "classic", "--map", maps_dir / G40_2E, code=2)["error"]
    assert "Units Repair Hits Start Turn = true: the classic family repairs battleships as their owner's turn ends" in out
    assert "WW2V3 = true" in out and "play it as --game g40" in out and not (tmp_path / "c.db").exists()


def test_a_column_decides_each_name_for_its_family():
    """One name, two families: the G40 family fixes what the classic family honours."""
    from adjudicator.triplea.importer import MapSettings
    settings = MapSettings(source="m.xml", properties={"Neutrals Are Impassable": "true"}, unit_options={}, steps={})
    assert check(settings, CLASSIC) == [] and [f.name for f in check(settings, G40)] == ["Neutrals Are Impassable"]
    assert set(families_for(settings)) == {"g40", "classic"} and ANY == "*"
