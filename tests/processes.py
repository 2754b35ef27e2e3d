"""Real `adjudicator` processes for the race and kill tests: started together, or killed at a chosen moment.

A racer imports the whole program first, says it is ready, and waits for the word go; so the race is between
the commands themselves, not between Python start-ups.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RACER = r"""
import os, sys, time
import adjudicator.cli, adjudicator.game, adjudicator.audit, adjudicator.report
folder, name = sys.argv[1], sys.argv[2]
open(os.path.join(folder, name + ".ready"), "w").close()
while not os.path.exists(os.path.join(folder, "go")):
    time.sleep(0.002)
sys.argv = ["adjudicator", *sys.argv[3:]]
adjudicator.cli.main()
"""


@dataclass
class Outcome:
    args: list[str]
    code: int
    out: str
    err: str


def race(commands: list[list[str]], folder: Path, timeout: float = 120) -> list[Outcome]:
    """Run `adjudicator ARGS` for every ARGS at the same moment; their outcomes, in the same order."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "go").unlink(missing_ok=True)
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(folder), f"r{k}", *map(str, args)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k, args in enumerate(commands)]
    deadline = time.monotonic() + timeout
    while not all((folder / f"r{k}.ready").exists() for k in range(len(procs))):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            break
        time.sleep(0.01)
    (folder / "go").touch()
    outcomes = []
    for args, p in zip(commands, procs):
        out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
        outcomes.append(Outcome(list(map(str, args)), p.returncode, out, err))
    for k in range(len(procs)):
        (folder / f"r{k}.ready").unlink(missing_ok=True)
    return outcomes


def run(*args: object, input: str | None = None) -> Outcome:
    r = subprocess.run([sys.executable, "-m", "adjudicator", *map(str, args)], capture_output=True, text=True, input=input)
    return Outcome(list(map(str, args)), r.returncode, r.stdout, r.stderr)


def killed(args: list[object], after: float, when: Callable[[], bool] | None = None) -> Outcome:
    """Start `adjudicator ARGS`, and kill -9 it `after` seconds later, or as soon as `when()` is true (unless it
    finished first)."""
    p = subprocess.Popen([sys.executable, "-m", "adjudicator", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + after
    while True:
        try:                                   # a retried communicate loses no output
            out, err = p.communicate(timeout=after if when is None else 0.005)
            break
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline or when is not None and when():
                os.kill(p.pid, signal.SIGKILL)
                out, err = p.communicate()
                break
    return Outcome(list(map(str, args)), p.returncode, out, err)
