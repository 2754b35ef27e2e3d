"""Turn reports as players read them: golden files of a scripted demo game in every format, Markdown parsed as
NodeBB's Markdown parser reads it, balanced BBCode, posts split under a length that each verify on their own,
and the dice block's count of what it holds.

`ADJUDICATOR_UPDATE_GOLDEN=1 pytest tests/test_reports.py` rewrites the golden files after a deliberate change
of the reports; read the diff before committing it.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
from pathlib import Path

import pytest
from sqlmodel import Session

from adjudicator import verify
from adjudicator.report import length
from adjudicator.report_parts import render_parts
from adjudicator.store.db import open_existing
from conftest import TEST_SEED
from older_schema import as_schema
from report_checks import check, markdown as _markdown

GOLDEN = Path(__file__).parent / "golden"
EXT = {"markdown": "md", "bbcode": "bbcode", "text": "txt"}

GERMANS_COMBAT = """\
power: Germans
round: 1
buy 2 inf, 1 arm
cm 3 inf, 1 art, 1 arm Poland > Belarus
cm 2 ftr Germany > Poland > Belarus
cm 2 inf, 1 mech East Prussia > Baltic States
retreat Baltic States > East Prussia if attackers < 2
ool Belarus: art, inf
"""
GERMANS_REST = """\
power: Germans
round: 1
ncm 2 ftr Belarus > Poland
ncm 2 inf Germany > Poland
place 2 inf, 1 arm Germany
end
"""
RUSSIANS = """\
power: Russians
round: 1
buy 4 inf
cm 3 inf, 1 art Ukraine > Romania
ncm 2 inf Moscow > Smolensk
place 3 inf Moscow
place 1 inf Leningrad
end
"""


@pytest.fixture
def golden_game(cli, tmp_path) -> Path:
    """Two turns of the demo: a standing order of loss, a battle's own, a turn adjudicated in two steps, and a host
    correction between the turns."""
    db = tmp_path / "golden.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "golden")
    cli("submit", db, "--power", "Russians", "-", input="ool inf, art, arm\n")
    cli("submit", db, "--power", "Germans", "-", input=GERMANS_COMBAT)
    cli("adjudicate", db)
    cli("submit", db, "--power", "Germans", "-", input=GERMANS_REST)
    cli("adjudicate", db)
    cli("edit", db, "-", "--reason", "Italians' late bonus, agreed by all", input="pus Italians 20\n")
    cli("submit", db, "--power", "Russians", "-", input=RUSSIANS)
    cli("adjudicate", db)
    return db


def reports(cli, db: Path, fmt: str) -> dict[int, str]:
    return {turn: cli("report", db, "--turn", turn, "--format", fmt).stdout for turn in (1, 2)}


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_reports_match_the_golden_files(cli, golden_game, fmt):
    for turn, text in reports(cli, golden_game, fmt).items():
        path = GOLDEN / f"demo-turn{turn}.{EXT[fmt]}"
        if os.environ.get("ADJUDICATOR_UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: rerun with ADJUDICATOR_UPDATE_GOLDEN=1 if deliberate"


def test_a_report_says_what_players_rely_on(cli, golden_game):
    first, second = reports(cli, golden_game, "markdown").values()
    assert "dice: normal, test seed" in first and "seed revealed `" in first
    assert "- `ool Belarus: artillery, infantry`" in first                       # the orders as understood
    assert "Round 1, attacker: 1 armour@3:" in first                             # dice by unit group, with the number needed
    assert "order for this battle `artillery, infantry`" in first                # which order of loss chose the casualties
    assert "Russians' standing order `infantry, artillery, armour`" in first
    assert "| Germans |" in first and "| Italians | 12 |" in first               # the treasury table after the turn
    assert "The host corrected the game (Italians' late bonus, agreed by all)" in second
    assert "| Italians | 20 |" in second
    assert "Next: round 1, the Italians, purchase." in second


def test_a_report_of_a_turn_half_played_says_whose_orders_come_next(cli, tmp_path):
    db = tmp_path / "half.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "half")
    cli("submit", db, "--power", "Germans", "-", input=GERMANS_COMBAT)
    text = cli("adjudicate", db).stdout
    assert "Next: orders from the Germans for their non-combat move (round 1)." in text
    assert "the seed of turn 1 is revealed when the turn is over" in text


def test_markdown_reports_render_as_meant(cli, golden_game):
    for turn, text in reports(cli, golden_game, "markdown").items():
        tokens = _markdown().parse(text)
        kinds = [t.type for t in tokens]
        assert "code_block" not in kinds, "an indented line became a code block"
        fences = [t for t in tokens if t.type == "fence"]
        assert len(fences) == 1 and fences[0].content.startswith("adjudicator dice\n")
        assert "table_open" in kinds
        cells = [t.children[0].content for t in tokens if t.type == "inline" and t.map and t.level >= 4]
        assert "Germans" in cells
        headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
        assert headings[0].startswith("Demo: Eastern Front 1941") and "Dice" in headings and "After the turn" in headings
        html = _markdown().render(text)
        assert "<pre><code>adjudicator dice" in html
        assert not re.search(r"^( {4}|\t)", text, re.M)


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_reports_are_clean_in_each_format(cli, golden_game, fmt):
    """Balanced BBCode, no Markdown outside Markdown, no identifier of the game's in the words (report_checks)."""
    for text in reports(cli, golden_game, fmt).values():
        check(text, fmt)
        assert "[list]\n[/list]" not in text


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_a_long_report_splits_into_numbered_parts_that_each_verify(golden_game, fmt):
    """A part repeats the header and the dice block's head, so no split has fewer parts than the whole report's
    length over the limit: the split uses the room and reaches that. Each part's battles have their dice in its
    own block, so a part posted alone has its narrative's dice checked too."""
    engine = open_existing(str(golden_game))
    with Session(engine) as s:
        whole = render_parts(s, 1, fmt, 100_000)
        parts = render_parts(s, 1, fmt, 3600)
    assert len(whole) == 1
    assert 4400 < length(whole[0])
    assert len(parts) == math.ceil(length(whole[0]) / 3600) == 2
    groups = []
    for k, part in enumerate(parts, 1):
        assert length(part) <= 3600
        assert f"(part {k} of {len(parts)})" in part
        blocks = verify.check(part)
        assert [b.status for b in blocks] == ["match"], (k, [b.problems for b in blocks])
        if fmt == "markdown":       # what `post` sends: here every battle fits in a part with its dice
            assert blocks[0].narrative_elsewhere == 0 and blocks[0].narrative_checked == len(blocks[0].groups)
        groups += [g.label for g in blocks[0].groups]
    pasted = verify.check("\n\n".join(parts))
    assert sum(b.narrative_checked for b in pasted) == len(groups) and not any(b.narrative_elsewhere for b in pasted)
    assert groups == [g.label for g in verify.check(whole[0])[0].groups]
    assert sum("After the turn" in p for p in parts) == 1


def test_too_small_a_limit_is_refused(golden_game):
    from adjudicator.errors import AdjudicatorError
    engine = open_existing(str(golden_game))
    with Session(engine) as s, pytest.raises(AdjudicatorError, match="too few"):
        render_parts(s, 1, "markdown", 300)


def test_a_lost_or_cut_dice_line_is_an_error_and_a_wrapped_one_still_checks(cli, golden_game):
    text = cli("report", golden_game, "--turn", 1, "--format", "text").stdout
    lines = text.splitlines()
    dice_line = next(i for i, line in enumerate(lines) if line.startswith("battle:Belarus:r1:attacker"))
    lost = "\n".join(lines[:dice_line] + lines[dice_line + 1:])
    blocks = verify.check(lost)
    assert blocks[0].status == "mismatch" and "a dice line is missing or cut" in blocks[0].problems[0]
    values_end = lines[dice_line].index(" | ", lines[dice_line].index("| d6 |") + 5)
    cut = lines[dice_line][:values_end - 4] + "\n" + lines[dice_line][values_end - 4:].lstrip()
    wrapped = "\n".join(lines[:dice_line] + [cut] + lines[dice_line + 1:])
    assert [b.status for b in verify.check(wrapped)] == ["match"]
    reflowed = "\n".join(lines[:dice_line]).replace("anchor: ", "anchor:\n")
    reflowed += "\n" + "\n".join(lines[dice_line:])
    assert [b.status for b in verify.check(reflowed)] == ["match"]


def test_the_standings_are_in_the_setups_turn_order_whatever_the_power_table_says(cli, golden_game):
    """`audit` replays the turn order from the setup, not from the power table's copy of it: a hand edit of that
    copy must not reorder what a report shows (it once did, with `audit` still OK)."""
    before = reports(cli, golden_game, "markdown")
    with sqlite3.connect(golden_game) as con:
        con.execute("update power set turn_order = 5 where name = 'Germans'")
        con.execute("update power set turn_order = -7 where name = 'Italians'")
    assert reports(cli, golden_game, "markdown") == before
    rows = [line.split("|")[1].strip() for line in before[2].splitlines() if re.match(r"\| (Germans|Russians|Italians) ", line)]
    assert rows == ["Germans", "Russians", "Italians"]
    assert "OK:" in cli("audit", golden_game).output


def test_a_bad_format_is_refused_before_anything_is_adjudicated(cli, tmp_path):
    db = tmp_path / "f.db"
    cli("new", db, "--game", "demo", "--seed", TEST_SEED, "--id", "f")
    cli("submit", db, "--power", "Germans", "-", input=GERMANS_COMBAT)
    out = cli("adjudicate", db, "--format", "html", code=2)
    assert "--format takes markdown, bbcode, text, not 'html'" in out.output
    assert cli.json("status", db)["awaiting"] == "adjudicate"


def test_audit_accepts_a_report_stored_by_earlier_templates_but_not_other_dice(cli, golden_game):
    as_schema(golden_game, 4)       # before schema 5 kept the templates' version: the report may be of older ones
    with sqlite3.connect(golden_game) as con:
        (rid, text), = con.execute("select id, text from report where turn_index = 2").fetchall()
        older = "\n".join(line for line in text.splitlines() if not line.startswith("holds: "))
        older = older.replace("### After the turn", "### Standings")
        con.execute("update report set text = ? where id = ?", (older, rid))
    cli("audit", golden_game)
    with sqlite3.connect(golden_game) as con:
        forged = re.sub(r"(battle:Romania:r1:attacker \| d6 \| )(\d)", lambda m: m[1] + str(7 - int(m[2])), older)
        con.execute("update report set text = ? where id = ?", (forged, rid))
    assert "report" in cli("audit", golden_game, code=1).stdout


def test_units_bought_and_not_placed_and_lost_are_named_in_the_report():
    """CL-09: the classic family's `unplaced_lost` event has its own sentence, not the raw event."""
    from adjudicator.report import describe
    assert describe({"type": "unplaced_lost", "power": "British", "units": {"infantry": 1}}) == [
        "Bought but not placed, lost (not refunded): 1 infantry of the British."]


def test_a_penalty_objective_not_triggered_says_no_penalty():
    """europe_improved's Soviet Convoy Center objective is worth -4: missed, it costs nothing, and says so."""
    from adjudicator.report import objective_phrase
    line = {"name": "Soviet Convoy Center Eliminated", "value": -4, "paid": 0}
    assert objective_phrase(line) == ("National objective not triggered: Soviet Convoy Center Eliminated (no penalty "
                                      "of -4 PUs).")
    assert objective_phrase({**line, "paid": -4}) == "National objective met: Soviet Convoy Center Eliminated, -4 PUs."


def test_a_unit_keeping_the_best_of_two_dice_shows_its_dice_together():
    """Long Range Bombers (Expanded Global EG-42): each bomber's two dice are read as one pair, so a reader does not
    pair the first die of one bomber with the first of the next."""
    from adjudicator.report import grouped_dice
    line = grouped_dice({"units": ["bomber@4 best of 2"] * 4 + ["infantry@1"], "values": [2, 3, 6, 6, 1], "hits": 2})
    assert line == "2 bombers@4 best of 2: (2 3) (6 6); 1 infantry@1: 1 → 2 hits"
