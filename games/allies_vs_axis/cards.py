"""The Fortune and Strategy decks (AV-33 to AV-36): audited draws and the cards' effects.

A draw is an audited die over the cards left in the pile, in the pile's order: drawing so, card by card, is a
shuffle done one step at a time (Fisher–Yates), and every step can be recomputed from the revealed seed
(RULINGS.md "card-draws"). An empty pile takes back the discards in the deck's order.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State

from . import army


def card(rules, name: str) -> dict:
    return next(c for deck in rules.data["cards"].values() for c in deck if c["name"] == name)


def full_pile(rules, state: State, deck: str) -> list[str]:
    """The deck's cards, one entry a copy; in the higher-luck modes fewer bad cards (RULINGS.md "luck")."""
    high = rules.settings(state)["luck"] == "high"
    counts = rules.data["high_luck_bad_cards"]
    return [c["name"] for c in rules.data["cards"][deck]
            for _ in range(counts[c["name"]] if high and c.get("bad") else c["count"])]


def draw(rules, state: State, power: str, deck: str, roller) -> list[dict]:
    board = state.board
    events = []
    if not board["piles"][deck]:
        order = full_pile(rules, state, deck)
        board["piles"][deck] = sorted(board["discards"][deck], key=order.index)
        board["discards"][deck] = []
        events.append(note(f"The {deck} pile is empty: its discards are taken back to draw from.", "AV-33"))
    pile = board["piles"][deck]
    if not pile:
        return events + [note(f"No {deck} card is left to draw: every one is in a player's hand.", "AV-35")]
    left = len(pile)
    k = 1 if left == 1 else roller.roll(f"draw:{deck}:{power}", left, 1, None)[0]
    name = pile.pop(k - 1)
    if left > 1:
        roller.groups[-1].units.append(name)
    spec = card(rules, name)
    how = f"die {k} of {left}" if left > 1 else "the last card of the pile"
    drawn = {"type": "rule", "what": "draw", "deck": deck, "card": name, "die": k, "of": left,
             "text": f"{power} draw the {deck} card {name} ({how}): {spec['text']}.",
             "rule": "AV-33" if deck == "fortune" else "AV-35"}
    events.append(drawn)
    if deck == "strategy" and not spec.get("bad"):
        board["hands"][power].append(name)
        board["hands"][power].sort()
        drawn["text"] += " Kept for later."
        return events
    board["discards"][deck].append(name)
    target = power if spec.get("who", "self") == "self" else rules.direct_opponent(state, power)
    if target is None:
        return events + [note(f"{name} has no one to strike: no opponent is left.", "AV-34")]
    return events + [_at_once(rules, state, target, spec, drawn["rule"])]


def _at_once(rules, state: State, target: str, spec: dict, rule: str) -> dict:
    """A card that acts when drawn; its effect is tagged with its deck's rule, so that a Strategy card's bad luck
    (Court Martial) is not taken for a Fortune card's."""
    board = state.board
    if spec["effect"] == "freeze":
        if target not in board["frozen"]:
            board["frozen"].append(target)
        return note(f"{target} are frozen: they lose their next turn.", rule)
    if spec["effect"] == "money":
        before = state.treasury[target]
        state.treasury[target] = max(0, before + spec["amount"])
        change = state.treasury[target] - before
        return note(f"{target} {'receive' if change >= 0 else 'lose'} $M {abs(change)} ($M {state.treasury[target]}).",
                    rule)
    pool = board["pools"][target]
    before = dict(pool)
    army.add(pool, spec["units"])
    changed = {u: pool.get(u, 0) - before.get(u, 0) for u in army.UNITS if pool.get(u, 0) != before.get(u, 0)}
    gained = {u: n for u, n in changed.items() if n > 0}
    lost = {u: -n for u, n in changed.items() if n < 0}
    text = (f"{target} receive {army.phrase(gained)}." if gained else
            f"{target} lose {army.phrase(lost)}." if lost else f"{target} have nothing to lose.")
    return note(text, rule)


def play_card(rules, state: State, power: str, name: str, target: str) -> dict:
    """AV-36: a kept Strategy card, played where the mover's token stands on an opponent's space; its cost is
    paid, and it goes to the discards."""
    board = state.board
    if name not in board["hands"][power]:
        raise RuleViolation(f"{power} hold no {name} card (they hold {', '.join(board['hands'][power]) or 'none'})",
                            "AV-36")
    spec = card(rules, name)
    here = rules.position_of(state, power)
    if rules.land_kind(state, power, here) != "opponent":
        raise RuleViolation(f"a strategy card is played on an opponent's space; {here} is not one", "AV-36")
    cost = spec.get("cost", 0)
    if state.treasury[power] < cost:
        raise RuleViolation(f"{name} costs $M {cost}; {power} have $M {state.treasury[power]}", "AV-36")
    effect = spec["effect"]
    if effect == "espionage":
        base = target or here
        if rules.kind(base) != "secret" or not rules.opponents(state, power, state.owners.get(base, power)):
            raise RuleViolation(f"Espionage destroys an opponent's secret base; {base} is not one", "AV-18")
        text = _espionage(state, base)
    elif target and target != here:
        raise RuleViolation(f"{name} acts on the space landed on, {here}, not on {target}", "AV-36")
    elif rules.kind(here) == "secret":
        raise RuleViolation(f"{here} is a secret base: armies cannot reach it, only Espionage can", "AV-18")
    elif effect == "estrange":
        if rules.kind(here) == "main":
            raise RuleViolation(f"{here} is a Main Territory: it cannot be estranged from its side", "AV-36")
        owner = state.owners.pop(here)
        board["estranged"] = here                   # RULINGS.md "estrangement": no treaty or invasion this turn
        text = f"{here} leaves {owner} and is neutral again, with its defend army"
    else:
        garrison = board["armies"].setdefault(here, {})
        unit = spec["unit"]
        n = garrison.get(unit, 0) if effect == "destroy" else -(-garrison.get(unit, 0) // 2)
        garrison[unit] = garrison.get(unit, 0) - n
        text = f"{n} {unit} of the defend army of {here} destroyed (defend power now {rules.defend_power(state, here)})"
    state.treasury[power] -= cost
    board["hands"][power].remove(name)
    board["discards"]["strategy"].append(name)
    paid = f" for $M {cost}" if cost else ""
    return {**note(f"{power} play {name}{paid}: {text}.", "AV-36"), "what": "card", "card": name}


def _espionage(state: State, base: str) -> str:
    owner = state.owners.pop(base)
    return f"the secret base of {owner} in {base} is destroyed; the space is neutral again"


def note(text: str, rule: str) -> dict:
    return {"type": "rule", "text": text, "rule": rule}
