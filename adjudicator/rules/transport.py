"""Transports (BG-09 … BG-11): boarding, carrying and unloading, read from the path of an ordinary move.

A path may cross the sea once: land units walk to the coast and board the mover's transports in the first sea
zone, ships follow the sea zones, and land units aboard come ashore in the last place if it is land — an
amphibious assault when that place is hostile. Cargo stays aboard across turns until it unloads.

An amphibious assault's troops stay aboard until the battle phase: any sea battle in their transports' zone is
fought first, and they land only if no enemy warship is left there (BG-11, `land_assault_troops`).
"""

from __future__ import annotations

from collections import Counter

from ..scenario import UnitType
from ..state import State, Unit, count_types
from ..words import possessive
from .facts import MapFacts, RuleViolation


class Legs:
    """How one path splits into a walk to the coast, a voyage, and a landing.

    Aircraft fly any path, a space per move (BG-05); the split binds land units and ships, so a path they could
    not take is kept as `crossing` and raised only for an order that moves them (`check_crossing`)."""

    def __init__(self, rules: MapFacts, path: list[str]):
        self.rules = rules
        self.path = path
        water = [rules.is_water(p) for p in path]
        self.sea = any(water)
        self.sea_path: list[str] = []
        self.ashore: str | None = None
        self.first = 0
        self.crossing: RuleViolation | None = None
        if not self.sea:
            return
        self.first = water.index(True)
        last = len(water) - 1 - water[::-1].index(True)
        if not all(water[self.first:last + 1]):
            self.crossing = RuleViolation("land units and ships cross the sea once: land, then sea zones, then at "
                                          "most one landing", "BG-10")
        elif last < len(path) - 2:
            self.crossing = RuleViolation(f"land units that come ashore from a transport in {path[last + 1]} stop "
                                          "there", "BG-10")
        self.sea_path = path[self.first:last + 1]
        self.ashore = path[last + 1] if last + 1 < len(path) else None

    def check_crossing(self, units: list[Unit]) -> None:
        """BG-10: the path's one sea crossing binds every unit of the order that is not an aircraft."""
        if self.crossing and any(self.rules.ut(u).domain != "air" for u in units):
            raise self.crossing

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
            self.assign(state, power, zone, land, self._landing(phase))
        else:
            moving = {s.id for s in ships}
            for u in land:
                if len(self.sea_path) > 1 and u.carried_by not in moving:
                    raise RuleViolation(f"the {u.type} in {self.path[0]} travels with its transport: "
                                        "name the transport in the same order, or move it first", "BG-10")
            if self.ashore is not None and phase == "combat_move":
                for u in land:
                    elsewhere = self._lands_elsewhere(state, u.carried_by)
                    if elsewhere:
                        raise RuleViolation(f"the transport carrying the {u.type} in {self.path[0]} already unloads "
                                            f"into {elsewhere}: in the combat move a transport unloads into one "
                                            "territory only; land these units with another transport, or in "
                                            f"{elsewhere}", "BG-10")
        if self.ashore is None:
            return
        self._check_landing(state, power, phase)

    def _lands_elsewhere(self, state: State, boat_id: int | None) -> str | None:
        """Where else this turn's combat move already unloads the transport `boat_id` (BG-10), if anywhere."""
        if boat_id is None:
            return None
        return next((c.flags["landing"] for c in state.units_at(self.sea_path[-1])
                     if c.carried_by == boat_id and c.flags.get("landing") not in (None, self.ashore)), None)

    def prefer(self, state: State, wanted: set[str]):
        """The order in which a move from a sea zone takes transports and their cargo. A transport sailing with
        cargo the order names: those carrying most of it first, their cargo with them. An unloading: units of a
        transport already unloading where this one lands, then of transports not yet unloading, those carrying
        nothing the order does not name first, each transport's cargo together; so that `cm 2 inf 113 Sea Zone >
        Denmark` empties whole transports and leaves the others free for another landing (BG-10)."""
        if not self.sea or self.first > 0:
            return None
        landing_of: dict[int, str] = {}
        other: Counter = Counter()
        named: Counter = Counter()
        for c in state.units_at(self.sea_path[0]):
            if c.carried_by is not None:
                if c.flags.get("landing"):
                    landing_of[c.carried_by] = c.flags["landing"]
                other[c.carried_by] += c.type not in wanted
                named[c.carried_by] += c.type in wanted

        def key(u: Unit) -> tuple[int, int, int]:
            if u.carried_by is None:
                return 0, -named[u.id], 0           # a transport: those carrying named cargo first
            if self.ashore is None:
                return 0, -named[u.carried_by], u.carried_by
            target = landing_of.get(u.carried_by)
            return (0 if target == self.ashore else 2 if target else 1), other[u.carried_by], u.carried_by
        return key

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

    def assign(self, state: State, power: str, zone: str, land: list[Unit], landing: str | None = None) -> dict[int, Unit]:
        """BG-09: which transport each boarding unit takes (first with room, by id); raises if there is no room.
        Units that board to land at once in a combat move (`landing`) take first a transport already unloading
        there, then an empty one, so that transports holding other cargo stay free to land it elsewhere (BG-10)."""
        bound = {c.carried_by: c.flags["landing"] for c in state.units_at(zone, power) if c.flags.get("landing")}
        boats = sorted((u for u in state.units_at(zone, power) if self.rules.carries(u) > 0
                        and (not u.flags.get("unloaded") or landing is not None and bound.get(u.id) == landing)),
                       key=lambda u: (u.id not in bound if landing else 0, bool(state.cargo_of(u)) if landing else 0,
                                      u.id))
        # first with room by id; where that leaves a unit without a seat, the biggest units are seated first
        # (`2 inf, 2 art` onto two transports: an infantry and an artillery on each)
        by_id = sorted(land, key=lambda u: u.id)
        seats, stuck = self._seat(state, boats, by_id)
        if stuck is not None:
            seats, again = self._seat(state, boats, sorted(by_id, key=lambda u: -self.rules.ut(u).transport_cost))
            if again is not None:
                raise RuleViolation(self._no_seat(state, power, zone, stuck.type, boats), "BG-09")
        return seats

    def _seat(self, state: State, boats: list[Unit], land: list[Unit]) -> tuple[dict[int, Unit], Unit | None]:
        """Each of `land` on the first of `boats` with room for it, in that order; and the first unit that found
        none, if one did."""
        room = {b.id: self.rules.carries(b) - sum(self.rules.ut(c).transport_cost for c in state.cargo_of(b))
                for b in boats}
        seats: dict[int, Unit] = {}
        for u in land:
            need = self.rules.ut(u).transport_cost
            boat = next((b for b in boats if need and room[b.id] >= need), None)
            if boat is None:
                return seats, u
            room[boat.id] -= need
            seats[u.id] = boat
        return seats, None

    def _landing(self, phase: str) -> str | None:
        """Where units boarding in this order land in the same combat move, if they do."""
        return self.ashore if phase == "combat_move" and len(self.sea_path) == 1 else None

    def _no_seat(self, state: State, power: str, zone: str, kind: str, boats: list[Unit]) -> str:
        """Why a land unit finds no seat in `zone`: no transport there, only ones that unloaded this turn, or no
        room left on them."""
        if not boats:
            if any(self.rules.carries(u) > 0 for u in state.units_at(zone, power)):
                return (f"{possessive(power, the=True)} transports in {zone} unloaded this turn and take no more "
                        f"cargo, so the {kind} cannot board")
            return f"no transport of {power} is in {zone} to carry the {kind}: land units go to sea aboard transports"
        return f"no room for the {kind} on {possessive(power, the=True)} transports in {zone}"

    # -- carrying out -------------------------------------------------------------------------------

    def carry_out(self, state: State, power: str, land: list[Unit], phase: str) -> str | None:
        """Board, sail and unload; an amphibious assault's troops wait aboard for the battle phase.
        Returns the territory they will land in, if they are to land in a battle."""
        if self.first > 0:
            seats = self.assign(state, power, self.sea_path[0], land, self._landing(phase))
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


def board(rules: MapFacts, state: State, power: str, zone: str, cargo: list[Unit]) -> None:
    """Put land units of `power` already in the sea zone `zone` aboard its transports there, first with room
    first, as a move that ends there boards them (BG-09): for host corrections and set positions, which place
    units without moving them. Raises RuleViolation when there is no room."""
    for uid, boat in Legs(rules, [zone]).assign(state, power, zone, cargo).items():
        next(u for u in cargo if u.id == uid).carried_by = boat.id


def land_assault_troops(rules: MapFacts, state: State, power: str) -> list[dict]:
    """BG-11: after the sea battles, troops waiting aboard for an amphibious assault come ashore, unless enemy
    warships still hold their zone; then the landing is called off and they stay aboard."""
    events = []
    waiting = sorted((u for u in state.units if u.owner == power and u.flags.get("landing")), key=lambda u: u.id)
    launched = {b["place"]: b.get("amphibious", []) for b in state.battles if b.get("kind", "land") == "land"}
    for zone in sorted({u.place for u in waiting}):
        here = [u for u in waiting if u.place == zone]
        blocked = rules.blocks_ships(state, power, zone)
        bound = {u.id: u.flags["landing"] for u in here}     # read before any is unmarked
        for target in sorted(set(bound.values())):
            troops = [u for u in here if bound[u.id] == target]
            retreated = zone not in launched.get(target, [zone])    # their transports retreated from the sea battle
            for u in troops:
                u.unmark("landing")
                if not (blocked or retreated):
                    u.place, u.carried_by = target, None
                    u.mark(unloaded=True, amphibious=True)
            event = {"type": "landing_called_off" if blocked or retreated else "assault_landing", "power": power,
                     "from": zone, "place": target, "units": count_types(troops)}
            if retreated:
                event["retreated_from"] = launched[target][0] if launched.get(target) else ""
            events.append(event)
    return events
