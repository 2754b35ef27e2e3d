"""How the position reads: the board as a text strip and the players' table (reports), and `status --json`."""

from __future__ import annotations

from adjudicator.state import State

from . import army


def position_lines(rules, state: State) -> list[str]:
    board = state.board
    tokens: dict[int, list[str]] = {}
    for p in rules.in_game(state):
        tokens.setdefault(board["tokens"][p], []).append(p)
    lines = ["Board (clockwise; defend army inf/tank/air/bb and its defend power)"]
    for i, name in enumerate(rules.spaces, 1):
        owner = state.owners.get(name) or ("-" if rules.kind(name) in ("fortune", "strategy") else "neutral")
        garrison = board["armies"].get(name, {})
        force = "/".join(str(garrison.get(u, 0)) for u in army.UNITS) if rules.kind(name) in ("territory", "main") else ""
        power = f"= {rules.defend_power(state, name)}" if force else ""
        port = "" if rules.kind(name) not in ("territory", "main") else (" port" if rules.seaport(name) else " land")
        here = " <" + ", ".join(tokens[i]) + ">" if i in tokens else ""
        lines.append(f"{i:2} {name:<15}{port:<6}{owner:<10}{force:>12} {power:<6}{here}".rstrip())
    lines += ["", f"{'Player':<10}{'$M':>7}{'inf':>6}{'tank':>6}{'air':>5}{'bb':>4}  {'spaces':>6}  prison  cards"]
    for p in rules.powers:
        pool = board["pools"][p]
        held = sum(1 for o in state.owners.values() if o == p)
        jail = board["prisons"].get(p, "-")
        count = f" ({board['imprisoned'][p]}/{rules.prison_limit(state)})"
        status = f"  out: {board['out'][p]}" if p in board["out"] else ""
        frozen = "  frozen" if p in board["frozen"] else ""
        lines.append(f"{p:<10}{state.treasury[p]:>7}" + "".join(f"{pool.get(u, 0):>{w}}" for u, w in
                     zip(army.UNITS, (6, 6, 5, 4))) + f"  {held:>6}  {jail}{count}  "
                     f"{', '.join(board['hands'][p]) or '-'}{frozen}{status}")
    lines.append(f"Piles: fortune {len(board['piles']['fortune'])}, strategy {len(board['piles']['strategy'])} cards "
                 f"left; mode {rules.mode(state)}, "
                 f"{'Sudden Death' if state.switches.get('option:sudden-death') else 'Conqueror'}")
    return lines


def public_units(rules, state: State) -> list[list]:
    """What the map picture badges: each space's defend army under its owner, and each player's token as a unit
    "token" on its space, so that a forum reader sees where everyone stands as the text board shows it."""
    units = [[name, state.owners.get(name) or "Neutral", unit, n]
             for name in rules.spaces for unit, n in state.board["armies"].get(name, {}).items() if n]
    units += [[rules.position_of(state, p), p, "token", 1] for p in rules.in_game(state)]
    return sorted(units)


def status_fields(rules, state: State) -> dict:
    """The defend armies as the territories' units of `status --json`, the board's own facts, and the currency the
    treasuries are counted in (the book's $M, where the G40 games count PUs)."""
    board = state.board
    territories = {}
    for name in rules.spaces:
        owner = state.owners.get(name)
        garrison = {u: n for u, n in board["armies"].get(name, {}).items() if n}
        territories[name] = {"owner": owner, "units": {owner or "Neutral": garrison} if garrison else {},
                             "kind": rules.kind(name), "defend_power": rules.defend_power(state, name)}
    return {"currency": "$M", "territories": territories, "board": {
        "tokens": {p: {"space": board["tokens"][p], "name": rules.position_of(state, p)} for p in rules.powers},
        "pools": board["pools"], "hands": board["hands"], "prisons": board["prisons"],
        "imprisoned": board["imprisoned"], "frozen": board["frozen"], "out": board["out"],
        "piles": {d: len(pile) for d, pile in board["piles"].items()}, "mode": rules.mode(state)}}
