"""The static description of a game: map, players, unit types, production, rules data and start position.

A scenario is what `new` copies into the database once; afterwards the game never reads its map file again
(DESIGN.md). TripleA imports and our own embedded scenarios produce the same plain objects, and the whole
scenario round-trips through JSON so that it can be stored verbatim and replayed by `audit`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

# The names a phase of a turn may have: the notation's vocabulary, not a turn order. Which phases a power's turn has,
# and in what order, is its map's <sequence> (Scenario.phases_of), played by its rules family's driver; a board game
# orders its own (spin the spinner, then act on the space landed on).
G40_PHASES = ("purchase", "politics", "combat_move", "battle", "noncombat_move", "place", "end_turn")
# The Expanded Global Scenario's Agenda steps other than Purchase and Repair (its "purchase"), in EG-09's order:
# Resolving Surrenders and Armistices, Technology Research and Exchange, Collect and Spend Influence, Make Alliances,
# Declare War. All of them come before the combat move.
AGENDA_PHASES = ("surrenders", "research", "influence", "alliances", "declare_war")
# A&A Pacific's "Land Fighters on Combat Air Patrol", after the purchase (Sgt. Apone's Europe, AP-06).
CAP_PHASE = "land_cap"
PHASES = G40_PHASES + ("spin", "actions") + AGENDA_PHASES + (CAP_PHASE,)
# The phases in which `move` is a combat move: the combat move and every phase a turn may have before it.
BEFORE_COMBAT = ("purchase", "politics", "combat_move") + AGENDA_PHASES + (CAP_PHASE,)

@dataclass
class UnitType:
    """One unit type with the numbers and abilities the rules read.

    `flags` holds ability words in our vocabulary (see FLAG_WORDS); `options` keeps every TripleA
    attachment option verbatim (name -> list of values, `count` folded in as "count:value") so that a game
    hook can read what the engine does not interpret.
    """

    name: str
    domain: str = "land"
    attack: int = 0
    defense: int = 0
    movement: int = 0
    hit_points: int = 1
    cost: int | None = None
    transport_capacity: int = 0
    transport_cost: int = 0
    carrier_capacity: int = 0
    carrier_cost: int = 0
    flags: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)

    def has(self, flag: str) -> bool:
        return flag in self.flags


# Ability words used in UnitType.flags.
FLAG_WORDS = (
    "infantry",          # isInfantry (artillery support target in classic maps)
    "artillery",         # isArtillery (classic support giver)
    "can_blitz",
    "can_bombard",
    "strategic_bomber",
    "sub",
    "destroyer",
    "air_transport",
    "infrastructure",    # cannot be a casualty; captured with its territory
    "factory",           # produces units; capacity in options canProduceXUnits or territory production
    "aa",                # fires at attacking air before a land battle (isAAforCombatOnly / isAA)
    "aa_bombing",        # fires at raiding bombers only (isAAforBombingThisUnitOnly)
    "can_be_damaged",
    "marker",            # invisible bookkeeping unit (city, trackers): never moves, never fights
    "no_combat_move",    # canNotMoveDuringCombatMove
    "air_base",
    "naval_base",
)


@dataclass
class Support:
    """A support attachment: units of `provider` give `bonus` to up to `number` units of `targets` each."""

    name: str
    provider: str
    targets: list[str]
    bonus: int = 1
    number: int = 1
    offence: bool = True
    defence: bool = False
    faction: str = "allied"        # "allied" or "enemy"
    dice: str = "strength"         # "strength" or "roll"
    bonus_type: str = ""
    players: list[str] = field(default_factory=list)   # who gets it; empty = nobody (TripleA: a tech may add players later)


@dataclass
class Territory:
    name: str
    water: bool = False
    production: int = 0
    original_owner: str | None = None
    capital: str | None = None      # the player whose capital this is
    victory_city: int = 0
    convoy_zone: bool = False
    hidden: bool = False            # no connections: unreachable (G40 AU fake capitals, G40 2e Pripet Marshes)
    options: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Player:
    name: str
    optional: bool = False          # TripleA's optional players (neutral owners): take no turns
    alliances: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)   # TripleA PlayerAttachment, verbatim


@dataclass
class RelationshipType:
    name: str
    archetype: str                  # "war", "allied" or "neutral"
    options: dict[str, str] = field(default_factory=dict)


@dataclass
class Attachment:
    """A rules attachment of a player, verbatim: a condition (TripleA RulesAttachment, national objectives among
    them), a political action or a trigger. `options` are [name, value, count] in file order; rules/conditions.py
    and rules/politics.py play them."""

    name: str
    attach_to: str
    kind: str                       # "condition", "political" or "trigger"
    options: list[list[str]] = field(default_factory=list)

    def values(self, option: str) -> list[str]:
        return [v for n, v, _ in self.options if n == option]

    def value(self, option: str, default: str = "") -> str:
        found = self.values(option)
        return found[-1] if found else default

    def names(self, *options: str) -> list[str]:
        """The colon-separated names of these options, in order (conditions, players …)."""
        return [n for option in options for v in self.values(option) for n in v.split(":") if n]


@dataclass
class Canal:
    name: str
    sea_zones: list[str]
    land_territories: list[str]
    excluded_units: list[str] = field(default_factory=list)   # unit types that pass whoever holds the land


@dataclass
class ProductionRule:
    name: str
    cost: int                       # PUs
    results: dict[str, int]         # unit type -> quantity


@dataclass
class Step:
    """One step of the turn sequence, as the map declares it."""

    name: str
    phase: str                      # one of PHASES, or "" for steps we do not play (bids, tech, init)
    player: str | None = None
    delegate: str = ""
    display: str = ""
    no_pu: bool = False             # TripleA's NoPUPurchaseDelegate / NoPUEndTurnDelegate: no PUs spent or collected


@dataclass
class Placement:
    territory: str
    owner: str
    unit_type: str
    quantity: int = 1


@dataclass
class Scenario:
    """Everything a new game copies from its source."""

    name: str
    version: str = ""
    source: str = ""                # where it came from: "embedded:demo" or the map XML's file name
    dice_sides: int = 6
    territories: list[Territory] = field(default_factory=list)
    connections: list[tuple[str, str]] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)             # in turn order
    unit_types: list[UnitType] = field(default_factory=list)
    supports: list[Support] = field(default_factory=list)
    relationship_types: list[RelationshipType] = field(default_factory=list)
    relationships: list[tuple[str, str, str]] = field(default_factory=list)   # (player, player, type name)
    canals: list[Canal] = field(default_factory=list)
    production_rules: list[ProductionRule] = field(default_factory=list)
    frontiers: dict[str, list[str]] = field(default_factory=dict)           # frontier -> rule names
    player_production: dict[str, str] = field(default_factory=dict)         # player -> frontier
    owners: dict[str, str] = field(default_factory=dict)                    # territory -> starting owner
    placements: list[Placement] = field(default_factory=list)
    resources: dict[str, int] = field(default_factory=dict)                 # player -> starting PUs
    # player -> {resource: starting amount} of the map's resources other than PUs (Japan's kamikaze tokens)
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    sequence: list[Step] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    notes: str = ""
    attachments: list[Attachment] = field(default_factory=list)                 # conditions, politics, triggers

    # -- lookups -------------------------------------------------------------------------------------

    def territory(self, name: str) -> Territory:
        return self._index("_territories", self.territories)[name]

    def territories_by_name(self) -> dict[str, Territory]:
        return self._index("_territories", self.territories)

    def unit_type(self, name: str) -> UnitType:
        found = self.__dict__.get("_unit_types")      # _index, inlined: the rules ask some 300,000 times a game
        if found is None or len(found) != len(self.unit_types):
            found = self._index("_unit_types", self.unit_types)
        return found[name]

    def player(self, name: str) -> Player:
        return self._index("_players", self.players)[name]

    def relationship_type(self, name: str) -> RelationshipType:
        return self._index("_relationship_types", self.relationship_types)[name]

    def _index(self, attr: str, items: list) -> dict:
        cached = self.__dict__.get(attr)
        if cached is None or len(cached) != len(items):
            cached = {item.name: item for item in items}
            self.__dict__[attr] = cached
        return cached

    def neighbours(self, name: str) -> set[str]:
        graph = self.__dict__.get("_graph")
        if graph is None:
            graph = {t.name: set() for t in self.territories}
            for a, b in self.connections:
                graph[a].add(b)
                graph[b].add(a)
            self.__dict__["_graph"] = graph
        return graph[name]

    def turn_players(self) -> list[str]:
        """Players who take turns, in turn order (those with at least one played step)."""
        def build() -> list[str]:
            playing = {s.player for s in self.sequence if s.phase and s.player}
            return [p.name for p in self.players if p.name in playing]
        return list(self._of_sequence("players", build))

    def phases_of(self, player: str) -> list[str]:
        """The phases of `player`'s turn in the order of the map's sequence (TripleA's `<sequence>`), as its steps
        declare them (not those played inside another power's turn: see `guests_of`)."""
        def build() -> list[str]:
            seen = [s.phase for s, host in self._played_steps() if s.player == player and host == player]
            return list(dict.fromkeys(seen))
        return list(self._of_sequence(("phases", player), build))

    def guests_of(self, player: str) -> list[tuple[str, str]]:
        """(power, phase) of the steps another power plays inside `player`'s turn: on the G40 maps UK_Pacific
        buys between the British purchase and the British combat move, with the British player's orders."""
        def build() -> list[tuple[str, str]]:
            return [(s.player, s.phase) for s, host in self._played_steps() if host == player and s.player != player]
        return list(self._of_sequence(("guests", player), build))

    def steps_of(self, player: str, phase: str) -> list[Step]:
        """The steps of the sequence in which `player` plays `phase` (the names its triggers fire at)."""
        def build() -> list[Step]:
            return [s for s in self.sequence if s.player == player and s.phase == phase]
        return list(self._of_sequence(("steps", player, phase), build))

    def _of_sequence(self, key, build):
        """build(), kept while the turn sequence and the players keep their lengths (as the lookups by name are):
        the rules ask for the phases of a turn and the powers that move in every phase of every turn."""
        size = (len(self.sequence), len(self.players))
        memo = self.__dict__.get("_sequence_memo")
        if memo is None or memo[0] != size:
            memo = self.__dict__["_sequence_memo"] = (size, {})
        found = memo[1].get(key)
        if found is None:
            found = memo[1][key] = build()
        return found

    def _played_steps(self) -> list[tuple[Step, str]]:
        """Played steps with the power whose turn they belong to: a purchase between two steps of another power's
        turn belongs to that turn (placements stay in the buyer's own turn)."""
        played = [s for s in self.sequence if s.phase and s.player]
        out: list[tuple[Step, str]] = []
        for i, s in enumerate(played):
            before = out[-1][1] if out else None
            after = played[i + 1].player if i + 1 < len(played) else None
            guest = s.phase == "purchase" and before == after and before not in (None, s.player)
            out.append((s, before if guest else s.player))
        return out

    def attachments_of(self, kind: str, player: str | None = None) -> list[Attachment]:
        """Kept per kind and player while the attachments keep their number (as condition() is): the triggers
        and the powers' rules are asked for in every phase."""
        memo = self.__dict__.get("_attachments_of")
        if memo is None or memo[0] != len(self.attachments):
            memo = self.__dict__["_attachments_of"] = (len(self.attachments), {})
        found = memo[1].get((kind, player))
        if found is None:
            found = memo[1][kind, player] = [a for a in self.attachments
                                             if a.kind == kind and (player is None or a.attach_to == player)]
        return list(found)

    def condition(self, name: str) -> Attachment | None:
        """A condition by name: TripleA looks conditions up by name alone, whoever they are attached to."""
        cached = self.__dict__.get("_conditions")
        if cached is None or cached[0] != len(self.attachments):
            cached = (len(self.attachments), {a.name: a for a in reversed(self.attachments) if a.kind == "condition"})
            self.__dict__["_conditions"] = cached
        return cached[1].get(name)

    def frontier_of(self, player: str, frontier: str | None = None) -> list[ProductionRule]:
        """The production rules of `player`'s frontier, or of the named one (a trigger may switch it)."""
        rules = {r.name: r for r in self.production_rules}
        name = frontier or self.player_production.get(player, "")
        return [rules[n] for n in self.frontiers.get(name, []) if n in rules]

    def holders(self, unit: str) -> set[str]:
        """The powers the map gives `unit`: those it is placed for at the start, and those whose production
        frontier buys it (the first, or one a trigger of theirs switches to)."""
        return set(self._holdings().get(unit, ()))

    def _holdings(self) -> dict[str, set[str]]:
        """unit type -> holders(), for every type at once: every command's lexicon asks it of every type for every
        power, and reading the frontiers once per question was half of a quick command's time on a big map."""
        key = (len(self.unit_types), len(self.placements), len(self.attachments), len(self.production_rules))
        memo = self.__dict__.get("_held")
        if memo is None or memo[0] != key:
            frontiers = {p: {f} for p, f in self.player_production.items()}
            for trigger in self.attachments_of("trigger"):
                frontiers.setdefault(trigger.attach_to, set()).update(trigger.values("frontier"))
            found: dict[str, set[str]] = {}
            for p in self.placements:
                found.setdefault(p.unit_type, set()).add(p.owner)
            for power, names in frontiers.items():
                for name in names:
                    for rule in self.frontier_of(power, name):
                        for unit in rule.results:
                            found.setdefault(unit, set()).add(power)
            memo = self.__dict__["_held"] = (key, found)
        return memo[1]

    def variants_of(self, power: str) -> dict[str, list[str]]:
        """common type -> `power`'s own variants of it (Alt-Universe China's `infantryC`): a type named as a common
        type plus a suffix, of its kind (land, sea, air), that the map gives to `power` alone while it gives the
        common type to some other power. Read from the map, so that every power-specific type of every map
        answers to its common name (lexicon.Lexicon.for_power)."""
        memo = self.__dict__.setdefault("_variants", {})
        key = (power, len(self.unit_types), len(self.placements), len(self.attachments))
        if key not in memo:
            holdings = self._holdings()
            held = {u.name: holdings.get(u.name, set()) for u in self.unit_types if not u.has("marker")}
            found: dict[str, list[str]] = {}
            for v in self.unit_types:
                if held.get(v.name) != {power}:
                    continue
                for c in self.unit_types:
                    if (c.name != v.name and v.name.startswith(c.name) and c.domain == v.domain
                            and held.get(c.name, set()) - {power}):
                        found.setdefault(c.name, []).append(v.name)
            memo[key] = found
        return memo[key]

    # -- JSON ----------------------------------------------------------------------------------------

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def to_dict(self) -> dict[str, Any]:
        # a scenario without tokens leaves the field out, so the setup hash of every such game stays as it was
        # nor a step's no_pu when false (every G40 map's): the setup hash of every such game stays as it was
        d = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "tokens" or self.tokens}
        for step in d["sequence"]:
            if not step["no_pu"]:
                del step["no_pu"]
        return d

    @classmethod
    def from_json(cls, text: str) -> "Scenario":
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Scenario":
        return cls(
            name=d["name"],
            version=d.get("version", ""),
            source=d.get("source", ""),
            dice_sides=d.get("dice_sides", 6),
            territories=[Territory(**t) for t in d.get("territories", [])],
            connections=[(a, b) for a, b in d.get("connections", [])],
            players=[Player(**p) for p in d.get("players", [])],
            unit_types=[UnitType(**u) for u in d.get("unit_types", [])],
            supports=[Support(**s) for s in d.get("supports", [])],
            relationship_types=[RelationshipType(**r) for r in d.get("relationship_types", [])],
            relationships=[(a, b, t) for a, b, t in d.get("relationships", [])],
            canals=[Canal(**c) for c in d.get("canals", [])],
            production_rules=[ProductionRule(**r) for r in d.get("production_rules", [])],
            frontiers=dict(d.get("frontiers", {})),
            player_production=dict(d.get("player_production", {})),
            owners=dict(d.get("owners", {})),
            placements=[Placement(**p) for p in d.get("placements", [])],
            resources=dict(d.get("resources", {})),
            tokens={p: dict(t) for p, t in d.get("tokens", {}).items()},
            sequence=[Step(**s) for s in d.get("sequence", [])],
            properties=dict(d.get("properties", {})),
            notes=d.get("notes", ""),
            attachments=[Attachment(**a) for a in d.get("attachments", [])],
        )


def _plain(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
