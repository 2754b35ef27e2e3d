"""Allies vs. Axis as its guide promises: the guide's whole turn is taken in a 2-player game wherever the token
stands, the messages name players as sentences do, and the prison chain (imprisoned, ransom paid, released, the
third imprisonment) plays through the command line as the book has it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.game import open_game
from adjudicator.store import db
from cases.runner import run

SEED = "5b" * 32
NEW = ("new", "av.db", "--game", "allies-vs-axis", "--seed", SEED, "--id", "av-1",
       "--player", "UK=a@example.org", "--player", "Germany=b@example.org")
GUIDE = Path(__file__).resolve().parents[1] / "docs" / "allies-vs-axis.md"


def guide_whole_turn() -> str:
    """The guide's "whole turn in one post, whatever the spin brings", as the guide prints it."""
    doc = GUIDE.read_text()
    return re.search(r"whatever the spin brings:\n\n```orders\n(.*?)```", doc, re.S).group(1)


@pytest.mark.parametrize("token, spin, ally, played", [
    (4, 6, "Japan", None),                      # the only unchosen Main Territory in reach is the Axis' own
    (26, 2, "United States", "British"),        # the Allies' unchosen Main Territory: set up as a Natural Ally
    (1, 3, None, None),                         # no unchosen Main Territory in reach (lands on Norway, neutral)
])
def test_the_guides_whole_turn_is_taken_in_a_two_player_game_and_plays_what_the_spin_allows(token, spin, ally, played):
    orders = guide_whole_turn()
    assert "if land ally: ally" in orders
    state, errors, events = run({"setup": "allies-vs-axis", "orders": orders, "board": {"tokens": {"British": token}},
                                 "dice": {"spin:British": [spin]}})
    assert errors == [], [e.render() for e in errors]
    assert not [e for e in events if e["type"] == "void"]
    skipped = [e["text"] for e in events if e.get("what") == "skipped"]
    if ally:
        assert state.owners.get(ally) == played
        assert any("`if land ally: ally`" in t for t in skipped) == (played is None), skipped
    else:
        assert state.owners.get("Norway") == "British"          # `if land neutral: treaty` signed


def test_messages_name_the_players_and_what_they_can_do(cli):
    cli(*NEW)
    early = cli("submit", "av.db", "--power", "Germany", "-", input="spin\nend\n", code=1).output
    assert "Allies vs. Axis keeps no orders between turns, so the Germans post their whole turn when it comes" in early
    assert "standing orders" not in early
    mine = cli("submit", "av.db", "--power", "UK", "-", input="spin\nif land Norway: defend 5 inf Norway\nend\n",
               code=1).output
    assert "Norway does not belong to the British, and no treaty or invasion before this order takes it" in mine
    assert "British's" not in mine


def _set(change) -> None:
    """A position laid on the stored game, as a host's database would hold it (this game takes no `edit`)."""
    engine = db.open_existing("av.db")
    with db.transaction(engine, write=True) as s:
        g = open_game(s)
        change(g.state)
        db.save_state(s, g.game, g.state)
        s.commit()
    engine.dispose()


def _british_turn(cli, orders: str) -> str:
    """Aim the British at Germany with an empty pool, then play `orders`: the spin is the seed's, read first from
    a copy of the game, and the token is set that many spaces short of Germany (space 19)."""
    shutil.copy("av.db", "probe.db")
    cli("submit", "probe.db", "--power", "UK", "-", input=orders)
    cli("adjudicate", "probe.db")
    turn = cli.json("status", "av.db")["turn_index"]
    spin = next(g["values"][0] for g in cli.json("rolls", "probe.db")
                if g["turn"] == turn and g["label"] == "spin:British")

    def aim(state):
        state.board["tokens"]["British"] = 19 - spin
        state.board["pools"]["British"] = {"infantry": 0, "tank": 0, "aircraft": 0, "battleship": 0}
        state.treasury["British"] = 5000            # enough for the ransom, which grows with each imprisonment
    _set(aim)
    cli("submit", "av.db", "--power", "UK", "-", input=orders)
    return cli("adjudicate", "av.db", "--format", "text").output


def _german_turn(cli) -> None:
    cli("submit", "av.db", "--power", "Germany", "-", input="spin\nend\n")
    cli("adjudicate", "av.db")


def test_prison_ransom_and_the_third_imprisonment_through_the_command_line(cli):
    cli(*NEW)
    first = _british_turn(cli, "spin\nend\n")
    assert "British have no units left: imprisoned in Germany (imprisonment 1 of 3); the turn ends." in first
    board = cli.json("status", "av.db")["board"]
    assert board["prisons"] == {"British": "Germany"} and board["imprisoned"]["British"] == 1

    _german_turn(cli)
    before = cli.json("status", "av.db")
    assert "ransom pay" in cli("submit", "av.db", "--power", "UK", "-", input="spin\nend\n", code=1).output
    second = _british_turn(cli, "ransom pay\nspin\nend\n")
    paid = re.search(r"British pay a ransom of \$M (\d+) to Germans and are released from Germany\.", second)
    assert paid, second
    assert "imprisonment 2 of 3" in second
    after = cli.json("status", "av.db")
    assert after["powers"]["Germans"]["treasury"] == before["powers"]["Germans"]["treasury"] + int(paid.group(1))
    assert after["board"]["imprisoned"]["British"] == 2

    _german_turn(cli)
    third = _british_turn(cli, "ransom pay\nspin\nend\n")
    assert "are released from Germany" in third
    assert "imprisonment 3 of 3" in third
    final = cli.json("status", "av.db")
    assert "British" in final["board"]["out"]
    assert final["victory"]["winner"]["side"] == "Axis"             # the British were the Allies' only player
    assert "AV-48" in third and "imprisoned 3 times" in third, third
