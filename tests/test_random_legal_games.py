"""Random legal turns on the real maps (issue 26, item 1): two rounds of every power on the G40 2nd-edition map,
the G40 Alt-Universe map, and (`--game classic`) europe_improved and pacific, written by tests/legal_turns.py from
the position (amphibious assaults, sea battles, air attacks and landings, raids, scrambles, carriers, purchases and
placements, declarations of war where the map has politics, the Australians' purchase in the British turn,
China's free infantry, retreats; the Expanded Global's Agenda: Peacetime Spending, Influence, alliance offers and
their answers, declarations, a Surprise Attack now and then), adjudicate with no internal error, their reports pass
`verify`, and the game passes `audit`; the first turns go through the CLI, which never exits 3.
The long run is benchmarks/random_legal_games.py."""

from __future__ import annotations

import json

import pytest

import legal_turns
from adjudicator.config import load_settings
from adjudicator.errors import OrderError, SubmissionRejected

pytestmark = pytest.mark.slow

ROUNDS = 2
SEEDS = {"g40": 26, "g40-alt-universe": 27, "classic-europe": 28, "classic-pacific": 29,      # legal_turns.MAPS
         "expanded-global": 30, "apone-europe": 31}
AT_PEACE = {"expanded-global"}      # every nation starts at peace: combat only from round 2, after a declaration


def explain(tally: legal_turns.Tally) -> str:
    return "\n\n".join(f"{e['game']} seed {e['seed']} round {e.get('round')} {e['power']} ({e['where']}): "
                       f"{e['error']}\n{e['orders']}\n{e['traceback']}" for e in tally.internal_errors)


@pytest.fixture(scope="module")
def played(tmp_path_factory, maps_dir) -> dict:
    """Every map played once for this module's tests, in a folder of their own (keys, home, working folder), as
    tests/conftest.py's private_env gives each test: game -> (its tally, its powers that take turns)."""
    from adjudicator.store.db import open_existing
    work = tmp_path_factory.mktemp("random-legal")
    out = {}
    with pytest.MonkeyPatch.context() as env:
        env.chdir(work)
        env.setenv("ADJUDICATOR_KEYS_DIR", str(work / "keys"))
        env.setenv("HOME", str(work / "home"))
        for key in ("ADJUDICATOR_DB", "ADJUDICATOR_MAPS_PATH", "ADJUDICATOR_TEMPLATES"):
            env.delenv(key, raising=False)
        for game, seed in SEEDS.items():
            db = str(work / f"{game}.db")
            tally = legal_turns.Tally()
            legal_turns.play_game(db, game, maps_dir, seed, ROUNDS, load_settings(), tally,
                                  cli=legal_turns.subprocess_cli(), cli_turns=2)
            engine = open_existing(db)
            players = legal_turns.open_position(engine).scenario.turn_players()
            engine.dispose()
            out[game] = (tally, players)
    return out


@pytest.mark.parametrize("game", sorted(SEEDS))
def test_random_legal_turns_adjudicate_without_internal_errors_and_audit(played, game):
    tally, players = played[game]
    assert not tally.internal_errors, explain(tally)
    assert [a["ok"] for a in tally.audits] == [True], tally.audits
    assert not tally.verify_failures, tally.verify_failures          # each report's dice, recomputed from its text
    assert tally.power_turns == ROUNDS * len(players) and tally.cli_turns == 2
    # the turns were played, not emptied by refusals: most lines written were accepted, and they fought
    assert tally.accepted["place"] and tally.accepted["ncm air"], tally.summary()
    assert sum(tally.accepted.values()) >= 0.7 * sum(tally.written.values()), tally.summary()
    if game not in AT_PEACE:
        assert tally.accepted["cm land"] and tally.events["battles"] >= 5, tally.summary()


def test_the_expanded_global_agenda_is_written_and_accepted(played):
    """Two rounds of the Expanded Global: purchases within Peacetime Spending (none refused under EG-29), Influence
    taken and markers bought, alliances offered, answered between turns and formed, wars declared."""
    tally = played["expanded-global"][0]
    for kind in ("buy", "influence", "ally", "accept", "war"):
        assert tally.accepted[kind], (kind, tally.summary())
    assert tally.events["influence_markers"] and tally.events["alliance_formed"], tally.summary()
    assert not tally.refused["EG-29"], tally.summary()


def test_amphibious_assaults_raids_and_scrambles_are_written_and_accepted(played):
    """The generator's richer orders reach the engine: over two rounds of the G40 maps, troops board and land from
    the sea, bombers raid, battles get retreat conditions, standing scrambles are filed."""
    tally = legal_turns.Tally()
    for game in ("g40", "g40-alt-universe"):
        tally.add(played[game][0])
    for kind in ("cm amphibious", "bomb", "ncm board", "scramble", "retreat", "buy", "war"):
        assert tally.accepted[kind], (kind, tally.summary())
    assert tally.events["amphibious landings"] and tally.events["raids"], tally.summary()


def test_refused_lines_are_dropped_and_errors_of_the_whole_turn_drop_placements_first():
    lines = ["buy 2 infantry", "cm 1 armour A > B", "ncm 1 fighter B > C", "place 2 infantry A", "end"]
    assert legal_turns.drop_refused(lines, [OrderError("illegal", "no", 2)]) == [
        "buy 2 infantry", "ncm 1 fighter B > C", "place 2 infantry A", "end"]
    assert legal_turns.drop_refused(lines, [OrderError("illegal", "short")]) == [
        "buy 2 infantry", "cm 1 armour A > B", "ncm 1 fighter B > C", "end"]


def test_an_exception_other_than_a_refusal_is_recorded_as_an_internal_error():
    tally = legal_turns.Tally()
    calls = []

    def submitter(text: str) -> None:
        calls.append(text)
        if len(calls) == 1:
            raise SubmissionRejected([OrderError("illegal", "refused", 1)])
        raise KeyError("landing")

    with pytest.raises(legal_turns.InternalError):
        legal_turns.submit_legal(None, "Germans", ["cm 1 armour A > B", "ncm 1 armour B > C", "end"], tally,
                                 {"game": "g40", "seed": 1}, submitter=submitter)
    assert calls[1] == "ncm 1 armour B > C\nend\n"          # the refused line was dropped, the rest resubmitted
    [error] = tally.internal_errors
    assert error["error"] == "KeyError: 'landing'" and error["orders"] == calls[1] and "Traceback" in error["traceback"]


@pytest.mark.parametrize("code, recorded", [(1, False), (3, True)])
def test_the_cli_submitter_tells_a_refusal_from_an_internal_error(code, recorded):
    tally = legal_turns.Tally()
    refusal = json.dumps({"accepted": False, "errors": [OrderError("illegal", "no", 1).to_dict()]})
    answers = iter([(code, refusal if code == 1 else "internal error: KeyError: 'landing'"), (0, "{}")])
    send = legal_turns._cli_submitter(lambda args, stdin=None: next(answers), "g.db", "Germans", tally, {})
    try:
        accepted = legal_turns.submit_legal(None, "Germans", ["cm 1 armour A > B", "end"], tally,
                                            {"game": "g40", "seed": 1}, submitter=send)
    except legal_turns.InternalError:
        accepted = None
    assert bool(tally.internal_errors) == recorded
    if not recorded:
        assert accepted == ["end"] and tally.refused["illegal"] == 1


def test_the_classic_maps_play_their_own_turns(played):
    """On the classic maps no `war` is written (they have no politics step), the Australians buy in the British
    turn and place in their own, China places the infantry its turn gives it (CL-16)."""
    europe, pacific = played["classic-europe"][0], played["classic-pacific"][0]
    assert not europe.written["war"] and not pacific.written["war"]
    assert pacific.events["rule"], pacific.summary()                   # CL-16: China's infantry given
    for tally in (europe, pacific):
        assert tally.accepted["cm amphibious"] and tally.events["sea battles"], tally.summary()
