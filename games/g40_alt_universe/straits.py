"""The straits of G40 Alt-Universe (AU-104 to AU-118), with Japan's use of Sea Zone 76 (AU-18 to AU-20) and the
Flying Tigers' crossing (AU-34).

A strait opens only to a power that held both of its sides, itself or through an ally, when its turn began.
The map has the land and air crossings as plain connections, checks its two canals (the naval passages of the
Anglo-French and German-Italian straits) against the holders of the moment, and has no rule for Sea Zone 76,
which is the whole Chinese-Japanese strait. So the crossings are listed here from the document, and every test
reads the relationships as they were at the start of the turn (State.relationship_at_start): a declaration of
war, and the alliances it brings, change nothing about the straits until the next turn.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.g40_family import G40Rules
from adjudicator.scenario import Canal, RelationshipType
from adjudicator.state import State, Unit

SEA_ZONE_76 = "76 Sea Zone"            # AU-115: the Chinese-Japanese strait is this whole zone
JAPAN, CHINA = "Japanese", "Chinese"

# The land and air crossings, both ways. On the map they are ordinary borders, like C11-J1 beside them, so only
# the document's list tells them apart.
CROSSINGS = {
    frozenset(("UK5", "F3")): "Anglo-French",           # AU-105
    frozenset(("G19", "I1")): "German-Italian",         # AU-106
    frozenset(("C10", "C11")): "Chinese-Japanese",      # AU-107
    frozenset(("C10", "J1")): "Chinese-Japanese",       # AU-108
    frozenset(("C9", "J1")): "Chinese-Japanese",        # AU-109
    frozenset(("C16", "J1")): "Chinese-Japanese",       # AU-110
    frozenset(("C16", "J8")): "Chinese-Japanese",       # AU-111
}


def held_at_start(rules: G40Rules, state: State, power: str, place: str, passage: bool = False) -> bool:
    """AU-112, AU-117: `place` was held by `power` or an ally when `power`'s turn began: not taken this turn,
    and by a holder that was an ally then. With `passage`, a holder that lets `power` through its straits counts
    too: France for the Allies (AU-113), which the map marks with canMoveThroughCanals."""
    owner = state.owners.get(place)
    if owner is None or place in state.conquered:
        return False
    if owner == power:
        return True
    relation = _relation_at_start(rules, state, power, owner)
    return relation is not None and (relation.archetype == "allied" or (
        passage and str(relation.options.get("canMoveThroughCanals", "")).lower() == "true"))


def _relation_at_start(rules: G40Rules, state: State, a: str, b: str) -> RelationshipType | None:
    """The map's relationship type between two powers as it was when the turn began (None if they had none)."""
    kind = state.relationship_at_start(a, b)
    try:
        return rules.scenario.relationship_type(kind) if kind else None
    except KeyError:
        return None


def _not_held(places: list[str]) -> str:
    listed = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"
    return f"{listed} {'was' if len(places) == 1 else 'were'} not"


def _by_number(place: str) -> tuple[str, int]:
    """C9 before C10, as players count them."""
    letters = place.rstrip("0123456789")
    return letters, int(place[len(letters):] or 0)


def crossing_closed(rules: G40Rules, state: State, power: str, a: str, b: str) -> RuleViolation | None:
    """AU-112: land and air units cross a strait only where both sides were friendly at the start of the turn,
    so never into a side the enemy held then (RULINGS.md "strait-attack"); aircraft may still fly round by the
    sea (RULINGS.md "strait-aircraft")."""
    strait = CROSSINGS.get(frozenset((a, b)))
    if strait is None:
        return None
    shut = [p for p in (a, b) if not held_at_start(rules, state, power, p, passage=True)]
    if not shut:
        return None
    return RuleViolation(f"units cross the {strait} strait from {a} to {b} only if both sides were held by a "
                         f"friendly power at the start of your turn: {_not_held(shut)}", "AU-112")


def check_canal(rules: G40Rules, state: State, power: str, canal: Canal, a: str, b: str) -> None:
    """AU-114: ships pass between the sea zones of the Anglo-French and German-Italian straits (the map's canals)
    only where both land sides were friendly at the start of the turn, France's side for the Allies too."""
    shut = [p for p in canal.land_territories if not held_at_start(rules, state, power, p, passage=True)]
    if shut:
        name = CROSSINGS.get(frozenset(canal.land_territories), canal.name)
        raise RuleViolation(f"ships pass the {name} strait from {a} to {b} only if "
                            f"{' and '.join(canal.land_territories)} were held by a friendly power at the start of "
                            f"your turn: {_not_held(shut)}", "AU-114")


def check_sea_76(rules: G40Rules, state: State, power: str, ships: list[Unit], path: list[str]) -> None:
    """AU-117: ships that enter SZ 76 end their move there unless all six lands around it were friendly at the
    start of the turn; AU-118: ships that began the turn there leave as they like (a ship there that has moved
    came in this turn). AU-19, AU-20: Japan's ships pass while Japan was not at war with China when its turn
    began, which covers the ceasefire and the turn Japan breaks it."""
    came_in = path[0] == SEA_ZONE_76 and any(s.moved for s in ships)
    if SEA_ZONE_76 not in path[1:-1] and not came_in:
        return
    if power == JAPAN:
        relation = _relation_at_start(rules, state, JAPAN, CHINA)
        if relation is None or relation.archetype != "war":
            return
    around = sorted((p for p in rules.scenario.neighbours(SEA_ZONE_76) if not rules.is_water(p)), key=_by_number)
    shut = [p for p in around if not held_at_start(rules, state, power, p)]
    if not shut:
        return
    why = f"{_not_held(shut)} friendly at the start of your turn"
    if power == JAPAN:
        why += (" (Japan's ships pass freely only while it is not at war with China, and on the turn it declares "
                "that war)")
    if came_in:
        raise RuleViolation(f"ships that entered SZ 76 this turn end their move there: {why}", "AU-117")
    raise RuleViolation(f"ships entering SZ 76 must stop there: {why}", "AU-117")


def check_flying_tigers(power: str, path: list[str]) -> None:
    """AU-34: China's fighter, the Flying Tigers, crosses the SZ 76 strait straight between the lands around it
    (the crossings above) and never enters the zone, so it never fights there (AU-33 keeps it off the sea)."""
    if power == CHINA and SEA_ZONE_76 in path[1:]:
        raise RuleViolation("Chinese units may not enter SZ 76: the Flying Tigers cross the strait directly between "
                            "the land territories around it and may not fight there", "AU-34")
