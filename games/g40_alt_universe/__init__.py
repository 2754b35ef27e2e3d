"""G40 Alt-Universe: the G40 base rules plus the variant's hooks, on the Alt-Universe TripleA map.

Rule versions choose the map file that goes with them (shared/triplea/README.md): Beta-1.3 plays on map
2.0.8, Beta-1.1 on map 2.0.4. The class holds the hooks; the rules that need more than a few lines live in
the modules beside it (neutrals, France's escalation, declarations of war, victory).
"""

import re

from adjudicator.errors import ILLEGAL, OrderError
from adjudicator.notation.orders import Kamikaze
from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.g40_family import G40Rules
from adjudicator.state import State, Unit
from adjudicator.words import possessive

from . import bombers, declarations, france, neutrals, objectives, straits, victory
from .names import NAMES

# AU-132 to AU-134: what a capture pays the attacker.
CITY_BONUS, MINOR_IC_BONUS, MAJOR_IC_BONUS = 5, 3, 10
BANK_PAYS = {"NL11"}                    # AU-141: the Neutral League city's bonus comes from the bank
US_NEUTRAL_ZONES = {"54 Sea Zone", "55 Sea Zone", "78 Sea Zone", "79 Sea Zone"}   # AU-25
CHINA_BORDER_ALLIES = ("R26", "R31", "R32", "UK26", "A10")     # AU-32
TECHNOLOGY_SUPPORTS = {"supportAttachmentMechanizedTechnology"}
# Map triggers whose rules the document decides here instead (plays_trigger).
REPLACED_TRIGGERS = ("Independent_Neutral", "French_Escalation", "French_Unrestricted_Movement", "French_UK19",
                     "Flying_Tigers")


class AltUniverseRules(G40Rules):
    name = "g40-alt-universe"
    title = "G40 Alt-Universe"
    no_income = "no city held: no income (AU-129)"
    placed_per_territory = None         # AU-35: China places with no limit per territory
    people_names = NAMES
    takeover_rule = "AU-125"            # the document's row for pro-side neutrals "as in the base game" (BG-41)

    def __init__(self, scenario, rules_version: str = ""):
        super().__init__(scenario, rules_version)
        self._played_types = bombers.played_types(scenario)      # RULINGS.md "bomber-payload"
        # The map's 23 cities, its victoryCity territories (the document lists none): asked at every capture,
        # income and end of turn.
        self._cities = [t.name for t in scenario.territories if t.victory_city and not t.hidden]

    # -- cities (RULINGS.md "cities") ----------------------------------------------------------------

    def cities(self) -> list[str]:
        return self._cities

    def can_collect_income(self, state: State, power: str) -> bool:
        """AU-129: a power collects while it holds a city, its own or one it took; AU-130: China while it holds
        any territory."""
        if power == "Chinese":
            return power in state.owners.values()
        return any(state.owners.get(c) == power for c in self.cities())

    def capture_goes_to(self, state: State, power: str, place: str) -> str:
        """AU-150: liberated territory of a power without a city stays with the liberator; AU-152: a territory
        with a city always goes back to its original owner."""
        original = state.original_owners.get(place)
        if (place in self.cities() and original and original != power and self.friendly(state, power, original)
                and original in self.scenario.turn_players()):
            return original
        return super().capture_goes_to(state, power, place)

    def capture_bonus(self, state: State, captor: str, place: str, previous: str | None) -> dict:
        """AU-132 to AU-141 (Beta-1.1: AU11-13): 5 for a city, 3 for a minor factory, 10 for a major one, each
        the first time it is captured, paid by the loser from its treasury as far as it goes (NL11 by the bank)."""
        if previous is None or not self.at_war(state, captor, previous):
            return {}
        items = []
        per_territory = self.rules_version == "beta-1.1"
        if per_territory and state.spent.get(f"bonus:{place}"):
            return {}
        if place in self.cities() and not state.spent.get(f"bonus:city:{place}"):
            items.append({"item": "city", "amount": CITY_BONUS})
            state.spent[f"bonus:city:{place}"] = 1
        factory = next((u for u in state.units_at(place, previous) if self.ut(u).has("factory")), None)
        if factory is not None and not state.spent.get(f"bonus:ic:{place}"):
            major = self.number(factory, "canProduceXUnits", 0) >= 10
            items.append({"item": "major factory" if major else "minor factory",
                          "amount": MAJOR_IC_BONUS if major else MINOR_IC_BONUS})
            state.spent[f"bonus:ic:{place}"] = 1
        if per_territory:
            state.spent[f"bonus:{place}"] = 1        # AU11-13: the first capture, whether it pays or not
        if not items:
            return {}
        due = sum(i["amount"] for i in items)
        payer = None if place in BANK_PAYS or previous not in self.scenario.turn_players() else previous
        paid = due if payer is None else min(due, state.treasury.get(payer, 0))
        if payer is not None:
            state.treasury[payer] -= paid
        state.treasury[captor] = state.treasury.get(captor, 0) + paid
        event = {"bonus": items, "bonus_paid": paid, "bonus_from": payer}
        if paid < due:
            event["bonus_short"] = due - paid
        return event

    def new_factory_placed(self, state: State, place: str) -> None:
        """AU-138: a new factory where one was destroyed (China's captures) can pay its bonus again."""
        state.spent.pop(f"bonus:ic:{place}", None)

    # -- victory (victory.py) ------------------------------------------------------------------------

    def check_victory(self, state: State, power: str) -> list[dict]:
        """AU-02 to AU-06: the holds of 14 Axis cities, of fewer than 6, and from round 8 of fewer than 8."""
        return victory.check(self, state, power)

    def victory_status(self, state: State) -> dict:
        return victory.status(self, state)

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        return victory.goals(self, owners)

    # -- movement ------------------------------------------------------------------------------------

    def places_without_factory(self, state: State, power: str, place: str) -> int | None:
        """AU-35: China places in any originally Chinese territory it owns (the map allows any it owns)."""
        if power == "Chinese" and state.original_owners.get(place) != power:
            return None
        return super().places_without_factory(state, power, place)

    def check_movement_limits(self, state: State, power: str, path: list[str]) -> None:
        """The map's limits, and three it lacks: AU-32, Chinese units enter the Allied territories beside China
        only while their original owner is at war with Japan; AU-37, other Allied units enter Chinese territories
        only while their power is at war with Japan; AU-25, while neutral the US ends naval moves only next to its own
        territories or in SZ 54, 55, 78 and 79."""
        straits.check_flying_tigers(power, path)      # AU-34 says more than the map's list, which lacks SZ 76
        super().check_movement_limits(state, power, path)
        if power == "Chinese":
            ally = next((p for p in path[1:] if p in CHINA_BORDER_ALLIES
                         and not self.at_war(state, state.original_owners.get(p, ""), "Japanese")), None)
            if ally:
                raise RuleViolation(f"Chinese units may enter {ally} only while {state.original_owners.get(ally)}, "
                                    f"its original owner, are at war with Japan", "AU-32")
        elif neutrals.side(self, power) != "Axis" and not self.at_war(state, power, "Japanese"):
            china = next((p for p in path[1:] if state.original_owners.get(p) == "Chinese"
                          and self.is_friendly_land(state, power, p)), None)
            if china:
                raise RuleViolation(f"{possessive(power, the=True)} units may enter Chinese territories such as {china} only "
                                    f"while at war with Japan", "AU-37")
        dest = path[-1]
        if power == "Americans" and self.is_water(dest) and not neutrals.at_war_with_axis(self, state, power) \
                and dest not in US_NEUTRAL_ZONES \
                and not any(state.owners.get(n) == power for n in self.scenario.neighbours(dest)):
            raise RuleViolation(f"while the US is neutral, its ships end their moves next to a US territory or in "
                                f"SZ 54, 55, 78 or 79; not in {dest}", "AU-25")

    # -- bombers (bombers.py) --------------------------------------------------------------------------

    def supports(self) -> list:
        """No technology (RULINGS.md "research"): the 2.0.4 map gives every power the Improved Mech Infantry
        support (armour lifts mech infantry to 2), which its author removed in 2.0.6; the rules never had it."""
        return [s for s in self.scenario.supports if s.name not in TECHNOLOGY_SUPPORTS]

    def ut(self, unit):
        """RULINGS.md "bomber-payload": on the Beta-1.1 map the bomber attacks at 4 without its payload, which
        is bookkeeping."""
        name = unit if isinstance(unit, str) else unit.type
        return self._played_types.get(name) or self.scenario.unit_type(name)

    def taken_last(self, unit, role: str) -> bool:
        """AU-103: a defending bomber is chosen as a casualty only after every other defending unit."""
        return super().taken_last(unit, role) or (role == "defender" and bombers.is_bomber(self, unit))

    def leaves_battle(self, unit: Unit, rnd: int) -> str:
        """AU11-09, AU11-10: in Beta-1.1 attacking bombers leave the battle after round 1."""
        return bombers.leaves_battle(self, unit, rnd) if self.rules_version == "beta-1.1" else ""

    def destroys_defenceless(self, unit: Unit, role: str) -> bool:
        """AU11-11: Beta-1.1 attacking bombers destroy only what they hit, never lone transports outright."""
        return not (self.rules_version == "beta-1.1" and role == "attacker" and bombers.is_bomber(self, unit))

    def bombing_bonus(self, unit: Unit, escorts: int, interceptors: int) -> int:
        """AU11-12: Beta-1.1 bombers add 4 in a raid nobody intercepts or that twice the escorts protect."""
        if self.rules_version == "beta-1.1":
            return bombers.bombing_bonus(self, unit, escorts, interceptors)
        return super().bombing_bonus(unit, escorts, interceptors)

    # -- declarations of war (declarations.py) ------------------------------------------------------------

    declarations_by_rulebook = True

    def may_declare_war(self, state: State, power: str, target: str) -> None:
        super().may_declare_war(state, power, target)
        declarations.check(self, state, power, target)

    def plays_trigger(self, trigger) -> bool:
        """The map's triggers for rules we play by the document instead: French escalation and its markers
        (france.py), the UK19 switch (declarations.py), and the Flying Tigers' recall (AU-30)."""
        return not any(part in trigger.name for part in REPLACED_TRIGGERS)

    def end_of_turn(self, state: State, power: str) -> list[dict]:
        """AU-30: if China is still at war with no one when its first turn ends, the Flying Tigers (its fighters)
        go to US21 and are American for the rest of the game (the map checks only Japan, before China moves)."""
        if power != "Chinese" or state.round != 1 or neutrals.at_war_with_axis(self, state, power):
            return []
        tigers = [u for u in state.units if u.owner == power and self.is_air(u)]
        if not tigers:
            return []
        for u in tigers:
            u.owner, u.place = "Americans", "US21"
        return [{"type": "rule", "rule": "AU-30",
                 "text": f"China is still neutral after its first turn: the Flying Tigers "
                         f"({len(tigers)} fighter{'s' if len(tigers) > 1 else ''}) go to US21 as American units"}]

    # -- neutrals and France (neutrals.py, france.py) -------------------------------------------------------

    def air_passable(self, state: State, power: str, place: str) -> bool:
        """AU-122: aircraft may fly over neutrals that do not favour their side (IN, NL, the other side's), if
        their power may attack neutrals (AU-120, AU-121)."""
        if super().air_passable(state, power, place):
            return True
        return self.flying_over_attacks(state, power, place) and self.may_attack_neutrals(state, power)

    def declared_war(self, state: State, power: str, target: str, event: dict) -> list[dict]:
        """A declaration of war on the League is an attack on it (RULINGS.md "league-declaration"): it decides who
        attacked the League first (AU-49, AU-64)."""
        if target != neutrals.LEAGUE:
            return []
        first = neutrals.first_league_attack(self, state) is None
        neutrals.record(state, power, neutrals.LEAGUE)
        if first and neutrals.side(self, power) == "Allies":
            return france.league_attacked_first_by_allies(self, state, self.rules_version == "beta-1.1")
        return []

    def flying_over_attacks(self, state: State, power: str, place: str) -> bool:
        """AU-123: crossing a neutral's land that does not side with the flier's alliance (IN, the League unless it
        sides with it, the other side's PA or PX) is an attack on it."""
        owner = state.owners.get(place)
        return owner in neutrals.NEUTRALS and not self.friendly(state, power, owner)

    def may_attack_neutrals(self, state: State, power: str) -> bool:
        """AU-120: the Axis may attack neutrals whatever their political situation; AU-121: the Allies only
        while at war."""
        mine = neutrals.side(self, power)
        return mine == "Axis" or (mine == "Allies" and neutrals.at_war_with_axis(self, state, power))

    def takes_over_on_entering(self, state: State, power: str, place: str) -> bool:
        """AU-121: an Allied power takes a friendly neutral only while at war (the map lets a neutral US take
        the League's land once the Axis declared war on it)."""
        return super().takes_over_on_entering(state, power, place) and (
            state.owners.get(place) not in neutrals.NEUTRALS or self.may_attack_neutrals(state, power))

    def flown_over(self, state: State, power: str, path: list[str]) -> list[dict]:
        """AU-123: flying over a neutral that does not favour the flier's side is a failed attack on it."""
        events = []
        for place in path[1:-1]:
            if self.flying_over_attacks(state, power, place):
                events += self._attacked(state, power, place, failed=True, how="fly over")
        return events

    def after_battle(self, state: State, power: str, place: str, outcome: dict) -> list[dict]:
        events = self._regains_city(state, (outcome.get("capture") or {}).get("owner"), place)
        if not neutrals.watched(state, place):
            return events
        if outcome.get("result") == "captured" and neutrals.side(self, power) == "Axis":
            state.spent[f"captured:{place}"] = 1                       # AU-24 asks whether A4 or UK10 fell
        return events + self._attacked(state, power, place, failed=outcome.get("result") != "captured", how="attack")

    def _regains_city(self, state: State, owner: str | None, place: str) -> list[dict]:
        """AU-151 (ruling "liberation"): a power that had no city and has one liberated gets back at once its
        other original territories that friendly powers hold."""
        cities = self.cities()
        if (not owner or place not in cities or state.original_owners.get(place) != owner
                or [c for c in cities if state.owners.get(c) == owner] != [place]):
            return []
        back = sorted(t for t, o in state.owners.items() if state.original_owners.get(t) == owner and o != owner
                      and self.friendly(state, o, owner) and o in self.scenario.turn_players())
        for t in back:
            state.owners[t] = owner
        return [{"type": "rule", "rule": "AU-151",
                 "text": f"{owner} have a city again ({place}): {', '.join(back)} go back to them"}] if back else []

    def _attacked(self, state: State, power: str, place: str, failed: bool, how: str) -> list[dict]:
        """Record an attack on a neutral (or a watched territory) and play what follows: an IN territory that
        holds out joins the other side (AU-127), the League sides against the attacker (AU-126), the
        Allies' first attack on the League stops French escalation (AU-64), and France's level moves (AU-53)."""
        events = []
        kind = neutrals.kind(state, place)
        mine = neutrals.side(self, power)
        league_first = kind == neutrals.LEAGUE and neutrals.first_league_attack(self, state) is None
        neutrals.record(state, power, place)
        owner = state.owners.get(place)
        if failed and owner == neutrals.IN and mine:
            new = neutrals.join_side(self, state, place, neutrals.other(mine))
            events.append({"type": "rule", "rule": "AU-127" if how == "attack" else "AU-123",
                           "text": f"{power} {how} {place}: a failed attack on an independent neutral, which "
                                   f"joins the {neutrals.other(mine)} ({new} now)"})
        elif how == "fly over" and owner in neutrals.NEUTRALS:
            events.append({"type": "rule", "rule": "AU-123",
                           "text": f"{power} fly over {place}: it counts as a failed attack on it"})
        if kind == neutrals.LEAGUE and owner == neutrals.LEAGUE:
            changes = neutrals.league_joins(self, state, power)
            if changes:
                events.append({"type": "politics", "power": power, "changes": changes,
                               "what": f"The Neutral League sides against the {mine} after the {how} on {place} "
                                       f"(AU-126)"})
        if league_first and mine == "Allies":
            events += france.league_attacked_first_by_allies(self, state, self.rules_version == "beta-1.1")
        return events + france.update(self, state)

    def neutral_passage(self, state: State, power: str, place: str, kind: str) -> bool:
        """AU-61: from French escalation level 3, Allied units may pass into French territories (the phase and
        the units are checked in check_move); aircraft do not land there (RULINGS.md "french-escalation")."""
        if (kind != "Landing" and state.owners.get(place) == france.FRANCE and neutrals.side(self, power) == "Allies"
                and france.level(state) >= france.FULL_FROM and not state.spent.get("france:closed")):
            return True
        return super().neutral_passage(state, power, place, kind)

    def movement_limits(self, state: State, power: str):
        """France's naval limits follow its escalation level (france.naval_end), not the map's fixed list."""
        return None if power == france.FRANCE else super().movement_limits(state, power)

    def check_move(self, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> None:
        if not self.may_attack_neutrals(state, power):
            neutral = next((p for p in path[1:] if state.owners.get(p) in neutrals.NEUTRALS), None)
            if neutral:
                raise RuleViolation(f"{power} may not enter {neutral}: an Allied power may attack or take neutral "
                                    f"territories only while it is at war", "AU-121")
        if not france.neutral(self, state):
            return
        if power == france.FRANCE:
            self._check_neutral_france(state, units, path, phase)
        elif neutrals.side(self, power) == "Allies":
            if phase == "combat_move" and state.owners.get(path[0]) == france.FRANCE:
                raise RuleViolation(f"{possessive(power, the=True)} units in neutral France move out of it only in the non-combat move",
                                    "AU-61")
            french = next((p for p in path[1:] if state.owners.get(p) == france.FRANCE), None)
            why = french and france.allied_entry(self, state, power, phase, units)
            if why:
                raise RuleViolation(f"{possessive(power, the=True)} units may not enter French {french}: {why}",
                                    "AU-65" if state.spent.get("france:closed") else "AU-61")

    def _check_neutral_france(self, state: State, units: list[Unit], path: list[str], phase: str) -> None:
        """Neutral France: its land and air units stay in French territories (AU-62); at levels 1 and 2 its ships
        keep away from the Axis (AU-58; AU11-02, AU11-03); at level 1 it moves at most 3 units in non-combat
        (AU-57)."""
        if any(self.ut(u).domain != "sea" for u in units):
            outside = next((p for p in path[1:] if not self.is_water(p) and state.owners.get(p) != france.FRANCE), None)
            if outside:
                raise RuleViolation(f"until France is at war, its land and air units stay in French territories; "
                                    f"{outside} is not French", "AU-62")
        beta11 = self.rules_version == "beta-1.1"
        if france.level(state) < france.FULL_FROM and any(self.ut(u).domain == "sea" for u in units):
            why = france.naval_end(self, state, path[-1], beta11)
            if why:
                rule = ("AU11-02" if france.level(state) == 1 else "AU11-03") if beta11 else "AU-58"
                raise RuleViolation(f"at escalation level {france.level(state)} a French ship may not end its move "
                                    f"next to Axis-held territory: {why}", rule)
        if phase == "noncombat_move" and france.level(state) < france.NO_LIMIT_FROM:
            moved = {c.id for u in state.units if u.owner == france.FRANCE and u.moved
                     and not u.flags.get("combat_moved") for c in [u, *state.cargo_of(u)]}
            if len(moved | {c.id for u in units for c in [u, *state.cargo_of(u)]}) > france.NON_COMBAT_UNITS:
                raise RuleViolation(f"at escalation level 1 France moves at most {france.NON_COMBAT_UNITS} units in "
                                    f"non-combat; {len(moved)} have moved already", "AU-57")

    def national_objectives(self, state: State, power: str) -> list[dict]:
        """The document's objectives, where it reads differently from the map's conditions (objectives.py)."""
        return objectives.national_objectives(self, state, power)

    def check_purchase(self, state: State, power: str, units: dict[str, int]) -> None:
        """AU-90: China's artillery and AAA, one for each territory open to its Allied Materials (the map's
        purchase list opens them all as soon as one is open)."""
        objectives.check_materials_purchase(self, state, power, units)

    def check_placement(self, state: State, power: str, place: str, units: dict[str, int]) -> None:
        """AU-90: each of China's artillery and AAA in its own territory open to the Allied Materials."""
        objectives.check_materials_placement(self, state, power, place, units)

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """AU-56: neutral France below escalation level 3 collects 16 whatever its territories are worth (AU-60:
        from level 3, or at war, all of it); AU-28: neutral China collects 12 (objectives.py)."""
        total, lines = super().income(state, power)
        if power != france.FRANCE:
            return objectives.neutral_china(self, state, power, total, lines)
        if not france.neutral(self, state) or france.level(state) >= france.FULL_FROM:
            return total, lines
        for line in lines:
            if line["item"] == "territories":
                line["amount"] = france.REDUCED_INCOME
                line["note"] = (f"neutral France at escalation level {france.level(state)} collects "
                                f"{france.REDUCED_INCOME} PUs whatever its territories are worth [AU-56]")
        return sum(line["amount"] for line in lines), lines

    # -- straits (straits.py) ----------------------------------------------------------------------------

    def crossing_closed(self, state: State, power: str, a: str, b: str) -> RuleViolation | None:
        """AU-112: a strait's land and air crossing opens only to those who held both sides when the turn began."""
        return straits.crossing_closed(self, state, power, a, b)

    def check_canal(self, state: State, power: str, canal, a: str, b: str) -> None:
        """AU-113, AU-114: the map's canals by the document: held since the start of the turn, France's side open
        to the Allies."""
        straits.check_canal(self, state, power, canal, a, b)

    def check_sea_path(self, state: State, power: str, ships: list[Unit], path: list[str]) -> None:
        """AU-117, AU-118, AU-19, AU-20: ships stop in SZ 76 unless its shores were friendly (Japan's aside)."""
        straits.check_sea_76(self, state, power, ships, path)

    def kamikaze_zones(self) -> list[str]:
        """AU-149: there are no kamikaze strikes, whatever a map says."""
        return []

    def check_standing(self, state: State, power: str, orders: list) -> list:
        """AU-149: a `kamikaze` standing order (the G40 family's) is refused with the document's rule."""
        errors = [OrderError(ILLEGAL, "there are no kamikaze strikes in G40 Alt-Universe", o.line, o.column, o.source,
                             rule="AU-149") for o in orders if isinstance(o, Kamikaze)]
        return errors + super().check_standing(state, power, [o for o in orders if not isinstance(o, Kamikaze)])

    def declaration_rule(self, power: str) -> str:
        """The AU row that limits each power's declarations (AU-12 Soviet, AU-22 US, AU-27 China, AU-45 ANZAC,
        AU-47 France); Beta-1.1 moves the Soviet limit to turn 3 (AU11-01)."""
        if power == "Russians" and self.rules_version == "beta-1.1":
            return "AU11-01"
        return {"Russians": "AU-12", "Americans": "AU-22", "Chinese": "AU-27", "ANZAC": "AU-45",
                "French": "AU-47"}.get(power, "AU-10")

    def takes_treasury_on_capture(self, place: str, previous_owner: str) -> bool:
        """AU-128/AU-131: there are no capitals, and nobody takes a treasury by capture."""
        return False


RULES = AltUniverseRules
NEEDS_MAP = True
FAMILY = "g40"          # adjudicator/families.py: the map properties it plays (the G40 family's)
RULE_VERSIONS = {"beta-1.3": "G40_Alt_Universe_v2.0.8_beta-1.3", "beta-1.1": "G40_Alt_Universe_v2.0.4_beta-1.1"}
_NOTES_VERSION = re.compile(r"Alt-Universe Rules \(Version (Beta-\d+(?:\.\d+)*)\)", re.I)


def rules_of_map(scenario) -> str | None:
    """The rule version a map is made for, as its notes' title names it ("G40 Alt-Universe Rules (Version
    Beta-1.1)": every shipped game XML prints the rules it plays in its notes), lower-cased like RULE_VERSIONS'
    keys; None when the notes name none. `new` plays that version, or refuses a map made for another."""
    found = _NOTES_VERSION.search(scenario.notes or "")
    return found.group(1).lower() if found else None


MAP_TITLE = "G40 Alt Universe"          # the TripleA map holding those game XMLs, as TripleA names it
DEFAULT_VERSION = "beta-1.3"
# Optional rules a group may agree at game start (`new --option NAME`): name -> (the rule versions that have it,
# what it changes). The rules read the choice from the state (State.switches "option:NAME").
OPTIONS = {objectives.WAR_TIME_PRODUCTION_5: (("beta-1.3",), "US War Time Production pays 5 PUs instead of 10 (AU-85)")}
