"""Turn reports: the journal of one power-turn rendered through a Jinja2 template per forum format.

Sentences are built here once, in plain words; the templates only lay them out (headings, lists, code
blocks), so Markdown for NodeBB, BBCode and plain text say exactly the same thing. The dice block is the
same in every format, so that `verify` can read it back from any of them.
"""

from __future__ import annotations

import json
from pathlib import Path

from importlib.resources import files

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from sqlmodel import Session, select

from .errors import AdjudicatorError, StoreError
from .store import db
from .store.models import DiceGroupRow, Report, RevealedSeed, Step, Submission

FORMATS = ("markdown", "bbcode", "text")
PHASE_TITLES = {"standing": "Standing orders", "edit": "Host corrections", "purchase": "Purchase", "politics": "Politics",
                "combat_move": "Combat move", "battle": "Battles", "noncombat_move": "Non-combat move",
                "place": "Mobilize new units", "end_turn": "End of turn"}


def environment(templates_dir: Path | None = None) -> Environment:
    loaders = [FileSystemLoader(str(templates_dir))] if templates_dir else []
    loaders.append(FileSystemLoader(str(files("adjudicator.templates"))))
    return Environment(loader=ChoiceLoader(loaders), undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def units_phrase(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in units.items()) if units else "nothing"


def changes_phrase(changes: list[list[str]]) -> str:
    return "; ".join(f"{a} and {b} now {kind.replace('_', ' ')}" for a, b, kind in changes)


def objective_phrase(line: dict) -> str:
    if line["paid"]:
        times = f" ({line['times']} × {line['value']})" if line.get("times") else ""
        return f"National objective met: {line['name']}, {line['paid']:+d} PUs{times}."
    why = f" ({line['note']})" if line.get("note") else ""
    return f"National objective missed: {line['name']} ({line['value']} PUs){why}."


def describe(event: dict) -> list[str]:
    """The report's sentences for one journal event."""
    kind = event["type"]
    if kind == "purchase":
        return [f"{event['power']} buy {units_phrase(event['units'])} for {event['cost']} PUs ({event['treasury']} left)."]
    if kind == "repair":
        return [f"{event['power']} repair {event['amount']} damage on the {event['unit']} in {event['place']} ({event['treasury']} PUs left)."]
    if kind == "war":
        also = [c for c in event.get("changes", []) if {c[0], c[1]} != {event["power"], event["target"]}]
        return [f"{event['power']} declare war on {event['target']}."] + (
            [f"With it: {changes_phrase(also)}."] if also else [])
    if kind == "politics":
        return [f"{event['what']}: {changes_phrase(event['changes'])}."]
    if kind == "frontier":
        return [f"{event['what']}: {event['power']} now buy from the list {event['frontier']}."]
    if kind == "removed":
        return [f"{event['reason']}: {units_phrase(event['units'])} of {event['power']} removed from {event['place']}."]
    if kind == "placed_by_rule":
        return [f"{event['reason']}: {units_phrase(event['units'])} of {event['power']} placed in {event['place']}."]
    if kind == "rule":          # a game's own rule at work, in its words (French escalation, a neutral changing sides)
        return [event["text"] + (f" [{event['rule']}]" if event.get("rule") else "")]
    if kind == "move":
        line = f"{units_phrase(event['units'])}: {' > '.join(event['path'])}"
        if event.get("riders"):
            line += f" (with {units_phrase(event['riders'])} aboard)"
        if event.get("raid"):
            line += f" (bombing raid on the {event['raid']})"
        if event.get("attack"):
            line += f" (attack on {event['attack']})"
        return [line] + [f"{c['place']} is blitzed and taken by {c['owner']}." for c in event.get("captures", [])]
    if kind == "battle_order":
        return [f"Battle order: {event['order']}"]
    if kind == "capture":
        return [capture_phrase(event) + "."]
    if kind == "place":
        return [f"{units_phrase(event['units'])} placed in {event['place']}."]
    if kind == "void":
        return [f"Order void: `{event['order']}`: {event['reason']}."]
    if kind == "crash":
        why = f": {event['reason']}" if event.get("reason") else ""
        return [f"The {event['power']} {event['unit']} in {event['place']} found no place to land and is lost{why}."]
    if kind == "landing":
        return [f"The {event['power']} {event['unit']} in {event['from']} lands in {event['to']} ({event['reason']})."]
    if kind == "scramble":
        if not event["units"]:
            return [f"{event['power']} scramble nothing from {event['from']} into {event['to']} "
                    f"({event.get('note', 'none ready')}; {event['why']})."]
        return [f"{event['power']} scramble {units_phrase(event['units'])} from {event['from']} into {event['to']} "
                f"({event['why']})."]
    if kind == "assault_landing":
        return [f"{units_phrase(event['units'])} land from {event['from']} in {event['place']}."]
    if kind == "landing_called_off":
        return [f"The landing in {event['place']} is called off: enemy warships still hold {event['from']}; "
                f"{units_phrase(event['units'])} stay aboard."]
    if kind == "called_off":
        return [f"The attack on {event['place']} is called off: {event['reason']}."]
    if kind == "ship_repaired":
        where = f" at the naval base in {event['base']}" if event.get("base") else ""
        return [f"The {event['power']} {event['unit']} in {event['place']} is repaired{where}."]
    if kind == "convoy":
        return [f"Convoy disruption in {event['zone']} against {event['power']}: {' '.join(map(str, event['values']))} "
                f"— dice of 1-3 sum {event['rolled']}, at most {event['cap']}: {event['power']} lose {event['loss']} PUs."]
    if kind == "raid":
        return raid_phrases(event)
    if kind == "income":
        cut = sum(-line["amount"] for line in event.get("lines", []) if line["item"] == "convoy disruption")
        less = f", {cut} less for convoy disruption" if cut else ""
        return [f"{event['power']} collect {event['income']} PUs{less} (treasury {event['treasury']})."] + [
            f"Income: {line['note']}." for line in event.get("lines", []) if line["item"] != "objective" and line.get("note")
        ] + [objective_phrase(line) for line in event.get("lines", []) if line["item"] == "objective"]
    if kind == "held_over":
        return [f"Bought but not placed, kept for later: {units_phrase(event['units'])}."]
    if kind in ("victory_hold", "victory_hold_broken", "victory"):
        return [victory_phrase(event)]
    if kind == "next":
        return [f"Next: round {event['round']}, {event['power']}, {PHASE_TITLES[event['phase']].lower()}."]
    if kind == "edit":
        return [f"The host corrected the game ({event['reason']}): {change}." for change in event["changes"]]
    if kind == "standing":
        return [f"{event['power']} standing orders: " + "; ".join(event["orders"])]
    if kind == "salts":
        return salts_phrases(event)
    return [json.dumps(event, sort_keys=True)]


def victory_phrase(event: dict) -> str:
    """A game's victory condition: a hold begun or kept (players must see it coming), broken, or won."""
    n, side, rule, counted = event["cities"], event["side"], event["rule"], event["counted"]
    held = f"{n} cit{'y' if n == 1 else 'ies'}"
    begun = f"the turn of the {event['power']} in round {event['round']}"
    when = f"when the {event['power']} have played their turn of round {event['until']}"
    if event["type"] == "victory":
        return (f"Game over: the {side} win. The {counted} held {event['condition']} cities for a whole round, from "
                f"{begun} to their turn in round {event['until']}; they hold {held} [{rule}].")
    if event["type"] == "victory_hold_broken":
        return (f"The {counted} hold {held}, no longer {event['condition']}: the hold of the {side} begun with {begun} "
                f"is broken; a new one starts only when the condition is met again [{rule}].")
    if not event["new"]:
        return (f"The {counted} still hold {held}, {event['condition']}, a hold counted from {begun}: the {side} "
                f"win if that still holds {when} [{rule}].")
    if event.get("at_round_start"):
        return (f"Round {event['round']} begins with the {counted} holding {held}, {event['condition']}: the hold "
                f"starts with {begun}, and the {side} win if that still holds {when} [{rule}].")
    return (f"The {counted} hold {held}, {event['condition']}: the {side} win if that still holds {when}, a whole "
            f"round from now [{rule}].")


def salts_phrases(event: dict) -> list[str]:
    """Strict dice: whose salts key this turn's dice, in the order they were accepted, and whose are missing."""
    salts = ", ".join(f"{s['power']} (`{s['salt']}`)" for s in event["salts"])
    lines = [f"Strict dice: this turn's dice key is salted by {salts}, in that order." if salts
             else "Strict dice: no salt came in for this turn."]
    if event["missing"]:
        lines.append(f"The host adjudicated without the salts of {', '.join(event['missing'])} "
                     "(deadline passed, `adjudicate --without-salts`).")
    return lines


def dice_phrase(grp: dict | None) -> str:
    if not grp:
        return "no dice"
    return f"{' '.join(map(str, grp['values']))} ({grp['hits']} hit{'s' if grp['hits'] != 1 else ''})"


def raid_phrases(event: dict) -> list[str]:
    """A strategic bombing raid: who flew, the air battle, the facility's AA, the damage."""
    lines = [f"{event['attacker']} raid the {event['facility']} in {event['place']} with {units_phrase(event['raiders'])}."]
    if "air_battle" in event:
        ab = event["air_battle"]
        lines.append(f"Air battle with {units_phrase(event['interceptors'])} intercepting: raiders {dice_phrase(ab['attacker'])}, "
                     f"interceptors {dice_phrase(ab['defender'])}; raiders lose {units_phrase(ab['attacker_losses'])}, "
                     f"interceptors lose {units_phrase(ab['defender_losses'])}.")
    if "aa" in event:
        lines.append(f"The {event['facility']}'s AA fires: {dice_phrase(event['aa'])}; lost {units_phrase(event['aa']['losses'])}.")
    dmg = event.get("damage")
    if dmg and "treasury_lost" in dmg:
        lines.append(f"Bombing: {' '.join(map(str, dmg['values']))} → {dmg['rolled']}; {dmg['power']} lose "
                     f"{dmg['treasury_lost']} PUs.")
    elif dmg:
        state = "" if dmg["operative"] else "; it is out of operation"
        lines.append(f"Bombing: {' '.join(map(str, dmg['values']))} → {dmg['rolled']} damage, {dmg['dealt']} taken "
                     f"(now {dmg['total']} of at most {dmg['max']}{state}).")
    elif event.get("raiders"):
        lines.append("No bomber got through: no damage.")
    lines += [f"Note: {n}" for n in event.get("notes", [])]
    return lines


def capture_phrase(event: dict) -> str:
    if event.get("neutral"):
        army = f", and its {units_phrase(event['joined'])} join them" if event.get("joined") else ""
        return f"{event['place']} ({event['from']}) sides with {event['by']}, who take control{army}"
    line = f"{event['place']} is captured from {event['from']}"
    line += f" and liberated for {event['owner']}" if event["owner"] != event["by"] else f" by {event['by']}"
    if event.get("treasury_taken"):
        line += f"; {event['by']} take {event['treasury_taken']} PUs from the capital"
    if "bonus" in event:
        paid = ", ".join(f"{b['item']} {b['amount']}" for b in event["bonus"])
        source = "the bank" if event.get("bonus_from") is None else event["bonus_from"]
        line += f"; capture bonus to {event['by']}: {paid} — {event['bonus_paid']} PUs from {source}"
        if event.get("bonus_short"):
            line += f" ({event['bonus_short']} short: {source} had no more)"
    for c in event.get("changed", []):
        line += f"; the captured {c['from']} becomes {c['count']} {c['to']}"
    return line


def battle_view(event: dict) -> dict:
    """A battle laid out for the templates: header, one line per step, result."""
    rounds = []
    if event.get("aa"):
        aa = event["aa"]
        rounds.append(f"AA fire: {' '.join(map(str, aa['values']))} — {aa['hits']} hit(s); lost {units_phrase(aa['losses'])}")
    if event.get("bombard"):
        bb = event["bombard"]
        rounds.append(f"Shore bombardment: {dice_phrase(bb)} → defender lose {units_phrase(bb['losses'])}")
    for r in event["rounds"]:
        head = f"Round {r['round']}"
        if r.get("submerged"):
            rounds.append(f"{head}: defending {units_phrase(r['submerged']['defender'])} submerge ({r['submerged']['why']})")
        if r.get("surprise"):
            rounds.append(f"{head}, surprise strike: " + _exchange(r["surprise"]))
        if "attacker" in r:
            rounds.append(f"{head}: " + _exchange(r))
        for role, units in r.get("defenceless", {}).items():
            rounds.append(f"{head}: the {role}'s {units_phrase(units)}, left without escort, are destroyed")
        for group in r.get("left", []):
            rounds.append(f"{head}: the attacker's {units_phrase(group['units'])} leave the battle: {group['why']}")
    sea = event.get("sea")
    result = {"captured": "the attackers win",
              "defended": "the defence holds",
              "retreated": f"the attacker retreats to {event.get('retreat', {}).get('to', '?')}",
              "cleared": "the sea zone is cleared" if sea else
                         "the defenders are destroyed but no land unit is left to take the territory",
              "stalemate": "neither side can hit the other: the battle ends with both in place",
              "destroyed": "both sides are destroyed" if not event["survivors"]["defender"] else "the attack is wiped out"}[event["result"]]
    if event.get("capture"):
        result = capture_phrase(event["capture"])
    notes = [n for n in event.get("notes", []) if not n.startswith("neither side can hit")]
    if event.get("retreat", {}).get("stay"):
        notes.append(f"units that came ashore from the sea cannot retreat and fight on: {units_phrase(event['retreat']['stay'])}")
    return {"place": event["place"], "attacker": event["attacker"], "defenders": ", ".join(event["defenders"]),
            "attacking": units_phrase(event["attacking"]), "defending": units_phrase(event["defending"]),
            "rounds": rounds, "result": result, "notes": notes,
            "survivors": _attackers_left(event["survivors"]), "defender_survivors": units_phrase(event["survivors"]["defender"])}


def _attackers_left(survivors: dict) -> str:
    """The attackers still in the battle at its end, and those that left it earlier and live on."""
    phrase = units_phrase(survivors["attacker"])
    if survivors.get("left"):
        phrase += f" (and {units_phrase(survivors['left'])} out of the battle)"
    return phrase


def _exchange(r: dict) -> str:
    """One exchange of fire: both sides' dice, then the losses and damage."""
    parts = []
    for side in ("attacker", "defender"):
        parts.append(f"{side} {dice_phrase(r[side])}" if r[side] else f"{side} cannot fire")
    losses = f"attacker lose {units_phrase(r['attacker_losses'])}; defender lose {units_phrase(r['defender_losses'])}"
    damaged = [f"{side} {units_phrase(r[f'{side}_damaged'])} damaged" for side in ("attacker", "defender")
               if r.get(f"{side}_damaged")]
    return "; ".join(parts) + f" → {losses}" + (f" ({', '.join(damaged)})" if damaged else "")


def turn_context(session: Session, turn_index: int | None) -> dict:
    game = db.the_game(session)
    steps = list(session.exec(select(Step).where(Step.game_id == game.id).order_by(Step.seq)))
    played = [s for s in steps if s.phase != "standing"]
    if not played:
        raise AdjudicatorError("nothing has been adjudicated yet: there is no report to show")
    if turn_index is None:
        turn_index = played[-1].turn_index
    mine = [s for s in played if s.turn_index == turn_index]
    if not mine:
        done = sorted({s.turn_index for s in played})
        raise AdjudicatorError(f"no report for turn {turn_index}: the turns played so far are {done[0]} to {done[-1]}")
    groups = list(session.exec(select(DiceGroupRow).where(DiceGroupRow.game_id == game.id, DiceGroupRow.turn_index == turn_index)
                               .order_by(DiceGroupRow.id)))
    seed = session.get(RevealedSeed, (game.id, turn_index))
    ids = list(dict.fromkeys(st.submission_id for st in mine if st.submission_id is not None))
    subs = {sub.id: sub for sub in session.exec(select(Submission).where(Submission.id.in_(ids)))} if ids else {}
    phases, game_over = [], []
    for st in mine:
        events = json.loads(st.events)
        game_over += [victory_phrase(e) for e in events if e["type"] == "victory"]
        phases.append({"phase": st.phase, "title": PHASE_TITLES.get(st.phase, st.phase),
                       "lines": [line for e in events if e["type"] != "battle" for line in describe(e)],
                       "battles": [battle_view(e) for e in events if e["type"] == "battle"],
                       "state_hash": st.state_hash})
    return {
        "game": {"id": game.id, "title": game.title, "name": game.name, "rules": game.rules_version,
                 "anchor": game.anchor, "setup_hash": game.setup_hash(), "test_seed": game.test_seed, "dice_mode": game.dice_mode},
        "turn": {"index": turn_index, "round": mine[0].round, "power": mine[0].power},
        "orders": [{"seq": subs[i].seq, "power": subs[i].power, "sha256": subs[i].sha256} for i in ids
                   if i in subs and subs[i].kind == "turn"],
        "seed": seed.seed if seed else None,
        "salts": json.loads(seed.salts) if seed else [],
        "phases": phases,
        "game_over": game_over,
        "dice": [{"label": g.label, "sides": g.sides, "values": json.loads(g.dice), "units": json.loads(g.units)} for g in groups],
        "state_hash": mine[-1].state_hash,
    }


def dice_block(ctx: dict) -> str:
    """The machine-checkable part of every report: game, turn, anchor, seed and each dice group on one line."""
    lines = ["adjudicator dice", f"game: {ctx['game']['id']}", f"turn: {ctx['turn']['index']}",
             f"anchor: {ctx['game']['anchor']}",
             f"seed: {ctx['seed'] or '(revealed when this turn is over)'}"]
    if ctx["salts"]:
        lines.append("salts: " + " | ".join(ctx["salts"]))
    for g in ctx["dice"]:
        lines.append(f"{g['label']} | d{g['sides']} | {' '.join(map(str, g['values']))} | {', '.join(g['units'])}")
    return "\n".join(lines)


def render(session: Session, turn_index: int | None, fmt: str, templates_dir: Path | None = None) -> str:
    if fmt not in FORMATS:
        raise AdjudicatorError(f"--format takes {', '.join(FORMATS)}, not {fmt!r}")
    try:
        ctx = turn_context(session, turn_index)
        ctx["dice_block"] = dice_block(ctx)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoreError(f"the stored journal of this turn is damaged ({type(exc).__name__}: {str(exc)[:100]}), so "
                         "its report cannot be written; restore the database from a copy") from None
    return environment(templates_dir).get_template(f"report.{fmt}.j2").render(**ctx)


def store_report(session: Session, turn_index: int) -> str:
    """Render the Markdown report of a turn with the built-in templates and keep it in the journal, where `audit`
    compares it with the replay's (a host's own templates change only what is printed)."""
    text = render(session, turn_index, "markdown")
    session.add(Report(game_id=db.the_game(session).id, turn_index=turn_index, format="markdown", text=text))
    return text
