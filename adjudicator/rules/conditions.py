"""The map's conditions (TripleA RulesAttachment), evaluated against a State.

Political actions, triggers and national objectives all rest on them, so one evaluator serves the three. What a
condition can test is what the G40 family's maps use: other conditions (AND, OR or a count), rounds, switches,
relationships, players at war, ownership and unit presence or exclusion in territories. A condition that tests
anything else (battle records, technology, destroyed value, chance) cannot be evaluated from the state we keep:
it counts as not met and says so (`Unsupported`), so a political action resting on it is refused at submit,
never granted by a guess.
"""

from __future__ import annotations

from functools import lru_cache

from ..scenario import Attachment
from ..state import State

# The options this evaluator reads; any other option of a condition makes it Unsupported.
_OTHER_OPTIONS = {"objectiveValue", "uses", "players", "unitPresence", "conditionType", "invert", "conditions",
                  "rounds", "turns", "switch", "atWarPlayers", "relationship"}
# Territory tests: option -> whose units count ("owned" ones decide ownership tests) and whether it excludes.
_TERRITORY_TESTS = {
    "directOwnershipTerritories": ("direct", "owned"), "alliedOwnershipTerritories": ("allied", "owned"),
    "directPresenceTerritories": ("direct", "present"), "alliedPresenceTerritories": ("allied", "present"),
    "enemyPresenceTerritories": ("enemy", "present"), "directExclusionTerritories": ("direct", "excluded"),
    "alliedExclusionTerritories": ("allied", "excluded"), "enemyExclusionTerritories": ("enemy", "excluded"),
    "enemySurfaceExclusionTerritories": ("enemy_surface", "excluded"),
}
_GROUPS = {"original", "originalNoWater", "controlled", "controlledNoWater", "all", "map", "enemy"}


class Unsupported(Exception):
    """A condition tests something this engine does not keep (e.g. battle records)."""


class Conditions:
    """Evaluates conditions by name for one rules object. Results are not cached; what they are computed from is,
    for one state (a condition over "map" looks at every territory): the units by place, and which owners' units
    count for a test. So use an evaluator while the units do not move and no relationship changes."""

    def __init__(self, rules):
        self.rules = rules
        self.scenario = rules.scenario
        self._state: State | None = None                 # the state the caches below are of
        self._kinds: dict | None = None                  # unit_kinds of it
        self._counted: dict[tuple, bool] = {}            # (owner, type, whose, players) -> whether such units count
        self.unsupported: list[str] = []                 # parts of conditions not evaluated, for explanations

    def _index(self, state: State) -> dict[str, dict[tuple[str, str], int]]:
        if self._state is not state:
            self._state, self._kinds, self._counted = state, None, {}
        if self._kinds is None:
            self._kinds = unit_kinds(state)
        return self._kinds

    # -- entry points --------------------------------------------------------------------------------

    def met(self, state: State, name: str) -> bool:
        condition = self.scenario.condition(name)
        if condition is None:
            raise Unsupported(f"the map names a condition '{name}' it does not define")
        return self.test(state, condition)[0]

    def all_met(self, state: State, names: list[str], kind: str = "AND") -> bool:
        """Several conditions combined as TripleA's conditionType says: AND, OR, or how many ("2", "1-3").

        A part we cannot evaluate counts as not met and is remembered in `unsupported`, so that an OR with
        another way to hold still holds, and a refusal can say what was not looked at."""
        results = []
        for name in names:
            try:
                results.append(self.met(state, name))
            except Unsupported as exc:
                self.unsupported.append(str(exc))
                results.append(False)
        return combine(results, kind)

    def test(self, state: State, cond: Attachment) -> tuple[bool, int]:
        """(met, multiple): the multiple is how many listed items counted, for objectives counted "each"."""
        unknown = [n for n, _, _ in cond.options if n not in _OTHER_OPTIONS and n not in _TERRITORY_TESTS]
        if unknown:
            raise Unsupported(f"condition {cond.name} tests {', '.join(sorted(set(unknown)))}, which this "
                              "adjudicator does not evaluate")
        met, multiple = self._test(state, cond)
        return met != (cond.value("invert").lower() == "true"), multiple

    # -- the tests, in TripleA's order ----------------------------------------------------------------

    def _test(self, state: State, cond: Attachment) -> tuple[bool, int]:
        subs = cond.names("conditions")
        if subs and not self.all_met(state, subs, cond.value("conditionType", "AND")):
            return False, 0
        if not state.switches.get(cond.name, cond.value("switch", "true").lower() == "true"):
            return False, 0
        rounds = cond.value("rounds") or cond.value("turns")
        if rounds and not in_rounds(state.round, rounds):
            return False, 0
        players = cond.names("players") or [cond.attach_to]
        multiple = 1
        each = False
        for option in _TERRITORY_TESTS:
            for n, value, count in cond.options:
                if n != option:
                    continue
                places, needed, counted_each = self._places(state, value, count, players, option)
                hits = self._count(state, option, places, players, _presence(cond))
                if hits < needed or (counted_each and hits == 0):
                    return False, 0
                if counted_each:
                    each, multiple = True, hits
        for n, value, count in cond.options:
            if n == "atWarPlayers":
                listed = [p for p in value.split(":") if p]
                found = sum(self.rules.at_war(state, cond.attach_to, p) for p in listed)
                needed = int(count) if count.isdigit() else len(listed)
                if (needed == 0 and found) or (needed and found < needed):
                    return False, 0
                if count == "each":
                    each, multiple = True, found
            elif n == "relationship" and not relation_is(self.rules, state, *(value.split(":") + ["", "", ""])[:3]):
                return False, 0
        return True, multiple if each else 1

    def _places(self, state: State, value: str, count: str, players: list[str], option: str
                ) -> tuple[list[str], int, bool]:
        """The territories a list names, how many must count, and whether each counts ("each")."""
        items, needed, each, group = _parse_places(value, count)
        if group is None:
            places = list(items)
        else:
            owners = players
            everyone = [p.name for p in self.scenario.players]
            if group == "enemy":
                owners = [p for p in everyone if any(self.rules.at_war(state, p, q) for q in players)]
            elif group == "original" and option == "alliedOwnershipTerritories":
                owners = [p for p in everyone if any(self.rules.friendly(state, p, q) for q in players)]
            places = self._group(state, group, owners)
        known = self.scenario.territories_by_name()
        for place in places:
            if place not in known:
                self.scenario.territory(place)      # KeyError names an unknown territory: the map is broken
        return places, len(places) if needed is None else needed, each

    def _group(self, state: State, group: str, players: list[str]) -> list[str]:
        land = {t.name for t in self.scenario.territories if not t.water}
        if group == "map":
            return [t.name for t in self.scenario.territories]
        original = {t for t, o in state.original_owners.items() if o in players}
        controlled = {t for t, o in state.owners.items() if o in players}
        chosen = {"original": original, "enemy": original, "originalNoWater": original & land,
                  "controlled": controlled, "controlledNoWater": controlled & land,
                  "all": original | controlled}[group]
        return sorted(chosen)

    def _count(self, state: State, option: str, places: list[str], players: list[str],
               presence: dict[str, int]) -> int:
        rules = self.rules
        if option == "directOwnershipTerritories":
            return sum(state.owners.get(p) in players for p in places)
        if option == "alliedOwnershipTerritories":
            return sum(any(rules.friendly(state, state.owners.get(p) or "", q) for q in players)
                       if state.owners.get(p) else False for p in places)
        whose, test = _TERRITORY_TESTS[option]
        combos = [(_combo_types(combo), n) for combo, n in presence.items()]
        if test == "present" and combos and all(types is not None and n > 0 for types, n in combos):
            # only places with a unit of a listed type can count: most hold none (the map's captured-city markers)
            wanted = set().union(*(types for types, _ in combos))
            holding = {u.place for u in state.units if u.type in wanted}
            places = [p for p in places if p in holding]
            if not places:
                return 0
        index = self._index(state)
        occupied = [p for p in places if p in index]   # a place without units holds none that count
        hits = len(places) - len(occupied) if test == "excluded" else 0
        key = (whose, tuple(players))
        counted = self._counted
        for place in occupied:
            units = []                                  # (type, how many) of the units that count
            for kind, n in index[place].items():
                belongs = counted.get(kind + key)
                if belongs is None:
                    belongs = counted[kind + key] = _belongs(rules, state, *kind, whose, players)
                if belongs:
                    units.append((kind[1], n))
            if test == "excluded":
                hits += not units or bool(combos) and all(_matching(units, types) <= most for types, most in combos)
            else:
                hits += bool(units) and all(_matching(units, types) >= least for types, least in combos)
        return hits


def unit_kinds(state: State) -> dict[str, dict[tuple[str, str], int]]:
    """Place -> (owner, unit type) -> how many: what presence tests count, built in one pass over the units. Valid
    while no unit moves: a Conditions evaluator builds it once for the conditions of one position."""
    index: dict[str, dict[tuple[str, str], int]] = {}
    for u in state.units:
        here = index.setdefault(u.place, {})
        here[u.owner, u.type] = here.get((u.owner, u.type), 0) + 1
    return index


def _belongs(rules, state: State, owner: str, type_: str, whose: str, players: list[str]) -> bool:
    """Whether units of this owner and type count for a presence or exclusion test. Surface means warships: the
    rulebook's "no enemy surface warships" leaves out submarines, transports, and the aircraft and cargo TripleA
    would count."""
    if rules.ut(type_).has("marker"):
        return False
    if whose == "direct":
        return owner in players
    if whose == "allied":
        return owner not in players and any(rules.friendly(state, owner, p) for p in players)
    enemy = any(rules.at_war(state, owner, p) for p in players)
    if whose == "enemy_surface":
        return enemy and rules.ut(type_).domain == "sea" and not rules.is_sub(type_) and not rules.is_transport(type_)
    return enemy


def _presence(cond: Attachment) -> dict[str, int]:
    """unitPresence: unit types (colon-separated, or ANY) -> the count (at least, or at most for exclusions)."""
    return {value: int(count or 0) for n, value, count in cond.options if n == "unitPresence"}


def _combo_types(combo: str) -> set[str] | None:
    """The unit types of a unitPresence key (colon-separated), or None for ANY."""
    return None if combo.lower() == "any" else set(combo.split(":"))


def _matching(units: list[tuple[str, int]], types: set[str] | None) -> int:
    """How many of the units, given as (type, how many), are of these types (None: of any)."""
    if types is None:
        return sum(n for _, n in units)
    return sum(n for t, n in units if t in types)


@lru_cache(maxsize=4096)
def _parse_places(value: str, count: str) -> tuple[tuple[str, ...], int | None, bool, str | None]:
    """A territory list option parsed: its named places, how many must count (None: all), whether each counts,
    and the group it names instead of places ("map", "original" …). Cached: triggers test the same lists
    every phase."""
    items = [i for i in (f"{count}:{value}" if count else value).split(":") if i]
    needed: int | None = None
    each = False
    if items and items[0].isdigit():
        needed = int(items.pop(0))
    elif items and items[0] == "each":
        items.pop(0)
        each, needed = True, 1
    group = next((i for i in items if i in _GROUPS), None)
    return tuple(items), needed, each, group


def relation_is(rules, state: State, a: str, b: str, wanted: str) -> bool:
    """The relationship of a and b is `wanted`: a type's name, or anyWar, anyNeutral, anyAllied (its kind)."""
    if wanted in ("anyWar", "anyNeutral", "anyAllied"):
        return rules.archetype(state, a, b) == wanted[3:].lower()
    return state.relationship(a, b) == wanted


def in_rounds(current: int, spec: str) -> bool:
    """TripleA's rounds: "3", "4-+", "2-5", several joined by colons."""
    for part in spec.split(":"):
        start, _, end = part.partition("-")
        try:
            low = int(start)
            high = low if not end else (10**9 if end == "+" else int(end))
        except ValueError:
            raise Unsupported(f"rounds '{spec}' is not a list of rounds") from None
        if low <= current <= high:
            return True
    return False


def combine(results: list[bool], kind: str) -> bool:
    kind = (kind or "AND").upper()
    if kind == "AND":
        return all(results)
    if kind == "OR":
        return any(results)
    if kind == "XOR":
        return sum(results) == 1
    low, _, high = kind.partition("-")
    try:
        return int(low) <= sum(results) <= (int(high) if high else int(low))
    except ValueError:
        raise Unsupported(f"conditionType '{kind}' is not AND, OR, XOR or a count") from None
