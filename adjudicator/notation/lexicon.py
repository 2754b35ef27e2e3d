"""The names players may use for a game's units, places and powers.

Players write `3 inf`, `sz 76`, `UK 19` or `war USSR`; the orders must carry the game's own names
(`infantry`, `76 Sea Zone`, `UK19`, `Russians`). Each category is a separate namespace because the grammar
always knows which kind of name it expects: "Italy" is a territory after `place` and a power after `war`.

A name resolves in tiers: the game's own names win over aliases, and an alias that two targets share is
ambiguous rather than silently picking one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from adjudicator.scenario import Scenario

UNIT, PLACE, POWER = "unit", "place", "power"

# Normative aliases of the 1940 family (NOTATION.md); each is added only when its unit type exists.
UNIT_ALIASES = {
    "inf": "infantry", "art": "artillery", "mech": "mech_infantry", "arm": "armour", "tank": "armour",
    "ftr": "fighter", "tac": "tactical_bomber", "bmb": "bomber", "tra": "transport", "trn": "transport",
    "sub": "submarine", "des": "destroyer", "dd": "destroyer", "cru": "cruiser", "ca": "cruiser",
    "car": "carrier", "cv": "carrier", "bb": "battleship", "aa": "aaGun", "ic": "factory_minor",
    "major": "factory_major", "upgrade": "factory_upgrade", "af": "airfield", "nb": "harbour", "harbor": "harbour",
}

# Every spelling in a group names the same power; a player whose name is in a group gets the whole group.
POWER_GROUPS = (
    ("germans", "germany", "german", "ger"),
    ("russians", "russia", "russian", "soviet union", "ussr", "soviets", "soviet", "rus"),
    ("japanese", "japan", "jap", "jpn"),
    ("americans", "usa", "us", "america", "american", "united states"),
    ("chinese", "china", "chn"),
    ("british", "uk", "united kingdom", "britain", "great britain", "gb"),
    ("italians", "italy", "italian", "ita"),
    ("anzac", "anz", "australia", "aus"),
    ("french", "france", "fra"),
    # the Expanded Global Scenario's other nations (games/expanded_global/scenario.py NATIONS)
    ("indonesia", "idn"),
    ("eastern european commonwealth", "eec"),
    ("india", "ind"),
    ("union of south american nations", "unasur"),
    ("canada", "can"),
)

_SEA_ZONE = re.compile(r"(?:(\d+) sea zone|sea zone (\d+)|sz ?(\d+))")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")
_LETTERS_SPACE_DIGITS = re.compile(r"(?<=[^\W\d_]) +(?=\d)")
_MIN_PREFIX = 3


def key(text: str) -> str:
    """The form names are compared in: case, underscores and runs of spaces do not matter."""
    return " ".join(text.casefold().replace("_", " ").split())


class Lexicon:
    """Names and aliases of one game, per category (UNIT, PLACE, POWER)."""

    def __init__(self) -> None:
        self._names: dict[str, dict[str, list[str]]] = {c: {} for c in (UNIT, PLACE, POWER)}
        self._aliases: dict[str, dict[str, list[str]]] = {c: {} for c in (UNIT, PLACE, POWER)}
        self._variants: dict[str, dict[str, tuple[list[str], bool]]] = {}   # power -> common -> (its own, has common)
        self._per_power: dict[str, Lexicon] = {}
        self._base: Lexicon | None = None         # the lexicon of all powers that a for_power one was made from
        self.unit_words = 1         # the most words a unit name or alias has: how far a unit name may reach
        self.place_words = 1        # the same for places, a comma counted as a word: how far a place may reach

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Lexicon:
        """The game's names plus the 1940-family aliases that fit it; markers and hidden places are left out
        because no order can name them, and they would only crowd the "did you mean" suggestions."""
        lex = cls()
        for u in scenario.unit_types:
            if not u.has("marker"):
                lex.add_unit(u.name)
        for t in scenario.territories:
            if not t.hidden:
                lex.add_place(t.name)
        for p in scenario.players:
            lex.add_power(p.name)
        for alias, unit in UNIT_ALIASES.items():
            if lex.resolve(UNIT, unit) == [unit]:
                lex.add_unit_alias(alias, unit)
        for p in scenario.players:
            own = scenario.variants_of(p.name)
            if own:
                lex._variants[p.name] = {common: (variants, p.name in scenario.holders(common))
                                         for common, variants in own.items()}
        for p in scenario.players:
            group = next((g for g in POWER_GROUPS if key(p.name) in g), ())
            for alias in group:
                if alias != key(p.name):
                    lex.add_power_alias(alias, p.name)
        return lex

    # -- building -------------------------------------------------------------------------------------

    def add_unit(self, name: str) -> None:
        self._add(self._names, UNIT, name, name)
        self._add(self._names, UNIT, _CAMEL.sub(" ", name), name)        # aaGun -> "aa gun"

    def add_place(self, name: str) -> None:
        self._add(self._names, PLACE, name, name)
        m = _SEA_ZONE.fullmatch(key(name))
        if m:
            n = next(g for g in m.groups() if g)
            for form in (f"sz{n}", f"sea zone {n}", f"{n} sea zone"):
                self._add(self._aliases, PLACE, form, name)

    def add_power(self, name: str) -> None:
        self._add(self._names, POWER, name, name)

    def add_unit_alias(self, alias: str, unit: str) -> None:
        self._add_alias(UNIT, alias, unit)

    def add_place_alias(self, alias: str, place: str) -> None:
        self._add_alias(PLACE, alias, place)

    def add_power_alias(self, alias: str, power: str) -> None:
        self._add_alias(POWER, alias, power)

    def _add_alias(self, category: str, alias: str, target: str) -> None:
        if target not in self.names(category):
            raise ValueError(f"{alias!r}: no {category} named {target!r} in this game")
        self._add(self._aliases, category, alias, target)

    def _add(self, tier: dict[str, dict[str, list[str]]], category: str, name: str, target: str) -> None:
        k = key(name)
        targets = tier[category].setdefault(k, [])
        if target not in targets:
            targets.append(target)
        if category == UNIT:
            self.unit_words = max(self.unit_words, len(k.split()))
        elif category == PLACE:
            self.place_words = max(self.place_words, len(k.replace(",", " , ").split()))

    def for_power(self, power: str) -> Lexicon:
        """The names as `power`'s orders read them: a common unit name or alias (`infantry`, `inf`) names the power's
        own variant of that type (Alt-Universe China's `infantryC`), and the variant's own name still works. Where
        the map gives the power the common type as well, the common type's own name keeps meaning it and its
        aliases are ambiguous between the two (games/g40_alt_universe/RULINGS.md, "power-variants")."""
        base = self._base or self
        variants = base._variants.get(power)
        if not variants:
            return base
        found = base._per_power.get(power)
        if found is None:
            found = Lexicon()
            found.__dict__.update(base.__dict__)
            found._base, found._per_power = base, {}
            found._names = {**base._names, UNIT: dict(base._names[UNIT])}
            found._aliases = {**base._aliases, UNIT: dict(base._aliases[UNIT])}
            for common, (own, has_common) in variants.items():
                for tier in (found._names, found._aliases):
                    for k, targets in tier[UNIT].items():
                        if common not in targets:
                            continue
                        if not has_common:
                            tier[UNIT][k] = [t for t in targets if t != common] + own
                        elif tier is found._aliases:
                            tier[UNIT][k] = targets + own
            base._per_power[power] = found
        return found

    # -- looking up -----------------------------------------------------------------------------------

    def names(self, category: str) -> list[str]:
        """The game's own names in `category`, in the order they were added."""
        seen: dict[str, None] = {}
        for targets in self._names[category].values():
            seen.update(dict.fromkeys(targets))
        return list(seen)

    def resolve(self, category: str, text: str) -> list[str]:
        """Every target `text` may name: none (unknown), one, or several (ambiguous)."""
        k = key(text)
        for form in self._forms(category, k):
            for tier in (self._names, self._aliases):
                hit = tier[category].get(form)
                if hit:
                    return list(hit)
        if category == POWER and len(k) >= _MIN_PREFIX:     # "war Ital", and "war Uni" is ambiguous
            found: dict[str, None] = {}
            for tier in (self._names, self._aliases):
                for name, targets in tier[POWER].items():
                    if name.startswith(k):
                        found.update(dict.fromkeys(targets))
            return list(found)
        return []

    @staticmethod
    def _forms(category: str, k: str) -> Iterable[str]:
        """The spellings tried for a key: as written, then the category's forgiving forms."""
        yield k
        if category == UNIT:                                 # plural: tanks, infs, infantries
            if k.endswith("ies"):
                yield k[:-3] + "y"
            if k.endswith("s"):
                yield k[:-1]
        elif category == PLACE:                              # "UK 19" = UK19, "SZ 76" = sz76
            squeezed = _LETTERS_SPACE_DIGITS.sub("", k)
            if squeezed != k:
                yield squeezed

    def suggest(self, category: str, text: str, n: int = 3) -> list[str]:
        """Targets whose names or aliases are spelt closest to `text`, best first."""
        pool = {**self._aliases[category], **self._names[category]}
        found: dict[str, None] = {}
        for close in difflib.get_close_matches(key(text), pool, n=2 * n, cutoff=0.6):
            found.update(dict.fromkeys(pool[close]))
        return list(found)[:n]
