"""The game site opened from disk in headless Chromium (Debian's chromium, driven by Playwright): a real two-round G40
Alt-Universe game (tests/test_au_games.py's script) whose every turn page recomputes its dice in the browser, to the
same values `verify` computes, and says `data-verify="ok"`; a page with one die edited says `fail` and names the die;
the index reaches every turn; the "paste a report" page checks a report as `verify` does. One browser for the
module, one built site (its 18 map pictures drawn for real: some 4 s)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator import verify
from conftest import TEST_SEED, Cli, own_folder
from test_au_games import GAME_ID, ORDER, SCRIPT, Game, germans_2_landing

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def site(tmp_path_factory, maps_dir) -> tuple[Path, Path]:
    """The database of the two-round game and its site (site/), built once."""
    folder = tmp_path_factory.mktemp("au-site")
    cli, db = Cli(), folder / "au.db"
    with own_folder(folder), pytest.MonkeyPatch.context() as env:
        env.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
        cli("new", db, "--game", "g40-alt-universe", "--seed", TEST_SEED, "--id", GAME_ID)
        game = Game(cli, db)
        for rnd, turns in SCRIPT.items():
            for power in ORDER:
                orders = turns[power]
                if callable(orders):
                    game.submit(power, orders(game.now))
                    game.adjudicate(power, rnd)
                    orders = germans_2_landing(game.now)
                game.submit(power, orders)
                game.adjudicate(power, rnd)
        cli("site", db, "-o", folder / "site")
    return db, folder / "site"


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the site's browser tests need Chromium at {CHROMIUM}: apt-get install chromium chromium-driver")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A page whose console errors and uncaught exceptions fail the test."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert errors == []


def turns_of(folder: Path) -> list[int]:
    return sorted(int(p.stem) for p in (folder / "turns").glob("*.html") if p.stem.isdigit())


def test_every_turn_page_verifies_in_the_browser_with_the_dice_verify_computes(site, page):
    db, folder = site
    assert turns_of(folder) == list(range(1, 19))
    cli, rolled = Cli(), 0
    for turn in turns_of(folder):
        page.goto((folder / "turns" / f"{turn}.html").as_uri())
        assert page.get_attribute("body", "data-verify") == "ok", (turn, page.text_content("#verdict"))
        browser_dice = page.eval_on_selector_all(
            "tr[data-label]", "rows => rows.map(r => [r.dataset.label, "
            "Array.from(r.querySelectorAll('.die'), d => Number(d.dataset.expected))])")
        [block] = verify.check(cli("report", db, "--turn", turn).stdout)
        assert browser_dice == [[g.label, g.expected] for g in block.groups], turn
        rolled += sum(len(dice) for _, dice in browser_dice)
    assert rolled > 100         # the game's battles: the comparison held for real dice


def test_a_page_with_one_die_edited_fails_and_names_the_die(site, page):
    _, folder = site
    turn = next(t for t in turns_of(folder) if "battle:" in (folder / "turns" / f"{t}.html").read_text())
    html = (folder / "turns" / f"{turn}.html").read_text()
    row = re.search(r'<tr data-label="([^"]+)" data-sides="6">.*?<span class="die">(\d)</span><span class="die">(\d)</span>',
                    html)
    label, second = row.group(1), int(row.group(3))
    start = row.start(3) - len('<span class="die">')
    edited = html[:start] + html[start:].replace(f'<span class="die">{second}</span>',
                                                 f'<span class="die">{second % 6 + 1}</span>', 1)
    tampered = folder / "turns" / "tampered.html"
    tampered.write_text(edited)
    try:
        page.goto(tampered.as_uri())
        assert page.get_attribute("body", "data-verify") == "fail"
        said = page.text_content("#verdict")
        assert f"die 2 of {label} shows {second % 6 + 1}, the seed gives {second}" in said, said
        assert page.eval_on_selector_all(".die.bad", "ds => ds.length") == 1
    finally:
        tampered.unlink()


def test_the_index_reaches_every_turn_and_each_turn_the_next(site, page):
    _, folder = site
    page.goto((folder / "index.html").as_uri())
    assert "Awaiting orders from Germany." in page.text_content("main")      # players' words, not the map's
    links = page.eval_on_selector_all("ol.turns a", "as => as.map(a => a.textContent)")
    assert len(links) == 18
    reached = set()
    for text in links:
        page.goto((folder / "index.html").as_uri())
        page.get_by_role("link", name=text, exact=True).focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")               # keyboard navigation: a link is reached and followed
        reached.add(int(re.search(r"turns/(\d+)\.html$", page.url).group(1)))
        assert page.get_attribute("body", "data-verify") == "ok"
    assert reached == set(range(1, 19))
    page.goto((folder / "turns" / "1.html").as_uri())
    seen = [1]
    while page.query_selector("a[rel=next]"):
        with page.expect_navigation():
            page.click("a[rel=next]")
        seen.append(int(re.search(r"turns/(\d+)\.html$", page.url).group(1)))
    assert seen == list(range(1, 19))


def test_the_paste_page_checks_a_report_as_verify_does(site, page):
    db, folder = site
    report = Cli()("report", db, "--turn", 1, "--format", "bbcode").stdout
    [group] = [g for g in verify.check(report)[0].groups][:1]
    page.goto((folder / "check.html").as_uri())
    page.fill("#report", report)
    page.click("button[type=submit]")
    assert page.get_attribute("body", "data-verify") == "ok", page.text_content("#verdict")
    assert f"game {GAME_ID}, turn 1: seed leads to anchor" in page.text_content("#verdict")
    line = next(l for l in report.splitlines() if l.startswith(f"{group.label} |"))
    values = line.split(" | ")[2].split()
    values[0] = str(int(values[0]) % group.sides + 1)
    forged = report.replace(line, " | ".join([*line.split(" | ")[:2], " ".join(values), *line.split(" | ")[3:]]))
    assert verify.summary(verify.check(forged))[0] == 1
    page.fill("#report", forged)
    page.click("button[type=submit]")
    assert page.get_attribute("body", "data-verify") == "fail"
    assert f"group {group.label} (d{group.sides}): expected {' '.join(map(str, group.expected))}" in page.text_content("#verdict")


def test_the_paste_page_refuses_a_report_that_lost_a_dice_line(site, page):
    db, folder = site
    report = Cli()("report", db, "--turn", 1).stdout
    line = next(l for l in report.splitlines() if l.startswith("battle:"))
    cut = report.replace(line + "\n", "")
    assert verify.summary(verify.check(cut))[0] == 1
    page.goto((folder / "check.html").as_uri())
    page.fill("#report", cut)
    page.click("button[type=submit]")
    assert page.get_attribute("body", "data-verify") == "fail"
    assert "a dice line is missing or cut" in page.text_content("#verdict")
