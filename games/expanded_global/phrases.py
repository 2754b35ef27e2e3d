"""The report's sentences for the Expanded Global's own events (alliances, wars, Influence).

The engine's report knows no game: an event that carries "text" is printed as it is, with its rule. Each event of
this game gets its sentence here as it is made (`said`), so the journal keeps both the facts (for `--json`) and the
words players read, and one module holds the wording.
"""

from __future__ import annotations

from adjudicator.words import possessive


def _names(nations: list[str]) -> str:
    return ", ".join(nations[:-1]) + f" and {nations[-1]}" if len(nations) > 1 else "".join(nations)


def _pairs(pairs: list[list[str]]) -> str:
    return "; ".join(f"{a}–{b}" for a, b in pairs)


def _alliance_offer(e: dict) -> str:
    return (f"Alliance offer {e['offer']}: {e['power']} offer an alliance to {e['target']}; "
            f"{_names(e['addressed'])} may answer `accept {e['offer']}` or `refuse {e['offer']}` until the start "
            f"of {possessive(e['power'], the=True)} next turn.")


def _what(e: dict) -> str:
    return e.get("what") or ("draw offer" if e.get("draw") else "alliance offer")


def _offer_refused(e: dict) -> str:
    if "silent" in e:
        return (f"The {_what(e)} {e['offer']} of {e['power']} has expired: no answer from {_names(e['silent'])} "
                f"by the start of {possessive(e['power'], the=True)} next turn; it counts as refused.")
    return f"{e['power']} refuse the {_what(e)} {e['offer']} of {e['by']}."


def _draw_offer(e: dict) -> str:
    return (f"Draw offer {e['offer']}: {e['power']} offer to end the game drawn among every nation still in it; "
            f"{_names(e['addressed'])} may answer `accept {e['offer']}` or `refuse {e['offer']}` until the start "
            f"of {possessive(e['power'], the=True)} next turn.")


def _victory(e: dict) -> str:
    return f"Game over: a draw, agreed by {_names(e['members'])} (offer {e['offer']})."


def _offer_accepted(e: dict) -> str:
    waiting = f" (still to answer: {_names(e['waiting'])})" if e["waiting"] else ""
    terms = f", on these terms: {e['terms']}" if e.get("terms") else ""
    return f"{e['power']} accept the {_what(e)} {e['offer']} of {e['by']}{terms}{waiting}."


def _alliance_formed(e: dict) -> str:
    wars = f" Their wars are shared: now at war too, {_pairs(e['wars'])}." if e["wars"] else ""
    return f"Alliance offer {e['offer']} accepted by all: {_names(e['members'])} are allies.{wars}"


def _alliance_lapsed(e: dict) -> str:
    return f"Alliance offer {e['offer']} of {e['power']} to {e['target']} lapses: {e['why']}."


def _alliance_left(e: dict) -> str:
    if not e["partners"]:
        return f"{e['power']} leave their alliance, which had already broken up."
    return (f"{e['power']} leave their alliance: now at peace with {_names(e['partners'])}; every war stays as it "
            "was.")


def _war(e: dict) -> str:
    also = [p for p in e["pairs"][1:] if set(p) != {e["power"], e["target"]}]
    with_ = f" Their alliances go to war too: {_pairs(also)}." if also else ""
    return (f"{e['power']} declare war on {e['target']}; combat between them may start in round {e['combat_from']}."
            f"{with_}")


def _surprise_attack(e: dict) -> str:
    lost = ", ".join(f"{n} {k}" for n, k in e["lost"].items())
    return (f"Surprise Attack: {e['power']} on {_names(e['victims'])} — at war at once; stored Influence lost: "
            f"{lost or 'none'}.")


def _influence_taken(e: dict) -> str:
    base = f"half of {e['income'] // 2}, their income of {e['income']} halved in peacetime" if e["peacetime"] \
        else f"half of their income of {e['income']}"
    return (f"{e['power']} take {e['influence']} Influence: {base}, rounded down, not collected as IPCs; "
            f"{e['stored']} stored.")


def _influence_markers(e: dict) -> str:
    return (f"{e['power']} place {e['count']} Influence marker{'s' if e['count'] != 1 else ''} on {e['target']} "
            f"for {e['cost']}: {e['markers']} of the 6 that take it; {e['stored']} Influence left.")


def _influence_taken_over(e: dict) -> str:
    army = ", ".join(f"{n} {u}" for u, n in e["army"].items()) or "no units"
    gone = ", ".join(f"{n} {k}" for n, k in e["markers_removed"].items())
    return (f"{e['power']} take {e['target']} by Influence ({_names(e['territories'])}); its standing army joins "
            f"them: {army}. Markers removed: {gone or 'none'}.")


def _influence_markers_lost(e: dict) -> str:
    gone = ", ".join(f"{n} {k}" for n, k in e["removed"].items())
    where = e["target"] if e["target"] == e["place"] else f"{e['target']} (the last of it neutral, {e['place']})"
    return f"{e['power']} take {where} by force: every Influence marker on it is lost ({gone})."


def _attack_order(e: dict) -> str:
    return f"{e['power']} attack {_names(e['against'])} in {e['place']}."


def _interned(e: dict) -> str:
    units = ", ".join(f"{n} {u}" for u, n in e["units"].items())
    return (f"{units} of {e['power']} in {e['place']}, land of {e['owner']} (neither ally nor enemy), are "
            "interned.")


_TEXTS = {f.__name__[1:]: f for f in (
    _alliance_offer, _draw_offer, _offer_accepted, _offer_refused, _alliance_formed, _alliance_lapsed, _alliance_left,
    _war, _surprise_attack, _influence_taken, _influence_markers, _influence_taken_over, _influence_markers_lost,
    _interned, _attack_order, _victory)}


# -- surrenders (surrender.py) --------------------------------------------------------------------------------------


def _surrender_offer(e: dict) -> str:
    return (f"Surrender offer {e['offer']}: {e['power']} offer to surrender to {e['target']} (income {e['income']}, "
            f"threshold {e['threshold']}); {e['target']} may answer `accept {e['offer']} TERMS` (land PLACE, …; "
            f"military a; military b N TYPE; political) or `refuse {e['offer']}` until the start of "
            f"{possessive(e['power'], the=True)} next turn.")


def _surrender_threshold(e: dict) -> str:
    return (f"{possessive(e['power'])} income {e['income']} is below two thirds of their starting {e['start']} "
            f"({e['threshold']}): they may surrender to {_names(e['enemies'])} (`surrender NATION`); nothing forces "
            "them to.")


def _surrender_lapsed(e: dict) -> str:
    return f"The surrender {e['offer']} of {e['power']} to {e['victor']} lapses: {e['why']}."


def _surrender(e: dict) -> str:
    head = f"{e['power']} surrender to {e['victor']} (offer {e['offer']}): at peace with {_names(e['peace'])}. Terms: "
    if e["terms"] == "land":
        verb = "become Original Territories" if len(e["places"]) > 1 else "becomes an Original Territory"
        return head + f"Land — {_names(e['places'])} {verb} of {e['victor']}."
    if e["terms"] == "military a":
        gone = ", ".join(f"{n} {u}" for u, n in e["removed"].items())
        return head + (f"Military A — half of their {e['had']} land units, rounded up, cheapest first, removed: "
                       f"{gone}.")
    if e["terms"] == "military b":
        taken = ", ".join(f"{n} {u}" for u, n in e["taken"].items())
        lost = ", ".join(f"{n} {u}" for u, n in e["cargo_lost"].items())
        return head + (f"Military B — {taken} taken, to be placed by {e['victor']} with their purchases"
                       + (f"; cargo lost: {lost}" if lost else "") + ".")
    return head + (f"Political — while {e['victor']} hold {e['capital']}, they move freely through "
                   f"{possessive(e['power'], the=True)} territories, collect their income and may halt their units "
                   "(`halt PLACE`) once a turn.")


def _surrender_halt(e: dict) -> str:
    return (f"{e['power']} halt the units of {_names(e['losers'])} in {e['place']} until "
            f"{possessive(e['power'], the=True)} next turn (Political surrender terms).")


def _political_ended(e: dict) -> str:
    whose = possessive(e["victor"], the=True)
    return (f"{whose[0].upper() + whose[1:]} Political surrender terms over {e['power']} end: {e['capital']} is "
            f"held by {e['holder']}.")


_TEXTS.update({f.__name__[1:]: f for f in (_surrender_offer, _surrender_threshold, _surrender_lapsed, _surrender,
                                           _surrender_halt, _political_ended)})


def said(event: dict) -> dict:
    """The event with its sentence ("text"), which the report prints."""
    event["text"] = _TEXTS[event["type"]](event)
    return event
