"""Allies vs. Axis v2.0, the Monopoly-like board game, on a board of our own (board.json, RULINGS.md).

Its powers are the players who sit down: `new --player British=… --player Germans=…` seats 2 to 4 of the
British, Americans (Allies), Germans and Japanese (Axis), and the scenario is made for them (`seat`).
"""

from __future__ import annotations

import json
from importlib.resources import files

from adjudicator.errors import ConfigError
from adjudicator.scenario import Player, Scenario, Step, Territory, UnitType

from .rules import MODES, AvRules

RULES = AvRules
NEEDS_MAP = False
RULE_VERSIONS: dict[str, str] = {}
OPTIONS = {
    "sudden-death": (("",), "Sudden Death: a player loses with its Main Territory, not only with all of them (AV-47)"),
    "prison-limit-5": (("",), "a player loses when imprisoned the 5th time, not the 3rd (AV-48)"),
    "les-miserables": (("",), "Free Mode Les Misérable: resources depleted, luck higher (AV-49)"),
    "fierce-battles": (("",), "Free Mode Fierce Battles: penalty high, luck high (AV-49)"),
    "world-ruler": (("",), "Free Mode The World Ruler: resources high, penalty high, luck high, every player for "
                           "itself (AV-49)"),
}
TURN_ORDER = ("British", "Germans", "Americans", "Japanese")     # RULINGS.md "turn-order"


def board() -> dict:
    return json.loads(files(__name__).joinpath("board.json").read_text(encoding="utf-8"))


def scenario(powers: tuple[str, ...] = TURN_ORDER, mode: str = "normal") -> Scenario:
    """The game for `powers`, in turn order; with all four, it is the table players choose their seats from. The
    board's data goes into the scenario, so that a game keeps the board it was made with (DESIGN.md)."""
    data = board()
    sides = {p: spec["side"] for p, spec in data["powers"].items()}
    owners = {data["powers"][p]["main"]: p for p in powers}
    for space in data["spaces"]:
        side = space.get("side")
        if side:
            holder = space.get("prefer") if space.get("prefer") in powers else next(
                (p for p in TURN_ORDER if p in powers and sides[p] == side), None)
            if holder:
                owners[space["name"]] = holder
    start = data["modes"][mode]["start"]
    return Scenario(
        name="Allies vs. Axis", version="2.0", source="embedded:allies-vs-axis",
        territories=[Territory(s["name"], production=s.get("yields", {}).get("money", 0),
                               original_owner=owners.get(s["name"]), capital=s.get("power"),
                               options={"centre": [_square(i, len(data["spaces"]))]})
                     for i, s in enumerate(data["spaces"])],
        connections=[(a["name"], b["name"]) for a, b in zip(data["spaces"], data["spaces"][1:] + data["spaces"][:1])],
        players=[Player(p, alliances=[sides[p]]) for p in powers],
        unit_types=[UnitType(u, attack=n, defense=n, cost=data["recruit"][u]) for u, n in data["units"].items()],
        owners=owners, resources={p: start["money"] for p in powers},
        sequence=[Step(f"{p}{phase.capitalize()}", phase, p) for p in powers for phase in ("spin", "actions")],
        properties={"board": json.dumps(data, sort_keys=True)},
    )


def _square(i: int, n: int) -> str:
    """Where space i (from 0) is drawn: the board's square, clockwise from the bottom-left corner (RULINGS.md
    "board"), as "x,y" for the map picture."""
    side = n // 4
    k, along = divmod(i, side)
    x, y = [(0, side - along), (along, 0), (side, along), (side - along, side)][k]
    return f"{x},{y}"


def seat(table: Scenario, chosen: list[str], options: list[str]) -> Scenario:
    """The scenario of a new game: the powers the `--player`s chose, 2 to 4 with both sides present (AV-01; any 2
    to 4 in The World Ruler, which has no sides), in turn order, started as the chosen Free Mode says (AV-49)."""
    modes = [o for o in options if o in MODES]
    if len(modes) > 1:
        raise ConfigError(f"--option {' and '.join(modes)}: a game is played in one Free Mode; choose one")
    if not 2 <= len(chosen) <= 4:
        raise ConfigError(f"allies-vs-axis is played by 2 to 4 players: give each with --player POWER=CONTACT "
                          f"(the powers are {', '.join(TURN_ORDER)}); {len(chosen)} given [AV-01]")
    sides = {table.player(p).alliances[0] for p in chosen}
    if len(sides) < 2 and modes != ["world-ruler"]:            # RULINGS.md "world-ruler-seats"
        raise ConfigError("a game needs players on both sides: the British or Americans (Allies) against the Germans "
                          "or Japanese (Axis), unless it is The World Ruler (--option world-ruler), where every "
                          "player is for itself [AV-01]")
    return scenario(tuple(p for p in TURN_ORDER if p in chosen), modes[0] if modes else "normal")
