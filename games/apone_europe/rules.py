"""Sgt. Apone's rules (AP-01: everything he does not change is A&A Europe 1999, the classic family; air bases,
naval bases and CAP are A&A Pacific's). Each of his rules lives in a module of its own, hooked in here."""

from __future__ import annotations

from adjudicator.rules.classic_family import ClassicRules

from . import vp


class AponeRules(ClassicRules):
    """The classic family with Sgt. Apone's rules."""

    name = "apone-europe"
    title = "Sgt. Apone's rules v1.2 for A&A Europe (1999)"

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

    def status_fields(self, state):
        return {**super().status_fields(state), **vp.fields(state)}
