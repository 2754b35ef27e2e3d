"""`adjudicator inbox DB FILE|-`: the orders players sent by mail or forum post, taken into a game by hand (what
`watch` does unattended), each answered with the text the host sends back.

Registered on the `adjudicator` command by cli.py; the store is imported inside the command, as cli.py does.
"""

from __future__ import annotations

from typing import Optional

import typer

from .cli import ID_HELP, JSON_HELP, _engine, _fail, _print_json, app
from .errors import AdjudicatorError


@app.command()
def inbox(db: str = typer.Argument(..., help="Game database: a SQLite file path or a database URL."),
          source: str = typer.Argument(..., help="A mail (.eml), a mailbox (mbox), a Maildir folder, a forum post or "
                                                 "topic saved as JSON from NodeBB's API (GET /api/topic/TID), or "
                                                 "the orders as plain text; - for standard input."),
          sender: Optional[str] = typer.Option(None, "--from", help="Only for orders saved as plain text: who sent "
                                               "them, a mail address or forum-uid:N (the forum account with user "
                                               "id N). A mail's sender is its From address and a post's its "
                                               "author's user id; --from is refused with them."),
          game_id: Optional[str] = typer.Option(None, "--id", help=ID_HELP),
          as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Take players' orders from mails or forum posts: each message's sender must be a power's player (its mail
    address, or its forum account); its orders are submitted as `submit` does and the answer to send back is
    printed (exit 0 all accepted, 1 some refused, 2 bad input). A message taken before gets the same answer
    again and changes nothing. Of several messages (a mailbox, a Maildir, a topic), only those addressed to the
    game are taken: [GAME-ID] in the subject, a reply to its mails, a post in its topic; one message given
    alone is taken as the host gives it."""
    answers: list = []
    try:
        from .incoming import read
        from .intake import for_game, take
        messages = read(source, sender)
        engine = _engine(db, write=True, game_id=game_id)
        several = len(messages) > 1
        for m in messages:
            answers.append((m, None if several and not for_game(engine, m) else take(engine, m)))
            if not as_json:                 # each answer as it is made: a failure later loses none of them
                _show(len(answers) > 1, *answers[-1])
    except AdjudicatorError as exc:
        _fail(exc, as_json)
    if as_json:
        _print_json([{"ref": m.ref, "sender": m.sender, "skipped": True} if a is None else
                     {"ref": a.ref, "sender": m.sender, "accepted": a.accepted, "power": a.power,
                      "already": a.already, "answer": a.text} for m, a in answers])
    if not all(a.accepted for _, a in answers if a is not None):
        raise typer.Exit(1)


def _show(after_another: bool, m, a) -> None:
    head = ("\n" if after_another else "") + f"== {m.ref} from {m.sender or 'no sender'}: "
    if a is None:
        typer.echo(head + "skipped: not addressed to this game (no [GAME-ID] in its subject, no reply to the "
                   "game's mails, not in its forum topic); give it alone to take it anyway")
        return
    again = " (taken before: the same answer again)" if a.already else ""
    typer.echo(head + ("accepted" if a.accepted else "refused") + (f" for {a.power}" if a.power else "") + again)
    typer.echo(a.text)
