"""`adjudicator watch DB…`: the games of the databases hosted unattended (watch.py), one round (`--once`, for cron)
or a round every `--every` seconds until Ctrl-C.

Registered on the `adjudicator` command by cli.py; the store is imported inside the command, as cli.py does.
"""

from __future__ import annotations

import time
from typing import Optional

import typer

from .cli import _fail, _settings, app
from .errors import AdjudicatorError, ConfigError

DEFAULT_EVERY = 60


@app.command()
def watch(dbs: list[str] = typer.Argument(..., help="Game databases: SQLite files, or a league's database URL "
                                                   "(every game in it)."),
          every: Optional[int] = typer.Option(None, "--every", min=1, max=86400,
                                              help=f"Seconds from the start of one round to the start of the next "
                                                   f"(default {DEFAULT_EVERY})."),
          once: bool = typer.Option(False, "--once", help="One round, then exit (for cron): exit 0 when all went "
                                                          "well, 4 when something failed and waits for the next.")) -> None:
    """Host the games unattended: read the players' mail (ADJUDICATOR_MAILDIR, or ADJUDICATOR_IMAP_*) and the
    posts in each game's forum topic, take the orders, answer each message where it came from, adjudicate what is
    complete, and post and mail the reports. A line on standard error for each thing done; killed and run again,
    it takes, answers and delivers nothing twice."""
    from .watch import Hosting, run_round, stderr
    try:
        if once and every is not None:
            raise ConfigError("--once runs one round and --every a round every so many seconds: give one of them")
        hosting = Hosting.from_env(_settings())     # .env may hold the mailbox and delivery settings
    except AdjudicatorError as exc:
        _fail(exc)
    try:
        while True:
            started = time.monotonic()
            done = run_round(dbs, hosting)
            if once:
                raise typer.Exit(4 if done.failures else 0)
            time.sleep(max(0.0, (every or DEFAULT_EVERY) - (time.monotonic() - started)))
    except KeyboardInterrupt:
        stderr("watch: stopped (Ctrl-C); what a round left half done is finished by the next watch")
