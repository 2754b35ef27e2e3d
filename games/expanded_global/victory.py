"""Victory in the Expanded Global Scenario (RULINGS.md "eg-victory"; the document has none).

Checked as each round ends, after the last nation's (Canada's) `end turn`:

* an alliance of at most 5 members whose incomes sum to 180 or more, or
* one nation, in an alliance or not, with an income of 135 or more,

met at one round-end starts a hold; met again at the next round-end by the same nation, or the same members, wins.
A nation's income is its territories' value (`income`): Peacetime, convoys and Influence do not count. Alliances are
read from the relationships: nations allied to one another, directly or through a partner, are one alliance; a nation
allied to no one is its own bloc. A solo victory beats an alliance's at the same check (solo holds are looked at
first). The hold of a round is the rules core's (rules/conditions.py `check_holds`), called at round-ends only.
"""

from __future__ import annotations

import json

from adjudicator.rules.conditions import Hold, check_holds, hold_status
from adjudicator.state import State

RULING = "eg-victory"
ALLIANCE_INCOME = 180
SOLO_INCOME = 135
MAX_MEMBERS = 5
PREFIX = "eg:"              # the holds' records: switches["victory:eg:solo:NATION"], ["victory:eg:alliance:A+B"]


def nations(rules) -> list[str]:
    return [p.name for p in rules.scenario.players if not p.optional]


def blocs(rules, state: State) -> list[list[str]]:
    """The alliances (groups of nations allied to one another) and the lone nations, each as its sorted members."""
    names = nations(rules)
    seen: set[str] = set()
    out = []
    for n in names:
        if n in seen:
            continue
        bloc, todo = set(), [n]
        while todo:
            a = todo.pop()
            if a in bloc:
                continue
            bloc.add(a)
            todo += [b for b in names if b not in bloc and rules.archetype(state, a, b) == "allied"]
        seen |= bloc
        out.append(sorted(bloc))
    return out


def holding(rules, state: State, nation: str) -> int:
    """The income a victory counts: the IPC value of the land `nation` controls (RULINGS.md "eg-victory"), whether
    or not it collects it (a nation whose capital is held collects nothing, but still holds its land)."""
    territories = rules.scenario.territories_by_name()
    return sum(territories[t].production for t, owner in state.owners.items() if owner == nation)


def candidates(rules, state: State) -> dict[str, dict]:
    """The conditions met now: key -> {kind, members, income}, solo ones first (richest first)."""
    income = {n: holding(rules, state, n) for n in nations(rules)}
    solo = {f"{PREFIX}solo:{n}": {"kind": "solo", "members": [n], "income": i}
            for n, i in sorted(income.items(), key=lambda kv: -kv[1]) if i >= SOLO_INCOME}
    allied = {}
    for bloc in blocs(rules, state):
        total = sum(income[n] for n in bloc)
        if 2 <= len(bloc) <= MAX_MEMBERS and total >= ALLIANCE_INCOME:
            allied[f"{PREFIX}alliance:{'+'.join(bloc)}"] = {"kind": "alliance", "members": bloc, "income": total}
    return {**solo, **allied}


def _describe(key: str) -> tuple[str, list[str]]:
    kind, _, who = key[len(PREFIX):].partition(":")
    members = who.split("+")
    return kind, members


def _holds(rules, state: State):
    met = candidates(rules, state)
    recorded = sorted(k[len("victory:"):] for k in state.switches if k.startswith("victory:" + PREFIX)
                      and state.switches.get(k))         # sorted: a saved game keeps its switches sorted
    keys = list(met) + [k for k in recorded if k not in met]
    keys.sort(key=lambda k: (_describe(k)[0] != "solo",))          # solo before alliance, stable otherwise
    holds = []
    for k in keys:
        kind, members = _describe(k)
        side = members[0] if kind == "solo" else "alliance of " + ", ".join(members)
        holds.append(Hold(k, side, RULING, (lambda _round, k=k: k in met)))

    def event(kind: str, hold: Hold, power: str, round_: int, **more) -> dict:
        what, members = _describe(hold.key)
        now = met.get(hold.key)
        income = now["income"] if now else sum(holding(rules, state, n) for n in members)
        need = SOLO_INCOME if what == "solo" else ALLIANCE_INCOME
        who = members[0] if what == "solo" else "the alliance of " + ", ".join(members)
        cond = (f"an income of {need} or more" if what == "solo"
                else f"{need} or more in income, with at most {MAX_MEMBERS} members")
        if kind == "victory":
            text = (f"Game over: {who} win{'s' if what == 'solo' else ''}: {cond}, held at the end of round {round_} "
                    f"and of round {round_ + 1} ({income} IPCs) [{RULING}].")
        elif kind == "victory_hold_broken":
            text = (f"{who[0].upper() + who[1:]} no longer meet{'s' if what == 'solo' else ''} {cond} ({income} IPCs): "
                    f"the hold begun at the end of round {round_} is broken [{RULING}].")
        else:
            text = (f"{who[0].upper() + who[1:]} {'meets' if what == 'solo' else 'meet'} {cond} at the end of round "
                    f"{round_} ({income} IPCs): "
                    f"{'win' if what != 'solo' else 'wins'} if {'it' if what == 'solo' else 'they'} still "
                    f"{'does' if what == 'solo' else 'do'} at the end of round {round_ + 1} [{RULING}].")
        return {"type": kind, "side": hold.side, "members": members, "income": income, "condition": cond,
                "rule": RULING, "power": power, "round": round_, "until": round_ + 1, "text": text, **more}
    return holds, event


def check(rules, state: State, power: str) -> list[dict]:
    """At the end of `power`'s turn: only the round's last nation's turn ends a round, where the check is made."""
    players = rules.scenario.turn_players()
    if power != players[-1]:
        return []
    holds, event = _holds(rules, state)
    return check_holds(state, power, players, holds, event) if holds else []


def status(rules, state: State) -> dict:
    """The hold under way; or the end, by a condition held or by a draw agreed (politics.offer_draw)."""
    drawn = state.switches.get("drawn")
    if drawn:
        members = json.loads(drawn)
        return {"winner": {"type": "victory", "side": "draw", "members": members, "rule": RULING,
                           "text": f"Game over: a draw, agreed by {', '.join(members)}."}, "holds": []}
    holds, event = _holds(rules, state)
    return hold_status(state, holds, event)
