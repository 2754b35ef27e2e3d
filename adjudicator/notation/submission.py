"""A pasted submission to a `Submission` and every error in it.

Besides reading each line, the submission as a whole has rules that need only the text: headers come first,
orders come in phase order from the game's cursor, nothing follows `end`. Checking them here lets a player
see all such mistakes at once, before the rules engine looks at the game.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.errors import ILLEGAL, INVALID, OrderError
from adjudicator.notation.lexicon import Lexicon
from adjudicator.notation.orders import End, Submission, UnitCount
from adjudicator.notation.parser import COLON, WORD, ParseFailure, Reader, Token, did_you_mean, tokenize
from adjudicator.notation.text import MAX_LINE_CHARS, MAX_UNITS_IN_ALL, Line, clean_text, too_large
from adjudicator.notation.verbs import VerbRegistry
from adjudicator.scenario import G40_PHASES

HEADERS = ("game", "power", "round")

# Section names, without spaces, dashes or underscores, to the phase they open.
SECTIONS = {
    "purchase": "purchase", "buy": "purchase", "politics": "politics",
    "combatmove": "combat_move", "combat": "combat_move", "cm": "combat_move",
    "noncombatmove": "noncombat_move", "noncombat": "noncombat_move", "ncm": "noncombat_move",
    "place": "place", "mobilize": "place", "mobilise": "place", "placement": "place",
}
# Short forms that are also order words open a section only in brackets: a bare `buy` is an incomplete order.
HEADINGS = {name: phase for name, phase in SECTIONS.items() if name not in ("buy", "cm", "ncm")}
_BRACKETS = re.compile(r"\[([^\[\]]*)\]\s*:?")
_NAME = re.compile(r"([a-z][a-z _-]*?)\s*:?", re.I)
_G40 = VerbRegistry.g40()


@dataclass
class ParseResult:
    submission: Submission          # the orders that could be read and are in phase order
    errors: list[OrderError]        # every error of the submission, in text order


def parse_submission(text: str, lexicon: Lexicon, start_phase: str | None = None,
                     phases: Sequence[str] | None = None, verbs: VerbRegistry | None = None,
                     power: str | None = None, elsewhere: dict[str, str] | None = None) -> ParseResult:
    """Read `text` for a mover whose turn has `phases` (default: the G40 family's, as the default verbs are), starting
    at `start_phase` (default: the turn's first phase, where a power that is not on the move files its standing
    orders and salts); given the `power` who writes it, its unit names are read as that power's
    (Lexicon.for_power). `elsewhere` says, for a phase the power plays inside another power's turn, where its
    orders go (the refusal of such an order says so)."""
    if power:
        lexicon = lexicon.for_power(power)
    phases = tuple(phases or G40_PHASES)
    start_phase = start_phase or phases[0]
    if start_phase not in phases:
        raise ValueError(f"start phase {start_phase!r} is not one of {phases}")
    return _SubmissionReader(text, lexicon, phases, start_phase, verbs or _G40, elsewhere or {}).read()


def _words(phase: str) -> str:
    return phase.replace("_", " ")


def _section(text: str) -> str | None:
    """The phase a section line opens, "" for an unknown `[section]`, None if the line is no section.

    Besides `[combat move]`, a line that is only a section's name (`Combat move:`, `Purchase`) opens it:
    that is how forum posts head their parts, and as an order such a line would be incomplete anyway."""
    m = _BRACKETS.fullmatch(text)
    if m:
        return SECTIONS.get(re.sub(r"[\s_-]", "", m.group(1).casefold()), "")
    m = _NAME.fullmatch(text)
    return HEADINGS.get(re.sub(r"[\s_-]", "", m.group(1).casefold())) if m else None


class _SubmissionReader:
    def __init__(self, text: str, lexicon: Lexicon, phases: tuple[str, ...], start_phase: str,
                 verbs: VerbRegistry, elsewhere: dict[str, str]):
        self.submission = Submission(text=text)
        self.elsewhere = elsewhere
        self.errors: list[OrderError] = []
        self.lexicon = lexicon
        self.phases = phases
        self.running = phases.index(start_phase)
        self.verbs = verbs
        self.started = False            # an order or section has been seen: headers are over
        self.headers: set[str] = set()
        self.named = 0                  # units named by the orders so far, counts added up

    def read(self) -> ParseResult:
        refused = too_large(self.submission.text)
        if refused:
            return ParseResult(self.submission, [OrderError(INVALID, refused)])
        for line in clean_text(self.submission.text):
            if len(line.text) > MAX_LINE_CHARS:
                self.errors.append(OrderError(INVALID, f"an order line holds at most {MAX_LINE_CHARS:,} characters; "
                                              f"this one has {len(line.text):,}: split it", line.number, 1,
                                              line.text[:80] + "…"))
                continue
            reader = Reader(line, tokenize(line.text), self.lexicon, self.phases[self.running])
            try:
                self._line(line, reader)
            except ParseFailure as failure:
                self.errors.append(failure.error)
            if self.named > MAX_UNITS_IN_ALL:
                # refused before anything is done with them: `edit` would add every unit it is given
                self.errors.append(OrderError(INVALID, f"one submission names at most {MAX_UNITS_IN_ALL:,} units in all "
                                              f"(counts added up); this line brings them to {self.named:,}: split it "
                                              "(nothing after this line was read)", line.number, 1, line.text))
                break
        return ParseResult(self.submission, self.errors)

    def _line(self, line: Line, r: Reader) -> None:
        first = r.tokens[0]
        if self.submission.ended:
            r.fail("nothing may follow `end`", first, expected="the end of the submission")
        section = _section(line.text)
        if section is not None:
            self.started = True
            if not section:
                r.fail(f"unknown section '{line.text}'", first,
                       expected="[purchase], [politics], [combat move], [noncombat move] or [place]")
            self._reach(r, section, first)
            return
        if len(r.tokens) > 1 and first.kind == WORD and first.text.casefold() in HEADERS and r.tokens[1].kind == COLON:
            self._header(r, first)
            return
        self.started = True
        verb = self.verbs.get(first.text) if first.kind == WORD else None
        if verb is None:
            found = difflib.get_close_matches(first.text.casefold(), self.verbs.words(), n=3)
            r.fail(f"unknown order '{first.text}'" + did_you_mean(found), first,
                   expected="an order: " + ", ".join(v.name for v in self.verbs.verbs()), candidates=found)
        r.pos = 1
        r.accept_symbol(COLON)          # `buy: 3 inf` reads as `buy 3 inf`
        order = verb.build(verb.parse(r))
        r.done()
        order.line, order.column, order.source = line.number, first.column, line.text
        self._reach(r, order.phase, first)
        self.submission.orders.append(order)
        self.named += sum(u.count for u in getattr(order, "units", ()) if isinstance(u, UnitCount))
        self.submission.ended = isinstance(order, End)

    def _reach(self, r: Reader, phase: str, at: Token) -> None:
        """Move the running phase to `phase`, which must not be over; "" (standing orders) goes anywhere."""
        if not phase:
            return
        if phase not in self.phases:
            where = f": {self.elsewhere[phase]}" if phase in self.elsewhere else ""
            r.fail(f"this turn has no {_words(phase)} phase{where}", at, kind=ILLEGAL)
        i = self.phases.index(phase)
        if i < self.running:
            order = ", ".join(_words(p) for p in self.phases if p not in ("battle", "end_turn"))
            r.fail(f"the {_words(phase)} phase is already over: orders must come in phase order ({order})", at,
                   kind=ILLEGAL, rule=self.verbs.order_rule)
        self.running = i

    def _header(self, r: Reader, first: Token) -> None:
        name = first.text.casefold()
        if self.started:
            r.fail("headers (game:, power:, round:) must come before the first order", first, kind=ILLEGAL)
        if name in self.headers:
            r.fail(f"the {name} header is given twice", first, kind=ILLEGAL)
        self.headers.add(name)
        r.pos = 2
        if name == "game":
            self.submission.game = r.rest("the game's id")
        elif name == "power":
            self.submission.power = r.power()
        else:
            self.submission.round = r.number("a round number")
        r.done()
