"""The long fuzz run: thousands of pastes up to the submission limit, mangled reports and randomly damaged game
databases, each through the code a player's command runs. Prints, per kind, the examples tried, the crashes
(anything but a clear error; the goal is none) and the slowest input. Figures go in the README.

    python benchmarks/fuzz_long.py [--pastes N] [--reports N] [--databases N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzzing import COMMANDS, crashed, damage, mangle_report, paste  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from adjudicator.cli import app  # noqa: E402
from adjudicator.demo import SCRIPT  # noqa: E402


class Tally:
    def __init__(self, kind: str):
        self.kind, self.tried, self.crashes, self.slowest = kind, 0, [], (0.0, "")

    def run(self, what: str, fn) -> None:
        self.tried += 1
        start = time.perf_counter()
        result = fn()
        seconds = time.perf_counter() - start
        if crashed(result):
            self.crashes.append(f"{what}: exit {result.exit_code}: {result.output.strip()[:200]} {result.exception!r}")
        if seconds > self.slowest[0]:
            self.slowest = (seconds, what)

    def line(self) -> str:
        return (f"{self.kind:10} {self.tried:6} examples, {len(self.crashes)} crashes, slowest {self.slowest[0]:.2f} s "
                f"({self.slowest[1]})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pastes", type=int, default=2000)
    ap.add_argument("--reports", type=int, default=1000)
    ap.add_argument("--databases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        os.chdir(work)                  # where `submit … orders.txt` finds its file, and no developer's .env
        env = {"ADJUDICATOR_KEYS_DIR": str(work / "keys")}
        db = work / "game.db"
        (work / "g.txt").write_text(SCRIPT["Germans"])
        (work / "orders.txt").write_text(SCRIPT["Russians"])

        def cli(*argv, input=None):
            return runner.invoke(app, [str(a) for a in argv], input=input, env=env)

        for argv in (["new", db, "--game", "demo", "--seed", "00" * 31 + "01", "--id", "fuzz"],
                     ["submit", db, "--power", "Germans", work / "g.txt"], ["adjudicate", db]):
            assert cli(*argv).exit_code == 0
        report = cli("report", db).output
        tallies = [Tally("pastes"), Tally("reports"), Tally("databases")]
        for k in range(args.pastes):
            text = paste(rng)
            tallies[0].run(f"paste {k} ({len(text):,} chars)",
                           lambda: cli("submit", db, "--power", "Russians", "--dry-run", "-", input=text))
        for k in range(args.reports):
            post = work / "post.txt"
            post.write_text(mangle_report(rng, report), encoding="utf-8", errors="surrogatepass")
            tallies[1].run(f"report {k} ({post.stat().st_size:,} bytes)", lambda: cli("verify", post))
        for k in range(args.databases):
            copy = work / f"d{k}.db"
            shutil.copy(db, copy)
            what = damage(rng, copy)
            for command in COMMANDS:
                tallies[2].run(f"{what}; {command[0]}", lambda: cli(command[0], copy, *command[1:]))
            copy.unlink(missing_ok=True)
    for t in tallies:
        print(t.line())
        for crash in t.crashes[:20]:
            print("   ", crash)
    sys.exit(1 if any(t.crashes for t in tallies) else 0)


if __name__ == "__main__":
    main()
