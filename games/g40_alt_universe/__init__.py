"""G40 Alt-Universe: the G40 base rules plus the variant's hooks, on the Alt-Universe TripleA map.

Rule versions choose the map file that goes with them (shared/triplea/README.md): Beta-1.3 plays on map
2.0.8, Beta-1.1 on map 2.0.4. Only the hooks below differ from the base rules so far; the variant's
other rules (LEDGER.md section AU) arrive with later issues.
"""

from adjudicator.rules.base import G40Rules


class AltUniverseRules(G40Rules):
    name = "g40-alt-universe"
    title = "G40 Alt-Universe"

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
