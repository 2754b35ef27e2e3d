"""The current position of a game as plain objects, the way python-chess keeps a Board.

The rules read and change a `State`; the store loads it from tables and writes it back in one transaction.
Its canonical JSON is what the state hash covers, so every field that decides the outcome of a later turn
must be in `to_dict`, and nothing else (no database ids, no timestamps).
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left, insort
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Iterable

from .scenario import Scenario


class Flags(dict):
    """A unit's per-turn marks ("combat_moved", "fought", "unloaded", "amphibious", …), changed only by giving the
    unit new ones (Unit.mark, Unit.unmark, `unit.flags = {}`): the state keeps each unit's hash text and notices a
    change only when an attribute of the unit is set, so a mark written into the dict in place would be missed."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a unit's flags change through Unit.mark and Unit.unmark, so that its state sees the change")

    __setitem__ = __delitem__ = __ior__ = pop = popitem = clear = update = setdefault = _refuse

    def __reduce__(self):
        return Flags, (dict(self),)


_NO_FLAGS = Flags()
_FIELDS = ("id", "type", "owner", "place", "damage", "moved", "flags", "carried_by")


class Unit:
    """One unit on the board. Setting any of its attributes tells the state that holds it (`_seen`), which keeps
    its units by place and each unit's hash text: a G40 map has some 850 units, a phase changes a few, and the
    state is hashed after every phase."""

    __hash__ = None                     # compared by value, like the dataclass it was

    def __init__(self, id: int, type: str, owner: str, place: str, damage: int = 0, moved: int = 0,
                 flags: dict | None = None, carried_by: int | None = None):
        # damage: hits taken by a multi-hit unit, or bombing damage of a facility; moved: movement points spent
        # this turn; carried_by: the transport this land unit is aboard (it stays aboard across turns); _seen: the
        # set of changed unit ids of the state holding it. Written into __dict__ at once: __setattr__ is for
        # changes, and a copy of a state makes 850 units.
        self.__dict__.update(id=id, type=type, owner=owner, place=place, damage=damage, moved=moved,
                             flags=Flags(flags) if flags else _NO_FLAGS, carried_by=carried_by, _seen=None)

    def clone(self, seen: "Changed | None") -> "Unit":
        """The same unit for another state (its flags are never changed in place, so they are shared)."""
        twin = object.__new__(Unit)
        twin.__dict__.update(self.__dict__, _seen=seen)
        return twin

    def __setattr__(self, name: str, value) -> None:
        if name == "flags" and type(value) is not Flags:
            value = Flags(value) if value else _NO_FLAGS
        attributes = self.__dict__
        seen = attributes["_seen"]
        if seen is not None:
            uid = attributes["id"]
            if seen.before is not None and uid not in seen.before:
                seen.before[uid] = (self, dict(attributes))
            seen.add(uid)
        attributes[name] = value

    def mark(self, **flags) -> None:
        self.flags = {**self.flags, **flags}

    def unmark(self, name: str):
        """Remove the mark `name` and return its value."""
        value = self.flags[name]
        self.flags = {k: v for k, v in self.flags.items() if k != name}
        return value

    def __eq__(self, other) -> bool:
        if other.__class__ is not Unit:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __repr__(self) -> str:
        return f"Unit({', '.join(f'{f}={getattr(self, f)!r}' for f in _FIELDS)})"

    def to_dict(self) -> dict:
        return {"id": self.id, "type": self.type, "owner": self.owner, "place": self.place,
                "damage": self.damage, "moved": self.moved, "flags": dict(sorted(self.flags.items())),
                "carried_by": self.carried_by}


class Changed(set):
    """The ids of a state's units whose attributes were set since the state last looked (State._sync); during a
    trial (State.trial), `before` also keeps each changed unit with its attributes before the first change."""

    __slots__ = ("before",)

    def __init__(self, ids: Iterable[int] = (), before: dict | None = None):
        super().__init__(ids)
        self.before = before

    def __reduce__(self):
        return Changed, (list(self), self.before)


class Units(list):
    """A state's units in id order, added and removed only through the state (add_unit, remove_units, or a new
    list given to `state.units`), which keeps an index of them by place."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("units are added and removed through State.add_unit and State.remove_units (or by giving "
                        "state.units a new list), so that the state's index of them stays true")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self):
        return Units, (list(self),)


@dataclass
class State:
    round: int
    power: str                 # whose turn
    phase: str                 # where the cursor stands in that power's turn
    turn_index: int            # power-turns since the start, 1-based (DESIGN.md dice §2)
    treasury: dict[str, int]
    owners: dict[str, str]     # territory -> current owner (land only)
    original_owners: dict[str, str]
    units: list[Unit]          # in id order (a Units list: see add_unit, remove_units)
    relationships: dict[tuple[str, str], str]   # sorted pair -> relationship type name
    purchases: dict[str, dict[str, int]] = field(default_factory=dict)   # power -> unit type -> bought, not yet placed
    standing: dict[str, dict] = field(default_factory=dict)            # power -> {"ool": [...], "scramble": [...], "submerge": bool}
    conquered: list[str] = field(default_factory=list)                 # territories taken this turn
    battles: list[dict] = field(default_factory=list)                  # battles declared by this turn's combat moves
    next_unit_id: int = 1
    switches: dict[str, bool | str] = field(default_factory=dict)   # condition -> switch, or power:attachment:property
                                                                    # -> value, as a map's trigger set them
    spent: dict[str, int] = field(default_factory=dict)       # objective or trigger -> times it has paid or fired
    relations_at_start: dict[tuple[str, str], str | None] = field(default_factory=dict)  # pair -> its type when
                                        # this turn began, for the pairs a declaration or trigger changed during it
    board: dict = field(default_factory=dict)  # a board game's own position (tokens, pools, decks, prices), for a
                                               # game whose position is not units on territories
    bids: dict[str, int] = field(default_factory=dict)   # power -> PUs of its bid (`new --bid`) not yet spent: the
                                                         # bid turns of round 0, before round 1 (RULINGS.md "bid")

    # -- the units' index and hash texts ----------------------------------------------------------

    def __setattr__(self, name: str, value) -> None:
        if name == "units":
            value = self._adopt(value)
        object.__setattr__(self, name, value)

    def _adopt(self, units: Iterable[Unit]) -> Units:
        """A new list of units: kept in id order, each unit reporting its changes to this state; what was kept
        of the old list is dropped."""
        units = Units(units)
        if any(a.id > b.id for a, b in zip(units, units[1:])):
            units = Units(sorted(units, key=_by_id))
        kept = self.__dict__.get("_changed")
        changed = Changed(before=kept.before if kept is not None else None)     # a trial goes on recording
        for u in units:
            u.__dict__["_seen"] = changed
        keep = object.__setattr__
        keep(self, "_changed", changed)       # ids of units whose attributes were set since the last _sync
        keep(self, "_texts", {})              # unit id -> its canonical JSON
        keep(self, "_chunks", {})             # id >> _RUN -> that run of ids' units' texts, joined and encoded
        keep(self, "_joined", None)           # the units' part of the canonical JSON, encoded, while nothing changed
        keep(self, "_at", None)               # place -> its units in id order, once asked for
        keep(self, "_where", {})              # unit id -> its place in _at
        keep(self, "_by_id", {})              # unit id -> unit, with _at
        keep(self, "_counts", {})             # place -> its units counted by owner and type, with _at, once asked for
        keep(self, "_unsaved", None)          # ids of units changed since unit_changes; None: all may be
        return units

    def _sync(self) -> None:
        """Bring the hash texts and the index up to the units' attributes set since the last call."""
        changed = self._changed
        if not changed:
            return
        object.__setattr__(self, "_joined", None)
        if self._unsaved is not None:
            self._unsaved |= changed
        texts, chunks = self._texts, self._chunks
        for uid in changed:
            texts.pop(uid, None)
            chunks.pop(uid >> _RUN, None)
        at = self._at
        if at is not None:
            where, by_id = self._where, self._by_id
            for uid in changed:
                u = by_id.get(uid)
                if u is None:
                    continue
                if u.place != where[uid]:
                    self._unplace(u, where[uid])
                    self._place(u)
                else:
                    self._counts.pop(u.place, None)         # its owner or type may have changed
        changed.clear()

    def _index(self) -> dict[str, list[Unit]]:
        self._sync()
        if self._at is None:
            at: dict[str, list[Unit]] = {}
            for u in self.units:
                at.setdefault(u.place, []).append(u)
            object.__setattr__(self, "_at", at)
            self._where.update((u.id, u.place) for u in self.units)
            self._by_id.update((u.id, u) for u in self.units)
        return self._at

    def _place(self, u: Unit) -> None:
        insort(self._at.setdefault(u.place, []), u, key=_by_id)
        self._where[u.id] = u.place
        self._counts.pop(u.place, None)

    def _unplace(self, u: Unit, place: str) -> None:
        self._counts.pop(place, None)
        here = self._at[place]
        del here[bisect_left(here, u.id, key=_by_id)]
        if not here:
            del self._at[place]

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def initial(cls, scenario: Scenario) -> "State":
        players = scenario.turn_players()
        if not players:
            raise ValueError("the scenario has no player who takes turns")
        first = players[0]
        units: list[Unit] = []
        for p in scenario.placements:
            for _ in range(p.quantity):
                units.append(Unit(len(units) + 1, p.unit_type, p.owner, p.territory))
        owners = dict(scenario.owners)
        original = {t.name: t.original_owner or owners.get(t.name, "") for t in scenario.territories if not t.water}
        rel = {pair_key(a, b): t for a, b, t in scenario.relationships}
        return cls(
            round=1, power=first, phase=scenario.phases_of(first)[0], turn_index=1,
            treasury={p.name: scenario.resources.get(p.name, 0) for p in scenario.players},
            owners=owners, original_owners={k: v for k, v in original.items() if v},
            units=units, relationships=rel, next_unit_id=len(units) + 1,
        )

    # -- queries ------------------------------------------------------------------------------------

    @property
    def bidding(self) -> bool:
        """Round 0 is the bid: the turns, before round 1, of the powers given PUs with `new --bid`, in which they
        only buy and place (RULINGS.md "bid")."""
        return self.round == 0

    def units_at(self, place: str, owner: str | None = None) -> list[Unit]:
        """The units in `place` (of `owner`), in id order."""
        here = (self._at if self._at is not None and not self._changed else self._index()).get(place)
        if not here:
            return []
        return list(here) if owner is None else [u for u in here if u.owner == owner]

    def unit(self, uid: int) -> Unit | None:
        """The unit with id `uid`, if the state holds it."""
        self._index()
        return self._by_id.get(uid)

    def unit_changes(self) -> set[int] | None:
        """The ids of the units changed, added or removed since the last call, which starts afresh; None when any
        may have been (the state was given a new list of units since). The store writes only these units' rows."""
        self._sync()
        changes = self._unsaved
        object.__setattr__(self, "_unsaved", set())
        return changes

    def counts_by_place(self) -> dict[str, tuple[tuple[str, str, int], ...]]:
        """Place -> (owner, unit type, how many) of its units, both in sorted order: the public position each
        adjudication keeps, counted again only where units came, went or changed since it was last asked for."""
        at = self._index()
        counts = self._counts
        out = {}
        for place in sorted(at):
            here = counts.get(place)
            if here is None:
                tally: dict[tuple[str, str], int] = {}
                for u in at[place]:
                    key = (u.owner, u.type)
                    tally[key] = tally.get(key, 0) + 1
                here = counts[place] = tuple((owner, kind, n) for (owner, kind), n in sorted(tally.items()))
            out[place] = here
        return out

    def by_place(self) -> dict[str, list[Unit]]:
        """Place -> its units, the places in the order of their first unit's id."""
        return {place: list(here) for place, here in sorted(self._index().items(), key=_first_id)}

    def units_by_owner(self, place: str, here: list[Unit] | None = None) -> dict[str, dict[str, int]]:
        """Owner -> unit type -> how many, in `place`: the shape of `status --json`. `here`: the units in `place`,
        when the caller has them (status walks every territory of a map)."""
        owners: dict[str, list[Unit]] = {}
        for u in self.units_at(place) if here is None else here:
            owners.setdefault(u.owner, []).append(u)
        return {owner: count_types(units) for owner, units in owners.items()}

    def cargo_of(self, transport: Unit) -> list[Unit]:
        return [u for u in self.units if u.carried_by == transport.id]

    def relationship(self, a: str, b: str) -> str | None:
        return None if a == b else self.relationships.get(pair_key(a, b))

    def relationship_at_start(self, a: str, b: str) -> str | None:
        """The relationship as it was when this turn began: rules that ask what held "at the start of your
        turn" (G40 Alt-Universe's straits) look through this turn's declarations of war."""
        key = pair_key(a, b)
        return None if a == b else self.relations_at_start.get(key, self.relationships.get(key))

    def set_relationship(self, a: str, b: str, kind: str) -> None:
        """Change a relationship in play, keeping what it was at the start of the turn (relations_at_start)."""
        key = pair_key(a, b)
        self.relations_at_start.setdefault(key, self.relationships.get(key))
        self.relationships[key] = kind

    def add_unit(self, type_: str, owner: str, place: str) -> Unit:
        u = Unit(self.next_unit_id, type_, owner, place)
        self.next_unit_id += 1
        if self.units and self.units[-1].id > u.id:       # next_unit_id set back by hand: keep the id order
            self.units = [*self.units, u]
        else:
            list.append(self.units, u)
            u.__dict__["_seen"] = self._changed
            self._changed.add(u.id)                           # _sync drops the joined texts
            if self._at is not None:
                self._by_id[u.id] = u
                self._place(u)
        return u

    def remove_units(self, ids: Iterable[int]) -> None:
        gone = set(ids)
        if not gone:
            return
        self._sync()
        kept = []
        for u in self.units:
            if u.id not in gone:
                kept.append(u)
                continue
            u.__dict__["_seen"] = None
            if self._by_id.pop(u.id, None) is not None:       # filled with the index, when it is kept
                self._unplace(u, self._where.pop(u.id))
            self._changed.add(u.id)                           # _sync drops its texts
        object.__setattr__(self, "units", Units(kept))

    # -- hashing ------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """What the state hash covers: every field that decides a later turn (canonical_json of it is hashed)."""
        return {**self._head(), "units": [u.to_dict() for u in sorted(self.units, key=_by_id)]}

    def _head(self, names: bool = True) -> dict:
        """Everything but the units; `names`: with the owners and relationships (_head_json writes those). Its
        dicts are copies in the state's order: the canonical JSON sorts every key."""
        return {
            "round": self.round, "power": self.power, "phase": self.phase, "turn_index": self.turn_index,
            "treasury": dict(self.treasury),
            **({"owners": dict(self.owners), "original_owners": dict(self.original_owners),
                "relationships": _pairs(self.relationships)} if names else {}),
            "purchases": {p: dict(b) for p, b in self.purchases.items() if b},
            "standing": {p: s for p, s in self.standing.items() if s},
            "conquered": sorted(self.conquered),
            "battles": self.battles,
            "next_unit_id": self.next_unit_id,
            # only when set, so that the hashes of games without politics or objectives stay what they were
            **({"switches": dict(self.switches)} if self.switches else {}),
            **({"spent": dict(self.spent)} if self.spent else {}),
            **({"relations_at_start": _pairs(self.relations_at_start)} if self.relations_at_start else {}),
            **({"board": self.board} if self.board else {}),
            **({"bids": dict(self.bids)} if self.bids else {}),
        }

    @classmethod
    def from_dict(cls, d: dict) -> "State":
        return cls(
            round=d["round"], power=d["power"], phase=d["phase"], turn_index=d["turn_index"],
            treasury=dict(d["treasury"]), owners=dict(d["owners"]), original_owners=dict(d["original_owners"]),
            units=[Unit(**u) for u in d["units"]],
            relationships={pair_key(a, b): t for a, b, t in d["relationships"]},
            purchases={p: dict(b) for p, b in d.get("purchases", {}).items()},
            standing={p: dict(s) for p, s in d.get("standing", {}).items()},
            conquered=list(d.get("conquered", [])), battles=list(d.get("battles", [])),
            next_unit_id=d["next_unit_id"],
            switches=dict(d.get("switches", {})), spent=dict(d.get("spent", {})),
            relations_at_start={pair_key(a, b): t for a, b, t in d.get("relations_at_start", [])},
            board=d.get("board", {}), bids=dict(d.get("bids", {})),
        )

    def canonical(self) -> str:
        """canonical_json(self.to_dict()): what the state hash covers."""
        return f'{self._head_json()[:-1]},"units":[{self._units_json().decode("utf-8")}]}}'

    def _units_json(self) -> bytes:
        """The units' part of the canonical JSON, encoded, built from each unit's text as last seen, joined a run of
        ids at a time: a step's hash is taken after every phase of every turn, and a G40 map has some 850 units of
        which a phase changes a few."""
        self._sync()
        units = self._joined
        if units is None:
            chunks, texts, every = self._chunks, self._texts, self.units
            parts = []
            for k in range(every[0].id >> _RUN, (every[-1].id >> _RUN) + 1) if every else ():
                part = chunks.get(k)
                if part is None:
                    low = bisect_left(every, k << _RUN, key=_by_id)
                    run = every[low:bisect_left(every, (k + 1) << _RUN, lo=low, key=_by_id)]
                    for u in run:
                        if u.id not in texts:
                            texts[u.id] = canonical_json(u.to_dict())
                    part = chunks[k] = ",".join([texts[u.id] for u in run]).encode("utf-8")
                if part:
                    parts.append(part)
            units = b",".join(parts)
            object.__setattr__(self, "_joined", units)
        return units

    def _head_json(self) -> str:
        """canonical_json(self._head()), with the texts of the territories' owners and of the relationships, its
        bulk, as last written while they are equal to what was written then (they hold names only, so equal
        means the same text): they change a few times a game, and a hash is taken after every phase. The other
        fields are encoded a run of keys at a time, between those texts in key order."""
        head = self._head(names=False)
        names = {}
        for key, pairs in (("owners", False), ("original_owners", False), ("relationships", True)):
            value = getattr(self, key)
            kept = _NAMES.get(key)
            if kept is None or kept[0] != value:
                kept = _NAMES[key] = (dict(value), canonical_json(_pairs(value) if pairs else value))
            names[key] = kept[1]
        parts, run = [], {}
        for key in sorted([*head, *names]):
            if key in names:
                if run:
                    parts.append(canonical_json(run)[1:-1])
                    run = {}
                parts.append(f'"{key}":{names[key]}')
            else:
                run[key] = head[key]
        if run:
            parts.append(canonical_json(run)[1:-1])
        return "{" + ",".join(parts) + "}"

    def hash(self) -> str:
        """SHA-256 of the canonical JSON, fed in its parts rather than joined into one text of 150 KB."""
        digest = hashlib.sha256(self._head_json()[:-1].encode("utf-8"))
        digest.update(b',"units":[')
        digest.update(self._units_json())
        digest.update(b"]}")
        return digest.hexdigest()

    def copy(self) -> "State":
        """A deep copy, equal to State.from_dict(self.to_dict()) (dicts in sorted order, empty purchases and
        standing orders dropped), without going through JSON text for the units."""
        self._sync()
        copied = State.from_dict({**json.loads(self._head_json()), "units": []})
        seen = copied._changed
        object.__setattr__(copied, "units", Units([u.clone(seen) for u in self.units]))
        copied._texts.update(self._texts)
        copied._chunks.update(self._chunks)
        object.__setattr__(copied, "_joined", self._joined)
        return copied


    @contextmanager
    def trial(self) -> Iterator["State"]:
        """This state to try orders on, put back as it was when the block ends (a check plays a whole turn's orders
        without dice to find their errors). A copy of 850 units cost more than the check; the trial keeps what it
        needs to undo instead: the units it changes as they were, and copies of the rest, which is small."""
        if self._changed.before is not None:
            raise RuntimeError("a trial of a state inside another would undo only the inner one's changes")
        self._index()
        fresh = State.from_dict({**json.loads(self._head_json()), "units": []})    # the head, deep-copied
        head = {name: getattr(self, name) for name in _HEAD}
        units, count, changed = self.units, len(self.units), self._changed
        kept = {"units": units, "_changed": changed, "_texts": dict(self._texts), "_chunks": dict(self._chunks),
                "_joined": self._joined, "_at": {place: list(here) for place, here in self._at.items()},
                "_where": dict(self._where), "_by_id": dict(self._by_id), "_counts": dict(self._counts)}
        for name in _HEAD:
            object.__setattr__(self, name, getattr(fresh, name))
        changed.before = {}
        try:
            yield self
        finally:
            before, changed.before = changed.before, None
            for unit, attributes in before.values():
                unit.__dict__.clear()
                unit.__dict__.update(attributes)
            list.__delitem__(units, slice(count, None))          # units the trial added
            if self.units is not units or self._changed is not changed:
                for u in units:                                  # units the trial removed, or a list it gave
                    u.__dict__["_seen"] = changed
            changed.clear()
            for name, value in {**kept, **head}.items():
                object.__setattr__(self, name, value)


_RUN = 6                  # the units' texts are joined in runs of 2**6 ids (State._units_json)
_HEAD = tuple(f.name for f in fields(State) if f.name != "units")
_by_id = attrgetter("id")


def _first_id(item: tuple[str, list[Unit]]) -> int:
    return item[1][0].id


def _pairs(relations: dict[tuple[str, str], str | None]) -> list[list]:
    return [[a, b, t] for (a, b), t in sorted(relations.items())]


_NAMES: dict[str, tuple[dict, str]] = {}   # owners, original_owners, relationships -> (a copy, its canonical JSON)


def count_types(units: Iterable[Unit]) -> dict[str, int]:
    """Unit type -> how many, sorted by type: the form reports and events use."""
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return dict(sorted(out.items()))


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value) -> str:
    return _ENCODER.encode(value)
