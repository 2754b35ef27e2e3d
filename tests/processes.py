"""Real `adjudicator` processes for the race and kill tests: started together, killed at a chosen moment, or
stopped at a chosen call.

Each is forked from a zygote: a process of this test process's own that imported the program once, so that a
command starts in milliseconds instead of the third of a second a fresh Python spends importing it. The fork is a
process like any other (its own memory, files, locks and database connections; `kill -9` ends it with no clean-up;
its exit code is the one Python gives); only the start-up of the interpreter, which the other tests run, is
skipped. A racer still waits for the word go, so a race is between the commands themselves.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import adjudicator

# The zygote: imports what the commands use, then forks a waiter per job, which forks the command and records its
# exit code (the zygote itself never waits, so jobs overlap). A job is one JSON line: the program's text, its
# argv, the working folder, the environment and the files of its standard streams.
ZYGOTE = r"""
import json, os, signal, sys, traceback
import adjudicator.cli, adjudicator.game, adjudicator.audit, adjudicator.report, adjudicator.status_view
import adjudicator.delivery.deliver, adjudicator.delivery.nodebb, adjudicator.delivery.mail, adjudicator.picture
import adjudicator.keys, adjudicator.verify, adjudicator.contacts, adjudicator.corrections
import sqlalchemy.dialects.sqlite.pysqlite, sqlalchemy.dialects.postgresql.psycopg
import importlib, pkgutil, adjudicator.games
for game in pkgutil.iter_modules(adjudicator.games.__path__):
    importlib.import_module(f"adjudicator.games.{game.name}")
adjudicator.cli.command()

def run(job):
    for fd, name, mode in ((0, job["stdin"] or os.devnull, os.O_RDONLY),
                           (1, job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                           (2, job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        opened = os.open(name, mode, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    sys.argv = job["argv"]
    code = 0
    try:
        if job["module"]:
            import runpy
            runpy.run_module(job["module"], run_name="__main__", alter_sys=True)
        else:
            exec(compile(job["program"], "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as exc:
        code = exc.code
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
    except KeyboardInterrupt:           # as Python ends on an uncaught Ctrl-C: by the signal itself
        traceback.print_exc()
        code = -signal.SIGINT
    except BaseException:
        traceback.print_exc()
        code = 1
    import atexit, threading
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code & 0xFF)

signal.signal(signal.SIGCHLD, signal.SIG_IGN)          # waiters are reaped by the system
for line in sys.stdin:
    job = json.loads(line)
    if os.fork() == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        pid = os.fork()
        if pid == 0:
            run(job)
        os.write(1, f"{pid}\n".encode())
        status = os.waitpid(pid, 0)[1]
        with open(job["rc"] + ".part", "w") as f:
            f.write(str(os.waitstatus_to_exitcode(status)))
        os.replace(job["rc"] + ".part", job["rc"])
        os._exit(0)
"""


class _Zygote:
    """The test process's zygote, started at its first job; it ends when the test process does (its jobs'
    pipe closes)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.folder = Path(tempfile.mkdtemp(prefix="adjudicator-zygote-"))
        self.jobs = 0
        atexit.register(self.end)

    def end(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def start(self, job: dict) -> tuple[int, Path]:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                # the zygote imports the very program this test process imports, installed or not
                home = str(Path(adjudicator.__file__).resolve().parents[1])
                env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))}
                self.proc = subprocess.Popen([sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, text=True, cwd=self.folder, env=env)
            self.jobs += 1
            files = self.folder / f"job{self.jobs}"
            job |= {"out": f"{files}.out", "err": f"{files}.err", "rc": f"{files}.rc"}
            for name in ("out", "err"):        # there, empty, even for a command killed before it opened them
                Path(job[name]).touch()
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the zygote of the test processes ended; run a command by hand to see why")
            return int(line), files


_ZYGOTE = _Zygote()


class Forked:
    """A command forked from the zygote, as `subprocess.Popen` with text pipes is used here."""

    def __init__(self, argv: list[str], *, module: str | None = None, program: str | None = None,
                 input: str | None = None, env: dict[str, str] | None = None) -> None:
        stdin = None
        if input is not None:
            fd, stdin = tempfile.mkstemp(prefix="stdin-", dir=_ZYGOTE.folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(input)
        self.pid, self._files = _ZYGOTE.start({"argv": argv, "module": module, "program": program, "stdin": stdin,
                                               "cwd": os.getcwd(), "env": dict(os.environ if env is None else env)})
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = int(Path(f"{self._files}.rc").read_text())
            except FileNotFoundError:
                pass
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        pause = 0.0005
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"adjudicator (pid {self.pid})", timeout)
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        return tuple(Path(f"{self._files}.{name}").read_text(encoding="utf-8", errors="backslashreplace")
                     for name in ("out", "err"))


def command(*args: object, input: str | None = None, env: dict[str, str] | None = None) -> Forked:
    """`python -m adjudicator ARGS`, in the environment `env` (default: this process's)."""
    return Forked(["-m", *map(str, args)], module="adjudicator", input=input, env=env)


def program(text: str, *args: object) -> Forked:
    """`python -c TEXT ARGS`."""
    return Forked(["-c", *map(str, args)], program=text)


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
    procs = [program(RACER, folder, f"r{k}", *args) for k, args in enumerate(commands)]
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
    p = command(*args, input=input)
    out, err = p.communicate()
    return Outcome(list(map(str, args)), p.returncode, out, err)


def killed(args: list[object], after: float, when: Callable[[], bool] | None = None) -> Outcome:
    """Start `adjudicator ARGS`, and kill -9 it `after` seconds later, or as soon as `when()` is true (unless it
    finished first)."""
    p = command(*args)
    deadline = time.monotonic() + after
    while p.poll() is None and time.monotonic() < deadline and not (when is not None and when()):
        time.sleep(0.0005 if when is None else 0.005)
    p.kill()
    out, err = p.communicate()
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
    p = program(AT_CALL, where, when, *args)
    out, err = p.communicate()
    return Outcome(list(map(str, args)), p.returncode, out, err)


def paused(where: str, go: Path, *args: object, timeout: float = 60) -> Forked:
    """`adjudicator ARGS` started and stopped at the call `where` (module:name), once it is there; the call goes
    on when the file `go` exists."""
    ready = go.with_name(go.name + ".ready")
    p = program(AT_CALL, where, f"paused:{go}", *args)
    deadline = time.monotonic() + timeout
    while not ready.exists():
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.01)
    return p
