"""The Expanded Global start position, made from the G40 2nd-edition TripleA scenario.

`expanded_global(g40)` takes the Scenario `adjudicator.triplea.load_scenario` reads from
ww2global40_2nd_edition.xml and returns a new one (the input is not changed):

* the players are the 14 nations of EG-01, in its order, plus the map's neutral owners (they take no turns);
* the G40 powers' territories, units and factories are given to the nations so that each nation's starting income
  is exactly EG-02's figure (a reconstruction: research/variants.md §2.3; RULINGS.md "reassignment", "eec");
* each nation has one capital (CAPITALS) and owns at the start what it originally owns ("original-territories");
* every nation is at peace with every other and with the neutrals ("starting-relations");
* the 2nd-edition scenario's own politics, triggers, objectives, China's limits, UK_Pacific's unit control and
  the kamikaze strikes are switched off ("switched-off").

The Scenario has no field for a nation's abbreviation or colour: they are in NATIONS, and the engine reads them
where it reads every power's (lexicon.POWER_GROUPS for the names orders may use, picture.KNOWN_COLOURS for the
picture), which carry the same values (tests/test_expanded_global_scenario.py checks that they agree).
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass

from adjudicator.scenario import Placement, Player, Scenario, Step


@dataclass(frozen=True)
class Nation:
    name: str               # the player's name, usable in orders ("war Canada")
    abbreviation: str       # the short name orders may use as well ("war CAN")
    colour: str             # the picture's colour, "#rrggbb"
    income: int             # EG-02: starting income and starting money (RULINGS.md "income-and-money")
    capital: str            # the territory (RULINGS.md "capitals")
    power: str              # the G40 power whose territories it takes unless REASSIGNED says otherwise


# EG-01's order of play, EG-02's incomes.
NATIONS = (
    Nation("United States", "US", "#5f7f2e", 52, "Eastern United States", "Americans"),
    Nation("Russia", "RUS", "#b23a2a", 37, "Russia", "Russians"),
    Nation("Germany", "GER", "#5d5d5d", 25, "Germany", "Germans"),
    Nation("Great Britain", "GB", "#b58a45", 24, "United Kingdom", "British"),
    Nation("China", "CHN", "#7d4a91", 23, "Szechwan", "Chinese"),
    Nation("France", "FRA", "#2f62c4", 19, "France", "French"),
    Nation("Japan", "JPN", "#e0a126", 15, "Japan", "Japanese"),
    Nation("Indonesia", "IDN", "#c04cc4", 15, "Java", "Dutch"),
    Nation("Eastern European Commonwealth", "EEC", "#8fbf3f", 14, "Poland", ""),
    Nation("Italy", "ITA", "#3c6f8f", 10, "Southern Italy", "Italians"),
    Nation("India", "IND", "#e07a1f", 10, "India", "UK_Pacific"),
    Nation("Australia", "AUS", "#4f8f86", 10, "New South Wales", "ANZAC"),
    Nation("Union of South American Nations", "UNASUR", "#3bb273", 8, "Brazil", ""),
    Nation("Canada", "CAN", "#d1495b", 7, "Ontario", ""),
)

# Territories that do not go to the nation of their G40 owner (Nation.power). Every other territory of a G40
# power goes to that power's nation; every other neutral territory stays with its neutral owner.
REASSIGNED: dict[str, tuple[str, ...]] = {
    # China 23 = the Chinese 12 + the originally Chinese territories Japan holds (11).
    "China": ("Manchuria", "Kiangsu", "Shantung", "Jehol", "Kiangsi", "Kwangsi"),
    # Canada 7, from the British 28.
    "Canada": ("Ontario", "Quebec", "British Columbia", "Alberta Saskatchewan Manitoba", "New Brunswick Nova Scotia",
               "Newfoundland Labrador"),
    # Great Britain 24 = British 28 - Canada 7 + Kwangtung 3 (Hong Kong), with UK_Pacific's crown-colony islands.
    "Great Britain": ("Kwangtung", "Gilbert Islands", "Fiji", "Samoa"),
    # Indonesia 15 = the Dutch 11 + Borneo 4 (UK_Pacific).
    "Indonesia": ("Borneo",),
    # EEC 14 = Poland 2 + Slovakia Hungary 3 (German) + Yugoslavia 2, Greece 2, Bulgaria 1, Finland 2, Turkey 2.
    "Eastern European Commonwealth": ("Poland", "Slovakia Hungary", "Yugoslavia", "Greece", "Bulgaria", "Finland",
                                      "Turkey"),
    # UNASUR 8 = Brazil 2, Argentina 2, Chile 2, Venezuela 2 and the South American neutrals worth 0.
    "Union of South American Nations": ("Brazil", "Argentina", "Chile", "Venezuela", "Colombia", "Ecuador", "Peru",
                                        "Bolivia", "Paraguay", "Uruguay"),
}

# The map's players that own neutral territories: they keep the neutrals no nation takes, with their armies.
NEUTRAL_OWNERS = ("Mongolians", "Neutral_Axis", "Neutral_Allies", "Neutral_True")

PEACE = "Neutrality"            # the map's relationship between powers at peace (archetype "neutral")
NEUTRAL_PEACE = "Strict_Neutral"    # the map's relationship with a true neutral (archetype "neutral")

# What the 2nd-edition scenario has of its own (RULINGS.md "switched-off").
PROPERTIES = {
    "Use Triggers": "false",
    "National Objectives": "false",
    "Use Politics": "false",
    "Triggered Victory": "false",
    "Use Kamikaze Suicide Attacks": "false",
    "Tech Development": "false",
}
DROPPED_PROPERTIES = ("Axis Honorable Victory VCs", "Allies Honorable Victory VCs")   # and every "<power> bid"
# Territory options that name G40 powers: capitals and original owners are the Territory fields instead.
DROPPED_TERRITORY_OPTIONS = ("capital", "originalOwner", "changeUnitOwners", "whenCapturedByGoesTo",
                             "captureUnitOnEnteringBy", "kamikazeZone")
# Unit options that name G40 powers: UK_Pacific's territories giving units to the British, pro-side neutrals'
# infantry joining whoever enters.
DROPPED_UNIT_OPTIONS = ("canBeGivenByTerritoryTo", "canBeCapturedOnEnteringBy")

# The phases of a nation's turn (EG-07, EG-09): the Agenda Phase's six steps in EG-09's order — Resolving Surrenders
# and Armistices, Purchase and Repair (the G40 purchase phase, with its `buy` and `repair`), Technology Research and
# Exchange, Collect and Spend Influence, Make Alliances, Declare War — then the Combat Phase as a G40 power plays it
# (combat move, battles, non-combat move, mobilisation, end of turn with income). RULINGS.md "turn".
AGENDA = ("surrenders", "purchase", "research", "influence", "alliances", "declare_war")
COMBAT = ("combat_move", "battle", "noncombat_move", "place", "end_turn")
TURN_PHASES = AGENDA + COMBAT
# The steps the G40 map has no step for: their step names (after the nation's abbreviation) and display names.
AGENDA_STEPS = {
    "surrenders": ("Surrenders", "Resolving Surrenders and Armistices"),
    "research": ("Research", "Technology Research and Exchange"),
    "influence": ("Influence", "Collect and Spend Influence"),
    "alliances": ("Alliances", "Make Alliances"),
    "declare_war": ("DeclareWar", "Declare War"),
}


def nation(name: str) -> Nation:
    return next(n for n in NATIONS if n.name == name)


def expanded_global(g40: Scenario) -> Scenario:
    """The Expanded Global scenario made from the G40 2nd-edition one (left unchanged)."""
    s = copy.deepcopy(g40)
    for cache in [k for k in s.__dict__ if k.startswith("_")]:
        del s.__dict__[cache]
    land_owner = territory_owners(g40)
    s.name = "Expanded Global Scenario"
    s.version = f"G40 2nd edition {g40.version}, reassigned"
    s.notes = ("The Expanded Global Scenario (MonsieurMurdoch) on the G40 2nd-edition map: 14 nations, "
               "games/expanded_global/RULINGS.md.")
    nations = [n.name for n in NATIONS]
    s.players = [Player(n.name) for n in NATIONS] + [
        Player(p.name, optional=True, alliances=list(p.alliances)) for p in g40.players if p.name in NEUTRAL_OWNERS]
    # territories: owners, original owners, capitals
    capitals = {n.capital: n.name for n in NATIONS}
    s.owners = {}
    for t in s.territories:
        t.options = {k: v for k, v in t.options.items() if k not in DROPPED_TERRITORY_OPTIONS}
        t.capital = capitals.get(t.name)
        if t.water:
            g40_owner = g40.owners.get(t.name)
            owner = _main_nation(g40_owner) if g40_owner else None
            t.original_owner = _main_nation(t.original_owner) if t.original_owner else None
        else:
            owner = land_owner.get(t.name)
            t.original_owner = owner
        if owner:
            s.owners[t.name] = owner
    s.placements = _placements(g40, land_owner)
    s.resources = {n.name: n.income for n in NATIONS}
    s.tokens = {}
    s.sequence = turn_sequence(g40, nations)
    s.player_production = {n: "production" for n in nations}
    s.relationships = _relationships(g40, nations)
    s.attachments = []
    s.properties = {k: v for k, v in g40.properties.items()
                    if k not in DROPPED_PROPERTIES and not k.endswith(" bid")} | PROPERTIES
    g40_turn = set(g40.turn_players()) | {"Dutch"}
    for support in s.supports:
        if any(p in g40_turn for p in support.players):
            support.players = list(nations)
    for u in s.unit_types:
        u.options = {k: v for k, v in u.options.items() if k not in DROPPED_UNIT_OPTIONS}
    return s


def turn_sequence(g40: Scenario, nations: list[str]) -> list[Step]:
    """Each nation's turn, in EG-01's order, as the steps of TURN_PHASES, between the map's game-init and end-of-round
    steps: Purchase and Repair and the Combat Phase are one G40 power's steps (their delegates and display names);
    the other Agenda steps are the game's own (AGENDA_STEPS, no delegate: the map has none for them)."""
    template = g40.turn_players()[0]
    steps = {s.phase: s for s in g40.sequence if s.player == template and s.phase in TURN_PHASES}
    out = [Step(s.name, s.phase, None, s.delegate, s.display) for s in g40.sequence
           if s.player is None and s.delegate == "initDelegate"]
    for name in nations:
        key = nation(name).abbreviation.lower()
        for phase in TURN_PHASES:
            if phase in AGENDA_STEPS:
                suffix, display = AGENDA_STEPS[phase]
                out.append(Step(key + suffix, phase, name, "", display))
                continue
            step = steps[phase]
            out.append(Step(key + _step_suffix(step), phase, name, step.delegate, step.display))
    out += [Step(s.name, s.phase, None, s.delegate, s.display) for s in g40.sequence
            if s.player is None and s.delegate == "endRound"]
    return out


def _step_suffix(step: Step) -> str:
    """"germansCombatMove" -> "CombatMove": the part after the power's name."""
    name = step.name
    i = next((i for i, c in enumerate(name) if c.isupper()), len(name))
    return name[i:] or step.phase


def territory_owners(g40: Scenario) -> dict[str, str]:
    """Land territory -> its owner at the start of the Expanded Global game: a nation, or the map's neutral owner
    for the neutrals no nation takes (RULINGS.md "reassignment")."""
    by_power = {n.power: n.name for n in NATIONS if n.power}
    moved = {t: name for name, places in REASSIGNED.items() for t in places}
    out = {}
    for t in g40.territories:
        if t.water:
            continue
        owner = g40.owners.get(t.name)
        if t.name in moved:
            out[t.name] = moved[t.name]
        elif owner in by_power:
            out[t.name] = by_power[owner]
        elif owner:
            out[t.name] = owner          # a neutral owner (or the Dutch, who are all Indonesia's: by_power)
    return out


def _main_nation(power: str) -> str:
    """The nation a G40 power's fleet goes with by default; a neutral owner stays itself."""
    return next((n.name for n in NATIONS if n.power == power), power)


def _placements(g40: Scenario, land_owner: dict[str, str]) -> list[Placement]:
    """Every unit on land goes to the territory's new owner (EG-05: no nation's units stand in another's territory
    at peace); every unit in a sea zone goes with the nation of its G40 power's nearest land (RULINGS.md
    "sea-units"). Placements keep the map's order, one row per (territory, owner, type)."""
    water = {t.name for t in g40.territories if t.water}
    sea_nation = {}
    out: dict[tuple[str, str, str], int] = {}
    for p in g40.placements:
        if p.territory in water:
            key = (p.territory, p.owner)
            if key not in sea_nation:
                sea_nation[key] = fleet_nation(g40, land_owner, p.territory, p.owner)
            owner = sea_nation[key]
        else:
            owner = land_owner.get(p.territory) or p.owner
        k = (p.territory, owner, p.unit_type)
        out[k] = out.get(k, 0) + p.quantity
    return [Placement(t, o, u, q) for (t, o, u), q in out.items()]


def fleet_nation(g40: Scenario, land_owner: dict[str, str], zone: str, power: str) -> str:
    """The nation that gets `power`'s units in sea zone `zone`: the new owner of the nearest land territory that
    `power` held at the start, or a power whose units the map gives it (UK_Pacific's: giveUnitControl), counted in
    steps through the map's connections; among several at that distance, the power's main nation if one of them is
    its, else the first in EG-01's order."""
    main = _main_nation(power)
    powers = {power} | {p.name for p in g40.players       # UK_Pacific's starting units are British (giveUnitControl)
                        if power in (n for v in p.options.get("giveUnitControl", []) for n in v.split(":"))}
    held = {t for t, o in g40.owners.items() if o in powers and t in land_owner}
    if not held:
        return main
    seen, frontier = {zone}, deque([(zone, 0)])
    found, best = [], None
    while frontier:
        place, d = frontier.popleft()
        if best is not None and d > best:
            break
        if place in held:
            best = d
            found.append(land_owner[place])
            continue
        for n in sorted(g40.neighbours(place)):
            if n not in seen:
                seen.add(n)
                frontier.append((n, d + 1))
    if not found or main in found:
        return main
    order = [n.name for n in NATIONS]
    return min(found, key=lambda n: order.index(n) if n in order else len(order))


def _relationships(g40: Scenario, nations: list[str]) -> list[tuple[str, str, str]]:
    """Every nation at peace with every other and with every neutral owner; the neutral owners among themselves
    as the map has them (RULINGS.md "starting-relations")."""
    out = [(a, b, PEACE) for i, a in enumerate(nations) for b in nations[i + 1:]]
    out += [(a, b, NEUTRAL_PEACE) for a in nations for b in NEUTRAL_OWNERS]
    out += [(a, b, t) for a, b, t in g40.relationships if a in NEUTRAL_OWNERS and b in NEUTRAL_OWNERS]
    return out
