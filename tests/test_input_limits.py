"""Pathological pastes: each is read in time linear in its size or refused at once by a documented limit, with
a message saying which; text in any of the encodings editors write is read (issue: integrity, quadratic
inputs). Timing lives in benchmarks/bench_inputs.py; these tests check what the player sees."""

from __future__ import annotations

import codecs
import hashlib

import pytest

from adjudicator.demo import SCRIPT
from adjudicator.errors import MAX_SHOWN
from adjudicator.notation.lexicon import Lexicon
from adjudicator.notation.text import MAX_BYTES, MAX_LINES, MAX_UNITS, MAX_UNITS_IN_ALL
from adjudicator.state import State
from adjudicator.verify import MAX_BYTES as VERIFY_BYTES, MAX_GROUPS

pytestmark = pytest.mark.slow


@pytest.fixture
def report(cli, demo_db, tmp_path) -> str:
    """A real report: the Germans' first turn, whose seed is revealed."""
    (tmp_path / "g.txt").write_text(SCRIPT["Germans"])
    cli("submit", demo_db, "--power", "Germans", tmp_path / "g.txt")
    return cli("adjudicate", demo_db).output


def verify(cli, tmp_path, data: bytes | str, code: int):
    path = tmp_path / "post.txt"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return cli("verify", path, code=code).output


def dry_run(cli, db, text: str | bytes, code: int = 1, *extra: str):
    return cli("submit", db, "--power", "Germans", "--dry-run", *extra, "-", input=text, code=code)


@pytest.mark.parametrize("noise", [">" * 50_000, "x" + " " * 100_000 + "y", "[quote]" * 100_000, "<p" * 200_000,
                                   "```" * 30_000, "x" + "[/quote]" * 50_000])
def test_verify_reads_a_report_behind_a_pathological_line(cli, tmp_path, report, noise):
    assert "all match" in verify(cli, tmp_path, noise + "\n" + report + "\n" + noise, code=0)


def test_verify_refuses_more_dice_groups_than_its_limit(cli, tmp_path, report):
    block = report[report.index("adjudicator dice"):].split("```")[0]
    lines = block.split("\n")
    at = next(k for k, line in enumerate(lines) if " | d" in line)
    head, first = [line for line in lines[:at] if not line.startswith("holds:")], lines[at]
    label = first.split(" | ")[0]
    groups = [first.replace(label, f"{label}:{k}", 1) for k in range(MAX_GROUPS + 1)]
    out = verify(cli, tmp_path, "\n".join(head + groups), code=2)
    assert f"more than {MAX_GROUPS:,} dice groups" in out and "paste fewer reports" in out


def test_verify_refuses_a_file_over_its_byte_limit_without_reading_it(cli, tmp_path, report):
    out = verify(cli, tmp_path, report + "x" * (17 * 1024 * 1024), code=2)
    assert f"more than {VERIFY_BYTES:,} bytes of report" in out and "nothing was read" in out


def test_submit_refuses_a_paste_over_the_byte_limit(cli, demo_db):
    out = dry_run(cli, demo_db, "buy 1 inf\n" * (MAX_BYTES // 10 + 1)).output
    assert f"at most {MAX_BYTES:,} are read" in out and out.count("\n") < 5
    out = dry_run(cli, demo_db, "x" * (10 * 1024 * 1024)).output          # 10 MB: not even read whole
    assert f"more than {MAX_BYTES:,} bytes of orders" in out and "nothing was read" in out


@pytest.mark.parametrize("end", ["\n", "\r", "\r\n", "\u2028"])
def test_submit_refuses_too_many_lines_however_they_end(cli, demo_db, end):
    assert f"at most {MAX_LINES:,} are read" in dry_run(cli, demo_db, end * MAX_LINES + "buy 1 inf\n").output


@pytest.mark.parametrize("text, fragment", [
    ("[b=" * 20_000, "at most 2,000 characters"),
    (f"ncm {MAX_UNITS + 1} inf Germany > Poland\n", f"at most {MAX_UNITS:,} units"),
    ("ncm 10000 inf Germany > Poland\n", f"at most {MAX_UNITS:,} units"),
    ("ncm " + ", ".join(["600 inf", "600 art"]) + " Germany > Poland\n", f"at most {MAX_UNITS:,} units"),
])
def test_submit_refuses_an_order_over_its_limits(cli, demo_db, text, fragment):
    assert fragment in dry_run(cli, demo_db, text).output


def test_submit_refuses_orders_naming_more_units_in_all_than_its_limit(cli, demo_db):
    text = f"buy {MAX_UNITS} inf\n" * (MAX_UNITS_IN_ALL // MAX_UNITS + 1)
    assert f"at most {MAX_UNITS_IN_ALL:,} units in all" in dry_run(cli, demo_db, text).output


@pytest.mark.parametrize("text, fragment", [
    (f"add Germans {MAX_UNITS} inf Germany\n" * MAX_LINES, f"at most {MAX_UNITS_IN_ALL:,} units in all"),
    (f"add Germans {MAX_UNITS} inf Germany\n" * (MAX_UNITS_IN_ALL // MAX_UNITS) + "add Germans 1 art Germany\n",
     f"this line brings them to {MAX_UNITS_IN_ALL + 1:,}"),
    (f"add Germans {MAX_UNITS + 1} inf Germany\n", f"at most {MAX_UNITS:,} units"),
    ("pus Germans 3\n" * (MAX_LINES + 1), f"at most {MAX_LINES:,} are read"),
    ("add Germans 1 inf Germany\n" * (MAX_BYTES // 26 + 1), f"at most {MAX_BYTES:,} are read"),
])
def test_edit_is_held_to_the_limits_of_a_submission_before_any_unit_is_added(cli, demo_db, monkeypatch, text,
                                                                            fragment):
    """5,000 lines adding 1,000 infantry each were 5,000,000 units: 13.5 s and 2 GB before anything was refused."""
    added = []
    add_unit = State.add_unit
    monkeypatch.setattr(State, "add_unit", lambda self, *args: added.append(args) or add_unit(self, *args))
    before = demo_db.read_bytes()
    out = cli("edit", demo_db, "--reason", "a stack no real game has", "-", input=text, code=1).output
    assert fragment in out and out.count("\n") < 5, out[:500]
    assert added == [] and demo_db.read_bytes() == before


def test_edit_adds_as_many_units_in_all_as_the_limit(cli, demo_db):
    text = f"add Germans {MAX_UNITS} inf Germany\n" * (MAX_UNITS_IN_ALL // MAX_UNITS)
    out = cli.json("edit", demo_db, "--reason", "a stack no real game has", "--dry-run", "-", input=text)
    assert len(out["changes"]) == MAX_UNITS_IN_ALL // MAX_UNITS


@pytest.mark.parametrize("order", ["ncm 1 inf {}", "ncm {} Germany > Poland", "retreat {}", "buy {}", "place {}"])
@pytest.mark.parametrize("junk", [", ", "1 inf ", "buy ", "Germany "])
def test_a_line_of_junk_is_read_with_work_linear_in_its_length(cli, demo_db, monkeypatch, order, junk):
    """Counted, not timed: the characters of every name looked up. Trying every split of a long line as a
    place was quadratic (a 256 KiB paste of such lines took 20 s)."""
    looked_up = []
    resolve = Lexicon.resolve
    monkeypatch.setattr(Lexicon, "resolve", lambda self, category, text: looked_up.append(len(text))
                        or resolve(self, category, text))

    def work(n: int) -> int:
        looked_up.clear()
        dry_run(cli, demo_db, order.format(junk * n) + "\n")
        return sum(looked_up)

    assert work(200) <= 2.5 * work(100) + 100


def test_a_move_of_a_thousand_units_looks_at_its_place_once_per_type(cli, demo_db, monkeypatch):
    """Counted, not timed: a move looked at the units of its place once per unit it moved."""
    cli("edit", demo_db, "--reason", "a stack no real game has", "-", input=f"add Germans {MAX_UNITS} inf Germany\n")
    scans = []
    units_at = State.units_at
    monkeypatch.setattr(State, "units_at", lambda self, *args: scans.append(args) or units_at(self, *args))

    def looks(units: str) -> int:
        scans.clear()
        order = f"ncm {units} Germany > Poland\n"
        out = cli.json("submit", demo_db, "--power", "Germans", "--dry-run", "-", input=order)
        assert out["orders"] == [f"ncm {units.replace('inf', 'infantry')} Germany > Poland"]
        return len(scans)

    few = looks("2 inf")
    assert looks(f"{MAX_UNITS} inf") == few
    assert looks(", ".join(["1 inf"] * 250)) == few


def test_deeply_nested_code_blocks_are_read(cli, demo_db):
    out = cli.json("submit", demo_db, "--power", "Germans", "--dry-run", "-",
                   input="[code]" * 20_000 + "\nbuy 1 inf\n" + "[/code]" * 20_000)
    assert out["orders"] == ["buy 1 infantry"]


def test_at_most_fifty_errors_are_listed_then_counted(cli, demo_db):
    text = "bake 1 inf\n" * 120
    out = dry_run(cli, demo_db, text).output
    assert out.startswith("submission rejected: 120 errors") and out.count("unknown order") == 50
    assert "… and 70 more errors" in out
    js = cli.json("submit", demo_db, "--power", "Germans", "--dry-run", "-", input=text, code=1)
    assert len(js["errors"]) == 50 and js["more_errors"] == 70


ORDERS = "power: Germans\r\nbuy 2 inf, 1 arm\r\nend\r\n"


@pytest.mark.parametrize("encoded", [
    ORDERS.encode("utf-8"), codecs.BOM_UTF8 + ORDERS.encode("utf-8"),
    ORDERS.encode("utf-16"), ORDERS.encode("utf-16-le"), ORDERS.encode("utf-16-be"),
    codecs.BOM_UTF16_BE + ORDERS.encode("utf-16-be"), ORDERS.encode("utf-32"), ORDERS.encode("cp1252"),
], ids=["utf-8", "utf-8 bom", "utf-16 bom", "utf-16-le", "utf-16-be", "utf-16-be bom", "utf-32", "windows-1252"])
def test_orders_in_any_editor_encoding_are_read_and_hashed_as_utf8_text(cli, demo_db, tmp_path, encoded):
    path = tmp_path / "orders.txt"
    path.write_bytes(encoded)
    out = cli.json("submit", demo_db, "--power", "Germans", "--dry-run", path)
    assert out["orders"] == ["buy 2 infantry, 1 armour", "end"]
    assert out["sha256"] == hashlib.sha256(ORDERS.encode("utf-8")).hexdigest()


def test_a_utf8_file_is_hashed_as_its_bytes(cli, demo_db, tmp_path):
    path = tmp_path / "orders.txt"
    path.write_bytes(SCRIPT["Germans"].encode())
    sha = cli.json("submit", demo_db, "--power", "Germans", "--dry-run", path)["sha256"]
    assert sha == hashlib.sha256(path.read_bytes()).hexdigest()


def test_verify_lists_at_most_fifty_lines_of_problems_then_counts(cli, tmp_path):
    lines = verify(cli, tmp_path, "adjudicator dice\n" * 100, code=1).splitlines()      # 4 lines of problems each
    assert len(lines) == MAX_SHOWN + 1 and lines[-1].startswith("… and 350 more lines about blocks that do not")
    (tmp_path / "post.txt").write_text("adjudicator dice\n" * 100)
    assert len(cli.json("verify", tmp_path / "post.txt", code=1)["blocks"]) == 100


def test_a_report_saved_as_utf16_verifies(cli, tmp_path, report):
    assert "all match" in verify(cli, tmp_path, report.encode("utf-16"), code=0)
