"""`verify`: a posted report checks out from its text alone, however the forum or the mailer gave it back;
an edited die, seed or anchor does not. The command never loads the store, the rules or the templates.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from played_game import LAST_TURN, play
from sqlmodel import Session

from adjudicator import dice
from adjudicator.report import render
from adjudicator.store.db import open_existing
from adjudicator.verify import MAX_HASHES, MAX_TURN


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, int], str]:
    engine = open_existing(str(play(tmp_path_factory.mktemp("played"))))
    with Session(engine) as s:
        out = {(fmt, turn): render(s, turn, fmt) for fmt in ("markdown", "bbcode", "text") for turn in range(1, LAST_TURN + 1)}
    engine.dispose()
    return out


def verify(cli, tmp_path, text: str, *options: str, code: int = 0):
    path = tmp_path / "post.txt"
    path.write_bytes(text.encode("utf-8"))
    return cli("verify", path, *options, code=code).output


# -- how posts come back --------------------------------------------------------------------------

def nodebb_quote(text: str) -> str:
    """What NodeBB's quote button puts in the composer: a header line and the raw post behind `> `."""
    return "@host said in [Game demo, round 1](/post/1234):\n" + "\n".join(f"> {line}".rstrip() for line in text.splitlines())


def fence_lost(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("```"))


def nodebb_html(text: str) -> str:
    """The HTML NodeBB's API gives for a Markdown post (markdown-it, breaks on): <pre><code> for the fence,
    paragraphs with <br /> for the rest, &-escapes everywhere."""
    parts = re.split(r"^```[^\n]*\n(.*?)^```$", text, flags=re.M | re.S)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(f"<pre><code>{html.escape(part)}</code></pre>")
        else:
            out += [f"<p>{'<br />'.join(html.escape(line) for line in para.splitlines())}</p>"
                    for para in part.split("\n\n") if para.strip()]
    return "\n".join(out)


def bbcode_quoted_twice(text: str) -> str:
    return f'[quote="russia"]Really?\n[quote="host"]{text}[/quote][/quote]\nI rolled worse.'


def crlf_and_nbsp(text: str) -> str:
    return text.replace(" ", "\u00a0").replace("\n", "\r\n")


def mail_quoted(text: str) -> str:
    return "On Monday the host wrote:\r\n" + "\r\n".join(f"> > {line}" for line in text.splitlines())


VARIANTS = [("markdown", lambda t: t), ("markdown", nodebb_quote), ("markdown", lambda t: nodebb_quote(nodebb_quote(t))),
            ("markdown", fence_lost), ("markdown", nodebb_html), ("markdown", lambda t: nodebb_html(fence_lost(t))),
            ("markdown", crlf_and_nbsp),
            ("bbcode", lambda t: t), ("bbcode", bbcode_quoted_twice), ("bbcode", crlf_and_nbsp),
            ("text", lambda t: t), ("text", mail_quoted), ("text", crlf_and_nbsp)]


@pytest.mark.parametrize("fmt, variant", VARIANTS,
                         ids=[f"{fmt}-{getattr(v, '__name__', 'x')}-{k}" for k, (fmt, v) in enumerate(VARIANTS)])
def test_a_posted_report_checks_out_in_every_form(cli, tmp_path, reports, fmt, variant):
    out = verify(cli, tmp_path, variant(reports[fmt, 1]))
    assert "game demo, turn 1" in out and "6 group(s), 18 dice all match" in out
    assert "Compare the anchor" in out


def edit_a_die(text: str) -> tuple[str, str, str, str]:
    """The text with the first die of its first group changed; and that group's label, old and new values."""
    line = next(line for line in text.splitlines() if " | d6 | " in line)
    label, _, values, _ = line.split(" | ", 3)
    edited = values.split()
    edited[0] = str(int(edited[0]) % 6 + 1)
    edited = " ".join(edited)
    return text.replace(line, line.replace(f"| {values} |", f"| {edited} |")), label, values, edited


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_an_edited_die_fails_and_the_group_is_named(cli, tmp_path, reports, fmt):
    text, label, values, edited = edit_a_die(reports[fmt, 2])
    out = verify(cli, tmp_path, text, code=1)
    assert f"group {label}" in out
    assert f"expected {values}, found {edited}" in out


def test_several_reports_in_one_paste_are_all_checked(cli, tmp_path, reports):
    out = verify(cli, tmp_path, "\n\n".join(reports["markdown", t] for t in range(1, LAST_TURN)))
    assert out.count("all match") + out.count("no dice were rolled") == LAST_TURN - 1


def test_a_seed_not_revealed_yet_is_said_clearly(cli, tmp_path, reports):
    out = verify(cli, tmp_path, reports["markdown", LAST_TURN], code=2)
    assert f"turn {LAST_TURN}" in out and "not revealed yet" in out


def test_a_mid_turn_report_is_checked_with_the_seed_the_end_of_turn_report_reveals(cli, tmp_path, reports):
    final = reports["text", 4]
    seed_line = next(line for line in final.splitlines() if line.startswith("seed: "))
    mid_turn = final.replace(seed_line, "seed: (revealed when this turn is over)")
    out = verify(cli, tmp_path, mid_turn + "\n" + final)
    assert "with the seed revealed by the block at line" in out and "DOES NOT" not in out
    assert "DOES NOT CHECK OUT" in verify(cli, tmp_path, edit_a_die(mid_turn)[0] + "\n" + final, code=1)


def test_an_edited_seed_or_anchor_fails(cli, tmp_path, reports):
    text = reports["text", 1]
    seed = next(line for line in text.splitlines() if line.startswith("seed: "))[6:]
    forged = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    assert "does not lead to the anchor" in verify(cli, tmp_path, text.replace(f"seed: {seed}", f"seed: {forged}"), code=1)
    anchor = next(line for line in text.splitlines() if line.startswith("anchor: "))[8:]
    held = verify(cli, tmp_path, text, "--anchor", anchor.upper())
    assert "all match" in held and f"carries the anchor given with --anchor ({anchor})" in held
    assert "pass it with --anchor" not in held
    assert "is not the game's anchor" in verify(cli, tmp_path, text, "--anchor", "ab" * 32, code=1)


def test_bad_input(cli, tmp_path):
    assert "no dice block found" in verify(cli, tmp_path, "Nice roll, Germany!\n", code=2)
    assert "no report file" in cli("verify", tmp_path / "missing.md", code=2).output
    assert "--anchor" in verify(cli, tmp_path, "adjudicator dice\n", "--anchor", "xyz", code=2)
    damaged = "adjudicator dice\ngame: demo\nturn: x\nanchor: 00\nseed: 11\nbattle:A | d6 | 1 2 | inf@1\n"
    out = verify(cli, tmp_path, damaged, code=1)
    assert "the turn is not a number" in out and "no `turn:` line" in out


# -- text anyone can paste: numbers, and the work it asks for -------------------------------------------

def dice_block(turn: object, seed: str, anchor: str, *groups: str, game: str = "g") -> str:
    return "\n".join(["adjudicator dice", f"game: {game}", f"turn: {turn}", f"anchor: {anchor}", f"seed: {seed}",
                      *groups]) + "\n"


def chain(turns: int, name: str = "g") -> list[str]:
    """s_0 (the anchor), s_1, …, s_turns of a chain of its own, as hex."""
    return [s.hex() for s in reversed(dice.walk(bytes.fromhex(dice.sha256_hex(name)), turns))]


def group(seeds: list[str], turn: int, label: str = "battle:A", sides: int = 6, count: int = 3) -> str:
    values = dice.roll(bytes.fromhex(seeds[turn]), "g", turn, label, sides, count)
    return f"{label} | d{sides} | {' '.join(map(str, values))} | inf"


# int() and str.isdigit() take these; verify reads ASCII digits only, and no number longer than verify.MAX_DIGITS
NOT_ASCII = ["²", "①", "٣", "３", "9" * 5000]


@pytest.mark.parametrize("digits", NOT_ASCII, ids=["superscript", "circled", "arabic-indic", "fullwidth", "5000 digits"])
def test_numbers_not_in_ascii_digits_are_problems_not_crashes(cli, tmp_path, digits):
    seeds = chain(1)
    for text, problem in [(dice_block(digits, seeds[1], seeds[0]), "the turn is not a number"),
                          (dice_block(1, seeds[1], seeds[0], f"battle:A | d6 | 1 {digits} | inf"),
                           "the dice of 'battle:A' are not all numbers"),
                          (dice_block(1, seeds[1], seeds[0], f"battle:A | d{digits} | 1 | inf"),
                           "the sides of 'battle:A' are not a number verify reads"),
                          (dice_block(1, seeds[1], seeds[0], f"holds: {digits} groups, 1 dice", group(seeds, 1)),
                           "`holds:` should read `N groups, M dice`")]:
        out = verify(cli, tmp_path, text, code=1)
        assert "DOES NOT CHECK OUT" in out and problem in out and len(out) < 1000, out
    assert "all match" in verify(cli, tmp_path, dice_block(1, seeds[1], seeds[0], group(seeds, 1)))


def test_a_turn_beyond_any_chain_is_refused_without_walking_it(cli, tmp_path):
    seeds = chain(1)
    out = verify(cli, tmp_path, dice_block(MAX_TURN + 1, seeds[1], seeds[0]), code=1)
    assert f"turn {MAX_TURN + 1} is beyond any game's dice chain: a game has at most {MAX_TURN} power-turns" in out
    assert "turn 0 is not a power-turn" in verify(cli, tmp_path, dice_block(0, seeds[1], seeds[0]), code=1)


def test_a_whole_games_reports_cost_one_walk_and_forged_seeds_a_bounded_number(cli, tmp_path):
    """Every block of one chain is proven by the walk from its latest seed: more blocks than verify walks chains,
    each near the end of the chain, all check out. Blocks whose seeds lead nowhere cost a walk each, and a paste
    of more of them than verify walks is refused as a whole."""
    walks = MAX_HASHES // MAX_TURN
    seeds = chain(MAX_TURN)
    game = "".join(dice_block(t, seeds[t], seeds[0], group(seeds, t)) for t in range(MAX_TURN - walks, MAX_TURN + 1))
    assert verify(cli, tmp_path, game).count("all match") == walks + 1
    forged = "".join(dice_block(MAX_TURN, dice.sha256_hex(str(k)), dice.sha256_hex(f"anchor {k}"))
                     for k in range(walks - 1))             # with the game's walk, as many as verify walks
    out = json.loads(verify(cli, tmp_path, game + forged, "--json", code=1))
    assert [b["status"] for b in out["blocks"]] == ["match"] * (walks + 1) + ["mismatch"] * (walks - 1)
    assert all(b["problems"][0].startswith("the seed does not lead to the anchor") for b in out["blocks"][walks + 1:])
    one_more = dice_block(MAX_TURN, dice.sha256_hex("one more"), dice.sha256_hex("another anchor"))
    out = verify(cli, tmp_path, game + forged + one_more, code=2)
    assert f"more seeds to check than verify walks at once ({MAX_HASHES:,} hashes" in out
    assert "Paste the reports of fewer games at a time" in out


@pytest.mark.parametrize("header, problem", [
    ("game: " + "g" * 2_000_000, "the game id is 2,000,000 characters long; a real game's has at most 64"),
    ("game: " + "g" * 65, "the game id is 65 characters long; a real game's has at most 64"),
    ("salts: a | " + "s" * 201, "a salt is 201 characters long; a real game's has at most 200"),
    ("anchor: " + "ab" * 1000, "the anchor is 2,000 characters long; a real game's has at most 64"),
    ("binds: " + "ab" * 33, "a hash in `binds:` is 66 characters long; a real game's has at most 64"),
])
def test_a_header_longer_than_a_real_games_is_a_problem_before_any_hashing(cli, tmp_path, monkeypatch, header, problem):
    """A 2 MB game id once made each 32 bytes of dice hash it again (38 s for a paste of a million dice): a header
    is as long as a real game's can be (a game id as keys.check_game_id takes it, a salt as `submit` does)."""
    from adjudicator import verify as verifying
    seeds = chain(1)
    lines = dice_block(1, seeds[1], seeds[0], "battle:A | d6 | " + " ".join(["1"] * 100_000) + " | inf").split("\n")
    name = header.split(":")[0]
    at = next((k for k, line in enumerate(lines) if line.startswith(f"{name}:")), 5)     # or after `seed:`
    lines[at:at + (lines[at].startswith(f"{name}:"))] = [header]
    monkeypatch.setattr(verifying.dice, "roll", lambda *a: pytest.fail("a die was computed"))
    out = verify(cli, tmp_path, "\n".join(lines), code=1)
    assert "DOES NOT CHECK OUT" in out and problem in out and len(out) < 1000, out


def test_a_game_id_as_long_as_a_real_games_checks_out(cli, tmp_path):
    game = "g" * 64
    seeds = chain(1)
    values = dice.roll(bytes.fromhex(seeds[1]), game, 1, "battle:A", 6, 3)
    text = dice_block(1, seeds[1], seeds[0], f"battle:A | d6 | {' '.join(map(str, values))} | inf", game=game)
    assert "all match" in verify(cli, tmp_path, text)


def test_the_dice_key_of_a_revealed_seed_is_made_once_for_all_the_blocks_it_checks(cli, tmp_path, monkeypatch):
    """A revealed block with a long line of salts, and thousands of blocks of its turn without a seed: each is
    checked with the revealed seed and salts, whose key once was made again for each (21.7 s)."""
    from adjudicator import verify as verifying
    seeds = chain(1)
    salts = ["s"] * 50_000
    key = dice.turn_key(bytes.fromhex(seeds[1]), salts)
    rolled = dice.roll(key, "g", 1, "battle:A", 6, 3)
    line = f"battle:A | d6 | {' '.join(map(str, rolled))} | inf"
    text = dice_block(1, seeds[1], seeds[0], "salts: " + " | ".join(salts), line)
    text += "".join(f"adjudicator dice\ngame: g\nturn: 1\nanchor: {seeds[0]}\n{line}\n" for _ in range(2000))
    made, real = [], dice.turn_key
    monkeypatch.setattr(verifying.dice, "turn_key", lambda *a: made.append(a) or real(*a))
    assert verify(cli, tmp_path, text).count("all match") == 2001 and len(made) == 1


def test_a_long_game_id_costs_one_hash_of_it_per_group(monkeypatch):
    """The HMAC state after the key and the game id is made once per group and copied for each 32 bytes of dice;
    the dice are those of DESIGN.md (HMAC of "{game_id}|{turn}|{label}|{block}")."""
    import hashlib
    import hmac
    game, key = "g" * 64, bytes(range(32))
    expected = [b % 6 + 1 for block in range(40) for b in hmac.new(key, f"{game}|7|battle:A|{block}".encode(),
                                                                    hashlib.sha256).digest() if b < 252][:1000]
    made = []
    real = hmac.new
    monkeypatch.setattr(dice.hmac, "new", lambda *a, **k: made.append(a) or real(*a, **k))
    assert dice.roll(key, game, 7, "battle:A", 6, 1000) == expected and len(made) == 1


def test_verify_json_and_stdin(cli, reports):
    out = cli.json("verify", "-", input=reports["bbcode", 2])
    assert out["ok"] and out["exit"] == 0
    (block,) = out["blocks"]
    assert block["status"] == "match" and block["turn"] == 2 and all(g["ok"] for g in block["groups"])


# -- speed and imports ------------------------------------------------------------------------------

PROBE = """
import sys
from adjudicator.cli import main
sys.argv = ["adjudicator", "verify", sys.argv[1]]
try:
    main()
except SystemExit as exc:
    heavy = [m for m in ("sqlmodel", "sqlalchemy", "jinja2", "adjudicator.store", "adjudicator.rules", "adjudicator.game")
             if m in sys.modules]
    print("exit", exc.code, "heavy", heavy)
"""


def test_verify_loads_neither_store_nor_rules_nor_templates(tmp_path, reports):
    """What keeps `verify` quick (its wall time is measured in benchmarks/bench_dice.py)."""
    post = tmp_path / "report.md"
    post.write_text(reports["markdown", 1], encoding="utf-8")
    r = subprocess.run([sys.executable, "-c", PROBE, str(post)], capture_output=True, text=True)
    assert r.stdout.strip().endswith("exit 0 heavy []"), r.stdout + r.stderr


def test_json_lists_each_group_with_what_was_expected(cli, tmp_path, reports):
    text, label, values, edited = edit_a_die(reports["text", 1])
    out = json.loads(verify(cli, tmp_path, text, "--json", code=1))
    (bad,) = [g for b in out["blocks"] for g in b["groups"] if not g["ok"]]
    assert not out["ok"] and bad["label"] == label
    assert " ".join(map(str, bad["expected"])) == values and " ".join(map(str, bad["values"])) == edited


# -- the by-hand check of docs/dice.md --------------------------------------------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "dice.md"


def doc_block(info: str) -> str:
    return re.search(rf"^```{info}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.M | re.S).group(1)


def run_snippet(values: dict[str, object] | None = None) -> list[str]:
    """Run the doc's snippet, its assignment lines (`game, turn, … =`, `seed =` …) given `values` instead."""
    code = doc_block("python")
    for names, value in (values or {}).items():
        code, n = re.subn(rf"^{re.escape(names)} = .*$", lambda _: f"{names} = {value!r}", code, flags=re.M)
        assert n == 1, names
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()


def test_the_docs_snippet_recomputes_a_group_of_the_demo_report(cli):
    snippet = doc_block("python")
    assert len(snippet.splitlines()) <= 15 and re.findall(r"^import (.*)$", snippet, re.M) == ["hashlib, hmac"]
    assert run_snippet() == doc_block("output").splitlines()
    report = cli("demo").output
    values = re.search(r"^\[(.*)\]$", doc_block("output"), re.M).group(1).replace(",", "")
    for name in ("anchor", "seed"):
        assert f"{name}: " + re.search(rf'^{name} = "(\w+)"', snippet, re.M).group(1) in report
    assert f"battle:Belarus:r1:attacker | d6 | {values} |" in report


def test_the_docs_snippet_checks_a_strict_game_with_salts(cli, tmp_path):
    from adjudicator.demo import SCRIPT
    db = tmp_path / "s.db"
    cli("new", db, "--game", "demo", "--dice", "strict", "--id", "s9")
    cli("submit", db, "--power", "Germans", input=SCRIPT["Germans"])
    for power, salt in (("Italians", "kept secret"), ("Russians", "été 1941")):
        cli("submit", db, "--power", power, input=f"salt {salt}\n")
    anchor = cli.json("status", db)["anchor"]
    cli("adjudicate", db)
    group = cli.json("rolls", db)[0]
    out = run_snippet({"game, turn, label, sides, count": ("s9", 1, group["label"], group["sides"], group["count"]),
                       "anchor": anchor, "seed": group["seed"], "salts": group["salts"]})
    assert group["salts"] == ["été 1941", "kept secret"]                # in turn order: the Russians, then the Italians
    assert out == ["seed leads to the anchor: True", str(group["values"])]
