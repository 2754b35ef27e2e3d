"""Battle accounts that are exact (issue 32 item 2): who came out of a battle and where, each loss counted once,
the AA guns and their shots, a neutral that joins, a territory taken back by its owner, each note once, and the
value each side lost. Real positions (the demo, the G40 2nd-edition and classic maps) played by the rule-case
runner, reported by the report's own functions."""

from __future__ import annotations

from adjudicator.battle_account import (at_battles, mark_given, mark_liberations, original_owners, own_words,
                                        unit_types)
from adjudicator.report import battle_view, describe, event_lines
from cases.runner import load_cases, position, run

OOLS = {"attacker": "ool", "defender": "ool"}


def played(case: dict) -> tuple[list[dict], list[str]]:
    """The case's battles as the report lays them out, and the report's lines of its other events."""
    case = {"id": "report", "rule": "BG-00", "purpose": "a report", **case}
    scenario, rules, _ = position(case)
    _, errors, events = run(case)
    assert not errors, errors
    mark_liberations(events, original_owners(scenario))
    battles = [own_words(battle_view(e, OOLS, unit_types(scenario)), e, rules) for e in events if e["type"] == "battle"]
    return battles, [line for e in events if e["type"] != "battle" for line in event_lines(e, unit_types(scenario))]


def test_after_a_retreat_the_attackers_left_are_those_that_went_and_the_aircraft():
    (battle,), _ = played({
        "orders": "cm 2 inf Poland > Belarus\ncm 1 ftr Germany > Poland > Belarus\n"
                  "retreat Belarus > Poland if attackers < 3\n",
        "position": {"Poland": {"owner": "Germans", "units": {"Germans": {"infantry": 2}}},
                     "Germany": {"owner": "Germans", "units": {"Germans": {"fighter": 1}}},
                     "Belarus": {"owner": "Russians", "units": {"Russians": {"infantry": 2}}}},
        "dice": {"battle:Belarus:r1:attacker": [6, 6, 6], "battle:Belarus:r1:defender": [1, 6]}})
    assert battle["result"] == "the attacker retreats to Poland"
    assert battle["survivors"] == ("1 infantry retreated to Poland; 1 fighter left the battle with them, to land in "
                                   "the non-combat move")            # not "nothing", as they all live
    assert battle["lost"] == "Units lost by value (TUV): attackers 3 PUs, defenders 0 PUs"


def test_a_unit_the_bombardment_sank_is_counted_once_though_it_fires_back():
    """G40 2nd edition: the bombardment's casualties fire back in round 1 (Naval Bombard Casualties Return Fire)."""
    (battle,), _ = played({
        "setup": "g40", "map": "ww2global40_2nd_edition",
        "orders": "cm 2 inf 113 Sea Zone > Denmark\nbombard 1 bb 113 Sea Zone > Denmark\n",
        "position": {"113 Sea Zone": {"units": {"Germans": {"battleship": 1, "transport": 1, "infantry": 2}}},
                     "Denmark": {"owner": "British", "units": {"British": {"infantry": 1}}}},
        "dice": {"bombard:Denmark": [2], "battle:Denmark:r1:attacker": [6, 6], "battle:Denmark:r1:defender": [1]}})
    rounds = battle["rounds"]
    assert rounds[0].endswith("→ defender loses 1 infantry")
    assert any(r.startswith("Round 1, losses:") and "defender loses nothing" in r for r in rounds), rounds
    assert "Round 1: the bombardment's 1 infantry fired back and are removed now" in rounds
    assert battle["lost"] == "Units lost by value (TUV): attackers 3 PUs, defenders 3 PUs"


def test_aa_fire_says_how_many_guns_fired_how_many_shots():
    (battle,), _ = played({
        "orders": "cm 3 ftr Germany > Poland > Belarus\ncm 1 arm Poland > Belarus\n",
        "position": {"Germany": {"owner": "Germans", "units": {"Germans": {"fighter": 3}}},
                     "Belarus": {"owner": "Russians", "units": {"Russians": {"infantry": 1, "aaGun": 2}}}},
        "dice": {"aa:Belarus:r1": [1, 4, 2]}, "dice_default": 1})
    assert battle["rounds"][0] == "AA fire: 2 AA guns, 3 shots @1: 1 4 2 → 1 hit; lost 1 fighter"


def test_a_neutral_that_joins_is_said_to_join():
    _, lines = played({"setup": "g40", "map": "ww2global40_2nd_edition", "orders": "ncm 1 inf Romania > Bulgaria",
                       "position": {"Romania": {"owner": "Germans", "units": {"Germans": {"infantry": 1}}}}})
    joined = [line for line in lines if line.startswith("Bulgaria")]
    assert joined and "joins the Germans" in joined[0] and "its 4 infantry join them" in joined[0], lines
    assert not any("blitzed" in line for line in lines)


def test_taking_back_ones_own_territory_is_a_liberation():
    (battle,), _ = played({
        "orders": "cm 1 arm Germany > Poland",
        "position": {"Germany": {"owner": "Germans", "units": {"Germans": {"armour": 1}}},
                     "Poland": {"owner": "Russians", "units": {"Russians": {"infantry": 1}}}},
        "dice": {"battle:Poland:r1:attacker": [1], "battle:Poland:r1:defender": [6]}})
    assert battle["result"] == "Poland is liberated from the Russians by the Germans, its original owner"


def test_a_void_retreat_is_noted_once():
    """europe_improved: troops landed from the sea cannot retreat; the void retreat is found after each round."""
    (battle,), _ = played({
        "setup": "classic", "map": "europe_improved", "power": "British", "dice_default": 6,
        "orders": "cm 2 infantry English Channel Sea Zone > France\nretreat France > Netherlands-Belgium after round 1\n",
        "position": {"English Channel Sea Zone": {"units": {"British": {"transport": 1, "infantry": 2}}},
                     "Netherlands-Belgium": {"owner": "British", "units": {"British": {"infantry": 1}}},
                     "France": {"owner": "Germans", "units": {"Germans": {"infantry": 3}}}},
        "dice": {"battle:France:r3:defender": [1, 1, 6]}})
    assert battle["notes"] == ["retreat void: units that came ashore from the sea are in this battle (after each of "
                               "2 rounds)"]


def test_troops_land_after_the_sea_battle_that_cleared_their_way():
    """G40 2nd edition: a scrambled fighter meets the fleet in the landing zone; the landing follows that battle."""
    case = {"setup": "g40", "map": "ww2global40_2nd_edition",
            "orders": "cm 2 inf 113 Sea Zone > Denmark\nbombard 1 bb 113 Sea Zone > Denmark\n",
            "standing": {"British": {"scramble": [{"place": "Norway", "sea_zone": "113 Sea Zone", "max": 1}]}},
            "position": {"113 Sea Zone": {"units": {"Germans": {"battleship": 1, "transport": 1, "infantry": 2}}},
                         "Denmark": {"owner": "British", "units": {"British": {"infantry": 1}}},
                         "Norway": {"owner": "British", "units": {"British": {"fighter": 2, "airfield": 1}}}},
            "dice": {"battle:113 Sea Zone:r1:attacker": [1], "battle:113 Sea Zone:r1:defender": [6],
                     "battle:Denmark:r1:attacker": [1, 6], "battle:Denmark:r1:defender": [6]}}
    _, errors, events = run({"id": "report", "rule": "BG-00", "purpose": "a report", **case})
    assert not errors
    before, battles = at_battles([e for e in events if e.get("phase", "battle") == "battle" or e["type"] == "battle"])
    told_before = [line for e in before for line in describe(e)]
    (sea, after_sea), (land, _) = battles
    assert (sea["place"], land["place"]) == ("113 Sea Zone", "Denmark")
    landing = "2 infantry land from 113 Sea Zone in Denmark."
    assert landing not in told_before and landing in [line for e in after_sea for line in describe(e)]


def test_an_insurgency_reads_as_one():
    """Expanded Global: Japan's Insurgents in Burma beat India's defenders (EG-56 … EG-58)."""
    (battle,), _ = played({
        "setup": "expanded-global", "power": "Japan", "phase": "influence", "spent": {"influence:Japan": 8},
        "orders": "insurgents 2 Burma\nend", "dice_default": 6,
        "dice": {"insurgency:Burma:r1:attacker": [1, 1], "insurgency:Burma:r2:attacker": [1, 6]}})
    assert battle["attacker"] == "Japan's Insurgents"
    assert battle["result"] == "the Insurgents win"


def test_units_placed_for_another_power_are_said_to_become_its():
    """Pacific 2001: Australian infantry placed in New South Wales become British (Give Units By Territory)."""
    case = {"setup": "classic", "map": "pacific", "power": "Australians", "phase": "place",
            "purchases": {"Australians": {"infantry": 2}},
            "orders": "place 1 inf New South Wales\nplace 1 inf Queensland\n",
            "position": {"New South Wales": {"owner": "Australians", "units": {"Australians": {"factory": 1}}},
                         "Queensland": {"owner": "Australians", "units": {"Australians": {"factory": 1}}}}}
    _, errors, events = run({"id": "report", "rule": "BG-00", "purpose": "a report", **case})
    assert not errors
    mark_given(events, position({"id": "report", **case})[1])
    lines = [line for e in events if e["type"] == "place" for line in describe(e)]
    assert lines == ["1 infantry placed in New South Wales; they pass to the British.",
                     "1 infantry placed in Queensland."]


def test_hits_no_unit_could_take_are_said():
    """G40 2nd edition: two fighters hit, but only a cruiser of the defence may take their hits; the submarine,
    with no German destroyer there, may not."""
    (battle,), _ = played({
        "setup": "g40", "map": "ww2global40_2nd_edition", "dice_default": 6,
        "orders": "cm 1 cruiser 114 Sea Zone > 113 Sea Zone\ncm 2 ftr Denmark > 113 Sea Zone\n",
        "position": {"114 Sea Zone": {"units": {"Germans": {"cruiser": 1}}},
                     "113 Sea Zone": {"units": {"British": {"submarine": 1, "cruiser": 1}}},
                     "Denmark": {"owner": "Germans", "units": {"Germans": {"fighter": 2}}}},
        "dice": {"battle:113 Sea Zone:r1:attacker": [6, 1, 1], "battle:113 Sea Zone:r2:attacker": [1, 6, 6]}})
    rounds = battle["rounds"]
    assert any(r.startswith("Round 1, attacker:") and r.endswith("→ 2 hits") for r in rounds), rounds
    assert any(r.startswith("Round 1, losses:") and "defender loses 1 cruiser" in r for r in rounds), rounds
    assert "Round 1: 1 of the attacker's hits found no unit they may hit (aircraft cannot hit submarines without " \
           "a destroyer of their own; submarines cannot hit aircraft)" in rounds
    assert not any(r.startswith("Round 2:") for r in rounds), rounds


def test_a_sea_battle_won_while_submarines_stay_submerged_does_not_say_the_zone_is_cleared():
    """G40 2nd edition: the British submarines submerge (`submerge always`); the battleship wins the battle over the
    transport, and the submarines are still in the zone."""
    (battle,), _ = played({
        "setup": "g40", "map": "ww2global40_2nd_edition",
        "orders": "cm 1 bb 113 Sea Zone > 112 Sea Zone > 110 Sea Zone", "standing": {"British": {"submerge": True}},
        "position": {"110 Sea Zone": {"units": {"British": {"submarine": 2, "transport": 1}}}}})
    assert battle["result"] == "the attackers win; the defending 2 submarines that submerged stay in 110 Sea Zone"


def test_a_raids_aa_fire_says_its_shots():
    """G40 2nd edition: the factory's AA fires one shot at the raiding bomber; europe_improved: the AA gun fires
    first, at every raiding aircraft."""
    case = next(c for c in load_cases() if c["id"] == "BG-26-31")
    _, errors, events = run(case)
    assert not errors
    assert "The factory major's AA fires: 1 shot @1: 6 → 0 hits; lost nothing." in [
        line for e in events if e["type"] == "raid" for line in describe(e)]
    case = next(c for c in load_cases() if c["id"] == "CL-03-01")
    _, errors, events = run(case)
    lines = [line for e in events if e["type"] == "raid" for line in describe(e)]
    assert any(line.startswith("AA fires (1 aa Gun) at every raiding aircraft: 2 shots @1: ") for line in lines), lines


def test_a_raid_that_cost_units_says_their_value_as_a_battle_does():
    """europe_improved: the AA gun shoots down 1 of the 2 British bombers (15 PUs each); a raid nobody lost a unit
    in has no such line."""
    case = next(c for c in load_cases() if c["id"] == "CL-03-01")
    _, lines = played({k: v for k, v in case.items() if k not in ("expect", "id", "rule", "purpose")})
    assert "Units lost by value (TUV): raiders 15 PUs, interceptors 0 PUs." in lines, lines
    case = next(c for c in load_cases() if c["id"] == "BG-26-31")
    _, lines = played({k: v for k, v in case.items() if k not in ("expect", "id", "rule", "purpose")})
    assert not any("TUV" in line for line in lines), lines


def test_aa_fire_of_guns_that_are_no_defenders_names_them():
    """europe_improved: the AA gun is infrastructure, no defender; the line names it and counts its shots."""
    case = next(c for c in load_cases() if c["id"] == "CL-02-01")
    (battle,), _ = played({k: v for k, v in case.items() if k not in ("expect", "id", "rule", "purpose")})
    assert battle["rounds"][0] == "AA fire: aaGun, 4 shots @1: 6 1 6 6 → 1 hit; lost 1 fighter"


def test_units_that_go_down_with_their_transport_count_in_its_sides_losses():
    """G40 2nd edition: a loaded transport sunk in a sea battle takes its 2 infantry down with it; the attacker lost
    the destroyer (8), the transport (7) and the infantry (2 × 3), and the report's value says so."""
    (battle,), _ = played({
        "setup": "g40", "map": "ww2global40_2nd_edition", "power": "Germans",
        "orders": "cm 1 tra, 2 inf, 1 des 113 Sea Zone > 112 Sea Zone\n",
        "position": {"113 Sea Zone": {"units": {"Germans": {"transport": 1, "infantry": 2, "destroyer": 1}}},
                     "112 Sea Zone": {"units": {"British": {"destroyer": 1}}}},
        "dice": {"battle:112 Sea Zone:r1:attacker": [6], "battle:112 Sea Zone:r1:defender": [1],
                 "battle:112 Sea Zone:r2:attacker": [6], "battle:112 Sea Zone:r2:defender": [1]}})
    assert "lost aboard sunk transports: 2 infantry" in " ".join(battle["notes"]), battle
    assert battle["lost"] == "Units lost by value (TUV): attackers 21 PUs, defenders 0 PUs", battle["lost"]
