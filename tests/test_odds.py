"""`adjudicator odds`: exact battle odds agree with hand-computed battles, with an exact computation written here
apart from the adjudicator's, and with the adjudicator's own battles fought with its dice; their chances sum to 1."""

from __future__ import annotations

import json
import math
import shlex
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games import game_module
from adjudicator.odds import read_units, reckon, standalone
from adjudicator.odds.simulate import simulate

pytestmark = pytest.mark.slow

DEMO = game_module("demo")
RULES = DEMO.RULES(DEMO.scenario(), "")
# The demo's G40 values: attack, defence; the default order of loss takes the lowest value first, then the cheapest
ATTACK = {"inf": 1, "art": 2, "arm": 3, "ftr": 3}
DEFENCE = {"inf": 2, "art": 2, "arm": 3, "ftr": 4}
NAMES = {"inf": "infantry", "art": "artillery", "arm": "armour", "ftr": "fighter"}
LOSS_ORDER = ["inf", "art", "arm", "ftr"]       # lowest value, then cheapest, in either role for these units


def position(attacker: str, defender: str, retreat_below: int | None = None, place: str = "Belarus"):
    att = read_units(RULES, attacker, "--attacker", "Germans")
    dfn = read_units(RULES, defender, "--defender", "Russians")
    return standalone(RULES, att, dfn, "Germans", "Russians", place, retreat_below=retreat_below)


def odds(attacker: str, defender: str, retreat_below: int | None = None) -> dict:
    return reckon(position(attacker, defender, retreat_below)).to_dict()


# -- an exact computation of our own: land battles of single-hit units, artillery lifting one infantry each ------

def army(text: str) -> tuple[str, ...]:
    """'2 inf, 1 art' → the units in the order they die."""
    units = []
    for part in text.split(","):
        n, kind = part.split()
        units += [kind] * int(n)
    return tuple(sorted(units, key=LOSS_ORDER.index))


def chances(units: tuple[str, ...], attacking: bool) -> list[Fraction]:
    """The chance of each number of hits of a side's dice."""
    values = [ATTACK[u] if attacking else DEFENCE[u] for u in units]
    if attacking:           # each artillery lifts one infantry from 1 to 2
        lifted = min(units.count("art"), units.count("inf"))
        values = [v + 1 if v == 1 and i < lifted else v for i, v in enumerate(sorted(values))]
    dist = [Fraction(1)]
    for v in values:
        p = Fraction(v, 6)
        dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                for k in range(len(dist) + 1)]
    return dist


def independent(attacker: str, defender: str, retreat_below: int | None = None) -> dict[str, Fraction]:
    """Attacker wins, defender holds, both destroyed: a round's hits remove that many units from the front of each
    side's order, rounds repeat until a side is gone (or the attacker, fewer than `retreat_below`, retreats)."""
    att, dfn = army(attacker), army(defender)

    @lru_cache(maxsize=None)
    def ends(i: int, j: int) -> tuple[Fraction, Fraction, Fraction]:
        a, d = att[i:], dfn[j:]
        if not d:
            return (Fraction(1), Fraction(0), Fraction(0)) if a else (Fraction(0), Fraction(0), Fraction(1))
        if not a:
            return Fraction(0), Fraction(1), Fraction(0)
        if retreat_below is not None and (i, j) != (0, 0) and len(a) < retreat_below:
            return Fraction(0), Fraction(1), Fraction(0)
        pa, pd = chances(a, True), chances(d, False)
        stay = pa[0] * pd[0]
        total = [Fraction(0)] * 3
        for x, px in enumerate(pa):
            for y, py in enumerate(pd):
                if x == y == 0:
                    continue
                nxt = ends(i + min(y, len(a)), j + min(x, len(d)))
                for k in range(3):
                    total[k] += px * py * nxt[k]
        return tuple(t / (1 - stay) for t in total)

    won, held, draw = ends(0, 0)
    return {"attacker_wins": won, "defender_wins": held, "draw": draw}


# -- hand-computed --------------------------------------------------------------------------------------------

def test_one_infantry_against_one_infantry():
    """Each round the attacker hits on 1 and the defender on 1-2: it ends in the first round with a hit, so the
    attacker wins with 1/6·4/6 ÷ (1 − 5/6·4/6) = 1/4, both die with 1/6·2/6 ÷ 16/36 = 1/8."""
    found = odds("1 inf", "1 inf")
    assert found["attacker_wins"] == pytest.approx(1 / 4, abs=1e-12)
    assert found["draw"] == pytest.approx(1 / 8, abs=1e-12)
    assert found["defender_wins"] == pytest.approx(5 / 8, abs=1e-12)
    assert found["method"] == "exact"


def test_armour_against_infantry_and_the_swing_in_pus():
    """Armour (hits on 3) against infantry (on 2): wins 1/2·2/3 ÷ 2/3 = 1/2, both die 1/4; the armour survives
    only in a win, so 0.5 armour is expected to survive, and the swing is 3·(3/4) − 6·(1/2) = −0.75 PUs."""
    found = odds("1 arm", "1 inf")
    assert found["attacker_wins"] == pytest.approx(1 / 2, abs=1e-12)
    assert found["draw"] == pytest.approx(1 / 4, abs=1e-12)
    assert found["expected_survivors"]["attacker"] == pytest.approx({"armour": 0.5}, abs=1e-12)
    assert found["ipc_swing"] == pytest.approx(3 * 0.75 - 6 * 0.5, abs=1e-12)
    assert found["captures"] == pytest.approx(found["attacker_wins"], abs=1e-12)


def test_aa_fire_comes_before_the_battle_and_a_fighter_takes_nothing():
    """An AA gun fires once at the fighter (hits on 1) before round 1; then the fighter (3) fights the infantry
    (2), the gun (0) dying first: the odds of the fighter surviving the gun, then of its fight against one
    infantry after a first hit spent on the gun. A fighter alone never takes the territory."""
    found = odds("1 ftr", "1 inf, 1 aa gun")
    # after the gun: fighter (p=1/2 a round) against [gun, inf]; the gun takes the first hit
    w_inf = Fraction(1, 2)                                  # fighter v infantry, as above: wins 1/2
    first = Fraction(1, 2)                                  # the fighter's first hit, on the gun, while the inf hits 1/3
    # rounds until the gun dies: the fighter survives each with 2/3; the first hit may come with the fighter's death
    survive_to_gun = (first * Fraction(2, 3)) / (1 - (1 - first) * Fraction(2, 3))
    won = Fraction(5, 6) * survive_to_gun * w_inf
    assert found["attacker_wins"] == pytest.approx(float(won), abs=1e-12)
    assert found["captures"] == 0


# -- against the computation written here, to 1e-9 ------------------------------------------------------------

LAND = [("3 inf, 1 art, 1 arm", "3 inf, 1 arm"), ("2 inf, 2 art", "4 inf"), ("2 arm, 1 ftr", "2 inf, 1 arm"),
        ("5 inf", "2 inf, 1 art"), ("4 inf, 1 art, 2 arm, 1 ftr", "5 inf, 1 art, 1 ftr")]


@pytest.mark.parametrize("attacker, defender", LAND)
def test_odds_json_agree_with_an_independent_exact_computation(cli, attacker, defender):
    found = cli.json("odds", "--attacker", attacker, "--defender", defender, "--place", "Belarus")
    expected = independent(attacker, defender)
    for key in ("attacker_wins", "defender_wins", "draw"):
        assert abs(found[key] - float(expected[key])) < 1e-9, key
    assert found["method"] == "exact"


def test_a_retreat_condition_is_honoured():
    """`--retreat 3`: the attacker leaves at the end of a round with fewer than 3 units; the defender holds."""
    found = odds("4 inf, 1 art", "3 inf", retreat_below=3)
    expected = independent("4 inf, 1 art", "3 inf", retreat_below=3)
    for key in ("attacker_wins", "defender_wins", "draw"):
        assert abs(found[key] - float(expected[key])) < 1e-9, key
    assert found["retreats"] > 0.1
    assert found["attacker_wins"] < odds("4 inf, 1 art", "3 inf")["attacker_wins"]


# -- against the adjudicator's own battles -------------------------------------------------------------------

def test_odds_agree_with_20000_battles_of_the_adjudicator():
    """20,000 battles fought by the adjudicator's Battle with its audited dice (AA fire, artillery and combined
    arms support, air and land): each share lies within 3 standard errors of the exact odds."""
    pos = position("1 inf, 1 art, 1 arm, 1 tac", "2 inf, 1 aa gun")
    exact = reckon(pos).to_dict()
    runs = 20_000
    seen = simulate(pos, runs, seed=7)
    shares = {"attacker_wins": 0.0, "defender_wins": 0.0, "draw": 0.0}
    for (result, _, _, _), share in seen.items():
        shares[{"won": "attacker_wins", "destroyed": "draw"}.get(result, "defender_wins")] += share
    for key, p in shares.items():
        sigma = math.sqrt(exact[key] * (1 - exact[key]) / runs)
        assert abs(p - exact[key]) <= 3 * sigma, (key, p, exact[key], sigma)


# -- the probabilities sum to 1 --------------------------------------------------------------------------------

side = st.dictionaries(st.sampled_from(["inf", "art", "arm", "ftr", "tac", "mech"]), st.integers(1, 3), min_size=1,
                       max_size=3)
# at sea: destroyers, fighters, and transports that die without a roll once they are all that is left (BG-13)
fleet = st.dictionaries(st.sampled_from(["des", "trn", "ftr"]), st.integers(1, 3), min_size=1, max_size=3)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=st.one_of(st.tuples(side, side, st.booleans()), st.tuples(fleet, fleet, st.just(False))))
def test_the_chances_of_every_end_sum_to_one(battle):
    attacker, defender, aa = battle
    text = ", ".join(f"{n} {u}" for u, n in attacker.items())
    place = "1 Sea Zone" if any(u in ("des", "trn") for u in {**attacker, **defender}) else "Belarus"
    found = reckon(position(text, ", ".join(f"{n} {u}" for u, n in defender.items()) + (", 1 aa gun" if aa else ""),
                            place=place)).to_dict()
    total = found["attacker_wins"] + found["defender_wins"] + found["draw"]
    assert total == pytest.approx(1.0, abs=1e-9)
    assert all(0 <= found[k] <= 1 + 1e-12 for k in ("attacker_wins", "defender_wins", "draw"))
    assert sum(o["probability"] for o in found["outcomes"]) <= 1 + 1e-9


# -- the command -------------------------------------------------------------------------------------------

def test_odds_text_names_the_sides_and_the_odds(cli):
    out = cli("odds", "--attacker", "1 inf", "--defender", "1 inf", "--place", "Belarus").stdout
    assert "the Germans attack with 1 infantry" in out
    lines = {line.split("  ")[0]: line.split()[2] for line in out.splitlines()[3:6]}
    assert lines == {"attacker wins": "25.00%", "defender holds": "62.50%", "both destroyed": "12.50%"}


def test_simulate_sets_a_simulation_beside_the_exact_odds(cli):
    sim = cli.json("odds", "--attacker", "2 inf, 1 arm", "--defender", "2 inf", "--simulate", "--runs", "400")
    exact = cli.json("odds", "--attacker", "2 inf, 1 arm", "--defender", "2 inf")
    assert sim["method"] == "simulation" and sim["why"] == "asked for with --simulate" and sim["runs"] == 400
    assert abs(sim["attacker_wins"] - exact["attacker_wins"]) <= 4 * sim["standard_error"]["attacker_wins"]


def test_a_territory_with_nothing_to_fight_falls(cli):
    """A factory is never a casualty: with nothing else there, the attacker takes the territory, as it would."""
    found = cli.json("odds", "--attacker", "2 inf", "--defender", "1 factory_major")
    assert found["attacker_wins"] == found["captures"] == 1.0 and found["defending"] == {}


def test_a_mistyped_unit_is_refused_saying_where(cli):
    result = cli("odds", "--attacker", "3 inff", "--defender", "1 inf", code=2)
    assert "--attacker" in result.output and "inff" in result.output
    assert "Traceback" not in result.output


def test_a_game_that_fights_its_own_way_is_refused(cli):
    result = cli("odds", "--game", "allies-vs-axis", "--attacker", "1 inf", "--defender", "1 inf", code=2)
    assert "fights its battles by rules of its own" in result.output


def test_a_battle_too_big_for_the_chain_is_simulated_with_error_bars(cli):
    found = cli.json("odds", "--attacker", "150 inf", "--defender", "150 inf", "--runs", "5", "--seed", "3")
    assert found["method"] == "simulation" and "states" in found["why"]
    assert found["runs"] == 5 and set(found["standard_error"]) == {"attacker_wins", "defender_wins", "draw"}
    again = cli.json("odds", "--attacker", "150 inf", "--defender", "150 inf", "--runs", "5", "--seed", "3")
    assert again == found


def test_odds_of_a_combat_move_in_a_game_use_the_standing_orders_of_loss(cli, demo_db):
    """`--order`: the battle the Germans' move would start in Belarus, from the game's state, by the standing
    order of loss on file (the Germans' own, losing armour first, worsens their odds); the game is not changed."""
    move = "cm 3 inf, 1 art, 1 arm Poland > Belarus"
    before = cli.json("odds", demo_db, "--order", move)
    assert before["defending"] == {"infantry": 3} and before["attacking"] == {"armour": 1, "artillery": 1, "infantry": 3}
    expected = independent("3 inf, 1 art, 1 arm", "3 inf")
    assert abs(before["attacker_wins"] - float(expected["attacker_wins"])) < 1e-9
    cli("submit", demo_db, "--power", "Germans", "-", input="ool arm, art, inf\n")
    after = cli.json("odds", demo_db, "--order", move)
    assert after["attacker_wins"] < before["attacker_wins"]
    assert cli.json("status", demo_db)["phase"] == "purchase"
    same = ("--attacker", "3 inf, 1 art, 1 arm", "--defender", "3 inf", "--place", "Belarus")
    assert cli.json("odds", demo_db, *same)["attacker_wins"] == cli.json("odds", *same)["attacker_wins"]


def test_an_order_that_cannot_be_played_is_refused_with_its_error(cli, demo_db):
    result = cli("odds", demo_db, "--order", "cm 9 inf Poland > Belarus", code=2)
    assert "cannot be played" in result.output and "Traceback" not in result.output


def test_odds_without_a_database_import_no_store():
    code = ("import sys\nfrom adjudicator.cli import app\n"
            "try:\n    app(['odds', '--attacker', '2 inf', '--defender', '1 inf', '--json'])\n"
            "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy') "
            "or m.startswith('adjudicator.store'))))")
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == []
    assert '"attacker_wins"' in out.stdout


def test_report_odds_puts_the_odds_before_each_battle(cli, demo_db):
    cli("submit", demo_db, "--power", "Germans", "-", input="cm 3 inf, 1 art, 1 arm Poland > Belarus\nend\n")
    cli("adjudicate", demo_db)
    plain = cli("report", demo_db, "--format", "text").stdout
    with_odds = cli("report", demo_db, "--format", "text", "--odds").stdout
    expected = independent("3 inf, 1 art, 1 arm", "3 inf")
    line = next(line for line in with_odds.splitlines() if "Odds before the battle" in line)
    assert f"the Germans win {float(expected['attacker_wins']):.2%}" in line
    assert with_odds.replace(line + "\n", "") == plain


# -- at sea, by the G40 map's rules: submarines strike first unless a destroyer is there, a battleship takes two hits

def test_sea_odds_agree_with_the_adjudicators_battles(maps_dir):
    from adjudicator.rules.g40_family import G40Rules
    from adjudicator.triplea import load_scenario
    rules = G40Rules(load_scenario(maps_dir / "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"))
    att = read_units(rules, "2 sub, 1 des", "--attacker", "Germans")
    dfn = read_units(rules, "1 bb, 1 sub", "--defender", "British")
    pos = standalone(rules, att, dfn, "Germans", "British", "110 Sea Zone")
    exact = reckon(pos).to_dict()
    assert exact["method"] == "exact"
    within_3_sigma(pos, exact, 3000)
    # an amphibious assault: a cruiser and a battleship bombard before round 1, their casualties firing back
    pos = standalone(rules, read_units(rules, "2 inf, 1 art", "--attacker", "Germans"),
                     read_units(rules, "3 inf", "--defender", "British"), "Germans", "British", "Egypt")
    zone = sorted(n for n in rules.scenario.neighbours("Egypt") if rules.is_water(n))[0]
    pos.orders.bombard = [pos.state.add_unit(t, "Germans", zone) for t in ("cruiser", "battleship")]
    assert rules.prop("Naval Bombard Casualties Return Fire")
    exact = reckon(pos).to_dict()
    assert exact["method"] == "exact"
    within_3_sigma(pos, exact, 2000)


def within_3_sigma(pos, exact: dict, runs: int) -> None:
    seen = reckon(pos, runs=runs, seed=11, simulate_only="to compare").to_dict()
    for key in ("attacker_wins", "defender_wins", "draw"):
        sigma = math.sqrt(exact[key] * (1 - exact[key]) / runs)
        assert abs(seen[key] - exact[key]) <= 3 * sigma + 1e-12, (key, seen[key], exact[key])


def test_the_readme_shows_what_odds_prints(cli):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- odds-example -->\n```\n", 1)[1].split("\n```", 1)[0]
    command, printed = block.split("\n", 1)
    args = shlex.split(command.removeprefix("$ adjudicator "))
    assert cli(*args).stdout.rstrip("\n") == printed


def test_a_games_round_hooks_are_followed(maps_dir, monkeypatch):
    """G40 Alt-Universe Beta-1.1's attacking bombers leave their battle after round 1 (AU11-09): the
    odds follow the game's hook round by round, as its battles do; without the hook they would differ."""
    from adjudicator.triplea import load_scenario
    module = game_module("g40-alt-universe")
    xml = maps_dir / "g40_alt_universe/map/games" / f"{module.RULE_VERSIONS['beta-1.1']}.xml"
    rules = module.RULES(load_scenario(xml), "beta-1.1")
    pos = standalone(rules, read_units(rules, "2 inf, 2 bomber", "--attacker", "Germans"),
                     read_units(rules, "3 inf", "--defender", "British"), "Germans", "British", "UK1")
    exact = reckon(pos).to_dict()
    assert exact["method"] == "exact"
    within_3_sigma(pos, exact, 2000)
    monkeypatch.setattr(type(rules), "leaves_battle", lambda self, unit, rnd: "")
    staying = reckon(pos).to_dict()
    assert abs(staying["expected_survivors"]["attacker"].get("bomber", 0)
               - exact["expected_survivors"]["attacker"]["bomber"]) > 0.1


def test_options_an_order_does_not_take_are_refused(cli, demo_db):
    result = cli("odds", demo_db, "--order", "cm 3 inf Poland > Belarus", "--retreat", "2", code=2)
    assert "leave out --retreat" in result.output
    result = cli("odds", demo_db, "--attacker", "1 inf", "--defender", "1 inf", "--game", "g40", code=2)
    assert "leave out --game" in result.output


G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
AU_13 = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"


def test_a_battle_of_few_states_but_many_ways_out_is_simulated_not_left_running(cli):
    """100 infantry and 50 armour against 120 infantry: under 20,000 states, but each round of each has thousands
    of ways out (the chain took 100 s); it is simulated, saying why."""
    found = cli.json("odds", "--attacker", "100 inf, 50 arm", "--defender", "120 inf", "--runs", "3")
    assert found["method"] == "simulation" and "too big to reckon exactly" in found["why"], found["why"]


def test_a_games_rules_on_a_map_not_made_for_them_are_refused(cli, maps_dir, tmp_path):
    """The Alt-Universe rules on the 2nd-edition map would fight with that map's units (a bomber defending at 1,
    where Alt-Universe's defends at 0): refused by `odds` and `new` alike, naming the maps to use."""
    for args in (("odds", "--game", "g40-alt-universe", "--map", maps_dir / G40_2E, "--attacker", "2 inf",
                  "--defender", "1 bomber"),
                 ("new", tmp_path / "au.db", "--game", "g40-alt-universe", "--map", maps_dir / G40_2E)):
        out = cli(*args, code=2).output
        assert "is not made for the g40-alt-universe game" in out and "G40_Alt_Universe_v2.0.8_beta-1.3.xml" in out
    assert not (tmp_path / "au.db").exists()
    found = cli.json("odds", "--game", "g40-alt-universe", "--map", maps_dir / AU_13, "--attacker", "2 inf",
                     "--defender", "1 bomber")
    assert (found["attacker_wins"], found["defender_wins"], found["draw"]) == (1.0, 0.0, 0.0)     # AU-102


def test_the_round_of_the_game_is_said_and_a_rule_of_round_1_applies_only_there(cli, maps_dir):
    """Pacific (CL-26): in round 1 a unit defending against Japan hits only on 1; from round 2 as usual. One
    infantry against one: attacker (1/6 · 5/6) / (1 − 5/6 · 5/6) = 5/11 in round 1, (1/6 · 2/3) / (1 − 5/6 · 2/3)
    = 1/4 after."""
    pacific = maps_dir / "pacific/map/games/pacific.xml"
    first, later = (cli.json("odds", "--game", "classic", "--map", pacific, "--attacker", "1 inf", "--defender",
                             "1 inf", "--round", r) for r in ("1", "2"))
    assert (first["round"], later["round"]) == (1, 2) and first["attacker"] == "Japanese"
    assert abs(first["attacker_wins"] - 5 / 11) < 1e-9 and abs(later["attacker_wins"] - 1 / 4) < 1e-9
    text = cli("odds", "--game", "classic", "--map", pacific, "--attacker", "1 inf", "--defender", "1 inf").output
    assert "(classic rules, round 1)" in text.splitlines()[0], text


def test_without_a_place_the_battle_is_where_such_units_meet_and_the_sentences_agree(cli, maps_dir):
    """A defending submarine puts the battle at sea; land battles are fought beside the attacker's land, by a
    power at war with it there (Germany and France, in the G40 opening); a single power attacks, not attack."""
    found = cli.json("odds", "--game", "g40", "--map", maps_dir / G40_2E, "--attacker", "1 ftr, 1 des",
                     "--defender", "1 sub")
    assert "Sea Zone" in found["place"] and abs(found["attacker_wins"] - 12 / 13) < 1e-9
    text = cli("odds", "--game", "g40", "--map", maps_dir / G40_2E, "--attacker", "3 inf, 1 arm",
               "--defender", "3 inf").output
    assert "  Germany attacks with 1 armour, 3 infantry" in text and "  France defends with 3 infantry" in text
    assert "; Germany keeps " in text, text
