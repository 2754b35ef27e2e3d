"""Paste clean-up on posts and mails as players really paste them: the orders come out, with their line numbers."""

import pytest
from g40_names import g40_names_scenario

from adjudicator.notation import Lexicon, Line, clean_text, parse_submission

LEX = Lexicon.from_scenario(g40_names_scenario())


def lines(text: str) -> list[tuple[int, str]]:
    return [(line.number, line.text) for line in clean_text(text)]


def test_plain_text_keeps_line_numbers_and_drops_blanks_and_comments():
    text = "# Germany, round 2\n\nbuy 3 inf   # cheap\n\n\ncm 2 arm G5 > G6\n"
    assert lines(text) == [(3, "buy 3 inf"), (6, "cm 2 arm G5 > G6")]


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n", "\u2028"])
def test_line_endings(newline):
    assert lines(newline.join(["buy 3 inf", "", "cm 2 arm G5 > G6"])) == [(1, "buy 3 inf"), (3, "cm 2 arm G5 > G6")]


def test_tabs_nbsp_unicode_spaces_zero_width_and_fullwidth():
    text = "\ufeff\tbuy\u00a03\u2003inf,\u200b\u202f2 arm\u2060\n\uff43\uff4d 2 arm G5 > G6"
    assert lines(text) == [(1, "buy 3 inf, 2 arm"), (2, "cm 2 arm G5 > G6")]


def test_smart_quotes_and_dashes_become_plain():
    assert lines("salt \u201cit\u2019s mine\u201d\ncm 2 arm G5 \u2013> G6") == [
        (1, "salt \"it's mine\""), (2, "cm 2 arm G5 -> G6")]


def test_quote_markers_also_nested():
    assert lines("> buy 3 inf\n> > cm 2 arm G5 > G6\n>> place 3 inf G5") == [
        (1, "buy 3 inf"), (2, "cm 2 arm G5 > G6"), (3, "place 3 inf G5")]


def test_signature_after_dash_dash_line():
    text = "buy 3 inf\r\ncm 2 arm G5 > G6\r\n-- \r\nHans Mueller\r\nwar Russians  # not an order: the signature\r\n"
    assert lines(text) == [(1, "buy 3 inf"), (2, "cm 2 arm G5 > G6")]


def test_outlook_original_message_is_cut():
    text = "buy 3 inf\n\n-----Original Message-----\nFrom: host\nbuy 9 inf\n"
    assert lines(text) == [(1, "buy 3 inf")]


def test_bbcode_code_block_in_a_forum_post():
    post = (
        "Hi all, Germany's orders for round 2. Sorry for the delay!\r\n"
        "\r\n"
        "[code]\r\n"
        "buy 3 inf, 1 art\r\n"
        "cm 2 arm G5 > G6\r\n"
        "[/code]\r\n"
        "\r\n"
        "Good luck Russia :-)\r\n"
    )
    assert lines(post) == [(4, "buy 3 inf, 1 art"), (5, "cm 2 arm G5 > G6")]


def test_inline_bbcode_tags_and_case():
    assert lines("My orders: [CODE]buy 3 inf[/CODE] thanks") == [(1, "buy 3 inf")]
    assert lines("[code]buy 3 inf\ncm 2 arm G5 > G6[/code]") == [(1, "buy 3 inf"), (2, "cm 2 arm G5 > G6")]


def test_several_code_blocks_are_read_in_order():
    post = "Purchase:\n[code]buy 3 inf[/code]\nand then\n[code]cm 2 arm G5 > G6[/code]\n"
    assert lines(post) == [(2, "buy 3 inf"), (4, "cm 2 arm G5 > G6")]


def test_bbcode_quote_holding_the_orders():
    assert lines("[quote=Hans]\nbuy 3 inf\nplace 3 inf G5\n[/quote]") == [(2, "buy 3 inf"), (3, "place 3 inf G5")]
    assert lines('[quote="Hans" post_id=1234 time=1700000000]buy 3 inf[/quote]') == [(1, "buy 3 inf")]


def test_quoted_previous_post_is_not_read_when_the_reply_has_orders():
    post = "[quote=Boris]\nbuy 10 inf\ncm 3 inf R1 > G1\n[/quote]\nNice try.\n[code]\nbuy 3 inf\n[/code]\n"
    assert lines(post) == [(7, "buy 3 inf")]
    assert lines("[quote=Boris]buy 10 inf[/quote]\nbuy 3 inf\n") == [(2, "buy 3 inf")]


def test_mail_reply_with_the_host_quoted_below():
    mail = (
        "buy 3 inf\r\n"
        "cm 2 arm G5 > G6\r\n"
        "\r\n"
        "On Tue, 3 Mar 2026 at 10:02, Host <host@example.org> wrote:\r\n"
        "> Germans to move, round 3.\r\n"
        "> Treasury: 30 PUs\r\n"
    )
    assert lines(mail) == [(1, "buy 3 inf"), (2, "cm 2 arm G5 > G6")]


def test_markdown_fence_with_info_string_and_tilde_fence():
    post = "Round 3 for Germany:\n\n```text\n\tbuy  3 inf\n```\n\n~~~\ncm 2 arm G5 > G6\n~~~\nCheers"
    assert lines(post) == [(4, "buy  3 inf"), (8, "cm 2 arm G5 > G6")]


def test_fence_inside_a_mail_quote():
    assert lines("> ```\n> buy 3 inf\n> ```\n") == [(2, "buy 3 inf")]


def test_unclosed_code_block_runs_to_the_end():
    assert lines("orders:\n[code]\nbuy 3 inf\n") == [(3, "buy 3 inf")]


def test_emoji_at_the_ends_and_on_their_own_lines_go():
    text = "\u2705 buy 3 inf \U0001f389\n\U0001f680\U0001f680\n\U0001f449\U0001f3fd cm 2 arm G5 \u2192 G6 \u2764\ufe0f\n"
    assert lines(text) == [(1, "buy 3 inf"), (3, "cm 2 arm G5 \u2192 G6")]


def test_formatting_tags_bullets_and_rules_go():
    text = "[b]Purchase[/b]\n- buy 3 inf\n* cm 2 arm G5 > G6\n---\n\u2022 [color=#ff0000]place 3 inf G5[/color]"
    assert lines(text) == [(1, "Purchase"), (2, "buy 3 inf"), (3, "cm 2 arm G5 > G6"), (5, "place 3 inf G5")]


def test_clean_text_returns_lines():
    assert clean_text("buy 3 inf") == [Line(1, "buy 3 inf")]
    assert clean_text("") == []


# -- whole posts through the parser ------------------------------------------------------------------

FORUM_POST = """\
Germany, round 3. Long post, sorry!

[quote=Stalin_42]
cm 10 inf R1 > G1
[/quote]

Not this time, comrade. My orders:

[code]
power: Germans
round: 3

[purchase]
buy 3 inf, 1 art   # rebuilding

[combat move]
cm 2 arm, 1 mech G5 > G6 > R3
move 1 trn, 2 inf sz 112 > 113 Sea Zone
ool R3: inf, mech, arm

[noncombat move]
move 1 ftr G5 > G6
[place]
place 3 inf, 1 art G5
end
[/code]

--
Hans
"""

NODEBB_REPLY = (
    "> **Boris** said:\r\n"
    "> Your move, Germany.\r\n"
    "\r\n"
    "Here we go \U0001f60e\r\n"
    "\r\n"
    "```\r\n"
    "game:\u00a0league-7\r\n"
    "buy\t3\u00a0inf\r\n"
    "cm 2 arm G5 \u2192 G6\r\n"
    "```\r\n"
)

MAIL = (
    "Hi host,\r\n"
    "\r\n"
    "> power: Germans\r\n"
    "> buy 3 inf\r\n"
)


def test_forum_post_with_quote_code_headers_sections_and_signature():
    result = parse_submission(FORUM_POST, LEX)
    assert result.errors == []
    sub = result.submission
    assert (sub.power, sub.round, sub.ended) == ("Germans", 3, True)
    assert [o.canonical() for o in sub.orders] == [
        "buy 3 infantry, 1 artillery",
        "cm 2 armour, 1 mech_infantry G5 > G6 > R3",
        "cm 1 transport, 2 infantry 112 Sea Zone > 113 Sea Zone",
        "ool R3: infantry, mech_infantry, armour",
        "ncm 1 fighter G5 > G6",
        "place 3 infantry, 1 artillery G5",
        "end",
    ]
    assert [o.line for o in sub.orders] == [14, 17, 18, 19, 22, 24, 25]
    assert sub.orders[1].source == "cm 2 arm, 1 mech G5 > G6 > R3"


def test_nodebb_reply_with_fence_nbsp_tabs_and_emoji():
    result = parse_submission(NODEBB_REPLY, LEX)
    assert result.errors == []
    assert result.submission.game == "league-7"
    assert [(o.line, o.canonical()) for o in result.submission.orders] == [
        (8, "buy 3 infantry"), (9, "cm 2 armour G5 > G6")]


def test_chatter_outside_a_code_block_is_an_error_with_the_pasted_line_number():
    result = parse_submission(MAIL, LEX)
    assert [(e.line, e.column, e.source) for e in result.errors] == [(1, 1, "Hi host,")]
