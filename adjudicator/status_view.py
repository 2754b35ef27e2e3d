"""`status --power P --place T`: the territories and units a player asks about, in `--json` as in text, where
the units stand by territory as a player's spreadsheet lists them."""

from __future__ import annotations

from .errors import ConfigError
from .notation.lexicon import PLACE, Lexicon
from .people import People, heading, objective, unit
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


def text_lines(out: dict, people: People, every: bool) -> list[str]:
    """`status` as text: what `--json` holds, with powers, units and objectives as players name them (the JSON
    keeps the map's names, as orders and `--power` take them; `--power` takes the players' names too)."""
    name = people.heading
    lines = [f"{out['title']} — game {out['game']} ({out['name']}{' ' + out['rules'] if out['rules'] else ''})"]
    when = "bid before round 1" if out["round"] == 0 else f"round {out['round']}"
    lines.append(f"{when}, {name(out['power'])}, {out['phase'].replace('_', ' ')} (turn {out['turn_index']}); "
                 f"awaiting {people.told(out['awaiting'])}")
    lines.append(f"anchor {out['anchor']}" + ("  TEST DICE" if out["test_seed"] else ""))
    winner = out["victory"]["winner"]
    lines += [line["text"] for line in ([winner] if winner else out["victory"]["holds"])]
    for power, k in out.get("kamikaze", {}).items():
        lines.append(f"kamikaze tokens of {name(power)}: {k['tokens']} left (strikes at {k['attack']} in "
                     f"{', '.join(k['zones'])})")
    money = out.get("currency", "PUs")          # a game with money of its own says so in its status fields
    playing = {power: p for power, p in out["powers"].items() if p["turn_order"] is not None}
    width = max([22] + [len(name(power)) + 2 for power in playing])
    lines.append(f"{'power':<{width}}{money:>5}{'income':>8}  at war with")
    for power, p in playing.items():
        lines.append(f"{name(power):<{width}}{p['treasury']:>5}{p['income']:>8}  "
                     f"{', '.join(sorted(name(e) for e in p['at_war_with'])) or '-'}")
    lines += out.get("notes", [])              # a game's own account of the position (Expanded Global's alliances)
    objectives = out["powers"].get(out["power"], {}).get("objectives", [])
    if objectives:
        met = [f"{objective(o['name'], out['power'], False)} (+{o['paid']})" for o in objectives if o["paid"]]
        lines.append(f"objectives of {name(out['power'])} as the position stands: {len(met)} of {len(objectives)} met"
                     + (f": {', '.join(met)}" if met else ""))
    territories = territory_lines(out["territories"], every)
    chosen = out.get("filter", {})
    filters = " ".join(filter(None, [f"of {name(chosen['power'])}" if chosen.get("power") else "",
                                     f"in {', '.join(chosen['places'])}" if chosen.get("places") else ""]))
    lines.append(f"units by territory (owner){' ' + filters if filters else ''}:" if territories else f"no units {filters}")
    return lines + territories
