"""The Expanded Global Scenario's wars and alliances (issue 29, item 3; EG-05, EG-06, EG-60 … EG-66).

RULINGS.md "eg-declaration-timing", "eg-alliance-wars", "eg-alliance-offers", "eg-leaving-an-alliance",
"eg-surprise-attack", "eg-entering-territory". Everything is kept in the State's own records, so a saved game
carries it:

* state.switches["war-round:A|B"] = "R": the round in which A and B went to war (a declaration, a joined
  alliance); combat between them is allowed from round R+1 (combat_allowed);
* state.switches["surprise:A|B"] = "R": the war began with A's Surprise Attack on B: combat allowed at once;
* state.switches["offer:ID"] = JSON {"from", "to", "round", "members", "accepted"}: a pending alliance offer;
  state.spent["offers"] counts them (the ids are "A1", "A2" …);
* state.switches["answer:ID:NATION"] = "accept" | "refuse": an answer filed, applied at NATION's next
  `alliances` phase;
* state.switches["leave:NATION"] = "": a departure filed, applied at the next turn start or NATION's `alliances`
  phase, whichever comes first;
* state.switches["surprise-report:A:B"] = JSON: a Surprise Attack made in this combat move, reported as the
  battle phase begins;
* state.spent["influence:NATION"]: stored Influence (kept by the influence step), lost by a Surprise Attack.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.notation.orders import GameVerb, War
from adjudicator.notation.parser import Reader
from adjudicator.notation.verbs import VerbRegistry, _declare, _war
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, pair_key
from adjudicator.words import possessive

from .influence import neutral_owners
from .phrases import said
from .scenario import NEUTRAL_PEACE, PEACE

ALLIED = "Allied"           # the map's relationship of archetype "allied" that an alliance sets


def _key(a: str, b: str) -> str:
    return "|".join(pair_key(a, b))


# -- the verbs ------------------------------------------------------------------------------------------------


def add_verbs(reg: VerbRegistry) -> VerbRegistry:
    """`war NATION` (and `declare war on NATION`) in the declare_war step instead of G40's politics phase;
    `ally NATION` (or `alliance NATION`) in the alliances step; `accept ID`, `refuse ID` and `leave [NATION]` at any
    time, by any nation (standing orders: DESIGN.md "Agreements between powers", RULINGS.md
    "eg-leaving-an-alliance")."""
    for word in ("war", "declare"):
        reg._words.pop(word, None)          # the G40 words are bound to the politics phase: the game's own form
    reg.register("war", phase="declare_war", order=War, usage="war NATION", parse=_war)
    reg.register("declare", phase="declare_war", order=War, usage="declare war [on] NATION", parse=_declare)
    reg.register("ally", phase="alliances", usage="ally NATION", parse=lambda r: {"nation": r.power()},
                 aliases=("alliance",))
    reg.register("draw", phase="alliances", usage="draw", parse=lambda r: {})
    reg.register("leave", phase="", usage="leave [NATION]", parse=_leave)
    reg.register("accept", phase="", usage="accept ID [TERMS]", parse=_answer_args)
    reg.register("refuse", phase="", usage="refuse ID", parse=lambda r: {"offer": r.word("an offer's id").upper()})
    return reg


def _leave(r: Reader) -> dict:
    return {} if r.at_end() else {"nation": r.power()}


def _answer_args(r: Reader) -> dict:
    """`accept ID`, or `accept ID TERMS` where the kind of offer asks the answerer for terms (a victor's surrender
    terms): the terms are read against the board when the answer is checked (Agreement.check_terms)."""
    args = {"offer": r.word("an offer's id").upper()}
    if not r.at_end():
        write = TERMS_WRITERS.get(args["offer"][:1], lambda text, lexicon: text)
        args["terms"] = write(r.rest("the terms"), r.lexicon)
    return args


TERMS_WRITERS: dict = {}        # an offer id's prefix -> (terms, lexicon) -> the terms written canonically


# -- relations --------------------------------------------------------------------------------------------------


def nations(rules) -> list[str]:
    return [p.name for p in rules.scenario.players if not p.optional]


def bloc(rules, state: State, nation: str) -> list[str]:
    """The nation and its allies (an alliance, or a nation alone)."""
    return [n for n in nations(rules) if n == nation or rules.archetype(state, nation, n) == "allied"]


def combat_allowed(rules, state: State, a: str, b: str) -> bool:
    """At war, and the round in which the war began is over, or it began with a Surprise Attack between them."""
    if not rules.at_war(state, a, b):
        return False
    if state.switches.get(f"surprise:{_key(a, b)}"):
        return True
    began = state.switches.get(f"war-round:{_key(a, b)}")
    return began is None or int(began) < state.round


def _go_to_war(rules, state: State, side: list[str], other: list[str]) -> list[list[str]]:
    changes = []
    for a in side:
        for b in other:
            if a != b and not rules.at_war(state, a, b):
                state.set_relationship(a, b, rules.war_type())
                state.switches[f"war-round:{_key(a, b)}"] = str(state.round)
                changes.append([a, b])
    return changes


# -- what keeps two nations from war ---------------------------------------------------------------------------

# Checks other parts of the game make before pairs of nations go to war: fn(rules, state, pairs, what) raising a
# RuleViolation (surrender.py: Political terms keep the victor and the loser at peace, EG-14).
PEACE_KEEPERS: list = []


def may_fight(rules, state: State, a: str, b: str, what: str) -> None:
    """`what` (a declaration, a Surprise Attack, a strike) puts the whole blocs of `a` and `b` at war
    ("eg-alliance-wars"): refused if a keeper of the peace forbids any of those pairs."""
    pairs = [(x, y) for x in bloc(rules, state, a) for y in bloc(rules, state, b)]
    for keeper in PEACE_KEEPERS:
        keeper(rules, state, pairs, what)


def may_ally(rules, state: State, members: list[str], what: str) -> None:
    """As an alliance forms its members share one another's wars (EG-62): refused if a keeper of the peace forbids
    any war that would begin so."""
    enemies = sorted({e for m in members for e in nations(rules) if rules.at_war(state, m, e)})
    pairs = [(m, e) for m in members for e in enemies if e not in members]
    for keeper in PEACE_KEEPERS:
        keeper(rules, state, pairs, what)


# -- declarations (EG-64, EG-65) ----------------------------------------------------------------------------------


def may_declare_war(rules, state: State, power: str, target: str) -> None:
    if target not in nations(rules):
        raise RuleViolation(f"{target} is not a nation: war is declared on nations only", "EG-64")
    if target == power:
        raise RuleViolation(f"{power} cannot declare war on itself", "EG-64")
    if rules.friendly(state, power, target):
        raise RuleViolation(f"{power} and {target} are allies", "EG-64")
    if rules.at_war(state, power, target):
        raise RuleViolation(f"{power} are already at war with {target}", "EG-64")
    may_fight(rules, state, power, target, f"{possessive(power)} declaration of war on {target}")


def declared_war(rules, state: State, power: str, target: str, event: dict) -> None:
    """The whole of both blocs go to war (EG-62, "eg-alliance-wars"); combat from the next round (EG-65): said in
    the declaration's own event."""
    state.switches[f"war-round:{_key(power, target)}"] = str(state.round)
    changes = _go_to_war(rules, state, bloc(rules, state, power), bloc(rules, state, target))
    event.update(round=state.round, combat_from=state.round + 1, pairs=[[power, target]] + changes, rule="EG-65")
    said(event)


# -- agreements: offers and answers (DESIGN.md "Agreements between powers") ------------------------------------


@dataclass(frozen=True)
class Agreement:
    """A kind of offer between nations: the answerer's step at which an answer takes effect, and what follows when
    every member has accepted. Alliances and draws are answered at Make Alliances; other kinds register their own
    (`register_agreement`)."""

    phase: str                      # the answerer's step at which its answer takes effect
    rule: str                       # the row (or ruling) an answer's refusal cites
    what: str                       # "alliance offer": how the report names an offer of this kind
    concluded: Callable             # (rules, state, oid, offer, terms: {nation: text}) -> events, all accepted
    check_terms: Callable | None = None     # (rules, state, power, offer, terms | None): refuse an answer's terms
    refused: Callable | None = None         # (rules, state, oid, offer): after a refusal, or expiry unanswered


AGREEMENTS: dict[str, Agreement] = {}


def register_agreement(kind: str, agreement: Agreement) -> None:
    AGREEMENTS[kind] = agreement


def kind_of(found: dict) -> str:
    return found.get("kind", "alliance")


def new_offer(state: State, prefix: str, record: dict) -> str:
    """Files an offer (record: "kind", "from", "to", "members", and the kind's own terms) under a new id made of
    `prefix` and the game's one offer count (A1, D2, S3 …), and returns the id; the offerer has accepted it."""
    state.spent["offers"] = state.spent.get("offers", 0) + 1
    oid = f"{prefix}{state.spent['offers']}"
    state.switches[f"offer:{oid}"] = json.dumps({"round": state.round, "accepted": [record["from"]], **record})
    return oid


def _answer(raw: str) -> tuple[str, str | None]:
    """An answer filed: "accept", "refuse", or JSON {"verb", "terms"} when it carries terms."""
    if raw.startswith("{"):
        found = json.loads(raw)
        return found["verb"], found.get("terms")
    return raw, None


# -- alliances (EG-60 … EG-63) ------------------------------------------------------------------------------------


def offers(state: State) -> dict[str, dict]:
    """The pending offers in the order they were made (A9 before A10): a saved position keeps its records sorted by
    key, a replay (audit) in the order made, and the reports must be alike."""
    found = {k.removeprefix("offer:"): json.loads(v) for k, v in state.switches.items()
             if k.startswith("offer:") and isinstance(v, str)}
    return dict(sorted(found.items(), key=lambda item: int(item[0][1:])))


def offer(rules, state: State, power: str, target: str) -> dict:
    if target == power or target not in nations(rules):
        raise RuleViolation(f"{power} may not ally with {target}: not another nation", "EG-60")
    mine, theirs = bloc(rules, state, power), bloc(rules, state, target)
    if target in mine:
        raise RuleViolation(f"{power} may not ally with {target}: allies already", "EG-60")
    if any(rules.at_war(state, a, b) for a in mine for b in theirs):
        raise RuleViolation(f"{power} may not ally with {target}: at war", "EG-60")
    members = sorted(set(mine) | set(theirs))
    may_ally(rules, state, members, f"the alliance of {power} and {target}")
    oid = new_offer(state, "A", {"from": power, "to": target, "members": members})
    return said({"type": "alliance_offer", "power": power, "target": target, "offer": oid,
                 "addressed": [m for m in members if m != power], "rule": "EG-60"})


def offer_draw(rules, state: State, power: str) -> dict:
    """`draw`: an offer to end the game drawn among every nation that controls territory (RULINGS.md "eg-victory"),
    answered and timed as an alliance offer."""
    pending = [oid for oid, o in offers(state).items() if o.get("kind") == "draw"]
    if pending:
        raise RuleViolation(f"the draw offer {pending[0]} is pending: answer it (`accept {pending[0]}`)", "eg-victory")
    members = [n for n in nations(rules) if n in state.owners.values()]
    if power not in members:
        raise RuleViolation(f"{power} control no territory: only the nations still in the game may offer a draw",
                            "eg-victory")
    oid = new_offer(state, "D", {"kind": "draw", "from": power, "to": None, "members": members})
    return said({"type": "draw_offer", "power": power, "offer": oid,
                 "addressed": [m for m in members if m != power], "rule": "eg-victory"})


def may_answer(rules, state: State, power: str, oid: str, verb: str = "refuse", terms: str | None = None) -> None:
    """An answer is taken only if it can take effect: the offer is pending, addressed to `power`, and `power`'s
    next step at which answers of its kind take effect (Make Alliances for an alliance) comes before the deadline
    (it does unless that step of its own turn is over); terms only where the kind asks for them, and valid."""
    found = offers(state).get(oid.upper())
    if found is None:
        raise RuleViolation(f"there is no pending offer {oid.upper()}: it was never made, or it was refused "
                            "or has expired", "EG-60")
    kind = AGREEMENTS[kind_of(found)]
    if power not in found["members"] or power == found["from"]:
        raise RuleViolation(f"the offer {oid.upper()} is not addressed to {power}", kind.rule)
    order = rules.scenario.turn_players()
    deadline = (found["round"] + 1, order.index(found["from"]))     # offers are made in the offerer's own turn
    answered = _next_step(rules, state, power, kind.phase)
    if answered > deadline:
        steps = rules.scenario.steps_of(power, kind.phase)
        step = steps[0].display if steps else kind.phase
        over = (f"{possessive(power, the=True)} {step} step of this turn is over, and its next one"
                if state.power == power and answered[0] > state.round else
                f"{possessive(power, the=True)} next {step} step")
        raise RuleViolation(f"{over}, where an answer takes effect, comes after the offer {oid.upper()} expires as "
                            f"{possessive(found['from'], the=True)} next turn begins: the answer could not take "
                            "effect", kind.rule)
    if verb == "accept" and kind.check_terms is not None:
        kind.check_terms(rules, state, power, found, terms)
    elif terms is not None:
        raise RuleViolation(f"the {kind.what} {oid.upper()} is accepted as it stands: `accept {oid.upper()}` takes "
                            "no terms", kind.rule)


def _next_step(rules, state: State, nation: str, phase: str) -> tuple[int, int]:
    """(round, place in the turn order) of `nation`'s next turn that still plays `phase`: where an answer filed
    now takes effect."""
    order = rules.scenario.turn_players()
    here, there = order.index(state.power), order.index(nation)
    if nation == state.power:
        phases = rules.scenario.phases_of(nation)
        return (state.round if phases.index(state.phase) <= phases.index(phase) else state.round + 1, there)
    return (state.round if there > here else state.round + 1, there)


def file_answer(rules, state: State, power: str, verb: str, oid: str, terms: str | None = None) -> None:
    """`accept ID [TERMS]` / `refuse ID` filed by `power` (in any submission), applied at its next step of the
    offer's kind; a later answer to the same offer replaces an earlier one."""
    may_answer(rules, state, power, oid, verb, terms)
    state.switches[f"answer:{oid.upper()}:{power}"] = (json.dumps({"verb": verb, "terms": terms}) if terms
                                                      else verb)


def may_leave(rules, state: State, power: str, nation: str | None) -> None:
    partners = [n for n in bloc(rules, state, power) if n != power]
    if not partners:
        raise RuleViolation(f"{power} are in no alliance", "EG-63")
    if nation is not None and nation not in partners:
        raise RuleViolation(f"{power} are not allied with {nation}", "EG-63")


def check_standing(rules, state: State, power: str, order: GameVerb, answered: set[str]) -> None:
    """The game's standing orders (`accept`, `refuse`, `leave`), refused at `submit` when they cannot be honoured;
    `answered`: the offers this submission has answered so far (one answer each: two would leave the last one
    silently in force)."""
    if order.name == "leave":
        may_leave(rules, state, power, order.args.get("nation"))
        return
    oid = order.args["offer"].upper()
    if oid in answered:
        kind = AGREEMENTS[kind_of(offers(state)[oid])]
        raise RuleViolation(f"a second answer to {oid} in this post: give one, `accept {oid}` or `refuse {oid}` (a later "
                            "post's answer replaces an earlier one)", kind.rule)
    may_answer(rules, state, power, oid, order.name, order.args.get("terms"))
    answered.add(oid)


def file_standing(rules, state: State, power: str, order: GameVerb) -> None:
    if order.name == "leave":
        state.switches[f"leave:{power}"] = ""
    else:
        file_answer(rules, state, power, order.name, order.args["offer"], order.args.get("terms"))


def alliances_start(rules, state: State, power: str) -> list[dict]:
    """`power`'s departure filed before it (EG-63) and its answers take effect; an offer every member has accepted
    forms its alliance (EG-61, EG-62)."""
    events = leaves_take_effect(rules, state, only=power)
    return events + answers_take_effect(rules, state, power, "alliances") + lapse_stale(rules, state)


def answers_take_effect(rules, state: State, power: str, phase: str) -> list[dict]:
    """`power`'s answers to offers of the kinds answered at `phase` take effect: a refusal ends the offer; the last
    acceptance concludes it (the kind's `concluded`, given every acceptance's terms)."""
    events = []
    for oid, found in offers(state).items():
        kind = AGREEMENTS[kind_of(found)]
        if kind.phase != phase:
            continue
        raw = state.switches.pop(f"answer:{oid}:{power}", None)
        if raw is None:
            continue
        answer, terms = _answer(raw)
        common = {"offer": oid, "power": power, "by": found["from"], "kind": kind_of(found), "what": kind.what,
                  "draw": kind_of(found) == "draw", "rule": kind.rule}
        if answer == "refuse":
            _end_offer(state, oid)
            if kind.refused is not None:
                kind.refused(rules, state, oid, found)
            events.append(said({"type": "offer_refused", **common}))
            continue
        found["accepted"] = sorted(set(found["accepted"]) | {power})
        if terms:
            found.setdefault("terms", {})[power] = terms
        events.append(said({"type": "offer_accepted", **common, **({"terms": terms} if terms else {}),
                            "waiting": [m for m in found["members"] if m not in found["accepted"]]}))
        if set(found["accepted"]) < set(found["members"]):
            state.switches[f"offer:{oid}"] = json.dumps(found)
        else:
            _end_offer(state, oid)
            events += kind.concluded(rules, state, oid, found, found.get("terms", {}))
    return events


def _drawn(rules, state: State, oid: str, found: dict, terms: dict) -> list[dict]:
    state.switches["drawn"] = json.dumps(found["members"])
    return [said({"type": "victory", "side": "draw", "members": found["members"], "offer": oid,
                  "power": found["from"], "rule": "eg-victory"})]


def lapse_stale(rules, state: State) -> list[dict]:
    """Alliance offers whose blocs have changed since they were made (one joined another alliance, or left one) can
    no longer form as offered: they lapse at once, and the report says so, rather than wait for answers."""
    events = []
    for oid, found in offers(state).items():
        if kind_of(found) != "alliance":
            continue
        now = sorted(set(bloc(rules, state, found["from"])) | set(bloc(rules, state, found["to"])))
        if now != found["members"]:
            _end_offer(state, oid)
            events.append(said({"type": "alliance_lapsed", "offer": oid, "power": found["from"],
                                "target": found["to"], "why": "the alliances it would join have changed",
                                "rule": "EG-60"}))
    return events


def _form(rules, state: State, oid: str, found: dict, terms: dict) -> list[dict]:
    a, b = bloc(rules, state, found["from"]), bloc(rules, state, found["to"])
    if sorted(set(a) | set(b)) != found["members"] or any(rules.at_war(state, x, y) for x in a for y in b):
        return [said({"type": "alliance_lapsed", "offer": oid, "power": found["from"], "target": found["to"],
                      "why": "the blocs changed or went to war", "rule": "EG-60"})]
    members = found["members"]
    try:
        may_ally(rules, state, members, "the alliance")
    except RuleViolation as exc:
        return [said({"type": "alliance_lapsed", "offer": oid, "power": found["from"], "target": found["to"],
                      "why": exc.message, "rule": exc.rule})]
    for x in members:
        for y in members:
            if x < y:
                state.set_relationship(x, y, ALLIED)
    enemies = sorted({e for m in members for e in nations(rules) if rules.at_war(state, m, e)})
    changes = _go_to_war(rules, state, members, enemies)       # the joined blocs' wars are shared (EG-62)
    return [said({"type": "alliance_formed", "offer": oid, "members": members, "wars": changes, "rule": "EG-61"})]


def _end_offer(state: State, oid: str) -> None:
    state.switches.pop(f"offer:{oid}", None)
    for k in [k for k in state.switches if k.startswith(f"answer:{oid}:")]:
        state.switches.pop(k)


def turn_start(rules, state: State, power: str) -> list[dict]:
    """The deadline: `power`'s pending offers end, refused by silence; pending departures take effect."""
    events = leaves_take_effect(rules, state)
    for oid, found in offers(state).items():
        if found["from"] == power:
            _end_offer(state, oid)
            silent = [m for m in found["members"] if m not in found["accepted"]]
            kind = AGREEMENTS[kind_of(found)]
            if kind.refused is not None:
                kind.refused(rules, state, oid, found)
            events.append(said({"type": "offer_refused", "offer": oid, "power": power, "silent": silent,
                                "kind": kind_of(found), "what": kind.what, "draw": kind_of(found) == "draw",
                                "why": "no answer by the deadline", "rule": kind.rule}))
    return events


def leave(rules, state: State, power: str) -> dict:
    """`power` and its partners are at peace with one another; their wars stay (RULINGS.md "eg-leaving-an-alliance")."""
    partners = [n for n in bloc(rules, state, power) if n != power]
    for p in partners:
        state.set_relationship(power, p, PEACE)
    return said({"type": "alliance_left", "power": power, "partners": partners, "rule": "EG-63"})


def leaves_take_effect(rules, state: State, only: str | None = None) -> list[dict]:
    """Departures filed (state.switches["leave:NATION"]) take effect, in the order of the turn: all of them as a turn
    starts, or `only` one nation's as its `alliances` phase begins. One whose alliance has already broken up (its
    partners left first) has nothing left to leave, and the report says so."""
    events = []
    for nation in nations(rules):
        if f"leave:{nation}" not in state.switches or only not in (None, nation):
            continue
        state.switches.pop(f"leave:{nation}")
        if any(n != nation for n in bloc(rules, state, nation)):
            events.append(leave(rules, state, nation))
        else:
            events.append(said({"type": "alliance_left", "power": nation, "partners": [], "rule": "EG-63"}))
    return events + (lapse_stale(rules, state) if events else [])


# -- Surprise Attacks (EG-66, EG-67) ------------------------------------------------------------------------------


def surprise_attack(rules, state: State, power: str, victim: str) -> None:
    """A combat move of `power` against `victim` without combat allowed: legal; both blocs at war at once, combat
    allowed between `power` and the victim's bloc now; `power` and its alliance lose their stored Influence."""
    may_fight(rules, state, power, victim, f"a Surprise Attack by {power} on {victim}")
    theirs = bloc(rules, state, victim)
    mine = bloc(rules, state, power)
    _go_to_war(rules, state, mine, theirs)
    for b in theirs:
        state.switches[f"surprise:{_key(power, b)}"] = str(state.round)
    report_key = f"surprise-report:{power}"
    report = json.loads(state.switches.get(report_key) or '{"victims": [], "lost": {}}')
    if victim not in report["victims"]:
        report["victims"].append(victim)
    for m in mine:
        lost = state.spent.pop(f"influence:{m}", 0)
        if lost or m not in report["lost"]:
            report["lost"][m] = report["lost"].get(m, 0) + lost
    state.switches[report_key] = json.dumps(report)


def surprise_reports(state: State, power: str) -> list[dict]:
    raw = state.switches.pop(f"surprise-report:{power}", None)
    if not raw:
        return []
    report = json.loads(raw)
    return [said({"type": "surprise_attack", "power": power, "victims": report["victims"], "lost": report["lost"],
                  "rule": "EG-67"})]


def entering(rules, state: State, power: str, place: str, phase: str) -> None:
    """A combat move into land of a nation `power` has no combat allowed with, by land or by air, is a Surprise
    Attack (RULINGS.md "eg-entering-territory"); one into a neutral's land attacks it with no declaration
    ("eg-neutrals"): `power` is at war with that neutral owner until its turn ends (neutrals_at_peace), which is no
    war between nations (nations_at_war_with), and only the neutrals it attacks are open to its aircraft
    (air_open); elsewhere nothing changes."""
    owner = rules.owner(state, place)
    if phase == "combat_move" and owner in neutral_owners(rules):
        if not rules.at_war(state, power, owner):
            state.set_relationship(power, owner, rules.war_type())
        attacked = json.loads(state.switches.get(f"neutrals-attacked:{power}") or "[]")
        if place not in attacked:
            state.switches[f"neutrals-attacked:{power}"] = json.dumps(sorted(attacked + [place]))
    if (phase == "combat_move" and owner in nations(rules) and owner != power
            and not rules.friendly(state, power, owner) and not combat_allowed(rules, state, power, owner)):
        surprise_attack(rules, state, power, owner)


def air_open(rules, state: State, power: str, place: str) -> bool:
    """A neutral's land is closed to aircraft (BG-41) unless `power` attacks it this turn: being at war with its
    owner for the turn opens none of that owner's other lands."""
    if rules.owner(state, place) not in neutral_owners(rules):
        return True
    return place in json.loads(state.switches.get(f"neutrals-attacked:{power}") or "[]")


def neutrals_at_peace(rules, state: State, power: str) -> None:
    """As `power`'s turn ends, it is at peace again with the neutral owners it attacked (RULINGS.md "eg-neutrals")."""
    state.switches.pop(f"neutrals-attacked:{power}", None)
    for owner in neutral_owners(rules):
        if rules.at_war(state, power, owner):
            state.set_relationship(power, owner, NEUTRAL_PEACE)


register_agreement("alliance", Agreement("alliances", "EG-60", "alliance offer", _form))
register_agreement("draw", Agreement("alliances", "eg-victory", "draw offer", _drawn))
