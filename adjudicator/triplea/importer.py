"""TripleA game XML -> Scenario.

The importer reads only what the engine plays (research/triplea_xml.md §6.1) and checks each name it reads
against the map's declarations, as TripleA does, so a broken map fails at `new` with a message rather than
mid-game. Rules logic (triggers, conditions, political actions) is left to game hooks.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from adjudicator.scenario import (
    Attachment, Canal, Placement, Player, ProductionRule, RelationshipType, Scenario, Step, Territory,
)

from .document import GameDocument, colon_list, is_true, last, open_game, options
from .units import read_supports, read_unit_types

PU = "PUs"

# Delegate class -> phase. Every other class found in the maps is a step we do not play: InitializationDelegate,
# BidPurchaseDelegate, BidPlaceDelegate, TechnologyDelegate, TechActivationDelegate, SpecialMoveDelegate
# (airborne assault), UserActionDelegate, EndRoundDelegate.
_PHASE_OF_DELEGATE = {
    "PurchaseDelegate": "purchase",
    "NoPUPurchaseDelegate": "purchase",
    "PoliticsDelegate": "politics",
    "MoveDelegate": "combat_move",
    "BattleDelegate": "battle",
    "PlaceDelegate": "place",
    "NoAirCheckPlaceDelegate": "place",
    "EndTurnDelegate": "end_turn",
    "NoPUEndTurnDelegate": "end_turn",
}

# The types we add to maps that predate relationships (Europe and Pacific 1999).
ALLIED, WAR = "Allied", "War"


def load_scenario(path: str | Path) -> Scenario:
    """Import one TripleA game XML; any problem with the file raises MapError naming it."""
    doc = open_game(path)
    root = doc.root
    players = _players(doc)
    territory_elements = root.findall("map/territory")
    doc.declare("territory", territory_elements)
    doc.declare("resource", root.findall("resourceList/resource"))
    unit_names = doc.declare("unit type", root.findall("unitList/unit"))
    connections = _connections(doc)
    owners = _owners(doc)
    rules = _production_rules(doc)
    frontiers = _frontiers(doc)
    player_production = _player_production(doc)
    unit_types = read_unit_types(doc, unit_names, rules, frontiers, player_production)
    relationship_types, relationships = _relationships(doc, players)
    info = root.find("info")
    name, version = (info.get("name", ""), info.get("version", "")) if info is not None else ("", "")
    properties = read_properties(root)
    notes = properties.pop("notes", "").strip()
    return Scenario(
        name=name,
        version=version,
        source=doc.path.name,
        dice_sides=_dice_sides(doc),
        territories=_territories(doc, territory_elements, owners, connections),
        connections=connections,
        players=players,
        unit_types=unit_types,
        supports=read_supports(doc, unit_types, [p.name for p in players]),
        relationship_types=relationship_types,
        relationships=relationships,
        canals=_canals(doc),
        production_rules=rules,
        frontiers=frontiers,
        player_production=player_production,
        owners=owners,
        placements=_placements(doc),
        resources=_resources(doc),
        tokens=_tokens(doc),
        sequence=_sequence(doc),
        properties=properties,
        notes=notes,
        attachments=_rule_attachments(doc),
    )


# -- map ---------------------------------------------------------------------------------------------------


def _territories(doc: GameDocument, elements: list[ET.Element], owners: dict[str, str],
                 connections: list[tuple[str, str]]) -> list[Territory]:
    """Territories with their TerritoryAttachment; the original owner defaults to the starting owner, as in TripleA.

    Land without any connection is a bookkeeping territory (G40 AU's fake capitals GCap ... FCap) and is hidden.
    """
    attached = doc.attached_options("TerritoryAttachment", "territory")
    connected = {name for pair in connections for name in pair}
    territories = []
    for element in elements:
        name = element.get("name")
        opts = attached.get(name, {})
        water = element.get("water", "").lower() == "true"
        original_owner, capital = last(opts, "originalOwner"), last(opts, "capital")
        for player in filter(None, (original_owner, capital)):
            doc.require("player", player, element)
        territories.append(Territory(
            name=name,
            water=water,
            production=doc.integer(last(opts, "production", "0"), f"territory '{name}' production"),
            original_owner=original_owner or owners.get(name),
            capital=capital,
            victory_city=doc.integer(last(opts, "victoryCity", "0"), f"territory '{name}' victoryCity"),
            convoy_zone=is_true(opts, "blockadeZone"),
            hidden=not water and name not in connected,
            options=opts,
        ))
    return territories


def _connections(doc: GameDocument) -> list[tuple[str, str]]:
    return [(doc.require("territory", doc.attr(c, "t1"), c), doc.require("territory", doc.attr(c, "t2"), c))
            for c in doc.root.iterfind("map/connection")]


def _canals(doc: GameDocument) -> list[Canal]:
    """One Canal per canalName: TripleA attaches the same canal to each sea zone it joins. Its excludedUnits
    (the G40 maps' submarines at Gibraltar) pass it whoever holds its land."""
    canals: dict[str, Canal] = {}
    for attachment in doc.attachments("CanalAttachment"):
        sea_zone = doc.require("territory", doc.attr(attachment, "attachTo"), attachment)
        opts = options(attachment)
        name = last(opts, "canalName")
        if name is None:
            doc.fail(f"canal attachment on '{sea_zone}' has no canalName")
        land = [doc.require("territory", t, attachment) for t in colon_list(last(opts, "landTerritories"))]
        excluded = [doc.require("unit type", t, attachment) for t in colon_list(last(opts, "excludedUnits"))]
        canal = canals.setdefault(name, Canal(name=name, sea_zones=[], land_territories=land, excluded_units=excluded))
        canal.sea_zones.append(sea_zone)
    return list(canals.values())


# -- players and politics ----------------------------------------------------------------------------------


def _players(doc: GameDocument) -> list[Player]:
    elements = doc.root.findall("playerList/player")
    names = doc.declare("player", elements)
    alliances: dict[str, list[str]] = {name: [] for name in names}
    for alliance in doc.root.iterfind("playerList/alliance"):
        player = doc.require("player", doc.attr(alliance, "player"), alliance)
        alliances[player].append(doc.attr(alliance, "alliance"))
    attached = doc.attached_options("PlayerAttachment", "player")
    return [Player(name=name, optional=element.get("optional", "").lower() == "true", alliances=alliances[name],
                   options=attached.get(name, {}))
            for name, element in zip(names, elements)]


def _relationships(doc: GameDocument, players: list[Player]
                   ) -> tuple[list[RelationshipType], list[tuple[str, str, str]]]:
    """Relationship types and starting relationships.

    Maps older than TripleA's politics (Europe and Pacific 1999) declare neither. TripleA then makes players
    who share an alliance allied and all others at war; we do the same with two types named "Allied" and
    "War" (added when missing), so every scenario has a relationship for every pair of players.
    """
    types = _relationship_types(doc)
    declared = doc.root.findall("initialize/relationshipInitialize/relationship")
    if declared:
        return types, [(doc.require("player", doc.attr(r, "player1"), r),
                        doc.require("player", doc.attr(r, "player2"), r),
                        doc.require("relationship type", doc.attr(r, "type"), r)) for r in declared]
    present = {t.name for t in types}
    types += [RelationshipType(name, name.lower()) for name in (ALLIED, WAR) if name not in present]
    return types, [(a.name, b.name, ALLIED if set(a.alliances) & set(b.alliances) else WAR)
                   for a, b in combinations(players, 2)]


def _relationship_types(doc: GameDocument) -> list[RelationshipType]:
    """Types with their archeType (TripleA's default is war) and the other options as plain strings."""
    names = doc.declare("relationship type", doc.root.findall("relationshipTypes/relationshipType"))
    attached = doc.attached_options("RelationshipTypeAttachment", "relationship type")
    types = []
    for name in names:
        opts = {key: values[-1] for key, values in attached.get(name, {}).items()}
        types.append(RelationshipType(name=name, archetype=opts.pop("archeType", "war").lower(), options=opts))
    return types


# The player attachments the rules play (rules/conditions.py, rules/politics.py), by TripleA class.
_ATTACHMENT_KINDS = {"RulesAttachment": "condition", "PoliticalActionAttachment": "political",
                     "TriggerAttachment": "trigger"}


def _rule_attachments(doc: GameDocument) -> list[Attachment]:
    """Conditions, national objectives, political actions and triggers of players, options kept verbatim with
    their counts (a condition's count is part of its meaning: "each", 0, 3)."""
    found = []
    for element in doc.root.iterfind("attachmentList/attachment"):
        kind = _ATTACHMENT_KINDS.get(element.get("javaClass", "").rsplit(".", 1)[-1])
        if kind is None or element.get("type", "player") != "player":
            continue
        player = doc.require("player", doc.attr(element, "attachTo"), element)
        found.append(Attachment(name=doc.attr(element, "name"), attach_to=player, kind=kind,
                                options=[[o.get("name", ""), o.get("value", ""), o.get("count", "")]
                                         for o in element.iterfind("option")]))
    return found


# -- production --------------------------------------------------------------------------------------------


def _production_rules(doc: GameDocument) -> list[ProductionRule]:
    """Rules priced in PUs; results that are resources rather than units are left out (nothing plays them)."""
    rule_elements = doc.root.findall("production/productionRule")
    doc.declare("production rule", rule_elements)
    rules = []
    for element in rule_elements:
        name = element.get("name")
        cost = sum(doc.integer(doc.attr(c, "quantity"), f"production rule '{name}' cost")
                   for c in element.iterfind("cost") if doc.attr(c, "resource") == PU)
        results: dict[str, int] = {}
        for result in element.iterfind("result"):
            item = doc.attr(result, "resourceOrUnit")
            if item not in doc.names["unit type"]:
                doc.require("resource", item, result)
                continue
            quantity = doc.integer(doc.attr(result, "quantity"), f"production rule '{name}' result")
            results[item] = results.get(item, 0) + quantity
        rules.append(ProductionRule(name=name, cost=cost, results=results))
    return rules


def _frontiers(doc: GameDocument) -> dict[str, list[str]]:
    elements = doc.root.findall("production/productionFrontier")
    doc.declare("production frontier", elements)
    return {frontier.get("name"): [doc.require("production rule", doc.attr(rule, "name"), rule)
                                   for rule in frontier.iterfind("frontierRules")]
            for frontier in elements}


def _player_production(doc: GameDocument) -> dict[str, str]:
    return {doc.require("player", doc.attr(p, "player"), p):
            doc.require("production frontier", doc.attr(p, "frontier"), p)
            for p in doc.root.iterfind("production/playerProduction")}


# -- start position ----------------------------------------------------------------------------------------


def _owners(doc: GameDocument) -> dict[str, str]:
    """Starting owners; a territory listed twice (Pacific's Johnston) goes to the later owner, as in TripleA."""
    return {doc.require("territory", doc.attr(o, "territory"), o): doc.require("player", doc.attr(o, "owner"), o)
            for o in doc.root.iterfind("initialize/ownerInitialize/territoryOwner")}


def _placements(doc: GameDocument) -> list[Placement]:
    """One Placement per <unitPlacement>, in file order, so a scenario can be compared with its XML line by line."""
    return [Placement(territory=doc.require("territory", doc.attr(p, "territory"), p),
                      owner=doc.require("player", doc.attr(p, "owner"), p),
                      unit_type=doc.require("unit type", doc.attr(p, "unitType"), p),
                      quantity=doc.integer(p.get("quantity", "1"), f"placement quantity in {p.get('territory')}"))
            for p in doc.root.iterfind("initialize/unitInitialize/unitPlacement")]


def _resources(doc: GameDocument) -> dict[str, int]:
    return {doc.require("player", doc.attr(g, "player"), g): doc.integer(doc.attr(g, "quantity"), "starting PUs")
            for g in doc.root.iterfind("initialize/resourceInitialize/resourceGiven")
            if doc.require("resource", doc.attr(g, "resource"), g) == PU}


def _tokens(doc: GameDocument) -> dict[str, dict[str, int]]:
    """Starting amounts of the other resources (the G40 map gives Japan 6 SuicideAttackTokens)."""
    tokens: dict[str, dict[str, int]] = {}
    for g in doc.root.iterfind("initialize/resourceInitialize/resourceGiven"):
        resource = doc.require("resource", doc.attr(g, "resource"), g)
        if resource != PU:
            player = doc.require("player", doc.attr(g, "player"), g)
            tokens.setdefault(player, {})[resource] = doc.integer(doc.attr(g, "quantity"), f"starting {resource}")
    return tokens


# -- sequence and options ----------------------------------------------------------------------------------


def _sequence(doc: GameDocument) -> list[Step]:
    """Steps with the phase their delegate plays; one MoveDelegate serves both moves, told apart by step name."""
    delegates = {doc.attr(d, "name"): d for d in doc.root.iterfind("gamePlay/delegate")}
    steps = []
    for element in doc.root.iterfind("gamePlay/sequence/step"):
        name, delegate_name = doc.attr(element, "name"), doc.attr(element, "delegate")
        delegate = delegates.get(delegate_name)
        if delegate is None:
            doc.fail(f"step '{name}' uses undeclared delegate '{delegate_name}'")
        player = element.get("player")
        if player is not None:
            doc.require("player", player, element)
        java_class = delegate.get("javaClass", "")
        steps.append(Step(name=name, phase=_phase(java_class, name), player=player,
                          delegate=delegate_name, display=element.get("display") or delegate.get("display", ""),
                          no_pu=java_class.rsplit(".", 1)[-1].startswith("NoPU")))
    return steps


def _phase(java_class: str, step_name: str) -> str:
    phase = _PHASE_OF_DELEGATE.get(java_class.rsplit(".", 1)[-1], "")
    if phase == "combat_move" and step_name.endswith("NonCombatMove"):
        return "noncombat_move"
    return phase


def read_properties(root: ET.Element) -> dict[str, str]:
    """Game options as strings; long values (the notes) sit in a nested <value> instead of the attribute."""
    properties = {}
    for prop in root.iterfind("propertyList/property"):
        value = prop.get("value")
        if value is None:
            value = prop.findtext("value") or ""
        properties[prop.get("name", "")] = value
    return properties


def _dice_sides(doc: GameDocument) -> int:
    element = doc.root.find("diceSides")
    return 6 if element is None else doc.integer(doc.attr(element, "value"), "diceSides")


# -- what a map sets, for the property check at `new` (adjudicator/families.py) --------------------------


@dataclass
class MapSettings:
    """What a game XML switches, as TripleA names it: properties, unit options, the delegates its steps use and
    its attachments by class. The Scenario keeps only what the engine plays; the check at `new` must also see what
    the importer drops (bid and technology steps, user actions), so it reads the file itself."""

    source: str
    properties: dict[str, str]
    unit_options: dict[str, dict[str, str]]         # option -> unit type -> its (last) value
    steps: dict[str, list[str]]                     # delegate class -> the names of the steps that use it
    attachments: Counter = field(default_factory=Counter)   # attachment class -> how many
    players: list[str] = field(default_factory=list)
    alliances: list[str] = field(default_factory=list)


def read_settings(path: str | Path) -> MapSettings:
    """A game XML's switches; a file that cannot be read raises MapError, as load_scenario does."""
    doc = open_game(path)
    root = doc.root
    unit_options: dict[str, dict[str, str]] = {}
    attachments: Counter = Counter()
    for element in root.iterfind("attachmentList/attachment"):
        kind = element.get("javaClass", "").rsplit(".", 1)[-1]
        attachments[kind] += 1
        if kind == "UnitAttachment":
            for option in element.iterfind("option"):
                unit_options.setdefault(option.get("name", ""), {})[element.get("attachTo", "")] = option.get("value", "")
    classes = {d.get("name"): d.get("javaClass", "").rsplit(".", 1)[-1] for d in root.iterfind("gamePlay/delegate")}
    steps: dict[str, list[str]] = {}
    for step in root.iterfind("gamePlay/sequence/step"):
        steps.setdefault(classes.get(step.get("delegate"), ""), []).append(step.get("name", ""))
    return MapSettings(source=doc.path.name, properties=read_properties(root), unit_options=unit_options, steps=steps,
                       attachments=attachments, players=[p.get("name", "") for p in root.iterfind("playerList/player")],
                       alliances=sorted({a.get("alliance", "") for a in root.iterfind("playerList/alliance")}))
