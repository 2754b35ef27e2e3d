"""The current position of a game as plain objects, the way python-chess keeps a Board.

The rules read and change a `State`; the store loads it from tables and writes it back in one transaction.
Its canonical JSON is what the state hash covers, so every field that decides the outcome of a later turn
must be in `to_dict`, and nothing else (no database ids, no timestamps).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Iterable

from .scenario import Scenario


@dataclass
class Unit:
    id: int
    type: str
    owner: str
    place: str
    damage: int = 0            # hits taken by a multi-hit unit, or bombing damage of a facility
    moved: int = 0             # movement points spent this turn
    flags: dict = field(default_factory=dict)   # per-turn marks: "combat_moved", "fought", "unloaded", "amphibious"
    carried_by: int | None = None               # the transport this land unit is aboard (it stays aboard across turns)

    def to_dict(self) -> dict:
        return {"id": self.id, "type": self.type, "owner": self.owner, "place": self.place,
                "damage": self.damage, "moved": self.moved, "flags": dict(sorted(self.flags.items())),
                "carried_by": self.carried_by}


@dataclass
class State:
    round: int
    power: str                 # whose turn
    phase: str                 # where the cursor stands in that power's turn
    turn_index: int            # power-turns since the start, 1-based (DESIGN.md dice §2)
    treasury: dict[str, int]
    owners: dict[str, str]     # territory -> current owner (land only)
    original_owners: dict[str, str]
    units: list[Unit]
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

    def units_at(self, place: str, owner: str | None = None) -> list[Unit]:
        return [u for u in self.units if u.place == place and (owner is None or u.owner == owner)]

    def by_place(self) -> dict[str, list[Unit]]:
        """Place -> its units, in one pass (units_at is a pass per place)."""
        out: dict[str, list[Unit]] = {}
        for u in self.units:
            out.setdefault(u.place, []).append(u)
        return out

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
        self.units.append(u)
        return u

    def remove_units(self, ids: Iterable[int]) -> None:
        gone = set(ids)
        self.units = [u for u in self.units if u.id not in gone]

    # -- hashing ------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """What the state hash covers: every field that decides a later turn, in canonical form."""
        return {**self._head(), "units": [u.to_dict() for u in sorted(self.units, key=_by_id)]}

    def _head(self, names: bool = True) -> dict:
        """Everything but the units; `names`: with the owners and relationships (_head_json writes those)."""
        return {
            "round": self.round, "power": self.power, "phase": self.phase, "turn_index": self.turn_index,
            "treasury": dict(sorted(self.treasury.items())),
            **({"owners": dict(sorted(self.owners.items())),
                "original_owners": dict(sorted(self.original_owners.items())),
                "relationships": _pairs(self.relationships)} if names else {}),
            "purchases": {p: dict(sorted(b.items())) for p, b in sorted(self.purchases.items()) if b},
            "standing": {p: s for p, s in sorted(self.standing.items()) if s},
            "conquered": sorted(self.conquered),
            "battles": self.battles,
            "next_unit_id": self.next_unit_id,
            # only when set, so that the hashes of games without politics or objectives stay what they were
            **({"switches": dict(sorted(self.switches.items()))} if self.switches else {}),
            **({"spent": dict(sorted(self.spent.items()))} if self.spent else {}),
            **({"relations_at_start": _pairs(self.relations_at_start)} if self.relations_at_start else {}),
            **({"board": self.board} if self.board else {}),
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
            board=d.get("board", {}),
        )

    def canonical(self) -> str:
        """canonical_json(self.to_dict()), built from each unit's text as last seen: a step's hash is taken after
        every phase of every turn, and a G40 map has some 800 units of which a phase changes a few."""
        units = ",".join([_unit_json(u) for u in sorted(self.units, key=_by_id)])
        return f'{self._head_json()[:-1]},"units":[{units}]}}'

    def _head_json(self) -> str:
        """canonical_json(self._head()), with the texts of the territories' owners and of the relationships, its
        bulk, as last written while they are equal to what was written then (they hold names only, so equal
        means the same text): they change a few times a game, and a hash is taken after every phase."""
        fields = {key: canonical_json(value) for key, value in self._head(names=False).items()}
        for key, pairs in (("owners", False), ("original_owners", False), ("relationships", True)):
            value = getattr(self, key)
            kept = _NAMES.get(key)
            if kept is None or kept[0] != value:
                kept = _NAMES[key] = (dict(value), canonical_json(_pairs(value) if pairs else value))
            fields[key] = kept[1]
        return "{" + ",".join(f'"{key}":{text}' for key, text in sorted(fields.items())) + "}"

    def hash(self) -> str:
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()

    def copy(self) -> "State":
        """A deep copy, equal to State.from_dict(self.to_dict()) (dicts in sorted order, empty purchases and
        standing orders dropped), without going through JSON text for the units."""
        copied = State.from_dict({**json.loads(self._head_json()), "units": []})
        copied.units = [Unit(u.id, u.type, u.owner, u.place, u.damage, u.moved,
                             dict(sorted(u.flags.items())) if u.flags else {}, u.carried_by)
                        for u in sorted(self.units, key=_by_id)]
        return copied


_by_id = attrgetter("id")


def _pairs(relations: dict[tuple[str, str], str | None]) -> list[list]:
    return [[a, b, t] for (a, b), t in sorted(relations.items())]


_NAMES: dict[str, tuple[dict, str]] = {}   # owners, original_owners, relationships -> (a copy, its canonical JSON)


_FRAGMENTS: dict[tuple, str] = {}      # a unit's fields -> its canonical JSON
_KEPT_FRAGMENTS = 100_000


def _unit_json(u: Unit) -> str:
    """canonical_json(u.to_dict()), looked up by the unit's fields (with the types of its flags' values, so that
    True and 1 are told apart)."""
    flags = tuple((k, v, type(v)) for k, v in sorted(u.flags.items())) if u.flags else ()
    key = (u.id, u.type, u.owner, u.place, u.damage, u.moved, u.carried_by, flags)
    try:
        return _FRAGMENTS[key]
    except KeyError:
        pass
    except TypeError:                  # a flag whose value is not hashable: not cached
        return canonical_json(u.to_dict())
    if len(_FRAGMENTS) >= _KEPT_FRAGMENTS:
        _FRAGMENTS.clear()
    text = _FRAGMENTS[key] = canonical_json(u.to_dict())
    return text


def count_types(units: Iterable[Unit]) -> dict[str, int]:
    """Unit type -> how many, sorted by type: the form reports and events use."""
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return dict(sorted(out.items()))


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
