"""Transports (BG-09 … BG-11): boarding, carrying and unloading, read from the path of an ordinary move.

A path may cross the sea once: land units walk to the coast and board the mover's transports in the first sea
zone, ships follow the sea zones, and land units aboard come ashore in the last place if it is land — an
amphibious assault when that place is hostile. Cargo stays aboard across turns until it unloads.

An amphibious assault's troops stay aboard until the battle phase: any sea battle in their transports' zone is
fought first, and they land only if no enemy warship is left there (BG-11, `land_assault_troops`).
"""

from __future__ import annotations

from ..scenario import UnitType
from ..state import State, Unit, count_types
from ..words import possessive
from .base import G40Rules, RuleViolation


class Legs:
    """How one path splits into a walk to the coast, a voyage, and a landing."""

    def __init__(self, rules: G40Rules, path: list[str]):
        self.rules = rules
        self.path = path
        water = [rules.is_water(p) for p in path]
        self.sea = any(water)
        self.sea_path: list[str] = []
        self.ashore: str | None = None
        self.first = 0
        if not self.sea:
            return
        self.first = water.index(True)
        last = len(water) - 1 - water[::-1].index(True)
        if not all(water[self.first:last + 1]):
            raise RuleViolation("a path crosses the sea once: land, then sea zones, then at most one landing", "BG-10")
        if last < len(path) - 2:
            raise RuleViolation(f"units that come ashore in {path[last + 1]} stop there", "BG-10")
        self.sea_path = path[self.first:last + 1]
        self.ashore = path[last + 1] if last + 1 < len(path) else None

    def cost(self, unit_type: UnitType) -> int:
        """Movement the order takes: land units pay for the walk to the boat, not for the voyage."""
        if not self.sea or unit_type.domain == "air":
            return len(self.path) - 1
        if unit_type.domain == "land":
            return self.first
        return len(self.sea_path) - 1

    def carrying(self, state: State, ships: list[Unit], land: list[Unit]) -> bool:
        return bool(land) or any(state.cargo_of(s) for s in ships)

    # -- checks -------------------------------------------------------------------------------------

    def check_land(self, state: State, power: str, land: list[Unit], ships: list[Unit], phase: str) -> None:
        rules = self.rules
        if self.first > 0:
            if len(self.sea_path) > 1:
                raise RuleViolation(f"land units board in {self.sea_path[0]}; move the transport in an order of its own",
                                    "BG-10")
            for place in self.path[1:self.first]:
                if not rules.is_friendly_land(state, power, place) or rules.hostile_units(state, power, place):
                    raise RuleViolation(f"on the way to the transports, land units may only cross friendly land; "
                                        f"{place} is not", "BG-03")
            zone = self.sea_path[0]
            if rules.blocks_ships(state, power, zone):
                raise RuleViolation(f"transports load only in a sea zone free of enemy warships; {zone} is not", "BG-10")
            self.assign(state, power, zone, land)
        else:
            moving = {s.id for s in ships}
            for u in land:
                if len(self.sea_path) > 1 and u.carried_by not in moving:
                    raise RuleViolation(f"the {u.type} in {self.path[0]} travels with its transport: "
                                        "name the transport in the same order, or move it first", "BG-10")
        if self.ashore is None:
            return
        self._check_landing(state, power, phase)

    def _check_landing(self, state: State, power: str, phase: str) -> None:
        zone = self.sea_path[-1]
        if phase != "combat_move" and self.rules.blocks_ships(state, power, zone):
            raise RuleViolation(f"transports do not unload in {zone} while enemy warships are there; "
                                "attack them in the combat move", "BG-11")
        self.rules.check_land_destination(state, power, self.ashore, phase)

    def check_ships(self, state: State, power: str, ships: list[Unit], land: list[Unit], phase: str) -> None:
        if not self.sea:
            raise RuleViolation(f"ships cannot enter the land territory {self.path[1]}", "BG-07")
        if self.first > 0:
            raise RuleViolation(f"ships start at sea, not in {self.path[0]}", "BG-07")
        if self.ashore is not None and not land:
            raise RuleViolation(f"ships cannot enter the land territory {self.ashore}", "BG-07")

    def assign(self, state: State, power: str, zone: str, land: list[Unit]) -> dict[int, Unit]:
        """BG-09: which transport each boarding unit takes (first with room, by id); raises if there is no room."""
        boats = sorted((u for u in state.units_at(zone, power) if self.rules.ut(u).transport_capacity > 0
                        and not u.flags.get("unloaded")), key=lambda u: u.id)
        room = {b.id: self.rules.ut(b).transport_capacity - sum(self.rules.ut(c).transport_cost for c in state.cargo_of(b))
                for b in boats}
        seats: dict[int, Unit] = {}
        for u in sorted(land, key=lambda u: u.id):
            need = self.rules.ut(u).transport_cost
            boat = next((b for b in boats if need and room[b.id] >= need), None)
            if boat is None:
                raise RuleViolation(f"no room for the {u.type} on {possessive(power, the=True)} transports in {zone}", "BG-09")
            room[boat.id] -= need
            seats[u.id] = boat
        return seats

    # -- carrying out -------------------------------------------------------------------------------

    def carry_out(self, state: State, power: str, land: list[Unit], phase: str) -> str | None:
        """Board, sail and unload; an amphibious assault's troops wait aboard for the battle phase.
        Returns the territory they will land in, if they are to land in a battle."""
        if self.first > 0:
            seats = self.assign(state, power, self.sea_path[0], land)
            for u in land:
                u.place, u.carried_by = self.sea_path[0], seats[u.id].id
                u.moved += self.first
                if phase == "combat_move":
                    u.mark(combat_moved=True)
        if self.ashore is None:
            return None
        for u in land:
            boat = next((b for b in state.units if b.id == u.carried_by), None)
            if boat is not None:
                boat.mark(unloaded=True)
            if phase == "combat_move":
                u.mark(combat_moved=True, landing=self.ashore)
            else:
                u.place, u.carried_by = self.ashore, None
                u.mark(unloaded=True)
        return self.ashore if phase == "combat_move" else None


def board(rules: G40Rules, state: State, power: str, zone: str, cargo: list[Unit]) -> None:
    """Put land units of `power` already in the sea zone `zone` aboard its transports there, first with room
    first, as a move that ends there boards them (BG-09): for host corrections and set positions, which place
    units without moving them. Raises RuleViolation when there is no room."""
    for uid, boat in Legs(rules, [zone]).assign(state, power, zone, cargo).items():
        next(u for u in cargo if u.id == uid).carried_by = boat.id


def land_assault_troops(rules: G40Rules, state: State, power: str) -> list[dict]:
    """BG-11: after the sea battles, troops waiting aboard for an amphibious assault come ashore, unless enemy
    warships still hold their zone; then the landing is called off and they stay aboard."""
    events = []
    waiting = sorted((u for u in state.units if u.owner == power and u.flags.get("landing")), key=lambda u: u.id)
    for zone in sorted({u.place for u in waiting}):
        here = [u for u in waiting if u.place == zone]
        blocked = rules.blocks_ships(state, power, zone)
        for target in sorted({u.flags["landing"] for u in here}):
            troops = [u for u in here if u.flags["landing"] == target]
            for u in troops:
                u.unmark("landing")
                if not blocked:
                    u.place, u.carried_by = target, None
                    u.mark(unloaded=True, amphibious=True)
            events.append({"type": "landing_called_off" if blocked else "assault_landing", "power": power,
                           "from": zone, "place": target, "units": count_types(troops)})
    return events
