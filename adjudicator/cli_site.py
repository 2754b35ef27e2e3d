"""`adjudicator site DB -o DIR`: the game's static web site, written again after each turn (only what changed).

Registered on the `adjudicator` command by cli.py; the store and the pictures are imported inside the command, as
cli.py does."""

from __future__ import annotations

from typing import Optional

import typer

from .cli import DB_HELP, ID_HELP, JSON_HELP, _engine, _fail, _print_json, _settings, app
from .errors import AdjudicatorError


@app.command()
def site(db: Optional[str] = typer.Argument(None, help=DB_HELP),
         out: str = typer.Option(..., "-o", "--output", metavar="FOLDER", help="The folder to write the site into: a new or empty one, or the folder of this game's site."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Write the game's web site: the map, whose turn it is, every turn's report with its dice checked in the
    reader's browser. Open index.html from disk or put the folder on any web space; run again after each turn."""
    try:
        from .site.pages import build
        result = build(_engine(db, game_id=game_id), out, _settings().templates_dir)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(result)
        return
    typer.echo(f"site of game {result['game']} in {out}: {result['turns']} turn page(s), "
               f"{len(result['written'])} of {result['files']} file(s) written, the rest unchanged; open {out}/index.html")
