"""Real `adjudicator` processes for the race and kill tests: started together, killed at a chosen moment, or
stopped at a chosen call.

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


AT_CALL = r"""
import functools, importlib, os, sys, time
where, when = sys.argv[1], sys.argv[2]
module, _, name = where.partition(":")
owner = importlib.import_module(module)
*path, attr = name.split(".")
for part in path:
    owner = getattr(owner, part)
real = getattr(owner, attr)

@functools.wraps(real)
def stopped(*args, **kwargs):
    if when.startswith("paused:"):
        open(when[7:] + ".ready", "w").close()
        while not os.path.exists(when[7:]):
            time.sleep(0.01)
        return real(*args, **kwargs)
    if when == "before":
        os._exit(137)
    result = real(*args, **kwargs)
    if when == "interrupted":
        raise KeyboardInterrupt
    os._exit(137)

setattr(owner, attr, stopped)
sys.argv = ["adjudicator", *sys.argv[3:]]
import adjudicator.cli
adjudicator.cli.main()
"""


def dying(where: str, when: str, *args: object) -> Outcome:
    """`adjudicator ARGS`, ended at the call `where` (module:name): "before" or "after" it runs, as kill -9 ends
    it (exit 137, no clean-up), or "interrupted" right after it (Ctrl-C: the command's own clean-up runs)."""
    r = subprocess.run([sys.executable, "-c", AT_CALL, where, when, *map(str, args)], capture_output=True, text=True)
    return Outcome(list(map(str, args)), r.returncode, r.stdout, r.stderr)


def paused(where: str, go: Path, *args: object, timeout: float = 60) -> subprocess.Popen:
    """`adjudicator ARGS` started and stopped at the call `where` (module:name), once it is there; the call goes
    on when the file `go` exists."""
    ready = go.with_name(go.name + ".ready")
    p = subprocess.Popen([sys.executable, "-c", AT_CALL, where, f"paused:{go}", *map(str, args)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    while not ready.exists():
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.01)
    return p
