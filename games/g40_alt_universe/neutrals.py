"""Neutral territories in G40 Alt-Universe (AU-119 to AU-127): who attacked them, and whose side they join.

The map owns each neutral territory by one of four neutral players (Independent_Neutral, Pro_Axis, Pro_Allies,
Neutral_League) but never records an attack on one, so the rules that hang on attacks (French escalation, the
Soviet and French declarations, an IN territory changing sides) have nothing to read. We keep the record
ourselves in `state.spent`: "attack:PLACE:POWER" = the power-turn of that power's first attack there, fly-overs
(AU-123) included. Only the territories some rule asks about are recorded (WATCHED), so the record stays small.
"""

from __future__ import annotations

from adjudicator.rules.g40_family import G40Rules
from adjudicator.rules.politics import apply_changes
from adjudicator.state import State

IN, PRO_AXIS, PRO_ALLIES, LEAGUE = "Independent_Neutral", "Pro_Axis", "Pro_Allies", "Neutral_League"
NEUTRALS = (IN, PRO_AXIS, PRO_ALLIES, LEAGUE)
FAVOURS = {"Axis": PRO_AXIS, "Allies": PRO_ALLIES}        # the neutral that sides with each alliance
ALSO_WATCHED = ("UK19", "A4", "UK10")                     # France's trigger AU-50; the US exception AU-24


def side(rules: G40Rules, power: str) -> str | None:
    """"Axis" or "Allies": the power's alliance in the map."""
    try:
        alliances = rules.scenario.player(power).alliances
    except KeyError:
        return None
    return next((a for a in alliances if a in FAVOURS), None)


def at_war_with_axis(rules: G40Rules, state: State, power: str) -> bool:
    """At war, as the document says of an Allied power: with at least one Axis power."""
    return any(rules.at_war(state, power, p) for p in rules.scenario.turn_players() if side(rules, p) == "Axis")


def other(side_: str) -> str:
    return "Allies" if side_ == "Axis" else "Axis"


def kind(state: State, place: str) -> str | None:
    """The kind of neutral a territory began the game as (IN, PA, PX or NL), whoever holds it now."""
    original = state.original_owners.get(place)
    return original if original in NEUTRALS else None


def watched(state: State, place: str) -> bool:
    return kind(state, place) is not None or place in ALSO_WATCHED


def record(state: State, power: str, place: str) -> bool:
    """Note `power`'s attack on `place`; True if it is the first attack on it by anyone."""
    first = not attackers(state, place)
    state.spent.setdefault(f"attack:{place}:{power}", state.turn_index)
    return first


def attackers(state: State, place: str) -> list[str]:
    """The powers that attacked `place`, first attacker first."""
    prefix = f"attack:{place}:"
    found = [(turn, key.removeprefix(prefix)) for key, turn in state.spent.items() if key.startswith(prefix)]
    return [power for _, power in sorted(found)]


def first_side(rules: G40Rules, state: State, place: str) -> str | None:
    found = attackers(state, place)
    return side(rules, found[0]) if found else None


def attacked_by(rules: G40Rules, state: State, places, side_: str) -> str | None:
    """The first of `places` a power of `side_` has attacked, if any."""
    return next((p for p in places if any(side(rules, a) == side_ for a in attackers(state, p))), None)


def first_league_attack(rules: G40Rules, state: State) -> str | None:
    """The side that attacked the Neutral League first, if any has: an attack on one of its territories, or a
    declaration of war on it (recorded under the League's own name; RULINGS.md "league-declaration")."""
    places = [LEAGUE] + [p for p in state.original_owners if kind(state, p) == LEAGUE]
    firsts = [(state.spent[f"attack:{p}:{found[0]}"], side(rules, found[0]))
              for p in places for found in [attackers(state, p)] if found]
    return min(firsts)[1] if firsts else None


def join_side(rules: G40Rules, state: State, place: str, side_: str) -> str:
    """AU-127: an IN territory joins `side_` after a failed attack by the other side: it becomes a neutral that
    favours `side_` (that side takes it by moving in, as any pro-side neutral), with its army."""
    new = FAVOURS[side_]
    state.owners[place] = new
    for u in state.units_at(place, IN):
        u.owner = new
    return new


def league_joins(rules: G40Rules, state: State, attacker: str) -> list[list[str]]:
    """AU-126: the whole League sides against the attacker's alliance, as the map's declaration on the League
    does (its relationship changes, without its conditions)."""
    mine = side(rules, attacker)
    powers = [attacker] + [p for p in rules.scenario.turn_players() if p != attacker and side(rules, p) == mine]
    for power in powers:                        # ANZAC and China have no such action: a partner's serves
        for action in rules.scenario.attachments_of("political", power):
            changes = action.values("relationshipChange")
            if any(LEAGUE in c.split(":")[:2] for c in changes):
                return apply_changes(rules, state, changes)
    return []
