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
* state.switches["surprise-report:A:B"] = JSON: a Surprise Attack made in this combat move, reported as the
  battle phase begins;
* state.spent["influence:NATION"]: stored Influence (kept by the influence step), lost by a Surprise Attack.
"""

from __future__ import annotations

import json

from adjudicator.notation.orders import GameVerb, War
from adjudicator.notation.parser import Reader
from adjudicator.notation.verbs import VerbRegistry, _declare, _war
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, pair_key

from .scenario import PEACE

ALLIED = "Allied"           # the map's relationship of archetype "allied" that an alliance sets


def _key(a: str, b: str) -> str:
    return "|".join(pair_key(a, b))


# -- the verbs ------------------------------------------------------------------------------------------------


def add_verbs(reg: VerbRegistry) -> VerbRegistry:
    """`war NATION` (and `declare war on NATION`) in the declare_war step instead of G40's politics phase;
    `ally NATION` and `leave [NATION]` in the alliances step; `accept ID`, `refuse ID` at any time."""
    for word in ("war", "declare"):
        reg._words.pop(word, None)          # the G40 words are bound to the politics phase: the game's own form
    reg.register("war", phase="declare_war", order=War, usage="war NATION", parse=_war)
    reg.register("declare", phase="declare_war", order=War, usage="declare war [on] NATION", parse=_declare)
    reg.register("ally", phase="alliances", usage="ally NATION", parse=lambda r: {"nation": r.power()})
    reg.register("leave", phase="alliances", usage="leave [NATION]", parse=_leave)
    reg.register("accept", phase="", usage="accept ID", parse=lambda r: {"offer": r.word("an offer's id").upper()})
    reg.register("refuse", phase="", usage="refuse ID", parse=lambda r: {"offer": r.word("an offer's id").upper()})
    return reg


def _leave(r: Reader) -> dict:
    return {} if r.at_end() else {"nation": r.power()}


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


def declared_war(rules, state: State, power: str, target: str) -> list[dict]:
    """The whole of both blocs go to war (EG-62, "eg-alliance-wars"); combat from the next round (EG-65)."""
    state.switches[f"war-round:{_key(power, target)}"] = str(state.round)
    changes = _go_to_war(rules, state, bloc(rules, state, power), bloc(rules, state, target))
    return [{"type": "war_declared", "power": power, "target": target, "round": state.round,
             "combat_from": state.round + 1, "pairs": [[power, target]] + changes, "rule": "EG-65"}]


# -- alliances (EG-60 … EG-63) ------------------------------------------------------------------------------------


def offers(state: State) -> dict[str, dict]:
    return {k.removeprefix("offer:"): json.loads(v) for k, v in state.switches.items()
            if k.startswith("offer:") and isinstance(v, str)}


def offer(rules, state: State, power: str, target: str) -> dict:
    if target == power or target not in nations(rules):
        raise RuleViolation(f"{power} may not ally with {target}: not another nation", "EG-60")
    mine, theirs = bloc(rules, state, power), bloc(rules, state, target)
    if target in mine:
        raise RuleViolation(f"{power} may not ally with {target}: allies already", "EG-60")
    if any(rules.at_war(state, a, b) for a in mine for b in theirs):
        raise RuleViolation(f"{power} may not ally with {target}: at war", "EG-60")
    state.spent["offers"] = state.spent.get("offers", 0) + 1
    oid = f"A{state.spent['offers']}"
    members = sorted(set(mine) | set(theirs))
    state.switches[f"offer:{oid}"] = json.dumps({"from": power, "to": target, "round": state.round,
                                                  "members": members, "accepted": [power]})
    return {"type": "alliance_offer", "power": power, "target": target, "offer": oid,
            "addressed": [m for m in members if m != power], "deadline": f"the start of {power}'s next turn",
            "rule": "EG-60"}


def file_answer(rules, state: State, power: str, verb: str, oid: str) -> None:
    """`accept ID` / `refuse ID` filed by `power` (in any submission): refused unless the offer is pending and
    addressed to it; applied at its next `alliances` phase."""
    oid = oid.upper()
    found = offers(state).get(oid)
    if found is None:
        raise RuleViolation(f"there is no pending alliance offer {oid}", "EG-60")
    if power not in found["members"] or power == found["from"]:
        raise RuleViolation(f"the alliance offer {oid} is not addressed to {power}", "EG-60")
    state.switches[f"answer:{oid}:{power}"] = verb


def check_answers(rules, state: State, power: str, orders: list) -> list[RuleViolation]:
    """The `accept`/`refuse` orders of a submission, filed; the refusals of those that cannot be."""
    errors = []
    for o in orders:
        if isinstance(o, GameVerb) and o.name in ("accept", "refuse"):
            try:
                file_answer(rules, state, power, o.name, o.args["offer"])
            except RuleViolation as exc:
                errors.append(exc)
    return errors


def alliances_start(rules, state: State, power: str) -> list[dict]:
    """`power`'s answers take effect; an offer every member has accepted forms its alliance (EG-61, EG-62)."""
    events = []
    for oid, found in offers(state).items():
        answer = state.switches.pop(f"answer:{oid}:{power}", None)
        if answer is None:
            continue
        if answer == "refuse":
            _end_offer(state, oid)
            events.append({"type": "alliance_refused", "offer": oid, "power": power, "by": found["from"],
                           "rule": "EG-60"})
            continue
        found["accepted"] = sorted(set(found["accepted"]) | {power})
        if set(found["accepted"]) >= set(found["members"]):
            events += _form(rules, state, oid, found)
        else:
            state.switches[f"offer:{oid}"] = json.dumps(found)
    return events


def _form(rules, state: State, oid: str, found: dict) -> list[dict]:
    _end_offer(state, oid)
    a, b = bloc(rules, state, found["from"]), bloc(rules, state, found["to"])
    if sorted(set(a) | set(b)) != found["members"] or any(rules.at_war(state, x, y) for x in a for y in b):
        return [{"type": "alliance_lapsed", "offer": oid, "power": found["from"], "target": found["to"],
                 "why": "the blocs changed or went to war", "rule": "EG-60"}]
    members = found["members"]
    for x in members:
        for y in members:
            if x < y:
                state.set_relationship(x, y, ALLIED)
    enemies = sorted({e for m in members for e in nations(rules) if rules.at_war(state, m, e)})
    changes = _go_to_war(rules, state, members, enemies)       # the joined blocs' wars are shared (EG-62)
    return [{"type": "alliance_formed", "offer": oid, "members": members, "wars": changes, "rule": "EG-61"}]


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
            events.append({"type": "alliance_refused", "offer": oid, "power": power, "silent": silent,
                           "why": "no answer by the deadline", "rule": "EG-60"})
    return events


def leave(rules, state: State, power: str, nation: str | None = None) -> dict:
    partners = [n for n in bloc(rules, state, power) if n != power]
    if not partners:
        raise RuleViolation(f"{power} are in no alliance", "EG-63")
    if nation is not None and nation not in partners:
        raise RuleViolation(f"{power} are not allied with {nation}", "EG-63")
    for p in partners:
        state.set_relationship(power, p, PEACE)
    return {"type": "alliance_left", "power": power, "partners": partners, "rule": "EG-63"}


def leaves_take_effect(rules, state: State) -> list[dict]:
    """`leave` filed outside the leaver's turn (state.switches["leave:NATION"]) takes effect at the next turn start."""
    events = []
    for k in [k for k in state.switches if k.startswith("leave:")]:
        state.switches.pop(k)
        try:
            events.append(leave(rules, state, k.removeprefix("leave:")))
        except RuleViolation:
            pass
    return events


# -- Surprise Attacks (EG-66, EG-67) ------------------------------------------------------------------------------


def surprise_attack(rules, state: State, power: str, victim: str) -> None:
    """A combat move of `power` against `victim` without combat allowed: legal; both blocs at war at once, combat
    allowed between `power` and the victim's bloc now; `power` and its alliance lose their stored Influence."""
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
    return [{"type": "surprise_attack", "power": power, "victims": report["victims"], "lost": report["lost"],
             "rule": "EG-67"}]


def entering(rules, state: State, power: str, place: str, phase: str) -> None:
    """A combat move into land of a nation `power` has no combat allowed with is a Surprise Attack (RULINGS.md
    "eg-entering-territory"); elsewhere nothing changes."""
    owner = rules.owner(state, place)
    if (phase == "combat_move" and owner in nations(rules) and owner != power
            and not rules.friendly(state, power, owner) and not combat_allowed(rules, state, power, owner)):
        surprise_attack(rules, state, power, owner)
