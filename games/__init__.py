"""The games the adjudicator plays, by their normative `--game` names (DESIGN.md).

Each game is a rules class (a subclass of the G40 base rules where it builds on them) plus where its
scenario comes from: embedded data, or a TripleA map found on the maps path.
"""

from __future__ import annotations

from importlib import import_module

from adjudicator.errors import ConfigError

# name -> module under adjudicator.games; None = recognised but not available yet.
GAMES: dict[str, str | None] = {
    "demo": "demo",
    "g40": "g40",
    "g40-alt-universe": "g40_alt_universe",
    "classic": "classic",
    "expanded-global": "expanded_global",
    "apone-europe": "apone_europe",
    "allies-vs-axis": "allies_vs_axis",
}


def game_module(name: str):
    """The module of game `name`; it defines RULES (the rules class) and scenario_source()."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}: the games are {', '.join(GAMES)}")
    module = GAMES[name]
    if module is None:
        playable = ", ".join(n for n, m in GAMES.items() if m)
        raise ConfigError(f"the game {name!r} is not playable yet in this version; playable now: {playable}")
    return import_module(f"{__name__}.{module}")


def family_of(name: str) -> str | None:
    """The rules family (adjudicator/families.py) a game plays TripleA maps with; None for a game with its own data."""
    return getattr(game_module(name), "FAMILY", None)


def base_games(families: list[str]) -> list[str]:
    """The games that play any map of these families (those with no rule versions and no map of their own: `g40`)."""
    return [name for name, module_name in GAMES.items() if module_name is not None
            and not getattr(game_module(name), "RULE_VERSIONS", {}) and not getattr(game_module(name), "MAP", None)
            and family_of(name) in families]


def played_on(xml_stem: str, families: list[str]) -> list[dict]:
    """The games and rule versions that play a TripleA game XML (by its file stem), as `maps` lists them: the games
    made for it, then the family's base game (`g40` plays any map of the G40 family, by its own properties) — only
    games of the `families` that play the map (adjudicator/families.py)."""
    found = []
    for name, module_name in GAMES.items():
        if module_name is None or family_of(name) not in families:
            continue
        module = import_module(f"{__name__}.{module_name}")
        default = getattr(module, "DEFAULT_VERSION", "")
        for version, stem in getattr(module, "RULE_VERSIONS", {}).items():
            if stem.casefold() == xml_stem.casefold():
                found.append({"game": name, "rules": version, "default": version == default})
        if getattr(module, "MAP", "").casefold() == xml_stem.casefold():    # a scenario of its own made from the map
            found.append({"game": name, "rules": None, "default": False})
    return found + [{"game": name, "rules": None, "default": True} for name in base_games(families)]
