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


def answers(e: dict) -> str:
    """Who may answer an offer, how, and until when (DESIGN.md "Agreements between powers")."""
    return (f"{_names(e['addressed'])} may answer `accept {e['offer']}` or `refuse {e['offer']}` until the start of "
            f"{possessive(e['power'], the=True)} next turn")


def _alliance_offer(e: dict) -> str:
    return f"Alliance offer {e['offer']}: {e['power']} offer an alliance to {e['target']}; {answers(e)}."


def _what(e: dict) -> str:
    return e.get("what") or ("draw offer" if e.get("draw") else "alliance offer")


def _offer_refused(e: dict) -> str:
    if "silent" in e:
        return (f"The {_what(e)} {e['offer']} of {e['power']} has expired: no answer from {_names(e['silent'])} "
                f"by the start of {possessive(e['power'], the=True)} next turn; it counts as refused.")
    return f"{e['power']} refuse the {_what(e)} {e['offer']} of {e['by']}."


def _draw_offer(e: dict) -> str:
    return (f"Draw offer {e['offer']}: {e['power']} offer to end the game drawn among every nation still in it; "
            f"{answers(e)}.")


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
            f"for {e['cost']}: {e['markers']} of the {e.get('to_take', 6)} that take it; {e['stored']} Influence left.")


def _influence_taken_over(e: dict) -> str:
    army = ", ".join(f"{n} {u}" for u, n in e["army"].items()) or "no units"
    gone = ", ".join(f"{n} {k}" for n, k in e["markers_removed"].items())
    return (f"{e['power']} take {e['target']} by Influence ({_names(e['territories'])}); its standing army joins "
            f"them: {army}. Markers removed: {gone or 'none'}.")


def _influence_markers_lost(e: dict) -> str:
    gone = ", ".join(f"{n} {k}" for n, k in e["removed"].items())
    where = e["target"] if e["target"] == e["place"] else f"{e['target']} (the last of it neutral, {e['place']})"
    return f"{e['power']} take {where} by force: every Influence marker on it is lost ({gone})."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _insurgents_bought(e: dict) -> str:
    where = f"an Original Territory of {e['owner']}" if e["original"] else f"held by {e['owner']}, not its Original"
    return (f"{e['power']} start an insurgency in {e['place']} ({where}): {_plural(e['count'], 'Insurgent')} for "
            f"{e['cost']} Influence, {e['each']} each; {e['stored']} Influence left. They fight as "
            f"{possessive(e['power'], the=True)} Conduct Combat begins.")


def _insurgency(e: dict) -> str:
    if not e["won"]:
        return (f"The insurgency of {e['power']} in {e['place']} fails: every Insurgent is lost; {e['place']} stays "
                f"{possessive(e['owner'], the=True)}.")
    how = "" if e["fought"] else f" without a fight (no unit of {e['owner']} or its allies is there)"
    return (f"The insurgency of {e['power']} in {e['place']} succeeds{how}: {e['place']} is no longer "
            f"{possessive(e['owner'], the=True)} but neutral ({e['neutral']}), and its "
            f"{_plural(e['army']['infantry'], 'surviving Insurgent')} "
            f"{'become' if e['army']['infantry'] != 1 else 'becomes'} its standing army (infantry). "
            f"{e['power']} take it with {e['markers']} Influence markers (EG-59).")


def _insurgency_called_off(e: dict) -> str:
    if e.get("allied"):
        why = f"{e['owner']}, who hold it, are allies of {e['power']} now"
    else:
        why = f"{e['place']} is {'neutral' if not e['owner'] else 'held by ' + e['owner']} now"
    return (f"The {_plural(e['count'], 'Insurgent')} of {e['power']} in {e['place']} do not fight: {why}, and it is "
            f"no longer a territory of a nation {e['power']} may rise against; they disperse.")


def _attack_order(e: dict) -> str:
    return f"{e['power']} attack {_names(e['against'])} in {e['place']}."


def _interned(e: dict) -> str:
    units = ", ".join(f"{n} {u}" for u, n in e["units"].items())
    return (f"{units} of {e['power']} in {e['place']}, land of {e['owner']} (neither ally nor enemy), are "
            "interned.")


def _research_bought(e: dict) -> str:
    return (f"{e['power']} buy {e['dice']} research di{'ce' if e['dice'] != 1 else 'e'} for {e['cost']} IPCs "
            f"(Chart {e['chart']} named for breakthroughs); {e['treasury']} IPCs left.")


def _research(e: dict) -> str:
    rolled = ", ".join(str(v) for v in e["values"])
    n = e["breakthroughs"]
    if not n:
        return f"{e['power']} research ({e['label']}): {rolled} — no 6, the research fails."
    return (f"{e['power']} research ({e['label']}): {rolled} — {n} six{'es' if n != 1 else ''}, "
            f"{n} breakthrough{'s' if n != 1 else ''} on Chart {e['chart']}.")


def _breakthrough(e: dict) -> str:
    parts = []
    for r in e["rolls"]:
        faces = "+".join(str(v) for v in r["values"])
        shown = f"{faces} = {r['total']}" if len(r["values"]) > 1 else faces
        what = {"gained": r["tech"], "held": f"{r['tech']}, held already: rolled again",
                "none": "no technology: rolled again"}[r["result"]]
        parts.append(f"{r['label']} {shown}: {what}")
    rolled = "; ".join(parts)
    if e.get("exhausted"):
        return (f"{e['power']} breakthrough on Chart {e['chart']} ({parts[0]} … {parts[-1]}): no technology not "
                f"held yet came up in {len(e['rolls'])} rolls; nothing gained.")
    if not e["tech"]:
        return (f"{e['power']} breakthrough on Chart {e['chart']}" + (f" ({rolled})" if rolled else "")
                + ": every technology of the chart is held already; nothing gained.")
    return f"{e['power']} gain {e['tech']} (Chart {e['chart']}: {rolled}); it takes effect at once."


def _strike_order(e: dict) -> str:
    what = f" ({e['facility']})" if e.get("facility") else ""
    surprise = f" A Surprise Attack on {_names(e['surprise'])}." if e["surprise"] else ""
    return (f"{e['power']} order {_STRIKE_NAMES[e['kind']]} strike from the air base in {e['base']} on "
            f"{e['target']}{what} ({e['steps']} away), against {_names(e['victims'])}; resolved after the combat "
            f"move.{surprise}")


_STRIKE_NAMES = {"cruise": "a cruise missile", "ballistic": "a ballistic missile", "atomic": "an Atomic Bomb",
                 "nuclear": "a Nuclear Ballistic Missile"}


def _units(by_type: dict) -> str:
    return ", ".join(f"{n} {u}" for u, n in by_type.items())


def _strike(e: dict) -> str:
    head = f"{e['power']} strike {e['target']} from {e['base']}"
    if e["kind"] == "cruise":
        if not e["hit"]:
            return f"{head} with a cruise missile: rolled {e['die']}, a miss (1-3 hits)."
        hit = (f"{e['victim']} lose {_units(e['killed'])}" if e["killed"] else
               f"{possessive(e['victim'], the=True)} {_units(e['damaged'])} damaged" if e["damaged"] else
               f"nothing of {e['victim']} is left there to hit")
        return f"{head} with a cruise missile: rolled {e['die']}, a hit; {hit}."
    if e["kind"] == "ballistic":
        state = "operative" if e["operative"] else "inoperative"
        return (f"{head} with a ballistic missile: rolled {e['die']}, {e['dealt']} damage to "
                f"{possessive(e['victim'], the=True)} {e['facility']} (now {e['total']} of {e['max']}, {state}).")
    lost = "; ".join(f"{n} lose {_units(u)}" for n, u in e["killed"].items()) or "no units lost"
    fac = ", ".join(f"{f} damaged to {d}" for f, d in e["facilities"].items())
    return (f"{head} with {_STRIKE_NAMES[e['kind']]}: {lost}" + (f"; {fac}" if fac else "")
            + f". {e['stock']} left in stock.")


def _nuclear_bought(e: dict) -> str:
    return (f"{e['power']} stockpile {e['count']} {e['weapon']}{'s' if e['count'] != 1 else ''} for {e['cost']} IPCs "
            f"(ready from their next turn); {e['treasury']} IPCs left.")


_TEXTS = {f.__name__[1:]: f for f in (
    _research_bought, _research, _breakthrough,
    _alliance_offer, _draw_offer, _offer_accepted, _offer_refused, _alliance_formed, _alliance_lapsed, _alliance_left,
    _war, _surprise_attack, _influence_taken, _influence_markers, _influence_taken_over, _influence_markers_lost,
    _interned, _attack_order, _victory, _strike_order, _strike, _nuclear_bought, _insurgents_bought, _insurgency,
    _insurgency_called_off)}


def add_texts(*fns) -> None:
    """A game module's own sentences (`_kind(event) -> str`), for the kinds of event it makes."""
    _TEXTS.update({f.__name__[1:]: f for f in fns})


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
    if e["holder"] == e["power"]:
        why = f"{e['power']} hold their capital, {e['capital']}, again"
    else:
        why = f"{possessive(e['power'])} capital, {e['capital']}, is held by {e['holder']}, no longer by {e['victor']}"
    text = f"{whose[0].upper() + whose[1:]} Political surrender terms over {e['power']} end: {why}."
    if e.get("halt"):
        text += f" The halt of {possessive(e['power'])} units in {e['halt']} ends with them."
    if e.get("stranded"):
        text += (f" {whose[0].upper() + whose[1:]} units in {possessive(e['power'])} land "
                 f"({_names(e['stranded'])}) must leave it by the end of {possessive(e['victor'], the=True)} "
                 "next turn, or are interned (EG-63).")
    return text


_TEXTS.update({f.__name__[1:]: f for f in (_surrender_offer, _surrender_threshold, _surrender_lapsed, _surrender,
                                           _surrender_halt, _political_ended)})


def said(event: dict) -> dict:
    """The event with its sentence ("text"), which the report prints."""
    event["text"] = _TEXTS[event["type"]](event)
    return event
