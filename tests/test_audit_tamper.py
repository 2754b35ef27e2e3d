"""`audit` against a host who rewrites what players read: a stored report whose text is made to look older so
that it is checked less, and a database rolled back or forked after the reports players saw (`audit --posted`).

The game is tests/played_game.py's, as tests/test_audit.py plays it.
"""

from __future__ import annotations

import re
import shutil

import pytest
from older_schema import as_schema
from test_audit import game_db, played, sql  # noqa: F401  (fixtures)

from adjudicator.report import TEMPLATE_VERSION


def rewrite_report(db, report_id: int, change) -> None:
    (text,), = sql(db, "select text from report where id = ?", report_id)
    changed = change(text)
    assert changed != text
    sql(db, "update report set text = ? where id = ?", changed, report_id)


def without_holds(text: str) -> str:
    """As templates before the `holds:` line wrote the dice block."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("holds: "))


def other_battle_result(text: str) -> str:
    return text.replace("Result: **Belarus is captured from Russians by Germans**", "Result: **Belarus holds**")


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
