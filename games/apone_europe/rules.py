"""Sgt. Apone's rules (AP-01: everything he does not change is A&A Europe 1999, the classic family; air bases,
naval bases and CAP are A&A Pacific's). Each of his rules lives in a module of its own, hooked in here."""

from __future__ import annotations

from adjudicator.rules.classic_family import ClassicRules
from adjudicator.games.classic.names import NAMES
from adjudicator.state import State

from . import bases, cap, egypt, units, vp


class AponeRules(ClassicRules):
    """The classic family with Sgt. Apone's rules."""

    people_names = NAMES

    name = "apone-europe"
    title = "Sgt. Apone's rules v1.2 for A&A Europe (1999)"

    # -- AP-02, AP-03: air and naval bases (bases.py) ------------------------------------------------------

    def start_bonus(self, state, unit) -> int:
        return bases.start_bonus(self, state, unit)

    def route_bonus(self, state, unit, start, phase) -> dict[str, int]:
        return bases.route_bonus(self, state, unit, start, phase)

    # -- paratroopers and commandos (units.py: AP-25 … AP-34) ------------------------------------------------

    def verbs(self):
        reg = super().verbs().copy()
        units.register(reg)                 # `drop UNITS PATH`, `commando PLACE UNITS`
        egypt.register(reg)                 # `setaside [start] N`, `egypt UNITS`
        cap.register(reg)                   # `cap`, `land`
        return reg

    def lexicon(self):
        lex = super().lexicon()
        lex.add_unit_alias("para", units.PARATROOPER)
        return lex

    def game_order(self, state, power, order) -> dict:
        if order.name == units.DROP:
            return units.drop(self, state, power, order)
        if order.name == units.RAID:
            return units.raid(self, state, power, order)
        if order.name in (egypt.SETASIDE, egypt.BUY):
            return egypt.order(self, state, power, order)
        if order.name in (cap.CAP, cap.LAND):
            return cap.carry_out(self, state, power, order)
        return super().game_order(state, power, order)

    def holds_fire(self, unit, rnd: int) -> bool:
        return units.holds_fire(unit, rnd)

    def kept_in_battle(self, unit) -> str | None:
        """Paratroopers dropped into a battle stay in it, as troops landed from the sea do (RULINGS.md
        "paratrooper-drop")."""
        return super().kept_in_battle(unit) or ("dropped in by air" if units.dropped_in(unit) else None)

    def opening_strikes(self, state, power, place, defenders, roller):
        return units.opening_strikes(self, state, power, place, roller)

    def check_placement(self, state, power, place, placing) -> None:
        units.check_placement(placing)
        super().check_placement(state, power, place, placing)
        egypt.check_placement(self, state, power, place, placing)

    def turn_end(self, state, roller) -> list[dict]:
        """AP-30: unused commando markers go before the family's end of turn, which would call them unplaced."""
        return units.lapse(state, state.power) + super().turn_end(state, roller)

    # -- Germany's victory points and the end of the game (vp.py: AP-15 … AP-24) ------------------------

    def income_collected(self, state, power, income):
        return vp.earn(self, state, power, income)

    def raid_cost(self, state, power, dealt, paid):
        return vp.bombed(state, power, dealt)

    def check_victory(self, state, power):
        """Apone's victory conditions only: the map's capital-holding triggers are not his (vp.py)."""
        return vp.check(self, state, power)

    def victory_status(self, state):
        return vp.status(self, state)

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        """Its victory is its own (victory_status), not the map's triggers nor a count of cities."""
        return []

    def status_fields(self, state):
        return {**super().status_fields(state), **vp.fields(state), "egypt_setaside": egypt.account(state)}

    # -- the Egypt IC, its set-aside and the Middle East payment (egypt.py: AP-04, AP-07 … AP-14) -------------

    def unlimited_factory(self, state, power, place):
        return egypt.unlimited(self, state, power, place) or super().unlimited_factory(state, power, place)

    def after_battle(self, state, power, place, outcome):
        return super().after_battle(state, power, place, outcome) + egypt.captured(self, state, power, place)

    def income(self, state, power):
        return egypt.income(self, state, power, *super().income(state, power))

    def end_of_turn(self, state, power):
        return super().end_of_turn(state, power) + egypt.end_of_turn(self, state, power)

    def position_lines(self, state):
        """The report's "After the turn": each power's money and income, as other games print them (a game's own
        lines replace that table), then the Germans' victory points and the British set-aside for Egypt."""
        lines = [f"{'Power':<11}{'IPCs':>5}{'income':>8}"]
        lines += [f"{p:<11}{state.treasury.get(p, 0):>5}{self.income(state, p)[0]:>8}"
                  for p in self.scenario.turn_players()]
        return lines + ["", vp.position_line(state)] + egypt.position_lines(state)

    # -- no sub stalling (AP-05) and Combat Air Patrol (AP-06): cap.py ----------------------------------

    no_submerging_before_battle = "AP-05"

    def stays_aloft(self, state: State, unit) -> bool:
        return cap.on_patrol(self, state, unit)

    def phase_start(self, state: State, power: str, phase: str) -> list[dict]:
        events = super().phase_start(state, power, phase)
        return events + (cap.land_the_rest(self, state, power) if phase == "combat_move" else [])

    def check_move(self, state: State, power: str, moving: list, path: list[str], phase: str) -> None:
        super().check_move(state, power, moving, path, phase)
        cap.check_passage(self, state, power, moving, path, phase)
