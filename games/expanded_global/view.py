"""The diplomatic picture after each turn (the report's "After the turn"): fourteen nations need more than money and
income: who is allied with whom, who may fight whom, the offers awaiting answers and the race for the neutrals."""

from __future__ import annotations

from adjudicator.state import State

from . import influence, politics


def alliances(rules, state: State) -> list[list[str]]:
    """The alliances as lists of members, numbered in the report by their order here (the turn order of their first
    member)."""
    seen, out = set(), []
    for n in politics.nations(rules):
        members = politics.bloc(rules, state, n)
        if len(members) > 1 and n not in seen:
            seen.update(members)
            out.append(members)
    return out


def _wars(rules, state: State) -> list[str]:
    names = politics.nations(rules)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if rules.at_war(state, a, b):
                later = "" if politics.combat_allowed(rules, state, a, b) else " (combat from the next round)"
                out.append(f"{a}–{b}{later}")
    return out


def position_lines(rules, state: State) -> list[str]:
    groups = alliances(rules, state)
    number = {m: k for k, members in enumerate(groups, 1) for m in members}
    width = max(len(n) for n in politics.nations(rules)) + 2
    lines = [f"{'Nation':<{width}}{'IPCs':>5}{'income':>8}{'Influence':>11}  alliance"]
    for n in politics.nations(rules):
        stored = state.spent.get(influence.POOL.format(n), 0)
        lines.append(f"{n:<{width}}{state.treasury.get(n, 0):>5}{rules.income(state, n)[0]:>8}{stored:>11}  "
                     f"{number.get(n, '-')}")
    lines.append("")
    lines += [f"Alliance {k}: {', '.join(members)}" for k, members in enumerate(groups, 1)] or ["No alliances."]
    wars = _wars(rules, state)
    lines.append("At war: " + "; ".join(wars) if wars else "No wars.")
    for oid, offer in sorted(politics.offers(state).items(), key=lambda kv: int(kv[0][1:])):
        waiting = [m for m in offer["members"] if m not in offer["accepted"]]
        lines.append(f"Alliance offer {oid}: {offer['from']} to {offer['to']}; awaiting {', '.join(waiting)}")
    for target, by in sorted(influence.markers(state).items()):
        lines.append(f"Influence markers on {target}: " + ", ".join(f"{n} {k}" for n, k in sorted(by.items())))
    return lines
