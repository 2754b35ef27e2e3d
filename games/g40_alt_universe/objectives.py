"""G40 Alt-Universe's national objectives as its rule document words them (LEDGER.md AU-66 to AU-101; Beta-1.1
AU11-05 to AU11-08), played in place of the map's objective conditions.

The map's objectives carry the document's values and territory lists, but several of its conditions read the
words differently, and the document wins:

- "the Axis control" / "the Allies control" means held by a power of that side (RULINGS.md "side-control"). The
  map asks whether the holder is friendly with the objective's owner: a pro-Axis neutral such as PX4 counts for
  Germany before anyone has taken it, British-held G2 does not count for the Soviet Union until the two are
  allied, and the 2.0.4 map (Beta-1.1) asks that Germany or the Soviet Union hold North Sea Resources itself.
- China's Allied Financial Support needs the neighbouring territory Allied-held; the map asks only that it is
  not Axis-held.
- "No Axis warships" means no warship of any Axis power, at war with the owner or not (RULINGS.md
  "axis-warships"); the map looks only at powers at war with the owner.
- Boots on the Ground and Diplomacy Abandoned do not need the war the map also asks for.
- While neutral, China's income is 12 whatever its territories are worth (AU-28); the map's flat -11 equals that
  only while they are worth 23.
- War Time Production pays 5 in a Beta-1.3 game that chose the option (AU-85); the map knows no such option.
- Allied Materials let China buy one artillery or AAA for each territory that qualifies, placed there (AU-90);
  the map's purchase list opens them all, in any number, as soon as one qualifies.

France's income cut at escalation levels 1 and 2 (AU-56) is not decided here: the map's objective for it is passed
on as the map computes it, and France's income rule (AltUniverseRules.income) does with it what AU-56 says.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.g40_family import G40Rules
from adjudicator.state import State

from . import neutrals

AXIS = ("Germans", "Italians", "Japanese")
ALLIES = ("Russians", "Americans", "Chinese", "British", "ANZAC", "French")
WAR_TIME_PRODUCTION_5 = "war-time-production-5"     # AU-85, the option a group may agree at game start
NEUTRAL_CHINA_INCOME = 12                           # AU-28
# The map's type for a war the UK declared on Japan (AU-77: Japan's own declaration makes it "War").
DECLARED_BY_THE_UK = "Unprovoked"
US_ISLANDS = ["US2", "US3", "US22"]                 # AU-82; the rest of the original US is its mainland (AU-83)
# AU-87 to AU-89: each Chinese territory and the Allied neighbour it trades through (the map's pairings).
FINANCIAL_SUPPORT = [("AU-87", "C1", "R26"), ("AU-88", "C5", "A10"), ("AU-89", "C21", "UK26")]
ALLIED_MATERIALS = ("artilleryC", "aaGunC")        # AU-90: what the Allied Materials let China buy
SOUTHERN_SHIPPING_LANES = [f"{n} Sea Zone" for n in (58, 68, 69, 83, 84)]
ANZAC_SHIPPING_LANES = [f"{n} Sea Zone" for n in (33, 34, 41, 42, 43, 48, 49, 50, 51, 52, 53, 62, 63, 64, 65)]


def national_objectives(rules: G40Rules, state: State, power: str) -> list[dict]:
    """Every objective of `power`, met or missed, in the document's order: the report lists the missed ones too,
    with the reason, so that players can check the adjudicator's reading against their own."""
    board = _Board(rules, state)
    found = {"Germans": _germans, "Russians": _soviets, "Japanese": _japanese, "Americans": _americans,
             "Chinese": _chinese, "British": _british, "Italians": _italians, "ANZAC": _anzac,
             "French": _french}.get(power, lambda b: [])(board)
    return found


def neutral_china(rules: G40Rules, state: State, power: str, total: int, lines: list[dict]) -> tuple[int, list[dict]]:
    """AU-28: a neutral China's territories pay 12, whatever they are worth; a China that holds none still
    collects nothing (AU-130)."""
    if power != "Chinese" or not rules.can_collect_income(state, power) \
            or neutrals.at_war_with_axis(rules, state, power):
        return total, lines
    for line in lines:
        if line["item"] == "territories":
            line["amount"] = NEUTRAL_CHINA_INCOME
            line["note"] = (f"neutral China collects {NEUTRAL_CHINA_INCOME} PUs whatever its territories are worth "
                            "[AU-28]")
    return sum(line["amount"] for line in lines), lines


def materials_open(rules: G40Rules, state: State) -> list[str]:
    """AU-90 (RULINGS.md "allied-materials"): where China at war may place an artillery or AAA this turn: each of
    C1, C5, C21 held by China since the start of its turn beside its Allied neighbour held by the Allies since then.
    Only China moves in its turn, so what changed hands meanwhile is what it took (state.conquered)."""
    if not neutrals.at_war_with_axis(rules, state, "Chinese"):
        return []
    return [mine for _, mine, neighbour in FINANCIAL_SUPPORT
            if state.owners.get(mine) == "Chinese" and state.owners.get(neighbour) in ALLIES
            and mine not in state.conquered and neighbour not in state.conquered]


def check_materials_purchase(rules: G40Rules, state: State, power: str, units: dict[str, int]) -> None:
    """AU-90: one artillery or AAA for each territory open to the Allied Materials."""
    wanted = sum(n for unit, n in units.items() if unit in ALLIED_MATERIALS)
    if power != "Chinese" or not wanted:
        return
    waiting = sum(n for unit, n in state.purchases.get(power, {}).items() if unit in ALLIED_MATERIALS)
    open_ = materials_open(rules, state)
    if waiting + wanted > len(open_):
        where = f"{len(open_)} this turn ({', '.join(open_)})" if open_ else "none this turn"
        raise RuleViolation(f"China buys one artillery or AAA for each of C1, C5 and C21 it holds at war beside an "
                            f"Allied-held neighbour: {where}, not {waiting + wanted}", "AU-90")


def check_materials_placement(rules: G40Rules, state: State, power: str, place: str, units: dict[str, int]) -> None:
    """AU-90: each artillery or AAA goes into a territory open to the Allied Materials, one to a territory."""
    wanted = sum(n for unit, n in units.items() if unit in ALLIED_MATERIALS)
    if power != "Chinese" or not wanted:
        return
    open_ = materials_open(rules, state)
    if place not in open_:
        raise RuleViolation(f"China places artillery and AAA only in C1, C5 or C21, each held since the start of "
                            f"the turn beside an Allied-held neighbour ({', '.join(open_) or 'none this turn'}); "
                            f"not in {place}", "AU-90")
    here = sum(1 for u in state.units_at(place, power) if u.type in ALLIED_MATERIALS and u.flags.get("placed"))
    if here + wanted > 1:
        raise RuleViolation(f"China places one artillery or AAA in {place} per turn", "AU-90")


# -- the document's list, power by power ---------------------------------------------------------------------


def _germans(b: _Board) -> list[dict]:
    soviet_cities = sorted((c for c in b.rules.cities() if b.state.original_owners.get(c) == "Russians"), key=_order)
    sea_lion = ["UK4", "F13"] if b.beta_11 else ["UK4", "F13", "A4"]
    return [
        b.at_peace("AU-67", "Trade with the Soviet Union", 5, "Germans", ["Russians"]),
        b.holds("AU-68", "Natural Enemies", 5, soviet_cities, "Germans", least=2),
        b.holds("AU-69", "Western Wall", 5, ["UK12", "UK13", "UK14", "PA5", "PA8", "PX4"], AXIS),
        b.holds("AU-70", "Outer Defense", 5, ["PA7", "UK7", "UK11", "G20"], AXIS),
        b.each("AU11-05" if b.beta_11 else "AU-71", "Sea Lion", 5, sea_lion, "Germans"),
        b.holds("AU-72", "North Sea Resources", 5, ["G2", "G5", "PX2", "R1"], AXIS),
    ]


def _soviets(b: _Board) -> list[dict]:
    guests = sorted(p for p in b.originally("Russians") if any(
        u.owner in ALLIES and u.owner != "Russians" and not b.rules.ut(u).has("marker") for u in b.state.units_at(p)))
    prestige = b.line("AU-74", "National Prestige", 3, 0 if guests else 1,
                      f"other Allied units in {_words(guests)}", b.war_needed("Russians"))
    return [
        b.each("AU-73", "Growth of the Union", 2, ["PA4", "PA10", "PA11", "PA12"], "Russians"),
        prestige,
        b.holds("AU-75", "Expansion", 5, b.originally(*AXIS), "Russians", least=3, say="originally Axis territories"),
        b.holds("AU-76", "North Sea Resources", 5, ["G2", "PX2", "R1", "R5"], ALLIES),
    ]


def _japanese(b: _Board) -> list[dict]:
    declared = [p for p in ("British", "ANZAC") if b.rules.at_war(b.state, "Japanese", p)
                and b.state.relationship("Japanese", p) != DECLARED_BY_THE_UK]
    at_war = [p for p in ("Americans", "French") if b.rules.at_war(b.state, "Japanese", p)]
    why = "; ".join(w for w in (declared and f"Japanese declared war on {_words(declared)}",
                                at_war and f"Japanese at war with {_words(at_war)}") if w)
    return [
        b.line("AU-77", "Trade with the US and France", 10, 0 if why else 1, why),
        b.at_peace("AU-78", "Trade with China", 5, "Japanese", ["Chinese"]),
        b.each("AU-79", "Allied Cities", 5, ["US22", "A4", "F13", "UK27", "UK10", "R26"], "Japanese"),
        b.holds("AU-80", "Northern Defense Perimeter", 5, ["A5", "A7", "PA6", "R22"], AXIS),
        b.holds("AU-81", "Imperialism Rampant", 5, b.originally("Chinese"), AXIS),
    ]


def _americans(b: _Board) -> list[dict]:
    war = b.war_needed("Americans")
    if b.state.switches.get(f"option:{WAR_TIME_PRODUCTION_5}"):
        rule, production = "AU-85", 5
    else:
        rule, production = "AU11-06" if b.beta_11 else "AU-84", 10
    mainland = [t for t in b.originally("Americans") if t not in US_ISLANDS]
    return [
        b.holds("AU-82", "Island Influence", 5, US_ISLANDS, "Americans", blocked=war),
        b.holds("AU-83", "National Pride", 10, mainland, "Americans", blocked=war),
        b.line(rule, "War Time Production", production, 0 if war else 1, war),
        b.holds("AU-86", "Boots on the Ground", 5, [t for t in b.originally(*AXIS) if not b.island(t)], "Americans",
                least=1, say="original German, Italian or Japanese non-island territories"),
    ]


def _chinese(b: _Board) -> list[dict]:
    war = b.war_needed("Chinese")
    lines = []
    for rule, mine, neighbour in FINANCIAL_SUPPORT:
        why = war
        if not why and b.state.owners.get(mine) != "Chinese":
            why = f"{mine} not held by Chinese"
        if not why and b.state.owners.get(neighbour) not in ALLIES:
            why = f"{neighbour} not held by the Allies"
        lines.append(b.line(rule, f"Allied Financial Support ({mine} beside {neighbour})", 2, 0 if why else 1, why))
    return lines


def _british(b: _Board) -> list[dict]:
    return [
        b.holds("AU-91", "Continental Influence", 5, ["UK7", "UK11", "UK12", "UK13", "UK14", "G20"], ALLIES),
        b.holds("AU-92", "Expanding Democracy", 5, b.originally("Pro_Allies"), "British", least=5,
                say="Pro-Allied territories"),
        b.no_axis_warships("AU-93", "Southern Shipping Lanes", 5, SOUTHERN_SHIPPING_LANES),
    ]


def _italians(b: _Board) -> list[dict]:
    if b.beta_11:
        wall, ambitions = ("AU11-07", 5), ("AU11-08", 5, ["I7", "PA14", "UK30", "UK31", "PA15"])
    else:
        wall, ambitions = ("AU-95", 3), ("AU-97", 3, ["UK20", "PA14", "UK30", "UK31", "PA15"])
    return [
        b.each("AU-94", "Roman Resurgence", 5, ["R26", "UK27", "F13"], "Italians"),
        b.holds(wall[0], "Southern Wall", wall[1], ["UK21", "UK22", "UK23", "UK24", "UK25", "UK26"], AXIS),
        b.holds("AU-96", "Southern Resources", 5, ["UK30", "NL10", "NL11", "NL12", "NL13"], AXIS),
        b.holds(ambitions[0], "Amphibious Ambitions", ambitions[1], ambitions[2], AXIS, least=3),
    ]


def _anzac(b: _Board) -> list[dict]:
    return [
        b.holds("AU-98", "Island Resources", 3, b.originally("ANZAC") + ["PA6"], "ANZAC",
                blocked=b.war_needed("ANZAC", ["Japanese"])),
        b.no_axis_warships("AU-99", "Shipping Lanes", 3, ANZAC_SHIPPING_LANES,
                           blocked=b.war_needed("ANZAC", list(AXIS), every=True)),
    ]


def _french(b: _Board) -> list[dict]:
    return [
        b.holds("AU-100", "Fatherland", 5, b.originally("French"), "French", blocked=b.war_needed("French")),
        b.each("AU-101", "Diplomacy Abandoned", 2, b.originally(*AXIS), "French", most=3,
               say="original German, Italian or Japanese territories"),
    ]


# -- what the objectives ask of a position -------------------------------------------------------------------


class _Board:
    """The position seen the way the document's objectives read it, and the report line of each."""

    def __init__(self, rules: G40Rules, state: State):
        self.rules = rules
        self.state = state
        self.beta_11 = rules.rules_version == "beta-1.1"
        self.land = _land(rules.scenario)

    def originally(self, *powers: str) -> list[str]:
        """The land `powers` owned at the start (the map's fake capitals are not land anyone holds), in order."""
        owners = self.state.original_owners
        return [t for t in self.land if owners.get(t) in powers]

    def island(self, place: str) -> bool:
        """AU-147's island: a land territory that borders no other land territory."""
        return not any(n in self.land for n in self.rules.scenario.neighbours(place))

    def war_needed(self, power: str, enemies: list[str] | None = None, every: bool = False) -> str:
        """Why a "while at war" objective cannot be met now: '' when `power` is at war with one of `enemies` (the
        Axis unless named), or with each of them when `every`."""
        enemies = enemies or list(AXIS)
        at_war = [e for e in enemies if self.rules.at_war(self.state, power, e)]
        if (len(at_war) == len(enemies)) if every else at_war:
            return ""
        if every:
            return f"{power} not at war with {_words([e for e in enemies if e not in at_war])}"
        return f"{power} not at war" + ("" if enemies == list(AXIS) else f" with {_words(enemies)}")

    # -- report lines --------------------------------------------------------------------------------------

    def line(self, rule: str, name: str, value: int, times: int, why: str = "", blocked: str = "") -> dict:
        """One objective as the income event lists it; `why` (or what `blocked` it) says why it was missed."""
        times = 0 if blocked else times
        entry = {"name": name, "rule": rule, "value": value, "met": times > 0, "paid": value * times}
        if times > 1:
            entry["times"] = times
        if not times and (blocked or why):
            entry["note"] = blocked or why
        return entry

    def at_peace(self, rule: str, name: str, value: int, power: str, others: list[str]) -> dict:
        at_war = [o for o in others if self.rules.at_war(self.state, power, o)]
        return self.line(rule, name, value, 0 if at_war else 1, f"{power} at war with {_words(at_war)}")

    def holds(self, rule: str, name: str, value: int, places: list[str], by: str | tuple, least: int | None = None,
              blocked: str = "", say: str = "") -> dict:
        """Pays once when `by` (a power, or a side) holds all `places`, or at least `least` of them."""
        held = self._held(places, by)
        need = len(places) if least is None else least
        if least is None:
            why = f"{_words([p for p in places if p not in held])} not held by {_who(by)}"
        else:
            what = say or f"of {_words(places)}"
            why = f"{_who(by)} hold {len(held)} {what}, {need} needed"
        return self.line(rule, name, value, 1 if len(held) >= need else 0, why, blocked)

    def each(self, rule: str, name: str, value: int, places: list[str], by: str, most: int | None = None,
             say: str = "") -> dict:
        """Pays for each of `places` that `by` holds, at most `most` times."""
        times = min(len(self._held(places, by)), most or len(places))
        return self.line(rule, name, value, times,
                         f"{_who(by)} hold no {say}" if say else f"none of {_words(places)} held by {_who(by)}")

    def no_axis_warships(self, rule: str, name: str, value: int, zones: list[str], blocked: str = "") -> dict:
        """RULINGS.md "axis-warships": any Axis power's ships but transports, whether at war with the owner or not."""
        found = [z for z in zones if any(u.owner in AXIS and self.rules.ut(u).domain == "sea"
                                         and not self.rules.is_transport(u) for u in self.state.units_at(z))]
        return self.line(rule, name, value, 0 if found else 1, f"Axis warships in {_words(found)}", blocked)

    def _held(self, places: list[str], by: str | tuple) -> list[str]:
        """RULINGS.md "side-control": held by the power, or by a power of the side; neutrals hold for no side."""
        holders = by if isinstance(by, tuple) else (by,)
        return [p for p in places if self.state.owners.get(p) in holders]


def _land(scenario) -> dict[str, None]:
    """The map's land but its fake capitals, in natural order (_order tells every name of the Alt-Universe maps
    apart), kept per scenario: every income line of every power asks."""
    land = scenario.__dict__.get("_au_land")
    if land is None:
        land = scenario.__dict__["_au_land"] = dict.fromkeys(
            sorted((t.name for t in scenario.territories if not t.water and not t.hidden), key=_order))
    return land


def _who(by: str | tuple) -> str:
    return {AXIS: "the Axis", ALLIES: "the Allies"}.get(by, by) if isinstance(by, tuple) else by


def _words(names: list[str]) -> str:
    names = [f"SZ {n.removesuffix(' Sea Zone')}" if n.endswith(" Sea Zone") else n for n in names]
    if len(names) > 6:
        return f"{', '.join(names[:6])} and {len(names) - 6} more"
    return ", ".join(names)


def _order(name: str) -> tuple:
    """Map names in their natural order: C2 before C10."""
    stem = name.rstrip("0123456789")
    return (stem, int(name[len(stem):] or 0))
