"""A kamikaze attack and a victory played through the command line on the G40 2nd-edition map, as a host would:
the position reached with host corrections (`edit`) and turns of `end`, the orders filed with `submit`, played with
`adjudicate`, told by `report` and `status`, checked by `verify` and `audit` (RULINGS.md "kamikaze", "victory")."""

from __future__ import annotations

import pytest

from conftest import TEST_SEED
from narrative_dice import each_changed_die_is_named

pytestmark = pytest.mark.slow

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
FORMATS = ("markdown", "bbcode", "text")


@pytest.fixture
def g40_db(cli, tmp_path, maps_dir):
    db = tmp_path / "g40.db"
    cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "g40-kv")
    return db


def end_turn(cli, db, power: str) -> None:
    cli("submit", db, "--power", power, "-", input="end\n")
    cli("adjudicate", db)


def verified_and_audited(cli, db, tmp_path, turn: int | None = None) -> None:
    for fmt in FORMATS:
        post = tmp_path / f"report.{fmt}"
        post.write_text(cli("report", db, "--format", fmt, *(["--turn", str(turn)] if turn else [])).stdout)
        cli("verify", post)
    cli("audit", db)


def test_kamikaze_orders_that_cannot_be_honoured_are_refused_with_the_rule(cli, g40_db):
    for text, words in (("kamikaze 36 Sea Zone", "36 Sea Zone is not one"),
                        ("kamikaze 6 Sea Zone: trn", "surface warships only, not transport"),
                        ("kamikaze 6 Sea Zone max", "the most tokens to spend there")):
        out = cli.json("submit", g40_db, "--power", "Japanese", "-", input=text + "\n", code=1)
        assert any(words in e["message"] for e in out["errors"]), out
    out = cli.json("submit", g40_db, "--power", "Germans", "-", input="kamikaze 6 Sea Zone\n", code=1)
    assert out["errors"][0]["rule"] == "kamikaze" and "Germany has no kamikaze tokens" in out["errors"][0]["message"]
    assert "Traceback" not in cli("submit", g40_db, "--power", "Japanese", "-", input="kamikaze\n", code=1).stderr
    assert cli.json("status", g40_db)["kamikaze"]["Japanese"]["tokens"] == 6


def test_a_kamikaze_attack_plays_through_submit_adjudicate_report_verify_and_audit(cli, g40_db, tmp_path):
    filed = cli.json("submit", g40_db, "--power", "Japanese", "-", input="kamikaze sz20 max 2: bb, cv, ca\n")
    assert filed["orders"] == ["kamikaze 20 Sea Zone max 2: battleship, carrier, cruiser"]
    for power in ("Germans", "Russians", "Japanese"):
        end_turn(cli, g40_db, power)
    (tmp_path / "fix.txt").write_text("war Americans Japanese\nadd Americans 1 battleship, 1 carrier, 1 cruiser 35 Sea Zone\n")
    cli("edit", g40_db, tmp_path / "fix.txt", "--reason", "a Pacific war in round 1, to test kamikaze")
    before = cli.json("status", g40_db)
    assert before["power"] == "Americans"
    assert "kamikaze tokens of Japan: 6 left (strikes at 2 in 6 Sea Zone, 17 Sea Zone" in cli("status", g40_db).stdout

    cli("submit", g40_db, "--power", "Americans", "-",
        input="cm 1 battleship, 1 carrier, 1 cruiser, 1 destroyer 35 Sea Zone > 20 Sea Zone\nend\n")
    cli("adjudicate", g40_db)

    groups = [g for g in cli.json("rolls", g40_db) if g["turn"] == before["turn_index"]]
    assert groups[0]["label"] == "kamikaze:20 Sea Zone" and len(groups[0]["values"]) == 2, "strikes come first"
    bb, cv = (f"{v} {'damaged' if v <= 2 else 'missed'}" for v in groups[0]["values"])   # both take two hits
    text = cli("report", g40_db, "--format", "text").stdout
    assert ("Kamikaze in 20 Sea Zone: Japan spends 2 tokens on the United States' ships (standing order "
            "“kamikaze 20 Sea Zone max 2: battleship, carrier, cruiser”), hitting on 2 or less: "
            f"battleship {bb}, carrier {cv}; 4 tokens left [kamikaze].") in text
    after = cli.json("status", g40_db)
    assert after["kamikaze"]["Japanese"]["tokens"] == 4
    assert "kamikaze tokens of Japan: 4 left" in cli("status", g40_db).stdout
    verified_and_audited(cli, g40_db, tmp_path, before["turn_index"])
    for fmt in FORMATS:     # the strikes' dice the narrative prints are held to the block (issue 32 item 5)
        each_changed_die_is_named(cli, tmp_path,
                                  cli("report", g40_db, "--format", fmt).stdout,
                                  {r"hitting on 2 or less: battleship (\d)": "the kamikaze strikes in 20 Sea Zone"})


PACIFIC_SIX = """\
owner Western United States Japanese
owner Hawaiian Islands Japanese
owner Philippines Japanese
owner Kwangtung Japanese
"""


def test_a_victory_is_held_a_whole_round_announced_won_and_ends_the_game(cli, g40_db, tmp_path):
    (tmp_path / "vc.txt").write_text(PACIFIC_SIX)
    cli("edit", g40_db, tmp_path / "vc.txt", "--reason", "Japan holds 6 Pacific victory cities, to test victory")
    end_turn(cli, g40_db, "Germans")
    text = cli("report", g40_db, "--format", "text").stdout
    assert ("The Axis hold (8 of United Kingdom, Russia, Germany, Poland, France, Southern Italy, Novgorod, Volgograd, "
            "Ontario, Egypt, Eastern United States or 6 of ") in text
    assert "they win if that still holds when Germany has played its turn of round 2, a whole round from now [victory]" in text
    st = cli.json("status", g40_db)
    assert st["victory"]["winner"] is None and st["victory"]["holds"][0]["side"] == "Axis"
    assert "a hold counted from the turn of the Germans in round 1" in cli("status", g40_db).stdout

    while cli.json("status", g40_db)["power"] != "Germans":
        end_turn(cli, g40_db, cli.json("status", g40_db)["power"])
    last = cli.json("status", g40_db)["turn_index"]
    end_turn(cli, g40_db, "Germans")
    text = cli("report", g40_db, "--format", "text").stdout
    assert "Game over: the Axis win. They held (8 of United Kingdom" in text
    assert "Next:" not in text, text          # a turn that ends the game announces no next one
    st = cli.json("status", g40_db)
    assert st["victory"]["winner"]["side"] == "Axis" and st["awaiting"] == "nothing: the game is over, the Axis won"
    refused = cli("submit", g40_db, "--power", "Russians", "-", input="end\n", code=1)
    assert "no orders are taken: Game over: the Axis win" in refused.stdout + refused.stderr
    assert "the game is over, the Axis won" in cli("adjudicate", g40_db, code=1).stderr
    verified_and_audited(cli, g40_db, tmp_path, last)


def test_kamikaze_orders_of_a_submission_replace_the_earlier_ones_and_none_withdraws_them():
    from adjudicator.game import apply_standing
    from adjudicator.notation.orders import Kamikaze
    from adjudicator.games import demo
    from adjudicator.state import State

    state = State.initial(demo.scenario())
    rules = demo.RULES(demo.scenario())
    apply_standing(rules, state, "Japanese", [Kamikaze(zone="6 Sea Zone", max=2), Kamikaze(zone="19 Sea Zone"),
                                       Kamikaze(zone="6 Sea Zone", targets=("carrier",))])
    assert state.standing["Japanese"]["kamikaze"] == [{"zone": "19 Sea Zone", "max": None, "targets": []},
                                                      {"zone": "6 Sea Zone", "max": None, "targets": ["carrier"]}]
    apply_standing(rules, state, "Japanese", [Kamikaze(zone="20 Sea Zone", max=1)])
    assert state.standing["Japanese"]["kamikaze"] == [{"zone": "20 Sea Zone", "max": 1, "targets": []}]
    apply_standing(rules, state, "Japanese", [Kamikaze(none=True)])
    assert "kamikaze" not in state.standing["Japanese"]
