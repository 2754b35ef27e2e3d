"""A power's own unit types by their common names (Alt-Universe China's infantryC as `inf`), and a map's rule
version read from the map at `new` (issue 26, items 8 and 9), through the CLI and the notation."""

from __future__ import annotations

import copy

from adjudicator.notation import parse_submission
from adjudicator.notation.lexicon import UNIT, Lexicon
from adjudicator.picture import _armies
from adjudicator.scenario import Placement
from conftest import G40AU_208, TEST_SEED
from g40_names import g40_names_scenario

G40AU_204 = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.4_beta-1.1.xml"
G40AU_2012 = "g40_alt_universe/map/games/G40_Alt_Universe.xml"
BEFORE_CHINA = ("Germans", "Russians", "Japanese", "Americans")


def au_game(cli, db, maps_dir):
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED, "--id", "au")
    for power in BEFORE_CHINA:
        cli("submit", db, "--power", power, "-", input="end\n")
        cli("adjudicate", db)


def test_china_writes_its_own_units_by_their_common_names(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    au_game(cli, db, maps_dir)
    orders = "buy 2 inf\nncm 2 inf C4 > C12\nplace 2 infantry C4\nend\n"
    accepted = cli("submit", db, "--power", "Chinese", "-", input=orders).output
    assert "  buy 2 infantryC\n  ncm 2 infantryC C4 > C12\n  place 2 infantryC C4\n" in accepted
    report = cli("adjudicate", db).output
    assert "- `ncm 2 infantryC C4 > C12`" in report and "2 infantry placed in C4." in report      # China's infantry
    units = cli.json("status", db)["territories"]
    assert units["C12"]["units"]["Chinese"] == {"infantryC": 4}
    assert units["C4"]["units"]["Chinese"] == {"infantryC": 6}          # 6 - 2 moved + 2 placed; the Tigers left
    assert "OK:" in cli("audit", db).output


def test_a_host_adds_chinese_units_by_their_common_names(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED)
    done = cli("edit", db, "--reason", "a lost placement", "-",
               input="add Chinese 2 inf, 1 art, 1 aa gun C4\nadd Germans 1 inf G5\n").output
    assert "add Chinese 2 infantryC, 1 artilleryC, 1 aaGunC C4" in done and "add Germans 1 infantry G5" in done
    units = cli.json("status", db)["territories"]
    assert units["C4"]["units"]["Chinese"] == {"fighter": 1, "infantryC": 8, "artilleryC": 1, "aaGunC": 1}
    assert units["G5"]["units"]["Germans"]["infantry"] == 12


def test_other_powers_and_the_map_names_keep_their_meaning():
    lex = Lexicon.from_scenario(g40_names_scenario())
    chinese, germans = lex.for_power("Chinese"), lex.for_power("Germans")
    assert germans is lex and lex.resolve(UNIT, "inf") == ["infantry"]
    assert chinese.resolve(UNIT, "infs") == ["infantryC"] and chinese.resolve(UNIT, "artilleryC") == ["artilleryC"]
    assert chinese.resolve(UNIT, "aa gun") == ["aaGunC"] and chinese.resolve(UNIT, "tank") == ["armour"]
    assert chinese.for_power("Germans") is lex       # a power's names are made from everyone's, not from another's
    parsed = parse_submission("buy Germans 1 inf", lex, power="Chinese")     # the payer's names, not the writer's
    assert not parsed.errors and [o.canonical() for o in parsed.submission.orders] == ["buy Germans 1 infantry"]


def test_a_power_owning_both_types_is_asked_which_it_means():
    """The ruling "power-variants": the common type's own name keeps its meaning, its abbreviations are ambiguous."""
    scenario = copy.deepcopy(g40_names_scenario())
    scenario.placements.append(Placement("C4", "Chinese", "infantry", 1))
    lex = Lexicon.from_scenario(scenario).for_power("Chinese")
    assert lex.resolve(UNIT, "infantry") == ["infantry"] and lex.resolve(UNIT, "infantryC") == ["infantryC"]
    assert lex.resolve(UNIT, "art") == ["artilleryC"]
    (error,) = parse_submission("buy 2 inf", lex).errors
    assert error.kind == "ambiguous" and "infantry or infantryC" in error.message


def test_only_types_of_one_power_are_variants():
    scenario = g40_names_scenario()
    assert scenario.variants_of("Chinese") == {"infantry": ["infantryC"], "artillery": ["artilleryC"],
                                               "aaGun": ["aaGunC"]}
    assert all(not scenario.variants_of(p.name) for p in scenario.players if p.name != "Chinese")
    stacks = _armies(scenario, [["C4", "Chinese", "infantryC", 6], ["C4", "Chinese", "aaGunC", 1],
                                ["G5", "Germans", "infantry", 3]])
    assert stacks == {"C4": [("Chinese", {"inf": 6, "aa": 1})], "G5": [("Germans", {"inf": 3})]}


# -- the rule version a map is made for ------------------------------------------------------------

def test_a_beta_11_map_plays_the_beta_11_rules(cli, tmp_path, maps_dir):
    db = tmp_path / "au11.db"
    created = cli.json("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_204, "--seed", TEST_SEED)
    assert created["rules"] == "beta-1.1"
    assert cli.json("status", db)["rules"] == "beta-1.1"


def test_rules_that_do_not_fit_the_map_are_refused_before_anything_is_written(cli, tmp_path, maps_dir):
    db = tmp_path / "x.db"
    out = cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_204, "--rules", "beta-1.3",
              code=2).output
    assert "--rules beta-1.3 does not fit the map G40_Alt_Universe_v2.0.4_beta-1.1.xml" in out
    assert "give --rules beta-1.1 (or leave --rules out)" in out and "Traceback" not in out
    out = cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--rules", "beta-1.1",
              code=2).output
    assert "made for the beta-1.3 rules" in out and "G40_Alt_Universe_v2.0.4_beta-1.1.xml" in out
    assert not db.exists() and not (tmp_path / "keys").exists()


def test_a_map_of_rules_the_game_does_not_play_is_refused(cli, tmp_path, maps_dir):
    db = tmp_path / "x.db"
    out = cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_2012, code=2).output
    assert "made for the beta-1.7 rules" in out and "--game g40" in out
    assert not db.exists()
    cli("new", db, "--game", "g40", "--map", maps_dir / G40AU_2012)
