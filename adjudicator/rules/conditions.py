"""The map's conditions (TripleA RulesAttachment), evaluated against a State.

Political actions, triggers and national objectives all rest on them, so one evaluator serves the three. What a
condition can test is what the G40 family's maps use: other conditions (AND, OR or a count), rounds, switches,
relationships, players at war, ownership and unit presence or exclusion in territories. A condition that tests
anything else (battle records, technology, destroyed value, chance) cannot be evaluated from the state we keep:
it counts as not met and says so (`Unsupported`), so a political action resting on it is refused at submit,
never granted by a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

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
    for one state: which owners' units count for a test, and where each unit type stands (a presence test over
    "map" looks only where a listed type does). So use an evaluator while the units do not move and no
    relationship changes."""

    def __init__(self, rules):
        self.rules = rules
        self.scenario = rules.scenario
        self._state: State | None = None                 # the state the caches below are of
        self._where: dict[str, set[str]] | None = None   # unit type -> the places holding one
        self._counted: dict[tuple, bool] = {}            # (owner, type, whose, players) -> whether such units count
        self.unsupported: list[str] = []                 # parts of conditions not evaluated, for explanations

    def _of(self, state: State) -> None:
        """Drop what was kept of another state."""
        if self._state is not state:
            self._state, self._where, self._counted = state, None, {}

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
        parsed = _parsed(cond)
        if parsed.unknown:
            raise Unsupported(parsed.unknown)
        met, multiple = self._test(state, cond, parsed)
        return met != parsed.invert, multiple

    # -- the tests, in TripleA's order ----------------------------------------------------------------

    def _test(self, state: State, cond: Attachment, parsed: _Parsed) -> tuple[bool, int]:
        if parsed.subs and not self.all_met(state, parsed.subs, parsed.kind):
            return False, 0
        if not state.switches.get(cond.name, parsed.switch):
            return False, 0
        if parsed.rounds and not in_rounds(state.round, parsed.rounds):
            return False, 0
        players = parsed.players
        multiple = 1
        each = False
        for option, value, count in parsed.territory_tests:
            places, needed, counted_each = self._places(state, value, count, players, option)
            hits = self._count(state, option, places, players, parsed.combos)
            if hits < needed or (counted_each and hits == 0):
                return False, 0
            if counted_each:
                each, multiple = True, hits
        for n, value, count in parsed.relation_tests:
            if n == "atWarPlayers":
                listed = [p for p in value.split(":") if p]
                found = sum(self.rules.at_war(state, cond.attach_to, p) for p in listed)
                needed = int(count) if count.isdigit() else len(listed)
                if (needed == 0 and found) or (needed and found < needed):
                    return False, 0
                if count == "each":
                    each, multiple = True, found
            elif not relation_is(self.rules, state, *(value.split(":") + ["", "", ""])[:3]):
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
        if group != "map":                          # the map's own names are known
            known = self.scenario.territories_by_name()
            for place in places:
                if place not in known:
                    self.scenario.territory(place)  # KeyError names an unknown territory: the map is broken
        return places, len(places) if needed is None else needed, each

    def _group(self, state: State, group: str, players: list[str]) -> list[str]:
        if group == "map":
            return [t.name for t in self.scenario.territories]
        land = {t.name for t in self.scenario.territories if not t.water}
        original = {t for t, o in state.original_owners.items() if o in players}
        controlled = {t for t, o in state.owners.items() if o in players}
        chosen = {"original": original, "enemy": original, "originalNoWater": original & land,
                  "controlled": controlled, "controlledNoWater": controlled & land,
                  "all": original | controlled}[group]
        return sorted(chosen)

    def _count(self, state: State, option: str, places: list[str], players: list[str],
               combos: list[tuple[set[str] | None, int]]) -> int:
        rules = self.rules
        if option == "directOwnershipTerritories":
            return sum(state.owners.get(p) in players for p in places)
        if option == "alliedOwnershipTerritories":
            return sum(any(rules.friendly(state, state.owners.get(p) or "", q) for q in players)
                       if state.owners.get(p) else False for p in places)
        whose, test = _TERRITORY_TESTS[option]
        self._of(state)
        if test == "present" and combos and all(types is not None and n > 0 for types, n in combos):
            # only places holding units that may count of each listed group of types can count: most hold none
            # (the map's end-of-turn triggers look all over the map for captured-city markers, which never count)
            for types, _ in combos:
                holding = self._holding(state, types)
                if not holding:
                    return 0
                places = [p for p in places if p in holding]
            if not places:
                return 0
        key = (whose, tuple(players))
        counted = self._counted
        hits = 0
        for place in places:
            units = []                                  # the types of the units here that count
            for u in state.units_at(place):
                kind = (u.owner, u.type)
                belongs = counted.get(kind + key)
                if belongs is None:
                    belongs = counted[kind + key] = _belongs(rules, state, *kind, whose, players)
                if belongs:
                    units.append(u.type)
            if test == "excluded":
                hits += not units or bool(combos) and all(_matching(units, types) <= most for types, most in combos)
            else:
                hits += bool(units) and all(_matching(units, types) >= least for types, least in combos)
        return hits

    def _holding(self, state: State, types: set[str]) -> set[str]:
        """The places holding a unit of one of `types` that may count: markers never do (_belongs), and no unit
        is of a type the map does not have. Where each type stands is found in one pass over the units, only
        when a type that may count is asked for."""
        types = {t for t in types if self._may_count(t)}
        if not types:
            return set()
        if self._where is None:
            self._where = {}
            for u in state.units:
                self._where.setdefault(u.type, set()).add(u.place)
        return set().union(*(self._where.get(t, ()) for t in types))

    def _may_count(self, type_: str) -> bool:
        """Whether units of this type may count in a presence test (_belongs): not a marker, nor unknown."""
        try:
            return not self.rules.ut(type_).has("marker")
        except KeyError:
            return False


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


class _Parsed:
    """A condition's options as the tests read them, parsed once (see _parsed)."""

    def __init__(self, cond: Attachment):
        self.options = cond.options
        unknown = sorted({n for n, _, _ in cond.options if n not in _OTHER_OPTIONS and n not in _TERRITORY_TESTS})
        self.unknown = (f"condition {cond.name} tests {', '.join(unknown)}, which this adjudicator does not "
                        "evaluate") if unknown else ""
        self.subs = cond.names("conditions")
        self.kind = cond.value("conditionType", "AND")
        self.switch = cond.value("switch", "true").lower() == "true"
        self.rounds = cond.value("rounds") or cond.value("turns")
        self.players = cond.names("players") or [cond.attach_to]
        # territory tests in TripleA's order, then the relationships tested, in the map's
        self.territory_tests = [(n, value, count) for option in _TERRITORY_TESTS
                                for n, value, count in cond.options if n == option]
        self.relation_tests = [(n, value, count) for n, value, count in cond.options
                               if n in ("atWarPlayers", "relationship")]
        self.invert = cond.value("invert").lower() == "true"

    @cached_property
    def combos(self) -> list[tuple[set[str] | None, int]]:
        """unitPresence: (the unit types, None for ANY; the count, at least, or at most for exclusions). Read
        when a territory test first asks, as a count that is not a number fails only there."""
        presence = {value: int(count or 0) for n, value, count in self.options if n == "unitPresence"}
        return [(_combo_types(combo), n) for combo, n in presence.items()]


def _parsed(cond: Attachment) -> _Parsed:
    """The condition's options parsed, kept with it: triggers test the same conditions every phase, and a map's
    options are not changed once read (a condition given new options is parsed anew)."""
    parsed = cond.__dict__.get("_parsed")
    if parsed is None or parsed.options is not cond.options:
        parsed = cond.__dict__["_parsed"] = _Parsed(cond)
    return parsed


def _combo_types(combo: str) -> set[str] | None:
    """The unit types of a unitPresence key (colon-separated), or None for ANY."""
    return None if combo.lower() == "any" else set(combo.split(":"))


def _matching(units: list[str], types: set[str] | None) -> int:
    """How many of the units, given by their types, are of these types (None: of any)."""
    return len(units) if types is None else sum(t in types for t in units)


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


# -- victory held for a whole round -----------------------------------------------------------------------------
# A whole round cannot be seen in one position, so a hold is a record in State.switches, where it survives from
# turn to turn and is part of the state hash `audit` replays: "victory:KEY" = "Japanese:4" means the hold began
# with the Japanese turn of round 4. Only the mover's side takes territory during a turn, so looking at the end of
# every turn sees every dip. When a side has won, switches["victory"] names the hold and nothing is checked again.

WON = "victory"


@dataclass(frozen=True)
class Hold:
    """A victory condition a side must keep for a whole round (G40 Alt-Universe's cities, the 2nd-edition map's
    victory triggers): `met(round)` says whether it holds in the position now, as if in that round."""

    key: str                        # the record is switches["victory:" + key]
    side: str                       # the alliance that wins
    rule: str                       # the ledger row or RULINGS.md entry the events cite
    met: Callable[[int], bool]
    broken_rule: str = ""           # cited when a hold is broken (default: `rule`)
    round_start_rule: str = ""      # cited when a hold starts with the next round's first turn


def _record(value) -> tuple[str, int]:
    power, _, round_ = str(value).rpartition(":")
    return power, int(round_)


def check_holds(state: State, power: str, players: list[str], holds: list[Hold], event: Callable[..., dict]) -> list[dict]:
    """At the end of `power`'s turn: each condition met starts a hold with this turn (or, if it is met only from
    the next round and this turn ends the round, with the next round's first turn); a condition no longer met
    breaks its hold; a hold still met when its starter's next turn ends wins. `event(kind, hold, starter, round,
    **more)` words each event the game's way."""
    if state.switches.get(WON):
        return []
    events = []
    for hold in holds:
        key = f"victory:{hold.key}"
        record = state.switches.get(key)
        if record:
            starter, start = _record(record)
            if not hold.met(state.round):
                del state.switches[key]
                events.append(event("victory_hold_broken", hold, starter, start, rule=hold.broken_rule or hold.rule))
            elif starter == power and state.round > start:
                state.switches[WON] = hold.key
                return events + [event("victory", hold, starter, start)]
            else:
                events.append(event("victory_hold", hold, starter, start, new=False))
        elif hold.met(state.round):
            state.switches[key] = f"{power}:{state.round}"
            events.append(event("victory_hold", hold, power, state.round, new=True))
        elif power == players[-1] and hold.met(state.round + 1):
            state.switches[key] = f"{players[0]}:{state.round + 1}"
            events.append(event("victory_hold", hold, players[0], state.round + 1, new=True, at_round_start=True,
                                rule=hold.round_start_rule or hold.rule))
    return events


def hold_status(state: State, holds: list[Hold], event: Callable[..., dict]) -> dict:
    """The winner, as the event that ended the game, and the holds under way, as the events that report them."""
    won = state.switches.get(WON)
    under_way = []
    for hold in holds:
        record = state.switches.get(f"victory:{hold.key}")
        if not record:
            continue
        starter, start = _record(record)
        if hold.key == won:
            return {"winner": event("victory", hold, starter, start), "holds": []}
        under_way.append(event("victory_hold", hold, starter, start, new=False))
    return {"winner": None, "holds": under_way}
