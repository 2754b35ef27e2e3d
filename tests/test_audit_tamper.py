"""`audit` against a host who rewrites what players read: a stored report whose text is made to look older so
that it is checked less, and a database rolled back or forked after the reports players saw (`audit --posted`).

The game is tests/played_game.py's, as tests/test_audit.py plays it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from older_schema import as_schema
from test_audit import game_db, played, sql  # noqa: F401  (fixtures)

from sqlmodel import Session

from adjudicator.demo import SCRIPT
from adjudicator.report import TEMPLATE_VERSION
from adjudicator.report_parts import render_parts
from adjudicator.store.db import open_existing


def rewrite_report(db, report_id: int, change) -> None:
    (text,), = sql(db, "select text from report where id = ?", report_id)
    changed = change(text)
    assert changed != text
    sql(db, "update report set text = ? where id = ?", changed, report_id)


def without_holds(text: str) -> str:
    """As templates before the `holds:` line wrote the dice block."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("holds: "))


def other_battle_result(text: str) -> str:
    return text.replace("Result: **Belarus is captured from the Russians by the Germans**", "Result: **Belarus holds**")


def other_orders_hash(text: str) -> str:
    return re.sub(r"(submission 1, sha256 `)[0-9a-f]{64}", lambda m: m[1] + "ab" * 32, text)


def other_treasury(text: str) -> str:
    return text.replace("| Germans | 37 | 19 |", "| Germans | 537 | 19 |")


REWRITES = {other_battle_result: "Belarus holds", other_orders_hash: "ab" * 32, other_treasury: "537"}


def failure(cli, db) -> dict:
    return cli.json("audit", db, code=1)["mismatch"]


@pytest.mark.parametrize("holds", ["kept", "deleted"])
@pytest.mark.parametrize("rewrite", list(REWRITES), ids=[r.__name__ for r in REWRITES])
def test_a_rewritten_report_fails_with_or_without_its_holds_line(cli, game_db, rewrite, holds):
    rewrite_report(game_db, 1, lambda text: rewrite(without_holds(text) if holds == "deleted" else text))
    mismatch = failure(cli, game_db)
    assert mismatch["turn"] == 1 and mismatch["where"].startswith("report 1, line "), mismatch
    assert "stored report must be the one the replay writes" in mismatch["what"]
    assert REWRITES[rewrite] in mismatch["found"] and REWRITES[rewrite] not in mismatch["expected"]


def test_a_report_cannot_be_passed_off_as_older_than_the_one_before(cli, game_db):
    sql(game_db, "update report set template_version = 0 where id = 3")
    rewrite_report(game_db, 3, without_holds)
    mismatch = failure(cli, game_db)
    assert mismatch["where"] == "report 3" and "older templates than the report before it" in mismatch["what"]
    assert (mismatch["expected"], mismatch["found"]) == (f"{TEMPLATE_VERSION} or later", "0")


def test_a_report_of_templates_newer_than_these_is_named(cli, game_db):
    sql(game_db, "update report set template_version = ? where id = 8", TEMPLATE_VERSION + 1)
    mismatch = failure(cli, game_db)
    assert mismatch["where"] == "report 8" and "version of the templates that wrote the report" in mismatch["what"]


def test_an_older_game_keeps_its_reports_of_older_templates_and_checks_its_new_ones_whole(cli, played, game_db, tmp_path):
    """Before schema 5 the journal did not keep the templates' version: those reports are compared by their dice
    block and hashes whatever their text. A report written after the upgrade records it and is compared whole."""
    as_schema(game_db, 4)
    rewrite_report(game_db, 1, lambda text: without_holds(text).replace("### After the turn", "### Standings"))
    cli("audit", game_db)
    shutil.copytree(played.parent / "keys", tmp_path / "keys")
    cli("submit", game_db, "--power", "Germans", "-", input="end\n")      # upgrades it
    cli("adjudicate", game_db)
    assert sql(game_db, "select id, template_version from report where id in (1, 9)") == [(1, 0), (9, TEMPLATE_VERSION)]
    cli("audit", game_db)
    rewrite_report(game_db, 9, lambda text: without_holds(text).replace("| Germans |", "| Germans (bonus) |"))
    assert failure(cli, game_db)["where"].startswith("report 9, line ")


# -- audit --posted: the reports a player saw, against a database rolled back or forked ---------------------

def posted(tmp_path, name: str, *reports: str):
    path = tmp_path / name
    path.write_text("\n\n".join(reports))
    return path


def test_the_reports_players_saw_are_held_in_any_format_quoted_or_in_parts(cli, game_db, tmp_path):
    markdown = cli("report", game_db, "--turn", 2).output
    bbcode = cli("report", game_db, "--turn", 4, "--format", "bbcode").output
    quoted = "\n".join("> " + line for line in cli("report", game_db, "--turn", 6, "--format", "text").output.splitlines())
    engine = open_existing(str(game_db))
    with Session(engine) as s:
        parts = render_parts(s, 1, "markdown", 3000)
    engine.dispose()
    assert len(parts) > 1
    out = cli.json("audit", game_db, "--posted", posted(tmp_path, "seen.txt", markdown, bbcode, quoted, *parts))
    assert out["ok"] and [p["turn"] for p in out["posted"]] == [2, 4, 6, 1] and all(p["ok"] for p in out["posted"])
    text = cli("audit", game_db, "--posted", tmp_path / "seen.txt").output
    assert "turn 4, state hash" in text and "the journal holds it" in text and text.splitlines()[-1].startswith("OK:")


@pytest.fixture
def forked(cli, demo_db, tmp_path):
    """The demo after the Germans' turn, copied; the original plays on with the Russians' turn: its report is what
    players saw. Returns the original, the copy (rolled back) and that report."""
    cli("submit", demo_db, "--power", "Germans", "-", input=SCRIPT["Germans"])
    cli("adjudicate", demo_db)
    earlier = Path(shutil.copy(demo_db, tmp_path / "earlier.db"))
    cli("submit", demo_db, "--power", "Russians", "-", input=SCRIPT["Russians"])
    seen = posted(tmp_path, "seen.md", cli("adjudicate", demo_db).output)
    return demo_db, earlier, seen


def test_a_database_rolled_back_after_the_report_fails(cli, forked):
    _, earlier, seen = forked
    cli("audit", earlier)                                   # honest on its own
    out = cli("audit", earlier, "--posted", seen, code=1).output
    last = out.splitlines()[-1]
    assert last.startswith("FAILED: the database does not hold turn 2 with state hash ")
    assert "(its journal ends at turn 1): it was rolled back or forked after that report" in last


def test_a_database_forked_after_the_report_fails(cli, forked):
    original, earlier, seen = forked
    cli("submit", earlier, "--power", "Russians", "-", input="end\n")       # the fork plays the turn otherwise
    cli("adjudicate", earlier)
    cli("audit", earlier)
    out = cli.json("audit", earlier, "--posted", seen, code=1)
    assert out["mismatch"] is None and not out["ok"]
    assert "its turn 2 has other state hashes" in out["posted"][0]["problem"]
    assert cli.json("audit", original, "--posted", seen)["ok"]


def test_a_report_cut_off_or_of_another_game_fails_and_a_text_without_one_is_refused(cli, forked, tmp_path):
    original, _, seen = forked
    text = seen.read_text()
    cut = posted(tmp_path, "cut.md", text[:text.index("State hash")])
    assert "was the report cut off?" in cli("audit", original, "--posted", cut, code=1).output
    other = posted(tmp_path, "other.md", text.replace("game: t1", "game: kursk"))
    assert "the report is of the game 'kursk'" in cli("audit", original, "--posted", other, code=1).output
    none = posted(tmp_path, "none.md", "Great turn, Germans!")
    assert "shows no turn and state hash" in cli("audit", original, "--posted", none, code=2).output
    assert "no report file" in cli("audit", original, "--posted", tmp_path / "missing.md", code=2).output
