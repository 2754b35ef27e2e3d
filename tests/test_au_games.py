"""G40 Alt-Universe played for two whole rounds through the command line, on both rule versions.

The issue's "done when": a scripted two-round game with declarations, battles, captures of cities and objectives
adjudicates, reports, audits and verifies on the 2.0.8 map (Beta-1.3, the default), and the same under
`--rules beta-1.1` on the 2.0.4 map. Every one of the nine powers posts whole turns ending with `end` and each is
adjudicated, from the real starting setup, with test dice (`--seed`).

Round 1. Germany declares war on the UK (ANZAC with it, AU-45) and on France (AU-10), takes F5 and F2 by land
with air support, and sends its fleet against the French cruiser in SZ 23. On the 2.0.8 map F5 has a minor
factory: 3 PUs from France's treasury (AU-132, AU-139); the 2.0.4 map has no factory there, so nothing is paid.
The Soviet Union's declaration of war is refused (AU-12; Beta-1.1: AU11-01) and changes nothing, then it buys
and moves. Japan declares war on China (AU-17), takes C11 and C12 by battle and C16 empty, and misses Trade with
China (AU-78). The US declaration is refused (AU-22). China buys and moves; the UK hunts German submarines in SZ 6
and SZ 47; Italy takes UK22 and attacks the British ships in SZ 88; ANZAC and France buy and place.

Round 2. Germany takes the city F3 with everything next to it: city 5 + minor factory 3 = 8 PUs from France
(AU-134, AU-135; Beta-1.1 pays per territory, AU11-13, the same here). Its turn is posted in two parts, the
combat first and the landing of the aircraft once the battle is known, and the attack is made of whatever
survived in F2 and F5, so every order is legal whatever the dice. Japan declares war on the UK (AU-77 then
missed) and takes C15; the others pass.

Every submission is accepted and every adjudication played; the reports in Markdown, BBCode and text show the
declarations, battles, captures with their bonus and the objectives met and missed; `status --json` shows the
owners and treasuries the reports give; `audit` replays the game and `verify` checks every posted report.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from conftest import TEST_SEED
from report_checks import check

pytestmark = pytest.mark.slow

GAME_ID = "au2r"
LAND = ("infantry", "artillery", "mech_infantry", "armour")
AIR = ("fighter", "tactical_bomber", "bomber")
FORMATS = ("markdown", "bbcode", "text")
ORDER = ["Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "Italians", "ANZAC", "French"]
# How players name the powers (games/g40/names.py), in a report's headings and sentences.
TITLES = {"Germans": "Germany", "Russians": "Soviet Union", "Japanese": "Japan", "Americans": "United States",
          "Chinese": "China", "British": "United Kingdom", "Italians": "Italy", "ANZAC": "ANZAC", "French": "France"}
SUBJECTS = {**TITLES, "Russians": "The Soviet Union", "Americans": "The United States", "British": "The United Kingdom"}

VERSIONS = {
    # rules: (the map's title, the Soviet limit's rule and round, F5's bonus, Sea Lion's cities)
    "beta-1.3": ("G40 Alt Universe 2.0.8", ("AU-12", 4), 3, "UK4, F13, A4"),
    "beta-1.1": ("G40 Alt Universe 2.0.4", ("AU11-01", 3), 0, "UK4, F13"),
}


def units(status: dict, place: str, power: str, types: tuple[str, ...]) -> str:
    """`power`'s units of `types` in `place` as an order's unit list ('' when there are none)."""
    here = status["territories"].get(place, {}).get("units", {}).get(power, {})
    return ", ".join(f"{here[t]} {t}" for t in types if here.get(t))


def plain(text: str) -> str:
    """A report without its BBCode and Markdown markup, so that one phrase can be looked for in every format."""
    return re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", text).replace("**", "").replace("`", "")


# -- the scripts: round -> power -> orders (a function of the status for the orders that depend on dice) ---------

GERMANS_1 = """\
power: Germans
round: 1
buy 5 inf
war British
war French
cm 6 inf G8 > F5
cm 2 art, 1 arm, 3 inf G11 > F5
cm 1 ftr, 1 tac G15 > G11 > F5
ool F5: inf, art, arm, tac, ftr
cm 1 arm, 2 mech G11 > F2
cm 1 arm, 2 inf G10 > F2
cm 1 mech G13 > G10 > F2
cm 1 ftr, 1 tac G13 > G10 > F2
ool F2: inf, mech, arm, tac, ftr
cm 1 cruiser 24 Sea Zone > 23 Sea Zone
cm 1 bb, 1 dd 25 Sea Zone > 24 Sea Zone > 23 Sea Zone
ncm 1 ftr, 1 tac F5 > G11 > G15
ncm 1 ftr, 1 tac F2 > G10 > G13
place 5 inf G15
end
"""


def germans_2_combat(status: dict) -> str:
    """Everything next to F3 attacks it: the land units that took F2 and F5 and the aircraft of G15, G13, G5."""
    lines = ["power: Germans", "round: 2", "buy 4 inf"]
    for place in ("F2", "F5"):
        lines.append(f"cm {units(status, place, 'Germans', LAND)} {place} > F3")
    for path in ("G15 > G11 > F2 > F3", "G13 > G10 > F2 > F3", "G5 > 24 Sea Zone > 23 Sea Zone > F3"):
        air = units(status, path.split(" > ")[0], "Germans", AIR)
        if air:
            lines.append(f"cm {air} {path}")
    lines.append("ool F3: inf, mech, art, arm, tac, ftr, bmb")
    return "\n".join(lines) + "\n"


def germans_2_landing(status: dict) -> str:
    """Part two, once the battle is known: the aircraft over F3 (captured this turn) land in F2, held since round 1."""
    lines = [f"ncm {units(status, 'F3', 'Germans', (t,))} F3 > F2" for t in AIR if units(status, "F3", "Germans", (t,))]
    return "\n".join(lines + ["place 4 inf G15", "end"]) + "\n"


SCRIPT: dict[int, dict[str, str | Callable]] = {
    1: {
        "Germans": GERMANS_1,
        "Russians": "buy 3 inf\nncm 2 inf R3 > R4\nplace 3 inf R4\nend\n",
        "Japanese": """\
buy 3 inf
war Chinese
cm 1 art, 2 inf J2 > C12
cm 1 arm, 1 mech J9 > J2 > C12
cm 2 tac J9 > J2 > C12
cm 1 art, 3 inf J1 > C11
cm 1 ftr, 1 bmb J9 > J1 > C11
cm 1 arm, 2 mech J6 > J7 > C16
ool C12: inf, art, mech, arm, tac
ool C11: inf, art, ftr, bmb
ncm 2 tac C12 > J2 > J9
ncm 1 ftr, 1 bmb C11 > J1 > J9
place 3 inf J9
end
""",
        "Americans": "buy 2 inf\nplace 2 inf US11\nend\n",
        "Chinese": "buy 3 infantryC\nncm 2 infantryC C14 > C8\nplace 3 infantryC C14\nend\n",
        "British": """\
buy 3 inf
cm 1 bb, 1 cruiser, 1 dd 22 Sea Zone > 6 Sea Zone
cm 1 bb 39 Sea Zone > 47 Sea Zone
place 3 inf UK4
end
""",
        "Italians": """\
buy 2 inf
cm 1 arm, 1 art, 4 inf, 1 mech UK21 > UK22
cm 1 arm, 1 mech I2 > UK22
cm 1 art, 4 inf I4 > UK22
cm 1 ftr I1 > I2 > UK22
ool UK22: inf, mech, art, arm, ftr
cm 1 bb, 1 cruiser 86 Sea Zone > 87 Sea Zone > 88 Sea Zone
ncm 1 ftr UK22 > I2 > I1
place 2 inf I1
end
""",
        "ANZAC": "buy 1 inf\nplace 1 inf A4\nend\n",
        "French": "buy 2 inf\nncm 1 inf F9 > F8\nplace 2 inf F13\nend\n",
    },
    2: {
        "Germans": germans_2_combat,           # then germans_2_landing
        "Russians": "end\n",
        "Japanese": """\
buy 3 inf
war British
cm 1 arm, 2 mech C16 > C15
cm 1 art, 3 inf J7 > C15
cm 2 ftr, 2 tac J6 > J7 > C15
ool C15: inf, art, mech, arm, tac, ftr
ncm 2 ftr, 2 tac C15 > J7 > J6
place 3 inf J9
end
""",
        "Americans": "end\n", "Chinese": "end\n", "British": "end\n", "Italians": "end\n", "ANZAC": "end\n",
        "French": "end\n",
    },
}


class Game:
    """One game played through the CLI, checking what every player relies on at each step."""

    def __init__(self, cli, db):
        self.cli, self.db = cli, db
        self.outputs: dict[int, str] = {}           # turn index -> what `adjudicate` printed last
        self.now = self.status()                    # the status as the last command left it

    def status(self) -> dict:
        return self.cli.json("status", self.db)

    def submit(self, power: str, orders: str) -> None:
        out = self.cli("submit", self.db, "--power", power, "-", input=orders).output
        assert " accepted as submission" in out, out
        assert power == "ANZAC" or f"of {power} " not in out, out       # named as players name it: of Germany
        assert "sha256" in out

    def adjudicate(self, power: str, rnd: int) -> str:
        before = self.now
        assert (before["round"], before["power"]) == (rnd, power)
        out = self.cli("adjudicate", self.db).output
        assert f"— round {rnd}, {TITLES[power]}" in out, out
        assert "Order void" not in out, out
        turn = before["turn_index"]
        self.outputs[turn] = out
        self.now = self.status()
        collected = re.search(rf"- {SUBJECTS[power]} collects (\d+) PUs.*\(treasury (\d+)\)", out)
        if collected:                               # the turn is over: the treasury the report gives is the game's
            assert self.now["powers"][power]["treasury"] == int(collected.group(2)), out
        return out

    def refused(self, power: str, orders: str, rule: str, why: str) -> None:
        """A submission the rules forbid: exit 1, the rule's id and words, and nothing changed."""
        out = self.cli("submit", self.db, "--power", power, "-", input=orders, code=1).output
        assert "submission rejected: 1 error" in out, out
        assert f"[{rule}]" in out and why in out, out
        assert "nothing to adjudicate" in self.cli("adjudicate", self.db, code=1).output
        assert self.status() == self.now


@pytest.mark.parametrize("rules", list(VERSIONS))
def test_two_rounds_of_all_nine_powers_adjudicate_report_audit_and_verify(cli, tmp_path, maps_dir, monkeypatch, rules):
    title, (soviet_rule, soviet_round), f5_bonus, sea_lion = VERSIONS[rules]
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))       # the map is found by the rules' version
    db = tmp_path / "au.db"
    args = ["new", db, "--game", "g40-alt-universe", "--seed", TEST_SEED, "--id", GAME_ID]
    created = cli(*args, *(["--rules", rules] if rules != "beta-1.3" else [])).output
    assert f"created game {GAME_ID} ({title}, rules g40-alt-universe {rules})" in created
    game = Game(cli, db)
    start = game.now
    assert (start["title"], start["rules"], start["test_seed"]) == (title, rules, True)
    anchor = start["anchor"]
    treasury: dict[tuple[int, str], dict[str, int]] = {}     # (round, power) -> every treasury before that turn

    for rnd, turns in SCRIPT.items():
        for power in ORDER:
            treasury[rnd, power] = {p: v["treasury"] for p, v in game.now["powers"].items()}
            if (rnd, power) == (1, "Russians"):
                game.refused(power, "power: Russians\nround: 1\nwar Germans\nend\n", soviet_rule,
                             f"the Soviet Union may not declare war before round {soviet_round}")
            if (rnd, power) == (1, "Americans"):
                game.refused(power, "buy 2 inf\nwar Japanese\nplace 2 inf US11\nend\n", "AU-22",
                             "the US may not declare war before round 3")
            orders = turns[power]
            if (rnd, power) == (2, "Germans"):
                game.submit(power, orders(game.now))
                game.adjudicate(power, rnd)
                assert (game.now["power"], game.now["phase"]) == ("Germans", "noncombat_move")
                orders = germans_2_landing(game.now)
            game.submit(power, orders)
            game.adjudicate(power, rnd)
    end = game.now
    assert (end["round"], end["power"], end["phase"], end["turn_index"]) == (3, "Germans", "purchase", 19)

    # -- the reports, in each format, as posted ------------------------------------------------------------------
    reports = {(turn, fmt): cli("report", db, "--turn", turn, "--format", fmt).output
               for turn in range(1, 19) for fmt in FORMATS}
    for turn in range(1, 19):
        assert reports[turn, "markdown"].strip() == game.outputs[turn].strip(), turn     # what was posted
        for fmt in FORMATS:
            posted = tmp_path / f"turn{turn}.{fmt}"
            posted.write_text(reports[turn, fmt])
            verified = cli("verify", posted, "--anchor", anchor).output
            assert f"game {GAME_ID}, turn {turn}" in verified, verified
            if "battle:" in reports[turn, fmt]:     # issue 32: the narrative's dice are held to the block too
                assert "battle roll(s) agree with it" in verified, verified

    def shows(turn: int, *phrases: str) -> None:
        for fmt in FORMATS:
            text = plain(reports[turn, fmt])
            for phrase in phrases:
                assert phrase in text, f"turn {turn}, {fmt}: {phrase!r} not in\n{reports[turn, fmt]}"

    def lacks(turn: int, phrase: str) -> None:
        for fmt in FORMATS:
            assert phrase not in plain(reports[turn, fmt]), f"turn {turn}, {fmt}: {phrase!r}"

    # Every report reads as players write (issue 32): the powers, units and relationships by their names, no marker
    # (city_captured), no Markdown left in BBCode or text; the dice block and the orders keep the game's names.
    for (turn, fmt), text in reports.items():
        check(text, fmt, internal=[p for p in ORDER if p != "ANZAC"])

    # Germans, round 1: two declarations, two land battles and a sea battle, F5's factory pays (2.0.8 map only).
    shows(1, "Germany declares war on the United Kingdom; with it, ANZAC is now at war with Germany.",
          "Germany declares war on France.",
          "F5: Germany attacks France.", "F2: Germany attacks France.", "23 Sea Zone: Germany attacks France.",
          "F5 is captured from France by Germany", "F2 is captured from France by Germany",
          "National objective met: Trade with the Soviet Union, +5 PUs.",
          f"National objective missed: Sea Lion (5 PUs) (none of {sea_lion} held by Germany).")
    if f5_bonus:
        shows(1, "F5 is captured from France by Germany; capture bonus to Germany: minor factory 3 — 3 PUs from France; "
                 "the captured minor factory becomes 1 plundered minor factory.")
    else:
        lacks(1, "capture bonus")
    assert treasury[1, "Russians"]["French"] == treasury[1, "Germans"]["French"] - f5_bonus
    # Japanese, round 1: war on China, two battles and an empty territory taken; Trade with China missed.
    shows(3, "Japan declares war on China.", "C12: Japan attacks China.", "C11: Japan attacks China.",
          "C12 is captured from China by Japan", "C11 is captured from China by Japan",
          "C16 is captured from China by Japan",
          "National objective met: Trade with the US and France, +10 PUs.",
          "National objective missed: Trade with China (5 PUs) (Japan at war with China).")
    shows(5, "China buys 3 infantry for 9 PUs", "China is now allied with the United Kingdom and ANZAC.")
    lacks(5, "Chinese British Allies")                          # the map's trigger's name is no sentence
    shows(6, "6 Sea Zone: the United Kingdom attacks Germany.", "47 Sea Zone: the United Kingdom attacks Germany.")
    shows(7, "UK22: Italy attacks the United Kingdom.", "88 Sea Zone: Italy attacks the United Kingdom.",
          "UK22 is captured from the United Kingdom by Italy")
    # Germans, round 2: the city F3 and its factory, paid from France's treasury.
    shows(10, "F3: Germany attacks France.",
          "F3 is captured from France by Germany; capture bonus to Germany: city 5, minor factory 3 — 8 PUs from France",
          "National objective met: Trade with the Soviet Union, +5 PUs.")
    f3 = plain(reports[10, "text"]).split("F3: Germany attacks France.")[1].split("Result:")[0]
    assert "bomber_payload" not in f3                              # RULINGS.md "bomber-payload": markers only
    # issue 32: AA fire says how many guns fired how many shots; the battle ends with the value each side lost;
    # no phase says "No orders."
    assert re.search(r"AA fire: \d+ AA guns?, \d+ shots? @1: [\d ]+ → \d+ hits?; lost ", f3), f3
    text = reports[10, "text"].split("\n")                          # verify holds the AA line to the block
    k = next(i for i, line in enumerate(text) if i > text.index("  F3: Germany attacks France.") and "AA fire: " in line)
    text[k] = re.sub(r"(@1: )(\d)", lambda m: m[1] + str(int(m[2]) % 6 + 1), text[k], count=1)
    (tmp_path / "aa.txt").write_text("\n".join(text))
    assert f"line {k + 1}: the narrative prints the dice of AA fire in F3" in cli("verify", tmp_path / "aa.txt",
                                                                                     code=1).output
    shows(10, "Units lost by value (TUV): attackers ")
    for turn in range(1, 19):
        lacks(turn, "No orders.")
    if rules == "beta-1.1" and "Round 2," in f3:                   # AU11-09, AU11-10: bombers fight round 1 only
        assert "the attacker's 3 bombers leave the battle: Beta-1.1 bombers attack in the first round only" in f3
    else:
        assert "leave the battle" not in f3
    before, after = treasury[2, "Germans"], treasury[2, "Russians"]
    assert after["French"] == before["French"] - 8
    bought = re.search(r"Germany buys 4 infantry for (\d+) PUs", reports[10, "text"])
    collected = re.search(r"Germany collects (\d+) PUs", reports[10, "text"])
    assert after["Germans"] == before["Germans"] - int(bought.group(1)) + 8 + int(collected.group(1))
    # Japanese, round 2: war on the UK costs Trade with the US and France.
    shows(12, "Japan declares war on the United Kingdom; with it, ANZAC is now at war with Japan.",
          "C15 is captured from China by Japan",
          "National objective missed: Trade with the US and France (10 PUs) (Japan declared war on the United Kingdom, "
          "ANZAC).")

    # -- the position ------------------------------------------------------------------------------------------------
    owners = {t: end["territories"][t]["owner"] for t in ("F2", "F3", "F5", "C11", "C12", "C15", "C16", "UK22")}
    assert owners == {"F2": "Germans", "F3": "Germans", "F5": "Germans", "C11": "Japanese", "C12": "Japanese",
                      "C15": "Japanese", "C16": "Japanese", "UK22": "Italians"}
    powers = end["powers"]
    assert {"British", "ANZAC", "French"} <= set(powers["Germans"]["at_war_with"])
    assert {"Chinese", "British", "ANZAC"} <= set(powers["Japanese"]["at_war_with"])
    assert not {"Germans", "Italians", "Japanese"} & set(powers["Russians"]["at_war_with"] + powers["Americans"]["at_war_with"])
    # AU-30: China is at war when its first turn ends, so the Flying Tigers stay Chinese in C4.
    assert end["territories"]["C4"]["units"]["Chinese"].get("fighter") == 1
    labels = {g["label"] for g in cli.json("rolls", db, "--turn", 10)}
    assert {"battle:F3:r1:attacker", "battle:F3:r1:defender", "aa:F3:r1"} <= labels

    audited = cli("audit", db, "--anchor", anchor).output
    assert "OK: every revealed seed, dice group, state hash, stored report and snapshot replays" in audited

    # BG-24 (AU-01): only artillery lifts mech infantry to 2. No artillery attacks F2, so its three mech infantry
    # roll at 1 on both maps, though the 2.0.4 map still lets armour support them (a slip its author fixed in 2.0.6).
    f2 = re.search(r"^battle:F2:r1:attacker \| d6 \| [\d ]+ \| (.*)$", reports[1, "text"], re.M).group(1)
    assert f2.count("mech_infantry@1") == 3 and "mech_infantry@2" not in f2, f2
