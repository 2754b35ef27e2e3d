"""Reports in the words players use (issue 32): powers, units, facilities and relationships by their names, markers
never shown, politics as sentences, and each format clean — no Markdown left in BBCode or text. Played through
the command line on the G40 2nd-edition map (`--game g40`): an opening round in which Germany declares war on
the true neutrals and attacks France (its major factory captured), Sweden and a fleet, whose battle the dice make
its fighter's landing order void; then every other power passes. The G40 Alt-Universe game (tests/test_au_games.py) holds its reports to
the same checks (tests/report_checks.py)."""

from __future__ import annotations

import pytest

from adjudicator.people import People, counted, speaking, units
from adjudicator.triplea import load_scenario
from conftest import TEST_SEED, Cli, every_report_verifies_and_audit_passes, play_turns
from report_checks import check, problems
from test_delivery import smtp  # noqa: F401 (the stand-in mail server, as a fixture)

G40_2E = "world_war_ii_global/map/games/ww2global40_2nd_edition.xml"
FORMATS = ("markdown", "bbcode", "text")
TURNS = ["Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "UK_Pacific", "Italians", "ANZAC",
         "French"]
# The map's names of powers that players call otherwise: none of them may stand for a power in a report's words.
MAP_NAMES = ["Germans", "Russians", "Japanese", "Americans", "Chinese", "British", "UK_Pacific", "Italians", "French",
             "Neutral_True"]

GERMANS = """\
power: Germans
round: 1
buy 2 mech, 1 tac
war Neutral_True
cm 4 mech, 3 inf, 1 art Western Germany > France
cm 3 tac, 2 ftr Western Germany > France
cm 3 arm, 2 art, 4 inf Holland Belgium > France
cm 1 ftr Holland Belgium > 110 Sea Zone
cm 3 inf Norway > Sweden
cm 1 bb 113 Sea Zone > 112 Sea Zone > 110 Sea Zone
ncm 3 tac, 2 ftr France > Western Germany
ncm 1 ftr 110 Sea Zone > Holland Belgium
place 2 mech, 1 tac Germany
end
"""


@pytest.fixture(scope="module")
def opening(tmp_path_factory, maps_dir):
    """The round played once for the module: the database, its folder, and each turn's report in each format."""
    cli, folder = Cli(), tmp_path_factory.mktemp("g40")
    db = folder / "g40.db"
    with pytest.MonkeyPatch.context() as env:              # as conftest.private_env, for the module
        env.setenv("ADJUDICATOR_KEYS_DIR", str(folder / "keys"))
        env.setenv("HOME", str(folder / "home"))
        cli("new", db, "--game", "g40", "--map", maps_dir / G40_2E, "--seed", TEST_SEED, "--id", "g2e")
        play_turns(cli, db, [("Germans", GERMANS)] + [(power, "end\n") for power in TURNS[1:]])
    reports = {(turn, fmt): cli("report", db, "--turn", turn, "--format", fmt).output
               for turn in range(1, len(TURNS) + 1) for fmt in FORMATS}
    return cli, db, folder, reports


def test_every_report_of_the_opening_is_clean_in_every_format_and_still_verifies(opening):
    cli, db, folder, reports = opening
    for (turn, fmt), text in reports.items():
        check(text, fmt, internal=MAP_NAMES)
    every_report_verifies_and_audit_passes(cli, db, folder, len(TURNS))


def test_germany_s_turn_reads_as_players_say_it(opening):
    _, _, _, reports = opening
    md = reports[1, "markdown"]
    assert "## World War II Global 1940 2nd Edition — round 1, Germany" in md or "— round 1, Germany" in md
    assert "- Germany buys 2 mech infantry, 1 tactical bomber for 19 PUs" in md
    assert "- Germany declares war on the true neutrals; with it, " in md
    assert "Mongolia is now at war with Germany" in md                     # the changes read from the other side
    assert "**France**: Germany attacks the United Kingdom and France." in md
    assert "**Sweden**: Germany attacks the true neutrals." in md
    assert "the captured major factory becomes 1 minor factory" in md
    assert "1 AA gun" in md and "National objective met: Trade with Russia, +5 PUs." in md
    assert "| Soviet Union |" in md and "| UK Pacific |" in md
    assert "Next: round 1, the Soviet Union, purchase." in md
    # the dice block and the orders keep the game's names: `verify` and the notation read them
    assert "mech_infantry@1" in md.split("adjudicator dice")[1]
    assert "- `cm 4 mech_infantry, 3 infantry, 1 artillery Western Germany > France`" in md


def test_an_order_quoted_is_code_in_each_format_and_markdown_in_none_but_markdown(opening):
    _, _, _, reports = opening
    void = "ncm 1 fighter 110 Sea Zone > Holland Belgium"       # the fighter was lost in the sea battle
    assert f"Order void: `{void}`" in reports[1, "markdown"]
    assert f"Order void: [font=monospace]{void}[/font]" in reports[1, "bbcode"]
    assert f"Order void: “{void}”" in reports[1, "text"]
    for fmt in ("bbcode", "text"):
        assert "`" not in reports[1, fmt] and "**" not in reports[1, fmt]
        assert "Compare with the hash the submit command printed." in reports[1, fmt]


@pytest.mark.parametrize("fmt, bad, found", [
    ("bbcode", "[b]Purchase[/b]\nOrder void: `ncm 1 inf F5 > G11`", "Markdown emphasis or code left in BBCode"),
    ("bbcode", "Compare with the hash `submit` printed.", "Markdown emphasis or code left in BBCode"),
    ("bbcode", "[b]Battles[/b]\n[list]\n[*]x\n[/b]", "[/b] closes ['list']"),
    ("bbcode", "### Dice", "a Markdown heading"),
    ("bbcode", "[b]After the turn[/b]\n[list]\n[/list]", "an empty [list]"),
    ("text", "  * Germany buys 1 **tank**", "Markdown emphasis"),
    ("text", "[b]Purchase[/b]", "BBCode in text"),
    ("markdown", "- the captured factory_minor becomes 1 factory_minor_plundered", "'factory_minor'"),
    ("markdown", "- 2 infantryC: C14 > C8", "'infantryC'"),
    ("markdown", "- a city becomes 1 city_captured; independent_neutral_free", "'city_captured'"),
    ("markdown", "- With it: Germans and ANZAC now War.", "the game's name 'Germans'"),
    ("markdown", "- French and Independent_Neutral now Unfriendly Neutral.", "'Independent_Neutral'"),
    ("markdown", "- Chinese British Allies: Chinese and British now Allied.", "the game's name 'Chinese'"),
    ("text", "  * Sweden (Neutral_True) sides with Germany", "'Neutral_True'"),
])
def test_the_checker_finds_each_defect_the_issue_names(fmt, bad, found):
    """report_checks would fail on every example of issue 32 (a report of the whole shape, with one bad line)."""
    dice = {"markdown": "```\nadjudicator dice\n```\n", "bbcode": "[code]\nadjudicator dice\n[/code]\n",
            "text": "adjudicator dice\n\n"}[fmt]
    said = problems(f"{bad}\n\n{dice}", fmt, internal=MAP_NAMES)
    assert any(found in p for p in said), said
    assert not problems(dice, fmt, internal=MAP_NAMES)


def test_a_map_without_words_of_its_own_is_named_readably(maps_dir):
    """A game that gives no table names what the map names, made readable, never an error."""
    scenario = load_scenario(maps_dir / G40_2E)
    plain = People(scenario, {})
    assert plain.power("UK_Pacific") == "UK Pacific" and plain.power("Neutral_True") == "Neutral True"
    assert plain.power("Germans") == "the Germans" and plain.heading("Germans") == "Germans"
    assert plain.unit("mech_infantry@1") == "mech infantry@1" and plain.unit("aaGun") == "aa Gun"
    assert plain.relationship("Unfriendly_Neutral") == "on Unfriendly Neutral terms with"
    assert plain.prose("joins the Neutral_Axis with 2 tactical_bomber") == "joins the Neutral Axis with 2 tactical bomber"
    with speaking(plain):
        assert units({"factory_minor": 1, "infantry": 2}) == "1 factory minor, 2 infantry"


@pytest.mark.parametrize("game, said, heard", [
    ("g40_alt_universe", "Germans fly over F3: it counts as a failed attack on it",
     "Germany flies over F3: it counts as a failed attack on it"),
    ("g40_alt_universe", "French have a city again (F3)", "France has a city again (F3)"),
    ("g40_alt_universe", "none of UK4, F13 held by Germans", "none of UK4, F13 held by Germany"),
    ("g40_alt_universe", "Japanese declared war on British, ANZAC", "Japan declared war on the United Kingdom, ANZAC"),
    ("g40_alt_universe", "no original German, Italian or Japanese territories",
     "no original German, Italian or Japanese territories"),                      # an adjective stays one
    ("g40_alt_universe", "the Germans' turn", "Germany's turn"),
    ("g40_alt_universe", "which joins the Pro_Axis", "which joins the pro-Axis neutrals"),
    ("g40_alt_universe", "Germans use `ncm 1 mech_infantry F5 > G11`", "Germany uses `ncm 1 mech_infantry F5 > G11`"),
    ("g40", "Axis hold French West Africa", "Axis hold French West Africa"),                # a place's name
    ("expanded_global", "Armistice offer R1: Japan offer Russia an armistice — Japan pay 5 IPCs",
     "Armistice offer R1: Japan offers Russia an armistice — Japan pays 5 IPCs"),
    ("expanded_global", "Canada and United States are allies", "Canada and the United States are allies"),
    ("expanded_global", "United States research (research:United States):",
     "The United States researches (research:United States):"),                  # a dice label keeps its name
])
def test_a_games_own_sentence_names_the_powers_as_players_do(game, said, heard):
    """Rules write their own sentences with the map's names (`{power} fly over {place}`): the report names the
    powers by the game's words, with the verb agreed, and leaves adjectives, places, labels and code alone."""
    from importlib import import_module
    table = import_module(f"adjudicator.games.{game}.names").NAMES
    assert People(None, table).prose(said) == heard


@pytest.mark.parametrize("n, name, said", [
    (1, "fighter", "1 fighter"), (2, "fighter", "2 fighters"), (3, "tactical bomber", "3 tactical bombers"),
    (4, "infantry", "4 infantry"), (2, "mech infantry", "2 mech infantry"), (2, "armour", "2 armour"),
    (2, "minor factory", "2 minor factories"), (2, "fighter@3", "2 fighters@3"), (0, "cruiser", "0 cruisers"),
])
def test_units_are_counted_as_players_count_them(n, name, said):
    """`2 fighter` reads as a slip: a count other than one takes the plural, except the units players never
    pluralise (infantry, artillery, armour)."""
    assert counted(n, name) == said


def test_a_territory_named_as_its_owner_is_captured_without_saying_from_whom(opening):
    """G40: the territory France, France's capital, is taken: "France is captured from France" reads as a slip."""
    text = opening[3][1, "text"]
    assert "France is captured by Germany; Germany takes" in text and "captured from France" not in text


def test_a_turns_mail_names_its_power_as_players_do(opening, smtp, tmp_path):
    """The subject of a turn's mail says "Germany", as its report does, not the map's "Germans"."""
    _, db, folder, _ = opening
    cli = Cli()
    copy = tmp_path / "g40.db"
    copy.write_bytes(db.read_bytes())
    cli("contact", copy, "--player", "Germans=hans@example.org")
    cli("mail", copy, "--turn", "1", "--no-picture")
    assert [m["Subject"] for m in smtp.messages] == ["[g2e] round 1, Germany"]
