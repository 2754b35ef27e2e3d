"""Whatever a player pastes, the parser answers with a ParseResult whose errors point inside the text; and
every order it reads prints a canonical form that reads back as the same order."""

from dataclasses import replace

from g40_names import g40_names_scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.errors import AMBIGUOUS, ILLEGAL, INVALID
from adjudicator.notation import Lexicon, Line, ParseResult, clean_text, parse_submission
from adjudicator.scenario import PHASES

G40 = Lexicon.from_scenario(g40_names_scenario())

VALID = """\
game: league-7
power: Germans
round: 3
[code]
buy 3 inf, 2 arm 1 ftr
repair 2 G5 factory
war USSR
cm 2 mech infantry, 1 tac G5 > G6 > R3
cm 1 trn, 2 inf sz 112 > 113 Sea Zone > G8
bomb 2 bmb G1 > R3 factory
retreat R3 > G6 after round 2 if attackers < 3
ool R3: inf, art, arm
ool inf, mech, arm, ftr
scramble UK1 > sz 110 max 2
submerge never
ncm 2 tanks UK 19 -> UK12
place 3 infs, 1 ic G5
salt abc 123
end
[/code]
-- 
Hans
"""

NOISE = list("> <:,#[]`~-\u2192\u00a0\u200b\t\r\n\"'0123456789xX") + [
    "[code]", "[/code]", "[quote]", "[/quote]", "```", "\r\n", "> ", "-- \n", "\U0001f600", "\ufe0f", "sz",
    "Sea Zone", "UK 1", "inf", "tank", "end\n", "buy", "cm ", "move", "\u00e9", "\u0663", "\u00b2", "9" * 30,
]


def check(text: str, result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    cleaned = clean_text(text)
    n_lines = len(text.splitlines())
    for e in result.errors:
        assert e.kind in (INVALID, ILLEGAL, AMBIGUOUS)
        assert 1 <= e.line <= n_lines
        assert Line(e.line, e.source) in cleaned
        assert 1 <= e.column <= len(e.source) + 1
        assert e.message
    for order in result.submission.orders:
        assert order.phase in ("", *PHASES)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.sampled_from(["purchase", "combat_move", "battle", "place", "end_turn"]))
def test_random_text_never_raises(text, start):
    check(text, parse_submission(text, G40, start_phase=start))


@st.composite
def mutated(draw) -> str:
    text = VALID
    for _ in range(draw(st.integers(1, 8))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(NOISE) | st.text(min_size=1, max_size=3))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 6)):]
        else:
            text = text[:i] + piece + text[i + len(piece):]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_submissions_never_raise(text):
    check(text, parse_submission(text, G40))


def test_the_unmutated_submission_is_valid():
    result = parse_submission(VALID, G40)
    assert result.errors == []
    assert len(result.submission.orders) == 15


# -- canonical round trip on generated orders ----------------------------------------------------------

UNITS = st.sampled_from(["inf", "art", "mech", "arm", "tank", "ftr", "tac", "bmb", "trn", "sub", "dd", "ca", "cv",
                         "bb", "aa", "mech infantry", "tactical bomber", "aaGun", "infantryC", "Battleships"])
LAND = st.sampled_from(["G5", "g6", "UK 19", "R12", "IN 3", "PA10", "US1", "C7", "F22"])
SEA = st.sampled_from(["sz76", "SZ 1", "110 Sea Zone", "Sea Zone 127", "42 sea zone"])
PLACES = LAND | SEA
# `salt: x` reads as `salt x`, so a salt cannot start with a colon.
SALT = st.text(st.characters(min_codepoint=33, max_codepoint=126, exclude_characters="#"), min_size=1).filter(
    lambda s: not s.startswith(":"))


@st.composite
def unit_list(draw) -> str:
    items = [f"{draw(st.sampled_from(['', '1 ', '3 ', '12 ', '2x ']))}{draw(UNITS)}"
             for _ in range(draw(st.integers(1, 4)))]
    return draw(st.sampled_from([", ", " "])).join(items)


@st.composite
def order_line(draw) -> str:
    path = " > ".join(draw(st.lists(PLACES, min_size=2, max_size=4)))
    return draw(st.sampled_from([
        f"buy {draw(unit_list())}",
        f"repair {draw(st.integers(1, 20))} {draw(LAND)} {draw(st.sampled_from(['', 'factory', 'af', 'nb', 'major']))}",
        f"war {draw(st.sampled_from(['Russia', 'USSR', 'United Kingdom', 'anzac', 'FRA', 'Pro Axis']))}",
        f"cm {draw(unit_list())} {path}",
        f"ncm {draw(unit_list())} {path}",
        f"bomb {draw(unit_list())} {path} {draw(st.sampled_from(['', 'factory', 'airfield', 'harbor']))}",
        f"retreat {draw(PLACES)} > {draw(PLACES)} {draw(st.sampled_from(['', 'after round 2', 'if attackers < 4']))}",
        f"ool {draw(st.sampled_from(['', 'G5: ', 'sz 76: ']))}{', '.join(draw(st.lists(UNITS, min_size=1, max_size=5)))}",
        f"place {draw(unit_list())} {draw(PLACES)}",
        f"scramble {draw(LAND)} > {draw(SEA)} {draw(st.sampled_from(['', 'max 0', 'max 3']))}",
        f"submerge {draw(st.sampled_from(['always', 'never']))}",
        f"salt {draw(SALT)}",
    ]))


@settings(max_examples=300, deadline=None)
@given(order_line())
def test_generated_orders_read_and_their_canonical_form_reads_back(line):
    result = parse_submission(line, G40)
    assert result.errors == [], [e.render() for e in result.errors]
    (order,) = result.submission.orders
    again = parse_submission(order.canonical(), G40)
    assert again.errors == [], [e.render() for e in again.errors]
    assert replace(again.submission.orders[0], source="") == replace(order, source="")
