"""Unit types and support attachments, translated from TripleA's options into our vocabulary.

The flags follow what TripleA's `UnitAttachment` setters imply, not only the option's own name: `isFactory`
also makes a unit infrastructure that can be damaged, and `isAA` is shorthand for combat AA, bombing AA,
infrastructure and a unit that does not move in the combat move (TripleA's setIsAa: the classic maps' AA gun). Every option is still kept verbatim in `UnitType.options` for game hooks.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from adjudicator.scenario import FLAG_WORDS, ProductionRule, Support, UnitType

from .document import GameDocument, Options, colon_list, is_true, last, options

# Boolean option set to true -> the flags it implies.
_FLAGS_OF_OPTION = {
    "isInfantry": ("infantry",),
    "artillery": ("artillery",),
    "isArtillery": ("artillery",),
    "canBlitz": ("can_blitz",),
    "canBombard": ("can_bombard",),
    "isStrategicBomber": ("strategic_bomber",),
    "isSub": ("sub",),
    "isDestroyer": ("destroyer",),
    "isAirTransport": ("air_transport",),
    "isInfrastructure": ("infrastructure",),
    "isFactory": ("factory", "infrastructure", "can_be_damaged"),
    "isAA": ("aa", "aa_bombing", "infrastructure", "no_combat_move"),
    "isAAforCombatOnly": ("aa",),
    "isAAforBombingThisUnitOnly": ("aa_bombing",),
    "canBeDamaged": ("can_be_damaged",),
    "canNotMoveDuringCombatMove": ("no_combat_move",),
    "isAirBase": ("air_base",),
    "isNavalBase": ("naval_base",),
}

# Every UnitAttachment option read here (the others stay in UnitType.options, verbatim, for the rules to read):
# the honoured unit options of adjudicator/families.py start from this list.
READ_OPTIONS: tuple[str, ...] = tuple(_FLAGS_OF_OPTION) + (
    "isAir", "isSea", "attack", "defense", "movement", "hitPoints", "transportCapacity", "transportCost",
    "carrierCapacity", "carrierCost", "repairsUnits", "isFirstStrike", "canEvade", "artillerySupportable",
    "unitSupportCount",
)

# Old maps give artillery support with unit flags instead of a UnitSupportAttachment; TripleA then builds
# the attachment itself under these names (UnitSupportAttachment.addRule).
_OLD_ARTILLERY_BONUS_TYPE = "ArtyOld"
_OLD_ARTILLERY_PREFIX = "supportAttachmentArtyOld"


def read_unit_types(doc: GameDocument, names: list[str], rules: list[ProductionRule],
                    frontiers: dict[str, list[str]], player_production: dict[str, str]) -> list[UnitType]:
    attached = doc.attached_options("UnitAttachment", "unit type")
    costs = _unit_costs(rules, frontiers, player_production)
    return [_unit_type(doc, name, attached.get(name, {}), costs.get(name)) for name in names]


def _unit_costs(rules: list[ProductionRule], frontiers: dict[str, list[str]],
               player_production: dict[str, str]) -> dict[str, int]:
    """Price of one unit: the rule that buys exactly one of it, cheapest first.

    Rules in a frontier some player starts with win over the others, because the others are what a technology
    unlocks (G40's `buyCarrierShipyards` at 13 against the box price of 16, Pacific's industrial technology).
    """
    starting = {rule for frontier in player_production.values() for rule in frontiers.get(frontier, [])}
    best: dict[str, tuple[bool, int]] = {}
    for rule in rules:
        if len(rule.results) != 1:
            continue
        (unit, quantity), = rule.results.items()
        key = (rule.name not in starting, rule.cost)
        if quantity == 1 and (unit not in best or key < best[unit]):
            best[unit] = key
    return {unit: cost for unit, (_, cost) in best.items()}


def _unit_type(doc: GameDocument, name: str, opts: Options, cost: int | None) -> UnitType:
    def number(option: str, default: int) -> int:
        value = last(opts, option)
        return default if value is None else doc.integer(value, f"unit type '{name}' option {option}")

    flags = _flags(opts)
    unit = UnitType(
        name=name,
        domain="air" if is_true(opts, "isAir") else "sea" if is_true(opts, "isSea") else "land",
        attack=number("attack", 0),
        defense=number("defense", 0),
        movement=number("movement", 0),
        hit_points=number("hitPoints", 1),
        cost=cost,
        transport_capacity=number("transportCapacity", 0),
        transport_cost=number("transportCost", 0),
        carrier_capacity=number("carrierCapacity", 0),
        carrier_cost=number("carrierCost", 0),
        options=opts,
    )
    if _is_marker(unit, flags):
        flags.add("marker")
    unit.flags = [flag for flag in FLAG_WORDS if flag in flags]
    return unit


def _flags(opts: Options) -> set[str]:
    flags = {flag for option, implied in _FLAGS_OF_OPTION.items() if is_true(opts, option) for flag in implied}
    if opts.get("repairsUnits"):
        flags.add("naval_base")
    # TripleA >= 2.0 writes a submarine as its abilities rather than isSub (europe_improved does).
    if is_true(opts, "isFirstStrike") and is_true(opts, "canEvade"):
        flags.add("sub")
    return flags


def _is_marker(unit: UnitType, flags: set[str]) -> bool:
    """Invisible bookkeeping units (G40 AU's city, *_captured, trackers): they never move, fight or get bought.

    Factories, damageable buildings and bases (Pacific's airfield and harbour, never bought but placed at start)
    look the same on paper but are real pieces, so they are excluded.
    """
    return ("infrastructure" in flags and not flags & {"factory", "can_be_damaged", "air_base", "naval_base"}
            and unit.attack == unit.defense == unit.movement == 0 and unit.cost is None)


def read_supports(doc: GameDocument, unit_types: list[UnitType], players: list[str]) -> list[Support]:
    return _declared_supports(doc) + _old_artillery_supports(doc, unit_types, players)


def _declared_supports(doc: GameDocument) -> list[Support]:
    """UnitSupportAttachments. A missing bonus, number or side takes TripleA's default (0, 0, neither side),
    so a half-written support gives nothing, as in TripleA; faction and dice default to "allied" and "strength".
    """
    supports = []
    for attachment in doc.attachments("UnitSupportAttachment"):
        name = doc.attr(attachment, "name")
        provider = doc.require("unit type", doc.attr(attachment, "attachTo"), attachment)
        opts = options(attachment)
        sides = colon_list(last(opts, "side"))
        supports.append(Support(
            name=name,
            provider=provider,
            targets=[doc.require("unit type", t, attachment) for t in colon_list(last(opts, "unitType"))],
            bonus=doc.integer(last(opts, "bonus", "0"), f"support '{name}' on '{provider}' option bonus"),
            number=doc.integer(last(opts, "number", "0"), f"support '{name}' on '{provider}' option number"),
            offence="offence" in sides,
            defence="defence" in sides,
            faction=last(opts, "faction", "allied"),
            dice=last(opts, "dice", "strength"),
            bonus_type=last(opts, "bonusType", ""),
            players=_players(doc, opts, attachment),
        ))
    return supports


def _players(doc: GameDocument, opts: Options, attachment: ET.Element) -> list[str]:
    """Every `players` option adds to the list (TripleA's parsePlayerList); repeats are dropped."""
    names = [p for value in opts.get("players", []) for p in colon_list(value)]
    return [doc.require("player", p, attachment) for p in dict.fromkeys(names)]


def _old_artillery_supports(doc: GameDocument, unit_types: list[UnitType], players: list[str]) -> list[Support]:
    """The support TripleA builds for `artillery`=true units: +1 attack to one `artillerySupportable` unit."""
    targets = [u.name for u in unit_types if is_true(u.options, "artillerySupportable")]
    return [
        Support(name=_OLD_ARTILLERY_PREFIX + u.name, provider=u.name, targets=list(targets), bonus=1,
                number=doc.integer(last(u.options, "unitSupportCount", "1"), f"'{u.name}' unitSupportCount"),
                offence=True, defence=False, faction="allied", dice="strength",
                bonus_type=_OLD_ARTILLERY_BONUS_TYPE, players=list(players))
        for u in unit_types if is_true(u.options, "artillery")
    ]
