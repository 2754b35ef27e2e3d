"""The names players use for a game's powers, units and relationships, in the sentences of reports.

Orders, notation, `status --json` and the dice block keep the map's own names (`Germans`, `mech_infantry`,
`Unfriendly_Neutral`); what people read says "Germany", "mech infantry", "unfriendly neutral towards". TripleA
maps carry no display names (only identifiers and colours), so a game gives its words in a table
(`people_names` of its rules class, kept in games/<game>/); whatever a table leaves out is made readable from
the map's name (underscores and camel case become spaces, the map's own casing kept), never an error.

A report's sentences are built far from the game they describe (adjudicator/report.py's phrases are plain
functions), so the names in use are set for the time a report is built (`speaking`), and the phrases ask for
them with the functions at the end of this module.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

from .words import capitalised, named, possessive

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_VERB_ES = ("s", "sh", "ch", "x", "z", "o")
_IRREGULAR = {"have": "has", "are": "is", "were": "was"}
# Verbs a game's own sentences put after a power (`{power} fly over {place}`), agreed with the power's words when
# prose() names it as players do: the only verbs recognised after a name that is also an adjective (`British`).
_VERBS = ("accept", "attack", "buy", "capture", "collect", "control", "declare", "fly", "gain", "get", "have", "are",
          "hold", "join", "keep", "leave", "liberate", "lose", "move", "need", "offer", "own", "pay", "place",
          "receive", "refuse", "sink", "spend", "surrender", "take", "win")
# What a clause begins after: a power named there may be its subject, with a verb to agree.
_CLAUSE = (".", ";", ":", "!", "?", "—", "(", " and", ",")
# Words after a power that are not its verb (`British at war with…`). Any other lowercase word is: the verb of a
# name like `Germans` (`Germans start` → `Germany starts`), but after a name that is an adjective (`British`,
# `Japanese`) only a verb of _VERBS is, and another word keeps it an adjective (`Japanese territories`).
_NOT_NOUNS = ("and", "or", "but", "as", "if", "than", "at", "by", "in", "of", "on", "to", "with", "from", "for",
              "into", "over", "under", "before", "after", "against", "beside", "near", "now", "not", "no", "also",
              "only", "alone", "all", "both", "each", "again", "too", "may", "must", "cannot", "can", "still", "is",
              "was", "has", "had", "does", "did", "will", "would", "who", "which", "that")


def readable(name: str) -> str:
    """A map's identifier as words: `UK_Pacific` → `UK Pacific`, `aaGun` → `aa Gun`, `Neutral_True` → `Neutral True`."""
    return " ".join(_CAMEL.sub(" ", name).replace("_", " ").split())


def agree(verb: str, plural: bool) -> str:
    """The verb's present tense for a subject: `buy` → `buys` for Germany, `buy` for the Germans."""
    if plural:
        return verb
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(_VERB_ES):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# Units players count without a plural: `3 infantry`, `2 artillery`, `4 armour`, `2 mech infantry`.
_UNCOUNTED = ("infantry", "artillery", "armour", "armor", "aircraft", "militia", "cavalry")


def counted(n: int, name: str) -> str:
    """`1 fighter`, `2 fighters`, `3 infantry`, `2 factories`, `2 fighters@3`: a number of units as players write it
    (the plural on the last word of the unit's name, before any `@` of a dice group)."""
    base, at, rest = name.partition("@")
    if n != 1 and base and not base.lower().endswith(_UNCOUNTED) and not base.endswith("s"):
        if base.endswith("y") and base[-2:-1] not in tuple("aeiou"):
            base = base[:-1] + "ies"
        else:
            base += "es" if base.endswith(("sh", "ch", "x")) else "s"
    return f"{n} {base}{at}{rest}"


def listed(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


class People:
    """One game's words. `table`: {"powers": {name: words}, "plural": [names whose words take a plural verb],
    "units": {name: words}, "relationships": {type: words before the other party, e.g. "at war with"}}."""

    def __init__(self, scenario=None, table: dict | None = None):
        table = table or {}
        self._powers: dict[str, str] = dict(table.get("powers", {}))
        self._plural = set(table.get("plural", ()))
        self._units: dict[str, str] = dict(table.get("units", {}))
        self._relations: dict[str, str] = dict(table.get("relationships", {}))
        self._markers: set[str] = set()
        if scenario is not None:
            self._markers = {u.name for u in scenario.unit_types if u.has("marker")}
            for p in scenario.players:         # a power's own variant of a type is that type to players (infantryC)
                for common, own in scenario.variants_of(p.name).items():
                    for variant in own:
                        self._units.setdefault(variant, self.unit(common))

    def power(self, name: str) -> str:
        """As a sentence names the power after its first word: the table's words, or the map's name with the
        article a plural or adjective takes (`the Germans`, `the British`, `UK Pacific`; words.named)."""
        return self._powers.get(name) or named(readable(name))

    def heading(self, name: str) -> str:
        """As a heading or a table's cell names it: `Soviet Union`, `Germans`."""
        return capitalised(self.power(name).removeprefix("the "))

    def plural(self, name: str) -> bool:
        """Whether the power's words take a plural verb: as the table says for its words; a name of the map's
        by the ending that words.possessive reads (`Germans`, `British` plural; `ANZAC` not)."""
        if name in self._powers:
            return name in self._plural
        return possessive(readable(name), the=True).startswith("the ")

    def unit(self, name: str) -> str:
        """A unit type, or a dice-group label's unit (`mech_infantry@1` → `mech infantry@1`)."""
        base, at, rest = name.partition("@")
        return (self._units.get(base) or readable(base)) + at + rest

    def is_marker(self, name: str) -> bool:
        return name in self._markers

    def relationship(self, kind: str) -> str:
        return self._relations.get(kind) or f"on {readable(kind)} terms with"

    def prose(self, text: str, sentence: bool = True) -> str:
        """A game's own sentence (a rule's words, an objective's note) as players say it: the table's powers by
        their words, with the verb after them agreed (`Germans fly over F3` → `Germany flies over F3`) and their
        possessive (`the Germans'` → `Germany's`); the table's units; every other name with an underscore or a
        camel hump made readable. Untouched: `code` (an order quoted keeps the game's names), and a power's name
        that begins a place's name (`French West Africa`), or an adjective (`Japanese territories`). Not a
        `sentence` (a note in brackets): a power named first is not capitalised."""
        parts = text.split("`")
        return "`".join(part if i % 2 else self._plain(part, sentence and i == 0) for i, part in enumerate(parts))

    def told(self, message: str) -> str:
        """An engine's message to a player (an order's error) in players' words, as `prose` makes a sentence that
        is not one of the report's (its first power not capitalised): what it quotes of the player's own text, in
        `'…'` or backticks, stays as the player wrote it (`unknown unit 'infantryC'`)."""
        parts = _QUOTED.split(message)
        return "".join(part if i % 2 else self._plain(part, False) for i, part in enumerate(parts))

    def _plain(self, piece: str, sentence: bool) -> str:
        if self._powers:
            names = "|".join(re.escape(n) for n in sorted(self._powers, key=len, reverse=True))
            piece = re.sub(rf"(?<![\w:-])(?P<the>[Tt]he )?(?P<name>{names})\b(?![-:])(?! [A-Z])(?P<poss>'s\b|')?"
                           rf"(?P<verb> (?:{'|'.join(_VERBS)})\b)?(?P<next> [a-z]+\b)?",
                           lambda m: self._named(m, sentence), piece)
        piece = re.sub(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z]*\b|\b\w+\b",
                       lambda m: self._word(m.group(0)), piece)
        return re.sub(r"\b([Tt]he) the\b", r"\1", piece)        # "joins the Pro_Axis" → "joins the pro-Axis neutrals"

    def _named(self, m: re.Match, sentence: bool) -> str:
        name, after, verb = m.group("name"), m.group("next") or "", (m.group("verb") or "").strip()
        before = m.string[:m.start()].rstrip()
        clause = not before or before.endswith(_CLAUSE)
        if verb and not clause:                     # `offer Russia an armistice`: not the subject
            after, verb = m.group("verb") + after, ""
        word = after.split()[0] if after.strip() else ""
        free = word and not verb and not m.group("poss") and word not in _NOT_NOUNS and not word.endswith("ed")
        if free and possessive(name) == name and word not in _VERBS:
            return m.group(0)                       # `Japanese territories`, `British fleet`: an adjective
        if free and clause and possessive(name) != name and not word.endswith("s"):
            verb, after = word, after[len(word) + 1:]   # `{power} start an insurgency`: the game's verb, plural
        said = possessive(self.power(name)) if m.group("poss") else self.power(name)
        if verb:                                    # `Canada and United States are`: the verb of both, as it is
            said += " " + (verb if before.endswith(" and") else agree(verb, self.plural(name)))
        said += after
        starts = (sentence and not before) or before[-1:] in (".", "!", "?")
        return capitalised(said) if starts else said

    def _word(self, word: str) -> str:
        if word in self._units:
            return self._units[word]
        if "_" in word or _CAMEL.search(word):
            return readable(word)
        return word


_SPEAKING: ContextVar[People] = ContextVar("people", default=People())


# a quotation of the player's text in a message: `…`, or '…' not within a word (the Germans' is a possessive)
_QUOTED = re.compile(r"(`[^`]*`|(?<!\w)'[^'\n]*'(?!\w))")


@contextmanager
def speaking(people: People):
    """Build a report's sentences with `people`'s words."""
    token = _SPEAKING.set(people)
    try:
        yield people
    finally:
        _SPEAKING.reset(token)


def current() -> People:
    return _SPEAKING.get()


def power(name: str) -> str:
    """`Germany`, `the United Kingdom`: a power as a sentence names it after its first word."""
    return current().power(name)


def heading(name: str) -> str:
    return current().heading(name)


def powers(names: list[str]) -> str:
    return listed([power(n) for n in names])


def does(name: str, verb: str) -> str:
    """`Germany buys`, `The independent neutrals join`: the power as a sentence's subject, with its verb."""
    return f"{capitalised(power(name))} {agree(verb, current().plural(name))}"


def verb(name: str, word: str) -> str:
    return agree(word, current().plural(name))


def whose(name: str) -> str:
    """`Germany's`, `the United States'`, `the independent neutrals'`."""
    return possessive(power(name))


def their(name: str) -> str:
    return "their" if current().plural(name) else "its"


def unit(name: str) -> str:
    return current().unit(name)


def units(counts: dict[str, int]) -> str:
    """`1 armour, 3 mech infantry`: markers left out, a power's variants counted with their common type."""
    people = current()
    merged: dict[str, int] = {}
    for name, n in counts.items():
        if not people.is_marker(name):
            merged[people.unit(name)] = merged.get(people.unit(name), 0) + n
    return ", ".join(counted(n, u) for u, n in merged.items()) if merged else "nothing"


def prose(text: str, sentence: bool = True) -> str:
    return current().prose(text, sentence)


def objective(name: str, power: str = "", sentence: bool = True) -> str:
    """A national objective as players name it: the map's name (`Germans 1 Trade with Russia`) without the power
    and number it starts with, where the text names the power already (`power`)."""
    return prose(re.sub(rf"^{re.escape(power)} \d+ ", "", name) if power else name, sentence)


def relations(changes: list[list[str]], towards: str | None = None) -> str:
    """Relationships changed, as sentences: `China is now allied with the United Kingdom and ANZAC`. With
    `towards`, the changes that involve that power read from the other side, grouped: `the United Kingdom and
    ANZAC are now at war with Germany`."""
    people = current()
    groups: dict[tuple[str, str, str], list[str]] = {}
    for a, b, kind in changes:
        if towards is not None and towards in (a, b):
            other = b if a == towards else a
            groups.setdefault(("object", towards, kind), []).append(other)
        else:
            groups.setdefault(("subject", a, kind), []).append(b)
    said = []
    for (role, pivot, kind), others in groups.items():
        rel = people.relationship(kind)
        if role == "object":
            plural = len(others) > 1 or people.plural(others[0])
            said.append(f"{powers(others)} {agree('are', plural)} now {rel} {power(pivot)}")
        else:
            said.append(f"{power(pivot)} {verb(pivot, 'are')} now {rel} {powers(others)}")
    return "; ".join(said)
