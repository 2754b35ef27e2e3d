"""The site's pages: the index (the position now, the powers, the turns), a page per adjudicated turn (its report,
the map before and after, the orders as locked, the dice the page's script checks) and the "paste a report" page.

A page or picture is made again only when what it is made of changed (its key in the manifest): the turn's last
state hash, its neighbours, and the site's templates; a finished turn is never redrawn, so a rebuild after one more
turn costs that turn, the page before it and the index."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from markupsafe import Markup, escape

from ..game import people_of, status
from ..report import context, render_context
from ..store import db
from .folder import SiteFolder

MAP_WIDTH = None         # the picture `map` draws for a forum post (2000 px whole): legible when zoomed on a phone
STATIC = ("site.css", "dice.js")
_MARKS = re.compile(r"`([^`]*)`|\*\*([^*]+)\*\*")


def build(engine, out: str, templates_dir: Path | None = None) -> dict:
    """Write the game's site into `out`; what was written and skipped, for the command's answer."""
    from ..picture import draw
    now = status(engine)
    site = SiteFolder(out, now["game"], now["anchor"])
    people = people_of(engine)
    with db.transaction(engine) as s:
        game = db.the_game(s)
        turns = _turns(s, game.id, people)
        header = {"id": game.id, "title": game.title, "name": game.name, "rules": game.rules_version,
                  "anchor": game.anchor, "test_seed": game.test_seed}
        for name in STATIC:
            site.write(name, _template_text(name))
        # the position now is the last turn's picture, unless a turn is under way (its first part adjudicated)
        current = f"maps/after-{turns[-1]['index']}.png" if turns and turns[-1]["state_hash"] == now["state_hash"] else "maps/now.png"
        if current == "maps/now.png":
            _picture(site, current, now["state_hash"], lambda: draw(s, game, None, "all", MAP_WIDTH))
        sizes: dict[str, tuple[int, int]] = {}     # each picture's width and height: the page keeps its room while it loads
        for k, turn in enumerate(turns):
            _picture(site, f"maps/after-{turn['index']}.png", turn["state_hash"],
                     lambda t=turn["index"]: draw(s, game, t, "all", MAP_WIDTH))
            sizes[f"../maps/after-{turn['index']}.png"] = _png_size(site.root / f"maps/after-{turn['index']}.png")
            prev = turns[k - 1]["index"] if k else None
            after = turns[k + 1]["index"] if k + 1 < len(turns) else None
            name = f"turns/{turn['index']}.html"
            pictures = [sizes.get(f"../maps/after-{prev}.png"), sizes[f"../maps/after-{turn['index']}.png"]]
            key = f"{turn['state_hash']}|{prev}|{after}|{pictures}|{_templates_key()}"
            if site.unchanged(name, key):
                continue
            ctx = context(s, turn["index"], game)
            page = _render("turn.html.j2", root="../", prev=prev, next=after, posted=render_context(ctx, "markdown", templates_dir),
                           before=f"../maps/after-{prev}.png" if prev else None,
                           after=f"../maps/after-{turn['index']}.png", sizes=sizes, **ctx)
            site.write(name, page, key)
        site.write("index.html", _render("index.html.j2", root="", game=header, status=now, turns=turns,
                                         map=current, size=_png_size(site.root / current), people=people))
        site.write("check.html", _render("check.html.j2", root="", game=header))
    site.finish()
    return {"folder": str(site.root), "game": now["game"], "turns": len(turns), "written": site.written,
            "files": len(site.files)}


def _turns(s, game_id: str, people) -> list[dict]:
    """Each adjudicated turn in play order: its index, round, power (in players' words) and the state hash after
    its last step (a turn played in two parts changes when its second part is adjudicated)."""
    out: dict[int, dict] = {}
    for row in db.rows(s, "SELECT turn_index, round, power, state_hash FROM step WHERE game_id = :game AND "
                          "phase != 'standing' ORDER BY seq", game=game_id):
        out.setdefault(row.turn_index, {"index": row.turn_index, "round": row.round, "power": people.heading(row.power)})
        out[row.turn_index]["state_hash"] = row.state_hash
    return list(out.values())


def _picture(site: SiteFolder, name: str, key: str, drawn) -> None:
    """A picture is made of its position and of how pictures are drawn (the adjudicator's version, the width)."""
    from importlib.metadata import version
    key = f"{key}|{version('adjudicator')}|{MAP_WIDTH}"
    if not site.unchanged(name, key):
        site.write(name, drawn(), key)


def _png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR, bytes 16 to 24)."""
    with path.open("rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def marked(text: str) -> Markup:
    """A report's sentence in HTML: its `code` and **bold** marks (markup.py) as tags, everything else escaped."""
    return Markup(_MARKS.sub(lambda m: f"<code>{m.group(1)}</code>" if m.group(1) is not None
                             else f"<strong>{m.group(2)}</strong>", str(escape(text))))


@lru_cache(maxsize=1)
def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    env = Environment(loader=FileSystemLoader(str(files("adjudicator.templates") / "site")), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["marked"] = marked
    return env


def _render(template: str, people=None, **values) -> str:
    """`people`: the game's words for powers (people.People), for the `heading` filter (a power in a table's
    cell) and the `said` filter (the engine's words, as `awaiting`, in players' words)."""
    env = _environment()
    if people is not None:
        env = env.overlay()
        env.filters["heading"] = people.heading
        env.filters["said"] = people.told
    return env.get_template(template).render(**values)


def _template_text(name: str) -> str:
    return (files("adjudicator.templates") / "site" / name).read_text("utf-8")


@lru_cache(maxsize=1)
def _templates_key() -> str:
    """What a turn page is made with besides its turn: the site's templates and the adjudicator's version."""
    from importlib.metadata import version
    folder = files("adjudicator.templates") / "site"
    texts = sorted((p.name, p.read_text("utf-8")) for p in folder.iterdir() if p.name.endswith(".j2"))
    return hashlib.sha256(repr((version("adjudicator"), texts)).encode("utf-8")).hexdigest()[:16]
