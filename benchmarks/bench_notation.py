"""Parse and resolve a 1,000-order submission on the G40 Alt-Universe names; the target is under 0.2 s.

Run from the repository root: `.venv/bin/python benchmarks/bench_notation.py`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from g40_names import g40_names_scenario  # noqa: E402

from adjudicator.notation import Lexicon, parse_submission  # noqa: E402

TARGET = 0.2


def submission(n: int = 1000) -> str:
    """n orders in phase order, mixing every G40 form, with forum noise around them."""
    lines = ["game: g40-league-7", "power: Germany", "round: 4", "[code]"]
    blocks = [
        ("buy", lambda i: f"buy {i % 9 + 1} inf, 2 arm 1 ftr"),
        ("cm", lambda i: f"cm {i % 5 + 1} inf, 1 art, 2 mech infantry G{i % 21 + 1} > G{(i + 1) % 21 + 1} > R{i % 32 + 1}"),
        ("cm", lambda i: f"cm 1 trn, 2 inf sz{i % 127 + 1} > SZ {(i + 1) % 127 + 1}  # amphibious"),
        ("retreat", lambda i: f"retreat R{i % 32 + 1} > G{i % 21 + 1} after round 2 if attackers < 3"),
        ("ool", lambda i: f"ool R{i % 32 + 1}: inf, art, mech, arm, ftr"),
        ("ncm", lambda i: f"ncm {i % 4 + 1} tanks, 1 aa gun UK {i % 32 + 1} > UK{(i + 3) % 32 + 1}"),
        ("place", lambda i: f"place {i % 3 + 1} infs, 1 tac G{i % 21 + 1}"),
    ]
    per_block = n // len(blocks)
    count = 0
    for k, (_, make) in enumerate(blocks):
        take = per_block if k < len(blocks) - 1 else n - count
        lines += [make(i) for i in range(take)]
        count += take
    lines += ["[/code]", "--", "Hans"]
    return "\r\n".join(lines)


def main() -> int:
    scenario = g40_names_scenario()
    t0 = time.perf_counter()
    lexicon = Lexicon.from_scenario(scenario)
    t_lex = time.perf_counter() - t0
    text = submission()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        result = parse_submission(text, lexicon)
        times.append(time.perf_counter() - t0)
    first, best = times[0], min(times)
    assert not result.errors, result.errors[:3]
    assert len(result.submission.orders) == 1000
    print(f"lexicon: {t_lex * 1000:.1f} ms; 1,000 orders parsed and resolved: first run {first * 1000:.1f} ms, "
          f"best of 5 {best * 1000:.1f} ms (target {TARGET * 1000:.0f} ms)")
    return 0 if first < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
