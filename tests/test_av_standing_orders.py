"""Allies vs. Axis: the guide's whole turn, "whatever the spin brings", is a standing set of conditional orders a
player may post every turn. It is never refused at `submit` wherever the tokens stand, and every turn it is posted
adjudicates (RULINGS.md "refused-at-submit"): a condition no landing of the turn meets, or one met only where its
order cannot be carried out, is reported as not played, with the reason."""

from __future__ import annotations

import random
import re

import pytest

from adjudicator.dice import FixedRoller
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from cases.runner import position
from test_av_prison_and_guide import guide_whole_turn


def _post(rules, state, text: str):
    """The post read and checked as `submit` does: the orders, whether it ends the turn, and what is refused."""
    parsed = parse_submission(text, rules.lexicon(), start_phase=state.phase,
                              phases=rules.scenario.phases_of(state.power), verbs=rules.verbs(), power=state.power)
    assert not parsed.errors, [e.render() for e in parsed.errors]
    orders = turn.turn_orders(parsed.submission.orders)
    return orders, parsed.submission.ended, rules.check(state, orders, parsed.submission.ended)


# the guide's turn, and the same with conditions on the spin before its recruits
SPIN_FORMS = "if spin 6: invade auto\nif spin 1, 2: treaty\nrecruit"
SEEDS = range(6)
TURNS = 50


@pytest.mark.parametrize("players, options, spin_forms", [
    (["British", "Germans"], [], False), (["British", "Germans"], [], True), (["Americans", "Japanese"], [], True),
    (["British", "Germans", "Americans", "Japanese"], [], False),
    (["British", "Japanese", "Americans"], ["world-ruler"], True),
])
def test_the_guides_whole_turn_posted_every_turn_is_never_refused_and_every_turn_adjudicates(players, options,
                                                                                            spin_forms):
    whole = guide_whole_turn()
    if spin_forms:
        whole = whole.replace("recruit", SPIN_FORMS, 1)
    reasons = []
    for seed in SEEDS:
        reasons += _play(players, options, whole, random.Random(seed))
    # the seeds take the tokens where a condition holds but its order cannot be played: the reason is told
    told = re.compile(r"Not played: `if (land|spin) [\w, ]+: .+` \((the spin was \d and )?the token landed on .+; "
                      r".+ \[AV-\d+\]\)\.")
    assert reasons and all(told.fullmatch(t) for t in reasons), reasons


def _play(players: list[str], options: list[str], whole: str, rng: random.Random) -> list[str]:
    """`whole` posted by every player every turn (a ransom paid when it can be, else refused) until the game is won
    or TURNS are played; the reasons told for conditional orders not played."""
    _, rules, state = position({"setup": "allies-vs-axis", "players": players, "options": options})
    reasons = []
    seats = set()
    for _ in range(TURNS):
        if state.board["winner"]:
            break
        power, index = state.power, state.turn_index
        seats.add(power)
        text = "ransom pay\n" + whole if state.board["prisons"].get(power) else whole
        orders, ended, errors = _post(rules, state, text)
        if errors and all("ransom refuse" in e.message for e in errors):     # a ransom it cannot pay: the book's
            orders, ended, errors = _post(rules, state, "ransom refuse\nend")  # only other answer
        assert errors == [], (power, state.board["tokens"][power], [e.render() for e in errors])
        roller = FixedRoller(lambda label, sides, count: [rng.randint(1, sides) for _ in range(count)])
        events = [e for s in rules.play(state, orders, ended, roller, hashed=False) for e in s.events]
        assert state.turn_index > index
        reasons += [e["text"] for e in events if e.get("what") == "skipped" and "; " in e["text"]]
    assert seats == set(players) or state.board["winner"]
    return reasons
