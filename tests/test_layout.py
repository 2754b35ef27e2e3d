"""The checkout behaves as the installed package (DESIGN.md "Layout"): a script that puts the repository first on
sys.path (the benchmarks), or `python -m pytest` run in the repository folder (the rule cases), imports the
checkout's adjudicator/, which has no games/ or templates/ of its own; the wheel has them inside it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The checkout first on sys.path, as benchmarks/*.py put it, and without an editable install's finder, which would
# find games/ for it: what a clean clone with a non-editable `pip install .` gives such a script.
PROBE = """import json, sys
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path.insert(0, sys.argv[1])
import adjudicator
from adjudicator.games import GAMES, game_module
from adjudicator.report import environment
print(json.dumps({"package": adjudicator.__file__, "games": sorted(GAMES),
                  "demo": game_module("demo").__file__, "template": environment().get_template("report.markdown.j2").filename}))
"""


def test_a_script_run_from_the_checkout_finds_the_games_and_templates():
    result = subprocess.run([sys.executable, "-c", PROBE, str(ROOT)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert Path(found["package"]).parent == ROOT / "adjudicator"          # the checkout's, not an installed copy
    assert "demo" in found["games"] and "g40-alt-universe" in found["games"]
    assert Path(found["demo"]).is_relative_to(ROOT / "games" / "demo")
    assert Path(found["template"]) == ROOT / "templates" / "report.markdown.j2"
