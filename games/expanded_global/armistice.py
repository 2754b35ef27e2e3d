"""Armistices (EG-22 … EG-27) and technology exchange (EG-47, EG-48): agreements between two nations, made as offers
of politics.py's one mechanism (DESIGN.md "Agreements between powers"); RULINGS.md "eg-armistice",
"eg-armistice-terms", "eg-armistice-refused", "eg-armistice-income", "eg-technology-exchange".

The orders (registered by `register`):

* ``armistice NATION [give PLACES] [take PLACES] [pay N | receive N] [give tech TECHS] [take tech TECHS]`` — in the
  offerer's Resolving Surrenders and Armistices step (`surrenders`), to a nation it is at war with; the offer carries
  every term. Answered `accept ID` / `refuse ID` (standing orders), taking effect at the answerer's own `surrenders`
  step; a new armistice offer of the answerer to the offerer while one is pending is a counter-offer: it replaces it.
* ``exchange NATION give TECHS take TECHS`` — in the offerer's Technology Research and Exchange step (`research`);
  answered the same way, taking effect at the answerer's `research` step.

Records (state.switches, JSON):

* ``no-armistice:A|B`` = {"offer", "round", "war"}: an armistice offer between A and B was refused (or expired
  unanswered): no more armistice offers between them while this war lasts ("war": the war's `war-round` then);
* ``armistices`` = [{"offer", "between", "round", "terms"}]: the armistices concluded;
* ``armistice-income:NATION`` = [{"amount", "from", "offer", "round"}]: income given in an armistice, held until
  NATION's first turn of a later round (EG-27);
* ``tech-received:NATION`` = [{"tech", "from", "offer", "round"}]: technologies gained by exchange or armistice.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from adjudicator.notation.lexicon import PLACE
from adjudicator.notation.parser import COMMA, WORD, Reader, did_you_mean
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from . import politics, tech
from .phrases import add_texts, answers, said
from .scenario import PEACE

ARMISTICE, EXCHANGE = "armistice", "exchange"
VERBS = (ARMISTICE, EXCHANGE)
INCOME_CAP = 15                     # EG-27: IPCs given in one armistice, at most
KEYS = ("give", "take", "pay", "receive")
TECH_WORDS = ("tech", "techs", "technology", "technologies")
ARMISTICE_USAGE = ("armistice NATION [give PLACES] [take PLACES] [pay N | receive N] [give tech TECHS] "
                   "[take tech TECHS]")
EXCHANGE_USAGE = "exchange NATION give TECHS take TECHS"


# -- the terms ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """What an offer carries, seen from the offerer: territories it gives and takes, IPCs it pays or receives,
    technologies it gives and takes. Written back canonically (`str`), the form the order is read in."""

    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    pay: int = 0
    receive: int = 0
    give_tech: tuple[str, ...] = ()
    take_tech: tuple[str, ...] = ()
    techs_only: bool = False        # an exchange: `give`/`take` name technologies, written without `tech`

    def __str__(self) -> str:
        if self.techs_only:
            return f"give {', '.join(self.give_tech)} take {', '.join(self.take_tech)}"
        parts = [f"give {', '.join(self.give)}" if self.give else "",
                 f"take {', '.join(self.take)}" if self.take else "",
                 f"pay {self.pay}" if self.pay else "", f"receive {self.receive}" if self.receive else "",
                 f"give tech {', '.join(self.give_tech)}" if self.give_tech else "",
                 f"take tech {', '.join(self.take_tech)}" if self.take_tech else ""]
        return " ".join(p for p in parts if p)

    def record(self) -> dict:
        return {"give": list(self.give), "take": list(self.take), "pay": self.pay, "receive": self.receive,
                "give_tech": list(self.give_tech), "take_tech": list(self.take_tech)}


def describe(found: dict) -> str:
    """An offer's terms in words, from its record (the report's offer lines)."""
    a, b = found["from"], found["to"]
    parts = []
    if found.get("give"):
        parts.append(f"{a} give {', '.join(found['give'])}")
    if found.get("take"):
        parts.append(f"{b} give {', '.join(found['take'])}")
    if found.get("pay"):
        parts.append(f"{a} pay {found['pay']} IPCs")
    if found.get("receive"):
        parts.append(f"{b} pay {found['receive']} IPCs")
    if found.get("give_tech"):
        parts.append(f"{a} give {', '.join(found['give_tech'])}")
    if found.get("take_tech"):
        parts.append(f"{b} give {', '.join(found['take_tech'])}")
    return "; ".join(parts) or "no conditions"


# -- the verbs --------------------------------------------------------------------------------------------------


def register(reg) -> None:
    reg.register(ARMISTICE, phase="surrenders", usage=ARMISTICE_USAGE, parse=lambda r: _parse(r, exchange=False))
    reg.register(EXCHANGE, phase="research", usage=EXCHANGE_USAGE, parse=lambda r: _parse(r, exchange=True))


def _is_key(t) -> bool:
    return t.kind == WORD and t.text.casefold() in KEYS


def _tech_name(r: Reader, span) -> str:
    text = " ".join(t.text for t in span)
    for name in tech.ALL:
        if name.casefold() == text.casefold():
            return name
    found = difflib.get_close_matches(text, tech.ALL, n=3, cutoff=0.6)
    r.fail(f"unknown technology '{text}'" + did_you_mean(found) + " (the technologies: " + ", ".join(tech.ALL) + ")",
           span[0], expected="a technology", candidates=found, rule="EG-47")


def _items(r: Reader, what: str) -> list:
    """The comma-separated spans up to the next term word (`give`, `take`, `pay`, `receive`) or the end."""
    spans, current = [], []
    while not r.at_end() and not _is_key(r.peek()):
        t = r.peek()
        if t.kind == COMMA:
            if not current:
                r.expect(what)
            spans.append(current)
            current = []
        elif t.kind in (WORD, "number"):
            current.append(t)
        else:
            r.fail(f"unexpected '{t.text}' in the terms", t, rule="EG-25")
        r.pos += 1
    if not current:
        r.expect(what)
    return spans + [current]


def _parse(r: Reader, exchange: bool) -> dict:
    nation = r.power(stop=KEYS, hint=" (the terms start with `give`, `take`, `pay` or `receive`)")
    got = {"give": [], "take": [], "pay": 0, "receive": 0, "give_tech": [], "take_tech": []}
    while not r.at_end():
        word = r.peek().text.casefold()
        r.pos += 1
        if word in ("pay", "receive"):
            at = r.tokens[r.pos - 1]
            if exchange:
                r.fail("a technology exchange trades technologies only: no income", at, rule="EG-47")
            if got[word]:
                r.fail(f"`{word}` twice: one amount", at, rule="EG-27")
            got[word] = r.count("an amount of IPCs")
            if not r.at_end() and not _is_key(r.peek()):
                r.fail(f"unexpected '{r.peek().text}' after the amount", r.peek(), rule="EG-25")
            continue
        techs = bool(r.accept(*TECH_WORDS)) or exchange
        what = "a technology" if techs else "a territory"
        for item in _items(r, what):
            if techs:
                got[f"{word}_tech"].append(_tech_name(r, item))
            else:
                place = r._lookup(PLACE, item)
                if place is None:
                    text = r._text(item)
                    found = r.lexicon.suggest(PLACE, text)
                    r.fail(f"'{text}' is neither a territory nor a term: an armistice contains only territories "
                           "(`give`/`take PLACES`), income (`pay`/`receive N`) and technologies (`give tech`/`take "
                           "tech TECHS`)" + did_you_mean(found), item[0], candidates=found, rule="EG-25")
                got[word].append(place)
    if exchange and not (got["give_tech"] and got["take_tech"]):
        r.fail("a technology exchange trades one or more technologies for one or more: `exchange NATION give TECHS "
               "take TECHS`", None, rule="EG-47")
    terms = Terms(tuple(dict.fromkeys(got["give"])), tuple(dict.fromkeys(got["take"])), got["pay"], got["receive"],
                  tuple(dict.fromkeys(got["give_tech"])), tuple(dict.fromkeys(got["take_tech"])), techs_only=exchange)
    return {"nation": nation, **({"terms": terms} if str(terms) else {})}


# -- offers -------------------------------------------------------------------------------------------------------


def _key(a: str, b: str) -> str:
    return politics._key(a, b)


def barred(rules, state: State, a: str, b: str) -> dict | None:
    """The refusal that bars armistice offers between a and b in their present war (EG-24), or None. "That conflict"
    is the war as it stands: a record from before the two were last at peace no longer bars."""
    raw = state.switches.get(f"no-armistice:{_key(a, b)}")
    if not raw:
        return None
    found = json.loads(raw)
    if not rules.at_war(state, a, b) or found["war"] != state.switches.get(f"war-round:{_key(a, b)}", ""):
        return None
    return found


def order(rules, state: State, power: str, o) -> dict:
    terms = o.args.get("terms") or Terms(techs_only=o.name == EXCHANGE)
    if o.name == EXCHANGE:
        return offer_exchange(rules, state, power, o.args["nation"], terms)
    return offer_armistice(rules, state, power, o.args["nation"], terms)


def _check_techs(state: State, giver: str, taker: str, techs, rule: str = "EG-48") -> None:
    for t in techs:
        if not tech.has(state, giver, t):
            raise RuleViolation(f"{giver} do not have {t}: only technologies fully researched may be given", rule)
        if tech.has(state, taker, t):
            raise RuleViolation(f"{taker} have {t} already: nothing to give", rule)


def _check_territories(rules, state: State, giver: str, places) -> None:
    for p in places:
        if rules.is_water(p):
            raise RuleViolation(f"{p} is a sea zone: an armistice exchanges territories only", "EG-25")
        if state.owners.get(p) != giver:
            raise RuleViolation(f"{giver} do not control {p}: a nation gives only territory it controls "
                                f"({p} is held by {state.owners.get(p) or 'no one'})", "EG-25")
        if any(rules.capital_of(n) == p for n in politics.nations(rules)):
            raise RuleViolation(f"{p} is a capital: an armistice gives no capital (RULINGS.md \"eg-armistice-terms\")",
                                "EG-25")


def check_armistice(rules, state: State, a: str, b: str, terms: Terms) -> None:
    """Whether the armistice a offers b, on `terms`, can be made now (also re-checked as it is concluded)."""
    if not rules.at_war(state, a, b):
        raise RuleViolation(f"{a} and {b} are not at war: an armistice ends a war (EG-11)", "EG-11")
    _check_territories(rules, state, a, terms.give)
    _check_territories(rules, state, b, terms.take)
    if terms.pay and terms.receive:
        raise RuleViolation("income goes one way in an armistice: `pay N` or `receive N`, not both", "EG-27")
    amount = terms.pay or terms.receive
    if amount > INCOME_CAP:
        raise RuleViolation(f"{amount} IPCs: the income given in an armistice is at most {INCOME_CAP} IPCs",
                            "EG-27")
    payer = a if terms.pay else b
    if amount and state.treasury.get(payer, 0) < amount:
        raise RuleViolation(f"{payer} have {state.treasury.get(payer, 0)} IPCs, not the {amount} to pay", "EG-27")
    _check_techs(state, a, b, terms.give_tech)
    _check_techs(state, b, a, terms.take_tech)


def offer_armistice(rules, state: State, power: str, target: str, terms: Terms) -> dict:
    if target == power or target not in politics.nations(rules):
        raise RuleViolation(f"{power} may offer an armistice only to another nation, not {target}", "EG-22")
    if not rules.at_war(state, power, target):
        raise RuleViolation(f"{power} and {target} are not at war: an armistice ends a war (EG-11)", "EG-22")
    mine, theirs = politics.bloc(rules, state, power), politics.bloc(rules, state, target)
    for a, b in ((a, b) for a in mine for b in theirs):     # the bar holds between the blocs, whoever allies later
        bar = barred(rules, state, a, b)
        if bar:
            raise RuleViolation(f"the armistice offer {bar['offer']} between {a} and {b} was refused in round "
                                f"{bar['round']}: no more armistice offers between their sides in this war, only "
                                "surrender (`surrender NATION`)", "EG-24")
    pending = {oid: f for oid, f in politics.offers(state).items() if f.get("kind") == ARMISTICE
               and f["from"] in mine + theirs and f["to"] in mine + theirs}
    own = [oid for oid, f in pending.items() if f["from"] in mine]
    if own:
        raise RuleViolation(f"the armistice offer {own[0]} of {pending[own[0]]['from']} to {pending[own[0]]['to']} is "
                            "pending already: one offer at a time", "EG-23")
    check_armistice(rules, state, power, target, terms)
    events = []
    for oid in pending:                     # a counter-offer replaces the other side's pending offer (no refusal)
        politics._end_offer(state, oid)
        events.append(said({"type": "armistice_countered", "offer": oid, "power": power, "by": pending[oid]["from"],
                            "rule": "EG-23"}))
    members = sorted(set(mine) | set(theirs))      # the two blocs make peace as wholes ("eg-armistice")
    oid = politics.new_offer(state, "R", {"kind": ARMISTICE, "from": power, "to": target, "members": members,
                                          **terms.record()})
    event = said({"type": "armistice_offer", "power": power, "target": target, "offer": oid,
                  "addressed": [m for m in members if m != power],
                  "terms": describe({"from": power, "to": target, **terms.record()}), "rule": "EG-23"})
    return {**event, "follows": events} if events else event


def offer_exchange(rules, state: State, power: str, target: str, terms: Terms) -> dict:
    if target == power or target not in politics.nations(rules):
        raise RuleViolation(f"{power} may exchange technologies only with another nation, not {target}", "EG-47")
    _check_techs(state, power, target, terms.give_tech)
    _check_techs(state, target, power, terms.take_tech)
    oid = politics.new_offer(state, "X", {"kind": EXCHANGE, "from": power, "to": target,
                                          "members": [power, target], "give_tech": list(terms.give_tech),
                                          "take_tech": list(terms.take_tech)})
    return said({"type": "exchange_offer", "power": power, "target": target, "offer": oid,
                 "give": list(terms.give_tech), "take": list(terms.take_tech), "rule": "EG-47"})


# -- conclusion -------------------------------------------------------------------------------------------------


def _terms_of(found: dict) -> Terms:
    return Terms(tuple(found.get("give", ())), tuple(found.get("take", ())), found.get("pay", 0),
                 found.get("receive", 0), tuple(found.get("give_tech", ())), tuple(found.get("take_tech", ())))


def _note_tech(state: State, nation: str, t: str, source: str, oid: str) -> None:
    if tech.grant(state, nation, t):
        key = f"tech-received:{nation}"
        held = json.loads(state.switches.get(key) or "[]")
        state.switches[key] = json.dumps(held + [{"tech": t, "from": source, "offer": oid, "round": state.round}])


def _hand_over(rules, state: State, giver: str, taker: str, place: str) -> None:
    """The territory changes owner; it stays an Original Territory of whoever it was (EG-26); the giver's facilities
    there go with it; its other units stay (RULINGS.md "eg-armistice-terms")."""
    state.owners[place] = taker
    for u in state.units_at(place):
        if u.owner == giver and not rules.is_combatant(u):
            u.owner = taker


def _concluded(rules, state: State, oid: str, found: dict, answers: dict) -> list[dict]:
    a, b = found["from"], found["to"]
    terms = _terms_of(found)
    mine, theirs = politics.bloc(rules, state, a), politics.bloc(rules, state, b)
    try:
        if sorted(set(mine) | set(theirs)) != sorted(found["members"]):
            raise RuleViolation("the alliances it would bring to peace have changed", "EG-22")
        check_armistice(rules, state, a, b, terms)
    except RuleViolation as exc:
        return [said({"type": "armistice_lapsed", "offer": oid, "power": a, "target": b, "why": exc.message,
                      "rule": exc.rule})]
    peace = []
    for x in mine:                                  # EG-22: the two blocs, every pair of them ("eg-armistice")
        for y in theirs:
            if rules.at_war(state, x, y):
                state.set_relationship(x, y, PEACE)
                peace.append([x, y])
            for k in (f"war-round:{_key(x, y)}", f"surprise:{_key(x, y)}", f"no-armistice:{_key(x, y)}"):
                state.switches.pop(k, None)
    for p in terms.give:
        _hand_over(rules, state, a, b, p)
    for p in terms.take:
        _hand_over(rules, state, b, a, p)
    amount = terms.pay or terms.receive
    if amount:
        payer, receiver = (a, b) if terms.pay else (b, a)
        state.treasury[payer] -= amount
        key = f"armistice-income:{receiver}"
        held = json.loads(state.switches.get(key) or "[]")
        state.switches[key] = json.dumps(held + [{"amount": amount, "from": payer, "offer": oid,
                                                  "round": state.round}])
    for t in terms.give_tech:
        _note_tech(state, b, t, a, oid)
    for t in terms.take_tech:
        _note_tech(state, a, t, b, oid)
    done = json.loads(state.switches.get("armistices") or "[]")
    state.switches["armistices"] = json.dumps(done + [{"offer": oid, "between": [a, b], "round": state.round,
                                                       "terms": describe(found)}])
    return [said({"type": "armistice", "offer": oid, "power": a, "target": b, "terms": describe(found), "peace": peace,
                  "original": {p: state.original_owners.get(p) for p in terms.give + terms.take}, "income": amount,
                  "usable_from": state.round + 1, "rule": "EG-22"})]


def _exchanged(rules, state: State, oid: str, found: dict, answers: dict) -> list[dict]:
    a, b = found["from"], found["to"]
    for t in found["give_tech"]:
        _note_tech(state, b, t, a, oid)
    for t in found["take_tech"]:
        _note_tech(state, a, t, b, oid)
    return [said({"type": "technology_exchanged", "offer": oid, "power": a, "target": b, "give": found["give_tech"],
                  "take": found["take_tech"], "rule": "EG-47"})]


def _refused(rules, state: State, oid: str, found: dict) -> None:
    """EG-24: a refusal, or no answer by the deadline, bars armistice offers between the two for this war."""
    a, b = found["from"], found["to"]
    for x in politics.bloc(rules, state, a):        # "either side": the two blocs, every pair of them
        for y in politics.bloc(rules, state, b):
            if x != y and rules.at_war(state, x, y):
                state.switches[f"no-armistice:{_key(x, y)}"] = json.dumps(
                    {"offer": oid, "round": state.round, "war": state.switches.get(f"war-round:{_key(x, y)}", "")})


# -- the turn -----------------------------------------------------------------------------------------------------


def turn_start(rules, state: State, power: str) -> list[dict]:
    """Income given to `power` in an armistice of an earlier round is added to its treasury (EG-27)."""
    key = f"armistice-income:{power}"
    held = json.loads(state.switches.get(key) or "[]")
    due = [h for h in held if h["round"] < state.round]
    if not due:
        return []
    rest = [h for h in held if h["round"] >= state.round]
    if rest:
        state.switches[key] = json.dumps(rest)
    else:
        state.switches.pop(key)
    events = []
    for h in due:
        state.treasury[power] = state.treasury.get(power, 0) + h["amount"]
        events.append(said({"type": "armistice_income", "power": power, "amount": h["amount"], "from": h["from"],
                            "offer": h["offer"], "treasury": state.treasury[power], "rule": "EG-27"}))
    return events


# -- the report -------------------------------------------------------------------------------------------------


def offer_line(found: dict) -> str | None:
    if found.get("kind") == ARMISTICE:
        return f"{found['from']} offer {found['to']} an armistice: {describe(found)}"
    if found.get("kind") == EXCHANGE:
        return (f"{found['from']} offer {found['to']} {', '.join(found['give_tech'])} for "
                f"{', '.join(found['take_tech'])}")
    return None


def status(rules, state: State) -> dict:
    names = politics.nations(rules)
    return {
        "armistices": json.loads(state.switches.get("armistices") or "[]"),
        "no_armistice": {k.removeprefix("no-armistice:"): json.loads(v) for k, v in sorted(state.switches.items())
                         if k.startswith("no-armistice:") and barred(rules, state, *k.split(":", 1)[1].split("|"))},
        "income_held": {n: json.loads(state.switches[f"armistice-income:{n}"]) for n in names
                        if state.switches.get(f"armistice-income:{n}")},
        "technologies_received": {n: json.loads(state.switches[f"tech-received:{n}"]) for n in names
                                  if state.switches.get(f"tech-received:{n}")},
    }


def notes(rules, state: State) -> list[str]:
    s = status(rules, state)
    lines = [f"Armistice {a['offer']} (round {a['round']}): {' and '.join(a['between'])} at peace; {a['terms']}"
             for a in s["armistices"]]
    for pair, bar in s["no_armistice"].items():
        lines.append(f"No armistice between {pair.replace('|', ' and ')} in this war (offer {bar['offer']} refused "
                     f"in round {bar['round']}): only surrender")
    for n, held in s["income_held"].items():
        for h in held:
            lines.append(f"Income held for {n}: {h['amount']} IPCs from {h['from']} (armistice {h['offer']}), "
                         f"added as its turn of round {h['round'] + 1} or later starts")
    for n, got in s["technologies_received"].items():
        lines.append(f"Technologies {n} received: " + ", ".join(f"{g['tech']} from {g['from']} ({g['offer']})"
                                                               for g in got))
    return lines


# -- the report's sentences ---------------------------------------------------------------------------------------


def _armistice_offer(e: dict) -> str:
    return (f"Armistice offer {e['offer']}: {e['power']} offer {e['target']} an armistice — {e['terms']}; "
            f"{answers(e)} (a refusal, or silence, ends armistice offers in this war).")


def _armistice_countered(e: dict) -> str:
    return f"{e['power']} counter the armistice offer {e['offer']} of {e['by']} with an offer of their own: it ends."


def _armistice(e: dict) -> str:
    also = [p for p in e["peace"] if set(p) != {e["power"], e["target"]}]
    with_ = f" Their allies are at peace too: {'; '.join(f'{x}–{y}' for x, y in also)}." if also else ""
    income = f" The {e['income']} IPCs given are usable from round {e['usable_from']}." if e["income"] else ""
    given = " Territories given do not become Original Territories." if e["original"] else ""
    return (f"Armistice {e['offer']}: {e['power']} and {e['target']} are at peace — {e['terms']}."
            f"{given}{with_}{income}")


def _armistice_lapsed(e: dict) -> str:
    return f"The armistice offer {e['offer']} of {e['power']} to {e['target']} lapses: {e['why']}."


def _armistice_income(e: dict) -> str:
    return (f"{e['power']} receive {e['amount']} IPCs given by {e['from']} in the armistice {e['offer']}: "
            f"{e['treasury']} IPCs.")


def _exchange_offer(e: dict) -> str:
    return (f"Exchange offer {e['offer']}: {e['power']} offer {', '.join(e['give'])} to {e['target']} for "
            f"{', '.join(e['take'])}; {e['target']} may answer `accept {e['offer']}` or `refuse {e['offer']}`.")


def _technology_exchanged(e: dict) -> str:
    return (f"Exchange {e['offer']}: {e['target']} receive {', '.join(e['give'])} from {e['power']}, and "
            f"{e['power']} receive {', '.join(e['take'])}.")


add_texts(_armistice_offer, _armistice_countered, _armistice, _armistice_lapsed, _armistice_income,
          _exchange_offer, _technology_exchanged)

politics.register_agreement(ARMISTICE, politics.Agreement("surrenders", "EG-23", "armistice offer", _concluded,
                                                          refused=_refused))
politics.register_agreement(EXCHANGE, politics.Agreement("research", "EG-47", "technology exchange offer",
                                                         _exchanged))
