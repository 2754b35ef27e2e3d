"""`status --power P --place T`: the territories and units a player asks about, in `--json` as in text, where
the units stand by territory as a player's spreadsheet lists them."""

from __future__ import annotations

from .errors import ConfigError
from .notation.lexicon import PLACE, Lexicon
from .people import heading, unit
from .people import units as units_phrase


def resolve_place(lex: Lexicon, given: str) -> str:
    """A territory named on the command line (its name, or an alias the orders take), or a ConfigError that helps."""
    found = lex.resolve(PLACE, given)
    if len(found) == 1:
        return found[0]
    if found:
        raise ConfigError(f"--place {given}: ambiguous, it could be {', '.join(found)}")
    close = lex.suggest(PLACE, given)
    raise ConfigError(f"--place {given}: not a territory or sea zone of this game"
                      + (f" (did you mean {', '.join(close)}?)" if close else ""))


def filtered(territories: dict, power: str | None, places: list[str]) -> dict:
    """The territories of `places` (all, if none given); with `power`, only where it has units, and only its
    units (those aboard and damaged with them)."""
    if places:
        territories = {p: territories[p] if p in territories else {"owner": None, "units": {}} for p in places}
    if power is None:
        return territories
    out = {}
    for name, t in territories.items():
        if power not in t["units"]:
            continue
        mine = {"owner": t["owner"], "units": {power: t["units"][power]}}
        if power in t.get("aboard", {}):
            mine["aboard"] = {power: t["aboard"][power]}
        damage = [d for d in t.get("damage", []) if d["owner"] == power]
        if damage:
            mine["damage"] = damage
        out[name] = mine
    return out


def territory_lines(territories: dict, every: bool) -> list[str]:
    """One line a territory: its owner, each power's units, those aboard and the damage, as players name them
    (people.speaking). `every`: also the territories where no unit stands (those the player named)."""
    lines = []
    for name, t in territories.items():
        if not t["units"] and not every:
            continue
        owner = f" ({heading(t['owner'])})" if t["owner"] else ""
        units = "; ".join(f"{heading(p)} {units_phrase(u)}" for p, u in t["units"].items()) or "no units"
        aboard = "; ".join(f"{heading(p)} {units_phrase(u)}" for p, u in t.get("aboard", {}).items())
        damage = ", ".join(f"{heading(d['owner'])} {unit(d['unit'])} {d['damage']}" for d in t.get("damage", []))
        lines.append(f"  {name}{owner}: {units}" + (f" (aboard: {aboard})" if aboard else "")
                     + (f" (damage: {damage})" if damage else ""))
    return lines
