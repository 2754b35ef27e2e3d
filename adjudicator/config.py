"""Settings from the environment and one `.env` file (python-dotenv; the environment wins).

The `.env` is the working folder's own, or the file ADJUDICATOR_ENV names; never one in a folder above, which
a game folder mailed around could hold. It sets only ADJUDICATOR_* settings: a proxy or a certificate store set
there would carry the forum token and the mail login to whoever wrote the file. Every key is listed, with its
meaning, in `.env.example` and in the README.
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
    env_file: Path | None = None          # the .env file read, if any
    from_env_file: tuple[str, ...] = ()   # the settings it gave (those the environment did not)
    ignored: tuple[str, ...] = ()         # its keys that are not honoured: not ADJUDICATOR_* settings


# Settings that name files or folders: in a .env file, a relative one is relative to the .env file's folder.
PATH_KEYS = ("ADJUDICATOR_DB", "ADJUDICATOR_MAPS_PATH", "ADJUDICATOR_KEYS_DIR", "ADJUDICATOR_TEMPLATES")
ENV_FILE_VAR = "ADJUDICATOR_ENV"         # the .env file to read instead of the working folder's; empty: none
PREFIX = "ADJUDICATOR_"
_loaded: dict[str, str] = {}            # what a .env put into this process's environment, to tell it apart


def load_settings() -> Settings:
    env_file = dotenv_file()
    given, ignored = _load(env_file) if env_file else ((), ())
    env = os.environ
    maps = [Path(p).expanduser() for p in env.get("ADJUDICATOR_MAPS_PATH", "").split(os.pathsep) if p.strip()]
    maps.append(triplea_maps())
    data_home = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    keys = Path(env["ADJUDICATOR_KEYS_DIR"]).expanduser() if env.get("ADJUDICATOR_KEYS_DIR") else data_home / "adjudicator" / "keys"
    templates = Path(env["ADJUDICATOR_TEMPLATES"]).expanduser() if env.get("ADJUDICATOR_TEMPLATES") else None
    if templates is not None and not templates.is_dir():
        raise ConfigError(f"ADJUDICATOR_TEMPLATES points to {templates}, which is not a folder")
    return Settings(database=env.get("ADJUDICATOR_DB") or None, maps_path=maps, keys_dir=keys, templates_dir=templates,
                    env_file=env_file, from_env_file=tuple(given), ignored=tuple(ignored))


def dotenv_file() -> Path | None:
    """The .env file to read: the one ADJUDICATOR_ENV names (in the real environment), else the working folder's."""
    named = os.environ.get(ENV_FILE_VAR)
    if named is not None and not named.strip():
        return None
    try:
        path = Path(named).expanduser().resolve() if named is not None else Path.cwd() / ".env"
        if path.is_file():
            return path
    except OSError as exc:
        raise ConfigError(f"cannot look for the .env file: {exc}") from None
    if named is not None:
        raise ConfigError(f"{ENV_FILE_VAR} names {named}, which is not a file: name the settings file to read, or "
                          f"set it empty to read none")
    return None


def _load(path: Path) -> tuple[list[str], list[str]]:
    """Puts the file's ADJUDICATOR_* settings that the environment lacks into it; returns the keys of the file's
    settings in force and of those it may not set. Values are taken as written: expanding ${VAR} would let the
    file copy the forum token into a setting that goes out, such as the sender of the mail players receive."""
    from dotenv import dotenv_values
    try:
        values = dotenv_values(path, interpolate=False)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the settings file {path}: {exc}") from None
    ignored = [key for key in values if not key.startswith(PREFIX) or key == ENV_FILE_VAR]
    new = [key for key, value in values.items()
           if key not in ignored and value is not None and key not in os.environ]
    for key in new:
        os.environ[key] = values[key]
    _anchor_paths(path.parent, [key for key in new if key in PATH_KEYS])
    _loaded.update({key: os.environ[key] for key in new})
    given = [key for key in values if key not in ignored and key in _loaded and os.environ.get(key) == _loaded[key]]
    return given, ignored


def _anchor_paths(folder: Path, keys: list[str]) -> None:
    """Relative paths that a .env file set, made relative to its folder: ADJUDICATOR_ENV may name a .env elsewhere,
    and `ADJUDICATOR_DB=game.db` there means the game beside it, wherever one runs from."""
    if folder.resolve() == Path.cwd().resolve():
        return                                      # relative to the working folder is relative to the .env's
    for key in keys:
        parts = os.environ[key].split(os.pathsep) if key == "ADJUDICATOR_MAPS_PATH" else [os.environ[key]]
        anchored = [part if not part.strip() or "://" in part or part.startswith("~") or Path(part).is_absolute()
                    else str(folder / part) for part in parts]
        os.environ[key] = os.pathsep.join(anchored)


# The settings that together say where a secret goes: the forum's address; the mail server's name, port and security
# (a .env that kept the host's server but set port 2526 and security none would have the login sent in clear to
# another program on it); the league's database server.
FORUM = ("ADJUDICATOR_NODEBB_URL",)
MAIL = ("ADJUDICATOR_SMTP_HOST", "ADJUDICATOR_SMTP_PORT", "ADJUDICATOR_SMTP_SECURITY")
DATABASE = ("ADJUDICATOR_DB",)
# libpq's environment that authenticates a connection: a password, or the files that hold one (a password file, a
# service file and its folder, whose service may carry a password) or a client certificate and key
LIBPQ_SECRETS = ("PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE", "PGSYSCONFDIR", "PGSSLKEY", "PGSSLCERT")
# parameters of a database URL that make libpq read the host's own files of such secrets
_LIBPQ_FILE_PARAMS = ("service", "servicefile", "passfile", "sslkey", "sslcert")


def _from_file(key: str) -> bool:
    return key in _loaded and os.environ.get(key) == _loaded[key]


def check_destination(keys: tuple[str, ...], secrets: tuple[str, ...]) -> None:
    """A secret set in the real environment goes only to a server named there too, every setting of its address:
    the working folder may be a game folder someone mailed, whose .env could name their own forum, mail server
    (or only another port of the host's) or database server to collect the host's token or password."""
    given = [key for key in keys if _from_file(key)]
    if not given:
        return
    kept = [key for key in secrets if os.environ.get(key) and not _from_file(key)]
    if kept:
        raise ConfigError(f"{' and '.join(given)} {'comes' if len(given) == 1 else 'come'} from the settings file "
                          f"{dotenv_file()}, but {', '.join(kept)} from the environment: a secret of the environment "
                          f"is sent only to a server the environment names. Set {' and '.join(given)} in the "
                          f"environment too if you trust {'it' if len(given) == 1 else 'them'}"
                          + (" (or the secret in that file)" if all(k.startswith(PREFIX) for k in kept) else ""))


def check_database(db: str) -> None:
    """ADJUDICATOR_DB from a .env naming a database server gets none of the host's libpq secrets: libpq sends
    PGPASSWORD (or a password of a service or password file) to whatever server the URL names. A DB given on the
    command line, or ADJUDICATOR_DB set in the environment, is the host's own choice and is not checked."""
    if "://" not in db or db.split("://", 1)[0].lower() == "sqlite" or not _from_file("ADJUDICATOR_DB"):
        return
    check_destination(DATABASE, LIBPQ_SECRETS)
    from urllib.parse import parse_qs, urlsplit
    try:
        params = parse_qs(urlsplit(db).query, keep_blank_values=True)
    except ValueError:
        return                                  # not a URL a driver takes: refused when it is opened
    if named := [p for p in _LIBPQ_FILE_PARAMS if p in {k.lower() for k in params}]:
        raise ConfigError(f"ADJUDICATOR_DB comes from the settings file {dotenv_file()} and names {', '.join(named)}"
                          f"=, which has libpq read a file of this computer's secrets and use them with the server the "
                          f"file names. Set ADJUDICATOR_DB in the environment if you trust it")


def not_honoured(settings: Settings) -> str | None:
    """The warning for keys of the .env file that it may not set, such as a proxy: said, not silently dropped."""
    if not settings.ignored:
        return None
    one = len(settings.ignored) == 1
    return (f"{', '.join(settings.ignored)} in {settings.env_file} {'is' if one else 'are'} not honoured: a .env file "
            f"sets only ADJUDICATOR_* settings; set {'it' if one else 'them'} in the real environment if you mean "
            f"{'it' if one else 'them'}")


def shown(settings: Settings) -> dict:
    """What `adjudicator settings` prints: the .env file read, and every ADJUDICATOR_* setting in force with where
    it comes from; tokens and passwords hidden, and the userinfo of any address."""
    from .redact import redact
    rows = [{"key": key, "from": "file" if key in settings.from_env_file else "environment",
             "value": "(set, hidden)" if key.endswith(("_TOKEN", "_PASSWORD")) else redact(value, []) or "(empty)"}
            for key, value in sorted(os.environ.items()) if key.startswith(PREFIX)]
    if settings.env_file is not None:
        read = f"settings read from {settings.env_file} (the environment wins over it)"
    elif os.environ.get(ENV_FILE_VAR) is not None:
        read = f"no .env file read ({ENV_FILE_VAR} is empty): settings from the environment only"
    else:
        read = f"no .env file in this folder ({Path.cwd()}): settings from the environment only"
    return {"file": str(settings.env_file) if settings.env_file else None, "read": read, "settings": rows,
            "not_honoured": list(settings.ignored), "warning": not_honoured(settings)}
