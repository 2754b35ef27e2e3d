"""What each stored row of a game's state must hold, checked as it is read: one place per table.

A database edited by hand or damaged on disk must be refused with the row that is wrong named, not fail deep in
the rules with a KeyError. A state's rows are checked twice: for their own shapes (types and ranges) when they are
read (db.load_state: `rows`, `extra`), and for their names against the game's map and rules when they meet them
(game.open_game: `names`). The journal's rows that commands print are checked as they are read (`snapshot`,
`dice`), and so are what delivery reads (`deliveries`, `contacts`); binary data in any column, by db.rows. Every failure is a `Damaged`, whose message says which row holds
what.
"""

from __future__ import annotations

from ..errors import StoreError
from ..scenario import Scenario
from ..state import State

# The largest treasury stored: no edit sets more (the notation's numbers have at most nine digits), income adds a
# few hundred a turn, and the sums stay exact in JSON (2**53) and in PostgreSQL's integer column (2**31).
MAX_TREASURY = 10**9
# The largest number a PostgreSQL integer column holds: unit ids, carriers, damage, moves and journal numbers stay
# below it (a SQLite column holds up to 2**63, and the state hash walks the unit ids in runs: 2**63 would not end).
LARGEST = 2**31 - 1


def message(reason: str) -> str:
    return (f"the game database is damaged ({reason}); nothing was changed. Restore it from a copy "
            "(or from the posted reports and `audit`)")


class Damaged(StoreError):
    """A stored row that holds what no adjudicator writes; `reason` names it."""

    def __init__(self, reason: str):
        super().__init__(message(reason))


def whole(*values) -> bool:
    return all(type(v) is int for v in values)


def rows(units: list, powers: list, owners: list, relationships: list) -> None:
    """The rows of the tables unit, power, territoryowner and relationship of one game."""
    for uid, kind, owner, place, damage, moved, flags, carrier in units:
        if not all(isinstance(v, str) for v in (kind, owner, place)) or not whole(uid, damage, moved) or \
                carrier is not None and not (whole(carrier) and 0 < carrier <= LARGEST) or \
                not (0 < uid <= LARGEST and 0 <= damage <= LARGEST and 0 <= moved <= LARGEST):
            raise Damaged(f"unit {uid!r} must have a type, owner and place, whole damage and moves from 0 and a "
                          f"carrier id or none, not {kind!r}, {owner!r}, {place!r}, {damage!r}, {moved!r}, "
                          f"{carrier!r} (ids, damage and moves up to {LARGEST:,})")
        if not isinstance(flags, str):
            raise Damaged(f"the flags of unit {uid} must be JSON text, not {flags!r}")
    for name, amount in powers:
        if not isinstance(name, str) or not whole(amount):
            raise Damaged(f"the treasury of {name} must be a whole number of PUs, not {amount!r}")
        if not 0 <= amount <= MAX_TREASURY:
            raise Damaged(f"the treasury of {name} is {amount:,} PUs, beyond 0 to {MAX_TREASURY:,}")
    for territory, owner, original in owners:
        if not isinstance(territory, str) or not isinstance(owner, str) or original is not None and \
                not isinstance(original, str):
            raise Damaged(f"the owner of territory {territory!r} must be a power's name, not {owner!r} "
                          f"(originally {original!r})")
    for a, b, kind in relationships:
        if not all(isinstance(v, str) for v in (a, b, kind)):
            raise Damaged(f"the relationship of {a!r} and {b!r} must be a type's name, not {kind!r}")


def _expect(ok: bool, field: str, value: object, shape: str) -> None:
    if not ok:
        raise Damaged(f"the state's {field} must be {shape}, not {str(value)[:60]}")


def _map_of(value, keys=str, values=None) -> bool:
    return isinstance(value, dict) and all(isinstance(k, keys) and (values is None or values(v))
                                           for k, v in value.items())


def _list_of(value, item) -> bool:
    return isinstance(value, list) and all(item(v) for v in value)


def extra(fields: dict) -> None:
    """The state's fields kept as JSON in the game row (`extra`), each of its shape (State documents them)."""
    _expect(isinstance(fields, dict), "extra data", fields, "a JSON object")
    get = fields.get
    _expect(_map_of(get("purchases", {}), values=lambda v: _map_of(v, values=lambda n: whole(n) and n >= 0)),
            "purchases", get("purchases"), "powers' unit types and counts")
    _expect(_map_of(get("standing", {}), values=lambda v: _map_of(v, values=lambda o: isinstance(o, (list, bool)))),
            "standing orders", get("standing"), "each power's orders by kind, as lists or yes/no")
    _expect(_list_of(get("conquered", []), lambda t: isinstance(t, str)), "conquered", get("conquered"),
            "a list of territories")
    _expect(_list_of(get("battles", []), lambda b: isinstance(b, dict) and isinstance(b.get("place"), str)),
            "battles", get("battles"), "a list of battles, each with its place")
    nxt = get("next_unit_id", 1)
    _expect(whole(nxt) and 1 <= nxt <= LARGEST, "next_unit_id", nxt, f"a whole number from 1 to {LARGEST:,}")
    _expect(_map_of(get("switches", {}), values=lambda v: isinstance(v, (bool, str))), "switches", get("switches"),
            "names set to yes/no or a value")
    _expect(_map_of(get("spent", {}), values=lambda n: whole(n) and n >= 0), "spent", get("spent"),
            "names with whole counts")
    _expect(_list_of(get("relations_at_start", []), lambda r: isinstance(r, list) and len(r) == 3 and
                     isinstance(r[0], str) and isinstance(r[1], str) and (r[2] is None or isinstance(r[2], str))),
            "relations_at_start", get("relations_at_start"), "a list of [power, power, type]")
    _expect(isinstance(get("board", {}), dict), "board", get("board"), "a JSON object")


def names(state: State, scenario: Scenario) -> None:
    """Every name the state holds is one the game's map knows: its powers, places, unit types and relationship
    types, whose turn it is and the phase (the rules look each of them up)."""
    players = {p.name for p in scenario.players}
    places = scenario.territories_by_name()
    types = {t.name for t in scenario.unit_types}
    movers = scenario.turn_players()
    if state.power not in movers:
        raise Damaged(f"the turn is of {state.power!r}, who is no power taking turns in this game")
    phases = scenario.phases_of(state.power)
    if state.phase not in phases:
        raise Damaged(f"the phase {state.phase!r} is no phase of {state.power}'s turn ({', '.join(phases)})")
    ids = {u.id for u in state.units}
    for u in state.units:
        if u.type not in types or u.place not in places or u.owner not in players or \
                u.carried_by is not None and u.carried_by not in ids:
            raise Damaged(f"unit {u.id} is a {u.type!r} of {u.owner!r} in {u.place!r}"
                          + (f" aboard unit {u.carried_by}" if u.carried_by is not None else "")
                          + ": a unit type, power, place or carrier this game does not have")
    if ids and state.next_unit_id <= max(ids):
        raise Damaged(f"the next unit id {state.next_unit_id} is one a unit has already")
    for t, owner in (*state.owners.items(), *state.original_owners.items()):
        if t not in places or owner not in players:
            raise Damaged(f"territory {t!r} is owned by {owner!r}: a territory or power this game does not have")
    for name in (*state.treasury, *state.purchases, *state.standing, *state.bids):
        if name not in players:
            raise Damaged(f"{name!r} has a treasury, purchases, standing orders or a bid, but is no power of this game")
    kinds = {r.name for r in scenario.relationship_types}
    for (a, b), kind in state.relationships.items():
        if a not in players or b not in players or kinds and kind not in kinds:
            raise Damaged(f"{a!r} and {b!r} are at {kind!r}: a power or relationship type this game does not have")
    for bought in state.purchases.values():
        unknown = sorted(set(bought) - types)
        if unknown:
            raise Damaged(f"purchases name unit types this game does not have: {', '.join(unknown)}")
    for place in (*state.conquered, *(b["place"] for b in state.battles)):
        if place not in places:
            raise Damaged(f"a battle or conquest is in {place!r}, a place this game does not have")


def snapshot(turn_index: int, data) -> None:
    """A position kept after a turn (db.position, with what the rules made of it): what reports and pictures of
    that turn read."""
    def unit(u) -> bool:
        return isinstance(u, list) and len(u) == 4 and all(isinstance(v, str) for v in u[:3]) and whole(u[3])
    ok = (isinstance(data, dict) and whole(data.get("round"), data.get("turn_index"))
          and isinstance(data.get("power"), str) and isinstance(data.get("phase"), str)
          and _map_of(data.get("treasury"), values=whole)
          and _map_of(data.get("owners"), values=lambda o: isinstance(o, str))
          and _list_of(data.get("units"), unit) and _list_of(data.get("damaged", []), unit)
          and _map_of(data.get("income", {})) and isinstance(data.get("victory", {}), dict))
    if not ok:
        raise Damaged(f"the position kept after turn {turn_index} is not one the adjudicator writes: {str(data)[:60]}")


def dice(label: str, values, units) -> None:
    """A dice group's rolls and the units they were rolled for, as `rolls` prints them."""
    if not _list_of(values, whole) or not isinstance(units, (list, dict)):
        raise Damaged(f"the dice of {str(label)[:60]!r} are {str(values)[:40]}, not a list of whole numbers")


def deliveries(records) -> None:
    """The delivery records of a report (delivery.deliver: a part posted, an address mailed, or the intent to):
    a part from 1 to the number of parts, a topic or an address, and a post id or Message-ID as text ("" for an
    intent). A record `post` or `mail` cannot read would send the part again, or print bytes as a post id."""
    for d in records:
        numbers = (d.turn_index, d.step, d.part, d.parts)
        if not whole(*numbers) or not 1 <= d.part <= d.parts <= LARGEST or \
                not all(isinstance(v, str) for v in (d.channel, d.target, d.ref)):
            raise Damaged(f"a delivery record of turn {str(d.turn_index)[:20]} must be a part from 1 to its count "
                          f"with text for its target and post id or Message-ID, not part {str(d.part)[:20]} of "
                          f"{str(d.parts)[:20]} to {str(d.target)[:40]!r}, sent as {str(d.ref)[:40]!r}")


def contacts(powers) -> None:
    """The players' contacts (`new --player POWER=CONTACT`): text, a mail address or a forum name, or ""."""
    for p in powers:
        if not isinstance(p.contact, str):
            raise Damaged(f"the contact of {str(p.name)[:40]} must be text (a mail address or a forum name), "
                          f"not {str(p.contact)[:40]!r}")
