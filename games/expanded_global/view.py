"""The diplomatic picture after each turn (the report's "After the turn"): fourteen nations need more than money and
income: who is allied with whom, who may fight whom, the offers awaiting answers and the race for the neutrals."""

from __future__ import annotations

from adjudicator.state import State

from . import armistice, influence, insurgents, politics, research, strikes, surrender


def alliances(rules, state: State) -> list[list[str]]:
    """The alliances as lists of members in turn order; each is named after its first member, which stays its name
    as long as that member stays in it (numbers would shift as alliances form and break)."""
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
    lead = {m: members[0] for members in groups for m in members}
    width = max(len(n) for n in politics.nations(rules)) + 2
    lines = [f"{'Nation':<{width}}{'IPCs':>5}{'income':>8}{'Influence':>11}  alliance of"]
    for n in politics.nations(rules):
        stored = state.spent.get(influence.POOL.format(n), 0)
        lines.append(f"{n:<{width}}{state.treasury.get(n, 0):>5}{rules.income(state, n)[0]:>8}{stored:>11}  "
                     f"{lead.get(n, '-')}")
    return lines + [""] + notes(rules, state)


def stored_influence(stored: dict[str, int]) -> list[str]:
    """`status`'s line for the stored Influence (the report's table has a column for it)."""
    held = [f"{n} {k}" for n, k in stored.items() if k]
    return ["Stored Influence: " + (", ".join(held) if held else "none")]


def notes(rules, state: State) -> list[str]:
    """The alliances, wars, pending offers and Influence markers, as sentences (also under `status`'s table)."""
    groups = alliances(rules, state)
    lines = [f"Alliance of {members[0]}: {', '.join(members)}" for members in groups] or ["No alliances."]
    wars = _wars(rules, state)
    lines.append("At war: " + "; ".join(wars) if wars else "No wars.")
    for oid, offer in sorted(politics.offers(state).items(), key=lambda kv: int(kv[0][1:])):
        waiting = ", ".join(m for m in offer["members"] if m not in offer["accepted"])
        kind = offer.get("kind", "alliance")
        what = {"draw": "a draw", "alliance": f"an alliance to {offer['to']}"}.get(
            kind, f"their {kind} to {offer['to']}")
        line = armistice.offer_line(offer) or f"{offer['from']} offer {what}"
        lines.append(f"Offer {oid}: {line}; awaiting {waiting}")
    lines += armistice.notes(rules, state)
    lines += surrender.notes(rules, state)          # Political surrenders in force, halts (EG-19, EG-20)
    for target, by in sorted(influence.markers(state).items()):
        lines.append(f"Influence markers on {target}: " + ", ".join(f"{n} {k}" for n, k in sorted(by.items())))
    return (lines + research.notes(rules, state, politics.nations(rules)) + strikes.notes(rules, state)
            + insurgents.notes(state))
