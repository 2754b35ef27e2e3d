"""Where a game's scenario and rules come from, before any database is involved: `new` reads them to create a
game, and `odds` to reckon a battle on a game's map without one (so nothing here imports the store)."""

from __future__ import annotations

from pathlib import Path

from .config import Settings
from .errors import ConfigError, MapError
from .rules.core import RulesCore
from .scenario import Scenario


def rules_for(name: str, scenario: Scenario, rules_version: str) -> RulesCore:
    from .games import game_module
    return game_module(name).RULES(scenario, rules_version)


def load_scenario(name: str, map_arg: str | None, rules_version: str | None,
                  settings: Settings) -> tuple[Scenario, str, Path | None]:
    """The scenario of a new game, the rules version it is played with, and the map's XML (None for a game that
    brings its own scenario)."""
    from .games import game_module
    module = game_module(name)
    versions = getattr(module, "RULE_VERSIONS", {})
    version = rules_version or getattr(module, "DEFAULT_VERSION", "")
    if versions and version not in versions:
        raise ConfigError(f"{name} has the rule versions {', '.join(versions)}; {rules_version!r} is not one of them")
    if versions == {} and rules_version:
        raise ConfigError(f"{name} has no rule versions to choose from (drop --rules)")
    if not module.NEEDS_MAP:
        if map_arg:
            raise ConfigError(f"the {name} game brings its own scenario: drop --map")
        return module.scenario(), version, None
    from .triplea import find_map, load_scenario as load_xml
    from .triplea.finder import how_to_give, searched
    wanted = map_arg or versions.get(version) or getattr(module, "MAP", None)
    if not wanted:
        raise ConfigError(f"the {name} game is played on a TripleA map, and none was given: {how_to_give()}. "
                          f"Searched: {searched(settings.maps_path)}")
    try:
        xml = find_map(wanted, settings.maps_path)
    except MapError as exc:
        if map_arg:
            raise
        raise MapError(f"{name}{f' (rules {version})' if version else ''} is played on TripleA's game XML {wanted}.xml, of the map "
                       f"{getattr(module, 'MAP_TITLE', wanted)!r}: {exc.message}") from None
    scenario = load_xml(xml)
    made_from = getattr(module, "scenario_of", None)
    if made_from is not None:           # a game whose own start position is made from the map's (Expanded Global)
        scenario = made_from(scenario)
    return scenario, _version_of_map(name, module, scenario, xml, version, rules_version), xml


def _version_of_map(name: str, module, scenario: Scenario, xml: Path, version: str, given: str | None) -> str:
    """The rule version a map of `name` is played with: the one the map says it is made for (the game's
    rules_of_map), where it says; a `--rules` that differs from it, or a map made for a version the game does not
    play, is refused before anything is written, with the `--rules` or map to use instead."""
    reads = getattr(module, "rules_of_map", None)
    made_for = reads(scenario) if reads is not None else None
    versions = getattr(module, "RULE_VERSIONS", {})
    maps = "; ".join(f"{v}: {stem}.xml" for v, stem in versions.items())
    if reads is not None and made_for is None:      # a game that knows its maps by what they say: not one of them
        raise ConfigError(f"the map {xml.name} is not made for the {name} game (it names none of its rule versions): "
                          f"the {name} rules would be played with this map's units and values, which are not "
                          f"theirs. Choose its map ({maps}), or play this one as `--game g40` (the G40 base rules and "
                          f"the map's own settings)")
    if made_for is None or made_for == version:
        return version
    if made_for not in versions:
        raise ConfigError(f"the map {xml.name} is made for the {made_for} rules, which the {name} game does not play "
                          f"(it plays {', '.join(versions)}, each on its own map: {maps}); choose one of those maps, "
                          f"or play this one as `--game g40` (the G40 base rules and the map's own settings)")
    if given:
        raise ConfigError(f"--rules {given} does not fit the map {xml.name}, which is made for the {made_for} rules: "
                          f"give --rules {made_for} (or leave --rules out), or choose the map of {given}: "
                          f"{versions.get(given, '?')}.xml")
    return made_for
