"""`adjudicator watch DB…`: the games of the databases hosted unattended (watch.py), one round (`--once`, for cron)
or a round every `--every` seconds until Ctrl-C.

Registered on the `adjudicator` command by cli.py; the store is imported inside the command, as cli.py does.
"""

from __future__ import annotations

import time

import typer

from .cli import _fail, _settings, app
from .errors import AdjudicatorError

DEFAULT_EVERY = 60.0


@app.command()
def watch(dbs: list[str] = typer.Argument(..., help="Game databases: SQLite files, or a league's database URL "
                                                   "(every game in it)."),
          every: float = typer.Option(DEFAULT_EVERY, "--every", min=1.0, max=86400.0,
                                      help="Seconds from the start of one round to the start of the next."),
          once: bool = typer.Option(False, "--once", help="One round, then exit (for cron): exit 0 when all went "
                                                          "well, 4 when something failed and waits for the next.")) -> None:
    """Host the games unattended: read the players' mail (ADJUDICATOR_MAILDIR, or ADJUDICATOR_IMAP_*) and the
    posts in each game's forum topic, take the orders, answer each message where it came from, adjudicate what is
    complete, and post and mail the reports. A line on standard error for each thing done; killed and run again,
    it takes, answers and delivers nothing twice."""
    from .watch import Hosting, run_round, stderr
    try:
        _settings()                                 # loads .env, where the mailbox and delivery settings may be
        hosting = Hosting.from_env()
    except AdjudicatorError as exc:
        _fail(exc)
    try:
        while True:
            started = time.monotonic()
            done = run_round(dbs, hosting)
            if once:
                raise typer.Exit(4 if done.failures else 0)
            time.sleep(max(0.0, every - (time.monotonic() - started)))
    except KeyboardInterrupt:
        stderr("watch: stopped (Ctrl-C); what a round left half done is finished by the next watch")
