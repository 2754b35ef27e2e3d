"""Sgt. Apone's rules (AP-01: everything he does not change is A&A Europe 1999, the classic family; air bases,
naval bases and CAP are A&A Pacific's). Each of his rules lives in a module of its own, hooked in here."""

from __future__ import annotations

from adjudicator.rules.classic_family import ClassicRules

from . import egypt


class AponeRules(ClassicRules):
    """The classic family with Sgt. Apone's rules."""

    name = "apone-europe"
    title = "Sgt. Apone's rules v1.2 for A&A Europe (1999)"

    # -- the Egypt IC, its set-aside and the Middle East payment (egypt.py: AP-04, AP-07 … AP-14) -------------

    def verbs(self):
        reg = super().verbs().copy()
        egypt.register(reg)                 # `setaside [start] N`, `egypt UNITS`
        return reg

    def game_order(self, state, power, order):
        if order.name in (egypt.SETASIDE, egypt.BUY):
            return egypt.order(self, state, power, order)
        return super().game_order(state, power, order)

    def check_placement(self, state, power, place, units):
        super().check_placement(state, power, place, units)
        egypt.check_placement(self, state, power, place, units)

    def unlimited_factory(self, state, power, place):
        return egypt.unlimited(self, state, power, place) or super().unlimited_factory(state, power, place)

    def after_battle(self, state, power, place, outcome):
        return super().after_battle(state, power, place, outcome) + egypt.captured(self, state, power, place)

    def income(self, state, power):
        return egypt.income(self, state, power, *super().income(state, power))

    def end_of_turn(self, state, power):
        return super().end_of_turn(state, power) + egypt.end_of_turn(self, state, power)

    def status_fields(self, state):
        return {**super().status_fields(state), "egypt_setaside": egypt.account(state)}

    def position_lines(self, state):
        return super().position_lines(state) + egypt.position_lines(state)
