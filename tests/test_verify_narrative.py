"""`verify` checks what the reader reads (issue 32 item 5): every die the battle narrative prints is compared with
the dice block, in Markdown, BBCode and text, in a report split into parts, and in reports of earlier templates;
a die changed in the narrative alone is caught and its line named."""

from __future__ import annotations

import re

import pytest
from played_game import play
from test_verify import VARIANTS
from sqlmodel import Session

from adjudicator.report import render
from adjudicator.report_parts import render_parts
from adjudicator.store.db import open_existing

ROUND = re.compile(r"Round \d+, attacker: .*@\d+: (\d)")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    engine = open_existing(str(play(tmp_path_factory.mktemp("played"))))
    yield engine
    engine.dispose()


def report(game, turn: int, fmt: str) -> str:
    with Session(game) as s:
        return render(s, turn, fmt)


def verify(cli, tmp_path, text: str, code: int = 0) -> str:
    path = tmp_path / "post.txt"
    path.write_text(text, encoding="utf-8")
    return cli("verify", path, code=code).output


def change_narrative_die(text: str) -> tuple[str, int]:
    """The text with the first die of the first attacker's roll the narrative prints changed (the dice block
    untouched), and the 1-based number of that line."""
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if ROUND.search(line))
    found = ROUND.search(lines[k])
    die = found.group(1)
    lines[k] = lines[k][:found.start(1)] + str(int(die) % 6 + 1) + lines[k][found.end(1):]
    return "\n".join(lines), k + 1


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_a_die_changed_in_the_narrative_is_caught_with_its_line(cli, tmp_path, game, fmt):
    text = report(game, 1, fmt)
    honest = verify(cli, tmp_path, text)
    assert "battle roll(s) agree with it" in honest and "Checked: the dice printed in the battle narrative" in honest
    changed, line = change_narrative_die(text)
    out = verify(cli, tmp_path, changed, code=1)
    assert "DOES NOT CHECK OUT" in out
    assert re.search(rf"line {line}: the narrative prints the dice of Round \d+, attacker in [^,]+ as .*, but the dice "
                     r"block's group battle:.+:attacker \(line \d+\) holds", out), out


def test_unit_words_with_spaces_are_read_on_the_structure(cli, tmp_path, game):
    """A game or a host may call a unit `mech infantry`: the narrative is read after each `@N:`, not by name."""
    text = report(game, 1, "markdown").replace("mech_infantry", "mech infantry")
    assert "mech infantry@1" in text
    assert "all match" in verify(cli, tmp_path, text)
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if "mech infantry@1: " in line and "Round" in line)
    lines[k] = re.sub(r"(mech infantry@1: )(\d)", lambda m: m[1] + str(int(m[2]) % 6 + 1), lines[k])
    assert f"line {k + 1}: the narrative prints" in verify(cli, tmp_path, "\n".join(lines), code=1)


def test_split_parts_are_checked_alone_and_together(cli, tmp_path, game):
    with Session(game) as s:
        parts = render_parts(s, 1, "markdown", 3000)
    assert len(parts) > 1
    alone = [verify(cli, tmp_path, part) for part in parts]
    assert all("DOES NOT" not in out for out in alone)
    together = "\n\n".join(parts)
    assert "DOES NOT" not in verify(cli, tmp_path, together)
    k = next(i for i, part in enumerate(parts) if ROUND.search(part))
    changed, line = change_narrative_die(parts[k])
    before = sum(len(p.split("\n")) for p in parts[:k]) + k       # the lines of the parts pasted before it
    pasted = "\n\n".join(parts[:k] + [changed] + parts[k + 1:])
    assert f"line {before + line}: the narrative prints" in verify(cli, tmp_path, pasted, code=1)


def test_a_part_whose_rolls_are_in_another_parts_block_says_so(cli, tmp_path, game):
    """A part's narrative whose dice went to another part's block cannot be checked alone: verify says so plainly,
    and does not call it wrong."""
    with Session(game) as s:
        parts = render_parts(s, 1, "markdown", 3000)
    narrative_only = next((p for p in parts if ROUND.search(p) and "battle:" not in p), None)
    if narrative_only is None:          # every part carries its own rolls' dice: make one that does not
        narrative_only = re.sub(r"^battle:.*\n", "", parts[0], flags=re.M)
        narrative_only = re.sub(r"holds: \d+ groups, \d+ dice", "holds: 0 groups, 0 dice", narrative_only)
    out = verify(cli, tmp_path, narrative_only)
    assert "are in no dice block pasted" in out and "paste every part to check them" in out


def test_reports_of_earlier_templates_still_verify(cli, tmp_path, game):
    """Before dice were grouped by unit, a round read `Round 1, attacker: 2 1 2 1 4 1 5 (5 hits)`: no `@N:` list,
    so the narrative is not read back, and the report checks out on its dice block."""
    text = report(game, 1, "markdown")
    older = re.sub(r"(Round \d+, (?:attacker|defender)): (.*) → (\d+ hits?)",
                   lambda m: f"{m[1]}: {' '.join(re.findall(r'@[0-9]+: ([0-9 ]+)', m[2]))} ({m[3]})", text)
    assert older != text and "@" not in "".join(line for line in older.splitlines() if line.startswith("- Round"))
    out = verify(cli, tmp_path, older)
    assert "all match" in out and "DOES NOT" not in out


@pytest.mark.parametrize("fmt, variant", VARIANTS, ids=[f"{fmt}-{k}" for k, (fmt, _) in enumerate(VARIANTS)])
def test_the_narrative_is_read_back_however_the_forum_gave_the_post_back(cli, tmp_path, game, fmt, variant):
    """NodeBB's HTML, quotes in a reply or a mail, CRLF and no-break spaces: the narrative's rolls are still read
    back, and a die changed in it is still caught."""
    text = report(game, 1, fmt)
    rolls = len(ROUND.findall(text))
    assert f"the narrative's {2 * rolls} battle roll(s) agree with it" in verify(cli, tmp_path, variant(text))
    assert "the narrative prints the dice of Round" in verify(cli, tmp_path, variant(change_narrative_die(text)[0]),
                                                              code=1)
