"""Random inputs for the fuzz runs: forum pastes up to the submission limit, reports mangled the ways forums and
mailers mangle them, and game databases damaged at random. Used by the CI tests (a few seeded examples) and by
benchmarks/fuzz_long.py (thousands, with figures for the README)."""

from __future__ import annotations

import html
import random
import sqlite3
from pathlib import Path

from adjudicator.notation.text import MAX_BYTES, MAX_LINE_CHARS
from adjudicator.verify import MAX_BYTES as REPORT_BYTES

ORDER_LINES = ["buy 2 inf, 1 arm", "cm 3 inf, 1 art Poland > Belarus", "ncm 2 ftr Belarus > Poland",
               "retreat Belarus > Poland if attackers < 3", "ool inf, art, arm", "place 2 inf Germany", "end",
               "[combat move]", "power: Germans", "round: 1", "move 2 ftr Germany > Poland > Belarus",
               "cm 2 inf, 1 mech East Prussia > Baltic States", "submerge never", "war Russians"]
NOISE = ["> ", ">>", "[quote]", "[/quote]", "[quote=Bob]", "[code]", "[/code]", "```", "~~~", "[b]", "[/b]", "[b=",
         "[color=red]", "<p>", "<br>", "&amp;", "-- \n", "\U0001f600", "\u200b", "\u00a0", "\t", "\r\n", "#", "—",
         "“", "”", "On Mon, Bob wrote:", "-----Original Message-----", "_" * 12, " " * 200, ">" * 300, "9" * 40,
         "x" * 500, "[", "]", "|", "•", "- ", "* "]
# The start of an order, then one piece again and again to the line limit: a place or unit list that never ends.
STARTS = ["", "buy ", "cm 1 inf ", "ncm ", "ncm 2 inf Germany > ", "move 2 ftr Germany > ", "retreat ",
          "retreat Belarus > ", "ool ", "ool Belarus: ", "place ", "place 1 inf ", "bomb 1 ftr ", "repair 1 ",
          "scramble ", "war ", "power: ", "submerge "]
PIECES = ["inf, ", "1 ", "1 inf ", "inf ", ", ", "Germany ", "East Prussia ", "sz 5 ", "G 5 ", "> ", ": ", "_ ", "x "]


def forum_post(rng: random.Random, orders: list[str]) -> str:
    """Orders wrapped as a forum or mail would: chatter, quotes of the last post, code blocks, a signature."""
    body = "\n".join(orders)
    wraps = [
        lambda b: f"My turn, finally.\n\n[code]\n{b}\n[/code]\n\ngl hf",
        lambda b: f"> Bob wrote:\n> your move\n\n```\n{b}\n```\n-- \nHans",
        lambda b: f"[quote=Bob]Go ahead[/quote]\n[b]Orders[/b]\n{b}",
        lambda b: "<p>" + html.escape(b).replace("\n", "<br>\n") + "</p>",
        lambda b: "\n".join("> " + line for line in b.splitlines()),
        lambda b: b.replace("\n", "\r\n"),
        lambda b: f"> @Bob said in [G40 league, game 3](/post/1234):\n> Your move, Hans.\n\nThanks!\n\n```\n{b}\n```\n",
        lambda b: ('<blockquote><p><a href="/user/bob">@Bob</a> said in <a href="/post/1234">G40 game</a>:</p>'
                   "<p>Your move.</p></blockquote>\n<p>Orders:</p>\n<pre><code>" + html.escape(b) + "</code></pre>"),
        lambda b: f"[quote=Bob;1234]Your move[/quote]\n[b]Round 3[/b]\n[code]\n{b}\n[/code]\n[size=1]gl[/size]",
    ]
    return rng.choice(wraps)(body)


def long_lines(rng: random.Random, max_bytes: int) -> str:
    """Lines up to the line limit, each an order's start and then one piece again and again: the shape that
    made the search for a place in a line quadratic."""
    line = (rng.choice(STARTS) + rng.choice(PIECES + NOISE) * MAX_LINE_CHARS)[:rng.randint(1, MAX_LINE_CHARS)]
    return (line + "\n") * max(1, max_bytes // (len(line.encode()) + 1))


def paste(rng: random.Random, max_bytes: int = MAX_BYTES) -> str:
    """A random paste up to `max_bytes`: realistic posts, noise, or a long run of one piece."""
    kind = rng.random()
    if kind < 0.35:
        text = forum_post(rng, [rng.choice(ORDER_LINES) for _ in range(rng.randint(1, 40))])
    elif kind < 0.6:
        text = "".join(rng.choice(NOISE + ORDER_LINES + ["\n"]) for _ in range(rng.randint(1, 3000)))
    elif kind < 0.8:
        text = long_lines(rng, max_bytes)
    else:
        piece = rng.choice(NOISE + ORDER_LINES)
        text = piece * rng.randint(1, max(1, max_bytes // max(1, len(piece.encode()))))
    return text.encode()[:max_bytes].decode("utf-8", "ignore")


def fill(piece: str, size: int) -> str:
    """`piece` again and again, up to `size` bytes as UTF-8."""
    return piece * max(0, size // len(piece.encode()))


def mangle_report(rng: random.Random, report: str) -> str:
    """A posted report as it may come back: quoted, rendered to HTML, wrapped, with noise around it."""
    ops = [
        lambda r: "\n".join("> " + line for line in r.splitlines()),
        lambda r: "[quote]" + r + "[/quote]",
        lambda r: "<pre><code>" + html.escape(r).replace("\n", "<br>") + "</code></pre>",
        lambda r: r.replace("\n", "\r\n"),
        lambda r: r.replace(" ", "\u00a0"),
        lambda r: rng.choice(NOISE) * rng.randint(1, 5000) + "\n" + r,
        lambda r: r + "\n" + rng.choice(NOISE) * rng.randint(1, 5000),
        lambda r: r + "\n" + fill(rng.choice(NOISE), REPORT_BYTES - len(r.encode()) - 1),
        lambda r: r[: rng.randint(0, len(r))],
        lambda r: "".join(c if rng.random() > 0.001 else rng.choice("0123456789|:x\n") for c in r),
    ]
    for _ in range(rng.randint(1, 3)):
        report = rng.choice(ops)(report)
    return report


def crashed(result) -> bool:
    """Whether a command run by typer's CliRunner ended in anything but a clear answer: exit 0, 1 or 2, no traceback."""
    return result.exit_code not in (0, 1, 2) or "internal error" in result.output or "Traceback" in result.output


# What each damaged copy of a game is given, in this order: the Russians' orders (orders.txt) are locked, then played.
COMMANDS = (["status", "--json"], ["report"], ["rolls", "--json"], ["audit"],
            ["submit", "--power", "Russians", "orders.txt"], ["adjudicate"])

TABLES = {"game": ["anchor", "chain_length", "round", "turn_index", "power", "phase", "extra", "dice_mode",
                   "test_seed", "name", "state_hash"],
          "game_setup": ["scenario", "initial_state", "game_id"],
          "unit": ["type", "owner", "place", "damage", "moved", "flags", "carried_by"],
          "submission": ["seq", "power", "kind", "round", "turn_index", "phase", "text", "sha256", "status"],
          "step": ["seq", "turn_index", "round", "power", "phase", "events", "state_hash", "submission_id"],
          "dice_group": ["label", "sides", "count", "dice", "units", "turn_index", "step_id"],
          "revealedseed": ["seed", "salts", "turn_index"], "meta": ["value"], "power": ["treasury", "name", "turn_order"],
          "territoryowner": ["owner", "territory", "original_owner"], "report": ["text", "turn_index", "format"]}
VALUES = [None, -1, 0, 1, 2**40, "", "x", "{", "[", "[]", "{}", "null", "[1, 2]", '[{"type": "move"}]', "zz" * 32,
          "00" * 32, "Germans", "Nowhere", "purchase", "battle", 3.5, b"\xff\xfe", "é" * 3]


def damage(rng: random.Random, db: Path) -> str:
    """Damage the game database at random, as a disk or a careless hand would; say what was done."""
    kind = rng.random()
    data = bytearray(db.read_bytes())
    if kind < 0.25:
        for _ in range(rng.randint(1, 50)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        db.write_bytes(bytes(data))
        return "random bytes changed"
    if kind < 0.35:
        cut = rng.randrange(len(data))
        db.write_bytes(bytes(data[:cut]))
        return f"truncated at byte {cut}"
    if kind < 0.45:
        page = rng.randrange(max(1, len(data) // 4096))
        data[page * 4096:(page + 1) * 4096] = bytes(4096)
        db.write_bytes(bytes(data))
        return f"page {page} zeroed"
    table = rng.choice(list(TABLES))
    con = sqlite3.connect(db)
    try:
        if kind < 0.5:
            con.execute(f"drop table if exists {table}")
            what = f"table {table} dropped"
        elif kind < 0.55:
            con.execute(f"delete from {table}")
            what = f"table {table} emptied"
        else:
            column, value = rng.choice(TABLES[table]), rng.choice(VALUES)
            con.execute(f"update {table} set {column} = ? where rowid in (select rowid from {table} order by random() limit ?)",
                        (value, rng.randint(1, 3)))
            what = f"{table}.{column} set to {value!r}"
        con.commit()
    except sqlite3.Error as exc:
        what = f"(sqlite refused the damage: {exc})"
    finally:
        con.close()
    return what
