"""Insurgents (EG-55 … EG-59; RULINGS.md "eg-insurgents", "eg-insurgent-units", "eg-insurgent-combat",
"eg-insurgent-outcome").

The order of a nation's `influence` phase, the verb `insurgents` (registered by `register`):

* ``insurgents N TERRITORY`` — N Insurgents for 3 Influence each, 4 in an Original Territory of the territory's
  controller (EG-55). The target is a land territory controlled by another nation that is not the buyer's ally;
  an Original Territory with a city (a victory city or a capital) is refused.

The Insurgents wait in State.spent (``insurgents:NATION:PLACE``, the number bought) until the nation's Conduct
Combat begins (the engine's `combat_begins` hook): then, before any other battle, each insurgency is fought as a
land battle by the engine's Battle (adjudicator/rules/combat.py), the Insurgents being the nation's infantry marked
``insurgent`` (attack 1, one hit) against the units there of the controller and its allies, with no AA fire, no
bombardment, no scramble and no retreat, round after round until one side is gone (EG-56, EG-57). Dice groups
``insurgency:PLACE:rN:attacker`` / ``:defender``. If an Insurgent survives, the territory becomes the map's
Neutral_True's and the survivors its standing army, infantry with no flag (EG-58); the switch ``insurgent:PLACE``
names the nation, which then takes it with 4 Influence markers (EG-59, influence.py). Otherwise nothing changes.
An insurgency is an act of Influence: it needs no war, it is no Surprise Attack, and no war follows.
"""

from __future__ import annotations

from adjudicator.errors import ILLEGAL, OrderError
from adjudicator.notation.orders import GameVerb, Retreat
from adjudicator.rules.combat import Battle, BattleOrders, order_of_loss
from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, count_types

from . import influence, politics
from .phrases import said

VERB = "insurgents"
USAGE = "insurgents N TERRITORY"
RECORD = "insurgents:{}:{}"         # State.spent: the Insurgents a nation bought this turn for a territory
SWITCH = "insurgent:{}"             # State.switches: a territory made neutral by the insurgency of the nation named
COST = 3                            # EG-55, a non-Original territory
ORIGINAL_COST = 4                   # EG-55, an Original Territory of its controller
UNIT = "infantry"                   # "eg-insurgent-units": they fight as infantry
NEUTRAL_OWNER = "Neutral_True"      # "eg-insurgent-outcome": the owner of a territory an insurgency made neutral
RULING = "eg-insurgents"


def register(reg) -> None:
    """Bind the verb `insurgents` to the `influence` phase in the game's registry."""
    reg.register(VERB, phase="influence", usage=USAGE, parse=_parse, aliases=("insurgent",))


def _parse(r) -> dict:
    count = r.count("the number of Insurgents")
    return {"count": count, "place": r.place()}


# -- where, and at what price (EG-55) ---------------------------------------------------------------------

def has_city(rules, place: str) -> bool:
    """A city: a victory city of the map, or a nation's capital (RULINGS.md "eg-insurgents")."""
    t = rules.scenario.territories_by_name()[place]
    return bool(t.victory_city) or bool(t.capital)


def price(rules, state: State, power: str, place: str) -> tuple[int, bool]:
    """Influence an Insurgent costs in `place`, and whether it is an Original Territory of its controller; refused
    (EG-55) where no insurgency may start."""
    t = rules.scenario.territories_by_name().get(place)
    if t is None or t.water:
        raise RuleViolation(f"Insurgents are placed in a land territory; {place} is not one", "EG-55")
    owner = state.owners.get(place)
    if owner is None or owner in influence.neutral_owners(rules):
        raise RuleViolation(f"{place} is neutral: an insurgency is started in a nation's territory; a neutral is "
                            "won with Influence markers (`influence N " + place + "`)", "EG-55")
    if owner == power:
        raise RuleViolation(f"{place} is {power}'s own territory: Insurgents rise against another nation", "EG-55")
    if rules.archetype(state, power, owner) == "allied":
        raise RuleViolation(f"{place} is controlled by {owner}, {power}'s ally: no insurgency against an ally",
                            "EG-55")
    original = rules.original_owner(state, place) == owner
    if original and has_city(rules, place):
        raise RuleViolation(f"{place} is an Original Territory of {owner} with a city: Insurgents go to a "
                            "non-Original territory or to an Original Territory without a city", "EG-55")
    return (ORIGINAL_COST if original else COST), original


def buy(rules, state: State, power: str, count: int, place: str) -> dict:
    """`insurgents N TERRITORY`: paid from the nation's Influence at once; they fight as Conduct Combat begins."""
    if count < 1:
        raise RuleViolation("buy at least one Insurgent", "EG-55")
    each, original = price(rules, state, power, place)
    cost = each * count
    pool = state.spent.get(influence.POOL.format(power), 0)
    if cost > pool:
        raise RuleViolation(f"{count} Insurgent{'s' if count > 1 else ''} in {place} cost {cost} Influence ({each} "
                            f"each{', an Original Territory' if original else ''}); {power} have {pool}", "EG-55")
    state.spent[influence.POOL.format(power)] = pool - cost
    key = RECORD.format(power, place)
    state.spent[key] = state.spent.get(key, 0) + count
    return said({"type": "insurgents_bought", "power": power, "place": place, "owner": state.owners[place],
                 "count": count, "each": each, "original": original, "cost": cost, "stored": pool - cost,
                 "insurgents": state.spent[key], "rule": "EG-55"})


def pending(state: State, power: str | None = None) -> dict[tuple[str, str], int]:
    """(nation, place) -> Insurgents waiting for their nation's Conduct Combat."""
    out = {}
    for key, n in state.spent.items():
        if key.startswith("insurgents:") and n:
            nation, _, place = key[len("insurgents:"):].partition(":")
            if power in (None, nation):
                out[(nation, place)] = n
    return out


# -- Conduct Combat (EG-56, EG-57, EG-58) -----------------------------------------------------------------

def _named(units: list[str]) -> list[str]:
    """The attackers' dice named as what they are: `insurgent@1`, not `infantry@1`."""
    return ["insurgent" + n[n.index("@"):] if "@" in n else n for n in units]


class _Named:
    """The audited roller, recording the Insurgents' dice under their own name."""

    def __init__(self, roller):
        self._roller = roller

    def roll(self, label: str, sides: int, count: int, units=None) -> list[int]:
        return self._roller.roll(label, sides, count, units=None if units is None else _named(list(units)))


class Insurgency(Battle):
    """The engine's land battle, with the Insurgents as attackers and the controller's bloc as defenders: no AA
    fire, no bombardment, no retreat; its dice labelled `insurgency:…`; its outcome no capture."""

    def __init__(self, rules, state: State, power: str, place: str, roller, insurgents: list, defenders: list):
        super().__init__(rules, state, power, place, roller, BattleOrders())
        self.att, self.dfn = list(insurgents), list(defenders)
        self.att_ool = order_of_loss(rules, state, power, "attacker", None)
        self.def_ools = {p: order_of_loss(rules, state, p, "defender", None) for p in {u.owner for u in self.dfn}}
        self.event.update({"defenders": sorted({u.owner for u in self.dfn}),
                           "attacking": {"insurgent": len(insurgents)}, "defending": count_types(self.dfn),
                           "insurgency": True, "rule": "EG-56"})
        self.event["notes"].append(f"{power}'s Insurgents fight as infantry (attack 1, one hit); they cannot retreat: "
                                   "the combat goes on until one side is destroyed (EG-57)")

    def _aa_fire(self) -> None:
        return None         # "eg-insurgent-combat": no AA fire (and Insurgents are no aircraft)

    def _fire(self, label: str, units: list, role: str, *args, **kwargs):
        label = "insurgency:" + label.split(":", 1)[1]
        if role != "attacker":
            return super()._fire(label, units, role, *args, **kwargs)
        roller = self.roller
        self.roller = _Named(roller)
        try:
            grp, hits = super()._fire(label, units, role, *args, **kwargs)
        finally:
            self.roller = roller
        if grp is not None:
            grp["units"] = _named(grp["units"])
        return grp, hits

    def _outcome(self) -> dict:
        ev = self.event
        self.state.remove_units(u.id for u in self.dead)
        if self.att and self.dfn:       # no end within the engine's round limit: the insurgency fails
            self.state.remove_units(u.id for u in self.att)
            ev["notes"].append("the combat did not end: the Insurgents disperse")
            self.att = []
        for rec in ev["rounds"]:        # the report names the attackers' losses as what they are
            for part in (rec, rec.get("surprise") or {}):
                if part.get("attacker_losses"):
                    part["attacker_losses"] = {"insurgent": sum(part["attacker_losses"].values())}
        ev["result"] = ("captured" if self.att else "defended" if self.dfn else "destroyed")
        ev["survivors"] = {"attacker": {"insurgent": len(self.att)} if self.att else {},
                           "defender": count_types(self.dfn)}
        return ev


def combat_begins(rules, state: State, power: str, roller) -> list[dict]:
    """As `power`'s Conduct Combat begins: each of its insurgencies, by territory name. While `submit` checks
    (roller None) nothing is fought: what the dice decide is not known."""
    events: list[dict] = []
    for (_, place), n in sorted(pending(state, power).items()):
        state.spent.pop(RECORD.format(power, place))
        if roller is not None:
            events += fight(rules, state, power, place, n, roller)
    return events


def fight(rules, state: State, power: str, place: str, n: int, roller) -> list[dict]:
    controller = state.owners.get(place)
    if (controller is None or controller == power or controller in influence.neutral_owners(rules)
            or rules.archetype(state, power, controller) == "allied"):
        return [said({"type": "insurgency_called_off", "power": power, "place": place, "count": n,
                      "owner": controller, "allied": controller is not None and controller != power
                      and rules.archetype(state, power, controller) == "allied", "rule": "EG-56"})]
    side = set(politics.bloc(rules, state, controller))
    defenders = [u for u in state.units_at(place) if u.owner in side and rules.is_combatant(u)]
    insurgents = []
    for _ in range(n):
        u = state.add_unit(UNIT, power, place)
        u.mark(insurgent=True)
        insurgents.append(u)
    events: list[dict] = []
    if defenders:
        events.append(Insurgency(rules, state, power, place, roller, insurgents, defenders).fight())
    survivors = [u for u in insurgents if state.unit(u.id) is u]
    if not survivors:
        return events + [said({"type": "insurgency", "power": power, "place": place, "owner": controller,
                               "won": False, "count": n, "rule": "EG-58"})]
    for u in survivors:
        u.owner = NEUTRAL_OWNER
        u.unmark("insurgent")
    for u in state.units_at(place, controller):     # what no one defends (facilities) goes with the land
        u.owner = NEUTRAL_OWNER
    state.owners[place] = NEUTRAL_OWNER
    state.switches[SWITCH.format(place)] = power
    return events + [said({"type": "insurgency", "power": power, "place": place, "owner": controller, "won": True,
                           "count": n, "army": {UNIT: len(survivors)}, "fought": bool(defenders),
                           "neutral": NEUTRAL_OWNER, "markers": influence.MARKERS_AFTER_INSURGENCY,
                           "rule": "EG-58"})]


# -- refusals at submit ------------------------------------------------------------------------------------

def check_destination(state: State, power: str, place: str, phase: str) -> None:
    """EG-56: an insurgency is fought alone: no combat move into a territory where the mover's Insurgents wait."""
    if phase == "combat_move" and state.spent.get(RECORD.format(power, place)):
        raise RuleViolation(f"{power}'s Insurgents fight in {place} as Conduct Combat begins, alone: no combat move "
                            "enters it this turn", "EG-56")


def retreat_errors(state: State, orders: list, errors: list[OrderError]) -> list[OrderError]:
    """EG-57: a retreat order for a territory where the mover's Insurgents fight is refused with its own reason
    (the engine finds no battle of a combat move there)."""
    places = {o.args.get("place") for o in orders if isinstance(o, GameVerb) and o.name == VERB}
    places |= {p for (_, p) in pending(state, state.power)}
    out = [e for e in errors if not any(isinstance(o, Retreat) and o.place in places and e.line == o.line
                                        for o in orders)]
    for o in orders:
        if isinstance(o, Retreat) and o.place in places:
            out.append(OrderError(ILLEGAL, f"Insurgents cannot retreat: the insurgency in {o.place} is fought until "
                                  "one side is destroyed", o.line, o.column, o.source, rule="EG-57"))
    return out


# -- status ------------------------------------------------------------------------------------------------

def notes(state: State) -> list[str]:
    lines = [f"Insurgents of {nation} in {place}: {n}, fighting as {nation}'s Conduct Combat begins"
             for (nation, place), n in sorted(pending(state).items())]
    for key, nation in sorted(state.switches.items()):
        if key.startswith("insurgent:") and nation:
            lines.append(f"{key[len('insurgent:'):]}: made neutral by {nation}'s insurgency; {nation} take it with "
                         f"{influence.MARKERS_AFTER_INSURGENCY} Influence markers (EG-59)")
    return lines
