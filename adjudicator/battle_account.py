"""What a battle cost and who came out of it, counted from its journal event for the report.

The engine's battle event records each exchange as it happened; some of its totals are not what a reader wants
to be told: units that retreated are no longer "attackers left" (they are alive elsewhere), a shore
bombardment's victims that fire back are listed both under the bombardment and under round 1, and the value of
what each side lost is nowhere. Nor do the events say what the report must tell around a battle: that a
territory taken was its captor's own, that units placed became another power's, what followed which battle.
Everything here is derived from the events (and the game's unit types and map), so journals written before it
report alike, and the engine's events, which `audit` compares, stay as they are.
"""

from __future__ import annotations

from collections import Counter

from .people import units
from .words import possessive




def attacker_losses(event: dict) -> Counter:
    """Every attacking unit destroyed: by AA fire, in the rounds (submarines' first strike included), or left
    defenceless."""
    lost = Counter(event.get("aa", {}).get("losses", {}))
    for r in event["rounds"]:
        for rec in (r.get("surprise") or {}, r):
            lost.update(rec.get("attacker_losses", {}))
        lost.update(r.get("defenceless", {}).get("attacker", {}))
    return lost


def defender_losses(event: dict) -> Counter:
    """Every defending unit destroyed, whoever hit it: those at the start less those still there and those that
    submerged. Counted this way, a unit the bombardment sank is counted once, whether it fired back in round 1
    or was removed at once."""
    gone = Counter(event["defending"])
    gone.subtract(event["survivors"]["defender"])
    for r in event["rounds"]:
        gone.subtract(r.get("submerged", {}).get("defender", {}))
    return +gone


def bombarded_in_round_one(event: dict) -> Counter:
    """The bombardment's victims that fired back in round 1 and are among its losses (the map's "Naval Bombard
    Casualties Return Fire"): the units the rounds' losses list beyond what the defenders really lost."""
    killed = Counter(event.get("bombard", {}).get("losses", {}))
    if not killed or not event["rounds"]:
        return Counter()
    listed = Counter()
    for r in event["rounds"]:
        for rec in (r.get("surprise") or {}, r):
            listed.update(rec.get("defender_losses", {}))
        listed.update(r.get("defenceless", {}).get("defender", {}))
    if listed + killed - defender_losses(event):      # listed twice: once by the bombardment, once in round 1
        return killed
    return Counter()


def attackers_left(event: dict) -> str:
    """The attackers alive at the end: those still in the battle, those out of it (submerged, or gone as the game
    says), and those that retreated, with where they went. Aircraft leave with a land retreat and land in the
    non-combat move. After a retreat of them all, only where they went: never "nothing" for units alive."""
    survivors = event["survivors"]
    alive = Counter(event["attacking"])
    alive.subtract(attacker_losses(event))
    alive = +alive
    here, left = Counter(survivors["attacker"]), Counter(survivors.get("left", {}))
    retreat = event.get("retreat")
    if not retreat:
        phrase = units(dict(here))
        return phrase + (f" (and {units(dict(left))} out of the battle)" if left else "")
    went = Counter(retreat.get("units", {}))
    flew = +(alive - here - left - went)
    parts = [f"{units(dict(sorted(went.items())))} retreated to {retreat['to']}"] if went else []
    if flew:
        parts.append(f"{units(dict(sorted(flew.items())))} left the battle with them, to land in the non-combat move")
    if left:
        parts.append(f"{units(dict(sorted(left.items())))} out of the battle")
    if not here and parts:          # all gone: where they went is what is left of them, not "nothing"
        return "; ".join(parts)
    return f"{units(dict(sorted(here.items())))} in {event['place']}" + (f" ({'; '.join(parts)})" if parts else "")


def won_at_sea(event: dict) -> str:
    """A sea battle the attackers won: the defenders are gone, not the zone cleared, as ships of a power not in
    the war, and submarines that submerged, stay there."""
    submerged = Counter()
    for r in event["rounds"]:
        submerged.update(r.get("submerged", {}).get("defender", {}))
    if not submerged:
        return "the attackers win: no defender is left in the battle"
    return (f"the attackers win; the defending {units(dict(sorted(submerged.items())))} that submerged stay in "
            f"{event['place']}")


def lost_value(event: dict, types: dict) -> str:
    """The value of the units each side lost (TUV), at the costs of the game's rules (a unit no one buys: 0)."""
    lost = {"attacker": attacker_losses(event), "defender": defender_losses(event)}
    drowned = cargo_lost(event)
    if drowned:     # aboard the transports of the side that lost any: the attacker's, when both sides lost some
        def carrier(u: str) -> bool:
            return u in types and types[u].domain == "sea" and types[u].transport_capacity > 0
        lost["attacker" if any(carrier(u) for u in lost["attacker"]) or
             not any(carrier(u) for u in lost["defender"]) else "defender"].update(drowned)
    return (f"Units lost by value (TUV): attackers {_value(lost['attacker'], types)} PUs, defenders "
            f"{_value(lost['defender'], types)} PUs")


def _value(units: Counter, types: dict) -> int:
    """What `units` cost, at the game's prices (a unit no one buys: 0)."""
    return sum(((types[u].cost or 0) if u in types else 0) * n for u, n in units.items())


def raid_lost_value(event: dict, types: dict) -> str | None:
    """A strategic bombing raid's TUV line, as a battle has: the raiders shot down (by AA or in the air battle) and
    the interceptors lost, at the costs of the game's rules; None when the raid cost nobody a unit."""
    aa, ab = event.get("aa") or {}, event.get("air_battle") or {}
    raiders = Counter(aa.get("losses") or {}) + Counter(ab.get("attacker_losses") or {})
    interceptors = Counter(ab.get("defender_losses") or {})
    if not raiders and not interceptors:
        return None
    return (f"Units lost by value (TUV): raiders {_value(raiders, types)} PUs, interceptors "
            f"{_value(interceptors, types)} PUs.")


_CARGO_NOTE = "lost aboard sunk transports: "


def cargo_lost(event: dict) -> Counter:
    """The units that went down with sunk transports: the battle event names them only in its note (the journal's
    events are what audit compares, so they keep their shape), as `N type` pairs of the map's names."""
    lost = Counter()
    for note in event.get("notes", []):
        if note.startswith(_CARGO_NOTE):
            for part in note[len(_CARGO_NOTE):].split(", "):
                n, _, name = part.partition(" ")
                if n.isdigit():
                    lost[name] += int(n)
    return lost


def unit_types(scenario) -> dict:
    """The game's unit types by name: their cost (what a purchase list charges for one) and hit points."""
    return {t.name: t for t in scenario.unit_types}


def hits_not_taken(event: dict, rnd: dict, side: str, types: dict, surprise: bool = False) -> int:
    """How many of `side`'s hits in one exchange of round `rnd` surely found no unit they may hit (aircraft against
    submarines with no destroyer of their own, submarines against aircraft): more hits than the other side's losses
    and damage could take, each lost unit counted at its full hit points, while units of the other side lived on
    after the exchange (hits beyond the last enemy are no mystery). A lower bound: never more than were lost."""
    other = "defender" if side == "attacker" else "attacker"
    exchange = rnd["surprise"] if surprise else rnd
    could_take = sum((types[u].hit_points if u in types else 1) * n
                     for u, n in exchange.get(f"{other}_losses", {}).items())
    could_take += sum(exchange.get(f"{other}_damaged", {}).values())
    excess = (exchange.get(side) or {}).get("hits", 0) - could_take
    return excess if excess > 0 and _lived_on(event, rnd, other, surprise) else 0


def _lived_on(event: dict, rnd: dict, role: str, surprise: bool) -> bool:
    """Whether units of `role` were still in the battle after an exchange of round `rnd`: the battle went on to
    another round, or to the round's main exchange in which they fired or fell, or they survived it."""
    if surprise and (rnd.get(role) or rnd.get(f"{role}_losses")):
        return True
    if rnd is not event["rounds"][-1]:
        return True
    if role == "defender":
        return bool(event["survivors"]["defender"])
    alive = Counter(event["attacking"])
    alive.subtract(attacker_losses(event))
    return bool(+alive)


def original_owners(scenario) -> dict[str, str]:
    """Each land territory's original owner as the game began (the map's, else its first owner)."""
    return {t.name: t.original_owner or scenario.owners.get(t.name, "") for t in scenario.territories if not t.water}


def mark_liberations(events: list[dict], originals: dict[str, str]) -> None:
    """A territory taken back by its original owner is a liberation: each capture of one is marked `home`, for
    the report's words (the engine's event says who took it, not whose it was first)."""
    for e in events:
        captures = e.get("captures", []) if e["type"] == "move" else [e] if e["type"] == "capture" else (
            [e["capture"]] if e["type"] == "battle" and e.get("capture") else [])
        for c in captures:
            if not c.get("neutral") and c.get("from") != c["by"] and originals.get(c["place"]) == c["by"]:
                c["home"] = True


def mark_given(events: list[dict], rules) -> None:
    """Units a power places that are another power's from the start (the map gives them: rules.placed_owner, the
    Australians' infantry in New South Wales is British) are marked `given`, receiver -> units, for the report's
    words: the engine's event says what was placed, not whose it became."""
    for e in events:
        if e["type"] != "place":
            continue
        given: dict[str, dict[str, int]] = {}
        for unit, n in e["units"].items():
            owner = rules.placed_owner(e["power"], unit, e["place"])
            if owner != e["power"]:
                given.setdefault(owner, {})[unit] = n
        if given:
            e["given"] = given


def aa_line(event: dict) -> str:
    """`AA fire: 2 AA guns, 6 shots @1: 1 4 6 2 3 5 → 1 hit; lost 1 fighter`: how many guns fired how many
    shots, hitting on what, each die, and the losses. The guns are the defenders of the types that fired; where
    they are not defenders, how many there are is not in the event, and the type that fired is said."""
    aa = event["aa"]
    shots: dict[str, list[int]] = {}
    for unit, value in zip(aa["units"], aa["values"]):
        shots.setdefault(unit, []).append(value)
    types = list(dict.fromkeys(u.partition("@")[0] for u in shots))
    guns = sum(event["defending"].get(t, 0) for t in types)
    # a gun that cannot be hit (the classic maps' AA, infrastructure) is no defender: its type is named instead
    fired = f"{guns} AA gun{'s' if guns != 1 else ''}, " if guns else f"{', '.join(types)}, "
    dice = "; ".join(f"{len(v)} shot{'s' if len(v) != 1 else ''} @{u.partition('@')[2]}: {' '.join(map(str, v))}"
                     for u, v in shots.items())
    hits = aa["hits"]
    return f"AA fire: {fired}{dice} → {hits} hit{'s' if hits != 1 else ''}; lost {units(aa['losses'])}"


def raid_shots(aa: dict) -> str:
    """A raid's AA fire: `2 shots @1: 6 1 → 1 hit`, one shot at each raiding aircraft it fires at (journals written
    before the event kept what it hits on say only the dice)."""
    values, hits = " ".join(map(str, aa["values"])), aa["hits"]
    n = len(aa["values"])
    shots = f"{n} shot{'s' if n != 1 else ''} @{aa['hit_on']}: " if "hit_on" in aa else ""
    return f"{shots}{values} → {hits} hit{'s' if hits != 1 else ''}"


def own_words(view: dict, event: dict, rules) -> dict:
    """A battle the game fights its own way (its event carries a flag the game names in rules.battle_words) told
    in the game's words: who attacks, and how it ended."""
    words = next((w for flag, w in rules.battle_words.items() if event.get(flag)), None)
    if words is None:
        return view
    return {**view, "attacker": words["attacker"].format(power=possessive(event["attacker"])),
            "result": words.get(event["result"], view["result"])}


def distinct_notes(notes: list[str]) -> list[str]:
    """A note the engine wrote each round (a retreat found void again) is said once, with how many rounds."""
    counts = Counter(notes)
    return [n if counts[n] == 1 else f"{n} (after each of {counts[n]} rounds)" for n in dict.fromkeys(notes)]


def at_battles(events: list[dict]) -> tuple[list[dict], list[tuple[dict, list[dict]]]]:
    """A phase's events as the report tells them: those before its first battle, then each battle with the events
    that followed it (troops landing after the sea battle that cleared their way, a territory's fate after its
    battle), so nothing is told before what it follows."""
    before: list[dict] = []
    battles: list[tuple[dict, list[dict]]] = []
    for e in events:
        if e["type"] == "battle":
            battles.append((e, []))
        else:
            (battles[-1][1] if battles else before).append(e)
    return before, battles
