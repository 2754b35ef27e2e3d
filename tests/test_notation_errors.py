"""Malformed submissions: every error says which kind, where (line of the pasted text, column of the cleaned
line) and what went wrong, and a submission reports all of its errors at once."""

import pytest
from g40_names import demo_scenario, g40_names_scenario

from adjudicator.errors import AMBIGUOUS, ILLEGAL, INVALID, SubmissionRejected
from adjudicator.notation import Lexicon, Line, clean_text, parse_submission

G40 = Lexicon.from_scenario(g40_names_scenario())
DEMO = Lexicon.from_scenario(demo_scenario())

# (text, kind, line, column, fragment of the message)
CASES = [
    # orders and units
    ("byu 3 inf", INVALID, 1, 1, "unknown order 'byu': did you mean buy?"),
    ("3 inf G5 > G6", INVALID, 1, 1, "unknown order '3'"),
    ("buy", INVALID, 1, 4, "expected a unit count or unit name"),
    ("buy 3", INVALID, 1, 6, "expected a unit name"),
    ("buy 0 inf", INVALID, 1, 5, "a count must be at least 1"),
    ("buy 3 infx", INVALID, 1, 7, "unknown unit 'infx': did you mean infantry"),
    ("buy 3 inf,, 2 arm", INVALID, 1, 11, "expected a unit count or unit name"),
    ("buy 3 inf,", INVALID, 1, 11, "expected a unit count or unit name"),
    ("buy 3 inf G5", INVALID, 1, 11, "'G5' is a place, not a unit"),
    ("buy 99999999999 inf", INVALID, 1, 5, "number too large"),
    ("buy \u0663x inf", INVALID, 1, 5, "unknown unit '\u0663x'"),       # Arabic-Indic 3: a count is ASCII digits
    ("buy 3 inf \U0001f44d 2 arm", INVALID, 1, 11, "unknown unit '\U0001f44d'"),
    ("buy 3 bbq", INVALID, 1, 7, "unknown unit 'bbq'"),
    # paths
    ("cm G5 > G6", INVALID, 1, 4, "'G5' is a place, not a unit"),
    ("cm 3 inf G5", INVALID, 1, 12, "expected '>' and the next place after G5"),
    ("cm 3 inf G5 G6", INVALID, 1, 13, "expected '>' between places"),
    ("cm 3 inf Gg5 > G6", INVALID, 1, 10, "unknown place 'Gg5': did you mean G5"),
    ("cm 3 inf G5 > Gx6", INVALID, 1, 15, "unknown place 'Gx6'"),
    ("cm 3 inf G5 > > G6", INVALID, 1, 15, "expected a place after '>'"),
    ("cm 3 inf G5 >", INVALID, 1, 14, "expected a place after '>'"),
    ("cm 3 inf amr G5 > G6", INVALID, 1, 10, "unknown unit 'amr'"),
    ("cm 3 inf", INVALID, 1, 9, "expected a place after the units"),
    ("cm 3 inf G5 > G6 foo", INVALID, 1, 18, "unexpected 'foo'"),
    ("cm 3 inf G5 foo > G6", INVALID, 1, 13, "unexpected 'foo' after G5"),
    ("ncm 1 trn sz 76 > sz 999", INVALID, 1, 19, "unknown place 'sz 999'"),
    ("place 3 inf G5 > G6", INVALID, 1, 16, "unexpected '>'"),
    ("place 3 inf", INVALID, 1, 12, "expected a place after the units"),
    # other verbs
    ("war", INVALID, 1, 4, "expected a power"),
    ("war Germny", INVALID, 1, 5, "unknown power 'Germny': did you mean Germans?"),
    ("war Uni", AMBIGUOUS, 1, 5, "power 'Uni' is ambiguous: it may be Americans or British"),
    ("declare Russians", INVALID, 1, 9, "expected 'war'"),
    ("repair G5", INVALID, 1, 8, "expected the number of damage points to repair"),
    ("repair 0 G5", INVALID, 1, 8, "a count must be at least 1"),
    ("repair 2 Gx factory", INVALID, 1, 10, "unknown place 'Gx'"),
    ("repair 2 G5 factry", INVALID, 1, 13, "unknown facility 'factry': did you mean factory"),
    ("bomb 2 bmb G1 > G5 G6", INVALID, 1, 20, "expected '>' between places"),
    ("retreat R3", INVALID, 1, 11, "expected '>'"),
    ("retreat R3 > G6 after 2", INVALID, 1, 23, "expected 'round'"),
    ("retreat R3 > G6 if attackers 3", INVALID, 1, 30, "expected '<'"),
    ("retreat R3 > G6 when beaten", INVALID, 1, 17, "expected 'after round N' or 'if attackers < N'"),
    ("retreat R3 > G6 after round 2 after round 3", INVALID, 1, 31, "'after round N' is given twice"),
    ("ool 3 inf", INVALID, 1, 5, "without counts"),
    ("ool R3: inf, tnak", INVALID, 1, 14, "unknown unit 'tnak'"),
    ("ool R3:", INVALID, 1, 8, "expected a unit count or unit name"),
    ("scramble UK1 > sz 110 max", INVALID, 1, 26, "expected the most air units to scramble"),
    ("scramble UK1", INVALID, 1, 13, "expected '>'"),
    ("submerge maybe", INVALID, 1, 10, "expected 'always' or 'never'"),
    ("submerge Atlantis Deep", INVALID, 1, 10, "unknown place 'Atlantis Deep'"),
    ("submerge sz 110 after 2", INVALID, 1, 23, "expected 'round'"),
    ("salt", INVALID, 1, 5, "expected the salt text"),
    ("end now", INVALID, 1, 5, "unexpected 'now'"),
    # the submission as a whole
    ("end\nbuy 3 inf", INVALID, 2, 1, "nothing may follow `end`"),
    ("cm 1 arm G5 > G6\nbuy 3 inf", ILLEGAL, 2, 1, "the purchase phase is already over: orders must come in phase "
                                                  "order (purchase, politics, combat move, noncombat move, place)"),
    ("ncm 1 arm G5 > G6\ncm 1 inf G5 > G6", ILLEGAL, 2, 1, "the combat move phase is already over"),
    ("ncm 1 arm G5 > G6\nretreat R3 > G6", ILLEGAL, 2, 1, "the combat move phase is already over"),
    ("ncm 1 arm G5 > G6\nool R3: inf", ILLEGAL, 2, 1, "the combat move phase is already over"),
    ("place 1 inf G5\nmove 1 arm G5 > G6\n", ILLEGAL, 2, 1, "the noncombat move phase is already over"),
    ("[noncombat move]\n\n[combat move]", ILLEGAL, 3, 1, "the combat move phase is already over"),
    ("[battle]", INVALID, 1, 1, "unknown section '[battle]'"),
    ("buy 1 inf\npower: Germans", ILLEGAL, 2, 1, "headers (game:, power:, round:) must come before the first order"),
    ("round: 2\nround: 3", ILLEGAL, 2, 1, "the round header is given twice"),
    ("round: two", INVALID, 1, 8, "expected a round number"),
    ("power: Martians", INVALID, 1, 8, "unknown power 'Martians'"),
    ("game:", INVALID, 1, 6, "expected the game's id"),
    # line numbers of the text as pasted
    ("Orders:\r\n[code]\r\n\r\nbuy 3 inf\r\ncm 2 amr G5 > G6\r\n[/code]", INVALID, 5, 6, "unknown unit 'amr'"),
    ("> buy 3 inf\n> \n>   cm 2 inf G5 > G6 G7", INVALID, 3, 18, "expected '>' between places"),
    ("# my turn\n\n\tbuy\u00a03 infx  # typo", INVALID, 3, 7, "unknown unit 'infx'"),
]


@pytest.mark.parametrize("text, kind, line, column, fragment", CASES, ids=[c[0] for c in CASES])
def test_malformed(text, kind, line, column, fragment):
    errors = parse_submission(text, G40).errors
    assert len(errors) == 1, [e.render() for e in errors]
    (e,) = errors
    assert (e.kind, e.line, e.column) == (kind, line, column), e.render()
    assert fragment in e.message, e.render()
    assert Line(e.line, e.source) in clean_text(text)


def test_error_source_is_the_cleaned_line_and_the_column_points_into_it():
    (e,) = parse_submission("> >\tcm 2  amr G5 > G6   # attack!", G40).errors
    assert e.source == "cm 2  amr G5 > G6"
    assert e.source[e.column - 1:].startswith("amr")
    assert e.expected == "a unit name"


def test_aliases_of_unit_types_the_game_lacks_are_unknown():
    (e,) = parse_submission("buy 3 bb", DEMO).errors
    assert (e.kind, e.column, e.message) == (INVALID, 7, "unknown unit 'bb'")


def test_unknown_names_carry_their_candidates():
    (e,) = parse_submission("cm 1 inf Gg5 > G6", G40).errors
    assert e.candidates[0] == "G5"
    (e,) = parse_submission("war Uni", G40).errors
    assert sorted(e.candidates) == ["Americans", "British"]


def test_a_units_and_place_run_that_splits_two_ways_is_ambiguous():
    lex = Lexicon.from_scenario(demo_scenario())
    lex.add_place_alias("tank hill", "Poland")
    lex.add_place_alias("hill", "Ukraine")
    (e,) = parse_submission("place 2 inf tank hill", lex).errors
    assert (e.kind, e.column, e.candidates) == (AMBIGUOUS, 7, ["Poland", "Ukraine"])
    assert "2 infantry in Poland; or 2 infantry, 1 armour in Ukraine" in e.message


def test_all_errors_of_a_submission_are_reported_at_once():
    text = """\
power: Germans
buy 3 infx, 2 arm
war Germny
cm 2 arm G5 G6
cm 1 inf G5 > G6
buy 1 inf
ncm 1 ftr G5 > Gq7
place 3 inf G5
end
place 1 art G5
"""
    result = parse_submission(text, G40)
    assert [(e.line, e.kind) for e in result.errors] == [
        (2, INVALID), (3, INVALID), (4, INVALID), (6, ILLEGAL), (7, INVALID), (10, INVALID)]
    assert [o.canonical() for o in result.submission.orders] == [
        "cm 1 infantry G5 > G6", "place 3 infantry G5", "end"]
    rejected = SubmissionRejected(result.errors)
    assert "6 errors" in rejected.message and "line 7, column 16" in rejected.message
