"""G40 Alt-Universe: the G40 base rules plus the variant's hooks, on the Alt-Universe TripleA map.

Rule versions choose the map file that goes with them (shared/triplea/README.md): Beta-1.3 plays on map
2.0.8, Beta-1.1 on map 2.0.4. Only the hooks below differ from the base rules so far; the variant's
other rules (LEDGER.md section AU) arrive with later issues.
"""

from adjudicator.rules.base import G40Rules, RuleViolation
from adjudicator.state import State

# AU-132 to AU-134: what a capture pays the attacker.
CITY_BONUS, MINOR_IC_BONUS, MAJOR_IC_BONUS = 5, 3, 10
BANK_PAYS = {"NL11"}                    # AU-141: the Neutral League city's bonus comes from the bank
AXIS = ("Germans", "Italians", "Japanese")
US_NEUTRAL_ZONES = {"54 Sea Zone", "55 Sea Zone", "78 Sea Zone", "79 Sea Zone"}   # AU-25


class AltUniverseRules(G40Rules):
    name = "g40-alt-universe"
    title = "G40 Alt-Universe"
    no_income = "no city held: no income (AU-129)"

    # -- cities (RULINGS.md "cities") ----------------------------------------------------------------

    def cities(self) -> list[str]:
        """The map's 23 cities: its victoryCity territories (the document lists none)."""
        return [t.name for t in self.scenario.territories if t.victory_city and not t.hidden]

    def can_collect_income(self, state: State, power: str) -> bool:
        """AU-129: a power collects while it holds a city, its own or one it took; AU-130: China while it holds
        any territory."""
        held = [t for t, o in state.owners.items() if o == power]
        if power == "Chinese":
            return bool(held)
        return any(t in self.cities() for t in held)

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
        if not items:
            return {}
        if per_territory:
            state.spent[f"bonus:{place}"] = 1
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

    # -- movement ------------------------------------------------------------------------------------

    def check_movement_limits(self, state: State, power: str, path: list[str]) -> None:
        """The map's limits, and two it lacks: AU-37, other Allied units enter Chinese territories only while
        their power is at war with Japan; AU-25, while neutral the US ends naval moves only next to its own
        territories or in SZ 54, 55, 78 and 79."""
        super().check_movement_limits(state, power, path)
        if power != "Chinese" and not self.at_war(state, power, "Japanese"):
            china = next((p for p in path[1:] if state.original_owners.get(p) == "Chinese"
                          and self.is_friendly_land(state, power, p)), None)
            if china:
                raise RuleViolation(f"{power} units may enter Chinese territories such as {china} only while "
                                    f"{power} are at war with Japan", "AU-37")
        dest = path[-1]
        if power == "Americans" and self.is_water(dest) and not any(self.at_war(state, power, a) for a in AXIS) \
                and dest not in US_NEUTRAL_ZONES \
                and not any(state.owners.get(n) == power for n in self.scenario.neighbours(dest)):
            raise RuleViolation(f"while the US is neutral, its ships end their moves next to a US territory or in "
                                f"SZ 54, 55, 78 or 79; not in {dest}", "AU-25")

    # -- bombers -------------------------------------------------------------------------------------

    def taken_last(self, unit, role: str) -> bool:
        """AU-103: a defending bomber is chosen as a casualty only after every other defending unit."""
        return super().taken_last(unit, role) or (role == "defender" and self.ut(unit).has("strategic_bomber"))

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
RULE_VERSIONS = {"beta-1.3": "G40_Alt_Universe_v2.0.8_beta-1.3", "beta-1.1": "G40_Alt_Universe_v2.0.4_beta-1.1"}
DEFAULT_VERSION = "beta-1.3"
