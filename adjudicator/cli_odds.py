"""`adjudicator odds`: a battle's odds, on a game's rules without a database (units named on the command line), or
from a game's current state (`--order "cm …"`). The database part is imported only when a database is named, so
that odds on a map need neither the store nor SQLAlchemy."""

from __future__ import annotations

from .errors import AdjudicatorError
from .odds import Odds, Position, check_battles, from_order, read_units, standalone
from .people import People, powers, speaking, verb
from .people import power as power_word
from .people import unit as unit_word
from .words import possessive
from .people import units as units_words

Z95 = 1.96          # the simulation's error bars: 95% of runs of as many battles fall within


def odds_position(rules, attacker: str, defender: str, place: str | None, power: str | None, enemy: str | None,
                  attacker_ool: str | None, defender_ool: str | None, retreat_below: int | None,
                  round_: int = 1) -> Position:
    """The battle of the units named on the command line, on the game's map (`--place`, else a place that fits),
    in game round `round_` (a rule of a round, as the Pacific's surprise attack in round 1, applies there)."""
    from .state import State
    check_battles(rules)
    start = State.initial(rules.scenario)
    power = _power(rules, power, "--attacker-power") or rules.scenario.turn_players()[0]
    enemy = _power(rules, enemy, "--defender-power") or _enemy(rules, start, power)
    if enemy is None or enemy == power:
        raise AdjudicatorError("name the defending power with --defender-power (one that is not the attacker's ally)")
    att = read_units(rules, attacker, "--attacker", power)
    dfn = read_units(rules, defender, "--defender", enemy)
    sea = any(rules.ut(uc.unit).domain == "sea" for uc in (*att, *dfn))
    place = _place(rules, start, place, power, enemy, sea)
    ools = [read_units(rules, text, option, who, counts=False) if text else None
            for text, option, who in ((attacker_ool, "--attacker-ool", power), (defender_ool, "--defender-ool", enemy))]
    return standalone(rules, att, dfn, power, enemy, place, ools[0], ools[1], retreat_below, round_)


def _enemy(rules, state, power: str) -> str | None:
    """The defender when none is named: a power at war with the attacker (else one not allied with it), one whose
    land borders the attacker's where there is one, first in turn order."""
    players = rules.scenario.turn_players()
    foes = ([p for p in players if rules.fights(state, power, p)]
            or [p for p in players if p != power and not rules.friendly(state, power, p)])
    own = {t for t, owner in state.owners.items() if owner == power}
    beside = [p for p in foes if any(owner == p and own & set(rules.scenario.neighbours(t))
                                     for t, owner in state.owners.items())]
    return (beside or foes or [None])[0]


def _power(rules, given: str | None, option: str) -> str | None:
    if given is None:
        return None
    found = rules.lexicon().resolve("power", given)
    if len(found) != 1:
        names = ", ".join(rules.scenario.turn_players())
        raise AdjudicatorError(f"{option} {given}: no such power in this game (it has {names})")
    return found[0]


def _place(rules, state, given: str | None, power: str, enemy: str, sea: bool) -> str:
    """`--place`, else where such a battle could be: a sea zone (any ship) or the defender's land, one beside the
    attacker's own land where there is one."""
    if given is not None:
        found = rules.lexicon().resolve("place", given)
        if len(found) != 1:
            raise AdjudicatorError(f"--place {given}: no such place on this map" if not found
                                   else f"--place {given} could be {', '.join(found)}: name one")
        return found[0]
    fits = [t.name for t in rules.scenario.territories
            if t.water == sea and (sea or state.owners.get(t.name) == enemy)]
    beside = [name for name in fits if any(state.owners.get(n) == power for n in rules.scenario.neighbours(name))]
    if beside or fits:
        return (beside or fits)[0]
    raise AdjudicatorError("give --place: no place on this map fits the battle")


def position_from_order(db: str, game_id: str | None, text: str) -> tuple[Position, object]:
    """The battle the mover's combat move `text` would start in the game's current state, and the game's names."""
    from .game import open_game
    from .store.db import choose, open_existing, transaction
    with transaction(choose(open_existing(db), db, game_id)) as s:
        g = open_game(s)
        power, phases = g.state.power, g.scenario.phases_of(g.state.power)
        if "combat_move" not in phases or g.state.bidding or (
                g.state.phase in phases and phases.index(g.state.phase) > phases.index("combat_move")):
            raise AdjudicatorError(f"{possessive(power, the=True)} combat move is over (the game is in its "
                                   f"{g.state.phase.replace('_', ' ')} phase): odds of a combat move are asked for "
                                   "until it is made")
        result = g.setup.parse(text, power, "combat_move")
        if result.errors:
            raise AdjudicatorError("the order cannot be read:\n" + "\n".join("  " + e.render() for e in result.errors))
        return from_order(g.rules, g.state, result.submission.orders), g


def rules_of_game(db: str, game_id: str | None):
    """The rules (and map) a game in a database is played with, and the round it is in."""
    from .game import open_game
    from .store.db import choose, open_existing, transaction
    with transaction(choose(open_existing(db), db, game_id)) as s:
        g = open_game(s)
        return g.rules, max(1, g.state.round)


def rules_without_db(game: str, map_arg: str | None, rules_version: str | None):
    """The game's rules on its map, as `new` would read them, without a database."""
    from .config import load_settings
    from .scenario_source import load_scenario, rules_for
    scenario, version, _ = load_scenario(game, map_arg, rules_version, load_settings())
    return rules_for(game, scenario, version)


def odds_text(odds: Odds, rules) -> str:
    """The odds as players read them in a post."""
    with speaking(People(rules.scenario, rules.people_names)):
        head = f"Battle odds in {odds.place} ({rules.name} rules, round {odds.round}), "
        head += (f"exact over {odds.states:,} battle state{'s' if odds.states != 1 else ''}" if odds.method == "exact" else
                 f"simulated: {odds.runs:,} battles from seed {odds.seed}, error bars of 95% ({odds.why})")
        lines = [head,
                 f"  {power_word(odds.attacker)} {verb(odds.attacker, 'attack')} with {units_words(odds.attacking)}",
                 f"  {_defenders(odds.defender)} with {units_words(odds.defending)}"
                 if odds.defending else "  no unit there defends (facilities are never casualties)",
                 _line("attacker wins", odds.attacker_wins, odds)
                 + (f"   (takes {odds.place}: {odds.captures:.2%})" if odds.captures else ""),
                 _line("defender holds", odds.defender_wins, odds)
                 + (f"   (the attacker retreats: {odds.retreats:.2%})" if odds.retreats else ""),
                 _line("both destroyed", odds.draw, odds),
                 "expected survivors: " + "; ".join(
                     f"{power_word(who)} {_expected(odds.survivors[side])}"
                     for side, who in (("attacker", odds.attacker), ("defender", "/".join(odds.defender))) if who),
                 f"IPC swing: {odds.ipc_swing:+.2f} for {power_word(odds.attacker)} (the defender's expected "
                 "losses less the attacker's)",
                 "likeliest ends:"]
        for o in odds.outcomes[:5]:
            left = [f"{power_word(odds.attacker)} {verb(odds.attacker, 'keep')} {units_words(o['attacker'])}" if o["attacker"] else "",
                    f"the defender keeps {units_words(o['defender'])}" if o["defender"] else ""]
            lines.append(f"  {o['probability']:7.2%}  {o['result']}" + "".join(f"; {x}" for x in left if x))
    return "\n".join(lines)


def _defenders(names: list[str]) -> str:
    return f"{power_word(names[0])} {verb(names[0], 'defend')}" if len(names) == 1 else f"{powers(names)} defend"


def _line(what: str, p: float, odds: Odds) -> str:
    bar = f" ± {Z95 * odds.error(p):.2%}" if odds.method != "exact" else ""
    return f"{what:<15} {p:7.2%}{bar}"


def _expected(found: dict[str, float]) -> str:
    shown = [f"{unit_word(t)} {n:.2f}" for t, n in found.items() if n >= 0.005]
    return ", ".join(shown) or "none"
