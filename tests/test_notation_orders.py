"""Every normative order form, headers, sections, phase order, the verb registry and the canonical round trip."""

from dataclasses import replace

import pytest
from g40_names import demo_scenario, g40_names_scenario

from adjudicator.errors import ILLEGAL, INVALID
from adjudicator.notation import Lexicon, Reader, VerbRegistry, parse_submission
from adjudicator.notation.orders import (
    Bomb, Buy, End, GameVerb, Move, OrderOfLoss, Place, Repair, Retreat, Salt, Scramble, Submerge, UnitCount, War,
)
from adjudicator.scenario import PHASES

G40 = Lexicon.from_scenario(g40_names_scenario())
DEMO = Lexicon.from_scenario(demo_scenario())
U = UnitCount


def read(lex: Lexicon, text: str, **kw):
    result = parse_submission(text, lex, **kw)
    assert result.errors == [], [e.render() for e in result.errors]
    return result.submission


def bare(order):
    """An order without where it was written, to compare readings."""
    return replace(order, line=0, column=1, source="")


G40_FORMS = [
    ("buy 3 inf, 2 arm", Buy(phase="purchase", units=(U(3, "infantry"), U(2, "armour")))),
    ("buy 3 inf 2 arm", Buy(phase="purchase", units=(U(3, "infantry"), U(2, "armour")))),
    ("buy 1 ftr", Buy(phase="purchase", units=(U(1, "fighter"),))),
    ("buy ftr", Buy(phase="purchase", units=(U(1, "fighter"),))),
    ("buy 2x inf, ftr bmb", Buy(phase="purchase", units=(U(2, "infantry"), U(1, "fighter"), U(1, "bomber")))),
    ("BUY 3 INF", Buy(phase="purchase", units=(U(3, "infantry"),))),
    ("purchase 1 ic", Buy(phase="purchase", units=(U(1, "factory_minor"),))),
    ("repair 3 G5", Repair(phase="purchase", count=3, place="G5")),
    ("repair 3 G5 factory", Repair(phase="purchase", count=3, place="G5", facility="factory")),
    ("repair 2 UK 12 af", Repair(phase="purchase", count=2, place="UK12", facility="airfield")),
    ("repair 1 G5 harbor", Repair(phase="purchase", count=1, place="G5", facility="harbour")),
    ("repair 1 G5 major", Repair(phase="purchase", count=1, place="G5", facility="factory_major")),
    ("war Russians", War(phase="politics", power="Russians")),
    ("war USSR", War(phase="politics", power="Russians")),
    ("declare war on United States", War(phase="politics", power="Americans")),
    ("cm 3 inf, 1 art G5 > G6", Move(phase="combat_move", units=(U(3, "infantry"), U(1, "artillery")),
                                     path=("G5", "G6"))),
    ("cm 2 arm G5 -> G6 -> R3", Move(phase="combat_move", units=(U(2, "armour"),), path=("G5", "G6", "R3"))),
    ("cm 2 arm G5>G6\u2192R3", Move(phase="combat_move", units=(U(2, "armour"),), path=("G5", "G6", "R3"))),
    ("cm 1 trn, 2 inf sz 112 > 113 Sea Zone > G8",
     Move(phase="combat_move", units=(U(1, "transport"), U(2, "infantry")),
          path=("112 Sea Zone", "113 Sea Zone", "G8"))),
    ("move 2 arm G5 > G6", Move(phase="combat_move", units=(U(2, "armour"),), path=("G5", "G6"))),
    ("bomb 2 bmb, 1 ftr G1 > G5", Bomb(phase="combat_move", units=(U(2, "bomber"), U(1, "fighter")),
                                      path=("G1", "G5"))),
    ("bomb 2 bmb G1 > G5 > R1 factory", Bomb(phase="combat_move", units=(U(2, "bomber"),),
                                             path=("G1", "G5", "R1"), facility="factory")),
    ("bomb 1 bmb UK 1 > G5 nb", Bomb(phase="combat_move", units=(U(1, "bomber"),), path=("UK1", "G5"),
                                     facility="harbour")),
    ("retreat R3 > G6", Retreat(phase="combat_move", place="R3", to="G6")),
    ("retreat R3 > G6 after round 2", Retreat(phase="combat_move", place="R3", to="G6", after_round=2)),
    ("retreat R3 > G6 if attackers < 3", Retreat(phase="combat_move", place="R3", to="G6", if_attackers_below=3)),
    ("retreat R3 > G6 after round 1 if attackers <4",
     Retreat(phase="combat_move", place="R3", to="G6", after_round=1, if_attackers_below=4)),
    ("retreat 110 sea zone > sz 111 if attackers < 2 after round 3",
     Retreat(phase="combat_move", place="110 Sea Zone", to="111 Sea Zone", after_round=3, if_attackers_below=2)),
    ("ool R3: inf, art, arm", OrderOfLoss(phase="combat_move", place="R3",
                                          units=("infantry", "artillery", "armour"))),
    ("ool 110 Sea Zone: trn, dd, cv", OrderOfLoss(phase="combat_move", place="110 Sea Zone",
                                                  units=("transport", "destroyer", "carrier"))),
    ("ool inf, art, mech, arm, ftr", OrderOfLoss(units=("infantry", "artillery", "mech_infantry", "armour",
                                                        "fighter"))),
    ("ool inf inf art", OrderOfLoss(units=("infantry", "infantry", "artillery"))),
    ("ool: tra, sub, dd", OrderOfLoss(units=("transport", "submarine", "destroyer"))),
    ("ncm 2 arm G5 > G6", Move(phase="noncombat_move", units=(U(2, "armour"),), path=("G5", "G6"))),
    ("place 3 inf G5", Place(phase="place", units=(U(3, "infantry"),), place="G5")),
    ("place 3 inf, 1 ic UK 19", Place(phase="place", units=(U(3, "infantry"), U(1, "factory_minor")),
                                      place="UK19")),
    ("mobilize 1 dd sz 110", Place(phase="place", units=(U(1, "destroyer"),), place="110 Sea Zone")),
    ("scramble UK1 > 110 Sea Zone", Scramble(place="UK1", sea_zone="110 Sea Zone")),
    ("scramble UK1 > sz 110 max 2", Scramble(place="UK1", sea_zone="110 Sea Zone", max=2)),
    ("submerge always", Submerge(always=True)),
    ("submerge NEVER", Submerge(always=False)),
    ("salt  my Salt: 42 > x  ", Salt(text="my Salt: 42 > x")),
    ("end", End()),
    ("buy: 3 inf", Buy(phase="purchase", units=(U(3, "infantry"),))),
]


@pytest.mark.parametrize("text, expected", G40_FORMS, ids=[t for t, _ in G40_FORMS])
def test_g40_forms(text, expected):
    (order,) = read(G40, text).orders
    assert bare(order) == expected
    assert (order.line, order.column, order.source) == (1, 1, text.strip())


DEMO_FORMS = [
    ("buy 3 inf, 2 arm 1 mech", "buy 3 infantry, 2 armour, 1 mech_infantry"),
    ("repair 2 Germany factory", "repair 2 Germany factory"),
    ("war Soviet Union", "war Russians"),
    ("cm 2 mech infantry East Prussia > Baltic States", "cm 2 mech_infantry East Prussia > Baltic States"),
    ("move 1 tra SZ 1 > 2 sea zone > Sea Zone 3", "cm 1 transport 1 Sea Zone > 2 Sea Zone > 3 Sea Zone"),
    ("bomb 1 tac Germany > Poland > Belarus", "bomb 1 tactical_bomber Germany > Poland > Belarus"),
    ("retreat Belarus > Poland after round 2", "retreat Belarus > Poland after round 2"),
    ("ool Baltic States: inf, aa, arm", "ool Baltic States: infantry, aaGun, armour"),
    ("ncm 1 ftr Germany > East Prussia", "ncm 1 fighter Germany > East Prussia"),
    ("place 1 major Germany", "place 1 factory_major Germany"),
    ("scramble Germany > sz1", "scramble Germany > 1 Sea Zone"),
    ("ool art, inf", "ool artillery, infantry"),
    ("submerge never", "submerge never"),
]


@pytest.mark.parametrize("text, canonical", DEMO_FORMS, ids=[t for t, _ in DEMO_FORMS])
def test_demo_forms(text, canonical):
    (order,) = read(DEMO, text).orders
    assert order.canonical() == canonical


@pytest.mark.parametrize("lex, text", [(G40, t) for t, _ in G40_FORMS] + [(DEMO, t) for t, _ in DEMO_FORMS])
def test_canonical_form_reads_back_as_the_same_order(lex, text):
    (order,) = read(lex, text).orders
    (again,) = read(lex, order.canonical()).orders
    assert bare(again) == bare(order)


# -- headers -----------------------------------------------------------------------------------------

def test_headers():
    sub = read(G40, "Game: league-7 / table 2\nPOWER: Soviet Union\nround: 12\nbuy 3 inf")
    assert (sub.game, sub.power, sub.round) == ("league-7 / table 2", "Russians", 12)
    assert [o.canonical() for o in sub.orders] == ["buy 3 infantry"]


def test_headers_are_optional_and_may_come_alone():
    sub = read(G40, "power: Germans")
    assert (sub.game, sub.power, sub.round, sub.orders) == (None, "Germans", None, [])


# -- sections and phase order ------------------------------------------------------------------------

def test_sections_set_the_running_phase():
    text = "[Purchase]\nbuy 3 inf\n[politics]\n[Combat Move]\nmove 2 arm G5 > G6\n[non-combat move]\nmove 1 ftr G5 > G6\n[mobilize]\nplace 3 inf G5"
    sub = read(G40, text)
    assert [o.phase for o in sub.orders] == ["purchase", "combat_move", "noncombat_move", "place"]


@pytest.mark.parametrize("header, phase", [
    ("[purchase]", "purchase"), ("[combat move]", "combat_move"), ("[combat-move]", "combat_move"),
    ("[cm]", "combat_move"), ("[noncombat move]", "noncombat_move"), ("[non-combat move]", "noncombat_move"),
    ("[ncm]", "noncombat_move"), ("[NonCombat_Move]", "noncombat_move"), ("[place]", "place"),
    ("[mobilize]", "place"), ("Combat move:", "combat_move"), ("Non Combat Move:", "noncombat_move"),
    ("Purchase", "purchase"), ("[b]Politics:[/b]", "politics"), ("PLACE", "place"), ("[buy]", "purchase"),
])
def test_section_names(header, phase):
    sample = {"purchase": "buy 1 inf", "politics": "war Russians", "combat_move": "cm 1 ftr G5 > G6",
              "noncombat_move": "ncm 1 ftr G5 > G6", "place": "place 1 inf G5"}
    assert read(G40, f"{header}\n{sample[phase]}").orders[0].phase == phase
    earlier = list(sample)[list(sample).index(phase) - 1]
    if phase != "purchase":
        result = parse_submission(f"{header}\n{sample[earlier]}", G40)
        assert [(e.kind, e.line) for e in result.errors] == [(ILLEGAL, 2)]


def test_move_is_combat_move_until_that_phase_is_over():
    assert read(G40, "move 1 ftr G5 > G6").orders[0].phase == "combat_move"
    assert read(G40, "move 1 ftr G5 > G6", start_phase="combat_move").orders[0].phase == "combat_move"
    assert read(G40, "move 1 ftr G5 > G6", start_phase="battle").orders[0].phase == "noncombat_move"
    assert read(G40, "move 1 ftr G5 > G6", start_phase="noncombat_move").orders[0].phase == "noncombat_move"
    sub = read(G40, "move 1 ftr G5 > G6\nncm 1 arm G5 > G6\nmove 1 inf G5 > G6")
    assert [o.phase for o in sub.orders] == ["combat_move", "noncombat_move", "noncombat_move"]


def test_standing_orders_and_salt_go_anywhere():
    text = "ool inf, arm\nbuy 3 inf\nsubmerge never\ncm 1 arm G5 > G6\nscramble UK1 > sz 110\nplace 3 inf G5\nsalt x"
    sub = read(G40, text)
    assert [o.phase for o in sub.orders] == ["", "purchase", "", "combat_move", "", "place", ""]


def test_a_whole_turn_in_phase_order():
    text = """
        buy 3 inf, 1 art
        repair 2 G5
        war Russians
        cm 2 arm G5 > R3
        bomb 2 bmb G1 > R3
        retreat R3 > G5 after round 2
        ool R3: inf, arm
        ncm 1 ftr G5 > G6
        place 3 inf G5
        end
    """
    sub = read(G40, text)
    assert [o.phase for o in sub.orders] == ["purchase", "purchase", "politics"] + ["combat_move"] * 4 + [
        "noncombat_move", "place", ""]
    assert sub.ended


def test_the_mover_phases_limit_what_may_be_ordered():
    phases = ["purchase", "combat_move", "battle", "noncombat_move", "place", "end_turn"]
    result = parse_submission("war Russians", G40, phases=phases)
    assert [(e.kind, e.message) for e in result.errors] == [(ILLEGAL, "this turn has no politics phase")]


def test_start_phase_must_be_one_of_the_phases():
    with pytest.raises(ValueError):
        parse_submission("buy 1 inf", G40, start_phase="lunch")
    with pytest.raises(ValueError):
        parse_submission("buy 1 inf", G40, start_phase="politics", phases=["purchase", "place"])


def test_submission_keeps_the_text_as_pasted():
    text = "[code]\r\nbuy 3 inf\r\n[/code]"
    assert read(G40, text).text == text


# -- games add verbs ---------------------------------------------------------------------------------

def ava_verbs() -> VerbRegistry:
    """A sketch of Allies vs. Axis's own verbs on top of the G40 table."""
    verbs = VerbRegistry.g40()
    verbs.register("spin", phase="purchase", parse=lambda r: {}, usage="spin")

    def card(r: Reader) -> dict:
        name = r.word("a card name")
        return {"card": name, "target": None if r.at_end() else r.place()}

    verbs.register("card", phase="politics", parse=card, usage="card NAME [TARGET]", aliases=("play",))
    verbs.register("recruit", phase="place", parse=lambda r: {"units": r.units()}, usage="recruit UNITS")
    verbs.register("ransom", phase="", parse=lambda r: {"answer": r.keyword("pay", "refuse")})
    return verbs


def test_game_verbs_make_game_verb_orders():
    sub = read(DEMO, "spin\nbuy 2 inf\ncard Blitz Poland\nplay Spy\nrecruit 2 inf, arm\nransom PAY", verbs=ava_verbs())
    assert [bare(o) for o in sub.orders] == [
        GameVerb(phase="purchase", name="spin", args={}),
        Buy(phase="purchase", units=(U(2, "infantry"),)),
        GameVerb(phase="politics", name="card", args={"card": "Blitz", "target": "Poland"}),
        GameVerb(phase="politics", name="card", args={"card": "Spy", "target": None}),
        GameVerb(phase="place", name="recruit", args={"units": (U(2, "infantry"), U(1, "armour"))}),
        GameVerb(phase="", name="ransom", args={"answer": "pay"}),
    ]
    assert sub.orders[2].canonical() == "card Blitz Poland"


def test_game_verbs_follow_phase_order_and_report_errors_the_same_way():
    result = parse_submission("card Blitz\nspin\nrecruit 2 tnks", DEMO, verbs=ava_verbs())
    assert [(e.kind, e.line, e.column) for e in result.errors] == [(ILLEGAL, 2, 1), (INVALID, 3, 11)]
    assert "unknown unit 'tnks'" in result.errors[1].message


def test_the_default_table_is_not_changed_by_a_game():
    ava_verbs()
    assert parse_submission("spin", DEMO).errors[0].message.startswith("unknown order 'spin'")


def test_registry_refuses_to_redefine_a_verb_or_an_unknown_phase():
    verbs = VerbRegistry.g40()
    with pytest.raises(ValueError):
        verbs.register("buy", phase="purchase", parse=lambda r: {})
    with pytest.raises(ValueError):
        verbs.register("nap", phase="siesta", parse=lambda r: {})
    copy = verbs.copy()
    copy.alias("acquire", "buy")
    assert verbs.get("acquire") is None and copy.get("ACQUIRE").name == "buy"


def test_every_phase_of_the_table_is_a_known_phase():
    for verb in VerbRegistry.g40().verbs():
        assert verb.phase in (None, "", *PHASES)


def test_a_game_verbs_units_are_written_back_as_orders_write_units():
    from adjudicator.notation.orders import GameVerb, UnitCount
    order = GameVerb(name="egypt", args={"units": (UnitCount(2, "infantry"), UnitCount(1, "paratrooper"))})
    assert order.canonical() == "egypt 2 infantry, 1 paratrooper"
