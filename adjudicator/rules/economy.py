"""Purchase, mobilisation and income (BG-33 … BG-37)."""

from __future__ import annotations

from ..notation.orders import Buy, Place
from ..state import State
from ..words import possessive
from .facts import MapFacts, RuleViolation
from .politics import pay_objectives


def price_list(rules: MapFacts, state: State, power: str) -> dict[str, int]:
    """Unit type -> its price on `power`'s purchase list now: the cheapest rule that buys exactly one."""
    prices: dict[str, int] = {}
    for rule in rules.scenario.frontier_of(power, rules.frontier(state, power)):
        if len(rule.results) == 1:
            (unit, qty), = rule.results.items()
            if qty == 1 and (unit not in prices or rule.cost < prices[unit]):
                prices[unit] = rule.cost
    return rules.adjust_prices(state, power, prices)


def buy(rules: MapFacts, state: State, mover: str, order: Buy, bid: bool = False) -> dict:
    """BG-33; `buy POWER UNITS` buys for a power that purchases inside the mover's turn (UK_Pacific in the
    British turn), from that power's treasury. `bid`: paid from the mover's bid instead, which buys no facility
    (RULINGS.md "bid")."""
    power = order.power or mover
    if bid and power != mover:
        raise RuleViolation(f"a bid is spent by the power that got it: {mover} cannot buy for {power} with theirs; "
                            f"{power} buy in their own turns")
    if power != mover and (power, "purchase") not in rules.scenario.guests_of(mover):
        host = next((h for h in rules.scenario.turn_players() if (power, "purchase") in rules.scenario.guests_of(h)),
                    None)
        raise RuleViolation(f"{mover} cannot buy for {power}: {power} buys in "
                            + (f"{possessive(host, the=True)} turn" if host else "its own turn"), "BG-01")
    prices = price_list(rules, state, power)
    total = 0
    for uc in order.units:
        if uc.unit not in prices:
            raise RuleViolation(f"{power} cannot buy {uc.unit}: it is not on {possessive(power, the=True)} purchase list "
                                f"({', '.join(sorted(prices)) or 'empty'})", "BG-33")
        if bid and rules.is_facility(uc.unit):
            raise RuleViolation(f"a bid buys no facilities ({uc.unit}): only units, placed on land that already "
                                f"holds units of {power} (RULINGS.md \"bid\")")
        total += prices[uc.unit] * uc.count
    funds = state.bids if bid else state.treasury
    if total > funds.get(power, 0):
        raise RuleViolation(f"{order.canonical()} costs {total} PUs; {power} have {funds.get(power, 0)}"
                            + (" left of the bid" if bid else ""), "BG-33")
    rules.check_purchase(state, power, _counted(order.units))
    funds[power] -= total
    bought = state.purchases.setdefault(power, {})
    for uc in order.units:
        bought[uc.unit] = bought.get(uc.unit, 0) + uc.count
    return {"type": "purchase", "power": power, "units": {uc.unit: uc.count for uc in order.units},
            "cost": total, "treasury": state.treasury[power], **({"bid_left": funds[power]} if bid else {})}


UNLIMITED = 10**6       # what an original factory may place: more than any treasury buys


def factory_capacity(rules: MapFacts, state: State, power: str, place: str) -> int:
    """BG-35: units a territory may still receive this turn from its factories (0 if none usable). An original
    factory of the map, held by its original owner, has no limit (CL-23: TripleA's originalFactory)."""
    if rules.is_water(place) or state.owners.get(place) != power or place in state.conquered:
        return 0
    if rules.unlimited_factory(state, power, place):
        return UNLIMITED
    total = 0
    for u in state.units_at(place, power):
        t = rules.ut(u)
        if t.has("factory") and not u.flags.get("placed"):          # a new factory produces from the next turn
            total += max(0, _production(rules, u) + rules.production_bonus(state, u) - u.damage)
    return total


def _production(rules: MapFacts, factory) -> int:
    """What a factory produces undamaged: the map's canProduceXUnits, else its territory's value."""
    cap = rules.ut(factory).options.get("canProduceXUnits")
    return int(cap[0]) if cap else rules.scenario.territory(factory.place).production


def no_production(rules: MapFacts, state: State, power: str, place: str) -> tuple[str, str]:
    """Why `place` produces nothing for `power` this turn, and the rule: no factory, not held since the start of
    the turn, a factory placed this turn (BG-35), or one damaged to its production (BG-28)."""
    factories = [u for u in state.units_at(place) if rules.ut(u).has("factory")]
    if not factories:
        anywhere = rules.player_rules(power)
        if anywhere is not None and anywhere.value("placementAnyTerritory").lower() == "true":
            return (f"{place} has no factory, and it is not one of the territories where {power} may place "
                    "without one"), "BG-35"
        return f"{place} has no factory", "BG-35"
    if state.owners.get(place) != power:
        return f"the factory in {place} is not {possessive(power)}: {place} belongs to {state.owners.get(place)}", "BG-35"
    if place in state.conquered:
        return (f"{power} took {place} this turn: a factory produces only in a territory held since the start of "
                "the turn"), "BG-35"
    if all(u.flags.get("placed") for u in factories):
        return (f"the factory in {place} was placed this turn: it produces from {possessive(power, the=True)} next "
                "turn"), "BG-35"
    damaged = [u for u in factories if not u.flags.get("placed") and u.damage]
    if damaged:
        u = damaged[0]
        return (f"the {u.type} in {place} is damaged to its production ({u.damage} damage against a production of "
                f"{_production(rules, u) + rules.production_bonus(state, u)}), so it places nothing until repaired (`repair N {place}` in the purchase "
                "phase)"), "BG-28"
    return f"the factory in {place} can place nothing more this turn", "BG-35"


def place(rules: MapFacts, state: State, power: str, order: Place, placed: dict[str, int]) -> dict:
    """Mobilise bought units; `placed` counts units already placed this turn per producing territory."""
    pending, wanted = _pending(state, power, order)
    where = order.place
    rules.check_placement(state, power, where, wanted)
    n = sum(uc.count for uc in order.units)
    domains = {rules.ut(uc.unit).domain for uc in order.units}
    facilities = [uc.unit for uc in order.units if rules.is_facility(uc.unit)]
    if facilities:
        _check_facility(rules, state, power, where, facilities)
        producer = None
    elif rules.is_water(where):
        if "land" in domains:
            raise RuleViolation(f"only ships, and aircraft onto carriers, are placed in a sea zone such as {where}", "BG-35")
        if "air" in domains:
            _check_deck(rules, state, power, where, order)
        producers = [t for t in sorted(rules.scenario.neighbours(where))
                     if factory_capacity(rules, state, power, t) - placed.get(t, 0) >= n]
        if not producers:
            idle = [no_production(rules, state, power, t)[0] for t in sorted(rules.scenario.neighbours(where))
                    if any(rules.ut(u).has("factory") for u in state.units_at(t))
                    and factory_capacity(rules, state, power, t) == 0 and state.owners.get(t) == power]
            raise RuleViolation(f"no factory of {power} next to {where} can place {n} more units this turn"
                                + (f" ({'; '.join(idle)})" if idle else ""), "BG-35")
        producer = producers[0]
    elif rules.places_without_factory(state, power, where) is not None:
        if domains != {"land"}:
            raise RuleViolation(f"{power} place only land units without a factory", "BG-35")
        room = rules.places_without_factory(state, power, where) - placed.get(where, 0)
        if room < n:
            raise RuleViolation(f"{power} may place {max(room, 0)} more units in {where} this turn, not {n}", "BG-35")
        producer = where
    else:
        if "sea" in domains:
            raise RuleViolation(f"ships are placed in a sea zone next to a factory, not in {where}", "BG-35")
        room = factory_capacity(rules, state, power, where) - placed.get(where, 0)
        if factory_capacity(rules, state, power, where) == 0:
            why, rule = no_production(rules, state, power, where)
            raise RuleViolation(f"{power} cannot place in {where}: {why}", rule)
        if room < n:
            damage = sum(u.damage for u in state.units_at(where, power) if rules.ut(u).has("factory"))
            raise RuleViolation(f"the factory in {where} can place {room} more units this turn, not {n}"
                                + (f" (its damage of {damage} takes {damage} off its production)" if damage else ""),
                                "BG-35")
        producer = where
    if producer:
        placed[producer] = placed.get(producer, 0) + n
    for uc in order.units:
        pending[uc.unit] -= uc.count
        if not pending[uc.unit]:
            del pending[uc.unit]
        if rules.ut(uc.unit).has("factory") and not _consumed(rules, uc.unit):
            rules.new_factory_placed(state, where)
        for _ in range(uc.count):
            _consume(rules, state, power, where, uc.unit)
            state.add_unit(uc.unit, rules.placed_owner(power, uc.unit, where), where).mark(placed=True)
    return {"type": "place", "power": power, "place": where, "units": {uc.unit: uc.count for uc in order.units}}


def _pending(state: State, power: str, order: Place) -> tuple[dict[str, int], dict[str, int]]:
    """The power's units bought and not placed yet, and those `order` places, which must be among them."""
    pending = state.purchases.get(power, {})
    wanted = _counted(order.units)           # a type may be named twice in one order (`place 1 art X, 1 art X`)
    for unit, count in wanted.items():
        if pending.get(unit, 0) < count:
            raise RuleViolation(f"{power} has {pending.get(unit, 0)} {unit} waiting to be placed, not {count}", "BG-35")
    return pending, wanted


def place_bid(rules: MapFacts, state: State, power: str, order: Place, placed: dict[str, int]) -> dict:
    """RULINGS.md "bid": units bought with a bid go, without a factory, where the power already has a unit of its
    own (not a facility or marker): land and air units on land it controls (or a power whose units it receives, UK_Pacific's for the British),
    ships in a sea zone free of enemy units; at most `rules.bid_units_per_place` of them in one place (`placed`
    counts those of this bid so far)."""
    pending, wanted = _pending(state, power, order)
    where = order.place
    n = sum(wanted.values())
    domains = {rules.ut(unit).domain for unit in wanted}
    own = [u for u in state.units_at(where, power) if not u.flags.get("placed") and rules.is_combatant(u)]
    owner = state.owners.get(where)
    if rules.is_water(where):
        if domains != {"sea"}:
            raise RuleViolation(f"a bid places only ships in a sea zone such as {where}; land and air units go on "
                                f"land where {power} have units (RULINGS.md \"bid\")")
        if not own:
            raise RuleViolation(f"bid ships go only into a sea zone that already holds a unit of {power}; {where} "
                                "holds none (RULINGS.md \"bid\")")
        if rules.hostile_units(state, power, where):
            raise RuleViolation(f"bid ships go only into a sea zone free of enemy units; {where} has some "
                                "(RULINGS.md \"bid\")")
    else:
        if "sea" in domains:
            raise RuleViolation(f"ships bought with a bid are placed in a sea zone, not in {where} (RULINGS.md \"bid\")")
        if owner != power and (owner is None or rules.placed_owner(owner, "", where) != power):
            raise RuleViolation(f"bid units go only on land held by {power}; {where} is held by {owner or 'nobody'} "
                                "(RULINGS.md \"bid\")")
        if not own:
            raise RuleViolation(f"bid units go only where a unit of {power} already is; {where} holds none "
                                "(RULINGS.md \"bid\")")
    room = rules.bid_units_per_place - placed.get(where, 0)
    if n > room:
        limit = rules.bid_units_per_place
        raise RuleViolation(f"a territory or sea zone takes at most {limit} bid unit{'s' if limit != 1 else ''}; "
                            f"{where} can take {max(room, 0)} more, not {n}: spread them over other places "
                            "(RULINGS.md \"bid\")")
    rules.check_placement(state, power, where, wanted)
    placed[where] = placed.get(where, 0) + n
    for unit, count in wanted.items():
        pending[unit] -= count
        if not pending[unit]:
            del pending[unit]
        for _ in range(count):
            state.add_unit(unit, rules.placed_owner(power, unit, where), where).mark(placed=True)
    return {"type": "place", "power": power, "place": where, "units": wanted, "bid": True}


def _counted(units) -> dict[str, int]:
    """Unit type -> how many an order names (a type may be named twice: `buy 1 art, 1 art`)."""
    out: dict[str, int] = {}
    for uc in units:
        out[uc.unit] = out.get(uc.unit, 0) + uc.count
    return out


def _check_deck(rules: MapFacts, state: State, power: str, where: str, order: Place) -> None:
    """BG-15: new fighters and tactical bombers go onto the power's own carriers in the zone: new ones (placed
    this turn or in this order) and, where the map allows, carriers already at sea; never beyond their room."""
    planes = [uc for uc in order.units if rules.ut(uc.unit).domain == "air"]
    if any(not rules.ut(uc.unit).carrier_cost for uc in planes):
        raise RuleViolation("only aircraft that land on carriers are placed at sea, onto a carrier", "BG-15")
    new_ok, old_ok = rules.prop("Produce fighters on carriers"), rules.prop("Produce new fighters on old carriers")
    owners = {power, rules.placed_owner(power, "", where)}
    decks = [u for u in state.units_at(where) if u.owner in owners and rules.ut(u).carrier_capacity and not u.damage
             and (new_ok if u.flags.get("placed") else old_ok)]
    room = sum(rules.ut(u).carrier_capacity for u in decks)
    if new_ok:
        room += sum(rules.ut(uc.unit).carrier_capacity * uc.count for uc in order.units)
    room -= sum(rules.ut(u).carrier_cost or 1 for u in state.units_at(where)
                if rules.is_air(u) and rules.friendly(state, power, u.owner))
    need = sum((rules.ut(uc.unit).carrier_cost or 1) * uc.count for uc in planes)
    if need > room:
        kinds = "new carriers" + (" or carriers already there" if old_ok else "")
        raise RuleViolation(f"new aircraft are placed at sea only onto {possessive(power, the=True)} {kinds} with room; "
                            f"{where} has room for {max(room, 0)}, not {need}", "BG-15")


def _consumed(rules: MapFacts, name: str) -> list[str]:
    """The units a placed unit replaces (the map's consumesUnits: a factory upgrade consumes a minor factory)."""
    return [f[1] for f in rules.fields(name, "consumesUnits") if len(f) == 2 and f[0].isdigit()
            for _ in range(int(f[0]))]


def _consume(rules: MapFacts, state: State, power: str, where: str, name: str) -> None:
    for unit in _consumed(rules, name):
        gone = next(u for u in state.units_at(where, power) if u.type == unit)
        state.remove_units([gone.id])


def _check_facility(rules: MapFacts, state: State, power: str, where: str, facilities: list[str]) -> None:
    """BG-34: facilities go on land held since the start of the turn, one of each kind per territory; from the
    map's unit data, a major factory only on a territory the power owned at the start of the game
    (canOnlyPlaceInOriginalTerritories), none on the territories it lists (unitPlacementRestrictions), and an
    upgrade only over the factory it consumes (consumesUnits)."""
    if rules.is_water(where) or state.owners.get(where) != power or where in state.conquered:
        raise RuleViolation(f"facilities are placed on a territory {power} held at the start of the turn; {where} is not one", "BG-34")
    for name in facilities:
        t = rules.ut(name)
        if "canOnlyPlaceInOriginalTerritories" in rules.names(name, "special") and state.original_owners.get(where) != power:
            raise RuleViolation(f"a {name} is placed only on a territory {power} owned at the start of the game; "
                                f"{where} is not one", "BG-34")
        if where in rules.names(name, "unitPlacementRestrictions"):
            raise RuleViolation(f"a {name} may not be placed on {where}", "BG-34")
        consumed = _consumed(rules, name)
        here = [u.type for u in state.units_at(where, power) if not u.flags.get("placed")]
        if consumed:
            missing = [unit for unit in set(consumed) if here.count(unit) < consumed.count(unit) * facilities.count(name)]
            if missing:
                raise RuleViolation(f"a {name} replaces a {', '.join(missing)} that {power} had in {where} at the "
                                    "start of the turn; there is none", "BG-34")
            continue
        if facilities.count(name) > 1 or any(u.type == name for u in state.units_at(where)):
            raise RuleViolation(f"{where} may have only one {name}", "BG-34")
        need = t.options.get("canOnlyBePlacedInTerritoryValuedAtX")
        if need and rules.scenario.territory(where).production < int(need[0]):
            raise RuleViolation(f"a {name} needs a territory worth at least {need[0]}; {where} is worth "
                                f"{rules.scenario.territory(where).production}", "BG-34")
        if t.has("factory") and any(rules.ut(u).has("factory") for u in state.units_at(where)):
            raise RuleViolation(f"{where} already has a factory", "BG-34")


def collect_income(rules: MapFacts, state: State, power: str, convoy_loss: int = 0) -> dict:
    """BG-37: the power's income, less what convoy disruption cost it this turn (never below nothing)."""
    amount, lines = rules.income(state, power)
    if convoy_loss and amount:
        cut = min(convoy_loss, amount)
        amount -= cut
        lines = lines + [{"item": "convoy disruption", "amount": -cut}]
    state.treasury[power] = state.treasury.get(power, 0) + amount
    pay_objectives(state, [line for line in lines if line["item"] == "objective"])
    return {"type": "income", "power": power, "income": amount, "lines": lines, "treasury": state.treasury[power]}


def lose_unplaced(state: State, power: str) -> list[dict]:
    """Units bought and not placed by the end of the turn are lost, their cost not refunded (TripleA's default:
    "Unplaced units live when not placed" off)."""
    lost = state.purchases.pop(power, None)
    return [{"type": "unplaced_lost", "power": power, "units": dict(lost)}] if lost else []


def grant_per_valued_territory(rules: MapFacts, state: State, power: str) -> list[dict]:
    """TripleA's NoPUPurchaseDelegate under "Production Per Valued Territory Restricted" (CL-16): a power that
    buys nothing (China) is given, to place this turn, one infantry for each territory with a value it holds, and
    under "Pacific Theater" one more while its side holds every territory of the Burma Road (rules.burma_road)."""
    held = sorted(t for t, o in state.owners.items()
                  if o == power and not rules.is_water(t) and rules.scenario.territory(t).production > 0)
    road = bool(rules.burma_road) and rules.prop("Pacific Theater") and all(
        rules.is_friendly_land(state, power, t) for t in rules.burma_road)
    count = len(held) + road
    if not count:
        return []
    bought = state.purchases.setdefault(power, {})
    bought["infantry"] = bought.get("infantry", 0) + count
    road_words = f", and 1 for the Burma Road ({', '.join(rules.burma_road)}) held" if road else ""
    return [{"type": "rule", "rule": "CL-16", "power": power, "units": {"infantry": count},
             "text": f"{power} receive {count} infantry to place: 1 for each territory with a value they hold "
                     f"({', '.join(held) or 'none'}){road_words}"}]
