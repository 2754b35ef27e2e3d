"""The Egypt industrial complex, its set-aside treasury and the Middle East payment (AP-04, AP-07 … AP-14; RULINGS.md
"egypt-ic", "setaside-phase", "egypt-production", "egypt-forfeit", "middle-east-payer").

The orders, all of the British:

* ``setaside start N`` — purchase phase of the British first turn (round 1): the start-of-game set-aside, taken from
  the treasury at once, so that it may be spent in Egypt in that turn (AP-08).
* ``setaside N`` — place phase of any British turn: N IPCs are set aside as this turn's income is collected, at most
  the value of the Middle East under Allied control then and the treasury after the income (AP-08).
* ``egypt UNITS`` — purchase phase: units bought with the set-aside money, to be placed at the Egypt IC (AP-09 …
  AP-11). Bought units wait with the others and are placed with `place`.

Records (State.spent): ``egypt:setaside`` the set-aside account; ``egypt:setaside-order`` this turn's `setaside N`
(cleared as the turn ends); ``egypt:bought:UNIT`` units of this turn bought with the account (cleared as the turn
ends); ``egypt:setaside-start`` present once the start-of-game set-aside was made.
"""

from __future__ import annotations

from adjudicator.rules.economy import price_list
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from .units import COMMANDO

EGYPT = "Egypt"
UK = "British"
GERMANY = "Germans"
PAYERS = ("British", "Americans", "Russians")       # who pays the Middle East money, in turn (middle-east-payer)
# The territories europe_improved gives its Middle_East owner (8 IPCs): Apone's "Middle East" (LEDGER gap 4).
MIDDLE_EAST = ("Egypt", "Iran", "Iraq", "Palestine", "Syria", "Trans-Jordan")

SEA_BESIDE = "Eastern Mediterranean Sea Zone"       # Egypt's only sea zone, beside no other British factory

ACCOUNT = "egypt:setaside"
ORDERED = "egypt:setaside-order"
STARTED = "egypt:setaside-start"
BOUGHT = "egypt:bought:{}"
SETASIDE, BUY = "setaside", "egypt"


def register(reg) -> None:
    """`setaside [start] N` (its phase from the form) and `egypt UNITS` (purchase)."""
    reg.register(SETASIDE, phase=None, usage="setaside N | setaside start N", parse=_parse_setaside)
    reg.register(BUY, phase="purchase", usage="egypt UNITS", parse=lambda r: {"units": r.units()})


def _parse_setaside(r) -> dict:
    t = r.peek()
    if t is not None and t.text.casefold() == "start":
        r.pos += 1
        return {"phase": "purchase", "start": "start", "amount": r.count("the IPCs to set aside")}
    return {"phase": "place", "amount": r.count("the IPCs to set aside")}


def account(state: State) -> int:
    return state.spent.get(ACCOUNT, 0)


def _deposit(state: State, amount: int) -> None:
    state.spent[ACCOUNT] = account(state) + amount
    if not state.spent[ACCOUNT]:
        del state.spent[ACCOUNT]


def allied_value(rules, state: State) -> int:
    """AP-08: the IPC value of the Middle East territories under Allied control (the Middle_East owner's or an
    Allied power's)."""
    return sum(rules.scenario.territory(t).production for t in MIDDLE_EAST
               if (o := state.owners.get(t)) and rules.friendly(state, UK, o))


def held_by(rules, state: State, power: str) -> int:
    """The IPC value of the Middle East territories `power` holds."""
    return sum(rules.scenario.territory(t).production for t in MIDDLE_EAST if state.owners.get(t) == power)


# -- the orders -----------------------------------------------------------------------------------------------

def order(rules, state: State, power: str, o) -> dict:
    if power != UK:
        rule = "AP-10" if o.name == BUY else "AP-08"
        raise RuleViolation(f"only the British {'produce at' if o.name == BUY else 'set IPCs aside for'} the Egypt "
                            f"industrial complex; {power} cannot", rule)
    if o.name == BUY:
        return _buy(rules, state, o.args["units"])
    return _set_aside_start(rules, state, o.args["amount"]) if o.args.get("start") else _order_set_aside(
        rules, state, o.args["amount"])


def _set_aside_start(rules, state: State, amount: int) -> dict:
    """The start-of-game set-aside (RULINGS.md "setaside-phase"): in the first British turn, from the treasury."""
    if state.round != 1 or STARTED in state.spent:
        raise RuleViolation("`setaside start N` is the start-of-game set-aside: once, in the first British turn; "
                            "later set-asides are `setaside N`, taken as the income is collected", "AP-08")
    cap, have = allied_value(rules, state), state.treasury.get(UK, 0)
    if amount > min(cap, have):
        raise RuleViolation(f"the British may set aside at most {cap} IPCs (the Middle East under Allied control) "
                            f"and have {have}; not {amount}", "AP-08")
    state.treasury[UK] = have - amount
    _deposit(state, amount)
    state.spent[STARTED] = 1
    return _event("AP-08", f"The British set aside {amount} IPCs for the Egypt industrial complex at the start of "
                           f"the game (set aside: {account(state)}; treasury {state.treasury[UK]}).")


def _order_set_aside(rules, state: State, amount: int) -> dict:
    """`setaside N`: filed now, carried out as the income is collected (end_of_turn)."""
    if ORDERED in state.spent:
        raise RuleViolation("one `setaside N` a turn", "AP-08")
    cap = allied_value(rules, state)
    if amount > cap:
        raise RuleViolation(f"the British may set aside at most {cap} IPCs, the value of the Middle East under "
                            f"Allied control; not {amount}", "AP-08")
    state.spent[ORDERED] = amount
    return _event("AP-08", f"The British will set aside {amount} IPCs for the Egypt industrial complex as they "
                           "collect their income.")


def _buy(rules, state: State, units) -> dict:
    """AP-09: units for Egypt are paid from the set-aside account, and only while the British hold its IC."""
    if state.owners.get(EGYPT) != UK or not _has_ic(rules, state):
        raise RuleViolation("the British do not hold the Egypt industrial complex: nothing is bought for it", "AP-09")
    prices = price_list(rules, state, UK)
    wanted: dict[str, int] = {}
    for uc in units:
        if uc.unit not in prices:
            raise RuleViolation(f"the British cannot buy {uc.unit}", "AP-09")
        if uc.unit == COMMANDO:
            raise RuleViolation("commando markers are not produced at the Egypt industrial complex: they are never "
                                "placed (AP-29), and set-aside IPCs pay only for units produced there", "AP-11")
        wanted[uc.unit] = wanted.get(uc.unit, 0) + uc.count
    cost = sum(prices[u] * n for u, n in wanted.items())
    if cost > account(state):
        raise RuleViolation(f"the units for Egypt cost {cost} IPCs; the British have {account(state)} set aside, "
                            "and no other IPCs may pay for them", "AP-09")
    rules.check_purchase(state, UK, wanted)
    _deposit(state, -cost)
    bought = state.purchases.setdefault(UK, {})
    for unit, n in wanted.items():
        bought[unit] = bought.get(unit, 0) + n
        state.spent[BOUGHT.format(unit)] = state.spent.get(BOUGHT.format(unit), 0) + n
    words = ", ".join(f"{n} {u}" for u, n in sorted(wanted.items()))
    return _event("AP-09", f"The British buy {words} for the Egypt industrial complex for {cost} set-aside IPCs "
                           f"(set aside: {account(state)}).")


def _has_ic(rules, state: State) -> bool:
    return any(rules.ut(u).has("factory") for u in state.units_at(EGYPT))


def _event(rule: str, text: str) -> dict:
    return {"type": "rule", "rule": rule, "power": UK, "text": text}


# -- placement ------------------------------------------------------------------------------------------------

def check_placement(rules, state: State, power: str, place: str, units: dict[str, int]) -> None:
    """AP-09 and AP-11: what the British place at the Egypt IC (in Egypt, or ships in a sea zone beside it that no
    other British factory serves) was bought with the set-aside; what they bought with it goes nowhere else."""
    if power != UK:
        return
    at_egypt = _served(state, place)
    pending = state.purchases.get(UK, {})
    for unit, n in units.items():
        left = state.spent.get(BOUGHT.format(unit), 0) - _placed_at_egypt(rules, state, unit)
        if at_egypt and n > left:
            raise RuleViolation(f"units placed at the Egypt industrial complex are paid with set-aside IPCs "
                                f"(`egypt UNITS`): {max(left, 0)} {unit} bought with it and not yet placed there, not {n}", "AP-09")
        if not at_egypt and n > pending.get(unit, 0) - max(left, 0):
            raise RuleViolation(f"{unit} bought with set-aside IPCs are placed at the Egypt industrial complex "
                                f"only, not in {place}", "AP-11")


def _served(state: State, place: str) -> bool:
    return place in (EGYPT, SEA_BESIDE)


def _placed_at_egypt(rules, state: State, unit: str) -> int:
    return sum(1 for p in (EGYPT, SEA_BESIDE) for u in state.units_at(p, UK) if u.type == unit and u.flags.get("placed"))


def unlimited(rules, state: State, power: str, place: str) -> bool:
    """RULINGS.md "egypt-production": the British place at their Egypt IC as many units as their set-aside pays for."""
    return power == UK and place == EGYPT and _has_ic(rules, state)


def position_lines(state: State) -> list[str]:
    """The report's picture of the position: the set-aside account (AP-08)."""
    return [f"British IPCs set aside for the Egypt industrial complex: {account(state)}"]


# -- capture, income, the end of the turn -------------------------------------------------------------------------

def captured(rules, state: State, power: str, place: str) -> list[dict]:
    """AP-12: the enemy that takes Egypt with its IC takes the British set-aside IPCs."""
    if place != EGYPT or state.owners.get(place) != power or rules.friendly(state, UK, power):
        return []
    if not _has_ic(rules, state) or not account(state):
        return []
    amount = account(state)
    _deposit(state, -amount)
    state.treasury[power] = state.treasury.get(power, 0) + amount
    return [{"type": "rule", "rule": "AP-12", "power": power,
             "text": f"{power} take the Egypt industrial complex: the British forfeit their {amount} set-aside IPCs "
                     f"to them (treasury {state.treasury[power]})."}]


def income(rules, state: State, power: str, total: int, lines: list[dict]) -> tuple[int, list[dict]]:
    """AP-13: the Allies collect nothing from the Middle East; Germany's Middle East money comes from the Allies,
    as much as they have (paid in end_of_turn)."""
    if not lines or lines[0].get("item") != "territories":
        return total, lines
    held = held_by(rules, state, power)
    if not held:
        return total, lines
    lines = [dict(lines[0], amount=lines[0]["amount"] - held)] + lines[1:]
    if rules.friendly(state, UK, power):
        note = f"the Middle East ({held} IPCs held) pays the Allies nothing (AP-13)"
        return total - held, lines + [{"item": "middle east", "amount": 0, "note": note}]
    paid = min(held, sum(state.treasury.get(p, 0) for p in PAYERS))
    note = f"the Middle East, {paid} of its {held} IPCs paid by the Allies, not the bank (AP-13)"
    return total - held + paid, lines + [{"item": "middle east", "amount": paid, "note": note}]


def end_of_turn(rules, state: State, power: str) -> list[dict]:
    """After the income: the Allies pay Germany its Middle East money (AP-13); the British set aside (AP-08)."""
    events = []
    if power == GERMANY:
        events += _pay_germany(rules, state)
    if power == UK:
        events += _set_aside(rules, state)
        for key in [k for k in state.spent if k.startswith("egypt:bought:")]:
            del state.spent[key]
    return events


def _pay_germany(rules, state: State) -> list[dict]:
    """What the Allies pay is Germany's income (income()): with its capital lost Germany collects none, and so
    nothing is paid."""
    if not rules.can_collect_income(state, GERMANY):
        return []
    due = min(held_by(rules, state, GERMANY), sum(state.treasury.get(p, 0) for p in PAYERS))
    if not due:
        return []
    paid = []
    for p in PAYERS:
        n = min(due, state.treasury.get(p, 0))
        if n:
            state.treasury[p] -= n
            due -= n
            paid.append(f"the {p} {n} (treasury {state.treasury[p]})")
    return [{"type": "rule", "rule": "AP-13", "power": GERMANY,
             "text": f"The Allies pay the Germans for the Middle East they hold: {', '.join(paid)}."}]


def _set_aside(rules, state: State) -> list[dict]:
    wanted = state.spent.pop(ORDERED, None)
    if wanted is None:
        return []
    cap, have = allied_value(rules, state), state.treasury.get(UK, 0)
    amount = min(wanted, cap, have)
    state.treasury[UK] = have - amount
    _deposit(state, amount)
    short = (f" of the {wanted} ordered (at most {cap}, the Middle East under Allied control, out of a treasury of "
             f"{have})") if amount < wanted else ""
    return [_event("AP-08", f"The British set aside {amount} IPCs{short} for the Egypt industrial complex (set "
                            f"aside: {account(state)}; treasury {state.treasury[UK]}).")]
