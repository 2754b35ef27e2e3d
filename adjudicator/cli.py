"""The `adjudicator` command (DESIGN.md, normative surface). Thin: parse arguments, call a service, print.

Imports of the store, the rules and Jinja2 happen inside the commands that need them, so that `verify`
starts in a fraction of a second. Every failure a user can cause is an AdjudicatorError: its message is
printed and the exit code is non-zero, never a traceback.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from .cli_help import explain
from .errors import INVALID, AdjudicatorError, Busy, DeliveryError, OrderError, SubmissionRejected
from .games import GAMES

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Adjudicate Axis & Allies turns from text orders, with dice anyone can recheck.")

DB_HELP = "Game database: a SQLite file path or a database URL (default: ADJUDICATOR_DB)."
PLAYER_HELP = ("POWER=CONTACT: a mail address, a forum name to mention (@name), or forum:USERNAME, the forum account "
               "whose posts are the power's orders (pinned to its user id); repeatable.")
ID_HELP = "The game, in a database that holds several (a league): its id (default: the database's only game)."
JSON_HELP = "Print machine-readable JSON."
# The largest whole number a game database's integer columns hold (store.shapes.LARGEST, PostgreSQL's integer): a
# --turn beyond it names no turn, and reached the driver as an OverflowError (an internal error) past SQLite's 2**63.
# Within it, each command says itself which turns there are.
INT_BOUND = 2**31 - 1


def _turn_option(help: str):
    """The `--turn I` of report, rolls, map, post and mail, refused by the parser beyond what a database holds."""
    return typer.Option(None, "--turn", min=-INT_BOUND, max=INT_BOUND, help=help)


_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _version() -> str:
    """The installed package's version; a checkout run without installing it reads pyproject.toml's."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("adjudicator")
    except PackageNotFoundError:
        pass
    import tomllib
    try:
        return str(tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, KeyError, ValueError):
        return "unknown"


def _print_version(wanted: bool) -> None:
    if wanted:
        typer.echo(f"adjudicator {_version()}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="Print the adjudicator's version and exit.")) -> None:
    """Adjudicate Axis & Allies turns from text orders, with dice anyone can recheck."""


_warned: set[str] = set()


def _settings():
    """The settings, with a warning (once a process) for what the .env file may not set, such as a proxy."""
    from .config import load_settings, not_honoured
    settings = load_settings()
    if (warning := not_honoured(settings)) and warning not in _warned:
        _warned.add(warning)
        typer.echo(f"warning: {warning}", err=True)
    return settings


def _players(given: list[str]) -> list[tuple[str, str]]:
    """The `--player POWER=CONTACT`s of `new` and `contact`, in the order given (the game refuses one power given
    twice, however it is spelled). Refused before anything is written: a malformed one, and a contact mail or the
    forum cannot reach (contacts.contact_problem)."""
    from .contacts import contact_problem
    players = []
    for p in given:
        name, sep, contact = p.partition("=")
        if not sep or not name.strip():
            raise AdjudicatorError(f"--player takes POWER=CONTACT, not {p!r}")
        problem = contact_problem(p, contact.strip())
        if problem:
            raise AdjudicatorError(problem)
        players.append((name.strip(), contact.strip()))
    from .forum_accounts import pinned
    return pinned(players)


def _bids(given: list[str]) -> list[tuple[str, str]]:
    """The `--bid POWER=PUS`s of `new`, split; the game checks the powers and the amounts before anything is written."""
    bids = []
    for b in given:
        name, sep, amount = b.partition("=")
        if not sep or not name.strip():
            raise AdjudicatorError(f"--bid takes POWER=PUS, e.g. --bid Italians=12, not {b!r}")
        bids.append((name.strip(), amount))
    return bids


def _db(db: Optional[str]) -> str:
    """The DB argument, or ADJUDICATOR_DB (environment or .env) when it was left out; a DB named on the command
    line always wins, and an empty one (an unset shell variable) is an error rather than the default."""
    if db is not None:
        if not db.strip():
            raise AdjudicatorError("the game database given is an empty name: give a path or a database URL, or "
                                   "leave it out to use ADJUDICATOR_DB")
        return db
    found = _default_db()
    if not found:
        raise AdjudicatorError("no game database given: name one (e.g. `adjudicator status game.db`) or set "
                               "ADJUDICATOR_DB (in the environment or a .env file in this folder)")
    return found


def _default_db() -> str | None:
    """ADJUDICATOR_DB, checked: one a .env names gets none of the host's database secrets (config.check_database)."""
    from .config import check_database
    found = _settings().database
    if found:
        check_database(found)
    return found


def _is_database(arg: str) -> bool:
    """A database URL, or an existing SQLite file: what a lone argument of `submit`/`edit` must be to be the DB."""
    if "://" in arg:
        return True
    try:
        with open(arg, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _db_and_file(first: Optional[str], second: Optional[str], what: str, command: str) -> tuple[str, str]:
    """`submit [DB] [FILE]` and `edit [DB] [FILE]`: two arguments are DB and FILE; none, ADJUDICATOR_DB and
    standard input. One is the DB, unless ADJUDICATOR_DB is set and the argument is not a game database: then
    it is the FILE (so `adjudicator submit orders.txt --power X` works with the default game)."""
    if second is not None:
        return _db(first), second
    if first is None:
        return _db(None), "-"
    default = _default_db()
    if default and not _is_database(first):
        if first != "-" and not Path(first).is_file():
            from .store.db import shown
            raise AdjudicatorError(f"no {what} file at {first}, and it is not a game database either: with "
                                   f"ADJUDICATOR_DB set ({shown(default)}), a single argument is the {what} file; "
                                   f"to use another game, name it before the file (`adjudicator {command} GAME.db FILE`)")
        return default, first
    if first == "-":
        raise AdjudicatorError(f"no game database given: name it before the {what} (`adjudicator {command} GAME.db "
                               f"-`), or set ADJUDICATOR_DB (in the environment or a .env file in this folder)")
    return _db(first), "-"


def _engine(db: Optional[str], write: bool = False, game_id: Optional[str] = None):
    """The engine of the game a command works on (`--id`, else the database's only game)."""
    from .store.db import choose, open_existing
    name = _db(db)
    return choose(open_existing(name, upgrade=write), name, game_id)


def _print_json(value) -> None:
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _fail(exc: AdjudicatorError, as_json: bool = False) -> None:
    if as_json:
        payload = {"error": exc.message}
        if isinstance(exc, SubmissionRejected):
            payload = {"accepted": False, "errors": [e.to_dict() for e in exc.errors], "more_errors": exc.more}
        _print_json(payload)
    else:
        typer.echo(f"error: {exc.message}" if not isinstance(exc, SubmissionRejected) else exc.message, err=True)
    raise typer.Exit(exc.exit_code)


@app.command()
def new(db: Optional[str] = typer.Argument(None, help="Where to create the game: a new file, or a league's database URL (postgresql://…) (default: ADJUDICATOR_DB)."),
        game: str = typer.Option(..., "--game", help=f"The game: {', '.join(n for n, m in GAMES.items() if m)} (`adjudicator games` says more)."),
        map_: Optional[str] = typer.Option(None, "--map", help="A TripleA game XML path, or a map/game name found on ADJUDICATOR_MAPS_PATH."),
        rules: Optional[str] = typer.Option(None, "--rules", help="Rule version, e.g. beta-1.3 or beta-1.1 for g40-alt-universe."),
        player: list[str] = typer.Option([], "--player", help=PLAYER_HELP),
        seed: Optional[str] = typer.Option(None, "--seed", help="Test dice: the chain secret as 64 hex digits. Reports say so."),
        dice: str = typer.Option("normal", "--dice", help="normal, or strict (opponents add salts before dice are rolled)."),
        game_id: Optional[str] = typer.Option(None, "--id", help="The game's id as printed in reports (default: file name + random); a league's database takes a game under an id it does not hold yet."),
        salt_from: list[str] = typer.Option([], "--salt-from", help="Strict dice: a power whose salt every other power's turn awaits; repeatable (default: every power that takes turns)."),
        option: list[str] = typer.Option([], "--option", help="An optional rule the players agreed at the start, e.g. war-time-production-5 for g40-alt-universe (Beta-1.3); repeatable."),
        bid: list[str] = typer.Option([], "--bid", help="POWER=PUS: a bid for one side, bought and placed by that power before round 1 (G40 family); repeatable, for powers of one side."),
        topic: Optional[str] = typer.Option(None, "--topic", help="The forum topic (NodeBB) that `post` replies to: its number or address."),
        as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Create a game: copy the scenario into a new database and make its dice chain."""
    try:
        db = _db(db)
        from .game import new_game
        if topic is not None:
            from .delivery.deliver import topic_id
            topic_id(topic)                     # a bad topic is refused before anything is written
        out = new_game(db, game, _settings(), map_arg=map_, rules_version=rules, players=_players(player), seed_hex=seed,
                       dice_mode=dice, game_id=game_id, salt_from=salt_from, options=option, bids=_bids(bid))
        if topic is not None:
            from .delivery.deliver import set_topic
            out["topic"] = set_topic(_engine(db, write=True, game_id=out["game"]), topic)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    from .store.db import shown
    for warning in out["warnings"]:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(f"created game {out['game']} ({out['title']}, rules {game}{' ' + out['rules'] if out['rules'] else ''}) in {shown(db)}")
    typer.echo(f"powers in turn order: {', '.join(out['powers'])}")
    typer.echo(f"starting PUs: {', '.join(f'{p} {n}' for p, n in out['treasury'].items())}")
    if out["options"]:
        typer.echo(f"optional rules: {', '.join(out['options'])}")
    typer.echo(f"dice anchor: {out['anchor']}" + ("  (TEST DICE: created with --seed)" if out["test_seed"] else ""))
    typer.echo(f"setup hash: {out['setup_hash']}")
    typer.echo(f"key file: {_home_relative(out['key_file'])} — keep it private and backed up")
    if out["dice"] != "normal":
        typer.echo("strict dice: each turn's dice await the salts of "
                   + (", ".join(out["salts_from"]) if out["salts_from"] else "every other power that takes turns"))
    if out["bids"]:
        typer.echo(f"bid: {', '.join(f'{p} {n} PUs' for p, n in out['bids'].items())}, bought and placed before round 1")
        typer.echo(f"bid before round 1: awaiting the bid of {out['power']} (buy and place)")
        return
    typer.echo(f"round {out['round']}: awaiting orders from {out['power']} ({out['phase'].replace('_', ' ')})")


def _home_relative(path: str) -> str:
    """A path under the home folder as `~/…`, as a user types it (and the same on every host, for the README)."""
    try:
        return str(Path("~") / Path(path).relative_to(Path.home()))
    except ValueError:
        return path


@app.command()
def submit(db: Optional[str] = typer.Argument(None, help=DB_HELP),
           file: Optional[str] = typer.Argument(None, help="File with the orders, or - for standard input (the default)."),
           power: str = typer.Option(..., "--power", help="The power the orders are for."),
           dry_run: bool = typer.Option(False, "--dry-run", help="Check and show how the orders were understood; store nothing."),
           game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
           as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Check a power's orders against the game and lock them (exit 0 accepted, 1 rejected).

    How to write orders: docs/notation.md, and the README's Orders section.

    With ADJUDICATOR_DB set, a single argument that is not a game database is the orders file."""
    try:
        db, file = _db_and_file(db, file, "orders", "submit")
        text = _read_lines(file, "orders")
        from .game import submit as do_submit
        out = do_submit(_engine(db, write=not dry_run, game_id=game_id), power, text, dry_run=dry_run)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json({"accepted": True, **out})
        return
    verb = "would be accepted (dry run, nothing stored)" if dry_run else f"accepted as submission {out['submission']}"
    typer.echo(f"{len(out['orders'])} order(s) of {out['name']} {verb}; sha256 {out['sha256']}")
    for line in out["orders"]:
        typer.echo(f"  {line}")
    for warning in out["warnings"]:
        typer.echo(f"warning: {warning}", err=True)
    if "binds" in out:
        typer.echo(f"the salt binds the orders of {out['binds']['power']} locked with sha256 {out['binds']['sha256']}: "
                   "the report prints it with the salt; compare")
    if out["covers"]:
        whole = " (the whole turn: it ends when these are adjudicated)" if out["whole_turn"] else ""
        typer.echo("covers: " + ", ".join(p.replace("_", " ") for p in out["covers"]) + whole)


def _read_lines(file: str, what: str) -> str:
    """Orders or corrections as text; over the size limit, a rejected submission (exit 1) like any bad order."""
    from .inputs import TooLarge, read
    from .notation.text import MAX_BYTES
    if file == "-" and sys.stdin.isatty():        # a new user who left out FILE is not left facing a silent prompt
        typer.echo(f"reading the {what} from the keyboard: type or paste them, then press Ctrl-D "
                   f"(Ctrl-Z then Enter on Windows); or give a file", err=True)
    try:
        return read(file, what, MAX_BYTES)
    except TooLarge as exc:
        raise SubmissionRejected([OrderError(INVALID, exc.message)]) from None


@app.command()
def edit(db: Optional[str] = typer.Argument(None, help=DB_HELP),
         file: Optional[str] = typer.Argument(None, help="File with the corrections, or - for standard input (the default)."),
         reason: str = typer.Option(..., "--reason", help="Why: printed with the corrections in the next report."),
         dry_run: bool = typer.Option(False, "--dry-run", help="Check the corrections; change nothing."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Correct the game as the host (add/remove POWER UNITS PLACE, owner PLACE POWER, pus POWER N,
    damage PLACE FACILITY N, war/peace POWER POWER): journalled, audited, reported (exit 0 done, 1 refused).

    With ADJUDICATOR_DB set, a single argument that is not a game database is the corrections file."""
    try:
        db, file = _db_and_file(db, file, "corrections", "edit")
        text = _read_lines(file, "corrections")
        from .game import edit as do_edit
        out = do_edit(_engine(db, write=not dry_run, game_id=game_id), text, reason, dry_run=dry_run)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json({"accepted": True, **out})
        return
    head = "would be made (dry run, nothing changed)" if dry_run else f"made as submission {out['submission']}"
    typer.echo(f"{len(out['changes'])} correction(s) {head}; sha256 {out['sha256']}")
    for line in out["changes"]:
        typer.echo(f"  {line}")


@app.command()
def contact(db: Optional[str] = typer.Argument(None, help=DB_HELP),
            player: list[str] = typer.Option([], "--player", help=PLAYER_HELP),
            game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
            as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Change players' contacts after `new` (a new address, a power changing hands): journalled and audited
    like `edit`, without changing the position or the dice (exit 0 done, 2 refused)."""
    try:
        from .contacts import change
        out = change(_engine(db, write=True, game_id=game_id), _players(player))
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    typer.echo(f"{len(out['changes'])} contact(s) changed as submission {out['submission']}")
    for c in out["changes"]:
        typer.echo(f"  {c['power']}: {c['was'] or '(none)'} -> {c['now']}")


@app.command()
def adjudicate(db: Optional[str] = typer.Argument(None, help=DB_HELP),
               fmt: str = typer.Option("markdown", "--format", help="Report format: markdown, bbcode or text."),
               without_salts: bool = typer.Option(False, "--without-salts", help="Strict dice: roll without the salts still awaited (after the agreed deadline); the report names them."),
               to_forum: bool = typer.Option(False, "--post", help="Then reply to the game's forum topic with the report (as `post`)."),
               to_mail: bool = typer.Option(False, "--mail", help="Then mail the report to the players (as `mail`)."),
               game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
               as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Resolve the locked orders phase by phase and print the report (exit 1 if there is nothing to do).

    With --post / --mail the report is then delivered; a delivery that fails (exit 4) leaves the turn
    adjudicated, and `post` / `mail` send what did not go out."""
    try:
        from .game import adjudicate as do_adjudicate
        settings = _settings()                      # loads .env, where the delivery settings may be
        engine = _engine(db, write=True, game_id=game_id)
        if to_forum or to_mail:
            from .delivery import deliver
            if to_forum:
                deliver.forum_settings(engine)      # settings are checked before anything is played
            if to_mail:
                deliver.mail_settings(engine)
        out = do_adjudicate(engine, settings, without_salts=without_salts, fmt=fmt)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    failed = None
    for wanted, step in ((to_forum, "post"), (to_mail, "mail")):
        if not wanted:
            continue
        try:
            out[step] = getattr(deliver, step)(engine, out["turn_index"])
        except AdjudicatorError as exc:
            out[step] = {"error": exc.message}
            failed = failed or exc
    if as_json:
        _print_json(out)
    else:
        typer.echo(out["report"])
        for step in ("post", "mail"):
            if step in out and "error" not in out[step]:
                typer.echo(_delivered(step, out[step]), err=True)
    if failed is not None:
        typer.echo(f"error: {failed.message}\nThe turn is adjudicated and kept: run `adjudicator post` / "
                   "`adjudicator mail` to send what did not go out.", err=True)
        raise typer.Exit(4)


def _delivered(step: str, out: dict) -> str:
    """One line saying what `post` or `mail` sent."""
    if step == "post":
        if not out["posted"]:
            return f"turn {out['turn']} was already posted to topic {out['topic']} (post ids {', '.join(out['already'])}): nothing posted again"
        picture = f"; map picture {out['picture']}" if out.get("picture") else ""
        warning = f"\nwarning: {out['warning']}" if out.get("warning") else ""
        return (f"posted turn {out['turn']} to topic {out['topic']} in {len(out['posted'])} part(s): post id(s) "
                f"{', '.join(map(str, out['posted']))}{picture}{warning}")
    if not out["to"]:
        return f"turn {out['turn']} was already mailed to {', '.join(out['already'])}: nothing sent again"
    return f"mailed turn {out['turn']} to {', '.join(out['to'])} ({out['subject']}; {out['message_id']})"


@app.command()
def status(db: Optional[str] = typer.Argument(None, help=DB_HELP),
           power: Optional[str] = typer.Option(None, "--power", help="Only this power's units, where it has any."),
           place: list[str] = typer.Option([], "--place", help="Only this territory or sea zone; repeatable."),
           game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
           as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Where the game stands: whose turn, treasuries, wars, and the units by territory (--power, --place: only
    those; --json: the same, with every field)."""
    try:
        from .game import people_of
        from .game import status as do_status
        engine = _engine(db, game_id=game_id)
        out = do_status(engine, power, place)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    from .people import speaking
    from .status_view import text_lines
    with speaking(people_of(engine)) as people:
        for line in text_lines(out, people, bool(place)):
            typer.echo(line)


@app.command()
def report(db: Optional[str] = typer.Argument(None, help=DB_HELP),
           turn: Optional[int] = _turn_option("Turn index (default: the latest)."),
           fmt: str = typer.Option("markdown", "--format", help="markdown, bbcode or text."),
           game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
           with_odds: bool = typer.Option(False, "--odds", help="Before each battle, the odds it had."),
           as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Print the report of a turn, ready to post."""
    try:
        from .report import check_format, context, render, render_context
        from .store.db import transaction
        settings = _settings()
        with transaction(_engine(db, game_id=game_id)) as s:
            if with_odds:
                from .report_odds import add_odds
                check_format(fmt)
                ctx = context(s, turn)
                add_odds(s, ctx, turn)
                text = render_context(ctx, fmt, settings.templates_dir)
            else:
                text = render(s, turn, fmt, settings.templates_dir)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json({"format": fmt, "report": text})
    else:
        typer.echo(text)


@app.command()
def rolls(db: Optional[str] = typer.Argument(None, help=DB_HELP),
          turn: Optional[int] = _turn_option("Only this turn index."),
          game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
          as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Every dice group: turn, label, sides, values, and the units they belong to."""
    try:
        from .game import rolls as do_rolls
        out = do_rolls(_engine(db, game_id=game_id), turn)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    if not out:
        typer.echo(f"no dice were rolled in turn {turn}" if turn is not None else "no dice have been rolled yet")
    turn_shown = None
    for g in out:
        if g["turn"] != turn_shown:         # each turn's seed (and salts) once, above its groups
            turn_shown = g["turn"]
            seed = g["seed"] or "not revealed until the turn is over"
            typer.echo(f"turn {g['turn']}, seed {seed}" + (f", salts {' | '.join(g['salts'])}" if g["salts"] else ""))
        typer.echo(f"  {g['label']}  d{g['sides']}: {' '.join(map(str, g['values']))}  ({', '.join(g['units'])})")


@app.command("map")
def map_(db: Optional[str] = typer.Argument(None, help=DB_HELP),
         out: str = typer.Option(..., "-o", "--output", help="The PNG file to write."),
         turn: Optional[int] = _turn_option("Draw the position after this turn index (default: the position now)."),
         region: str = typer.Option("all", "--region", help="all, or battles: only where the turn's battles and bombing raids were."),
         width: Optional[int] = typer.Option(None, "--width", min=-INT_BOUND, max=INT_BOUND, help="Width of the picture in pixels (default: 2000 for the whole map, less for a battle region)."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Draw the position as a PNG for a forum post: owners' colours, units by type, factories and their damage, on the map's own art."""
    try:
        from .picture import save
        result = save(_engine(db, game_id=game_id), out, turn, region, width)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(result)
    else:
        typer.echo(f"wrote {result['file']} ({result['width']} x {result['height']} px, {result['source']})")


@app.command()
def audit(db: Optional[str] = typer.Argument(None, help=DB_HELP),
          anchor: Optional[str] = typer.Option(None, "--anchor", help="The game's anchor as published at its start: the game must still have it."),
          game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
          posted: Optional[str] = typer.Option(None, "--posted", help="The last report you saw, as posted or mailed (any format, several reports at once), or - for standard input: the database must hold its turn with its state hash."),
          as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Replay the whole game from its setup and journal: exit 0 iff every seed, roll, state hash and report replays
    (and, with --posted, the database holds the reports you saw: it was not rolled back or forked since).

    Needs no key file and changes nothing, so a copy of the database, mailed or published, will do."""
    try:
        from .audit import audit as do_audit
        expected = _anchor(anchor)
        seen = None
        if posted is not None:
            from . import audit_posted
            from .inputs import read
            from .verify import MAX_BYTES
            seen = audit_posted.read(read(posted, "report", MAX_BYTES), posted)
        with _progress("replaying the journal") as advance:
            result = do_audit(_db(db), progress=advance, anchor=expected, game_id=game_id, posted=seen)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(result.to_dict())
    else:
        for line in result.lines():
            typer.echo(line)
    if not result.ok:
        raise typer.Exit(1)


@contextmanager
def _progress(what: str):
    """Yield a callback (done, total) that draws a progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


@app.command()
def verify(report_file: str = typer.Argument(..., help="The report as posted or mailed (Markdown, HTML, BBCode or text, quoted or not), or - for standard input."),
           anchor: Optional[str] = typer.Option(None, "--anchor", help="The game's anchor as published at its start: every dice block must carry it."),
           orders: Optional[str] = typer.Option(None, "--orders", help="Strict dice: the sha256 `submit` printed for the orders (to the mover, or to a salter as what their salt binds): every dice block's salts must bind it."),
           as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Check a report's dice from its text alone: the seed against the anchor, every die recomputed.

    Exit 0: every die that can be checked matches; 1: something does not; 2: nothing to check (yet)."""
    try:
        from .inputs import read
        from .verify import MAX_BYTES, check, summary
        text = read(report_file, "report", MAX_BYTES)
        expected = _anchor(anchor)
        bound = _anchor(orders, "--orders")
        blocks = check(text, expected, bound)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    code, lines = summary(blocks, expected, bound)
    if as_json:
        _print_json({"ok": code == 0, "exit": code, "blocks": [b.to_dict() for b in blocks]})
    else:
        for line in lines:
            typer.echo(line)
    raise typer.Exit(code)


def _anchor(given: Optional[str], option: str = "--anchor") -> Optional[str]:
    """An `--anchor` (or another hash option) as 64 lowercase hex digits, or an error saying what is wrong with it."""
    if given is None:
        return None
    from .dice import unhex
    try:
        return unhex(given.strip(), option).hex()
    except ValueError as exc:
        raise AdjudicatorError(str(exc)) from None


@app.command()
def post(db: Optional[str] = typer.Argument(None, help=DB_HELP),
         turn: Optional[int] = _turn_option("Turn index (default: the latest played)."),
         topic: Optional[str] = typer.Option(None, "--topic", help="The forum topic to reply to (its number or address); remembered for later posts."),
         picture: bool = typer.Option(True, "--picture/--no-picture", help="Upload and link the map picture (needs ADJUDICATOR_NODEBB_USER and _PASSWORD)."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Reply to the game's NodeBB topic with a turn's report (ADJUDICATOR_NODEBB_URL, ADJUDICATOR_NODEBB_TOKEN).

    Split into numbered parts under the forum's length limit; what was posted is remembered, so running it again
    posts only what did not go out (exit 4 when the forum fails)."""
    def send(deliver, engine) -> dict:
        if topic is not None:
            deliver.set_topic(engine, topic)
        return deliver.post(engine, turn, picture=picture)
    _deliver("post", db, send, as_json, game_id)


@app.command()
def mail(db: Optional[str] = typer.Argument(None, help=DB_HELP),
         turn: Optional[int] = _turn_option("Turn index (default: the latest played)."),
         picture: bool = typer.Option(True, "--picture/--no-picture", help="Attach the map picture."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Mail a turn's report to every player's address (given at `new --player POWER=ADDRESS`) over SMTP
    (ADJUDICATOR_SMTP_HOST, _PORT, _USER, _PASSWORD, _FROM, _SECURITY); never mails an address twice."""
    _deliver("mail", db, lambda deliver, engine: deliver.mail(engine, turn, picture=picture), as_json, game_id)


def _deliver(step: str, db: Optional[str], send, as_json: bool, game_id: Optional[str] = None) -> None:
    """Run `post` or `mail` (settings from the environment and .env) and say what went out."""
    try:
        from .delivery import deliver
        _settings()
        out = send(deliver, _engine(db, write=True, game_id=game_id))
    except Busy as exc:                 # a delivery that could not start is a delivery failure: retry (exit 4)
        _fail(DeliveryError(exc.message), as_json)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
    else:
        typer.echo(_delivered(step, out))


@app.command()
def odds(db: Optional[str] = typer.Argument(None, help="A game database: its rules and map; with --order, the battle in its current state (none needed otherwise)."),
         attacker: Optional[str] = typer.Option(None, "--attacker", help="The attacking units: '3 inf, 1 art, 2 ftr'."),
         defender: Optional[str] = typer.Option(None, "--defender", help="The defending units."),
         order: Optional[str] = typer.Option(None, "--order", help="Combat moves (and a retreat or ool for the battle) of the power on the move: 'cm 3 inf Poland > Belarus'."),
         game: str = typer.Option("demo", "--game", help="The game whose rules fight the battle (without a database)."),
         map_: Optional[str] = typer.Option(None, "--map", help="The TripleA map (path or name), for a game played on one."),
         rules: Optional[str] = typer.Option(None, "--rules", help="The game's rule version."),
         place: Optional[str] = typer.Option(None, "--place", help="Where the battle is (default: a place of the defender that fits)."),
         attacker_power: Optional[str] = typer.Option(None, "--attacker-power", help="Who attacks (default: the first power in turn order)."),
         defender_power: Optional[str] = typer.Option(None, "--defender-power", help="Who defends (default: the first power at war with the attacker)."),
         attacker_ool: Optional[str] = typer.Option(None, "--attacker-ool", help="The attacker's order of loss: 'inf, art, arm' (default: the game's)."),
         defender_ool: Optional[str] = typer.Option(None, "--defender-ool", help="The defender's order of loss."),
         retreat: Optional[int] = typer.Option(None, "--retreat", min=1, max=10_000, help="The attacker retreats at the end of a round with fewer units than this left."),
         round_: Optional[int] = typer.Option(None, "--round", min=1, max=INT_BOUND, help="The game round of the battle, for a rule of a round such as the Pacific's surprise attack in round 1 (default: the game's round with a database, else 1)."),
         runs: Optional[int] = typer.Option(None, "--runs", min=1, max=1_000_000, help="Battles to simulate where exact odds are out of reach (default: 2,000, fewer for a battle of over 40 units, so that it takes seconds)."),
         sim_seed: int = typer.Option(1, "--seed", min=0, max=INT_BOUND, help="The simulation's seed (the same seed, the same figures)."),
         simulated: bool = typer.Option(False, "--simulate", help="Simulate the battle even where exact odds are within reach (to compare with a battle calculator)."),
         game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """The odds of a battle, exact, by the same combat rules that adjudicate it."""
    try:
        from . import cli_odds
        from .odds import reckon
        given = {"--attacker": attacker, "--defender": defender, "--place": place, "--attacker-power": attacker_power,
                 "--defender-power": defender_power, "--attacker-ool": attacker_ool, "--defender-ool": defender_ool,
                 "--retreat": retreat, "--round": round_, "--map": map_, "--rules": rules, "--game": None if game == "demo" else game}
        if db is not None and any(given[o] for o in ("--map", "--rules", "--game")):
            raise AdjudicatorError("a game database brings its own game, rules and map: leave out --game, --map and "
                                   "--rules")
        if order is not None:
            extra = [o for o, v in given.items() if v]
            if extra:
                raise AdjudicatorError(f"--order takes the battle, its sides and their orders from the game: leave out "
                                       f"{', '.join(extra)} (a `retreat` or `ool PLACE:` goes among the orders)")
            position, loaded = cli_odds.position_from_order(_db(db), game_id, order)
            game_rules = loaded.rules
        elif not (attacker and defender):
            raise AdjudicatorError("name both sides: --attacker '3 inf, 1 art' --defender '2 inf' (or a game and "
                                   "--order 'cm …')")
        else:
            game_rules, now = (cli_odds.rules_of_game(_db(db), game_id) if db is not None
                               else (cli_odds.rules_without_db(game, map_, rules), 1))
            position = cli_odds.odds_position(game_rules, attacker, defender, place, attacker_power, defender_power,
                                              attacker_ool, defender_ool, retreat, round_ or now)
        found = reckon(position, runs=runs, seed=sim_seed, simulate_only="asked for with --simulate" if simulated else "")
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(found.to_dict())
    else:
        typer.echo(cli_odds.odds_text(found, game_rules))


@app.command()
def maps(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the TripleA maps found: the name to give `new --map`, the game's title, and our games that play it.

    Searched: the folders of ADJUDICATOR_MAPS_PATH, then TripleA's download folder (~/triplea/downloadedMaps)."""
    try:
        from .config import triplea_maps
        from .games import played_on
        from .triplea.finder import list_maps
        settings = _settings()
        found, zipped = list_maps(settings.maps_path)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    for entry in found:
        _judge_map(entry)
        entry["games"] = played_on(Path(entry["xml"]).stem, [entry["family"]] if entry["family"] else [])
    searched = [{"folder": str(d), "exists": d.is_dir(), "from": "TripleA" if d == triplea_maps() else "ADJUDICATOR_MAPS_PATH",
                 "maps": len({e["folder"] for e in found if e["searched"] == str(d)})} for d in settings.maps_path]
    if as_json:
        _print_json({"maps": found, "searched": searched, "zipped": [str(z) for z in zipped]})
        return
    if found:
        rows = [(e["map"], " ".join(filter(None, (e["name"], e["version"]))) or "(no <info>)",
                 ", ".join(g["game"] + ("" if not g["rules"] else f" (rules {g['rules']})" if g["default"]
                                        else f" --rules {g['rules']}") for g in e["games"]) or "none yet") for e in found]
        rows.insert(0, ("--map NAME", "TripleA game", "played as --game"))
        wide = [max(len(r[k]) for r in rows) for k in range(2)]
        for r, e in zip(rows, [None] + found):
            typer.echo(f"{r[0]:<{wide[0]}}  {r[1]:<{wide[1]}}  {r[2]}".rstrip())
            if e is not None:
                typer.echo(f"    {_family_line(e)}")
    else:
        typer.echo("no TripleA maps found")
    typer.echo("searched: " + "; ".join(
        f"{s['folder']} ({'TripleA' + chr(39) + 's download folder, ' if s['from'] == 'TripleA' else ''}"
        f"{'missing' if not s['exists'] else str(s['maps']) + ' map' + ('' if s['maps'] == 1 else 's')})" for s in searched))
    for z in zipped:
        typer.echo(f"not read: {z} is zipped; unpack it beside itself (a map folder holds map/games/*.xml)")
    if not found:
        typer.echo(f"To add maps: download them in TripleA (it keeps them in {triplea_maps()}), or put unpacked map "
                   f"folders (<map>/map/games/*.xml) in a folder and add it to ADJUDICATOR_MAPS_PATH (in the "
                   f"environment or .env; several folders separated by '{os.pathsep}'). `new --map PATH` also takes "
                   "a game XML from anywhere.")


def _judge_map(entry: dict) -> None:
    """The family that plays a listed map and what the map sets that it does not honour (adjudicator/families.py);
    where no family plays it, what each family refuses. A map that cannot be read says so instead."""
    from .families import FAMILIES, families_for
    from .triplea.importer import read_settings
    try:
        judged = families_for(read_settings(entry["xml"]))
    except AdjudicatorError as exc:
        entry.update(family=None, not_honoured=[], refused={}, error=exc.message)
        return
    playing = [name for name, findings in judged.items() if not any(f.refused for f in findings)]
    entry["family"] = playing[0] if playing else None
    entry["not_honoured"] = [f.to_dict() for f in judged[playing[0]]] if playing else []
    entry["refused"] = {} if playing else {name: [f.to_dict() for f in findings if f.refused]
                                           for name, findings in judged.items()}
    entry["family_title"] = FAMILIES[playing[0]].title if playing else None


def _family_line(entry: dict) -> str:
    if entry.get("error"):
        return f"not read: {entry['error']}"
    if entry["family"] is None:
        refused = [f"{f['name']} = {f['value']}" for findings in entry["refused"].values() for f in findings]
        return "no family plays it: " + "; ".join(dict.fromkeys(refused))
    others = [f"{f['name']} = {f['value']}" if f["value"] else f["name"] for f in entry["not_honoured"]]
    return f"family {entry['family']}" + (f", not honoured: {'; '.join(others)}" if others else ", honours all it sets")


@app.command()
def games(db: Optional[str] = typer.Argument(None, help="A game database (default: ADJUDICATOR_DB); with none, the games `new --game` takes."),
          as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the games of a database (a league's many, a file's one): id, game, round, whose turn, what it awaits.

    Given no database (and no ADJUDICATOR_DB), list the games one can create: names, rule versions, options."""
    try:
        from . import league
        name = db or _default_db()
        out = league.list_games(name) if name else league.game_names()
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
    elif name:
        _print_games(out)
    else:
        _print_names(out)


def _print_games(out: dict) -> None:
    games = out["games"]
    typer.echo(f"{len(games)} game{'s' if len(games) != 1 else ''} in {out['database']}")
    if not games:
        return
    rows = [("id", "game", "round", "turn", "awaiting", "title")]
    rows += [(g["game"], g["name"] + (f" {g['rules']}" if g["rules"] else ""), str(g["round"]),
              f"{g['power']}, {g['phase'].replace('_', ' ')} ({g['turn_index']})", g["awaiting"], g["title"])
             for g in games]
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    for r in rows:
        typer.echo("  ".join(v.ljust(w) for v, w in zip(r, widths)) + "  " + r[5])


def _print_names(out: dict) -> None:
    for g in out["games"]:
        if not g["playable"]:
            typer.echo(f"{g['name']}: not playable yet")
            continue
        versions = (f"rules {', '.join(g['rules'])} (default {g['default_rules']})" if g["rules"] else "")
        where = ("its own scenario made from TripleA's " + g["made_from"] + ".xml (found by name, or --map)"
                 if g.get("made_from") else "on a TripleA map (--map)" if g["needs_map"] else "its own scenario (no --map)")
        typer.echo(f"{g['name']}: {g['title']}; {where}" + (f"; {versions}" if versions else ""))
        for option, what in g["options"].items():
            typer.echo(f"    --option {option}: {what}")
        if g["bids"]:
            typer.echo("    --bid POWER=PUS: a bid for one side, bought and placed before round 1")


@app.command()
def copy(src: str = typer.Argument(..., help="The database the game is in: a SQLite file or a league's URL."),
         dst: str = typer.Argument(..., help="Where the copy goes: a new SQLite file, or a league's URL (postgresql://…)."),
         game_id: Optional[str] = typer.Option(None, "--id", help="The game to copy, when SRC holds several (default: its only game)."),
         as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Copy one whole game, its journal and state, into another database: a file into a league, or back out.

    The copy keeps the game's id (its dice are made with it), so its key file serves it, and `audit` passes on it.
    The destination is written in one transaction; an id the league holds already is refused."""
    try:
        from .store.transfer import copy_game
        out = copy_game(src, dst, game_id)
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    rows = out["rows"]
    typer.echo(f"copied game {out['game']} from {out['from']} to {out['to']}: {rows.get('submission', 0)} submission(s), "
               f"{rows.get('step', 0)} step(s), {rows.get('dice_group', 0)} dice group(s), "
               f"{sum(rows.values())} rows in all")
    typer.echo(f"state hash {out['state_hash']}; the source still holds the game: play on in one of them")


@app.command()
def demo(db: Optional[str] = typer.Option(None, "--db", help="Keep the demo game in this new file (default: a temporary one)."),
         fmt: str = typer.Option("markdown", "--format", help="markdown, bbcode or text."),
         seed: Optional[str] = typer.Option(None, "--seed", help="Chain secret (64 hex digits); default: the demo's fixed test seed.")) -> None:
    """Play one round of the demo scenario from scripted orders and print every report."""
    try:
        from .demo import run_demo
        for chunk in run_demo(db, fmt, seed):
            typer.echo(chunk)
    except AdjudicatorError as exc:
        _fail(exc)


@app.command("settings")
def settings_(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Show where the settings come from: the .env file read, and each ADJUDICATOR_* setting (secrets hidden).

    The .env file is the working folder's, or the one ADJUDICATOR_ENV names; never one in a folder above."""
    try:
        from .config import load_settings, shown
        out = shown(load_settings())
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json(out)
        return
    typer.echo(out["read"])
    width = max((len(row["key"]) for row in out["settings"]), default=0)
    for row in out["settings"]:
        typer.echo(f"{row['key']:<{width}}  {row['value']}  ({'.env' if row['from'] == 'file' else row['from']})")
    if out["warning"]:
        typer.echo(f"warning: {out['warning']}")


from . import cli_inbox  # noqa: E402,F401  (registers `inbox`, which needs the helpers above)
from . import cli_watch  # noqa: E402,F401  (registers `watch`)
from . import cli_site  # noqa: E402,F401  (registers `site`)

explain(app)


@functools.cache
def command() -> typer.core.TyperGroup:
    """The click command typer builds from `app`, once per process: typer reads every command's signature and
    evaluates its annotations to build it (some 17 ms), and a process that runs several commands (the test suite,
    a forked command) needs it built only once. `app` is complete once this module is imported."""
    return typer.main.get_command(app)


def main() -> None:
    # A command is one short process whose objects (a map's scenario, a state of some 800 units, the imported
    # libraries) mostly live to its end: the collector's default thresholds would sweep them again and again.
    gc.set_threshold(50_000, 20, 20)
    try:
        command()()
    except AdjudicatorError as exc:      # raised outside a command's own handling
        typer.echo(f"error: {exc.message}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:             # a bug: say so in one paragraph; ADJUDICATOR_DEBUG=1 shows the traceback
        if os.environ.get("ADJUDICATOR_DEBUG"):
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {exc}. This is a bug in the adjudicator, and nothing "
                   "was saved by the failing step. Please report it with the command you ran "
                   "(set ADJUDICATOR_DEBUG=1 to see the details).", err=True)
        sys.exit(3)
