"""Finding a game XML from what a host types after `--map`: a path, a map folder's name or a game's name.

Players know maps by the name TripleA shows (`<info name>`), by the download folder, or by the file; all
three work, spelled with any case and with `_`, `-` or spaces alike.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from adjudicator.config import triplea_maps
from adjudicator.errors import MapError

from .document import read_info

# Where a map folder keeps its game XMLs: TripleA's current layout, then the older one.
_GAME_FOLDERS = (Path("map", "games"), Path("games"))


@dataclass(frozen=True)
class _Game:
    xml: Path
    folder: Path          # the map folder, a direct child of a search dir
    info: tuple[str, str] | None

    def keys(self) -> set[str]:
        return {_normal(self.xml.stem)} | ({_normal(self.info[0])} if self.info else set())

    def describe(self) -> str:
        return f"{self.xml} ({' '.join(self.info)})" if self.info else str(self.xml)


def find_map(name_or_path: str, search_dirs: list[Path]) -> Path:
    """The one game XML meant by `name_or_path`; MapError when it matches none or several.

    An existing file is taken as it is. A name matches a game XML's file stem or its `<info name>`, or a map
    folder; a folder with several game XMLs only counts when the name picks one of them.
    """
    given = Path(name_or_path).expanduser()
    if given.is_file():
        return given
    if given.is_dir():
        return _single(name_or_path, _games_in(given))
    if "/" in name_or_path or "\\" in name_or_path:
        raise MapError(f"{name_or_path}: no such file; give the path of a TripleA game XML or a map name")
    key = _normal(name_or_path.removesuffix(".xml"))
    games = [game for folder in _map_folders(search_dirs) for game in _games_in(folder)]
    if name_or_path.casefold().endswith(".xml"):            # a file name: its file, though others share its <info>
        by_file = [game for game in games if _normal(game.xml.stem) == key]
        if len(by_file) == 1:
            return by_file[0].xml
    exact = [game for game in games if key in game.keys()]
    if len(exact) == 1:
        return exact[0].xml
    in_folder = [game for game in games if _normal_folder(game.folder.name) == key and game not in exact]
    candidates = exact + in_folder
    if not candidates:
        raise MapError(_not_found(name_or_path, key, games, search_dirs))
    return _single(name_or_path, candidates)


def list_maps(search_dirs: list[Path]) -> tuple[list[dict], list[Path]]:
    """Every game XML in the map folders of `search_dirs`, in search order, each with the name that picks it in
    `find_map` (its file stem or `<info>` name where one is unique to it, else its file name or path), its `<info>` and
    where it was found; and the zipped maps seen there, which TripleA unpacks but the adjudicator cannot read."""
    where = [(d, game) for d in search_dirs for folder in _map_folders([d]) for game in _games_in(folder)]
    games = [game for _, game in where]
    def picks(name: str) -> bool:
        if name.endswith(".xml"):
            return sum(_normal(name.removesuffix(".xml")) == _normal(game.xml.stem) for game in games) == 1
        return sum(_normal(name) in game.keys() for game in games) == 1
    found = []
    for d, game in where:
        names = [game.xml.stem] + ([game.info[0]] if game.info and game.info[0] else []) + [game.xml.name]
        found.append({"map": next((n for n in names if picks(n)), str(game.xml)), "xml": str(game.xml),
                      "folder": str(game.folder), "searched": str(d),
                      "name": game.info[0] if game.info else None, "version": game.info[1] if game.info else None})
    zipped = [child for d in search_dirs if d.is_dir() for child in sorted(d.iterdir())
              if child.is_file() and child.suffix.lower() == ".zip"]
    return found, zipped


def _single(name: str, candidates: list[_Game]) -> Path:
    if len(candidates) == 1:
        return candidates[0].xml
    if not candidates:
        raise MapError(f"{name}: the folder holds no game XML (looked in map/games/ and games/)")
    listing = "; ".join(game.describe() for game in candidates)
    raise MapError(f"'{name}' is ambiguous: it matches {len(candidates)} game XMLs; "
                   f"pass one by file name, <info> name or path: {listing}")


def _not_found(name: str, key: str, games: list[_Game], search_dirs: list[Path]) -> str:
    spellings: dict[str, str] = {}
    for game in games:
        spellings.setdefault(_normal_folder(game.folder.name), game.folder.name)
        spellings.setdefault(_normal(game.xml.stem), game.xml.stem)
        if game.info:
            spellings.setdefault(_normal(game.info[0]), game.info[0])
    close = [spellings[k] for k in difflib.get_close_matches(key, list(spellings), n=3, cutoff=0.6)]
    message = (f"no TripleA map or game called '{name}' in {searched(search_dirs)} "
               f"(looked for <map folder>/map/games/*.xml and <map folder>/games/*.xml)")
    return message + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else f"; {how_to_give()}")


def how_to_give() -> str:
    """What a host who has no map where the adjudicator looks needs to know (`new` without a map, `maps`)."""
    return (f"give --map PATH (a TripleA game XML, from a map's map/games/ folder) or --map NAME (a map or game name "
            f"found in the folders searched). TripleA keeps the maps it downloads in {triplea_maps()}, which is "
            f"always searched; ADJUDICATOR_MAPS_PATH (in the environment or .env, folders separated by "
            f"'{os.pathsep}') adds others, such as a map folder set in TripleA's settings. `adjudicator maps` lists "
            f"the maps found")


def searched(search_dirs: list[Path]) -> str:
    """The folders searched, each with what was found there, for a message."""
    def found(folder: Path) -> str:
        if not folder.is_dir():
            return "missing"
        maps = sum(1 for child in _map_folders([folder]) if _games_in(child))
        return f"{maps} map{'' if maps == 1 else 's'}"
    return ", ".join(f"{d} ({found(d)})" for d in search_dirs) or "no folders"


def _map_folders(search_dirs: list[Path]) -> list[Path]:
    """Direct sub-folders of the search dirs; zipped maps are skipped, TripleA can unpack them. A search dir that
    is itself a map folder counts as one: hosts point ADJUDICATOR_MAPS_PATH at a map as often as at its parent."""
    folders = []
    for d in search_dirs:
        if not d.is_dir():
            continue
        if any((d / sub).is_dir() for sub in _GAME_FOLDERS):
            folders.append(d)
        else:
            folders += [child for child in sorted(d.iterdir()) if child.is_dir()]
    return folders


def _games_in(folder: Path) -> list[_Game]:
    return [_Game(xml, folder, read_info(xml))
            for sub in _GAME_FOLDERS for xml in sorted((folder / sub).glob("*.xml"))]


def _normal(name: str) -> str:
    return re.sub(r"[\s_-]+", "_", name.strip().casefold())


def _normal_folder(name: str) -> str:
    """TripleA unpacks downloaded maps into `<map>-master` folders; the suffix is not part of the name."""
    return _normal(name.removesuffix("-master"))
