"""Reading one order line: its tokens, and the building blocks of the grammar (units, places, paths, powers).

The blocks are methods of `Reader`, a cursor over one line, so that the verb table (verbs.py) reads like the
grammar it is, and a game's own verbs are built from the same blocks and fail with the same messages.

Names are resolved while reading, because only the names tell where a unit list stops and a multi-word
place begins (`cm 2 mech infantry East Prussia > Poland`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import NoReturn

from adjudicator.errors import AMBIGUOUS, INVALID, OrderError
from adjudicator.notation.lexicon import PLACE, POWER, UNIT, Lexicon, key
from adjudicator.notation.orders import UnitCount, units_text
from adjudicator.notation.text import MAX_UNITS, Line

WORD, NUMBER, COMMA, COLON, ARROW, LESS = "word", "number", ",", ":", ">", "<"

_ARROWS = "\u2192\u21d2\u2794\u27a1\u27f6"     # → ⇒ ➔ ➡ ⟶, read as `>`
_TOKEN = re.compile(
    rf"(?P<arrow>->|=>|[>{_ARROWS}])|(?P<sep>[,:<])|(?P<word>(?:[^\s,:<>{_ARROWS}=-]|[=-](?!>))+)"
)
_TIMES = re.compile(r"([0-9]+)[x\u00d7]", re.I)   # `2x inf`; ASCII digits, as NUMBER tokens
_MAX_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Token:
    kind: str                   # WORD, NUMBER, COMMA, COLON, ARROW or LESS
    text: str
    column: int                 # 1-based, in the cleaned line

    @property
    def end(self) -> int:
        return self.column + len(self.text)


def tokenize(s: str) -> list[Token]:
    out = []
    for m in _TOKEN.finditer(s):
        text = m.group()
        if m.lastgroup == "arrow":
            kind = ARROW
        elif m.lastgroup == "sep":
            kind = text
        else:
            kind = NUMBER if text.isascii() and text.isdigit() else WORD
        out.append(Token(kind, text, m.start() + 1))
    return out


class ParseFailure(Exception):
    """Carries the one error that stops reading a line."""

    def __init__(self, error: OrderError):
        super().__init__(error.message)
        self.error = error


def did_you_mean(candidates: list[str]) -> str:
    return f": did you mean {', '.join(candidates)}?" if candidates else ""


class Reader:
    """A cursor over one order line. `running` is the phase the submission has reached at this line."""

    def __init__(self, line: Line, tokens: list[Token], lexicon: Lexicon, running: str):
        self.line = line
        self.tokens = tokens
        self.lexicon = lexicon
        self.running = running
        self.pos = 0

    # -- the cursor -----------------------------------------------------------------------------------

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def fail(self, message: str, at: Token | None = None, expected: str = "", kind: str = INVALID,
             candidates: list[str] | None = None, rule: str = "") -> NoReturn:
        """Stop reading the line; `at` None points just past the end of the line."""
        column = at.column if at else len(self.line.text) + 1
        raise ParseFailure(OrderError(kind, message, self.line.number, column, self.line.text, expected, rule=rule,
                                      candidates=list(candidates or [])))

    def expect(self, what: str) -> NoReturn:
        self.fail(f"expected {what}", self.peek(), expected=what)

    def done(self) -> None:
        t = self.peek()
        if t is not None:
            self.fail(f"unexpected '{t.text}'", t, expected="the end of the order")

    # -- words, numbers, symbols ----------------------------------------------------------------------

    def accept(self, *words: str) -> str | None:
        """The next word if it is one of `words` (lower case), consumed; else None."""
        t = self.peek()
        if t is not None and t.kind == WORD and t.text.casefold() in words:
            self.pos += 1
            return t.text.casefold()
        return None

    def keyword(self, *words: str) -> str:
        word = self.accept(*words)
        if word is None:
            self.expect(" or ".join(f"'{w}'" for w in words))
        return word

    def accept_symbol(self, kind: str) -> bool:
        t = self.peek()
        if t is not None and t.kind == kind:
            self.pos += 1
            return True
        return False

    def symbol(self, kind: str) -> None:
        if not self.accept_symbol(kind):
            self.expect(f"'{kind}'")

    def ahead(self, kind: str) -> bool:
        """Whether a token of `kind` comes later on the line."""
        return any(t.kind == kind for t in self.tokens[self.pos:])

    def number(self, what: str = "a number") -> int:
        t = self.peek()
        if t is None or t.kind != NUMBER:
            self.expect(what)
        self.pos += 1
        return self._int(t, t.text)

    def count(self, what: str = "a count") -> int:
        t = self.peek()
        n = self.number(what)
        if n < 1:
            self.fail("a count must be at least 1", t, expected=what)
        return n

    def word(self, what: str = "a word") -> str:
        t = self.peek()
        if t is None or t.kind not in (WORD, NUMBER):
            self.expect(what)
        self.pos += 1
        return t.text

    def rest(self, what: str) -> str:
        """The rest of the line verbatim (after paste clean-up)."""
        t = self.peek()
        if t is None:
            self.expect(what)
        self.pos = len(self.tokens)
        return self.line.text[t.column - 1:].rstrip()

    def _int(self, t: Token, digits: str) -> int:
        if len(digits) > _MAX_DIGITS:
            self.fail("number too large", t)
        return int(digits)

    # -- units ----------------------------------------------------------------------------------------

    def units(self) -> tuple[UnitCount, ...]:
        """`COUNT UNIT, COUNT UNIT …` up to the next symbol or the end of the order."""
        toks = self._segment()
        items, ends = self._unit_run(toks)
        if not items or ends[-1] < len(toks):
            self._unit_error(toks, ends[-1] if ends else 0)
        return tuple(items)

    def unit_names(self) -> tuple[str, ...]:
        """`UNIT, UNIT …` without counts (an order of loss lists casualties one by one)."""
        toks = self._segment()
        items, ends = self._unit_run(toks, counts=False)
        if not items or ends[-1] < len(toks):
            self._unit_error(toks, ends[-1] if ends else 0)
        return tuple(u.unit for u in items)

    def _unit_run(self, toks: list[Token], counts: bool = True) -> tuple[list[UnitCount], list[int]]:
        """The longest run of unit items from the start of `toks`, and the token index after each item."""
        items: list[UnitCount] = []
        ends: list[int] = []
        i = total = 0
        while i < len(toks):
            j = i + 1 if items and toks[i].kind == COMMA else i
            n, j = self._count(toks, j)
            unit, after = self._unit_name(toks, j)
            if unit is None:
                break
            if n is not None and not counts:
                self.fail("an order of loss names unit types one by one, without counts", toks[j - 1],
                          expected="a unit name")
            if n == 0:
                self.fail("a count must be at least 1", toks[j - 1], expected="a unit count")
            items.append(UnitCount(1 if n is None else n, unit))
            total += items[-1].count
            if total > MAX_UNITS:
                self.fail(f"one order names at most {MAX_UNITS:,} units: split it", toks[i + (toks[i].kind == COMMA)])
            ends.append(after)
            i = after
        return items, ends

    def _count(self, toks: list[Token], j: int) -> tuple[int | None, int]:
        """An optional count (`3` or `3x`) at toks[j], and the index after it."""
        if j < len(toks):
            t = toks[j]
            m = _TIMES.fullmatch(t.text) if t.kind == WORD else None
            if t.kind == NUMBER or m:
                return self._int(t, m.group(1) if m else t.text), j + 1
        return None, j

    def _unit_name(self, toks: list[Token], j: int) -> tuple[str | None, int]:
        """The longest unit name starting at toks[j], and the index after it."""
        if j >= len(toks) or toks[j].kind != WORD:
            return None, j
        for k in range(min(self.lexicon.unit_words, len(toks) - j), 0, -1):
            span = toks[j:j + k]
            if all(t.kind in (WORD, NUMBER) for t in span):
                unit = self._lookup(UNIT, span)
                if unit:
                    return unit, j + k
        return None, j

    def _unit_error(self, toks: list[Token], i: int) -> NoReturn:
        """Say why toks[i:] does not start a unit item."""
        if 0 < i < len(toks) and toks[i].kind == COMMA:
            i += 1
        n, j = self._count(toks, i)
        what = "a unit name" if n is not None else "a unit count or unit name"
        if j >= len(toks) or toks[j].kind != WORD:
            self.fail(f"expected {what}", toks[j] if j < len(toks) else self.peek(), expected=what)
        for k in range(min(len(toks) - j, self._place_reach()), 0, -1):
            place = self.lexicon.resolve(PLACE, self._text(toks[j:j + k]))
            if len(place) == 1:
                self.fail(f"'{self._text(toks[j:j + k])}' is a place, not a unit: expected {what}", toks[j],
                          expected=what)
        word = toks[j].text
        found = self.lexicon.suggest(UNIT, word)
        self.fail(f"unknown unit '{word}'" + did_you_mean(found), toks[j], expected=what, candidates=found)

    # -- places and paths -----------------------------------------------------------------------------

    def place(self, stop: tuple[str, ...] = ()) -> str:
        """One place, up to the next symbol, the end of the order or one of the `stop` words. Words after the
        place that do not start another place are left for the caller, who knows what may follow."""
        seg = self._segment(stop)
        if not seg:
            self.expect("a place")
        return self._place_of(seg, partial=True)

    def units_at(self) -> tuple[tuple[UnitCount, ...], str]:
        """`UNITS PLACE`. The unit list ends where the rest of the segment is a place; if that can be
        more than one spot, the order is ambiguous."""
        toks = self._segment()
        items, ends = self._unit_run(toks)
        if not items:
            self._unit_error(toks, 0)
        splits = []
        for n, e in enumerate(ends, 1):
            start = e + 1 if e < len(toks) and toks[e].kind == COMMA else e
            place = self._lookup(PLACE, toks[start:]) if 0 < len(toks) - start <= self._place_reach() else None
            if place:
                splits.append((tuple(items[:n]), place))
        if len(splits) > 1:
            readings = "; or ".join(f"{units_text(u)} in {p}" for u, p in splits)
            self.fail(f"'{self._text(toks)}' can be read more than one way: {readings}", toks[0],
                      kind=AMBIGUOUS, candidates=[p for _, p in splits])
        if not splits:
            self._place_error(toks, ends[-1], after_units=True)
        return splits[0]

    def units_and_path(self, facility: bool = False) -> tuple[tuple[UnitCount, ...], tuple[str, ...], str | None]:
        """`UNITS PLACE > PLACE [> PLACE …]`, with an optional FACILITY after the last place when asked."""
        units, start = self.units_at()
        if not self.accept_symbol(ARROW):
            self.expect(f"'>' and the next place after {start}")
        path = [start]
        found = None
        while True:
            seg = self._segment()
            if not seg:
                self.expect("a place after '>'")
            if facility and (self.at_end() or self.peek().kind != ARROW):
                place, found = self._place_and_facility(seg)
            else:
                place = self._place_of(seg, partial=True)
            path.append(place)
            if not self.accept_symbol(ARROW):
                return units, tuple(path), found

    def place_and_facility(self) -> tuple[str, str | None]:
        """`PLACE [FACILITY]`."""
        seg = self._segment()
        if not seg:
            self.expect("a place")
        return self._place_and_facility(seg)

    def _place_and_facility(self, seg: list[Token]) -> tuple[str, str | None]:
        place = self._lookup(PLACE, seg)
        if place:
            return place, None
        tails = [k for k in range(min(self.lexicon.unit_words, len(seg) - 1), 0, -1) if self._facility(seg[-k:])]
        for k in tails:
            place = self._lookup(PLACE, seg[:-k])
            if place:
                return place, self._facility(seg[-k:])
        k = self._place_prefix(seg)
        if k and not self._starts_with_place(seg[k:]):
            text = self._text(seg[k:])
            found = ([w for w in ("factory",) if difflib.get_close_matches(key(text), [w])]
                     + self.lexicon.suggest(UNIT, text))
            found = found[:3]
            self.fail(f"unknown facility '{text}'" + did_you_mean(found), seg[k],
                      expected="a facility: factory, airfield or harbour", candidates=found)
        self._place_error(seg[:-tails[0]] if tails else seg, 0, after_units=False)

    def _facility(self, span: list[Token]) -> str | None:
        """A unit type name, or the word "factory" for whichever factory the place has."""
        text = self._text(span)
        found = self.lexicon.resolve(UNIT, text)
        if len(found) == 1:
            return found[0]
        return "factory" if key(text) == "factory" else None

    def _place_of(self, seg: list[Token], partial: bool = False) -> str:
        """The place `seg` names; with `partial`, the place at its start, handing the rest back."""
        place = self._lookup(PLACE, seg)
        if place:
            return place
        k = self._place_prefix(seg) if partial else 0
        if k and not self._starts_with_place(seg[k:]):
            self.pos -= len(seg) - k
            return self._lookup(PLACE, seg[:k])
        self._place_error(seg, 0, after_units=False)

    def _place_prefix(self, seg: list[Token]) -> int:
        """The length of the longest proper prefix of `seg` that is a place, 0 if none."""
        longest = min(len(seg) - 1, self._place_reach())
        return next((k for k in range(longest, 0, -1) if self._lookup(PLACE, seg[:k])), 0)

    def _starts_with_place(self, toks: list[Token]) -> bool:
        return any(self._lookup(PLACE, toks[:k]) for k in range(1, min(len(toks), self._place_reach()) + 1))

    def _place_reach(self) -> int:
        """The most tokens a place can be written in: twice the words of its longest name, since `G 5` names G5.
        Longer spans are never looked up, so that a line of junk is read in time linear in its length."""
        return 2 * self.lexicon.place_words

    def _place_error(self, toks: list[Token], i: int, after_units: bool) -> NoReturn:
        """Say why toks[i:] is not a place: a missing `>`, a bad unit before it, or an unknown name."""
        rest = toks[i + 1:] if i < len(toks) and toks[i].kind == COMMA else toks[i:]
        if not rest:
            self.expect("a place after the units" if after_units else "a place")
        k = self._place_prefix(rest)
        if k and self._starts_with_place(rest[k:]):
            self.fail("expected '>' between places", rest[k], expected="'>'")
        if k:
            self.fail(f"unexpected '{rest[k].text}' after {self._lookup(PLACE, rest[:k])}", rest[k])
        text = self._text(rest)
        found = self.lexicon.suggest(PLACE, text)
        if after_units:
            shortest = max(1, len(rest) - self._place_reach())
            tail_is_place = any(self._lookup(PLACE, rest[k:]) for k in range(shortest, len(rest)))
            if tail_is_place or (self._count(rest, 0)[0] is not None and not found):
                self._unit_error(toks, i)
        self.fail(f"unknown place '{text}'" + did_you_mean(found), rest[0], expected="a place", candidates=found)

    # -- powers ---------------------------------------------------------------------------------------

    def power_then(self) -> str:
        """A power followed by more of the order (`add Germans 2 inf Poland`); the rest is left for the caller."""
        power = self.leading_power()
        if power:
            return power
        seg = self._segment()
        if not seg:
            self.expect("a power")
        found = self.lexicon.suggest(POWER, seg[0].text)
        self.fail(f"unknown power '{seg[0].text}'" + did_you_mean(found), seg[0], expected="a power", candidates=found)

    def leading_power(self) -> str:
        """A power named by the longest leading words of the rest of the order (`buy UK_Pacific 1 dd`), or ""
        with nothing read."""
        start = self.pos
        seg = self._segment()
        self.pos = start
        for k in range(min(len(seg) - 1, 4), 0, -1):
            power = self._lookup(POWER, seg[:k])
            if power:
                self.pos = start + k
                return power
        return ""

    def power(self, stop: tuple[str, ...] = (), hint: str = "") -> str:
        """A power by name, adjective or common alias, up to the end of the order or a `stop` word (`hint`: what the
        error adds when no stop word follows, e.g. which words may)."""
        seg = self._segment(stop)
        if not seg:
            self.expect("a power")
        power = self._lookup(POWER, seg)
        if power is None:
            text = self._text(seg)
            found = self.lexicon.suggest(POWER, text)
            self.fail(f"unknown power '{text}'" + did_you_mean(found) + (hint if self.at_end() else ""), seg[0],
                      expected="a power", candidates=found)
        return power

    # -- helpers --------------------------------------------------------------------------------------

    def _segment(self, stop: tuple[str, ...] = ()) -> list[Token]:
        """Tokens up to the next symbol (`>`, `:`, `<`) or stop word; commas stay in."""
        start = self.pos
        while self.pos < len(self.tokens):
            t = self.tokens[self.pos]
            if t.kind in (ARROW, COLON, LESS) or (t.kind == WORD and t.text.casefold() in stop):
                break
            self.pos += 1
        return self.tokens[start:self.pos]

    def _text(self, span: list[Token]) -> str:
        return self.line.text[span[0].column - 1:span[-1].end - 1]

    def _lookup(self, category: str, span: list[Token]) -> str | None:
        """The one target `span` names, None if it names none; several is an AMBIGUOUS error."""
        found = self.lexicon.resolve(category, self._text(span))
        if len(found) > 1:
            self.fail(f"{category} '{self._text(span)}' is ambiguous: it may be {' or '.join(found)}", span[0],
                      kind=AMBIGUOUS, candidates=found)
        return found[0] if found else None
