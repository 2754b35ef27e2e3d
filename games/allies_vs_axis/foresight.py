"""What a turn's orders can be known to fail before the spin (RULINGS.md "refused-at-submit").

Of a turn posted before its spin, only the spin is unknown (and the one Fortune card a landing may draw): the money
and units the player has, this turn's income (collected before any dice), the ransom and step prices, the cards it
holds and what every space is to it are all known at `submit`. An order that no spin can make legal is refused
there with the reason, never accepted and then voided; one that some spin makes legal is played, or reported void
or not played, once the token has landed.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State
from adjudicator.words import named

from . import army, cards, turn
from .orders import condition_text, meets
from .rules import order_error

SPINS = range(1, 7)


def refusals(rules, state: State, orders: list) -> list:
    power = state.power
    orders = [o for o in orders if o.phase]               # not `end`
    income = rules.yields(state, power)
    ransom = next((o for o in orders if o.action == "ransom" and o.choice == "pay"), None)
    cash = state.treasury[power] + income["money"]
    errors = []
    if ransom:
        price = turn.ransom_price(rules, state, power)
        if price > cash:
            return [order_error(ransom, f"the ransom is $M {price}, and {named(power)} have "
                                        f"$M {state.treasury[power]} and collect $M {income['money']} before it is asked: "
                                        "answer `ransom refuse`",
                                "AV-43")]
        cash -= price
    steps = [o for o in orders if o.action == "step"]
    errors += _steps(rules, state, steps, cash)
    shifts = {0} | {o.steps for o in steps}
    token = state.board["tokens"][power]
    landings = [(n, rules.spaces[rules.advance(token, n + k) - 1]) for n in SPINS for k in shifts]
    kinds = {s: rules.land_kind(state, power, s) for s in rules.spaces}
    best = _best_fortune(rules)
    ceiling = _Ceiling(cash + best.pop("money"), {
        u: state.board["pools"][power].get(u, 0) + income[u] + best[u] + sum(
            n.count for o in orders if o.action == "recruit" for n in o.units if n.unit == u) for u in army.UNITS})
    anywhere = [(n, s) for n in SPINS for s in rules.spaces]
    actions = [o for o in orders if o.phase == "actions"]
    for i, o in enumerate(actions):
        why = _wrong_on(rules, state, o, actions[:i], anywhere if o.condition else landings, kinds, ceiling)
        if why:
            errors.append(order_error(o, why.message, why.rule))
    return errors


def _wrong_on(rules, state: State, o, before: list, landings: list, kinds: dict[str, str],
              ceiling: _Ceiling) -> RuleViolation | None:
    """Why `o` cannot be played on any of `landings` (spin, space) its condition holds on, or None.

    A conditional order is checked on every landing of the board, in reach this turn or not, the position otherwise
    as it is: refusing it never hangs on where the token stands, so a standing post is judged the same every turn;
    one that some landing lets play waits for it, reported as not played until then (RULINGS.md
    "refused-at-submit"). A condition nothing meets is no error: the order is not played."""
    where = [(n, s) for n, s in landings if meets(o.condition, n, s, kinds[s])]
    if not where:
        return None
    try:
        _action(rules, state, o, before, where, kinds, ceiling)
    except RuleViolation as exc:
        return exc
    return None


class _Ceiling:
    """The most money and units the player can have in the actions phase: what it has, this turn's income, the best
    Fortune card, and (for units) every unit its recruit orders buy."""

    def __init__(self, money: int, units: dict[str, int]):
        self.money = money
        self.units = units

    def pay(self, price: int, what: str, rule: str) -> None:
        if price > self.money:
            raise RuleViolation(f"{what} costs $M {price}, and the most the player can have this turn, with its "
                                f"income and the best Fortune card, is $M {self.money}", rule)

    def hold(self, units: dict[str, int], rule: str) -> None:
        over = army.short_of(self.units, units)
        if over:
            raise RuleViolation(f"more units than the player can have this turn, with its income, the best Fortune "
                                f"card and its recruits: at most {army.phrase(over)}", rule)


def _steps(rules, state: State, steps: list, cash: int) -> list:
    """AV-37: each step order must be payable from the money after income and ransom; after an unconditional one,
    which is then always bought, no other can be."""
    power = state.power
    errors = []
    first = None
    for o in steps:
        price = turn.step_price(rules, state, power, o.steps)
        if price > cash:
            why = (f"a strategic move of {o.steps:+d} costs $M {price}, and {named(power)} will have $M {cash} "
                   "when it is bought (with this turn's income)")
        elif first is not None:
            why = f"one strategic move a turn, and `{first.canonical()}` before this order is always bought"
        else:
            if not o.condition:
                first = o
            continue
        errors.append(order_error(o, why, "AV-37"))
    return errors


def _best_fortune(rules) -> dict[str, int]:
    """The most money and the most of each unit one Fortune card drawn on landing gives the drawer."""
    gains = [c for c in rules.data["cards"]["fortune"] if c.get("who", "self") == "self"]
    return {"money": max([c.get("amount", 0) for c in gains if c["effect"] == "money"] + [0]),
            **{u: max([c["units"].get(u, 0) for c in gains if c["effect"] == "units"] + [0]) for u in army.UNITS}}


def _action(rules, state: State, o, before: list, where: list, kinds: dict[str, str], ceiling: _Ceiling) -> None:
    """Raises why `o` cannot be carried out on any landing `where` (spin, space) its condition lets it play."""
    power = state.power
    places = {s for _, s in where}
    under = f" under `if {condition_text(o.condition)}`" if o.condition else ""
    units = army.tally(o.units)
    if o.action == "recruit":
        ceiling.pay(rules.recruit_cost(units), f"recruiting {army.phrase(units)}",
                    "AV-41")
    elif o.action == "treaty":
        prices = []
        for space in places:
            try:
                prices.append(turn.treaty_terms(rules, state, power, space)[0])
            except RuleViolation:
                continue
        if not prices:
            raise RuleViolation(f"a treaty is signed on a neutral country or secret space, or an unchosen Main "
                                f"Territory of one's side, and the token lands on none{under}", "AV-13")
        ceiling.pay(min(prices), "the treaty", "AV-14")
        if any(b.action == "treaty" and b.condition == o.condition for b in before):
            raise RuleViolation("the same treaty twice: once the first is signed the space is the player's, and if it "
                                "cannot be, neither can this one", "AV-13")
    elif o.action == "invade":
        if not any(kinds[s] == "neutral" or (kinds[s] == "opponent" and rules.kind(s) != "secret"
                                               and not rules.natural_ally(s)) for s in places):
            raise RuleViolation(f"only a neutral or an opponent's country can be invaded, and the token lands on "
                                f"none{under}", "AV-13")
        ceiling.hold(units, "AV-29")
    elif o.action in ("defend", "withdraw"):
        _army_change(rules, state, o, units, before, places, ceiling)
    else:
        _card(rules, state, o, before, where, kinds, ceiling, under)


def _army_change(rules, state: State, o, units: dict[str, int], before: list, places: set[str], ceiling) -> None:
    power, place = state.power, o.place
    if rules.kind(place) not in ("territory", "main") or rules.natural_ally(place):
        raise RuleViolation(f"{place} holds no defend army: only a general territory or a player's Main Territory "
                            "does", "AV-22")
    if set(units) - set(rules.allowed_units(place)):
        raise RuleViolation(f"{place} has no seaport: its defend army holds no battleships", "AV-23")
    if place not in places:
        raise RuleViolation(f"a defend army is changed where the token lands, and it never lands on {place}"
                            + (f" under `if {condition_text(o.condition)}`" if o.condition else " this turn"), "AV-22")
    if state.owners.get(place) != power and not any(b.action in ("treaty", "invade") for b in before):
        raise RuleViolation(f"{place} does not belong to {named(power)}, and no treaty or invasion before this order "
                            "takes it", "AV-22")
    if o.action == "defend":
        ceiling.hold(units, "AV-22")
        return
    there = dict(state.board["armies"].get(place, {}))
    for b in before:
        if b.action == "defend" and b.place == place:
            army.add(there, army.tally(b.units))
    over = army.short_of(there, units)
    if over:
        raise RuleViolation(f"the defend army of {place} has at most {army.phrase(over)} to take back", "AV-22")


def _card(rules, state: State, o, before: list, where: list, kinds: dict[str, str], ceiling, under: str) -> None:
    power = state.power
    places = {s for _, s in where}
    held = state.board["hands"][power].count(o.card)
    earlier = [b for b in before if b.action == "card" and b.card == o.card
               and any(meets(b.condition, n, s, kinds[s]) for n, s in where)]
    if held and len(earlier) >= held:
        raise RuleViolation(f"{power} hold {held} {o.card} card{'s' if held > 1 else ''}, and the orders before this "
                            "one play it already", "AV-36")
    spec = cards.card(rules, o.card)
    ceiling.pay(spec.get("cost", 0), o.card, "AV-36")
    if not any(kinds[s] == "opponent" for s in places):
        raise RuleViolation(f"a strategy card is played on an opponent's space, and the token lands on none{under}",
                            "AV-36")
    if spec["effect"] == "espionage":
        if o.target and (rules.kind(o.target) != "secret" or not rules.opponents(
                state, power, state.owners.get(o.target, power))):
            raise RuleViolation(f"Espionage destroys an opponent's secret base; {o.target} is not one", "AV-18")
        if not o.target and not any(kinds[s] == "opponent" and rules.kind(s) == "secret" for s in places):
            raise RuleViolation("Espionage without a target destroys the secret base landed on, and the token lands "
                                f"on no opponent's secret base{under}: name the base", "AV-18")
    elif o.target and o.target not in places:
        raise RuleViolation(f"{o.card} acts on the space landed on, and the token never lands on {o.target}{under}",
                            "AV-36")
