"""Sgt. Apone's rules (AP-01: everything he does not change is A&A Europe 1999, the classic family; air bases,
naval bases and CAP are A&A Pacific's). Each of his rules lives in a module of its own, hooked in here."""

from __future__ import annotations

from adjudicator.rules.classic_family import ClassicRules
from adjudicator.state import State

from . import cap


class AponeRules(ClassicRules):
    """The classic family with Sgt. Apone's rules."""

    name = "apone-europe"
    title = "Sgt. Apone's rules v1.2 for A&A Europe (1999)"

    # -- no sub stalling (AP-05) and Combat Air Patrol (AP-06): cap.py ----------------------------------

    no_submerging_before_battle = "AP-05"

    def verbs(self):
        reg = super().verbs().copy()
        cap.register(reg)                   # `cap`, `land`
        return reg

    def game_order(self, state: State, power: str, order) -> dict:
        if order.name in (cap.CAP, cap.LAND):
            return cap.carry_out(self, state, power, order)
        return super().game_order(state, power, order)

    def stays_aloft(self, state: State, unit) -> bool:
        return cap.on_patrol(self, state, unit)

    def phase_start(self, state: State, power: str, phase: str) -> list[dict]:
        events = super().phase_start(state, power, phase)
        return events + (cap.land_the_rest(self, state, power) if phase == "combat_move" else [])

    def check_move(self, state: State, power: str, units: list, path: list[str], phase: str) -> None:
        super().check_move(state, power, units, path, phase)
        cap.check_passage(self, state, power, units, path, phase)
