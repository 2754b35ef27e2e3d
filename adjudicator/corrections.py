"""Host corrections: the edit mode every long forum game needs to mend a mistake (a unit forgotten, a wrong
owner, a treasury mistyped). Each is checked against the game as a whole before anything changes: a correction
that names something the game does not have, or would leave an impossible position (enemies side by side, a ship
on land, money below zero), is refused with the line it came from. What is applied is journalled with the host's
reason, replayed by `audit` and printed in the next report. Land units added in a sea zone go aboard their
owner's transports there, as a move that ends there would board them.
"""

from __future__ import annotations

from .errors import ILLEGAL, OrderError
from .notation.edits import Correction
from .rules import air
from .rules.facts import RuleViolation
from .rules.g40_family import G40Rules
from .rules.transport import board
from .state import State, pair_key
from .words import possessive

MAX_REASON = 200


def reason_problem(reason: str) -> str | None:
    """Why a `--reason` cannot be journalled and printed, or None."""
    if not reason.strip():
        return "--reason must say why the game is corrected: players read it in the next report"
    if "\n" in reason or "\r" in reason or len(reason) > MAX_REASON:
        return f"--reason is one line of at most {MAX_REASON} characters"
    return None


def apply(rules: G40Rules, state: State, corrections: list[Correction]) -> tuple[list[str], list[OrderError]]:
    """Apply `corrections` in order to `state`; the changes as printed, or the errors (then `state` is spoiled:
    the caller works on a copy)."""
    errors, done = [], []
    before = set(impossible(rules, state))         # what the game already had is not the corrections' doing
    for c in corrections:
        problem = _apply_one(rules, state, c)
        if problem:
            errors.append(OrderError(ILLEGAL, problem, c.line, c.column, c.source))
        else:
            done.append(c.canonical())
    if not errors:
        errors = [OrderError(ILLEGAL, f"the corrections would leave {problem}")
                  for problem in impossible(rules, state) if problem not in before]
    return done, errors


def _apply_one(rules: G40Rules, state: State, c: Correction) -> str | None:
    players = {p.name for p in rules.scenario.players}
    for power in (c.power, c.other):
        if power and power not in players:
            return f"{power} is not a player of this game"
    if c.name == "add":
        added = [state.add_unit(uc.unit, c.power, c.place) for uc in c.units for _ in range(uc.count)]
        cargo = [u for u in added if rules.ut(u).domain == "land"]
        if cargo and rules.is_water(c.place):
            try:
                board(rules, state, c.power, c.place, cargo)
            except RuleViolation as exc:
                return (f"{exc.message}: land units added at sea go aboard {possessive(c.power, the=True)} transports "
                        f"there; add a transport first (`add {c.power} 1 transport {c.place}`)")
    elif c.name == "remove":
        for uc in c.units:
            have = [u for u in state.units_at(c.place, c.power) if u.type == uc.unit
                    and (u.carried_by is None or rules.ut(u).domain == "land")]      # cargo of transports, not of carriers
            if len(have) < uc.count:
                return f"{c.power} have {len(have)} {uc.unit} in {c.place}, not {uc.count}"
            gone = sorted(have, key=lambda u: (u.damage, -u.id))[:uc.count]       # the newest, undamaged first
            state.remove_units(u.id for u in gone + [x for u in gone for x in state.cargo_of(u)])
    elif c.name == "owner":
        if rules.is_water(c.place):
            return f"{c.place} is a sea zone: nobody owns it"
        state.owners[c.place] = c.power
    elif c.name == "pus":
        state.treasury[c.power] = c.amount
    elif c.name == "damage":
        return _damage(rules, state, c)
    elif c.power == c.other:
        return f"{c.name} needs two different powers"
    elif c.name == "war":
        state.relationships[pair_key(c.power, c.other)] = rules.war_type()
    else:
        peace = next((rt.name for rt in rules.scenario.relationship_types if rt.archetype == "neutral"), None)
        if peace is None:
            return "this game has no relationship of the neutral kind to make peace with"
        state.relationships[pair_key(c.power, c.other)] = peace
    return None


def _damage(rules: G40Rules, state: State, c: Correction) -> str | None:
    facilities = [u for u in state.units_at(c.place) if rules.ut(u).has("can_be_damaged")
                  and (not c.facility or u.type == c.facility or (c.facility == "factory" and rules.ut(u).has("factory")))]
    if not facilities:
        return f"{c.place} has no {c.facility or 'facility'} that can be damaged"
    if len(facilities) > 1:
        return f"{c.place} has several facilities: name one ({', '.join(sorted(u.type for u in facilities))})"
    unit = facilities[0]
    if c.amount > rules.max_damage(unit):
        return f"the {unit.type} in {c.place} takes at most {rules.max_damage(unit)} damage"
    unit.damage = c.amount
    return None


def impossible(rules: G40Rules, state: State) -> list[str]:
    """What makes a position one no game can reach: enemies side by side, units where their kind cannot stand
    (aircraft at sea with no place on a friendly carrier among them), enemy land units in a territory, money below
    zero."""
    problems = []
    by_place: dict[str, set[str]] = {}
    for u in state.units:
        by_place.setdefault(u.place, set()).add(u.owner)
        domain = rules.ut(u).domain
        water = rules.is_water(u.place)
        if domain == "sea" and not water:
            problems.append(f"a {u.type} of {u.owner} on land in {u.place}")
        elif domain == "land" and water and u.carried_by is None:
            problems.append(f"a {u.type} of {u.owner} at sea in {u.place} without a transport")
        elif rules.is_air(u) and water and not air.landed(rules, state, u.owner, u):
            problems.append(f"a {u.type} of {u.owner} at sea in {u.place} without a place on a friendly carrier")
    for place, owners in sorted(by_place.items()):
        ordered = sorted(owners)
        for i, a in enumerate(ordered):
            problems += [f"{a} and {b}, at war, both in {place}" for b in ordered[i + 1:] if rules.fights(state, a, b)]
        holder = state.owners.get(place)
        if holder and not rules.is_water(place):
            problems += [f"{possessive(a, the=True)} units in {place}, held by {holder}, their enemy" for a in ordered
                         if rules.fights(state, a, holder)]
    problems += [f"{p} with {n} PUs" for p, n in sorted(state.treasury.items()) if n < 0]
    return sorted(set(problems))
