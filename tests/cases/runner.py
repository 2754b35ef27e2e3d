"""Rule cases as data (DESIGN.md "Rule cases"): a position, the orders, fixed dice, the expected result.

A case file is TOML with `[[case]]` tables:

    id       stable id, e.g. "BG-24-01"          rule     ledger id (shared/rules/LEDGER.md)
    purpose  one line                             ruling   optional: the RULINGS.md entry it depends on
    setup    "demo", or a map game (its default map) power    the mover (default: the setup's first power)
             a game made from one map ("expanded-global", "apone-europe"): its MAP made into its start
             position by its scenario_of (made_scenario), even before GAMES offers it (game_of)
    rules    the game's rule version (e.g. "beta-1.1"; it picks the map that goes with it)
    options  [name, …]: optional rules agreed at game start, checked as `new --option` checks them
             (e.g. ["war-time-production-5"])
    map      for setup "g40": the game XML's file stem in the shared maps (e.g. "ww2global40_2nd_edition")
    properties {name = "value"}: the map's game properties overridden for this case only (e.g. a switch the
             map leaves off: {"Limit SBR Damage To Factory Production" = "true"})
    phase    cursor phase (default "purchase")    treasury {power = PUs} changes
    round    the game round (default 1)           edits    host correction lines (`adjudicator edit`), applied last
    purchases {power = {unit = n}} bought and waiting to be placed
    spent    {key = n}: records of one-time payments (e.g. "bonus:city:F13" = 1: that city has paid its bonus)
    switches {key = value}: switches and records kept across turns (e.g. "victory:Axis:14" = "Germans:4": a
             victory hold that began with the Germans' turn of round 4)
    position {place = {owner = "...", units = {power = {unit = n}}, damage = {unit = [d, …]}}}: these places
             are set exactly; `damage` gives the first units of a type their damage; land units placed in a
             sea zone are aboard their owner's transports there
    relationships [[a, b, type]] changes          standing {power = {ool = [...]}} standing orders
    orders   the mover's submission text           dice     {label = [values]}
    dice_default  the value of every die `dice` does not fix (6 makes every roll a miss)
    setup "allies-vs-axis" (the board game): players [power, …] seated (default British and Germans), options,
             power, phase ("spin" or "actions"), treasury, owners {space = power or "" for neutral}, and board
             {key = value}: laid over the State.board of a new game, one level deep (e.g. pools = {British =
             {infantry = 3}} replaces the British pool)
    [case.expect] error (ledger id of an expected rejection) | owners {place = power}
                  units {place = {power = {unit = n}}} | treasury {power = n} | events [type, ...]
                  void (number of void orders) | cursor {round, power, phase}
                  match [{...}]: each a part of some event (keys compared recursively) | damage {place = {unit = [d, …]}}
                  order [event type, …]: these kinds of event come in this order
                  relations {"A:B" = type}: relationships after the turn | at_war ["A:B", …]: at war after it
                  spent {key = n}: records after the turn (0: none), e.g. "france:level" = 2
                  switches {key = value}: switches and records after the turn ("": none) | absent [event type, …]
                  board {...}: a part of State.board after the turn (compared as `match` compares events)
                  refused "text": the game cannot be set up so (new's options or players): the error says text
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import cache
from importlib import import_module
from pathlib import Path

import pytest

from adjudicator.dice import FixedRoller
from adjudicator.errors import OrderError
from adjudicator.game import game_options, standing_orders
from adjudicator.games import GAMES, game_module
from adjudicator.notation import parse_submission
from adjudicator.rules import turn
from adjudicator.state import State, pair_key
from adjudicator.triplea import load_scenario
from conftest import maps_folder, missing_shared

HERE = Path(__file__).parent
MAPS = maps_folder()


def load_cases() -> list[dict]:
    cases = []
    for path in sorted(HERE.glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            case["file"] = path.name
            cases.append(case)
    return cases


@cache
def map_scenario(game_stem: str):
    """A TripleA game of the shared test maps, by its file stem."""
    found = next(MAPS.glob(f"*/map/games/{game_stem}.xml"), None)
    if found is None:
        pytest.fail(missing_shared(f"the test map {game_stem}.xml", MAPS))
    return load_scenario(found)


def game_of(setup: str):
    """The module of a case's game: by GAMES, or for a game being built that GAMES does not offer yet (it keeps it
    None), its package under games/, imported directly (`apone-europe` → games/apone_europe)."""
    if setup in GAMES and GAMES[setup] is None:
        return import_module(f"adjudicator.games.{setup.replace('-', '_')}")
    return game_module(setup)


@cache
def made_scenario(setup: str):
    """The start position of a game made from one map (module.MAP, e.g. the Expanded Global from the G40
    2nd-edition XML) by its `scenario_of`."""
    module = game_of(setup)
    return module.scenario_of(map_scenario(module.MAP))


def position(case: dict):
    module = game_of(case.get("setup", "demo"))
    if hasattr(module, "seat"):
        return _seated(case, module)
    if hasattr(module, "scenario_of"):
        scenario = made_scenario(case["setup"])
    elif not module.NEEDS_MAP:
        scenario = module.scenario()
    else:
        version = case.get("rules", getattr(module, "DEFAULT_VERSION", ""))
        scenario = map_scenario(case.get("map") or module.RULE_VERSIONS[version])
    if "properties" in case:            # a copy: the cached scenario serves the other cases unchanged
        scenario = replace(scenario, properties={**scenario.properties, **case["properties"]})
    rules = module.RULES(scenario, case.get("rules", getattr(module, "DEFAULT_VERSION", "")))
    state = State.initial(scenario)
    state.power = case.get("power", state.power)
    state.turn_index = scenario.turn_players().index(state.power) + 1
    state.phase = case.get("phase", "purchase")
    state.round = case.get("round", 1)
    state.treasury.update(case.get("treasury", {}))
    state.spent.update(case.get("spent", {}))
    state.switches.update(case.get("switches", {}))
    if case.get("options"):             # (a game outside GAMES has none)
        state.switches.update(game_options(case.get("setup", "demo"), rules.rules_version, case["options"]))
    for power, bought in case.get("purchases", {}).items():
        state.purchases[power] = dict(bought)
    for place, spec in case.get("position", {}).items():
        state.units = [u for u in state.units if u.place != place]
        if "owner" in spec:
            state.owners[place] = spec["owner"]
        for power, units in spec.get("units", {}).items():
            for unit, n in units.items():
                for _ in range(n):
                    state.add_unit(unit, power, place)
        for unit, damage in spec.get("damage", {}).items():
            for u, d in zip([u for u in state.units_at(place) if u.type == unit], damage):
                u.damage = d
        if scenario.territory(place).water:
            _board(rules, state, place)
    for a, b, kind in case.get("relationships", []):
        state.relationships[pair_key(a, b)] = kind
    for power, standing in case.get("standing", {}).items():
        state.standing[power] = dict(standing)
    if "edits" in case:
        _edit(rules, state, case["edits"])
    return scenario, rules, state


def _seated(case: dict, module):
    """A position of a game whose powers are the players seated (Allies vs. Axis), made as `new` makes it."""
    options = game_options(case["setup"], "", case.get("options", []))
    scenario = module.seat(module.scenario(), case.get("players", ["British", "Germans"]),
                           [o.removeprefix("option:") for o in options])
    rules = module.RULES(scenario, "")
    state = State.initial(scenario)
    state.switches.update(options)
    rules.begin(state)
    state.power = case.get("power", state.power)
    state.turn_index = scenario.turn_players().index(state.power) + 1
    state.phase = case.get("phase", state.phase)
    state.round = case.get("round", 1)
    state.treasury.update(case.get("treasury", {}))
    for space, owner in case.get("owners", {}).items():
        if owner:
            state.owners[space] = owner
        else:
            state.owners.pop(space, None)
    for key, value in case.get("board", {}).items():
        if isinstance(value, dict) and isinstance(state.board.get(key), dict):
            state.board[key].update(value)
        else:
            state.board[key] = value
    return scenario, rules, state


def _edit(rules, state: State, text: str) -> None:
    """Build a position with the host's correction lines, as `adjudicator edit` reads them."""
    from adjudicator import corrections
    from adjudicator.notation.edits import edit_verbs
    parsed = parse_submission(text, rules.lexicon(), verbs=edit_verbs())
    if parsed.errors:
        raise ValueError("edits: " + "; ".join(e.render() for e in parsed.errors))
    _, errors = corrections.apply(rules, state, parsed.submission.orders)
    if errors:
        raise ValueError("edits: " + "; ".join(e.render() for e in errors))


def _board(rules, state: State, zone: str) -> None:
    """Land units set in a sea zone sail aboard their owner's transports there, first with room first."""
    from adjudicator.rules.transport import board
    for owner in sorted({u.owner for u in state.units_at(zone)}):
        cargo = [u for u in state.units_at(zone, owner) if rules.ut(u).domain == "land"]
        if cargo:
            board(rules, state, owner, zone, cargo)


def run(case: dict) -> tuple[State, list[OrderError], list[dict]]:
    """Play a case: returns the final state, the submission's errors, and the events of the steps played."""
    scenario, rules, state = position(case)
    parsed = parse_submission(case["orders"], rules.lexicon(), start_phase=state.phase,
                              phases=scenario.phases_of(state.power), verbs=rules.verbs(), power=state.power)
    if parsed.errors:
        return state, list(parsed.errors), []
    orders = turn.turn_orders(parsed.submission.orders)
    errors = rules.check_standing(state, state.power, standing_orders(parsed.submission.orders))
    errors += rules.check(state, orders, parsed.submission.ended)
    if errors:
        return state, errors, []
    fixed = {k: list(v) for k, v in case.get("dice", {}).items()}
    if "dice_default" in case:          # every roll the case does not fix shows this value (e.g. 6: all miss)
        roller = FixedRoller(lambda label, sides, count: fixed.get(label) or [case["dice_default"]] * count)
    else:
        roller = FixedRoller(fixed)
    steps = rules.play(state, orders, parsed.submission.ended, roller)
    return state, [], [e for s in steps for e in s.events]
