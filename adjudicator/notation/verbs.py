"""The verb table: every order word with its phase, its grammar and the order it makes.

This is the notation's one grammar, written down in one place: `VerbRegistry.g40()` is the normative table
of NOTATION.md, and a game adds its own verbs to a copy of it (`spin`, `card NAME [TARGET]` …) without
touching the parser. A verb's `parse` reads the arguments with the `Reader` blocks and returns the order's
fields as a dict; the registry makes the order object, so a verb's grammar is a few lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.notation.orders import (
    Bomb, Bombard, Buy, End, GameVerb, Intercept, Kamikaze, Move, Order, OrderOfLoss, Place, Repair, Retreat, Salt,
    Scramble, Submerge, War,
)
from adjudicator.notation.parser import ARROW, LESS, ParseFailure, Reader
from adjudicator.scenario import BEFORE_COMBAT, PHASES

Parse = Callable[[Reader], dict[str, Any]]


@dataclass(frozen=True)
class Verb:
    name: str
    phase: str | None       # a phase of PHASES; "" = any time (standing orders); None = `parse` returns "phase"
    order: type[Order]
    usage: str              # how the order is written, for players: "buy UNITS"
    parse: Parse

    def build(self, fields: dict[str, Any]) -> Order:
        fields = dict(fields)
        phase = fields.pop("phase") if self.phase is None else self.phase
        if self.order is GameVerb:
            return GameVerb(phase=phase, name=self.name, args=fields)
        return self.order(phase=phase, **fields)


class VerbRegistry:
    """Verb words (case-insensitive) to verbs. A word once taken cannot be redefined: games add, never change."""

    def __init__(self) -> None:
        self._words: dict[str, Verb] = {}
        # The ledger row a game's phase order answers to (the Expanded Global's EG-09): an order of a phase already
        # over is refused under it; "" for the games whose turn order no row of theirs states.
        self.order_rule = ""

    def register(self, name: str, *, phase: str | None, parse: Parse, usage: str = "",
                 order: type[Order] = GameVerb, aliases: tuple[str, ...] = ()) -> Verb:
        if phase not in (None, "", *PHASES):
            raise ValueError(f"verb {name!r}: unknown phase {phase!r}")
        verb = Verb(name.casefold(), phase, order, usage or name, parse)
        for word in (name, *aliases):
            self._bind(word, verb)
        return verb

    def alias(self, word: str, name: str) -> None:
        """Another word for the verb `name`."""
        self._bind(word, self._words[name.casefold()])

    def _bind(self, word: str, verb: Verb) -> None:
        k = word.casefold()
        if k in self._words:
            raise ValueError(f"the verb {word!r} is taken")
        self._words[k] = verb

    def get(self, word: str) -> Verb | None:
        return self._words.get(word.casefold())

    def words(self) -> list[str]:
        return list(self._words)

    def verbs(self) -> list[Verb]:
        return list({id(v): v for v in self._words.values()}.values())

    def copy(self) -> VerbRegistry:
        new = VerbRegistry()
        new._words = dict(self._words)
        new.order_rule = self.order_rule
        return new

    @classmethod
    def core(cls) -> VerbRegistry:
        """The orders every game has, whatever its own verbs: `salt` (strict dice) and `end`."""
        reg = cls()
        reg.register("salt", phase="", order=Salt, usage="salt TEXT", parse=_salt)
        reg.register("end", phase="", order=End, usage="end", parse=lambda _: {})
        return reg

    @classmethod
    def g40(cls) -> VerbRegistry:
        """The orders of the G40 family (NOTATION.md), a fresh registry a game may add to."""
        reg = cls.core()
        reg.register("buy", phase="purchase", order=Buy, usage="buy [POWER] UNITS", parse=_buy, aliases=("purchase",))
        reg.register("repair", phase="purchase", order=Repair, usage="repair N PLACE [FACILITY]", parse=_repair)
        reg.register("war", phase="politics", order=War, usage="war POWER", parse=_war)
        reg.register("declare", phase="politics", order=War, usage="declare war [on] POWER", parse=_declare)
        reg.register("cm", phase="combat_move", order=Move, usage="cm UNITS PATH", parse=_path)
        reg.register("move", phase=None, order=Move, usage="move UNITS PATH", parse=_move)
        reg.register("bomb", phase="combat_move", order=Bomb, usage="bomb UNITS PATH [FACILITY]", parse=_bomb)
        reg.register("bombard", phase="combat_move", order=Bombard,
                     usage="bombard UNITS|none SEAZONE > TERRITORY", parse=_bombard)
        reg.register("retreat", phase="combat_move", order=Retreat,
                     usage="retreat PLACE > TO [after round N] [if attackers < N]", parse=_retreat)
        reg.register("ool", phase=None, order=OrderOfLoss, usage="ool [PLACE:] UNIT, UNIT, …", parse=_ool)
        reg.register("ncm", phase="noncombat_move", order=Move, usage="ncm UNITS PATH", parse=_path)
        reg.register("place", phase="place", order=Place, usage="place UNITS PLACE", parse=_place,
                     aliases=("mobilize", "mobilise"))
        reg.register("scramble", phase="", order=Scramble, usage="scramble PLACE > SEAZONE [max N]", parse=_scramble)
        reg.register("submerge", phase=None, order=Submerge,
                     usage="submerge always|never or submerge PLACE [after round N] [if attackers < N]", parse=_submerge)
        reg.register("intercept", phase="", order=Intercept, usage="intercept always|never", parse=_always_or_never)
        reg.register("kamikaze", phase="", order=Kamikaze, parse=_kamikaze,
                     usage="kamikaze SEAZONE [max N] [: UNIT, UNIT, …] | kamikaze none")
        return reg


# -- the G40 grammar ----------------------------------------------------------------------------------

def _buy(r: Reader) -> dict[str, Any]:
    power = r.leading_power()
    if power:                           # the units are the payer's (UK_Pacific): read its names for them
        r.lexicon = r.lexicon.for_power(power)
    return {"units": r.units(), **({"power": power} if power else {})}


def _repair(r: Reader) -> dict[str, Any]:
    """`repair N PLACE [FACILITY]`: N damage points of a facility (BG-29), or N damaged units of that type in a sea
    zone where a game repairs ships by order (the Expanded Global's EG-30). `repair 1 bb 110 Sea Zone` (UNITS
    PLACE, one type) reads as `repair 1 110 Sea Zone battleship`."""
    start = r.pos
    try:
        units, place = r.units_at()
    except ParseFailure:
        units = ()
    if len(units) == 1:
        return {"count": units[0].count, "place": place, "facility": units[0].unit}
    r.pos = start
    count = r.count("the number of damage points to repair")
    place, facility = r.place_and_facility()
    return {"count": count, "place": place, "facility": facility}


def _war(r: Reader) -> dict[str, Any]:
    r.accept("on")
    return {"power": r.power()}


def _declare(r: Reader) -> dict[str, Any]:
    r.keyword("war")
    return _war(r)


def _path(r: Reader) -> dict[str, Any]:
    units, path, _ = r.units_and_path()
    return {"units": units, "path": path}


def _move(r: Reader) -> dict[str, Any]:
    """Combat move until the combat move phase is over, non-combat move after it."""
    combat = r.running in BEFORE_COMBAT
    return {**_path(r), "phase": "combat_move" if combat else "noncombat_move"}


def _bomb(r: Reader) -> dict[str, Any]:
    units, path, facility = r.units_and_path(facility=True)
    return {"units": units, "path": path, "facility": facility}


def _bombard(r: Reader) -> dict[str, Any]:
    """`bombard 1 bb, 1 ca SEAZONE > TERRITORY`, or `bombard none SEAZONE > TERRITORY` to decline."""
    if r.accept("none"):
        units: tuple = ()
        sea_zone = r.place()
        r.symbol(ARROW)
        path = (sea_zone, r.place())
    else:
        units, path, _ = r.units_and_path()
    if len(path) != 2:
        r.fail("a bombard order names one sea zone and the territory it bombards: SEAZONE > TERRITORY",
               r.tokens[0], expected="SEAZONE > TERRITORY")
    return {"units": units, "sea_zone": path[0], "target": path[1]}


_CLAUSES = {"after_round": "after round N", "if_attackers_below": "if attackers < N"}


def _retreat(r: Reader) -> dict[str, Any]:
    place = r.place()
    r.symbol(ARROW)
    return _conditions(r, {"place": place, "to": r.place(stop=("after", "if"))})


def _submerge(r: Reader) -> dict[str, Any]:
    """`submerge always|never` is a standing order; `submerge PLACE …` is a battle order of the combat move."""
    if r.accept("always"):
        return {"always": True, "phase": ""}
    if r.accept("never"):
        return {"always": False, "phase": ""}
    start = r.pos
    try:
        place = r.place(stop=("after", "if"))
    except ParseFailure:
        if len(r.tokens) - start > 1:       # several words: a mistyped place, whose error says "did you mean"
            raise
        r.pos = start
        r.expect("'always' or 'never', or the sea zone of a battle (`submerge PLACE`)")
    return _conditions(r, {"place": place, "phase": "combat_move"})


def _conditions(r: Reader, fields: dict[str, Any]) -> dict[str, Any]:
    """The optional `after round N` and `if attackers < N` clauses that end a retreat or a submerge order."""
    fields.update(after_round=None, if_attackers_below=None)
    while (t := r.peek()) is not None:
        if r.accept("after"):
            field = "after_round"
            r.keyword("round")
            value = r.number("a round number")
        elif r.accept("if"):
            field = "if_attackers_below"
            r.keyword("attackers")
            r.symbol(LESS)
            value = r.number("a number of attacking units")
        else:
            r.expect("'after round N' or 'if attackers < N'")
        if fields[field] is not None:
            r.fail(f"'{_CLAUSES[field]}' is given twice", t)
        fields[field] = value
    return fields


def _ool(r: Reader) -> dict[str, Any]:
    """`ool PLACE: …` is for one battle of this combat move; without a place it is a standing order."""
    place = None
    if r.ahead(":"):
        place = r.place()
        r.symbol(":")
    return {"place": place, "units": r.unit_names(), "phase": "combat_move" if place else ""}


def _place(r: Reader) -> dict[str, Any]:
    units, place = r.units_at()
    return {"units": units, "place": place}


def _scramble(r: Reader) -> dict[str, Any]:
    place = r.place()
    r.symbol(ARROW)
    sea_zone = r.place(stop=("max",))
    return {"place": place, "sea_zone": sea_zone, "max": r.number("the most air units to scramble")
            if r.accept("max") else None}


def _kamikaze(r: Reader) -> dict[str, Any]:
    if r.accept("none"):
        return {"none": True}
    zone = r.place(stop=("max",))
    fields: dict[str, Any] = {"zone": zone,
                              "max": r.number("the most tokens to spend there") if r.accept("max") else None}
    if r.accept_symbol(":"):
        fields["targets"] = r.unit_names()
    return fields


def _always_or_never(r: Reader) -> dict[str, Any]:
    return {"always": r.keyword("always", "never") == "always"}


def _salt(r: Reader) -> dict[str, Any]:
    return {"text": r.rest("the salt text")}
