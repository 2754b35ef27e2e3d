"""The orders of Allies vs. Axis (docs/allies-vs-axis.md): their grammar on the notation's Reader, and the order
object the rules play. A forum player cannot wait for the spinner, so any order may be made conditional on the
spin or on the space landed on: `if spin 5, 6: step -1`, `if land neutral: treaty`.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.notation import VerbRegistry
from adjudicator.notation.orders import Order, UnitCount, units_text
from adjudicator.notation.parser import COLON, Reader

# What `if land KIND:` may name besides a space: what the space is to the mover when the order is played.
LAND_KINDS = ("neutral", "secret", "ally", "own", "friendly", "opponent", "fortune", "strategy")
STEPS = ("+1", "-1", "+2", "-2")


@dataclass
class AvOrder(Order):
    action: str = ""
    units: tuple[UnitCount, ...] = ()
    auto: bool = False                # `invade auto`: the least army that wins, weakest units first
    place: str = ""
    card: str = ""
    target: str = ""
    choice: str = ""                  # ransom: "pay" or "refuse"
    steps: int = 0
    condition: tuple = ()             # ("spin", (5, 6)) or ("land", "neutral" | a space's name)
    word: str = ""                    # `treaty` as written (`base`, `ally`): the player reads back what they wrote

    def canonical(self) -> str:
        body = self.word or self.action
        if self.units:
            body += f" {units_text(self.units)}"
        if self.auto:
            body += " auto"
        for text in (self.card, self.target or self.place, self.choice):
            if text:
                body += f" {text}"
        if self.steps:
            body += f" {self.steps:+d}"
        return f"if {condition_text(self.condition)}: {body}" if self.condition else body


def condition_text(condition: tuple) -> str:
    kind, value = condition
    return f"spin {', '.join(map(str, value))}" if kind == "spin" else f"land {value}"


def meets(condition: tuple, spun: int | None, here: str, kind: str) -> bool:
    """Whether an order's condition holds for a spin of `spun` that landed the token on `here`, a space that was
    `kind` to the mover when it landed there (RULINGS.md "conditions")."""
    if not condition:
        return True
    what, value = condition
    if what == "spin":
        return spun in value
    return here == value or kind == value


def verbs(card_names: list[str]) -> VerbRegistry:
    """The game's verbs on top of `salt` and `end`; `card` knows the names of the decks' cards."""
    reg = VerbRegistry.core()

    def add(name: str, phase: str, usage: str, parse, aliases: tuple[str, ...] = ()) -> None:
        reg.register(name, phase=phase, order=AvOrder, usage=usage, aliases=aliases,
                     parse=lambda r: {"action": name, **parse(r)})

    add("ransom", "spin", "ransom pay|refuse", lambda r: {"choice": r.keyword("pay", "refuse")})
    add("spin", "spin", "spin", lambda r: {})
    add("step", "spin", "step +1|-1|+2|-2", _step)
    add("treaty", "actions", "treaty", lambda r: {"word": r.tokens[r.pos - 1].text.casefold()}, aliases=("base", "ally"))
    add("invade", "actions", "invade UNITS", _invade)
    add("recruit", "actions", "recruit UNITS", lambda r: {"units": r.units()})
    add("defend", "actions", "defend UNITS PLACE", _defend)
    add("withdraw", "actions", "withdraw UNITS PLACE", _defend)
    add("card", "actions", "card NAME [TARGET]", lambda r: _card(r, card_names))
    reg.register("if", phase=None, order=AvOrder, usage="if spin N[, N…]: ORDER",
                 parse=lambda r: _conditional(r, reg))
    return reg


def _step(r: Reader) -> dict:
    t = r.peek()
    word = r.word("+1, -1, +2 or -2")
    if word not in STEPS:
        r.fail(f"a strategic move is +1, -1, +2 or -2 spaces, not {word!r}", t, expected="+1, -1, +2 or -2")
    return {"steps": int(word)}


def _invade(r: Reader) -> dict:
    if r.accept("auto"):
        return {"auto": True}
    return {"units": r.units()}


def _defend(r: Reader) -> dict:
    units, place = r.units_at()
    return {"units": units, "place": place}


def _card(r: Reader, names: list[str]) -> dict:
    """The longest card name the words start with; what follows is the target, a space."""
    words = []
    while (t := r.peek()) is not None and t.kind != COLON:
        words.append(t.text)
        r.pos += 1
    r.pos -= len(words)
    for k in range(len(words), 0, -1):
        said = " ".join(words[:k]).casefold()
        found = next((n for n in names if n.casefold() == said), None)
        if found:
            r.pos += k
            return {"card": found, **({"target": r.place()} if r.peek() is not None else {})}
    r.fail(f"unknown card '{' '.join(words)}'; the cards are {', '.join(names)}" if words else "expected a card name",
           r.peek(), expected="a card name")


def _conditional(r: Reader, reg: VerbRegistry) -> dict:
    kind = r.keyword("spin", "land")
    if kind == "spin":
        values = [_spin_value(r)]
        while r.accept_symbol(","):
            values.append(_spin_value(r))
        condition = ("spin", tuple(values))
    else:
        word = r.peek()
        if word is not None and word.text.casefold() in LAND_KINDS and len(r.tokens) > r.pos + 1 \
                and r.tokens[r.pos + 1].kind == COLON:
            r.pos += 1
            condition = ("land", word.text.casefold())
        else:
            condition = ("land", r.place())
    r.symbol(COLON)
    t = r.peek()
    verb = reg.get(t.text) if t is not None else None
    if verb is None or verb.order is not AvOrder or verb.name == "if":
        r.fail("expected an order after the condition", t, expected="an order: " + ", ".join(
            v.name for v in reg.verbs() if v.order is AvOrder and v.name != "if"))
    r.pos += 1
    return {**verb.parse(r), "phase": verb.phase, "condition": condition}


def _spin_value(r: Reader) -> int:
    t = r.peek()
    n = r.number("a spin, 1 to 6")
    if not 1 <= n <= 6:
        r.fail("the spinner shows 1 to 6", t, expected="a spin, 1 to 6")
    return n
