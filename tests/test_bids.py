"""Bids (issue 26, item 10; games/g40/RULINGS.md "bid"): `new --bid POWER=PUS` starts a game with round 0, one
bid turn per bidder in turn order, in which the bidder buys with its bid and places by the forum's limits; what
is left goes to its treasury, and round 1 follows. Played through the CLI on the G40 2nd-edition map (two Axis
bidders, refused placements, a round-1 turn that moves a bid unit) and on G40 Alt-Universe, with `report`,
`verify` and `audit`; a strict-dice demo and a league game; and every bid `new` refuses before writing anything.
"""

from __future__ import annotations

import re

import pytest

from conftest import TEST_SEED

pytestmark = pytest.mark.slow

G40_MAP = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
AU_MAP = "g40_alt_universe/map/games/G40_Alt_Universe_v2.0.8_beta-1.3.xml"


def units_in(status: dict, place: str, power: str) -> dict[str, int]:
    return status["territories"].get(place, {}).get("units", {}).get(power, {})


def refused(cli, db, power: str, orders: str, *why: str) -> None:
    """A bid submission the rules forbid: exit 1, each reason named, and nothing stored."""
    before = cli.json("status", db)
    out = cli("submit", db, "--power", power, "-", input=orders, code=1).output
    assert "submission rejected" in out, out
    for reason in why:
        assert reason in out, out
    assert "nothing to adjudicate: awaiting the bid of" in cli("adjudicate", db, code=1).output
    assert cli.json("status", db) == before


def verified_and_audited(cli, tmp_path, db, turns: int, bid_turns: list[str]) -> None:
    """Every turn's posted report verifies from its text; `audit` replays the bids and the rounds after them."""
    for turn in range(1, turns + 1):
        post = tmp_path / f"turn{turn}.txt"
        post.write_text(cli("report", db, "--turn", turn, "--format", "text").output)
        checked = cli("verify", post).output
        assert f"turn {turn} (dice block" in checked and "seed leads to anchor" in checked, checked
        if turn <= len(bid_turns):
            assert "no dice were rolled this turn" in checked, checked
    audit = cli("audit", db).output
    assert audit.startswith("audit of game") and "\nOK: every revealed seed" in audit, audit
    for turn, power in enumerate(bid_turns, 1):
        assert f"turn {turn} (bid, {power}): seed follows the chain; no dice" in audit, audit


def test_a_bid_for_two_axis_powers_on_the_2nd_edition_map(cli, tmp_path, maps_dir):
    db = tmp_path / "bid.db"
    made = cli("new", db, "--game", "g40", "--map", maps_dir / G40_MAP, "--seed", TEST_SEED, "--id", "bid-g40",
               "--bid", "Italians=12", "--bid", "GER=5").output
    assert "bid: Germans 5 PUs, Italians 12 PUs, bought and placed before round 1" in made, made
    assert "bid before round 1: awaiting the bid of Germans (buy and place)" in made, made
    start = cli.json("status", db)
    assert (start["round"], start["power"], start["phase"], start["turn_index"]) == (0, "Germans", "purchase", 1)
    assert start["bids"] == {"Germans": 5, "Italians": 12}
    assert start["awaiting"] == "the bid of Germans (5 PUs to buy and place)"
    assert "bid before round 1, Germany, purchase (turn 1); awaiting the bid of Germany" in cli("status", db).output
    treasury = {p: v["treasury"] for p, v in start["powers"].items()}

    # the Germans' bid: refused where they hold nothing, beyond the bid, and a rule of round 1 in the bid
    refused(cli, db, "Germans", "buy 1 inf\nplace 1 inf Sicily\n", "bid units go only on land held by Germany; "
            "Sicily is held by Italy")
    refused(cli, db, "Germans", "buy 1 arm\nplace 1 arm Romania\n", "costs 6 PUs; Germany has 5 left of the bid")
    refused(cli, db, "Germans", "buy 1 inf\nwar Russians\nplace 1 inf Romania\n",
            "the bid takes only `buy` and `place` orders (and `end`); `war` orders come from round 1 on")
    refused(cli, db, "Germans", "round: 1\nbuy 1 art\nplace 1 art Romania\n",
            "these orders are for round 1; the game is in the bid before round 1 (`round: 0`)")
    refused(cli, db, "Germans", "buy 1 inf\n", "every unit bought with the bid is placed in the bid; not placed: "
            "1 infantry")
    refused(cli, db, "Italians", "buy 1 inf\nplace 1 inf Libya\n", "it is Germany's bid, before round 1: "
            "Italy may file only standing orders now")
    cli("submit", db, "--power", "Germans", "-", input="power: Germans\nbuy 1 art\nplace 1 art Romania\nend\n")
    assert cli.json("status", db)["awaiting"] == "adjudicate"
    report = cli("adjudicate", db).output
    assert "## World War II Global 1940 2nd Edition 4.0 — bid before round 1, Germany" in report, report
    for line in ("### Bid purchase", "- Germany buys 1 artillery for 4 PUs of its bid (1 of it left).",
                 "### Bid placement", "- 1 artillery placed in Romania (bid).", "### End of the bid",
                 f"- Germany keeps the 1 PU left of its bid in its treasury (now {treasury['Germans'] + 1}).",
                 "- Next: the bid of Italy.", "holds: 0 groups, 0 dice"):
        assert line in report, line
    now = cli.json("status", db)
    assert (now["round"], now["power"], now["turn_index"], now["bids"]) == (0, "Italians", 2, {"Italians": 12})
    assert units_in(now, "Romania", "Germans")["artillery"] == units_in(start, "Romania", "Germans").get("artillery", 0) + 1

    # the Italians' bid: one unit per place, only where they have units, ships with their ships, no facilities
    refused(cli, db, "Italians", "buy 2 inf\nplace 2 inf Libya\n",
            "a territory or sea zone takes at most 1 bid unit; Libya can take 1 more, not 2")
    refused(cli, db, "Italians", "buy 1 inf\nplace 1 inf Sicily\n",
            "bid units go only where a unit of Italy already is; Sicily holds none")
    refused(cli, db, "Italians", "buy 1 sub\nplace 1 sub 112 Sea Zone\n",
            "bid ships go only into a sea zone that already holds a unit of Italy; 112 Sea Zone holds none")
    refused(cli, db, "Italians", "buy 1 inf\nplace 1 inf 96 Sea Zone\n", "a bid places only ships in a sea zone")
    refused(cli, db, "Italians", "buy 1 airfield\nplace 1 airfield Libya\n", "a bid buys no facilities (air base)")
    cli("submit", db, "--power", "Italians", "-",
        input="buy 1 inf, 1 sub\nplace 1 inf Libya\nplace 1 sub 96 Sea Zone\n")
    report = cli("adjudicate", db).output
    assert "- Italy keeps the 3 PUs left of its bid in its treasury" in report, report
    assert "- Next: round 1, Germany, purchase." in report, report
    now = cli.json("status", db)
    assert (now["round"], now["power"], now["phase"], now["turn_index"], now["bids"]) == (1, "Germans", "purchase", 3, {})
    assert now["powers"]["Italians"]["treasury"] == treasury["Italians"] + 3
    assert now["powers"]["Germans"]["treasury"] == treasury["Germans"] + 1
    assert units_in(now, "96 Sea Zone", "Italians")["submarine"] == units_in(start, "96 Sea Zone", "Italians").get("submarine", 0) + 1
    assert "round 1, Germany, purchase (turn 3); awaiting orders from Germany" in cli("status", db).output

    # round 1: the Germans attack with the artillery of their bid; a late bid order is refused
    out = cli("submit", db, "--power", "Germans", "-", input="round: 1\nbuy 1 inf\nplace 1 inf Romania\nend\n", code=1).output
    assert "no factory" in out, out
    cli("submit", db, "--power", "Germans", "-", input="round: 1\nbuy 1 inf\nwar Russians\n"
        "cm 2 inf, 2 art Romania > Bessarabia\nplace 1 inf Germany\nend\n", code=1)      # one artillery only
    cli("submit", db, "--power", "Germans", "-", input="round: 1\nbuy 1 inf\nwar Russians\n"
        "cm 2 inf, 1 art Romania > Bessarabia\nplace 1 inf Germany\nend\n")
    report = cli("adjudicate", db).output
    assert "— round 1, Germany" in report and "**Bessarabia**: Germany attacks the Soviet Union." in report, report
    assert "Attacking: 1 artillery, 2 infantry." in report, report
    assert re.search(r"battle:Bessarabia:r1:attacker \| d6 \|", report), report
    after = cli.json("status", db)
    assert (after["round"], after["power"], after["turn_index"]) == (1, "Russians", 4)
    assert cli.json("rolls", db, "--turn", 1) == []
    verified_and_audited(cli, tmp_path, db, 3, ["Germans", "Italians"])


def test_a_bid_on_alt_universe_places_units_that_attack_in_round_1(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / AU_MAP, "--seed", TEST_SEED, "--id", "bid-au",
        "--bid", "Germans=6")
    start = cli.json("status", db)
    assert (start["round"], start["power"], start["bids"]) == (0, "Germans", {"Germans": 6})
    refused(cli, db, "Germans", "buy 2 inf\nplace 2 inf G8\n", "G8 can take 1 more, not 2")
    refused(cli, db, "Germans", "buy 1 inf\nplace 1 inf F5\n", "bid units go only on land held by Germany; F5 is "
            "held by France")
    cli("submit", db, "--power", "Germans", "-", input="buy 2 inf\nplace 1 inf G8\nplace 1 inf G11\nend\n")
    report = cli("adjudicate", db).output
    assert "— bid before round 1, Germany" in report and "- Germany has spent its whole bid." in report, report
    assert "- Next: round 1, Germany, purchase." in report, report
    now = cli.json("status", db)
    assert (now["round"], now["power"], now["turn_index"]) == (1, "Germans", 2)
    assert now["powers"]["Germans"]["treasury"] == start["powers"]["Germans"]["treasury"]
    g8 = units_in(now, "G8", "Germans")["infantry"]
    assert g8 == units_in(start, "G8", "Germans")["infantry"] + 1
    cli("submit", db, "--power", "Germans", "-", input=f"""\
power: Germans
round: 1
buy 5 inf
war British
war French
cm {g8} inf G8 > F5
cm 2 art, 1 arm, 4 inf G11 > F5
place 5 inf G15
end
""")
    report = cli("adjudicate", db).output
    assert "— round 1, Germany" in report and "**F5**: Germany attacks France." in report, report
    assert f"Attacking: 1 armour, 2 artillery, {g8 + 4} infantry." in report, report
    assert cli.json("status", db)["power"] == "Russians"
    verified_and_audited(cli, tmp_path, db, 2, ["Germans"])


def test_strict_dice_await_no_salt_for_a_bid_and_round_1_awaits_them(cli, tmp_path):
    db = tmp_path / "strict.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "bid-strict", "--dice", "strict",
        "--bid", "Italians=4", "--bid", "Germans=7")
    out = cli("submit", db, "--power", "Russians", "-", input="salt early\n", code=1).output
    assert "the bid of Germans rolls no dice: nothing is salted before round 1" in out, out
    cli("submit", db, "--power", "Germans", "-", input="buy 1 inf, 1 art\nplace 1 inf Poland\nplace 1 art East Prussia\n")
    assert cli.json("status", db)["awaiting"] == "adjudicate"
    report = cli("adjudicate", db).output
    assert "Strict dice" not in report, report
    cli("submit", db, "--power", "Italians", "-", input="end\n")            # the whole bid kept
    report = cli("adjudicate", db).output
    assert "- The Italians keep the 4 PUs left of their bid in their treasury" in report, report
    cli("submit", db, "--power", "Germans", "-", input="buy 1 inf\nplace 1 inf Germany\nend\n")
    assert cli.json("status", db)["awaiting"] == "salts from Russians, Italians"
    assert "awaits the salts of Russians, Italians" in cli("adjudicate", db, code=1).output
    verified_and_audited(cli, tmp_path, db, 2, ["Germans", "Italians"])


def test_a_league_game_with_a_bid(cli, league):
    cli("new", league, "--game", "demo", "--seed", TEST_SEED, "--id", "bid-league", "--bid", "Russians=6")
    listed = cli.json("games", league)["games"]
    assert [(g["round"], g["power"], g["awaiting"]) for g in listed] == [(0, "Russians", "the bid of Russians")]
    cli("submit", league, "--power", "Russians", "-", input="buy 2 inf\nplace 1 inf Belarus\nplace 1 inf Moscow\n")
    assert "bid before round 1, Russians" in cli("adjudicate", league).output
    now = cli.json("status", league)
    assert (now["round"], now["power"], now["turn_index"]) == (1, "Germans", 2)
    assert units_in(now, "Belarus", "Russians") == {"infantry": 4}
    assert "\nOK: every revealed seed" in cli("audit", league).output


@pytest.mark.parametrize("args, why", [
    (["--bid", "Prussians=5"], "--bid Prussians: not a power of this game"),
    (["--bid", "Germans=0"], "--bid Germans=0: a bid is a whole number of PUs from 1 to 999"),
    (["--bid", "Germans=-3"], "a bid is a whole number of PUs from 1 to 999"),
    (["--bid", "Germans=1.5"], "a bid is a whole number of PUs from 1 to 999"),
    (["--bid", "Germans=ten"], "a bid is a whole number of PUs from 1 to 999"),
    (["--bid", "Germans=1000"], "a bid is a whole number of PUs from 1 to 999"),
    (["--bid", "Germans"], "--bid takes POWER=PUS, e.g. --bid Italians=12, not 'Germans'"),
    (["--bid", "Germans=5", "--bid", "ger=3"], "--bid names Germans twice"),
    (["--bid", "Germans=5", "--bid", "Russians=3"], "a bid goes to one side"),
])
def test_new_refuses_a_bad_bid_before_writing_anything(cli, tmp_path, args, why):
    out = cli("new", tmp_path / "no.db", "--game", "demo", *args, code=2).output
    assert why in out, out
    assert "Traceback" not in out
    assert not (tmp_path / "no.db").exists() and not (tmp_path / "keys").exists()


def test_bids_on_games_and_powers_that_cannot_take_them_are_refused(cli, tmp_path, maps_dir):
    takes = {g["name"]: g["bids"] for g in cli.json("games")["games"] if g["playable"]}
    assert takes == {"demo": True, "g40": True, "g40-alt-universe": True, "classic": True, "allies-vs-axis": False,
                     "expanded-global": False, "apone-europe": True}
    assert "    --bid POWER=PUS: a bid for one side" in cli("games").output
    out = cli("new", tmp_path / "av.db", "--game", "allies-vs-axis", "--player", "British=a@example.org",
              "--player", "Germans=b@example.org", "--bid", "British=5", code=2).output
    assert "the allies-vs-axis game takes no bid" in out, out
    g40 = maps_dir / G40_MAP
    out = cli("new", tmp_path / "g.db", "--game", "g40", "--map", g40, "--bid", "UK_Pacific=5", code=2).output
    assert "UK_Pacific do not buy and place in turns of their own (UK_Pacific buy in the British turn): give the " \
           "bid to British" in out, out
    out = cli("new", tmp_path / "g.db", "--game", "g40", "--map", g40, "--bid", "Dutch=5", code=2).output
    assert "Dutch do not buy and place in turns of their own" in out, out
    assert not list(tmp_path.glob("*.db")) and not (tmp_path / "keys").exists()


def test_a_game_row_set_to_round_0_without_a_bid_is_named_as_damage(cli, demo_db):
    """Round 0 is the bid: a game whose row says round 0 while the power to move has no bid was changed by hand."""
    import sqlite3
    with sqlite3.connect(demo_db) as con:
        con.execute("UPDATE game SET round = 0")
    out = cli("status", demo_db, code=2).output
    assert "round 0 is the bid, and Germans have no bid to place" in out and "Traceback" not in out, out


def test_a_british_bid_places_in_uk_pacific_territories_whose_units_are_british(cli, tmp_path, maps_dir):
    """India is UK_Pacific's and its army British (the map's giveUnitControl): the British bid may place there."""
    db = tmp_path / "uk.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_MAP, "--seed", TEST_SEED, "--bid", "UK=3")
    assert cli.json("status", db)["power"] == "British"
    out = cli("submit", db, "--power", "British", "-", input="buy 1 inf\nplace 1 inf India\n").output
    assert "accepted as submission 1" in out, out
    assert "- 1 infantry placed in India (bid)." in cli("adjudicate", db).output
    assert units_in(cli.json("status", db), "India", "British")["infantry"] == 7
