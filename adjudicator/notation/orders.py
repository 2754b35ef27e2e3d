"""Orders as plain objects: what the notation parser produces and the rules consume.

Names inside an order are already resolved to the game's own names (unit type names, territory names,
player names). Every order remembers its line and column so that a rules error can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class UnitCount:
    count: int
    unit: str                       # the game's unit type name


@dataclass
class Order:
    line: int = 0                   # 1-based line in the submission text
    column: int = 1                 # 1-based column where the order starts
    source: str = ""                # the cleaned line, for error carets
    phase: str = ""                 # one of scenario.PHASES; "" for standing orders and `end`

    verb = ""

    def canonical(self) -> str:     # overridden: how the adjudicator understood the order
        return self.verb


def units_text(units: tuple[UnitCount, ...]) -> str:
    return ", ".join(f"{u.count} {u.unit}" for u in units)


def path_text(path: tuple[str, ...]) -> str:
    return " > ".join(path)


@dataclass
class Buy(Order):
    units: tuple[UnitCount, ...] = ()
    power: str = ""                 # who pays, when not the mover (UK_Pacific buying in the British turn)
    verb = "buy"

    def canonical(self) -> str:
        return f"buy {self.power + ' ' if self.power else ''}{units_text(self.units)}"


@dataclass
class Repair(Order):
    count: int = 0
    place: str = ""
    facility: str | None = None
    verb = "repair"

    def canonical(self) -> str:
        return f"repair {self.count} {self.place}" + (f" {self.facility}" if self.facility else "")


@dataclass
class War(Order):
    power: str = ""
    verb = "war"

    def canonical(self) -> str:
        return f"war {self.power}"


@dataclass
class Move(Order):
    """`cm`, `ncm` or `move` (read as one of the two by the running phase)."""

    units: tuple[UnitCount, ...] = ()
    path: tuple[str, ...] = ()
    verb = "move"

    def canonical(self) -> str:
        v = "cm" if self.phase == "combat_move" else "ncm"
        return f"{v} {units_text(self.units)} {path_text(self.path)}"


@dataclass
class Bomb(Order):
    units: tuple[UnitCount, ...] = ()
    path: tuple[str, ...] = ()
    facility: str | None = None
    verb = "bomb"

    def canonical(self) -> str:
        return f"bomb {units_text(self.units)} {path_text(self.path)}" + (f" {self.facility}" if self.facility else "")


@dataclass
class Bombard(Order):
    """`bombard UNITS SEAZONE > TERRITORY`: these ships of the mover in SEAZONE bombard the amphibious assault on
    TERRITORY; `bombard none SEAZONE > TERRITORY` (units empty): no ship there bombards it (BG-12)."""

    units: tuple[UnitCount, ...] = ()
    sea_zone: str = ""
    target: str = ""
    verb = "bombard"

    def canonical(self) -> str:
        return f"bombard {units_text(self.units) or 'none'} {self.sea_zone} > {self.target}"


@dataclass
class Retreat(Order):
    place: str = ""
    to: str = ""
    after_round: int | None = None
    if_attackers_below: int | None = None
    verb = "retreat"

    def canonical(self) -> str:
        return f"retreat {self.place} > {self.to}" + _conditions_text(self)


def _conditions_text(order: Retreat | Submerge) -> str:
    """The `after round N` and `if attackers < N` clauses of a battle order, as written."""
    s = ""
    if order.after_round is not None:
        s += f" after round {order.after_round}"
    if order.if_attackers_below is not None:
        s += f" if attackers < {order.if_attackers_below}"
    return s


@dataclass
class OrderOfLoss(Order):
    """`ool PLACE: ...` for one battle, or a standing `ool ...` when place is None."""

    place: str | None = None
    units: tuple[str, ...] = ()     # unit type names, first listed dies first
    verb = "ool"

    def canonical(self) -> str:
        return "ool " + (f"{self.place}: " if self.place else "") + ", ".join(self.units)


@dataclass
class Place(Order):
    units: tuple[UnitCount, ...] = ()
    place: str = ""
    verb = "place"

    def canonical(self) -> str:
        return f"place {units_text(self.units)} {self.place}"


@dataclass
class Scramble(Order):
    place: str = ""
    sea_zone: str = ""
    max: int | None = None
    verb = "scramble"

    def canonical(self) -> str:
        return f"scramble {self.place} > {self.sea_zone}" + (f" max {self.max}" if self.max is not None else "")


@dataclass
class Submerge(Order):
    """`submerge always|never`: a standing order for this power's defending submarines; `submerge PLACE [after
    round N] [if attackers < N]`: a battle order of the combat move for the mover's attacking submarines there."""

    always: bool = True
    place: str | None = None
    after_round: int | None = None
    if_attackers_below: int | None = None
    verb = "submerge"

    def canonical(self) -> str:
        if self.place is None:
            return "submerge " + ("always" if self.always else "never")
        return f"submerge {self.place}" + _conditions_text(self)


@dataclass
class Intercept(Order):
    """Whether this power's fighters rise against bombing raids on their territory (BG-27); default always."""

    always: bool = True
    verb = "intercept"

    def canonical(self) -> str:
        return "intercept " + ("always" if self.always else "never")


@dataclass
class Kamikaze(Order):
    """Standing: when the mover fights in kamikaze zone `zone` or lands troops from it, strike with up to `max`
    tokens (without it, as many as may strike), one per ship, at the mover's surface warships of the `targets`
    types first; `kamikaze none` withdraws every such order (RULINGS.md "kamikaze")."""

    zone: str = ""
    max: int | None = None
    targets: tuple[str, ...] = ()
    none: bool = False
    verb = "kamikaze"

    def canonical(self) -> str:
        if self.none:
            return "kamikaze none"
        return (f"kamikaze {self.zone}" + (f" max {self.max}" if self.max is not None else "")
                + (": " + ", ".join(self.targets) if self.targets else ""))


@dataclass
class Salt(Order):
    """Strict-mode dice salt from an opponent (DESIGN.md, audited dice §7)."""

    text: str = ""
    verb = "salt"

    def canonical(self) -> str:
        return f"salt {self.text}"


@dataclass
class End(Order):
    verb = "end"


@dataclass
class GameVerb(Order):
    """An order of a verb a game registered (e.g. Allies vs. Axis `spin`): its arguments as the game parsed them."""

    name: str = ""
    args: dict = field(default_factory=dict)

    def canonical(self) -> str:
        return self.name + "".join(f" {units_text(v) if _is_units(v) else v}" for v in self.args.values())


def _is_units(value) -> bool:
    """A game verb's argument that is a list of units (`egypt 2 inf`), written back as an order writes units."""
    return isinstance(value, (tuple, list)) and bool(value) and all(isinstance(v, UnitCount) for v in value)


STANDING = (OrderOfLoss, Scramble, Submerge, Intercept, Kamikaze)


@dataclass
class Submission:
    """A parsed submission: optional header values and the orders in text order."""

    text: str
    orders: list[Order] = field(default_factory=list)
    game: str | None = None
    power: str | None = None
    round: int | None = None
    ended: bool = False             # an `end` order closed it: it covers the rest of the turn
