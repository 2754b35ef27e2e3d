"""A whole round of the classic family on its maps, through the command line as players and hosts use it: each
power of europe_improved (Germans, Russians, British, Americans) and of pacific (Japanese, British, Australians,
Chinese, Americans, as the map orders them) submits and is adjudicated; then `audit` replays the game and every
report, as posted, verifies against the anchor. The orders are legal whatever the dice."""

from __future__ import annotations

import pytest

from conftest import TEST_SEED
from narrative_dice import each_changed_die_is_named
from report_checks import check

EUROPE = "europe_improved/map/games/europe_improved.xml"
PACIFIC = "pacific/map/games/pacific.xml"

EUROPE_ROUND = [
    ("Germans", """buy 3 inf, 1 arm
cm 6 inf, 1 art, 2 arm Poland > East Poland
cm 1 ftr Poland > East Poland
cm 3 inf, 1 arm Rumania > Bessarabia
bomb 1 bmb Germany > Poland > Baltic States > Leningrad
ncm 1 bmb Leningrad > Baltic States > Poland > Germany
place 3 inf, 1 arm Germany
end
"""),
    ("Russians", """buy 6 inf
cm 2 inf Karelia > Finland
place 6 inf Moscow
end
"""),
    ("British", """buy 2 inf, 1 ftr
cm 1 bb, 1 dd North Sea Sea Zone > Danish Sea Sea Zone
cm 2 ftr United Kingdom > North Sea Sea Zone > Danish Sea Sea Zone
place 2 inf, 1 ftr United Kingdom
end
"""),
    ("Americans", """buy 4 inf, 1 tra
place 4 inf United States
place 1 tra U.S. Eastern Coast Sea Zone
end
"""),
]

PACIFIC_ROUND = [
    ("Japanese", """buy 2 inf
cm 4 inf, 1 art Shantung > Kiangsi
cm 2 inf, 2 art, 1 arm French Indo-China > Yunnan
place 2 inf Japan
end
"""),
    ("British", """buy 2 inf
buy Australians 2 inf
place 2 inf India
end
"""),
    ("Australians", "place 2 inf New South Wales\nend\n"),
    ("Chinese", "place 2 inf Szechwan\nend\n"),
    ("Americans", "buy 2 inf\nplace 2 inf United States\nend\n"),
]


def play_round(cli, tmp_path, maps_dir, xml: str, script: list[tuple[str, str]]) -> tuple[str, dict]:
    db = tmp_path / "game.db"
    made = cli.json("new", db, "--game", "classic", "--map", maps_dir / xml, "--seed", TEST_SEED, "--id", "cl")
    assert made["powers"][: len(script)] == [power for power, _ in script] or made["powers"] == [p for p, _ in script]
    for power, orders in script:
        assert cli.json("status", db)["power"] == power
        (tmp_path / "orders.txt").write_text(orders)
        cli("submit", db, "--power", power, tmp_path / "orders.txt")
        cli("adjudicate", db)
    return str(db), made


@pytest.mark.parametrize("xml, script", [(EUROPE, EUROPE_ROUND), (PACIFIC, PACIFIC_ROUND)], ids=["europe", "pacific"])
def test_a_whole_round_plays_audits_and_verifies(cli, tmp_path, maps_dir, xml, script):
    db, made = play_round(cli, tmp_path, maps_dir, xml, script)
    now = cli.json("status", db)
    assert (now["round"], now["power"], now["phase"]) == (2, script[0][0], "purchase")
    assert now["turn_index"] == len(script) + 1
    assert "OK: every revealed seed" in cli("audit", db).output
    for turn in range(1, len(script) + 1):
        posted = tmp_path / f"turn{turn}.md"
        posted.write_text(cli("report", db, "--turn", turn).output)
        for fmt in ("markdown", "bbcode", "text"):       # a game with no words of its own: the map's, readable
            check(cli("report", db, "--turn", turn, "--format", fmt).output, fmt)
        verified = cli("verify", posted, "--anchor", made["anchor"], code=None)
        assert verified.exit_code in (0, 2) and f"game cl, turn {turn}" in verified.output, verified.output


def test_europe_round_plays_by_the_classic_rules(cli, tmp_path, maps_dir):
    """What the G40 rules did wrong on this map: Moscow's original factory takes six infantry (CL-23), the
    British units placed in the United Kingdom stay British (CL-11), income is the map's."""
    db, _ = play_round(cli, tmp_path, maps_dir, EUROPE, EUROPE_ROUND)
    report = {turn: cli("report", db, "--turn", turn).output for turn in range(1, 5)}
    assert "6 infantry placed in Moscow" in report[2]
    britain = cli.json("status", db)["territories"]["United Kingdom"]
    assert britain["owner"] == "British" and set(britain["units"]) == {"British"}, britain
    assert britain["units"]["British"]["infantry"] == 6 and britain["units"]["British"]["fighter"] >= 3
    for fmt in ("markdown", "bbcode", "text"):         # the raid's dice the narrative prints are held to the block
        each_changed_die_is_named(cli, tmp_path,
                                  cli("report", db, "--turn", 1, "--format", fmt).output, {
                                      r"at every raiding aircraft: 1 shot @1: (\d)":
                                          "the AA fire at the raid on the factory in Leningrad",
                                      r"Bombing: (\d)": "the damage of the raid on the factory in Leningrad"})


def test_pacific_round_gives_china_its_infantry_and_no_income(cli, tmp_path, maps_dir):
    """China buys nothing: it receives infantry for its valued territories (CL-16) and collects no PUs."""
    db, _ = play_round(cli, tmp_path, maps_dir, PACIFIC, PACIFIC_ROUND)
    china = cli("report", db, "--turn", 4).output
    assert "Chinese receive 2 infantry to place: 1 for each territory with a value they hold" in china, china
    assert "2 infantry placed in Szechwan" in china and "not placed, lost" not in china
    assert cli.json("status", db)["powers"]["Chinese"]["treasury"] == 0


def test_a_power_that_buys_in_another_turn_is_told_where(cli, tmp_path, maps_dir):
    """pacific's Australians buy inside the British turn: their own `buy` is refused, saying where it goes."""
    db = tmp_path / "p.db"
    cli("new", db, "--game", "classic", "--map", maps_dir / PACIFIC, "--seed", TEST_SEED)
    (tmp_path / "o.txt").write_text("buy 2 inf\n")
    out = cli("submit", db, "--power", "Australians", tmp_path / "o.txt", code=1).output
    assert ("this turn has no purchase phase: Australians buy in the British turn: the British submission writes "
            "`buy Australians UNITS`") in out


def test_the_aa_gun_is_named_as_the_rulebook_prints_it(cli, tmp_path, maps_dir):
    """The maps' `aaGun` read "aa Gun" in the warning of submit, the report and status; players write AA gun."""
    db = tmp_path / "p.db"
    cli("new", db, "--game", "classic", "--map", maps_dir / PACIFIC, "--seed", TEST_SEED)
    filed = cli("submit", db, "--power", "Japanese", "-", input="buy 1 aa\nend\n").output
    assert "1 AA gun" in filed and "aa Gun" not in filed, filed
    report = cli("adjudicate", db).output
    assert "buy 1 AA gun" in report and "aa Gun" not in report, report
    assert "aa Gun" not in cli("status", db, "--power", "Japanese").output


def test_a_unit_the_orders_give_no_abbreviation_is_named_whole_on_the_map(cli, tmp_path, maps_dir):
    """Pacific's marines: the orders know no `mari`, so the map's callouts say `marine`, as an order writes it."""
    from adjudicator.picture import plan
    from adjudicator.store.db import open_existing, the_game, transaction
    db = tmp_path / "p.db"
    cli("new", db, "--game", "classic", "--map", maps_dir / PACIFIC, "--seed", TEST_SEED)
    engine = open_existing(str(db))
    with transaction(engine) as s:
        rows = [row for c in plan(s, the_game(s), None).callouts for _, row in c.rows]
    engine.dispose()
    assert any("marine" in row for row in rows) and not any("mari " in row + " " for row in rows), rows
