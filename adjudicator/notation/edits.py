"""The host's corrections (`adjudicator edit`): a grammar of their own, read by the same parser as orders so that
a mistyped correction gets the same line, column and "did you mean" as a mistyped order.

    add POWER UNITS PLACE        remove POWER UNITS PLACE      owner PLACE POWER
    pus POWER N                  damage PLACE FACILITY N       war POWER POWER      peace POWER POWER
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.notation.orders import Order, UnitCount, units_text
from adjudicator.notation.parser import NUMBER, Reader
from adjudicator.notation.verbs import VerbRegistry


@dataclass
class Correction(Order):
    """One line of a host's correction."""

    name: str = ""
    power: str = ""
    other: str = ""                           # the second power of war/peace
    units: tuple[UnitCount, ...] = ()
    place: str = ""
    facility: str = ""
    amount: int = 0

    def canonical(self) -> str:
        if self.name in ("add", "remove"):
            return f"{self.name} {self.power} {units_text(self.units)} {self.place}"
        if self.name == "owner":
            return f"owner {self.place} {self.power}"
        if self.name == "pus":
            return f"pus {self.power} {self.amount}"
        if self.name == "damage":
            return f"damage {self.place} {self.facility} {self.amount}"
        return f"{self.name} {self.power} {self.other}"


def _units(name: str):
    def parse(r: Reader) -> dict[str, Any]:
        power = r.power_then()
        r.lexicon = r.lexicon.for_power(power)      # the units are that power's: `add Chinese 2 inf C4`
        units, place = r.units_at()
        return {"name": name, "power": power, "units": units, "place": place}
    return parse


def _owner(r: Reader) -> dict[str, Any]:
    place = r.place()
    return {"name": "owner", "place": place, "power": r.power()}


def _pus(r: Reader) -> dict[str, Any]:
    power = r.power_then()
    return {"name": "pus", "power": power, "amount": r.number("the treasury in PUs")}


def _damage(r: Reader) -> dict[str, Any]:
    """`damage PLACE [FACILITY] N`: the number ends the line, so the place is read from what comes before it."""
    last = r.tokens[-1]
    if last.kind != NUMBER or len(r.tokens) < 3:
        r.fail("expected the damage, a number, at the end: `damage PLACE FACILITY N`", last if last.kind != NUMBER else None,
               expected="a number")
    r.tokens = r.tokens[:-1]
    place, facility = r.place_and_facility()
    r.tokens.append(last)
    return {"name": "damage", "place": place, "facility": facility or "", "amount": r.number("the damage")}


def _pair(name: str):
    def parse(r: Reader) -> dict[str, Any]:
        power = r.power_then()
        return {"name": name, "power": power, "other": r.power()}
    return parse


def edit_verbs() -> VerbRegistry:
    reg = VerbRegistry()
    for name, parse, usage in (("add", _units("add"), "add POWER UNITS PLACE"),
                               ("remove", _units("remove"), "remove POWER UNITS PLACE"),
                               ("owner", _owner, "owner PLACE POWER"), ("pus", _pus, "pus POWER N"),
                               ("damage", _damage, "damage PLACE FACILITY N"),
                               ("war", _pair("war"), "war POWER POWER"), ("peace", _pair("peace"), "peace POWER POWER")):
        reg.register(name, phase="", order=Correction, usage=usage, parse=parse)
    return reg
