"""Settings from the environment and a `.env` file in the working folder (python-dotenv; the environment wins).

Every key is listed, with its meaning, in `.env.example` and in the README.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigError


def triplea_maps() -> Path:
    """The folder TripleA downloads maps into (its default; a player may choose another in TripleA's settings)."""
    return Path.home() / "triplea" / "downloadedMaps"


@dataclass(frozen=True)
class Settings:
    database: str | None          # ADJUDICATOR_DB: used when a command is given no DB
    maps_path: list[Path]         # ADJUDICATOR_MAPS_PATH (os.pathsep-separated) + TripleA's download folder
    keys_dir: Path                # ADJUDICATOR_KEYS_DIR: private folder of the dice chains' secrets
    templates_dir: Path | None    # ADJUDICATOR_TEMPLATES: a folder whose templates override the built-in ones


# Settings that name files or folders: in a .env file, a relative one is relative to the .env file's folder.
PATH_KEYS = ("ADJUDICATOR_DB", "ADJUDICATOR_MAPS_PATH", "ADJUDICATOR_KEYS_DIR", "ADJUDICATOR_TEMPLATES")


def load_settings() -> Settings:
    try:
        from dotenv import find_dotenv, load_dotenv
        dotenv = find_dotenv(usecwd=True)
        before = set(os.environ)
        load_dotenv(dotenv, override=False)
    except OSError as exc:
        raise ConfigError(f"cannot read the .env file: {exc}") from None
    if dotenv:
        _anchor_paths(Path(dotenv).parent, [key for key in PATH_KEYS if key in os.environ and key not in before])
    env = os.environ
    maps = [Path(p).expanduser() for p in env.get("ADJUDICATOR_MAPS_PATH", "").split(os.pathsep) if p.strip()]
    maps.append(triplea_maps())
    data_home = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    keys = Path(env["ADJUDICATOR_KEYS_DIR"]).expanduser() if env.get("ADJUDICATOR_KEYS_DIR") else data_home / "adjudicator" / "keys"
    templates = Path(env["ADJUDICATOR_TEMPLATES"]).expanduser() if env.get("ADJUDICATOR_TEMPLATES") else None
    if templates is not None and not templates.is_dir():
        raise ConfigError(f"ADJUDICATOR_TEMPLATES points to {templates}, which is not a folder")
    return Settings(database=env.get("ADJUDICATOR_DB") or None, maps_path=maps, keys_dir=keys, templates_dir=templates)


def _anchor_paths(folder: Path, keys: list[str]) -> None:
    """Relative paths that a .env file set, made relative to its folder: python-dotenv finds a .env in a parent of
    the working folder too, and `ADJUDICATOR_DB=game.db` there means the game beside it, wherever one runs from."""
    if folder.resolve() == Path.cwd().resolve():
        return                                      # relative to the working folder is relative to the .env's
    for key in keys:
        parts = os.environ[key].split(os.pathsep) if key == "ADJUDICATOR_MAPS_PATH" else [os.environ[key]]
        anchored = [part if not part.strip() or "://" in part or part.startswith("~") or Path(part).is_absolute()
                    else str(folder / part) for part in parts]
        os.environ[key] = os.pathsep.join(anchored)
