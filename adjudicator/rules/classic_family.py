"""The classic family of the rules core (DESIGN.md "Rules core"): Axis & Allies Europe (1999) and Axis & Allies
Pacific (2001) on their TripleA maps (europe_improved, europe_AAE, pacific), and the games built on them (Sgt.
Apone's Europe rules).

The mechanisms are the G40 family's, switched by the maps' properties and unit options; what differs is the turn
(damaged battleships repaired as their owner's turn ends, units bought and not placed lost, no national
objectives unless the map has them) and the ways to win the maps switch on (victory cities, economic victory, the
Pacific's Japanese victory points). Where the maps and the rulebooks disagree, the rulebook wins: each such choice
is a row of games/classic/RULES.md (CL-…) with its ruling in games/classic/RULINGS.md.
"""

from __future__ import annotations

from ..state import State
from . import air, city_goals, convoy, politics, turn, victory
from .economy import collect_income, grant_per_valued_territory, lose_unplaced
from .facts import RuleViolation
from .family import MapFamily


class ClassicRules(MapFamily):
    """The classic 1999/2001 rules, played on a TripleA map of the Europe or Pacific game."""

    name = "classic"
    title = "classic 1999/2001 rules (A&A Europe, A&A Pacific)"
    passage_rules = ("CL-08", "CL-08")      # who passes enemy ships is the map's unit options (CL-08)

    burma_road = ("Burma", "India", "Yunnan", "Szechwan")   # TripleA's NoPUPurchaseDelegate (CL-16)
    europe_destroyer_bombard = 2      # CL-14, the Europe FAQ (RULINGS.md "destroyer-bombard")
    destroyer_stops_submerging = False   # CL-13: a destroyer cancels first strike only (RULINGS.md "submerge")
    raid_aa_first = True              # CL-03: AA fires first, at every raiding aircraft (RULINGS.md "sbr-order")
    tokyo_express = "Japanese"        # the power whose destroyers carry troops under "Pacific Theater" (CL-24)
    victory_points_to_win = 22        # the Pacific rulebook's 22 (TripleA's EndRoundDelegate agrees; CL-19)
    # A name the family reads as another (RULINGS.md "new-carriers"): fighters that may move to a new carrier
    # land where it will be placed (CL-22).
    PROPERTY_ALIASES = {"Land existing fighters on new carriers": "Move existing fighters to new carriers"}

    def prop(self, name: str) -> bool:
        alias = self.PROPERTY_ALIASES.get(name)
        return super().prop(name) or (
            alias is not None and str(self.scenario.properties.get(alias, "")).strip().lower() == "true")

    def bombard_value(self, unit) -> int:
        """CL-14: in the Europe game a destroyer bombards at 2 whatever the map gives (E-FAQ: "A destroyer taking
        part in an amphibious assault scores a hit on a roll of 2 or less, not three or less"; europe_AAE gives it
        none, so TripleA fires it at 3). The Pacific game ("Pacific Theater") keeps the map's value."""
        value = super().bombard_value(unit)
        if self.is_destroyer(unit) and not self.prop("Pacific Theater"):
            return min(value, self.europe_destroyer_bombard)
        return value

    def carries(self, unit) -> int:
        """CL-24: in the Pacific rules only Japanese destroyers carry troops (the "Tokyo Express"); TripleA's
        TransportTracker names the Japanese under "Pacific Theater" as this does."""
        if self.prop("Pacific Theater") and self.is_destroyer(unit) and unit.owner != self.tokyo_express:
            return 0
        return super().carries(unit)

    # -- the family's turn ------------------------------------------------------------------------------

    def turn_start(self, state: State, power: str) -> list[dict]:
        """Repairs where the map says so (the classic maps repair at the end: CL-06); a power that buys nothing
        (the map's NoPU purchase step: China) is given its infantry (CL-16)."""
        events = turn.repair_ships(self, state, power) if self.prop("Units Repair Hits Start Turn") else []
        if self._no_pu(power, "purchase") and self.prop("Production Per Valued Territory Restricted"):
            events += grant_per_valued_territory(self, state, power)
        return events

    def turn_end(self, state: State, roller) -> list[dict]:
        """Aircraft still without a landing are lost; damaged battleships are repaired (the map's "Units Repair
        Hits End Turn"); units bought and not placed are lost unless the map keeps them ("Unplaced units live
        when not placed"); income is collected; the map's end-of-turn triggers; the victory conditions on the
        position the turn leaves; then the cursor passes to the next power."""
        power = state.power
        events = air.lose_unlanded(self, state, power)
        if self.prop("Units Repair Hits End Turn"):
            events += turn.repair_ships(self, state, power)
        events += (turn.held_over(state, power) if self.prop("Unplaced units live when not placed")
                   else lose_unplaced(state, power))
        events += self.give_units(state, power)
        disrupted = convoy.disrupt(self, state, power, roller)
        events += disrupted
        income = collect_income(self, state, power, convoy.loss(disrupted))
        events.append(income)
        events += self.income_collected(state, power, income)
        return events + self.close_turn(state, power)

    # -- hooks a game overrides ---------------------------------------------------------------------

    def income_collected(self, state: State, power: str, income: dict) -> list[dict]:
        """What collecting income (its event, `income`) earns besides PUs, before the victory conditions are looked
        at: the map's victory points (CL-19), added to the event. A game that counts income its own way overrides
        it, answering with events of its own."""
        victory.collect_points(self, state, power, income)
        return []

    def check_victory(self, state: State, power: str) -> list[dict]:
        """The map's victory triggers, each held a whole round ("Triggered Victory", europe_improved); then the
        victory cities, income and victory points the map counts (rules/victory.py: CL-17 … CL-19)."""
        events = politics.victory_check(self, state, power)
        return events + victory.check(self, state, power)

    def victory_status(self, state: State) -> dict:
        won = victory.status(state)
        return {"winner": won, "holds": []} if won else politics.victory_status(self, state)

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        """The map's victory triggers, and the count of cities of "Honorable Surrender" (CL-17)."""
        return city_goals.trigger_goals(self, owners) + victory.city_goals(self, owners)

    def status_fields(self, state: State) -> dict:
        """`status --json`: kamikaze tokens (MapFacts), and the victory points of the powers that collect them."""
        fields = super().status_fields(state)
        collectors = victory.vp_collectors(self)
        if collectors:
            fields["victory_points"] = {p: {"points": victory.points(state, p), "needed": self.victory_points_to_win}
                                        for p in collectors}
        return fields

    # -- the map's data, read the classic way -------------------------------------------------------------

    def _no_pu(self, power: str, phase: str) -> bool:
        """Whether the map plays `power`'s `phase` with a NoPU delegate (China buys nothing, collects nothing)."""
        return any(step.no_pu for step in self.scenario.steps_of(power, phase))

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """A power whose end of turn is the map's NoPU one collects nothing ("China does not collect IPCs")."""
        if self._no_pu(power, "end_turn"):
            return 0, [{"item": "collects no income (the Pacific rulebook: China does not collect IPCs)", "amount": 0}]
        return super().income(state, power)

    def check_move(self, state: State, power: str, units: list, path: list[str], phase: str) -> None:
        super().check_move(state, power, units, path, phase)
        self._one_aa_gun(state, power, path[-1], [u for u in units if self.ut(u).has("aa")])

    def check_placement(self, state: State, power: str, place: str, units: dict[str, int]) -> None:
        super().check_placement(state, power, place, units)
        self._one_aa_gun(state, power, place, [t for t, n in units.items() if self.ut(t).has("aa") for _ in range(n)])

    def _one_aa_gun(self, state: State, power: str, place: str, coming: list) -> None:
        """CL-29: a territory holds at most one AA gun of a power (TripleA's rule where the map leaves "Multiple AA
        Per Territory" off)."""
        if not coming or self.is_water(place) or self.prop("Multiple AA Per Territory"):
            return
        there = [u for u in state.units_at(place, power) if self.ut(u).has("aa") and u not in coming]
        if len(there) + len(coming) > 1:
            raise RuleViolation(f"{place} may hold one AA gun of {power}: it {'has one already' if there else 'gets ' + str(len(coming))} "
                                "(the map's \"Multiple AA Per Territory\" is off)", "CL-29")

    def give_units(self, state: State, power: str) -> list[dict]:
        """CL-27, the Europe game's Soviet Patriotic War: as a power's turn ends, its units in a territory the map
        gives to another power (placed_owner) become that power's, where the map plays "Give Units By Territory" —
        only where that power holds the territory and has a factory there (E-FAQ: "only if the Allied unit is in a
        territory that also contains a Soviet industrial complex"), as TripleA's end of turn gives them."""
        if not self.prop("Give Units By Territory"):
            return []
        given: dict[tuple[str, str], dict[str, int]] = {}
        for u in sorted(state.units, key=lambda u: u.id):
            if u.owner != power or self.is_water(u.place) or self.ut(u).has("infrastructure"):
                continue
            receiver = self.placed_owner(power, u.type, u.place)
            if receiver == power or state.owners.get(u.place) != receiver or not any(
                    self.ut(f).has("factory") for f in state.units_at(u.place, receiver)):
                continue
            u.owner = receiver
            counts = given.setdefault((u.place, receiver), {})
            counts[u.type] = counts.get(u.type, 0) + 1
        return [{"type": "units_given", "power": power, "to": receiver, "place": place, "units": units}
                for (place, receiver), units in sorted(given.items())]

    def placed_owner(self, power: str, unit_type: str, place: str) -> str:
        """CL-11, TripleA's rule: a new unit is the placer's unless the map's "Give Units By Territory" is on, the
        placer gives units (PlayerAttachment giveUnitControl) to a power the territory names (changeUnitOwners,
        or any territory with giveUnitControlInAllTerritories) and the unit type may be given to it
        (canBeGivenByTerritoryTo; `unit_type` "": any unit)."""
        if not self.prop("Give Units By Territory"):
            return power
        try:
            giver = self.scenario.player(power).options
        except KeyError:
            return power
        receivers = [n for v in giver.get("giveUnitControl", []) for n in v.split(":") if n]
        if not any(v.lower() == "true" for v in giver.get("giveUnitControlInAllTerritories", [])):
            named = {n for v in self.scenario.territory(place).options.get("changeUnitOwners", []) for n in v.split(":")}
            receivers = [r for r in receivers if r in named]
        if unit_type:
            receivers = [r for r in receivers if r in self.names(unit_type, "canBeGivenByTerritoryTo")]
        return receivers[0] if receivers else power

    def capture_bonus(self, state: State, captor: str, place: str, previous: str | None) -> dict:
        """PUs taken from a capital count toward victory points (CL-19); read before the treasury changes hands."""
        if previous and self.takes_treasury_on_capture(place, previous):
            victory.record_capital_taken(self, state, captor, state.treasury.get(previous, 0))
        return {}
