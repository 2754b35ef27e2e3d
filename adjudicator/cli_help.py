"""What `--help` says beyond each option's own line: a short example of every command, and what each option
takes named in words (`--power POWER`, `--turn TURN`), not Typer's type names (`<str>`, `<int>`)."""

from __future__ import annotations

import inspect

import typer

try:                    # Typer before 0.26 used Click; later ones carry their own copy of it
    from click import STRING, IntRange, ParamType
except ImportError:
    from typer._click.types import STRING, IntRange, ParamType

EXAMPLES = {
    "new": "adjudicator new game.db --game demo --player Germans=hans@example.org --player Russians=ivan@example.org",
    "submit": "adjudicator submit game.db germans.txt --power Germans   (the orders: docs/notation.md)",
    "edit": "adjudicator edit game.db fix.txt --reason 'the Italian bid was forgotten'   (fix.txt: pus Italians 40)",
    "contact": "adjudicator contact game.db --player Germans=new.address@example.org",
    "inbox": "adjudicator inbox game.db orders.eml   (or a Maildir folder, a saved forum post, -)",
    "watch": "adjudicator watch game.db postgresql://host@db.example.org/league --every 300   (or --once from cron)",
    "adjudicate": "adjudicator adjudicate game.db --format bbcode --post",
    "status": "adjudicator status game.db --power Germans --place Poland",
    "report": "adjudicator report game.db --turn 3 --format text",
    "rolls": "adjudicator rolls game.db --turn 3",
    "map": "adjudicator map game.db -o turn3.png --turn 3 --region battles",
    "audit": "adjudicator audit game.db --anchor 1f0c…(the anchor posted at the start)",
    "verify": "adjudicator verify post.txt --anchor 1f0c…(the anchor posted at the start)",
    "post": "adjudicator post game.db --topic https://www.axisandallies.org/forums/topic/41234/kursk",
    "mail": "adjudicator mail game.db --turn 3",
    "site": "adjudicator site game.db -o site   (then open site/index.html, or put the folder on the web)",
    "odds": "adjudicator odds --game g40 --attacker '3 inf, 1 art, 2 ftr' --defender '3 inf, 1 aa gun'",
    "maps": "adjudicator maps",
    "games": "adjudicator games postgresql://host@db.example.org/league",
    "copy": "adjudicator copy game.db postgresql://host@db.example.org/league",
    "demo": "adjudicator demo --format text",
    "settings": "adjudicator settings",
}

# What an argument or option takes, by its name in the command's signature; any other is its name in capitals.
WORDS = {
    "db": "DB", "file": "FILE", "game": "GAME", "map_": "PATH|MAP", "rules": "VERSION", "player": "POWER=CONTACT",
    "seed": "HEX", "dice": "normal|strict", "game_id": "ID", "salt_from": "POWER", "option": "OPTION",
    "bid": "POWER=PUS", "topic": "TOPIC", "power": "POWER", "place": "PLACE", "reason": "TEXT",
    "fmt": "markdown|bbcode|text", "turn": "TURN", "out": "FILE.png", "region": "all|battles", "width": "PIXELS",
    "anchor": "HEX", "posted": "FILE", "orders": "SHA256", "report_file": "REPORT", "src": "SRC", "dst": "DST",
    "source": "FILE|FOLDER|-", "sender": "ADDRESS|forum-uid:N", "dbs": "DB...", "every": "SECONDS",
    "attacker": "UNITS", "defender": "UNITS", "order": "ORDERS", "attacker_power": "POWER", "defender_power": "POWER",
    "attacker_ool": "UNITS", "defender_ool": "UNITS", "retreat": "N", "round_": "ROUND", "runs": "N", "sim_seed": "N",
}
# What an argument is, in the column where Typer prints its type: a database, a file or - for standard input.
KINDS = {"db": "PATH|URL", "dbs": "PATH|URL", "src": "PATH|URL", "dst": "PATH|URL", "file": "FILE|-", "report_file": "FILE|-",
         "source": "FILE|FOLDER|-"}


class _Words(ParamType):
    """Text, shown in help as what it is (`PATH|URL`) rather than as Typer's `<str>`."""

    name = "text"

    def __init__(self, words: str):
        self.words = words

    def convert(self, value, param, ctx):
        return STRING.convert(value, param, ctx)

    def get_metavar(self, *args, **kwargs) -> str:
        return self.words


class _Bounded(IntRange):
    """A whole number within what a database holds: help shows its word (`TURN`) alone, not the bounds as
    `[-2147483647<=x<=2147483647]`, which matter only to a number out of them, refused with the bounds; a value
    that is no number is named so in words, not as Python's `int`."""

    def _describe_range(self) -> str:
        return ""

    def convert(self, value, param, ctx):
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number.", param, ctx)
        if not self.min <= number <= self.max:
            self.fail(f"{number} is not in the range {self.min}<=x<={self.max}.", param, ctx)
        return number


def explain(app: typer.Typer) -> None:
    """Give every command of `app` its example (shown under its help) and every value it takes its word."""
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        if name in EXAMPLES:            # one without is found by tests/test_cli_help.py, not by a user's crash
            command.epilog = f"Example: {EXAMPLES[name]}"
        for param in inspect.signature(command.callback).parameters.values():
            info = param.default
            if isinstance(info, (typer.models.OptionInfo, typer.models.ArgumentInfo)) and param.annotation not in (
                    bool, "bool") and info.metavar is None:
                info.metavar = WORDS.get(param.name, param.name.upper())
                if isinstance(info, typer.models.ArgumentInfo) and info.click_type is None:
                    info.click_type = _Words(KINDS.get(param.name, "TEXT"))
                if info.min is not None and info.max is not None and info.click_type is None:
                    info.click_type = _Bounded(min=info.min, max=info.max)
