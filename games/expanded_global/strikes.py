"""The Expanded Global's missiles and nuclear weapons (EG-43 … EG-46): the Resolve Strikes step, Atomic Bombs and
Nuclear Ballistic Missiles. RULINGS.md "eg-resolve-strikes", "eg-nuclear-weapons".

The Resolve Strikes step closes the combat move: `strike` orders are written with the combat moves, checked as they
are read (technology, base, range, target; a strike on a nation without combat allowed is a Surprise Attack), and
resolved after the last combat move, before the first battle (ExpandedGlobalRules.phase_end), with audited dice:

* `strike cruise BASE > PLACE [: NATION]`  (EG-43) one die, `strike:cruise:NATION:N`: 1-3 hits one of the
  struck nation's units in PLACE, the casualty chosen by that nation's order of loss;
* `strike ballistic BASE > TERRITORY [FACILITY]`  (EG-44) one die, `strike:ballistic:NATION:N`: that much damage to
  the facility, capped as a bombing raid's (BG-28);
* `strike atomic BASE > TERRITORY`  (EG-45) an Atomic Bomb from the stock, carried by a bomber at the base;
* `strike nuclear BASE > TERRITORY`  (EG-46) a Nuclear Ballistic Missile from the stock; it is the base's ballistic
  strike of the turn and needs Ballistic Missiles too.

BASE is a territory with an operative air base of the striker; the target lies within RANGE steps of it (any land
or sea). Each base makes at most one strike of each kind a turn (a nuclear missile is its ballistic one). A nuclear
strike destroys every unit in the territory that is not the striker's or an ally's and damages every such facility
there to its cap; no dice. Nuclear weapons are bought in Purchase and Repair (`stockpile N atomic bomb`,
`stockpile N nuclear missile`) and kept in a national stock, not on the map, usable from the next turn.

State: spent["nuclear:NATION:WEAPON"] the ready stock, spent["nuclear-new:NATION:WEAPON"] bought this turn,
spent["strikes-made:NATION:KIND"] strikes made in the game; switches["strikes:NATION"] this turn's strikes (JSON).
"""

from __future__ import annotations

import json
from collections import deque

from adjudicator.notation.parser import ARROW, COLON, Reader
from adjudicator.rules.combat import assign_hits, order_of_loss
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, count_types

from . import politics, tech
from .phrases import said

VERB = "strike"
USAGE = "strike cruise|ballistic|atomic|nuclear BASE > TARGET [FACILITY] [: NATION]"
STOCK_VERB = "stockpile"
STOCK_USAGE = "stockpile N atomic bomb | stockpile N nuclear missile"

RANGE = 3                   # steps from the air base, over land or sea
CRUISE_HITS = 3             # a cruise missile hits on 1-3
KINDS = {"cruise": ("Cruise Missiles", "EG-43"), "ballistic": ("Ballistic Missiles", "EG-44"),
         "atomic": ("Atomic Bomb", "EG-45"), "nuclear": ("Nuclear Warhead", "EG-46")}
SLOT = {"cruise": "cruise", "ballistic": "ballistic", "nuclear": "ballistic", "atomic": "atomic"}
WEAPONS = {"atomic": ("Atomic Bomb", 20, "EG-45"), "nuclear": ("Nuclear Ballistic Missile", 25, "EG-46")}
STOCK = "nuclear:{}:{}"
NEW = "nuclear-new:{}:{}"
MADE = "strikes-made:{}:{}"
TURN = "strikes:{}"


def register(reg) -> None:
    """Bind `strike` to the combat move and `stockpile` to Purchase and Repair in the game's registry."""
    reg.register(VERB, phase="combat_move", usage=USAGE, parse=_parse)
    reg.register(STOCK_VERB, phase="purchase", usage=STOCK_USAGE, parse=_parse_stock)


def _parse(r: Reader) -> dict:
    kind = r.keyword(*KINDS).casefold()
    base = r.place()
    r.symbol(ARROW)
    if kind == "ballistic":
        target, facility = r.place_and_facility()
    else:
        target, facility = r.place(), None
    args = {"kind": kind, "base": base, "to": ">", "target": target}
    if facility:
        args["facility"] = facility
    if kind == "cruise" and r.accept_symbol(COLON):
        args.update({"on": ":", "nation": r.power()})
    return args


def _parse_stock(r: Reader) -> dict:
    count = r.count("the number of nuclear weapons")
    text = " ".join(r.rest("atomic bomb or nuclear missile").casefold().split())
    if text.startswith("atomic"):
        return {"count": count, "weapon": "atomic bomb" if count == 1 else "atomic bombs"}
    if text.startswith("nuclear") or text in ("nbm", "nbms"):
        return {"count": count, "weapon": "nuclear missile" if count == 1 else "nuclear missiles"}
    r.fail(f"unknown weapon '{text}': `stockpile N atomic bomb` or `stockpile N nuclear missile`",
           expected="atomic bomb or nuclear missile")


# -- the stock (EG-45, EG-46) --------------------------------------------------------------------------------

def stockpile(rules, state: State, power: str, count: int, weapon_text: str) -> dict:
    weapon = "atomic" if weapon_text.startswith("atomic") else "nuclear"
    name, cost, rule = WEAPONS[weapon]
    needed = KINDS[weapon][0]
    if not tech.has(state, power, needed):
        raise RuleViolation(f"{power} may not buy a {name}: it needs the technology {needed} (Chart 2), which "
                            f"{power} have not researched", rule)
    total = cost * count
    if state.treasury.get(power, 0) < total:
        raise RuleViolation(f"{count} {name}{'s' if count > 1 else ''} cost {total} IPCs ({cost} each); {power} "
                            f"have {state.treasury.get(power, 0)}", rule)
    rules.spend(state, power, total, f"stockpile {count} {weapon_text}")         # Peacetime Spending (EG-29)
    state.treasury[power] -= total
    key = NEW.format(power, weapon)
    state.spent[key] = state.spent.get(key, 0) + count
    return said({"type": "nuclear_bought", "power": power, "weapon": name, "count": count, "cost": total,
                 "treasury": state.treasury[power], "stock": stock(state, power, weapon), "rule": rule})


def stock(state: State, power: str, weapon: str) -> int:
    return state.spent.get(STOCK.format(power, weapon), 0)


def stocks(rules, state: State) -> dict[str, dict[str, int]]:
    """Every nation's nuclear stock: {nation: {"atomic": n, "nuclear": n}} (ready and bought this turn)."""
    out = {}
    for n in politics.nations(rules):
        held = {w: stock(state, n, w) + state.spent.get(NEW.format(n, w), 0) for w in WEAPONS}
        if any(held.values()):
            out[n] = held
    return out


# -- strikes (EG-43 … EG-46) ---------------------------------------------------------------------------------

def _strikes(state: State, power: str) -> list[dict]:
    return json.loads(state.switches.get(TURN.format(power)) or "[]")


def distance(rules, start: str, goal: str, limit: int = RANGE) -> int | None:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        if seen[here] >= limit:
            continue
        for nxt in sorted(rules.scenario.neighbours(here)):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def _bomber(state: State, power: str, base: str):
    """The bomber at `base` that flies an Atomic Bomb strike (RULINGS.md "eg-nuclear-weapons"): one not already on
    such a mission, preferring one that has not moved."""
    free = [u for u in state.units_at(base, power) if u.type == "bomber" and not u.flags.get("mission")]
    return min(free, key=lambda u: (u.moved, u.id), default=None)


def _hostile(rules, state: State, power: str, nation: str | None, rule: str, place: str) -> None:
    if nation is None:
        raise RuleViolation(f"{place} holds nothing of a nation for this strike to hit", rule)
    if nation not in politics.nations(rules):
        raise RuleViolation(f"a strike on {place} targets a nation's units or land; {nation} is not a nation "
                            "(neutrals are not struck)", rule)
    if nation == power or rules.friendly(state, power, nation):
        raise RuleViolation(f"{power} may not strike {nation}: their own units, or an ally's", rule)


def _targets(rules, state: State, place: str, nation: str) -> list:
    return [u for u in state.units_at(place, nation) if not rules.ut(u).has("can_be_damaged") and u.carried_by is None]


def _facilities(rules, state: State, place: str, owner: str) -> list:
    order = ("factory", "air_base", "naval_base")
    found = [u for u in state.units_at(place, owner) if rules.ut(u).has("can_be_damaged")]
    return sorted(found, key=lambda u: (next((i for i, k in enumerate(order) if rules.ut(u).has(k)), 9), u.id))


def strike(rules, state: State, power: str, args: dict) -> dict:
    """Check a `strike` order as it is read and record it for the Resolve Strikes step; a strike on a nation without
    combat allowed is a Surprise Attack (EG-66)."""
    kind, base, target = args["kind"], args["base"], args["target"]
    needed, rule = KINDS[kind]
    if not tech.has(state, power, needed):
        raise RuleViolation(f"{power} may not make a {kind} strike: it needs the technology {needed} (Chart 2), "
                            f"which {power} have not researched", rule)
    if kind == "nuclear" and not tech.has(state, power, "Ballistic Missiles"):
        raise RuleViolation(f"{power} may not launch a Nuclear Ballistic Missile before researching Ballistic "
                            "Missiles", rule)
    bases = [u for u in state.units_at(base, power) if rules.ut(u).has("air_base")]
    if not bases:
        raise RuleViolation(f"{power} have no air base in {base}: strikes are made from one's own operative air "
                            "bases", rule)
    if not any(rules.operative(u) for u in bases):
        raise RuleViolation(f"the air base of {power} in {base} is not operative (damage {bases[0].damage}): an "
                            "inoperative base makes no strike", rule)
    made = _strikes(state, power)
    slot = SLOT[kind]
    if any(s["base"] == base and SLOT[s["kind"]] == slot for s in made):
        raise RuleViolation(f"the air base in {base} has made its {slot} strike this turn: each operative air base "
                            f"makes one {slot} strike a turn", rule)
    steps = distance(rules, base, target)
    if steps is None:
        raise RuleViolation(f"{target} is out of range of the air base in {base}: strikes reach {RANGE} territories "
                            "or sea zones", rule)
    record = {"kind": kind, "base": base, "target": target, "rule": rule}
    if kind == "cruise":
        victim = args.get("nation")
        if victim is None:
            there = sorted({u.owner for u in state.units_at(target) if u.owner != power
                            and not rules.friendly(state, power, u.owner) and _targets(rules, state, target, u.owner)})
            if len(there) > 1:
                raise RuleViolation(f"{target} holds units of {', '.join(there)}: name the nation struck "
                                    f"(`strike cruise {base} > {target} : NATION`)", rule)
            victim = there[0] if there else rules.owner(state, target)
        _hostile(rules, state, power, victim, rule, target)
        if not _targets(rules, state, target, victim):
            raise RuleViolation(f"{target} holds no unit of {victim} for a cruise missile to strike", rule)
        victims = [victim]
    elif kind == "ballistic":
        if rules.is_water(target):
            raise RuleViolation(f"a ballistic missile strikes a facility on land; {target} is a sea zone", rule)
        victim = rules.owner(state, target)
        _hostile(rules, state, power, victim, rule, target)
        found = _facilities(rules, state, target, victim)
        if args.get("facility") and args["facility"] != "factory":
            found = [u for u in found if u.type == args["facility"]]
        elif args.get("facility") == "factory":
            found = [u for u in found if rules.ut(u).has("factory")]
        if not found:
            raise RuleViolation(f"{target} has no facility of {victim}{' of that type' if args.get('facility') else ''}"
                                " for a ballistic missile to strike", rule)
        record["facility"] = found[0].type
        victims = [victim]
    else:
        weapon = WEAPONS[kind][0]
        if rules.is_water(target):
            raise RuleViolation(f"a nuclear strike targets a territory; {target} is a sea zone", rule)
        _hostile(rules, state, power, rules.owner(state, target), rule, target)
        ready = stock(state, power, kind)
        used = sum(1 for s in made if s["kind"] == kind)
        if ready <= used:
            raise RuleViolation(f"{power} have no {weapon} ready ({ready} in stock, {used} used this turn; one bought "
                                "this turn is ready from the next)", rule)
        if kind == "atomic":
            carrier = _bomber(state, power, base)
            if carrier is None:
                raise RuleViolation(f"an Atomic Bomb is carried by a bomber: {power} have none at the air base in "
                                    f"{base} free to fly it", rule)
            carrier.mark(mission=[f"in {base} carries the Atomic Bomb to {target}", rule])
        hit = [u for u in state.units_at(target) if u.owner != power and not rules.friendly(state, power, u.owner)]
        if not hit:
            raise RuleViolation(f"{target} holds no unit or facility of an enemy: the {weapon} would destroy "
                                "nothing", rule)
        victims = sorted({u.owner for u in hit} | {rules.owner(state, target)})
        victims = [v for v in victims if v in politics.nations(rules)]
    surprise = [v for v in victims if not politics.combat_allowed(rules, state, power, v)]
    for v in surprise:          # EG-14: refused before any war begins, whichever victim the terms protect
        politics.may_fight(rules, state, power, v, f"a Surprise Attack by {power} on {v}")
    for v in surprise:
        politics.surprise_attack(rules, state, power, v)
    record["victims"] = victims
    state.switches[TURN.format(power)] = json.dumps(made + [record])
    return said({"type": "strike_order", "power": power, "kind": kind, "base": base, "target": target,
                 "victims": victims, "facility": record.get("facility"), "steps": steps, "surprise": surprise,
                 "rule": rule})


def phase_end(rules, state: State, power: str, phase: str, roller) -> list[dict]:
    """The Resolve Strikes step, after the last combat move: each strike recorded this turn, in order. At `submit`
    (no roller) nothing is rolled: the orders were checked as they were read."""
    if phase != "combat_move" or roller is None:
        return []
    made = _strikes(state, power)
    events, counts = [], {}
    for s in made:
        if s.get("done"):
            continue
        s["done"] = True
        counts[s["kind"]] = counts.get(s["kind"], 0) + 1
        key = MADE.format(power, s["kind"])
        state.spent[key] = state.spent.get(key, 0) + 1
        label = f"strike:{s['kind']}:{power}:{counts[s['kind']]}"
        event = {"type": "strike", "power": power, "kind": s["kind"], "base": s["base"], "target": s["target"],
                 "rule": s["rule"]}
        if s["kind"] == "cruise":
            event.update(_cruise(rules, state, roller, label, s))
        elif s["kind"] == "ballistic":
            event.update(_ballistic(rules, state, roller, label, s))
        else:
            event.update(_nuclear(rules, state, power, s))
        events.append(said(event))
    state.switches[TURN.format(power)] = json.dumps(made)
    return events


def _cruise(rules, state: State, roller, label: str, s: dict) -> dict:
    victim = s["victims"][0]
    die = roller.roll(label, rules.scenario.dice_sides, 1, units=["cruise missile"])[0]
    out = {"label": label, "die": die, "hit": die <= CRUISE_HITS, "victim": victim, "killed": {}, "damaged": {}}
    if die <= CRUISE_HITS:
        units = _targets(rules, state, s["target"], victim)
        damaged, killed = assign_hits(rules, units, [(1, lambda u: True)],
                                      order_of_loss(rules, state, victim, "defender", None), "defender")
        cargo = [c for k in killed for c in state.cargo_of(k)]
        state.remove_units([u.id for u in killed + cargo])
        out.update(killed=count_types(killed + cargo), damaged=count_types(damaged))
    return out


def _ballistic(rules, state: State, roller, label: str, s: dict) -> dict:
    victim = s["victims"][0]
    die = roller.roll(label, rules.scenario.dice_sides, 1, units=["ballistic missile"])[0]
    goal = next((u for u in _facilities(rules, state, s["target"], victim) if u.type == s["facility"]), None)
    if goal is None:
        return {"label": label, "die": die, "victim": victim, "facility": s["facility"], "dealt": 0, "total": 0,
                "max": 0, "operative": False}
    dealt = min(die, max(rules.max_damage(goal) - goal.damage, 0))
    goal.damage += dealt
    return {"label": label, "die": die, "victim": victim, "facility": goal.type, "dealt": dealt,
            "total": goal.damage, "max": rules.max_damage(goal), "operative": rules.operative(goal)}


def _nuclear(rules, state: State, power: str, s: dict) -> dict:
    key = STOCK.format(power, s["kind"])
    state.spent[key] = max(state.spent.get(key, 0) - 1, 0)
    place = s["target"]
    hit = [u for u in state.units_at(place) if u.owner != power and not rules.friendly(state, power, u.owner)]
    killed = [u for u in hit if not rules.ut(u).has("can_be_damaged")]
    facilities = [u for u in hit if rules.ut(u).has("can_be_damaged")]
    by_owner: dict[str, dict[str, int]] = {}
    for u in killed:
        by_owner.setdefault(u.owner, {}).setdefault(u.type, 0)
        by_owner[u.owner][u.type] += 1
    state.remove_units([u.id for u in killed])
    damaged = {}
    for f in facilities:
        f.damage = max(f.damage, rules.max_damage(f))
        damaged[f.type] = f.damage
    return {"weapon": WEAPONS[s["kind"]][0], "killed": by_owner, "facilities": damaged,
            "stock": state.spent.get(key, 0)}


def end_of_turn(state: State, power: str) -> None:
    """Nuclear weapons bought this turn join the stock; this turn's strike record is cleared."""
    for w in WEAPONS:
        new = state.spent.pop(NEW.format(power, w), 0)
        if new:
            state.spent[STOCK.format(power, w)] = stock(state, power, w) + new
    state.switches.pop(TURN.format(power), None)


def notes(rules, state: State) -> list[str]:
    """Status lines: nuclear stocks, and the strikes each nation has made in the game."""
    lines = []
    for n, held in stocks(rules, state).items():
        lines.append(f"Nuclear stock of {n}: {held['atomic']} Atomic Bomb(s), {held['nuclear']} Nuclear Ballistic "
                     "Missile(s)")
    for n in politics.nations(rules):
        made = {k: state.spent.get(MADE.format(n, k), 0) for k in KINDS}
        if any(made.values()):
            lines.append(f"Strikes made by {n} in the game so far: " + ", ".join(f"{k} {v}" for k, v in made.items() if v))
    return lines
