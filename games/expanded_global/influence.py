"""Collect and Spend Influence (EG-49 … EG-54; RULINGS.md "eg-influence-collection", "eg-neutrals",
"eg-influence-markers", "eg-competing-markers", "eg-mongolia-persia").

The orders of a nation's `influence` phase, the verb `influence` (registered by `verbs`):

* ``influence`` — take Influence this turn, once: floor(B/2), B its income now (floor(income/2) under Peacetime
  Spending, so a quarter); the same amount is deducted from the IPCs it collects at this turn's end (`deduct`).
* ``influence N TARGET`` — buy N Influence markers at 3 Influence each and place them on TARGET: a neutral territory
  (one no nation controls), or the group ``Mongolia`` / ``Persia`` (named by the group or by any territory in it,
  EG-54). The 6th marker of one nation (its 4th after its own insurgency there, EG-59: the switch
  ``insurgent:PLACE``, insurgents.py) takes the territory (every still-neutral territory of a group): it becomes the
  nation's, not as an Original Territory; the neutral's standing army becomes the nation's units and may not move
  this turn; every nation's markers there are removed (EG-53, "eg-competing-markers").

Records (State.spent): ``influence:NATION`` the stored Influence (kept from round to round, EG-51; the surprise-attack
penalty zeroes it), ``influence-taken:NATION`` what was taken this turn (present once taken, cleared as the turn
ends), ``markers:NATION:TARGET`` the nation's markers on a territory, or on a group by the group's name.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from .phrases import said

POOL = "influence:{}"
TAKEN = "influence-taken:{}"
MARKERS = "markers:{}:{}"
MARKER_COST = 3                 # EG-52
MARKERS_TO_TAKE = 6             # EG-53
MARKERS_AFTER_INSURGENCY = 4    # EG-59: for the nation whose insurgency made the territory neutral (insurgents.py)
VERB = "influence"
USAGE = "influence | influence N NEUTRAL"

# EG-54: the territories counted as one (the G40 map's Mongolian territories are read from their owner)
MONGOLIAN_OWNER = "Mongolians"
PERSIA = ("Persia", "Northwest Persia", "Eastern Persia")
GROUPS = ("Mongolia", "Persia")


def register(reg) -> None:
    """Bind the verb `influence` to the `influence` phase in the game's registry."""
    reg.register(VERB, phase="influence", usage=USAGE, parse=_parse)


def _parse(r) -> dict:
    if r.at_end():
        return {}
    count = r.count("the number of Influence markers")
    t = r.peek()
    if t is not None and r.pos == len(r.tokens) - 1 and t.text.casefold() in ("mongolia", "persia"):
        r.pos += 1
        return {"count": count, "target": t.text.casefold().capitalize()}
    return {"count": count, "target": r.place()}


# -- what is neutral -------------------------------------------------------------------------------------

def neutral_owners(rules) -> set[str]:
    """The neutral owners: the scenario's players that are not nations (RULINGS.md "eg-neutrals")."""
    return {p.name for p in rules.scenario.players if p.optional}


def is_neutral(rules, state: State, place: str) -> bool:
    """A land territory controlled by none of the 14 nations."""
    t = rules.scenario.territories_by_name().get(place)
    return t is not None and not t.water and state.owners.get(place) in neutral_owners(rules)


def group_members(rules, state: State, group: str) -> list[str]:
    """The group's territories that are still neutral (a conquered one has left it)."""
    if group == "Mongolia":
        names = [t.name for t in rules.scenario.territories
                 if not t.water and state.owners.get(t.name) == MONGOLIAN_OWNER]
    else:
        names = list(PERSIA)
    return [n for n in names if is_neutral(rules, state, n) and not state.switches.get(f"insurgent:{n}")]


def target_of(rules, state: State, name: str) -> tuple[str, list[str]]:
    """The marker target named by `name` and its neutral territories: a group (by its name or a member's), or the
    territory. Refused (EG-52) if nothing neutral is there."""
    for group in GROUPS:
        members = group_members(rules, state, group)
        if name == group or name in members:
            if not members:
                raise RuleViolation(f"no territory of {group} is neutral any more: markers go on neutral "
                                    "territories only", "EG-54")
            return group, members
    if not is_neutral(rules, state, name):
        owner = state.owners.get(name)
        why = f"it is controlled by {owner}" if owner else "it is not a neutral territory"
        raise RuleViolation(f"Influence markers go on neutral territories only; {name} is not neutral: {why}", "EG-52")
    return name, [name]


# -- the orders -------------------------------------------------------------------------------------------

def order(rules, state: State, power: str, order) -> dict:
    if not order.args:
        return take(rules, state, power)
    return buy(rules, state, power, order.args["count"], order.args["target"])


def take(rules, state: State, power: str) -> dict:
    """`influence`: floor(B/2) Influence now, B the income (halved under Peacetime Spending); once a turn."""
    key = TAKEN.format(power)
    if key in state.spent:
        raise RuleViolation(f"{power} have taken Influence this turn already ({state.spent[key]}): once a turn",
                            "EG-49")
    income = rules.income(state, power)[0]
    peace = rules.peacetime_limit(state, power) is not None     # the war status taken as Purchase began ("at-war")
    base = income // 2 if peace else income
    taken = base // 2
    state.spent[key] = taken
    pool = state.spent.get(POOL.format(power), 0) + taken
    state.spent[POOL.format(power)] = pool
    return said({"type": "influence_taken", "power": power, "income": income, "peacetime": peace,
                 "influence": taken, "stored": pool, "rule": "EG-50" if peace else "EG-49"})


def buy(rules, state: State, power: str, count: int, name: str) -> dict:
    """`influence N TARGET`: N markers at 3 Influence each; the 6th of one nation takes the target."""
    target, members = target_of(rules, state, name)
    if count < 1:
        raise RuleViolation("place at least one Influence marker", "EG-52")
    key = MARKERS.format(power, target)
    to_take = markers_to_take(state, power, target)
    needed = to_take - state.spent.get(key, 0)
    if count > needed:
        raise RuleViolation(f"{power} need {needed} more marker{'s' if needed > 1 else ''} on {target} to take it: "
                            f"the {to_take}th takes it, and a marker more would be paid for nothing",
                            "EG-59" if to_take != MARKERS_TO_TAKE else "EG-53")
    cost = MARKER_COST * count
    pool = state.spent.get(POOL.format(power), 0)
    if cost > pool:
        raise RuleViolation(f"{count} Influence marker{'s' if count > 1 else ''} cost {cost} Influence (3 each); "
                            f"{power} have {pool}", "EG-52")
    state.spent[POOL.format(power)] = pool - cost
    markers = state.spent.get(key, 0) + count
    state.spent[key] = markers
    event = said({"type": "influence_markers", "power": power, "target": target, "count": count, "cost": cost,
                  "markers": markers, "stored": pool - cost, "to_take": to_take,
                  "rule": "EG-59" if to_take != MARKERS_TO_TAKE else "EG-54" if target in GROUPS else "EG-52"})
    if markers >= to_take:
        event["follows"] = [take_over(rules, state, power, target, members)]
    return event


def markers_to_take(state: State, power: str, target: str) -> int:
    """6 markers take a neutral; 4 for the nation whose own insurgency made it neutral (EG-59)."""
    if state.switches.get(f"insurgent:{target}") == power:
        return MARKERS_AFTER_INSURGENCY
    return MARKERS_TO_TAKE


def take_over(rules, state: State, power: str, target: str, members: list[str]) -> dict:
    """The nation's 6th marker: the territories become its own (not Original), their standing armies its units,
    which may not move this turn; every nation's markers on the target are removed (EG-53, EG-54)."""
    army: dict[str, int] = {}
    neutrals = neutral_owners(rules)
    for place in members:
        state.owners[place] = power
        for u in state.units_at(place):
            if u.owner in neutrals:
                u.owner = power
                u.moved = rules.ut(u).movement + 99     # activated: no move this turn (moves reset at its end)
                army[u.type] = army.get(u.type, 0) + 1
    removed = remove_markers(state, target)
    after_insurgency = state.switches.pop(f"insurgent:{target}", None) == power
    return said({"type": "influence_taken_over", "power": power, "target": target, "territories": members,
                 "army": army, "markers_removed": removed,
                 "rule": "EG-59" if after_insurgency else "EG-54" if target in GROUPS else "EG-53"})


def remove_markers(state: State, target: str) -> dict[str, int]:
    """Every nation's markers on `target` are removed (no refund); answers who lost how many, by nation's name: the
    records' own order is not kept by a save and a replay (audit), and the report's wording follows this one."""
    removed = {}
    for key in sorted(k for k in state.spent if k.startswith("markers:") and k.endswith(":" + target)):
        nation = key[len("markers:"):-len(":" + target)]
        removed[nation] = state.spent.pop(key)
    return removed


def conquered(rules, state: State, place: str) -> list[dict]:
    """A neutral taken by force: every nation's markers on it are lost ("eg-neutrals"); a conquered territory of
    Mongolia or Persia leaves its group, whose markers stay until none of it is neutral ("eg-mongolia-persia")."""
    if is_neutral(rules, state, place):
        return []
    state.switches.pop(f"insurgent:{place}", None)      # a neutral of an insurgency taken by force (EG-59)
    group = next((g for g in GROUPS if f"{g}" in markers(state) and not group_members(rules, state, g)), None)
    target = place if place in markers(state) else group
    if target is None:
        return []
    return [said({"type": "influence_markers_lost", "target": target, "place": place,
                  "power": state.owners.get(place), "removed": remove_markers(state, target), "rule": "EG-53"})]


def markers(state: State) -> dict[str, dict[str, int]]:
    """Target -> nation -> markers, for `status` (RULINGS.md "eg-competing-markers")."""
    out: dict[str, dict[str, int]] = {}
    for key, n in state.spent.items():
        if key.startswith("markers:") and n:
            nation, _, target = key[len("markers:"):].partition(":")
            out.setdefault(target, {})[nation] = n
    return out


# -- the income collected at the end of the turn ---------------------------------------------------------

def taken(state: State, power: str) -> int:
    """The Influence `power` took this turn (0 if none)."""
    return state.spent.get(TAKEN.format(power), 0)


def deduct(state: State, power: str, events: list[dict], taken: int) -> None:
    """RULINGS.md "eg-income": the nation receives max(0, B − I) IPCs, I the Influence taken this turn (`taken`,
    read as the turn's end began)."""
    income = next((e for e in events if e["type"] == "income" and e["power"] == power), None)
    if not taken or income is None:
        return
    cut = min(taken, max(income["income"], 0))
    state.treasury[power] -= cut
    income["income"] -= cut
    income["treasury"] = state.treasury[power]
    income["lines"] = income["lines"] + [{
        "item": "influence", "amount": -cut,
        "note": f"{power} took {taken} Influence instead of IPCs this turn (EG-49)"}]


def end_of_turn(state: State, power: str) -> None:
    state.spent.pop(TAKEN.format(power), None)
