"""Battle odds (`adjudicator odds`, `report --odds`): the chances of a battle's ends by the same combat code that
adjudicates it, so the odds are those of the adjudicator's own battle (DESIGN.md "Rules core")."""

from .position import Position, check_battles, from_order, read_units, standalone
from .reckon import Odds, reckon

__all__ = ["Odds", "Position", "check_battles", "from_order", "read_units", "reckon", "standalone"]
