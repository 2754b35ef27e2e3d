"""Declarations of war, the map's triggers and national objectives, played from the map's own data.

A TripleA map says who may declare war on whom, and when, in its political actions (each with its conditions
and every relationship it changes: Japan's war on the UK is also war on UK_Pacific, ANZAC and the Dutch, and
makes China their ally); it switches conditions and changes relationships with triggers at fixed steps (the
US at war after its third turn); and it pays national objectives from conditions. A map without political
actions (the 1999 maps, the demo) lets any power declare war on any power it is not allied with.

Of the triggers we play the effects that decide the rules we enforce: relationship changes, condition
switches, movement limits, purchase lists, unit removals and placements; PU triggers without a step are paid as
objectives. Victory triggers end the game once held for a whole round (`victory_check`, RULINGS.md "victory").
Others (unit ownership, tech, territory properties, notifications) are not played: see the README's rules section.
"""

from __future__ import annotations

from collections import Counter

from ..scenario import Attachment
from ..state import State, count_types
from .conditions import Conditions, Hold, Unsupported, check_holds, hold_status, relation_is
from .facts import MapFacts, RuleViolation


# -- declarations of war ------------------------------------------------------------------------------------


def declare_war(rules: MapFacts, state: State, power: str, target: str) -> dict:
    """Play `war TARGET`: the first of the mover's political actions for it whose conditions hold, with all the
    relationships it changes; refused, with what the map requires, when none holds."""
    rules.may_declare_war(state, power, target)
    if not rules.scenario.attachments_of("political"):
        state.set_relationship(power, target, rules.war_type())
        event = {"type": "war", "power": power, "target": target, "changes": []}
    else:
        action = _usable_action(rules, state, power, target)
        event = {"type": "war", "power": power, "target": target, "action": action.value("text") or action.name,
                 "changes": apply_changes(rules, state, action.values("relationshipChange"))}
    follows = rules.declared_war(state, power, target, event)
    if follows:
        event["follows"] = follows
    return event


def _usable_action(rules: MapFacts, state: State, power: str, target: str) -> Attachment:
    """The mover's political action for this war: the first whose conditions hold (where the game decides
    declarations by its rulebook, the first at all); RuleViolation, saying what is missing, when none does."""
    actions = rules.war_actions(power, target)
    if not actions:
        raise RuleViolation(f"{power} have no way to declare war on {target} in this game "
                            "(the map gives them no political action for it)", rules.declaration_rule(power))
    if rules.declarations_by_rulebook:
        return actions[0]
    why, unsupported = [], []
    for action in actions:
        conditions = Conditions(rules)
        names = action.names("conditions")
        kind = action.value("conditionType", "AND")
        if not names or conditions.all_met(state, names, kind):
            return action
        why.append(explain(rules, state, names, kind))
        unsupported += conditions.unsupported
    text = f"{power} may not declare war on {target} now: {'; or '.join(dict.fromkeys(why))}"
    if unsupported:
        text += (f" (not looked at: {'; '.join(dict.fromkeys(unsupported))}; if that part holds, the host "
                 f"declares the war with `adjudicator edit`: war {power} {target})")
    raise RuleViolation(text, rules.declaration_rule(power))


def apply_changes(rules: MapFacts, state: State, changes: list[str]) -> list[list[str]]:
    """Relationship changes "A:B:New" or, in triggers, "A:B:Old:New" (Old may be anyWar, anyNeutral, anyAllied,
    or a type); returns [a, b, new] for each one that changed something."""
    done = []
    for change in changes:
        parts = change.split(":")
        a, b, new = parts[0], parts[1], parts[-1]
        if len(parts) == 4 and not relation_is(rules, state, a, b, parts[2]):
            continue
        if state.relationship(a, b) != new:
            state.set_relationship(a, b, new)
            done.append([a, b, new])
    return done


def explain(rules: MapFacts, state: State, names: list[str], kind: str) -> str:
    """The unmet part of a list of conditions, in words, for a refusal."""
    conditions = Conditions(rules)
    unmet = [n for n in names if not conditions.all_met(state, [n])]
    return (" and " if kind.upper() == "AND" else " or ").join(describe(rules, n, unmet=(state, conditions))
                                                               for n in unmet) or "not allowed"


def describe(rules: MapFacts, name: str, depth: int = 0, unmet: tuple | None = None) -> str:
    """A condition in words, from its options (the map's names are code, not prose). Given `unmet` (a state and
    its Conditions) for a condition that does not hold, an "and" of parts names only the parts that do not hold:
    a refusal says what is missing, not what is already so."""
    cond = rules.scenario.condition(name)
    if cond is None:
        return name
    parts = []
    subs = cond.names("conditions")
    if subs and depth < 3:
        either = cond.value("conditionType", "AND").upper() == "OR"
        joiner = " or " if either else " and "
        if unmet is not None and cond.value("invert").lower() == "true":
            unmet = None            # a negated part that fails holds inside: say it whole
        if unmet is not None and not either:
            state, conditions = unmet
            subs = [n for n in subs if not conditions.all_met(state, [n])] or subs
        inner = joiner.join(describe(rules, n, depth + 1, unmet) for n in subs)
        parts.append(f"({inner})" if len(subs) > 1 else inner)
    rounds = cond.value("rounds") or cond.value("turns")
    if rounds:
        parts.append(f"round {rounds.replace('-+', ' or later').replace(':', ', ')}")
    if cond.value("switch"):
        parts.append(f"{_words(name).removesuffix(' Switch')} has happened")
    for n, value, count in cond.options:
        if n == "relationship":
            a, b, kind = (value.split(":") + ["", "", ""])[:3]
            parts.append(f"{a} and {b} {_relation_words(kind)}")
        elif n == "atWarPlayers":
            listed = value.replace(":", ", ")
            parts.append(f"{cond.attach_to} at war with none of {listed}" if count == "0"
                         else f"{cond.attach_to} at war with at least {count} of {listed}" if count
                         else f"{cond.attach_to} at war with all of {listed}")
        elif n.endswith("Territories"):
            parts.append(f"{n.replace('Territories', '')} of {value.replace(':', ', ')}" + (f" ({count})" if count else ""))
    text = " and ".join(parts) or _words(name)
    if cond.value("invert").lower() == "true":
        return f"not ({text})"
    return f"({text})" if depth and len(parts) > 1 else text       # an "and" inside an "or" keeps its bounds


def _relation_words(kind: str) -> str:
    return {"anyWar": "at war", "anyNeutral": "not at war and not allied", "anyAllied": "allied"}.get(
        kind, f"in relationship {kind}")


def _words(name: str) -> str:
    for prefix in ("conditionAttachment", "objectiveAttachment", "triggerAttachment"):
        name = name.removeprefix(prefix)
    return name.replace("_", " ").strip()


# -- triggers -----------------------------------------------------------------------------------------------


def run_triggers(rules: MapFacts, state: State, step: str, moment: str) -> list[dict]:
    """Play the triggers the map fires `moment` ("before" or "after") the step named `step`."""
    events = []
    conditions = Conditions(rules)        # what it counts holds until a trigger fires and changes the state
    for trigger in _triggers(rules.scenario).get(f"{moment}:{step}", []):
        if not _available(state, trigger) or not rules.plays_trigger(trigger):
            continue
        try:
            if not _trigger_met(rules, state, trigger, conditions):
                continue
        except Unsupported:
            continue
        events += fire(rules, state, trigger)
        conditions = Conditions(rules)
    return events


def _triggers(scenario) -> dict[str, list[Attachment]]:
    """"before:STEP" or "after:STEP" -> the triggers with effects we play then, and "frontier:POWER" -> the
    power's triggers without a step that change a purchase list, in the map's order; indexed once per scenario,
    since every phase of every turn asks twice."""
    index = scenario.__dict__.get("_triggers")
    if index is None:
        index = {}
        for trigger in scenario.attachments_of("trigger"):
            if not _effects(trigger):
                continue
            for when in dict.fromkeys(trigger.values("when")):
                index.setdefault(when, []).append(trigger)
            if not trigger.values("when") and trigger.values("frontier"):
                index.setdefault(f"frontier:{trigger.attach_to}", []).append(trigger)
        scenario.__dict__["_triggers"] = index
    return index


_PROPERTIES = {"switch", "movementRestrictionTerritories", "movementRestrictionType"}


def _effects(trigger: Attachment) -> bool:
    """A trigger we play: one that changes relationships, switches a condition, changes a power's movement
    limits or purchase list, or removes units (China's captured factories)."""
    return bool(trigger.values("relationshipChange") or set(trigger.values("playerProperty")) & _PROPERTIES
                or trigger.values("frontier") or trigger.values("removeUnits") or trigger.values("placement"))


def run_frontier_triggers(rules: MapFacts, state: State, power: str) -> list[dict]:
    """Triggers without a step that change `power`'s purchase list fire as its purchase begins, as in TripleA
    (China's artillery while the Burma Road is open)."""
    events = []
    for trigger in _triggers(rules.scenario).get(f"frontier:{power}", []):
        if not _available(state, trigger):
            continue
        try:
            if _trigger_met(rules, state, trigger):
                events += fire(rules, state, trigger)
        except Unsupported:
            continue
    return events


def _available(state: State, attachment: Attachment) -> bool:
    uses = attachment.value("uses")
    return not uses or state.spent.get(f"{attachment.attach_to}:{attachment.name}", 0) < int(uses)


def _trigger_met(rules: MapFacts, state: State, trigger: Attachment, conditions: Conditions | None = None) -> bool:
    """Whether a trigger's conditions hold; one resting on a part we cannot evaluate is Unsupported unless it
    holds without it. `conditions`: an evaluator of this state the caller keeps for several triggers."""
    names = trigger.names("conditions", "trigger")
    if conditions is None:
        conditions = Conditions(rules)
    conditions.unsupported = []
    invert = trigger.value("invert").lower() == "true"
    if not names or conditions.all_met(state, names, trigger.value("conditionType", "AND")):
        return not invert
    if conditions.unsupported:
        raise Unsupported("; ".join(dict.fromkeys(conditions.unsupported)))
    return invert


def fire(rules: MapFacts, state: State, trigger: Attachment) -> list[dict]:
    events = []
    key = f"{trigger.attach_to}:{trigger.name}"
    changes = apply_changes(rules, state, trigger.values("relationshipChange"))
    if changes:
        events.append({"type": "politics", "power": trigger.attach_to, "what": _words(trigger.value("notification")
                                                                                  or trigger.name),
                       "changes": changes})
    target = next((c for n, v, c in trigger.options if n == "playerAttachmentName" and v == "RulesAttachment"), "")
    players = trigger.names("players") or [trigger.attach_to]
    for name, prop, value in trigger.options:
        if name != "playerProperty" or not target:
            continue
        if prop == "switch":
            state.switches[target] = value.lower() == "true"
        else:                      # e.g. lifting a power's movement limits once it is at war
            for player in players:
                state.switches[f"{player}:{target}:{prop}"] = value
    for frontier in trigger.values("frontier")[-1:]:
        for player in players:
            if rules.frontier(state, player) != frontier:
                state.switches[f"{player}:frontier"] = frontier
                events.append({"type": "frontier", "power": player, "frontier": frontier,
                               "what": _words(trigger.name)})
    for name, value, count in trigger.options:
        if name == "removeUnits":
            events += _remove_units(state, value, count, players, trigger)
    for name, value, count in trigger.options:
        if name == "placement":
            events += _place_units(rules, state, value, count, players, trigger)
    if trigger.value("uses"):
        state.spent[key] = state.spent.get(key, 0) + 1
    return events


def _remove_units(state: State, value: str, count: str, players: list[str], trigger: Attachment) -> list[dict]:
    """removeUnits "Place:type:type" (count: how many at most) of the trigger's players there."""
    place, *types = value.split(":")
    gone = [u for u in state.units_at(place) if u.owner in players and u.type in types][:int(count or 1)]
    if not gone:
        return []
    state.remove_units(u.id for u in gone)
    return [{"type": "removed", "place": place, "power": gone[0].owner, "units": count_types(gone),
             "reason": _words(trigger.name)}]


def _place_units(rules: MapFacts, state: State, value: str, count: str, players: list[str],
                 trigger: Attachment) -> list[dict]:
    """placement "Place:type:type" (count of each, default 1) for the trigger's first player: the US war
    production's major factories, which replace the minor ones the same trigger removes."""
    place, *types = value.split(":")
    if place not in state.owners and not rules.is_water(place):
        return []
    added = [state.add_unit(t, players[0], place) for t in types for _ in range(int(count or 1))]
    return [{"type": "placed_by_rule", "place": place, "power": players[0], "units": count_types(added),
             "reason": _words(trigger.name)}] if added else []


# -- national objectives ------------------------------------------------------------------------------------


def objectives(rules: MapFacts, state: State, power: str) -> list[dict]:
    """Every national objective of `power` in the map, met or missed now: the objective attachments (with
    objectiveValue) and the PU triggers without a step that TripleA pays at the end of the turn."""
    found = []
    conditions = Conditions(rules)
    for a in rules.scenario.attachments:
        if a.attach_to != power:
            continue
        if a.kind == "condition" and a.name.startswith("objectiveAttachment") and a.value("objectiveValue"):
            value = int(a.value("objectiveValue"))
            conditions.unsupported = []
            try:
                met, multiple = conditions.test(state, a)
                if not met and conditions.unsupported:
                    raise Unsupported("; ".join(dict.fromkeys(conditions.unsupported)))
            except Unsupported as exc:
                found.append(_unsupported(a, value, exc))
                continue
            found.append(_objective(state, a, value, met, multiple))
        elif a.kind == "trigger" and a.value("resource") == "PUs" and not a.values("when"):
            value = int(a.value("resourceCount") or 0)
            try:
                met = _trigger_met(rules, state, a)
            except Unsupported as exc:
                found.append(_unsupported(a, value, exc))
                continue
            found.append(_objective(state, a, value, met, 1))
    return sorted(found, key=lambda o: o["name"])      # the G40 maps number them: "Germans 1 …", "Germans 2 …"


def _unsupported(a: Attachment, value: int, exc: Unsupported) -> dict:
    return {"name": _words(a.name), "key": f"{a.attach_to}:{a.name}", "value": value, "met": False, "paid": 0,
            "note": f"not evaluated: {exc}"}


def _objective(state: State, a: Attachment, value: int, met: bool, multiple: int) -> dict:
    available = _available(state, a)
    paid = value * multiple if met and available else 0
    entry = {"name": _words(a.name), "key": f"{a.attach_to}:{a.name}", "value": value, "met": met, "paid": paid,
             "limited": bool(a.value("uses"))}
    if met and not available:
        entry["note"] = "paid already as often as the map allows"
    if multiple > 1:
        entry["times"] = multiple
    return entry


def pay_objectives(state: State, met: list[dict]) -> None:
    """Count the payments of objectives with a limited number of uses (e.g. the Soviet capture of Berlin)."""
    for entry in met:
        if entry["paid"] and entry.get("limited"):
            state.spent[entry["key"]] = state.spent.get(entry["key"], 0) + 1



# -- victory (RULINGS.md "victory") ------------------------------------------------------------------------


VICTORY = "victory"        # the RULINGS.md entry the victory events cite


def victory_triggers(rules: MapFacts) -> list[Attachment]:
    """The map's triggers that end the game (those with a `victory` option), where "Triggered Victory" is on."""
    if not rules.prop("Triggered Victory"):
        return []
    return [t for t in rules.scenario.attachments_of("trigger") if t.value("victory")]


def trigger_side(rules: MapFacts, trigger: Attachment) -> str:
    """The alliance most of the powers a victory trigger crowns belong to (its `players`: the Allies' list names
    the Dutch, an alliance of their own); its message where they share none."""
    counts = Counter(a for p in trigger.names("players") or [trigger.attach_to] for a in rules.scenario.player(p).alliances)
    best = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return best[0][0] if best else _words(trigger.value("victory"))


def goal_words(rules: MapFacts, name: str, depth: int = 0, counted=None) -> str:
    """A victory condition in words: ownership tests as "8 of A, B, …" (or "all of …"), the rest as `describe`.
    `counted(condition, option, places, needed)` words an ownership test instead, as the report's summary counts
    what a side holds against it (rules/city_goals.py)."""
    cond = rules.scenario.condition(name)
    if cond is None:
        return name
    parts = []
    subs = cond.names("conditions")
    if subs and depth < 3:
        joiner = " or " if cond.value("conditionType", "AND").upper() == "OR" else " and "
        inner = joiner.join(goal_words(rules, n, depth + 1, counted) for n in subs)
        parts.append(f"({inner})" if len(subs) > 1 and depth else inner)
    for n, value, count in cond.options:
        if n.endswith("OwnershipTerritories"):
            places = [p for p in value.split(":") if p]
            needed = int(count) if count.isdigit() else len(places)
            parts.append(counted(cond, n, places, needed) if counted
                         else f"{'all' if needed >= len(places) else needed} of {', '.join(places)}")
    if not parts:
        return describe(rules, name, depth)
    return " and ".join(parts)


def victory_holds(rules: MapFacts, state: State):
    """The map's victory triggers as holds of a whole round (conditions.check_holds), and the report's words for
    their events. A trigger resting on a condition we cannot evaluate is never met."""
    conditions = Conditions(rules)
    triggers = {t.name: t for t in victory_triggers(rules)}

    def met(trigger: Attachment) -> bool:
        try:
            return _trigger_met(rules, state, trigger, conditions)
        except Unsupported:
            return False

    holds = [Hold(t.name, trigger_side(rules, t), VICTORY, (lambda _round, t=t: met(t))) for t in triggers.values()]

    def event(kind: str, hold: Hold, power: str, round_: int, **more) -> dict:
        trigger = triggers[hold.key]
        goal = " and ".join(goal_words(rules, n, 1) for n in trigger.names("conditions", "trigger"))
        return {"type": kind, "side": hold.side, "condition": goal, "rule": hold.rule, "power": power,
                "round": round_, "until": round_ + 1, **more}
    return holds, event


def victory_check(rules: MapFacts, state: State, power: str) -> list[dict]:
    """At the end of every power's turn: a victory trigger met starts a hold, kept a whole round it wins."""
    holds, event = victory_holds(rules, state)
    return check_holds(state, power, rules.scenario.turn_players(), holds, event) if holds else []


def victory_status(rules: MapFacts, state: State) -> dict:
    holds, event = victory_holds(rules, state)
    return hold_status(state, holds, event)
