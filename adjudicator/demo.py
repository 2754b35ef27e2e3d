"""`adjudicator demo`: one full round of the embedded scenario from scripted orders, every report printed.

It goes through the same services as the real commands (new, submit, adjudicate), so what a
newcomer sees is what a game does. The dice are test dice from a fixed seed unless another is given; the
orders are legal whatever the dice, because no power's orders depend on another's battles.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from .config import load_settings
from .errors import ConfigError
from .markup import bbcode, plain
from .report import FORMATS
from .game import adjudicate, new_game, status, submit
from .store.db import for_game, open_existing, shown

DEMO_SEED = hashlib.sha256(b"adjudicator demo").hexdigest()

SCRIPT = {
    "Germans": """\
power: Germans
round: 1
[purchase]
buy 2 inf, 1 arm
[combat move]
cm 3 inf, 1 art, 1 arm Poland > Belarus
cm 2 ftr Germany > Poland > Belarus
cm 2 inf, 1 mech East Prussia > Baltic States
retreat Baltic States > East Prussia if attackers < 2
[noncombat move]
ncm 2 ftr Belarus > Poland
ncm 2 inf Germany > Poland
[place]
place 2 inf, 1 arm Germany
end
""",
    "Russians": """\
power: Russians
round: 1
buy 4 inf
cm 3 inf, 1 art Ukraine > Romania
ncm 2 inf Moscow > Smolensk
place 3 inf Moscow
place 1 inf Leningrad
end
""",
    "Italians": """\
power: Italians
round: 1
buy 2 inf
ncm 1 ftr Italy > Germany
place 2 inf Italy
end
""",
}


def run_demo(db_path: str | None, fmt: str, seed: str | None) -> Iterator[str]:
    if fmt not in FORMATS:
        raise ConfigError(f"--format takes {', '.join(FORMATS)}, not {fmt!r}")
    settings = load_settings()
    work = Path(tempfile.mkdtemp(prefix="adjudicator-demo-"))
    try:
        db = db_path or str(work / "demo.db")
        settings = replace(settings, keys_dir=work / "keys") if db_path is None else settings
        created = new_game(db, "demo", settings, seed_hex=seed or DEMO_SEED, game_id="demo")
        say = _Writer(fmt)
        yield (say.heading(1, f"adjudicator demo — {created['title']}")
               + say.span(f"Created game `{created['game']}` in {'a temporary file' if db_path is None else shown(db)}; "
                          f"powers {', '.join(created['powers'])}; dice anchor `{created['anchor']}` (test dice).") + "\n")
        engine = for_game(open_existing(db), created["game"])         # a league may hold other games
        for power in created["powers"]:
            accepted = submit(engine, power, SCRIPT[power])
            yield (say.heading(2, f"{power} submit") + say.block(SCRIPT[power]) + "Accepted as:\n\n"
                   + say.block("\n".join(accepted["orders"]) + "\n"))
            yield adjudicate(engine, settings, fmt=fmt)["report"]
        st = status(engine)
        yield _standings(st, say)
        engine.dispose()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _standings(st: dict, say: "_Writer") -> str:
    rows = [(name, str(p["treasury"]), str(p["income"])) for name, p in st["powers"].items()]
    return (say.heading(2, f"After round {st['round'] - 1}") + say.table(("power", "PUs", "income"), rows)
            + say.span(f"Next: round {st['round']}, {st['power']}. State hash `{st['state_hash']}`.") + "\n"
            + say.span("Try it yourself: `adjudicator new game.db --game demo`, then "
                       "`adjudicator submit game.db --power Germans orders.txt`.") + "\n")


class _Writer:
    """The demo's own lines around the reports, in the reports' format: Markdown's headings, fences and code
    spans; BBCode's [b] and [code] (markup.bbcode for a span); plain text with indented orders and quotations."""

    def __init__(self, fmt: str):
        self.fmt = fmt

    def heading(self, level: int, text: str) -> str:
        if self.fmt == "markdown":
            return f"{'#' * level} {text}\n\n"
        if self.fmt == "bbcode":
            return f"[size={'150' if level == 1 else '120'}][b]{text}[/b][/size]\n\n"
        return f"{text}\n{('=' if level == 1 else '-') * len(text)}\n\n"

    def span(self, text: str) -> str:
        return {"markdown": text, "bbcode": bbcode(text)}.get(self.fmt) or plain(text)

    def block(self, text: str) -> str:
        if self.fmt == "markdown":
            return f"```\n{text}```\n"
        if self.fmt == "bbcode":
            return f"[code]{text}[/code]\n"
        return "".join(f"    {line}\n" for line in text.splitlines()) + "\n"

    def table(self, head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
        if self.fmt == "markdown":
            lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
            return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows]) + "\n\n"
        width = max(len(r[0]) for r in [head, *rows]) + 2
        lines = [f"{r[0]:<{width}}" + "".join(f"{v:>8}" for v in r[1:]) for r in [head, *rows]]
        return self.block("\n".join(lines) + "\n")
