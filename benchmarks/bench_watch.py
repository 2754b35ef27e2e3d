"""`watch --once` at league scale (issue 33): a league of GAMES demo games in one PostgreSQL database (the test
suite's own server, tests/pgserver.py), each with its forum topic and its players' addresses, a mailbox on IMAP
holding the mail of earlier rounds, and nothing new anywhere; against a league of one game, set up the same way.
Prints one JSON line of figures.

- `round_one_ms`, `round_league_ms`: one round in the process (watch.run_round), the best of RUNS, once each
  game has read the mailbox and its topic a first time;
- `ratio`: the league's round over one game's: the issue asks for a small multiple (the mailbox is read once for
  all games; each game costs a read of its topic's newest page and its share of a few queries over the database);
- `per_game_ms`: what each further game adds;
- `command_one_s`, `command_league_s`: the whole `adjudicator watch DB --once` command, Python's start included.

The forum and the mailbox are the tests' stand-ins on loopback, run in a process of their own (in this one they
would share its interpreter lock with the round measured); LATENCY_MS delays each topic page the forum serves, as
a forum across the internet answers (the topics are read eight at a time). Run
`python benchmarks/bench_watch.py [GAMES] [LATENCY_MS]` from the repository root.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))          # runnable from a checkout without installing the package
sys.path.insert(0, str(ROOT / "tests"))

from adjudicator.config import load_settings  # noqa: E402
from adjudicator.game import new_game  # noqa: E402
from adjudicator.watch import Hosting, run_round  # noqa: E402
from imap_standin import ImapStandIn  # noqa: E402
from nodebb_standin import NodeBBStandIn  # noqa: E402
from pgserver import Server  # noqa: E402

GAMES = 200
RUNS = 3
SEED = "ab" * 32
OLD_MAILS = 50                         # the mailbox's mail of earlier rounds, read once by each game long ago


def league(server: Server, name: str, games: int, topics: int) -> str:
    url = server.url(server.create_database())
    settings = load_settings()
    for k in range(games):
        new_game(url, "demo", settings, players=[("Germans", f"germans{k}@example.org"),
                                                  ("Russians", f"russians{k}@example.org")],
                 seed_hex=SEED, game_id=f"{name}{k:03d}")
    from adjudicator.delivery.deliver import set_topic
    from adjudicator.store import db
    engine = db.open_existing(url)
    for k in range(games):
        set_topic(db.for_game(engine, f"{name}{k:03d}"), str(topics + k))
    engine.dispose()
    return url


def best_round(url: str, hosting: Hosting) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        done = run_round([url], hosting, log=lambda line: None)
        times.append(time.perf_counter() - started)
        assert not done.failures
    return min(times)


def command(url: str) -> float:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "adjudicator", "watch", url, "--once"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return time.perf_counter() - started


def far_forum(latency: float) -> None:
    """Each topic page served `latency` seconds late."""
    import nodebb_standin
    page = nodebb_standin._Handler._topic_page

    def late(self, tid):
        time.sleep(latency)
        return page(self, tid)
    nodebb_standin._Handler._topic_page = late


def stand_ins(games: int, latency: float, ready, stop) -> None:
    """The mailbox and the forum, serving until `stop` is set; their addresses sent on `ready`. The forum takes
    as many connections at once as a real one's web server does, not the five of Python's socketserver (the eight
    readers' sixth connection would wait a second for its SYN to be sent again)."""
    import nodebb_standin
    nodebb_standin.ThreadingHTTPServer.request_queue_size = 128
    far_forum(latency)
    with ImapStandIn(users={"host@example.org": "pw"}) as imap, \
            NodeBBStandIn(tokens={"tok": "host"}, topics=range(1, games + 2), post_delay=0) as forum:
        for k in range(OLD_MAILS):
            imap.append(f"From: someone@example.org\r\nSubject: chat {k}\r\nMessage-ID: <m{k}@example.org>"
                        f"\r\n\r\nhello\r\n".encode())
        for tid in range(1, games + 2):
            forum.open_topic(tid, "host", f"Game {tid}: orders here", f"game {tid}")
        ready.send((imap.host, imap.port, forum.url))
        stop.wait()


def main(games: int, latency_ms: float) -> dict:
    import multiprocessing
    ready, told = multiprocessing.Pipe()
    stop = multiprocessing.Event()
    servers = multiprocessing.Process(target=stand_ins, args=(games, latency_ms / 1000, told, stop), daemon=True)
    servers.start()
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update({"ADJUDICATOR_KEYS_DIR": str(Path(folder) / "keys"), "HOME": folder, "ADJUDICATOR_ENV": ""})
        server = Server()
        try:
            host, port, url = ready.recv()
            os.environ.update({"ADJUDICATOR_IMAP_HOST": host, "ADJUDICATOR_IMAP_PORT": str(port),
                               "ADJUDICATOR_IMAP_USER": "host@example.org", "ADJUDICATOR_IMAP_PASSWORD": "pw",
                               "ADJUDICATOR_NODEBB_URL": url, "ADJUDICATOR_NODEBB_TOKEN": "tok",
                               "ADJUDICATOR_SMTP_HOST": "127.0.0.1", "ADJUDICATOR_SMTP_FROM": "host@example.org"})
            hosting = Hosting.from_env(load_settings())
            one, many = league(server, "one", 1, 1), league(server, "league", games, 2)
            for league_url in (one, many):                # the first round reads everything once
                run_round([league_url], hosting, log=lambda line: None)
            round_one, round_many = best_round(one, hosting), best_round(many, hosting)
            command_one, command_many = command(one), command(many)
        finally:
            server.stop()
            stop.set()
            servers.join()
    return {"games": games, "latency_ms": latency_ms, "round_one_ms": round(round_one * 1000, 1),
            "round_league_ms": round(round_many * 1000, 1), "ratio": round(round_many / round_one, 1),
            "per_game_ms": round((round_many - round_one) / (games - 1) * 1000, 2),
            "command_one_s": round(command_one, 2), "command_league_s": round(command_many, 2)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES,
                          float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)))
