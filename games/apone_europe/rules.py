"""Sgt. Apone's rules (AP-01: everything he does not change is A&A Europe 1999, the classic family; air bases,
naval bases and CAP are A&A Pacific's). Each of his rules lives in a module of its own, hooked in here."""

from __future__ import annotations

from adjudicator.rules.classic_family import ClassicRules

from . import bases


class AponeRules(ClassicRules):
    """The classic family with Sgt. Apone's rules."""

    name = "apone-europe"
    title = "Sgt. Apone's rules v1.2 for A&A Europe (1999)"

    # -- AP-02, AP-03: air and naval bases (bases.py) ------------------------------------------------------

    def start_bonus(self, state, unit) -> int:
        return bases.start_bonus(self, state, unit)

    def route_bonus(self, state, unit, start, phase) -> dict[str, int]:
        return bases.route_bonus(self, state, unit, start, phase)
