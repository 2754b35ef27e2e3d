"""The Expanded Global Scenario's surrenders (EG-11 … EG-21; RULINGS.md "## surrenders").

A surrender is an offer of the shared kind mechanism (politics.Agreement, kind "surrender", ids S1, S2 …):

* `surrender NATION` in the surrendering nation's `surrenders` step offers it to NATION, a nation it is at war with
  (EG-11, EG-12); the offer expires as the loser's next turn starts;
* the victor answers `accept ID TERMS` (or `refuse ID`) in any submission; the answer takes effect as the victor's
  `surrenders` step begins (EG-13). TERMS are exactly one of (EG-15):
  `land PLACE[, PLACE[, PLACE]]` (EG-16), `military a` (EG-17), `military b N TYPE[, N TYPE]` (EG-18),
  `political` (EG-19, EG-21);
* Political terms in force are kept as state.switches["political:LOSER"] = VICTOR; `halt PLACE` in the victor's
  `surrenders` step stops the loser's units there from moving until the victor's next turn begins
  (state.switches["halt:VICTOR"] = JSON {"place", "losers"}; EG-20);
* while Political terms last no war between victor and loser may begin (EG-14): `may_go_to_war`, one of politics.py's
  keepers of the peace (declarations, alliances, Surprise Attacks, strikes), refuses it; the terms end, with the
  victor's halt, as soon as the victor no longer holds the loser's capital (`capital_lost`);
* a peace ends the pending surrender offers between the two (`lapse_at_peace`, EG-11).
"""

from __future__ import annotations

import json
import re

from adjudicator.notation.verbs import VerbRegistry
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State
from adjudicator.words import possessive

from . import politics
from .phrases import said
from .scenario import PEACE, nation

SURRENDER = "surrender"
HALT = "halt"
KINDS = ("land", "military", "political")
LAND_MOST = 3                       # EG-16: up to three territories
MILITARY_B = {"air": 3, "naval": 2, "capital": 1}       # EG-18: one of these groups, whole
_GROUP_WORDS = {"air": "air units", "naval": "naval units other than battleships and carriers",
                "capital": "battleship or carrier"}


def register(reg: VerbRegistry) -> VerbRegistry:
    reg.register(SURRENDER, phase="surrenders", usage="surrender NATION", parse=lambda r: {"nation": r.power()})
    reg.register(HALT, phase="surrenders", usage="halt PLACE", parse=lambda r: {"place": r.place()})
    return reg


# -- the threshold (EG-12) --------------------------------------------------------------------------------------


def threshold(power: str) -> int:
    """Two thirds of the nation's EG-02 starting income, rounded down (RULINGS.md "surrenders", Threshold)."""
    return nation(power).income * 2 // 3


def below_threshold(rules, state: State, power: str) -> list[dict]:
    """As a nation's `surrenders` step begins: if it is at war and its income is below the threshold, the report
    says so — it may surrender; nothing forces it to (EG-12)."""
    enemies = rules.nations_at_war_with(state, power)
    income = rules.income(state, power)[0]
    if not enemies or income >= threshold(power):
        return []
    return [said({"type": "surrender_threshold", "power": power, "income": income, "start": nation(power).income,
                  "threshold": threshold(power), "enemies": enemies, "rule": "EG-12"})]


# -- the offer (EG-11, EG-12) -----------------------------------------------------------------------------------


def offer(rules, state: State, power: str, target: str) -> dict:
    if target == power or target not in politics.nations(rules):
        raise RuleViolation(f"{power} may not surrender to {target}: not another nation", "EG-11")
    if not rules.at_war(state, power, target):
        raise RuleViolation(f"{power} may not surrender to {target}: they are not at war (a surrender ends a war)",
                            "EG-11")
    for oid, found in politics.offers(state).items():
        if found.get("kind") == SURRENDER and found["from"] == power and found["to"] == target:
            raise RuleViolation(f"{power} have offered their surrender to {target} already ({oid})", "EG-12")
    income = rules.income(state, power)[0]
    oid = politics.new_offer(state, "S", {"kind": SURRENDER, "from": power, "to": target,
                                          "members": [power, target]})
    return said({"type": "surrender_offer", "power": power, "target": target, "offer": oid, "income": income,
                 "threshold": threshold(power), "rule": "EG-12"})


# -- the terms (EG-15 … EG-21) ----------------------------------------------------------------------------------


def parse_terms(rules, state: State, victor: str, loser: str, text: str | None) -> dict:
    """The victor's terms read and checked against the board now: {"kind": "land", "places": [...]},
    {"kind": "military a"}, {"kind": "military b", "units": {TYPE: N}, "group": ...}, {"kind": "political"}.
    Refused (RuleViolation) when they are not exactly one kind the victor may choose."""
    if not text or not text.strip():
        raise RuleViolation("a surrender is accepted with the victor's terms, exactly one kind: `land PLACE, …`, "
                            "`military a`, `military b N TYPE` or `political`", "EG-15")
    words = [w.casefold() for w in re.findall(r"[A-Za-z]+", text)]
    kinds = [w for w in words if w in KINDS]
    if len(set(kinds)) > 1 or words[0] not in KINDS:
        raise RuleViolation(f"the victor chooses exactly one kind of terms (land, military or political), not "
                            f"'{text.strip()}'", "EG-15")
    kind = words[0]
    rest = re.sub(r"^\W*" + kind + r"\b", "", text.strip(), count=1, flags=re.I).strip()
    if kind == "land":
        return {"kind": "land", "places": _land(rules, state, victor, loser, rest)}
    if kind == "political":
        if rest:
            raise RuleViolation("`political` takes nothing more", "EG-15")
        capital = nation(loser).capital
        if state.owners.get(capital) != victor:
            raise RuleViolation(f"Political terms only for a victor that controls the loser's capital: {capital}, "
                                f"{possessive(loser)} capital, is held by {state.owners.get(capital)}", "EG-21")
        return {"kind": "political"}
    option = rest.split(None, 1)
    if not option or option[0].casefold() not in ("a", "b"):
        raise RuleViolation("Military terms are `military a` (half the loser's land units) or `military b N TYPE` "
                            "(its air or naval units taken)", "EG-15")
    if option[0].casefold() == "a":
        if len(option) > 1:
            raise RuleViolation("`military a` takes nothing more: the loser's land units removed are chosen by the "
                                "rule (cheapest first)", "EG-17")
        if not land_units(rules, state, loser):
            raise RuleViolation(f"{loser} have no land units to remove", "EG-17")
        return {"kind": "military a"}
    return {"kind": "military b", **_taken(rules, state, loser, option[1] if len(option) > 1 else "")}


def _land(rules, state: State, victor: str, loser: str, text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise RuleViolation("Land terms name the territories: `land PLACE, PLACE, PLACE`", "EG-16")
    if len(names) > LAND_MOST:
        raise RuleViolation(f"Land terms take up to {LAND_MOST} territories, not {len(names)}", "EG-16")
    lexicon = rules.lexicon()
    places = []
    for name in names:
        found = lexicon.resolve("place", name)
        if len(found) != 1:
            raise RuleViolation(f"'{name}' is no single place", "EG-16")
        place = found[0]
        if rules.is_water(place):
            raise RuleViolation(f"{place} is a sea zone: Land terms take territories", "EG-16")
        if rules.original_owner(state, place) != loser:
            raise RuleViolation(f"{place} is not an Original Territory of {loser}", "EG-16")
        if place == nation(loser).capital:
            raise RuleViolation(f"{place} is {possessive(loser)} capital: Land terms take no capital (a capital held "
                                "is what Political terms are for, EG-21)", "EG-16")
        if state.owners.get(place) != victor:
            raise RuleViolation(f"{victor} do not occupy {place}: Land terms take territories the victor holds",
                                "EG-16")
        if place in places:
            raise RuleViolation(f"{place} is named twice", "EG-16")
        places.append(place)
    return places


def group_of(rules, unit_type: str) -> str | None:
    t = rules.ut(unit_type)
    if t.domain == "air":
        return "air"
    if t.domain == "sea":
        return "capital" if t.hit_points >= 2 else "naval"
    return None


def _taken(rules, state: State, loser: str, text: str) -> dict:
    pairs = re.findall(r"(\d+)\s+([^,\d]+)", text)
    if not pairs or re.sub(r"(\d+)\s+([^,\d]+)|[,\s]", "", text):
        raise RuleViolation("`military b` names the units taken: `military b 3 fighter`, `military b 2 destroyer`, "
                            "`military b 1 battleship` (or several types: `military b 2 fighter, 1 bomber`)", "EG-18")
    lexicon = rules.lexicon()
    units: dict[str, int] = {}
    for count, name in pairs:
        found = lexicon.resolve("unit", name.strip())
        if len(found) != 1:
            raise RuleViolation(f"'{name.strip()}' is no unit type", "EG-18")
        if int(count) < 1:
            raise RuleViolation(f"`military b` names the units taken: {count} {found[0]} takes none", "EG-18")
        units[found[0]] = units.get(found[0], 0) + int(count)
    groups = {group_of(rules, u) for u in units}
    if len(groups) != 1 or None in groups:
        raise RuleViolation("`military b` takes one group: 3 air units, or 2 naval units other than battleships and "
                            "carriers, or 1 battleship or carrier", "EG-18")
    group = groups.pop()
    if sum(units.values()) != MILITARY_B[group]:
        raise RuleViolation(f"`military b` takes {MILITARY_B[group]} {_GROUP_WORDS[group]}, not "
                            f"{sum(units.values())}", "EG-18")
    for u, n in units.items():
        have = len([x for x in state.units if x.owner == loser and x.type == u])
        if have < n:
            raise RuleViolation(f"{loser} have {have} {u}, not {n}", "EG-18")
    return {"units": units, "group": group}


def land_units(rules, state: State, loser: str) -> list:
    return [u for u in state.units if u.owner == loser and rules.ut(u).domain == "land"
            and not rules.ut(u).has("infrastructure")]


def check_terms(rules, state: State, power: str, found: dict, terms: str | None) -> None:
    if not rules.at_war(state, found["from"], power):
        raise RuleViolation(f"{found['from']} and {power} are no longer at war: there is no surrender to accept",
                            "EG-11")
    parse_terms(rules, state, power, found["from"], terms)


def written(text: str, lexicon) -> str:
    """The terms of an `accept S1 TERMS` written back canonically (`military b 3 fighter`, `land Germany, Denmark`),
    for "Orders as understood" and the report; terms this cannot read are kept as written, to be refused with the
    rule they break when checked (parse_terms)."""
    words = text.split(None, 1)
    if not words or words[0].casefold() not in KINDS:
        return text.strip()
    kind, rest = words[0].casefold(), (words[1] if len(words) > 1 else "").strip()
    if kind == "political" and not rest:
        return kind
    if kind == "land":
        places = []
        for name in (p.strip() for p in rest.split(",")):
            found = lexicon.resolve("place", name) if name else [None]
            if len(found) != 1:
                return text.strip()
            if found[0] is not None:
                places.append(found[0])
        return "land " + ", ".join(places) if places else text.strip()
    option = rest.split(None, 1)
    if kind != "military" or not option or option[0].casefold() not in ("a", "b"):
        return text.strip()
    if option[0].casefold() == "a":
        return "military a" if len(option) == 1 else text.strip()
    body = option[1] if len(option) > 1 else ""
    pairs = re.findall(r"(\d+)\s+([^,\d]+)", body)
    if not pairs or re.sub(r"(\d+)\s+([^,\d]+)|[,\s]", "", body):
        return text.strip()
    units: dict[str, int] = {}
    for count, name in pairs:
        found = lexicon.resolve("unit", name.strip())
        if len(found) != 1:
            return text.strip()
        units[found[0]] = units.get(found[0], 0) + int(count)
    return "military b " + ", ".join(f"{n} {u}" for u, n in units.items())


# -- the surrender concluded (EG-13, EG-14, EG-16 … EG-19) ------------------------------------------------------


def concluded(rules, state: State, oid: str, found: dict, terms: dict) -> list[dict]:
    loser, victor = found["from"], found["to"]
    text = terms.get(victor)
    if not rules.at_war(state, loser, victor):
        return [said({"type": "surrender_lapsed", "offer": oid, "power": loser, "victor": victor,
                      "why": "they are no longer at war", "rule": "EG-11"})]
    try:
        chosen = parse_terms(rules, state, victor, loser, text)
    except RuleViolation as exc:
        return [said({"type": "surrender_lapsed", "offer": oid, "power": loser, "victor": victor,
                      "why": f"the terms can no longer be met ({exc.message})", "rule": exc.rule})]
    events = []
    partners = [n for n in politics.bloc(rules, state, loser) if n != loser]
    if partners:
        events.append(politics.leave(rules, state, loser))
    victors = politics.bloc(rules, state, victor)
    for v in victors:
        if rules.at_war(state, loser, v):
            state.set_relationship(loser, v, PEACE)
            key = politics._key(loser, v)
            state.switches.pop(f"war-round:{key}", None)
            state.switches.pop(f"surprise:{key}", None)
    event = {"type": "surrender", "offer": oid, "power": loser, "victor": victor, "terms": chosen["kind"],
             "left": partners, "peace": victors, "rule": "EG-14"}
    if chosen["kind"] == "land":
        for place in chosen["places"]:
            state.original_owners[place] = victor
        event.update(places=chosen["places"], rule="EG-16")
    elif chosen["kind"] == "military a":
        event.update(_halve(rules, state, loser), rule="EG-17")
    elif chosen["kind"] == "military b":
        event.update(_seize(rules, state, loser, victor, chosen["units"]), rule="EG-18")
    else:
        state.switches[f"political:{loser}"] = victor
        event.update(capital=nation(loser).capital, rule="EG-19")
    return events + [said(event)]


def _halve(rules, state: State, loser: str) -> dict:
    """EG-17: half the loser's land units, rounded up, the cheapest first (then the oldest: lowest id)."""
    units = sorted(land_units(rules, state, loser), key=lambda u: (rules.ut(u).cost or 0, u.id))
    gone = units[:(len(units) + 1) // 2]
    removed: dict[str, int] = {}
    for u in gone:
        removed[u.type] = removed.get(u.type, 0) + 1
    state.remove_units([u.id for u in gone])
    return {"had": len(units), "removed": removed}


def _seize(rules, state: State, loser: str, victor: str, units: dict[str, int]) -> dict:
    """EG-18: the named units leave the board (undamaged and empty ones first, then lowest id; cargo aboard a taken
    transport is lost with it) and join the victor's units to place at its next `place` step."""
    gone = []
    for t, n in units.items():
        mine = [u for u in state.units if u.owner == loser and u.type == t]
        loaded = {u.carried_by for u in state.units if u.carried_by is not None}
        mine.sort(key=lambda u: (u.damage, u.id in loaded, u.id))
        gone += mine[:n]
    ids = {u.id for u in gone}
    cargo = [u for u in state.units if u.carried_by in ids]
    lost: dict[str, int] = {}
    for u in cargo:
        lost[u.type] = lost.get(u.type, 0) + 1
    state.remove_units(sorted(ids | {u.id for u in cargo}))
    bought = state.purchases.setdefault(victor, {})
    for t, n in units.items():
        bought[t] = bought.get(t, 0) + n
    return {"taken": units, "cargo_lost": lost}


# -- Political terms in force (EG-19, EG-20) --------------------------------------------------------------------


def political(state: State) -> dict[str, str]:
    """{loser: victor} for every Political surrender in force."""
    return {k.removeprefix("political:"): v for k, v in sorted(state.switches.items())
            if k.startswith("political:") and isinstance(v, str)}


def losers_of(state: State, victor: str) -> list[str]:
    return [loser for loser, v in political(state).items() if v == victor]


def income_lines(rules, state: State, power: str) -> tuple[int, list[dict]]:
    """EG-19: the victor collects the income of the loser's territories (the loser's own income stops with its
    capital, BG-37)."""
    territories = rules.scenario.territories_by_name()
    total, lines = 0, []
    for loser in losers_of(state, power):
        amount = sum(territories[t].production for t, o in state.owners.items() if o == loser)
        total += amount
        lines.append({"item": f"{possessive(loser)} territories (Political surrender terms, EG-19)",
                      "amount": amount})
    return total, lines


def free_passage(state: State, power: str, owner: str | None) -> bool:
    """EG-19: the victor moves freely into and through the loser's territories."""
    return owner is not None and political(state).get(owner) == power


def order_halt(rules, state: State, power: str, place: str) -> dict:
    losers = losers_of(state, power)
    if not losers:
        raise RuleViolation(f"{power} hold no Political surrender terms: only they stop a loser's units", "EG-20")
    if f"halt:{power}" in state.switches:
        raise RuleViolation(f"{power} have stopped units in {json.loads(state.switches[f'halt:{power}'])['place']} "
                            "this turn already: once per turn", "EG-20")
    there = [n for n in losers if any(u.owner == n for u in state.units_at(place))]
    if not there:
        raise RuleViolation(f"no units of {politics_names(losers)} in {place}", "EG-20")
    state.switches[f"halt:{power}"] = json.dumps({"place": place, "losers": there})
    return said({"type": "surrender_halt", "power": power, "place": place, "losers": there, "rule": "EG-20"})


def politics_names(names: list[str]) -> str:
    return ", ".join(names)


def halts(state: State) -> dict[str, dict]:
    return {k.removeprefix("halt:"): json.loads(v) for k, v in sorted(state.switches.items())
            if k.startswith("halt:") and isinstance(v, str)}


def check_move(rules, state: State, power: str, units: list, path: list[str]) -> None:
    for victor, h in halts(state).items():
        if power in h["losers"] and path and path[0] == h["place"]:
            raise RuleViolation(f"{possessive(power)} units in {h['place']} may not move: {victor} stopped them under "
                                f"Political surrender terms until {possessive(victor)} next turn", "EG-20")


def turn_start(rules, state: State, power: str) -> list[dict]:
    """As `power`'s turn starts its halt ends (EG-20); Political terms end for a loser whose capital the victor no
    longer holds (RULINGS.md "surrenders", Duration), if a battle has not ended them already (capital_lost)."""
    state.switches.pop(f"halt:{power}", None)
    return capital_lost(rules, state)


def capital_lost(rules, state: State) -> list[dict]:
    """Political terms end as soon as the victor no longer holds the loser's capital (after the battle that frees
    it, or as a turn starts): with them ends the victor's halt of the loser's units (EG-20), and the report warns
    that the victor's units left in the loser's land are interned unless they leave (EG-63)."""
    events = []
    for loser, victor in political(state).items():
        capital = nation(loser).capital
        if state.owners.get(capital) == victor:
            continue
        state.switches.pop(f"political:{loser}")
        event = {"type": "political_ended", "power": loser, "victor": victor, "capital": capital,
                 "holder": state.owners.get(capital), "rule": "EG-19"}
        h = halts(state).get(victor)
        if h and loser in h["losers"]:
            event["halt"] = h["place"]
            left = [n for n in h["losers"] if n != loser]
            if left:
                state.switches[f"halt:{victor}"] = json.dumps({"place": h["place"], "losers": left})
            else:
                state.switches.pop(f"halt:{victor}")
        stranded = sorted({u.place for u in state.units if u.owner == victor and not rules.is_water(u.place)
                           and state.owners.get(u.place) == loser and not rules.ut(u).has("infrastructure")})
        if stranded:
            event["stranded"] = stranded
        events.append(said(event))
    return events


# -- peace kept (EG-14) ----------------------------------------------------------------------------------------


def barred(state: State, a: str, b: str) -> tuple[str, str] | None:
    """(loser, victor) when Political terms are in force between `a` and `b`, either way round."""
    terms = political(state)
    if terms.get(a) == b:
        return a, b
    if terms.get(b) == a:
        return b, a
    return None


def may_go_to_war(rules, state: State, pairs: list[tuple[str, str]], what: str) -> None:
    """EG-14: while Political terms are in force, all conflict between victor and loser has ceased: `what` (a
    declaration, a Surprise Attack, an alliance sharing its wars) may not put any of `pairs` bound by the terms at
    war (politics.PEACE_KEEPERS)."""
    for x, y in pairs:
        found = barred(state, x, y)
        if found is None or rules.at_war(state, x, y):
            continue
        loser, victor = found
        hint = (f"; {victor} enter {possessive(loser)} land by non-combat moves (free passage, EG-19)"
                if what.startswith("a Surprise Attack by " + victor) else "")
        raise RuleViolation(f"{what} would put {x} and {y} at war, but all conflict between them has ceased under "
                            f"{possessive(victor, the=True)} Political surrender terms over {loser}: no new war "
                            f"between them while the terms last (they end when {victor} no longer hold "
                            f"{nation(loser).capital})"
                            + hint, "EG-14")


def lapse_at_peace(rules, state: State) -> list[dict]:
    """Pending surrender offers between nations a peace has just reached (a surrender, an armistice) end: there is no
    war left to surrender (EG-11)."""
    events = []
    for oid, found in politics.offers(state).items():
        if found.get("kind") == SURRENDER and not rules.at_war(state, found["from"], found["to"]):
            politics._end_offer(state, oid)
            events.append(said({"type": "surrender_lapsed", "offer": oid, "power": found["from"],
                                "victor": found["to"], "why": "they are at peace now, their war ended",
                                "rule": "EG-11"}))
    return events


def status(rules, state: State) -> dict:
    """`status --json`: Political terms in force ({loser: victor}), halts ({victor: {"place", "losers"}}), and the
    territories whose Original owner Land terms changed ({territory: new Original owner}, EG-16)."""
    start = {t: o for t, o in rules.scenario.owners.items() if not rules.is_water(t)}
    gained = {t: o for t, o in sorted(state.original_owners.items()) if t in start and start[t] != o}
    return {"political_terms": political(state), "halts": halts(state), "original_by_surrender": gained}


def notes(rules, state: State) -> list[str]:
    lines = []
    for loser, victor in political(state).items():
        lines.append(f"Political surrender: {victor} over {loser} (while {victor} hold {nation(loser).capital})")
    for victor, h in halts(state).items():
        lines.append(f"Halt: {victor} stop {politics_names(h['losers'])} units in {h['place']} until "
                     f"{possessive(victor)} next turn")
    return lines


politics.TERMS_WRITERS["S"] = written      # `accept S1 TERMS` written back canonically
politics.PEACE_KEEPERS.append(may_go_to_war)          # EG-14: no new war while Political terms last
politics.register_agreement(SURRENDER, politics.Agreement(phase="surrenders", rule="EG-13", what="surrender offer",
                                                          concluded=concluded, check_terms=check_terms))
