"""A player's turn of Allies vs. Axis: the spin phase (resources, ransom, spin, strategic move, landing) and the
actions phase (treaty, invasion, defend army, recruits, cards), then the end of the turn.

`check` reads a submission without dice: what the spin decides is unknown, so it refuses what no spin can make
legal (foresight.py); once the token has landed (the cursor in the actions phase) it plays the actions on a trial and
refuses every one that cannot be carried out. `play` plays for real, and an order the spin made impossible is
reported void; a conditional order whose condition does not hold where the token landed is reported as not played,
and so is every order left when imprisonment ends the turn early.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.turn import StepResult
from adjudicator.state import State
from adjudicator.words import named

from . import army, cards, foresight
from .cards import note
from .orders import meets
from .rules import PHASES, order_error


def check(rules, state: State, orders: list, ended: bool) -> list:
    errors = []
    covered = rules.covered_phases(state, orders, ended)
    power = state.power
    board = state.board
    if "spin" in covered:
        errors += _check_spin_phase(rules, state, orders)
        if not errors:
            errors += foresight.refusals(rules, state, orders)
    for o in orders:
        if o.phase == "actions" and o.action == "card" and o.card not in board["hands"][power]:
            errors.append(order_error(o, f"{power} hold no {o.card} card (they hold "
                                         f"{', '.join(board['hands'][power]) or 'none'})", "AV-36"))
    if state.phase == "actions" and not errors:
        with state.trial() as trial:
            _actions(rules, trial, [o for o in orders if o.phase == "actions"], errors)
    return errors


def _check_spin_phase(rules, state: State, orders: list) -> list:
    power = state.power
    mine = [o for o in orders if o.phase == "spin"]
    ransoms = [o for o in mine if o.action == "ransom"]
    spins = [o for o in mine if o.action == "spin"]
    actions = [o for o in orders if o.phase == "actions"]
    errors = [order_error(o, f"`{o.action}` cannot be conditional: it does not depend on the spin", "AV-08")
              for o in ransoms + spins if o.condition]
    prison = state.board["prisons"].get(power)
    if prison and not ransoms:
        errors.append(order_error(mine[0] if mine else (actions or orders)[0],
                                  f"{power} are imprisoned in {prison}: the turn begins with `ransom pay` "
                                  f"($M {ransom_price(rules, state, power)}) or `ransom refuse`", "AV-43"))
    if ransoms and not prison:
        errors.append(order_error(ransoms[0], f"{power} are not imprisoned: there is no ransom to pay or refuse", "AV-43"))
    errors += [order_error(o, "one ransom order a turn", "AV-43") for o in ransoms[1:]]
    refused = bool(ransoms) and ransoms[0].choice == "refuse"
    if refused:
        errors += [order_error(o, "refusing the ransom ends the turn in prison: nothing else is played", "AV-43")
                   for o in spins + actions + [o for o in mine if o.action == "step"]]
    elif not spins:
        errors.append(order_error((actions or mine or orders)[0], "the turn begins with `spin`: no action may be "
                                  "taken before spinning", "AV-12"))
    errors += [order_error(o, "one spin a turn", "AV-08") for o in spins[1:]]
    return errors


def play(rules, state: State, orders: list, ended: bool, roller, hashed: bool = True) -> list[StepResult]:
    steps = []
    turn = state.turn_index
    power = state.power
    for phase in rules.covered_phases(state, orders, ended):
        before = len(roller.groups)
        mine = [o for o in orders if o.phase == phase]
        events = _spin(rules, state, mine, roller) if phase == "spin" else _actions(rules, state, mine, None)
        if state.turn_index == turn:
            if phase == PHASES[-1]:
                events += end_turn(rules, state)
            else:
                state.phase = PHASES[PHASES.index(phase) + 1]
        else:
            later = [o for o in orders if o.phase in PHASES and PHASES.index(o.phase) > PHASES.index(phase)]
            events += _cut_short(state, power, later)
        steps.append(StepResult(phase, events, list(roller.groups[before:]), state.hash() if hashed else ""))
        if state.turn_index != turn:
            break
    return steps


# -- spin phase -------------------------------------------------------------------------------------

def _spin(rules, state: State, orders: list, roller) -> list[dict]:
    power = state.power
    board = state.board
    events = [_collect(rules, state, power)]
    prison = board["prisons"].get(power)
    if prison:
        if next(o.choice for o in orders if o.action == "ransom") == "refuse":
            events.append(note(f"{power} refuse the ransom and stay imprisoned in {prison}; the turn ends.", "AV-43"))
            return events + end_turn(rules, state)
        price = ransom_price(rules, state, power)      # submit refused a `ransom pay` the player could not pay
        owner = state.owners.get(prison)
        state.treasury[power] -= price
        if owner and owner not in board["out"]:
            state.treasury[owner] += price
        del board["prisons"][power]
        events.append({**note(f"{power} pay a ransom of $M {price} to {owner or 'the bank'} and are released "
                              f"from {prison}.", "AV-46"), "what": "ransom", "paid": price, "to": owner})
    n = roller.roll(f"spin:{power}", 6, 1, ["spin"])[0]
    board["spun"] = n
    _move(rules, state, power, n)
    here = rules.position_of(state, power)
    events.append({**note(f"{power} spin {n} and move to {here} (space {board['tokens'][power]}).", "AV-08"),
                   "what": "spin", "value": n, "space": here})
    events += _strategic_move(rules, state, orders)
    return events + _land(rules, state, power, roller)


def _collect(rules, state: State, power: str) -> dict:
    """AV-09: the resources of every space the power owns, before it spins."""
    got = rules.yields(state, power)
    state.treasury[power] += got["money"]
    army.add(state.board["pools"][power], {u: got[u] for u in army.UNITS})
    units = {u: got[u] for u in army.UNITS if got[u]}
    return {**note(f"{power} collect $M {got['money']} and {army.phrase(units)} from their spaces "
                   f"($M {state.treasury[power]}).", "AV-09"), "what": "collect", "money": got["money"]}


def _move(rules, state: State, power: str, steps: int) -> None:
    tokens = state.board["tokens"]
    tokens[power] = rules.advance(tokens[power], steps)


def step_price(rules, state: State, power: str, steps: int) -> int:
    """AV-38, AV-39 (RULINGS.md "step-price"): the power's own purchases so far set the price of one step."""
    bought = state.board["steps"][power]
    one = (rules.price("step_more_players") * (bought + 1) if rules.many()
           else rules.price("step_two_players") * 2 ** bought)
    return one * abs(steps)


def _strategic_move(rules, state: State, orders: list) -> list[dict]:
    """AV-37, AV-40 (RULINGS.md "strategic-window"): the first step order whose condition holds where the spin
    landed is bought (submit refused every one the power could not pay); one a turn."""
    power = state.power
    landed = landing(rules, state)
    events = []
    bought = False
    for o in (o for o in orders if o.action == "step"):
        if not meets(o.condition, *landed[:3]):
            events.append(_not_played(o, landed))
            continue
        price = step_price(rules, state, power, o.steps)
        if bought:
            events.append(_void(o, "one strategic move a turn", "AV-37"))
        else:
            state.treasury[power] -= price
            state.board["steps"][power] += 1
            _move(rules, state, power, o.steps)
            bought = True
            here = rules.position_of(state, power)
            events.append({**note(f"{power} buy a strategic move of {o.steps:+d} for $M {price} and go to {here}.",
                                  "AV-37"), "what": "step", "steps": o.steps, "paid": price, "space": here})
    return events


def _land(rules, state: State, power: str, roller) -> list[dict]:
    here = rules.position_of(state, power)
    kind = rules.land_kind(state, power, here)
    if kind == "fortune":
        return cards.draw(rules, state, power, "fortune", roller)
    if kind == "strategy":
        return cards.draw(rules, state, power, "strategy", roller)
    if kind == "friendly":
        return [note(f"{here} belongs to {state.owners[here]}, an ally: a plain visit.", "AV-21")]
    if kind != "opponent":
        return []
    if rules.kind(here) == "secret":
        return [note(f"{here} is a secret base of {state.owners[here]}: armies cannot reach it.", "AV-18")]
    if rules.natural_ally(here):
        return [note(f"{here} is a Natural Ally of {state.owners[here]}: no army can touch it.", "AV-20")]
    return _penalty(rules, state, power, here)


def _penalty(rules, state: State, power: str, here: str) -> list[dict]:
    """AV-24 to AV-28: the rate of the defend power, rounded up, paid in whole units weakest first."""
    rate = rules.settings(state)["penalty_percent"]
    defend = rules.defend_power(state, here)
    due = -(-rate * defend // 100)
    pool = state.board["pools"][power]
    allowed = rules.allowed_units(here)
    taken, owed = army.weakest_first(pool, due, rules.power_of, allowed)
    army.take(pool, taken)
    events = [{**note(f"{power} land on {here} of {state.owners[here]} and pay a penalty of {due} "
                      f"({rate}% of defend power {defend}): {army.phrase(taken)}"
                      + (f", {owed} unpaid." if owed else "."), "AV-24"),
               "what": "penalty", "due": due, "taken": taken}]
    if due and not any(pool.get(u) for u in allowed):
        events += imprison(rules, state, power, here)
    return events


def imprison(rules, state: State, power: str, here: str) -> list[dict]:
    """AV-27, AV-42, AV-48: imprisoned where the penalty took the last unit; the turn ends at once."""
    board = state.board
    board["prisons"][power] = here
    board["imprisoned"][power] += 1
    times = board["imprisoned"][power]
    events = [{**note(f"{power} have no units left: imprisoned in {here} (imprisonment {times} of "
                      f"{rules.prison_limit(state)}); the turn ends.", "AV-27"), "what": "imprisoned", "times": times}]
    if times >= rules.prison_limit(state):
        events += knock_out(rules, state, power, f"imprisoned {times} times", "AV-48")
    return events + end_turn(rules, state)


def ransom_price(rules, state: State, power: str) -> int:
    """AV-44, AV-45: grows with each imprisonment of the power."""
    times = state.board["imprisoned"][power]
    return times * rules.price("ransom_more_players" if rules.many() else "ransom_two_players")


# -- actions phase ----------------------------------------------------------------------------------

def _actions(rules, state: State, orders: list, errors: list | None) -> list[dict]:
    """The actions in the order written, each condition read against where the token landed (RULINGS.md
    "conditions"): the actions phase begins when the token comes to rest, so the space is as it was then."""
    events = []
    landed = landing(rules, state)
    for o in orders:
        if not meets(o.condition, *landed[:3]):
            events.append(_not_played(o, landed))
            continue
        try:
            events.append(_act(rules, state, state.power, o))
        except RuleViolation as exc:
            if errors is None and o.condition:
                events.append(_not_played(o, landed, exc))
            elif errors is None:
                events.append(_void(o, exc.message, exc.rule))
            else:
                errors.append(order_error(o, exc.message, exc.rule))
    return events


def _act(rules, state: State, power: str, o) -> dict:
    if o.action == "recruit":
        return _recruit(rules, state, power, o)
    if o.action == "card":
        return cards.play_card(rules, state, power, o.card, o.target)
    here = rules.position_of(state, power)
    if o.action == "treaty":
        return _treaty(rules, state, power, here)
    if o.action == "invade":
        return _invade(rules, state, power, here, o)
    if o.action == "withdraw":
        return _withdraw(rules, state, power, here, o)
    return _defend(rules, state, power, here, o)


def _pay(state: State, power: str, price: int, what: str, rule: str) -> None:
    if state.treasury[power] < price:
        raise RuleViolation(f"{what} costs $M {price}; {power} have $M {state.treasury[power]}", rule)
    state.treasury[power] -= price


def _recruit(rules, state: State, power: str, o) -> dict:
    """AV-41 (RULINGS.md "recruit-prices")."""
    units = army.tally(o.units)
    cost = rules.recruit_cost(units)
    _pay(state, power, cost, f"recruiting {army.phrase(units)}", "AV-41")
    army.add(state.board["pools"][power], units)
    return {**note(f"{power} recruit {army.phrase(units)} for $M {cost} ($M {state.treasury[power]} left).", "AV-41"),
            "what": "recruit", "units": units, "paid": cost}


def treaty_terms(rules, state: State, power: str, here: str) -> tuple[int, str, str]:
    """What `treaty` on `here` buys and its price: (price, what, rule); a RuleViolation where none can be signed."""
    kind = rules.land_kind(state, power, here)
    if kind == "neutral":
        return (rules.price("treaty") + rules.price("treaty_rise") * state.board["treaties"][power],
                f"a treaty with {here}", "AV-14")
    if kind == "secret":
        return rules.price("secret_base"), f"a secret base in {here}", "AV-16"
    if kind == "other side's ally":
        raise RuleViolation(f"{here} is a Natural Ally of the {rules.side(rules.scenario.territory(here).capital)} "
                            "only", "AV-19")
    if kind == "ally":
        return rules.price("natural_ally"), f"{here} as a Natural Ally", "AV-19"
    raise RuleViolation(f"a treaty is signed on a neutral space; {here} is "
                        f"{_kind_words(here, kind, state.owners.get(here))}", "AV-13")


def _treaty(rules, state: State, power: str, here: str) -> dict:
    _once_a_turn(state, here)
    price, what, rule = treaty_terms(rules, state, power, here)
    _pay(state, power, price, what, rule)
    if rule == "AV-14":
        state.board["treaties"][power] += 1
        what += ": it joins them with its defend army"
    state.owners[here] = power
    return {**note(f"{power} pay $M {price} for {what}.", rule), "what": "treaty", "space": here}


def _once_a_turn(state: State, here: str) -> None:
    """RULINGS.md "estrangement": a country estranged this turn does not change hands again before a later turn."""
    if state.board.get("estranged") == here:
        raise RuleViolation(f"{here} was estranged this turn: one action on a territory a turn, so it can be signed "
                            "or invaded only on a later landing", "AV-12")


def _invade(rules, state: State, power: str, here: str, o) -> dict:
    _once_a_turn(state, here)
    kind = rules.land_kind(state, power, here)
    pool = state.board["pools"][power]
    defend = rules.defend_power(state, here)
    spare = 0
    if kind == "neutral":
        need = max(1, defend)                       # RULINGS.md "neutral-invasion"
        units = {"infantry": need} if o.auto else army.tally(o.units)
        if set(units) - {"infantry"}:
            raise RuleViolation("only infantry invades a neutral country", "AV-15")
        if units["infantry"] < need:
            raise RuleViolation(f"invading {here} takes {need} infantry (its defend power)", "AV-15")
        spare = units["infantry"] - need            # RULINGS.md "neutral-overcommit": the set price, not the order
        units = {"infantry": need}
        rule = "AV-15"
    elif kind == "opponent" and rules.kind(here) == "secret":
        raise RuleViolation(f"{here} is a secret base: armies cannot reach it, only Espionage can", "AV-18")
    elif kind == "opponent" and rules.natural_ally(here):
        raise RuleViolation(f"{here} is a Natural Ally: no army can invade it", "AV-20")
    elif kind == "opponent":
        allowed = rules.allowed_units(here)
        if o.auto:
            units, owed = army.weakest_first(pool, max(1, defend), rules.power_of, allowed)
            if owed:
                raise RuleViolation(f"{power} have too few units to match the defend power {defend} of {here}", "AV-29")
        else:
            units = army.tally(o.units)
        if set(units) - set(allowed):
            raise RuleViolation(f"{here} has no seaport: battleships cannot invade it", "AV-30")
        attack = army.attack_power(units, rules.power_of)
        if attack < defend or not units:
            raise RuleViolation(f"attack power {attack} is less than the defend power {defend} of {here}", "AV-29")
        rule = "AV-29"
    else:
        raise RuleViolation(f"only a neutral or an opponent's country can be invaded; {here} is "
                            f"{_kind_words(here, kind, state.owners.get(here))}", "AV-13" if kind != "friendly" else "AV-21")
    short = army.short_of(pool, units)
    if short:
        raise RuleViolation(f"{power} have only {army.phrase(short)} to invade with",
                            rule)
    army.take(pool, units)
    previous = state.owners.get(here)
    state.board["armies"].pop(here, None)
    state.owners[here] = power
    taken = f" from {previous}" if previous else ""
    return {**note(f"{power} invade {here}{taken} with {army.phrase(units)} (attack {army.attack_power(units, rules.power_of)}"
                   f" against defend power {defend}); the army and the defenders are spent, and {here} is theirs."
                   + (f" The {spare} infantry ordered beyond its price stay in the pool." if spare else ""),
                   rule), "what": "invade", "space": here, "units": units, "from": previous}


def _garrison(rules, state: State, power: str, here: str, o) -> dict[str, int]:
    """AV-22, AV-23: the units of a `defend` or `withdraw` order, given on the own territory landed on."""
    if o.place != here:
        raise RuleViolation(f"a defend army is built where the token lands; it is on {here}, not {o.place}", "AV-22")
    if state.owners.get(here) != power or rules.kind(here) not in ("territory", "main") or rules.natural_ally(here):
        raise RuleViolation(f"{here} is not a territory of {named(power)} that holds a defend army", "AV-22")
    units = army.tally(o.units)
    if set(units) - set(rules.allowed_units(here)):
        raise RuleViolation(f"{here} has no seaport: its defend army holds no battleships", "AV-23")
    return units


def _withdraw(rules, state: State, power: str, here: str, o) -> dict:
    """AV-22 (RULINGS.md "withdraw"): units of the defend army back into the pool, the app's "-" button."""
    units = _garrison(rules, state, power, here, o)
    garrison = state.board["armies"].setdefault(here, {})
    short = army.short_of(garrison, units)
    if short:
        raise RuleViolation(f"the defend army of {here} has only {army.phrase(short)}", "AV-22")
    army.take(garrison, units)
    army.add(state.board["pools"][power], units)
    return {**note(f"{power} take {army.phrase(units)} from the defend army of {here} back into their pool (defend "
                   f"power {rules.defend_power(state, here)}).", "AV-22"), "what": "withdraw", "space": here,
            "units": units}


def _defend(rules, state: State, power: str, here: str, o) -> dict:
    """AV-22, AV-23: units from the pool into the defend army of the own territory landed on."""
    units = _garrison(rules, state, power, here, o)
    pool = state.board["pools"][power]
    short = army.short_of(pool, units)
    if short:
        raise RuleViolation(f"{power} have only {army.phrase(short)} in their pool", "AV-22")
    army.take(pool, units)
    army.add(state.board["armies"].setdefault(here, {}), units)
    return {**note(f"{power} add {army.phrase(units)} to the defend army of {here} (defend power "
                   f"{rules.defend_power(state, here)}).", "AV-22"), "what": "defend", "space": here, "units": units}


def _kind_words(here: str, kind: str, owner: str | None) -> str:
    return {"own": "their own", "friendly": f"an ally's ({owner})", "fortune": "a Fortune space",
            "strategy": "a Strategy space", "opponent": f"an opponent's ({owner})",
            "neutral": "neutral", "secret": "a neutral secret space", "ally": "a neutral Main Territory",
            "other side's ally": "a Main Territory no player chose, of the other side"}[kind]


# -- conditions -------------------------------------------------------------------------------------

def landing(rules, state: State) -> tuple:
    """(spin, space, kind, owner) where the token stands, before any action: what conditions are read against."""
    here = rules.position_of(state, state.power)
    return state.board.get("spun"), here, rules.land_kind(state, state.power, here), state.owners.get(here)


def _not_played(o, landed: tuple, why: RuleViolation | None = None) -> dict:
    """A conditional order whose condition does not hold, or holds where the order cannot be carried out (`why`):
    submit accepted it as a standing order for landings where it can (RULINGS.md "refused-at-submit")."""
    spun, here, kind, owner = landed
    where = f"the token landed on {here}, {_kind_words(here, kind, owner)}"
    fact = where if o.condition[0] == "land" else f"the spin was {spun}" + (f" and {where}" if why else "")
    if why:
        fact += f"; {why.message} [{why.rule}]"
    return {"type": "rule", "what": "skipped", "text": f"Not played: `{o.canonical()}` ({fact})."}


def _cut_short(state: State, power: str, orders: list) -> list[dict]:
    """The orders of the phases a turn never reached, reported as not played rather than left unmentioned."""
    board = state.board
    why = (f"{power} are out of the game" if power in board["out"] else
           f"{power} were imprisoned in {board['prisons'][power]}")
    return [{"type": "rule", "what": "skipped", "text": f"Not played: `{o.canonical()}` (the turn ended: {why})."}
            for o in orders]


def _void(o, reason: str, rule: str) -> dict:
    return {"type": "void", "order": o.canonical(), "reason": f"{reason} [{rule}]", "rule": rule}


# -- end of the turn --------------------------------------------------------------------------------

def knock_out(rules, state: State, power: str, why: str, rule: str) -> list[dict]:
    """A player out of the game (RULINGS.md "surrender"): its spaces turn neutral with their armies, its cards
    go to the discards, and it takes no more turns."""
    board = state.board
    board["out"][power] = why
    for space in [s for s, o in state.owners.items() if o == power]:
        del state.owners[space]
    board["discards"]["strategy"] += board["hands"][power]
    board["hands"][power] = []
    board["prisons"].pop(power, None)
    return [{**note(f"{power} are out of the game: {why}.", rule), "what": "out", "power": power}]


def end_turn(rules, state: State) -> list[dict]:
    """AV-47 end conditions for every player (Conqueror: RULINGS.md "conqueror-end"), the winner (AV-01, RULINGS.md "alliance-win"), then the next
    player who may play: frozen players lose that turn (AV-33)."""
    board = state.board
    events = []
    sudden = bool(state.switches.get("option:sudden-death"))
    for p in rules.in_game(state):
        held = [s for s, o in state.owners.items() if o == p and rules.kind(s) in ("territory", "main")
                and not rules.natural_ally(s)]                  # RULINGS.md "conqueror-end"
        if sudden and state.owners.get(rules.main_of(p)) != p:
            events += knock_out(rules, state, p, f"their Main Territory {rules.main_of(p)} is lost (Sudden Death)",
                                "AV-47")
        elif not held:
            events += knock_out(rules, state, p, "they hold no country: no general territory and no Main Territory "
                                                 "of theirs (Conqueror)", "AV-47")
    left = rules.in_game(state)
    if board["winner"] is None:
        if rules.mode(state) == "world-ruler":
            side = left[0] if len(left) == 1 else None
        else:
            sides = {rules.side(p) for p in left}
            side = sides.pop() if len(sides) == 1 else None
        if side:
            board["winner"] = {"type": "victory", "side": side, "rule": "AV-47",
                               "text": f"Game over: the {side} win; every opponent is out of the game [AV-47]."}
            events.append(board["winner"])
    board.pop("spun", None)
    board.pop("estranged", None)
    order = rules.powers
    i = order.index(state.power)
    for k in range(1, 2 * len(order) + 1):
        candidate = order[(i + k) % len(order)]
        if (i + k) % len(order) == 0:
            state.round += 1
        if candidate in board["out"]:
            continue
        if candidate in board["frozen"]:
            board["frozen"].remove(candidate)
            events.append(note(f"{candidate} are frozen and lose this turn (round {state.round}).", "AV-33"))
            continue
        break
    state.power = candidate
    state.phase = PHASES[0]
    state.turn_index += 1
    events.append({"type": "next", "round": state.round, "power": state.power, "phase": state.phase})
    return events
