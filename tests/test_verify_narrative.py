"""`verify` checks what the reader reads (issue 32 item 5): every die the battle narrative prints is compared with
the dice block, in Markdown, BBCode and text, in a report split into parts, and in reports of earlier templates;
a die changed in the narrative alone is caught and its line named."""

from __future__ import annotations

import re

import pytest
from conftest import TEST_SEED, Cli, own_folder, play_turns
from narrative_dice import change_die, each_changed_die_is_named, verify
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


def change_narrative_die(text: str) -> tuple[str, int]:
    """The text with the first die of the first attacker's roll the narrative prints changed (the dice block
    untouched), and the 1-based number of that line."""
    return change_die(text, ROUND.pattern)


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_a_die_changed_in_the_narrative_is_caught_with_its_line(cli, tmp_path, game, fmt):
    text = report(game, 1, fmt)
    honest = verify(cli, tmp_path, text)
    assert "battle roll(s) agree with it" in honest
    assert "Checked: the dice printed in the narrative (battle rounds" in honest
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


G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
RAID_AND_CONVOY = """\
power: Germans
round: 1
bomb 2 bmb Germany > Western Germany > 112 Sea Zone > 110 Sea Zone > United Kingdom
ncm 2 bmb United Kingdom > 110 Sea Zone > Holland Belgium
end
"""


@pytest.fixture(scope="module")
def raid_and_convoy(tmp_path_factory, maps_dir):
    """G40, round 1: Germany raids the United Kingdom's major factory (intercepted, its AA firing) and British
    submarines a host put in 125 Sea Zone disrupt Germany's convoy: the report of that turn in each format."""
    cli, folder = Cli(), tmp_path_factory.mktemp("raid")
    db = folder / "g40.db"
    with own_folder(folder):
        cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "g2v")
        (folder / "fix.txt").write_text("add British 2 submarine 125 Sea Zone\n")
        cli("edit", db, folder / "fix.txt", "--reason", "a convoy to disrupt")
        play_turns(cli, db, [("Germans", RAID_AND_CONVOY)])
        return {fmt: cli("report", db, "--turn", 1, "--format", fmt).output for fmt in ("markdown", "bbcode", "text")}


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_every_die_of_a_raid_and_a_convoy_in_the_narrative_is_held_to_the_block(cli, tmp_path, raid_and_convoy, fmt):
    """The reviewer's cases: the raid's air battle (each side), its AA, its damage roll and convoy disruption."""
    text = raid_and_convoy[fmt]
    on = "the raid on the major factory in United Kingdom"
    each_changed_die_is_named(cli, tmp_path, text, {
        r"raiders 2 bombers@1: (\d)": f"the raiders in the air battle of {on}",
        r"interceptors 3 fighters@1: (\d)": f"the interceptors in the air battle of {on}",
        r"AA fires: \d shots? @1: (\d)": f"the AA fire at {on}",
        r"Bombing: (\d)": f"the damage of {on}",
        r"Convoy disruption in 125 Sea Zone against Germany: (\d)": "the convoy disruption in 125 Sea Zone against "
                                                                     "Germany"})
    assert "the narrative's 5 battle roll(s) agree with it" in verify(cli, tmp_path, text)     # 4 of the raid, 1 convoy


def test_a_roll_the_narrative_does_not_read_back_is_named_as_checked_in_the_block_only(cli, tmp_path, game):
    """A roll told in a game's own words, or not at all (here: a round's line cut from the post), is not taken for
    wrong: the group is named, with its line in the block, as checked in the dice block only."""
    text = report(game, 1, "text")
    assert "group(s) checked in the dice block only" not in verify(cli, tmp_path, text)
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if ROUND.search(line))
    cut = "\n".join(lines[:k] + lines[k + 1:])
    block = cut.split("\n")
    label = next(m for m in (re.match(r"(battle:[^|]+:r1:attacker) \|", x) for x in block) if m).group(1)
    at = next(i for i, x in enumerate(block) if x.startswith(label + " |")) + 1
    out = verify(cli, tmp_path, cut)
    assert f"1 group(s) checked in the dice block only (the narrative tells them in a game's own words, which " \
           f"verify does not read back, or not at all): {label} (line {at})" in out, out
    assert cli.json("verify", tmp_path / "post.txt")["blocks"][0]["narrative"]["block_only"] == [label]


def test_raids_on_two_facilities_of_one_place_are_each_held_to_their_own_groups():
    """A place with a major factory and an air base raided in one turn: each raid's dice are held to its own
    facility's groups, by the facility's words where they are the key's (`factory_major`), else in the order the
    raids were rolled, which is the order the narrative tells them in (`airfield` is "the air base")."""
    from adjudicator import verify as checker
    from adjudicator import verify_narrative

    def held(narrative: str) -> list[str]:
        text = (narrative + "\n\nadjudicator dice\ngame: g\nturn: 1\nanchor: " + "a" * 64 + "\n"
                "sbr:Kent:factory_major:aa | d6 | 3 4 | bomber, bomber\n"
                "sbr:Kent:factory_major | d6 | 4 1 | bomber+2, bomber+2\n"
                "sbr:Kent:airfield:aa | d6 | 6 | bomber\nsbr:Kent:airfield | d6 | 2 | bomber+2\n")
        blocks = checker.read_blocks(text)
        verify_narrative.cross_check(blocks, checker.clean(text))
        assert blocks[0].narrative_checked + len(blocks[0].problems) == 4
        return blocks[0].problems

    raids = ["Germany raids the major factory in Kent with 2 bombers.",
             "- The major factory's AA fires: 2 shots @1: 3 4 → 0 hits; lost nothing.",
             "- Bombing: 4 1 → 9 damage, 9 taken (now 9 of at most 20).",
             "Germany raids the air base in Kent with 1 bomber.",
             "- The air base's AA fires: 1 shot @1: 6 → 0 hits; lost nothing.",
             "- Bombing: 2 → 4 damage, 4 taken (now 4 of at most 6)."]
    assert held("\n".join(raids)) == []
    changed = held("\n".join(raids[:5] + ["- Bombing: 4 → 6 damage, 4 taken (now 4 of at most 6)."]))
    assert changed == ["line 6: the narrative prints the dice of the damage of the raid on the air base in Kent as 4, "
                       "but the dice block's group sbr:Kent:airfield (line 15) holds 2 for them"], changed
