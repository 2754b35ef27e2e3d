"""Allies vs. Axis played by text through the command line: a scripted two-player game of four rounds that
adjudicates, reports, audits and verifies, and what `new`, `submit` and `edit` refuse before writing anything."""

from __future__ import annotations

import json

import pytest

TEST_SEED = "5b" * 32
NEW = ("new", "av.db", "--game", "allies-vs-axis", "--seed", TEST_SEED, "--id", "av-1")


@pytest.mark.parametrize("args, says", [
    ((), "2 to 4 players"),
    (("--player", "UK=a@example.org", "--player", "US=b@example.org"), "both sides"),
    (("--player", "UK=a", "--player", "Germany=b", "--option", "multiplier-x5"), "no optional rule of that name"),
    (("--player", "UK=a", "--player", "Germany=b", "--option", "world-ruler", "--option", "fierce-battles"), "one Free Mode"),
    (("--player", "UK=a", "--player", "Germany=b", "--map", "x.xml"), "drop --map"),
    (("--player", "UK=a", "--player", "Prussia=b"), "not a power of this game"),
    (("--player", "UK=a", "--player", "UK=b"), "names British twice (UK=a and UK=b)"),
    (("--player", "UK=a", "--player", "Germany=c", "--player", "Germans=d"), "names Germans twice"),
    (("--player", "UK=", "--player", "Germany=b"), "--player UK=: the contact is empty"),
])
def test_new_refuses_a_table_it_cannot_play_and_writes_nothing(cli, tmp_path, args, says):
    result = cli(*NEW, *args, code=2)
    assert says in result.output
    assert not (tmp_path / "av.db").exists()


def orders_for(status: dict) -> str:
    """A plain player: pays a ransom when it must, and lets the space decide the action."""
    me = status["power"]
    board = status["board"]
    lines = ["ransom pay"] if me in board["prisons"] else []
    if status["phase"] == "spin":
        lines.append("spin")
    return "\n".join(lines + ["if land neutral: treaty", "if land secret: base", "if land opponent: invade auto",
                              "if land own: recruit 2 inf", "end"]) + "\n"


def test_a_scripted_game_adjudicates_reports_audits_and_verifies(cli, tmp_path):
    cli(*NEW, "--player", "UK=hans@example.org", "--player", "Germany=fritz@example.org")
    status = cli.json("status", "av.db")
    assert [status["power"], status["phase"], sorted(status["powers"])] == ["British", "spin", ["British", "Germans"]]
    assert status["board"]["tokens"]["British"] == {"space": 1, "name": "United Kingdom"}
    assert status["territories"]["Norway"] == {"owner": None, "units": {"Neutral": {"infantry": 8, "tank": 1, "battleship": 1}},
                                               "kind": "territory", "defend_power": 21}

    # an action before the spin is refused, and changes nothing
    refused = cli("submit", "av.db", "--power", "UK", "-", input="treaty\nend\n", code=1)
    assert "[AV-12]" in refused.output
    assert cli.json("status", "av.db")["state_hash"] == status["state_hash"]
    assert "takes no host corrections" in cli("edit", "av.db", "--reason", "fix", "-", input="pus British 10\n", code=2).output

    # the Germans play their first turn in two posts: the spin, then the actions knowing where they landed
    turns = 0
    for _ in range(8):
        before = cli.json("status", "av.db")
        power = before["power"]
        if power == "Germans" and turns == 1:
            cli("submit", "av.db", "--power", power, "-", input="spin\n")
            cli("adjudicate", "av.db")
            middle = cli.json("status", "av.db")
            assert (middle["power"], middle["phase"]) == ("Germans", "actions")
            cli("submit", "av.db", "--power", power, "-", input=orders_for(middle))
        else:
            cli("submit", "av.db", "--power", power, "-", input=orders_for(before))
        cli("adjudicate", "av.db", "--format", "text")
        turns += 1
        after = cli.json("status", "av.db")
        spins = [g for g in cli.json("rolls", "av.db") if g["turn"] == before["turn_index"] and g["label"] == f"spin:{power}"]
        if power not in before["board"]["prisons"] or after["board"]["tokens"][power] != before["board"]["tokens"][power]:
            assert len(spins) == 1 and spins[0]["sides"] == 6, spins
            moved = (before["board"]["tokens"][power]["space"] - 1 + spins[0]["values"][0]) % 36 + 1
            assert after["board"]["tokens"][power]["space"] == moved
        assert after["turn_index"] == before["turn_index"] + 1 or after["power"] == power
        if after["victory"]["winner"]:
            break

    report = cli("report", "av.db", "--turn", "1", "--format", "text").output
    assert "Board (clockwise" in report and "spin:British | d6 |" in report
    assert "United Kingdom" in report and "Player" in report
    (tmp_path / "post.txt").write_text(report)
    assert "all match" in cli("verify", "post.txt").output
    for fmt in ("markdown", "bbcode"):
        (tmp_path / f"post.{fmt}").write_text(cli("report", "av.db", "--format", fmt).output)
        cli("verify", f"post.{fmt}")
    drawn = cli("map", "av.db", "-o", "board.png").output
    assert "schematic" in drawn and (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    audit = cli("audit", "av.db")
    assert "OK: every revealed seed" in audit.output
    final = cli.json("status", "av.db")
    assert json.dumps(final["board"]["pools"]) and final["state_hash"] in cli("report", "av.db").output


def test_an_imprisoned_player_must_answer_the_ransom(cli):
    cli(*NEW, "--player", "UK=a", "--player", "Germany=b")
    from adjudicator.game import open_game
    from adjudicator.store import db
    engine = db.open_existing("av.db")
    with db.transaction(engine, write=True) as s:
        g = open_game(s)
        g.state.board["prisons"]["British"] = "Germany"
        g.state.board["imprisoned"]["British"] = 1
        db.save_state(s, g.game, g.state)
        s.commit()
    engine.dispose()
    refused = cli("submit", "av.db", "--power", "UK", "-", input="spin\nend\n", code=1)
    assert "ransom pay" in refused.output and "[AV-43]" in refused.output
    cli("submit", "av.db", "--power", "UK", "-", input="ransom refuse\n")
    report = cli("adjudicate", "av.db").output
    assert "refuse the ransom and stay imprisoned in Germany" in report
    assert cli.json("status", "av.db")["power"] == "Germans"


def test_every_ruling_a_case_names_is_in_the_rulings():
    import re
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    headings = set(re.findall(r"^## (\S+)$", (root / "games" / "allies_vs_axis" / "RULINGS.md").read_text(), re.M))
    named = {c["ruling"] for f in (root / "tests" / "cases").glob("av*.toml")
             for c in tomllib.loads(f.read_text())["case"] if "ruling" in c}
    assert named and named <= headings, named - headings


def test_the_players_examples_read_as_documented():
    """docs/allies-vs-axis.md: an ```orders block reads without errors, an ```orders-rejected block gives the errors
    of the ```output block after it; every order of the table is documented as it is written."""
    import re
    from pathlib import Path
    from adjudicator.games import game_module
    from adjudicator.notation import parse_submission
    module = game_module("allies-vs-axis")
    rules = module.RULES(module.scenario(), "")
    doc = (Path(__file__).resolve().parents[1] / "docs" / "allies-vs-axis.md").read_text()
    blocks = re.findall(r"^```([\w-]+)\n(.*?)^```$", doc, re.M | re.S)

    def read(text):
        return parse_submission(text, rules.lexicon(), start_phase="spin", phases=["spin", "actions"], verbs=rules.verbs())
    accepted = [text for info, text in blocks if info == "orders"]
    assert len(accepted) >= 6
    for text in accepted:
        result = read(text)
        assert result.errors == [] and result.submission.orders, "\n".join(e.render() for e in result.errors)
    rejected = [(text, out) for (info, text), (after, out) in zip(blocks, blocks[1:]) if info == "orders-rejected"]
    assert rejected and all(after == "output" for (info, _), (after, _) in zip(blocks, blocks[1:]) if info == "orders-rejected")
    for text, output in rejected:
        assert "\n".join(e.render() for e in read(text).errors) == output.rstrip("\n")
    table = doc.replace("\\|", "|")
    for verb in rules.verbs().verbs():
        assert verb.usage in table or verb.name in ("salt", "end"), verb.usage


def test_the_submit_answer_says_when_a_post_is_the_whole_turn(cli):
    """Any action order makes a post the whole turn, `end` or not (RULINGS.md "conditions", docs): the answer says so,
    and a post of `spin` alone leaves the actions to the next post. `status` counts the money in $M."""
    cli(*NEW, "--player", "UK=a", "--player", "Germany=b")
    alone = cli("submit", "av.db", "--power", "UK", "--dry-run", "-", input="spin\n").output
    assert "covers: spin\n" in alone and "whole turn" not in alone
    whole = cli("submit", "av.db", "--power", "UK", "-", input="spin\nif land neutral: base\n").output
    assert "covers: spin, actions (the whole turn: it ends when these are adjudicated)" in whole
    assert "  if land neutral: base\n" in whole               # echoed as written, not as `treaty`
    status = cli("status", "av.db").output
    assert "   $M  income" in status and "PUs" not in status


def test_the_map_picture_badges_the_tokens_and_defend_armies(cli):
    """This game keeps its armies and tokens outside the state's units: the picture's badges come from its rules
    (public_units), for the position now and, from the turn's snapshot, after a past turn."""
    from adjudicator import picture
    from adjudicator.store import db
    cli(*NEW, "--player", "UK=a", "--player", "Germany=b")
    cli("submit", "av.db", "--power", "UK", "-", input="spin\nend\n")
    cli("adjudicate", "av.db")
    engine = db.open_existing("av.db")
    with db.transaction(engine) as s:
        game = db.the_game(s)
        setup = picture.setup_of(s, game)
        people = picture.People(setup.scenario, setup.rules.people_names)
        now, _ = picture._position(s, game, None, people)
        past, _ = picture._position(s, game, 1, people)
    engine.dispose()
    status = cli.json("status", "av.db")
    tokens = {(t["name"], power) for power, t in status["board"]["tokens"].items()}
    home = status["territories"]["United Kingdom"]["units"]["British"]
    for position in (now, past):
        assert {(place, owner) for place, owner, kind, _ in position["units"] if kind == "token"} == tokens
        assert all(["United Kingdom", "British", unit, n] in position["units"] for unit, n in home.items())
