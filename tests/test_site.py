"""`adjudicator site`: a game's static web site, built from a played demo game, in-process (the browser's side is
tests/test_site_browser.py). What a host relies on: every adjudicated turn has its page with its report, orders
and dice; a rebuild after a turn rewrites only what changed; a folder holding anything else is refused, and
nothing is ever written outside the folder."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import TEST_SEED, own_folder
from played_game import GAME_ID, LAST_TURN, play


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    with own_folder(folder):
        return play(folder)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_turn_has_its_page_with_orders_and_dice_as_the_game_rolled_them(cli, played, tmp_path):
    out = tmp_path / "site"
    said = cli("site", played, "-o", out).stdout
    assert f"site of game {GAME_ID}" in said and f"{LAST_TURN} turn page(s)" in said
    index = (out / "index.html").read_text()
    links = re.findall(r'href="turns/(\d+)\.html"', index)
    assert sorted(map(int, links)) == list(range(1, LAST_TURN + 1))
    assert "Awaiting orders from Germans." in index
    status = cli.json("status", played)
    for power, p in status["powers"].items():
        assert re.search(rf"<td>{power}</td><td class=\"num\">{p['treasury']}</td><td class=\"num\">{p['income']}</td>", index)
    rolls = cli.json("rolls", played)
    for turn in range(1, LAST_TURN + 1):
        page = (out / "turns" / f"{turn}.html").read_text()
        shown = [(label, [int(v) for v in re.findall(r'<span class="die">(\d+)</span>', values)])
                 for label, values in re.findall(r'<tr data-label="([^"]+)" data-sides="\d+">(.*?)</tr>', page)]
        assert shown == [(g["label"], g["values"]) for g in rolls if g["turn"] == turn], turn
        for sha in {g["orders_sha256"] for g in rolls if g["turn"] == turn}:
            assert sha in page
        seed = next((g["seed"] for g in rolls if g["turn"] == turn), None)
        if seed:
            assert f'data-seed="{seed}"' in page
        assert f'src="../maps/after-{turn}.png"' in page
        assert (out / "maps" / f"after-{turn}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'data-seed=""' in (out / "turns" / f"{LAST_TURN}.html").read_text()     # not revealed until the turn is over


def test_a_rebuild_rewrites_only_what_changed_and_a_new_turn_costs_its_own_pages(cli, played, tmp_path):
    db, out = tmp_path / "game.db", tmp_path / "site"
    shutil.copy(played, db)
    shutil.copytree(played.parent / "keys", tmp_path / "keys")
    cli("site", db, "-o", out)
    before = files_of(out)
    assert json.loads(cli("site", db, "-o", out, "--json").stdout)["written"] == []
    assert files_of(out) == before
    with own_folder(tmp_path):
        for power in ("Germans", "Russians"):        # the turn in progress ends, and one more is played
            cli("submit", db, "--power", power, "-", input="end\n")
            cli("adjudicate", db)
        written = json.loads(cli("site", db, "-o", out, "--json").stdout)["written"]
    new = LAST_TURN + 1
    # the turn in progress ended with no move: its page is written again (its seed is revealed), its picture is
    # drawn again but shows what it showed, so its file is left as it was
    assert sorted(written) == sorted([f"turns/{LAST_TURN}.html", f"turns/{new}.html", f"maps/after-{new}.png",
                                      "index.html"])
    after = files_of(out)
    assert {name for name in after if after[name] != before.get(name)} - {".adjudicator-site.json"} == set(written)


def test_a_game_with_no_adjudicated_turn_gets_an_index_that_says_so(cli, demo_db, tmp_path):
    out = tmp_path / "site"
    cli("site", demo_db, "-o", out)
    index = (out / "index.html").read_text()
    assert 'id="no-turns"' in index and "No turn has been adjudicated yet" in index
    assert not (out / "turns").exists()
    assert 'src="maps/now.png"' in index and (out / "maps" / "now.png").is_file()    # the starting position


def test_a_folder_holding_other_files_or_another_games_site_is_refused_and_left_alone(cli, played, demo_db, tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine")
    out = cli("site", played, "-o", theirs, code=2)
    assert "holds other files (notes.txt)" in out.output and "Traceback" not in out.output
    assert files_of(theirs) == {"notes.txt": b"mine"}

    other = tmp_path / "other"
    cli("site", demo_db, "-o", other)
    before = files_of(other)
    out = cli("site", played, "-o", other, code=2)
    assert f"the site of another game (t1" in out.output and f"not of {GAME_ID}" in out.output
    assert files_of(other) == before

    afile = tmp_path / "a.html"
    afile.write_text("x")
    assert "that is a file" in cli("site", played, "-o", afile, code=2).output


def test_a_symlink_in_the_folder_that_leads_out_is_refused_and_nothing_is_written_outside(cli, played, tmp_path):
    out, outside = tmp_path / "site", tmp_path / "outside"
    outside.mkdir()
    cli("site", played, "-o", out)
    shutil.rmtree(out / "turns")
    (out / "turns").symlink_to(outside, target_is_directory=True)
    said = cli("site", played, "-o", out, code=2).output
    assert "turns in the site's folder is a symbolic link" in said
    assert list(outside.iterdir()) == []
