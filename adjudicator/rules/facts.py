"""The facts layer of the rules core (DESIGN.md "Rules core"): what a unit, place and relationship is, read from
the map's unit attachments, territories, relationships and properties, and the questions the mechanisms put to a
game (may these units enter, who receives a capture, what a bomber adds), which a game answers by overriding.

Every mechanism (combat, movement, air, transport, bombing, scramble, convoy, economy, politics) reads the
rules through `MapFacts`; this module imports no mechanism and no family, so none of them can reach back. The
G40 family (g40_family.G40Rules) subclasses it with the turn driver and the hooks that play the map's politics.

Rule ids in messages come from shared/rules/LEDGER.md (section BG). The class holds no state of its own
beyond the scenario: every method takes the `State` it reads or changes.
"""

from __future__ import annotations

from ..scenario import Attachment, Canal, Scenario, UnitType
from ..state import State, Unit
from ..words import possessive
from .core import RulesCore
from .properties import prop


class RuleViolation(Exception):
    """An order the rules forbid; `rule` is the ledger id. Becomes an ILLEGAL OrderError at submit time."""

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.message = message
        self.rule = rule


class MapFacts(RulesCore):
    """What the map says of units, places and relationships, as the G40 family reads it, and the game's answers
    to the mechanisms' questions; the family (g40_family.G40Rules) adds how a turn is played."""

    bid_units_per_place = 1         # bid units a territory or sea zone may receive (RULINGS.md "bid")
    # The most new units a power that places without factories (China) puts in one territory in a turn: the G40
    # rulebook's 3, whatever the map's placementPerTerritory says (RULINGS.md "chinese-placement"); None: the map's.
    placed_per_territory: int | None = 3
    # The territories of the Burma Road that give a power that buys nothing (China) one more infantry while its
    # side holds them all, where the map plays "Pacific Theater" (economy.grant_per_valued_territory); none here.
    burma_road: tuple[str, ...] = ()
    # Whether an enemy destroyer keeps submarines from submerging (BG-17); the classic rulebooks say it does not.
    destroyer_stops_submerging = True
    # Whether a raid's AA fires before its air battle, at escorts too (the classic rulebooks), or after it at the
    # bombers only (the G40 family, RULINGS.md "facility-aa-escorts").
    raid_aa_first = False
    # The rules a passage refused past enemy ships cites: (surface ships BG-07, submarines BG-19).
    passage_rules: tuple[str, str] = ("BG-07", "BG-19")

    def __init__(self, scenario: Scenario, rules_version: str = ""):
        super().__init__(scenario, rules_version)
        self._props: dict[str, bool] = {}
        self._rules_options: dict[tuple[str, str], bool] = {}

    def prop(self, name: str) -> bool:
        """A rule switch of the map (rules/properties.py); a game whose rulebook differs overrides this."""
        if name not in self._props:
            self._props[name] = prop(self.scenario.properties, name)
        return self._props[name]

    # -- relations ----------------------------------------------------------------------------------

    def archetype(self, state: State, a: str, b: str) -> str:
        if a == b:
            return "self"
        name = state.relationship(a, b)
        if name is None:
            return "neutral"
        try:
            return self.scenario.relationship_type(name).archetype
        except KeyError:
            return "neutral"

    def relation_option(self, state: State, a: str, b: str, option: str) -> str:
        """An option of the map's relationship type between two powers ("" when not set)."""
        name = state.relationship(a, b)
        try:
            return str(self.scenario.relationship_type(name).options.get(option, "")) if name else ""
        except KeyError:
            return ""

    def takes_over_on_entering(self, state: State, power: str, place: str) -> bool:
        """BG-41: land `power` takes by moving in during non-combat: a neutral that sides with it (the map's
        relationship option canTakeOverOwnedTerritory, e.g. Friendly_Neutral for a pro-Axis neutral)."""
        owner = self.owner(state, place)
        return (owner is not None and owner != power and not self.is_water(place)
                and self.relation_option(state, power, owner, "canTakeOverOwnedTerritory").lower() == "true")

    # The ledger row a refusal of check_takeover_path names: a game that restates BG-41 in its own rules sets its own.
    takeover_rule = "BG-41"

    def check_takeover_path(self, state: State, power: str, path: list[str], phase: str, land: list[Unit]) -> None:
        """BG-41 (RULINGS.md "pro-side-neutral-entry"): land units enter a neutral that sides with `power` only to
        take it in the non-combat move, ending their move there. A path through it would leave it neither taken
        nor crossed by the rules (the map's "They can not be moved through"), and the side it favours never
        attacks it, so both are refused rather than played some other way. As any capture (BG-39), it is taken
        by units that can attack (the map's "no aa guns")."""
        for place in path[1:]:
            if not self.takes_over_on_entering(state, power, place):
                continue
            sides = f"{place} is a neutral siding with the {power}"
            if place != path[-1]:
                raise RuleViolation(f"land units may not move through {place}: {sides}, taken only by land units "
                                    "moving in during the non-combat move and ending their move there",
                                    self.takeover_rule)
            if phase == "combat_move":
                raise RuleViolation(f"{sides}: it is not attacked; take it by moving land units in during the "
                                    "non-combat move (ncm)", self.takeover_rule)
            if not any(self.ut(u).attack > 0 and not self.ut(u).has("infrastructure") for u in land):
                raise RuleViolation(f"{sides}: only units that can attack take it (BG-39), and "
                                    f"{', '.join(sorted({u.type for u in land}))} cannot", self.takeover_rule)

    def joins_with_army(self, state: State, power: str, owner: str) -> bool:
        """BG-41: the neutral's army becomes `power`'s (the owner's captureUnitOnEnteringBy lists it)."""
        try:
            player = self.scenario.player(owner)
        except KeyError:
            return False
        return power in {n for v in player.options.get("captureUnitOnEnteringBy", []) for n in str(v).split(":")}

    def at_war(self, state: State, a: str, b: str) -> bool:
        return self.archetype(state, a, b) == "war"

    def fights(self, state: State, a: str, b: str) -> bool:
        """Units of `a` and `b` stop, block, raid and fight one another: at war, here. A game whose wars allow
        combat only later narrows it; diplomacy (declarations, alliances, objectives) keeps at_war."""
        return self.at_war(state, a, b)

    def friendly(self, state: State, a: str, b: str) -> bool:
        return self.archetype(state, a, b) in ("self", "allied")

    def enemies_of(self, state: State, power: str) -> list[str]:
        return [p.name for p in self.scenario.players if self.at_war(state, power, p.name)]

    def war_type(self) -> str:
        for rt in self.scenario.relationship_types:
            if rt.archetype == "war" and rt.name.lower() == "war":
                return rt.name
        for rt in self.scenario.relationship_types:
            if rt.archetype == "war":
                return rt.name
        raise RuleViolation("this game has no relationship of the war kind")

    def war_actions(self, power: str, target: str) -> list[Attachment]:
        """The map's political actions of `power` that put it at war with `target`, fewest changes first: what
        politics.declare_war plays, and what a refusal to enter a neutral's land points to."""
        found = [a for a in self.scenario.attachments_of("political", power)
                 if any(self._at_war_after(change, power, target) for change in a.values("relationshipChange"))]
        return sorted(found, key=lambda a: len(a.values("relationshipChange")))

    def _at_war_after(self, change: str, power: str, target: str) -> bool:
        parts = change.split(":")
        a, b, new = parts[0], parts[1], parts[-1]
        return {a, b} == {power, target} and self._archetype_of(new) == "war"

    def _archetype_of(self, type_name: str) -> str:
        try:
            return self.scenario.relationship_type(type_name).archetype
        except KeyError:
            return ""

    # -- units --------------------------------------------------------------------------------------

    def ut(self, unit: Unit | str) -> UnitType:
        return self.scenario.unit_type(unit if isinstance(unit, str) else unit.type)

    def is_combatant(self, unit: Unit) -> bool:
        """Can be hit in a battle: everything but facilities, bookkeeping markers and cargo aboard a transport."""
        t = self.ut(unit)
        return not (t.has("infrastructure") or t.has("marker")) and unit.carried_by is None

    def can_capture(self, unit: Unit) -> bool:
        """BG-39: only land units with an attack value capture a territory."""
        t = self.ut(unit)
        return t.domain == "land" and t.attack > 0 and self.is_combatant(unit)

    def movement(self, unit: Unit) -> int:
        """Movement this turn: the type's, plus a base's bonus fixed when the unit first moved (BG-31, BG-32)."""
        return self.ut(unit).movement + unit.flags.get("bonus", 0)

    def start_bonus(self, state: State, unit: Unit) -> int:
        """Movement a game adds for the whole turn to a unit that makes its first move from where it is, on top of
        the map's givesMovement bonus (movement.bonus_movement): A&A Pacific's air bases. None here."""
        return 0

    def route_bonus(self, state: State, unit: Unit, start: str, phase: str) -> dict[str, int]:
        """Movement a game adds to one move of `unit` from `start` in `phase`, by the place the move ends in (only
        places with a bonus are listed): A&A Pacific's air and naval bases. A move's bonus is not kept: what the
        unit spends beyond its allowance leaves it none for later moves. None here."""
        return {}

    def number(self, unit: Unit | str, option: str, default: int = 0) -> int:
        """A whole-number unit option of the map (`blockade`, `maxDamage`, `bombingBonus` …)."""
        values = self.ut(unit).options.get(option)
        try:
            return int(values[-1]) if values else default
        except ValueError:
            return default

    def names(self, unit: Unit | str, option: str) -> set[str]:
        """A colon-separated unit option as a set of names (`bombingTargets`, `repairsUnits` …)."""
        return {n for v in self.ut(unit).options.get(option, []) for n in v.split(":") if n}

    def fields(self, unit: Unit | str, option: str) -> list[list[str]]:
        """Each occurrence of a colon-separated option as its fields (`consumesUnits` 1:factory_minor …)."""
        return [v.split(":") for v in self.ut(unit).options.get(option, [])]

    def true(self, unit: Unit | str, option: str) -> bool:
        return any(v.strip().lower() == "true" for v in self.ut(unit).options.get(option, []))

    def is_facility(self, unit: Unit | str) -> bool:
        """BG-34: infrastructure that never moves (factories, airfields, harbours) is placed as a facility, on land
        held since the start of the turn; infrastructure that moves (the classic maps' AA gun, isAA) is placed at a
        factory like any unit (TripleA places only constructions without a factory)."""
        t = self.ut(unit)
        return t.has("infrastructure") and t.movement == 0

    # -- abilities at sea and in the air (TripleA's UnitAttachment) -----------------------------------

    def is_air(self, unit: Unit | str) -> bool:
        return self.ut(unit).domain == "air"

    def is_sub(self, unit: Unit | str) -> bool:
        return self.ut(unit).has("sub")

    def is_destroyer(self, unit: Unit | str) -> bool:
        return self.ut(unit).has("destroyer")

    def first_strike(self, unit: Unit) -> bool:
        """BG-16: submarines strike first (isSub, or isFirstStrike on newer maps)."""
        return self.is_sub(unit) or self.true(unit, "isFirstStrike")

    def can_submerge(self, unit: Unit, defending: bool = False) -> bool:
        """BG-17: submarines may submerge, where the map's "Submersible Subs" allows it; CL-13: defending ones also
        where "Submarines Defending May Submerge Or Retreat" does (TripleA's DefensiveSubsRetreat)."""
        return self.subs_submerge(defending) and (self.is_sub(unit) or self.true(unit, "canEvade"))

    # A game's rule that forbids submarines to submerge before the first round of a sea battle, attacking or
    # defending (Sgt. Apone's AP-05, no sub stalling); "" where the map's "Sub Retreat Before Battle" decides (CL-13).
    no_submerging_before_battle = ""

    def subs_submerge_before_battle(self) -> bool:
        """Whether submarines may submerge before round 1 of a sea battle (CL-13), not where a game forbids it."""
        return not self.no_submerging_before_battle and self.prop("Sub Retreat Before Battle")

    def stays_aloft(self, state: State, unit: Unit) -> bool:
        """An aircraft that ends its owner's turn where it is without landing (A&A Pacific's Combat Air Patrol,
        played by Sgt. Apone's Europe); none in the families' games."""
        return False

    def subs_submerge(self, defending: bool = False) -> bool:
        """Whether this game's submarines (defending ones, with `defending`) submerge at all (BG-17, CL-13)."""
        return self.prop("Submersible Subs") or (defending and self.prop("Submarines Defending May Submerge Or Retreat"))

    def can_hit(self, shooter: Unit, target: Unit, destroyer_with_shooter: bool) -> bool:
        """BG-18: submarines cannot hit aircraft; aircraft hit submarines only beside a friendly destroyer."""
        if self.is_sub(shooter) and self.is_air(target):
            return False
        if self.is_air(shooter) and self.is_sub(target):
            return destroyer_with_shooter or not self.prop("Air Attack Sub Restricted")
        return True

    def is_transport(self, unit: Unit | str) -> bool:
        t = self.ut(unit)
        return t.domain == "sea" and t.transport_capacity > 0 and t.attack == 0

    def carries(self, unit: Unit) -> int:
        """How much cargo this unit takes aboard (the map's transportCapacity); a family that limits who may
        carry says less for some owners."""
        return self.ut(unit).transport_capacity

    def taken_last(self, unit: Unit, role: str) -> bool:
        """BG-13: transports are chosen as casualties only when nothing else of their side can be hit."""
        return self.is_transport(unit) and self.prop("Transport Casualties Restricted")

    def defenceless(self, unit: Unit, role: str) -> bool:
        """BG-13: units destroyed without a roll when they are all that is left of their side: transports with no
        value in their role (TripleA spares a transport that fights: the classic maps' defend at 1, CL-07)."""
        return (self.is_transport(unit) and self.unit_value(unit, role) == 0
                and self.prop("Unescorted Transport Dies"))

    def destroys_defenceless(self, unit: Unit, role: str) -> bool:
        """BG-13: whether `unit` counts among the enemies that destroy a defenceless side without a roll (it must
        also be able to hit it); a game whose units only destroy what they hit says no for them."""
        return True

    def leaves_battle(self, unit: Unit, rnd: int) -> str:
        """Why the attacking `unit` leaves its battle at the end of combat round `rnd`, counted as retreated
        ("" while it fights on). It stays where it is, out of the fighting and out of reach of enemy fire;
        aircraft land in the non-combat move, as after any battle (BG-23)."""
        return ""

    def holds_fire(self, unit: Unit, rnd: int) -> bool:
        """Whether the attacking `unit` takes no shot in combat round `rnd`, though it is there to be a casualty (a
        game's units that arrive unready); every unit fires in the base game."""
        return False

    def opening_strikes(self, state: State, power: str, place: str, defenders: list[Unit],
                        roller) -> tuple[dict | None, list[Unit]]:
        """A game's own strikes as round 1 of the land battle `power` fights in `place` begins, after AA fire and
        shore bombardment: the roll for the report, and the enemy units in `place` it marks, which fire back in
        round 1 and are then lost on top of round 1's casualties; none in the base game."""
        return None, []

    def combat_begins(self, state: State, power: str, roller) -> list[dict]:
        """Events as the mover's Conduct Combat begins, before any strike or battle: a game's own fights (the
        Expanded Global's insurgencies). `roller` is None while `submit` checks the orders: roll nothing then."""
        return []

    def bombing_bonus(self, unit: Unit, escorts: int, interceptors: int) -> int:
        """BG-27: what a raiding bomber adds to its damage die: the map's bombingBonus. `escorts` and
        `interceptors` count the fighters of each side as the raid begins, for a game whose bonus depends on them."""
        return self.number(unit, "bombingBonus", 0)

    def is_warship(self, unit: Unit) -> bool:
        """A ship that stops enemy ships (BG-07): not a transport or submarine where the map ignores those. A map
        that sets the unit option canBeMovedThroughByEnemies decides by it instead (CL-08)."""
        t = self.ut(unit)
        if t.domain != "sea":
            return False
        if "canBeMovedThroughByEnemies" in t.options:
            return not self.true(unit, "canBeMovedThroughByEnemies")
        if self.is_sub(unit):
            return not self.prop("Ignore Sub In Movement")
        if t.transport_capacity > 0 and t.attack == 0:
            return not self.prop("Ignore Transport In Movement")
        return True

    # -- facilities (BG-26 … BG-32) -------------------------------------------------------------------

    def operative(self, unit: Unit) -> bool:
        """A base works while its damage is at most `maxOperationalDamage` (BG-28: 3 or more stops it)."""
        limit = self.number(unit, "maxOperationalDamage", -1)
        return limit < 0 or unit.damage <= limit

    def max_damage(self, unit: Unit) -> int:
        """BG-28: the most damage a facility takes: the map's maxDamage, or twice the territory's value."""
        cap = self.number(unit, "maxDamage", 0)
        return cap or 2 * self.scenario.territory(unit.place).production

    def unlimited_factory(self, state: State, power: str, place: str) -> bool:
        """CL-23: a territory the map marks `originalFactory` produces any number of units for the power that
        held it at the start, while its factory stands (TripleA's AbstractPlaceDelegate); the G40 maps mark none."""
        if not self.territory_true(place, "originalFactory"):
            return False
        return self.original_owner(state, place) == power and any(self.ut(u).has("factory") and not u.flags.get("placed")
                                         for u in state.units_at(place, power))

    # -- territories --------------------------------------------------------------------------------

    def impassable(self, place: str) -> bool:
        """The map's isImpassable territories (the Himalayas): nothing enters, nothing captures them."""
        return self.territory_true(place, "isImpassable")

    def territory_true(self, place: str, option: str) -> bool:
        """A true/false option of the territory's TerritoryAttachment (isImpassable, originalFactory …)."""
        return any(v.strip().lower() == "true" for v in self.scenario.territory(place).options.get(option, []))

    def is_water(self, place: str) -> bool:
        return self.scenario.territory(place).water

    def owner(self, state: State, place: str) -> str | None:
        return state.owners.get(place)

    def hostile_units(self, state: State, power: str, place: str) -> list[Unit]:
        return [u for u in state.units_at(place) if self.fights(state, power, u.owner) and self.is_combatant(u)]

    def is_hostile_land(self, state: State, power: str, place: str) -> bool:
        owner = self.owner(state, place)
        return owner is not None and self.fights(state, power, owner)

    def is_friendly_land(self, state: State, power: str, place: str) -> bool:
        owner = self.owner(state, place)
        return owner is not None and self.friendly(state, power, owner)

    def is_neutral_land(self, state: State, power: str, place: str) -> bool:
        owner = self.owner(state, place)
        return owner is not None and not self.friendly(state, power, owner) and not self.fights(state, power, owner)

    def is_attack(self, state: State, power: str, place: str) -> bool:
        """Entering `place` starts a battle: enemy units there, or enemy land."""
        return bool(self.hostile_units(state, power, place)) or self.is_hostile_land(state, power, place)

    def moves_through_enemies(self, unit: Unit) -> bool:
        """BG-19: a submarine passes enemy ships where "Submersible Subs" is on (TripleA's isSub); a map that sets
        the unit option canMoveThroughEnemies decides by it instead (CL-08)."""
        if "canMoveThroughEnemies" in self.ut(unit).options:
            return self.true(unit, "canMoveThroughEnemies")
        return self.is_sub(unit) and self.prop("Submersible Subs")

    def blocks_ships(self, state: State, power: str, place: str, through: bool = False) -> bool:
        """BG-07: enemy warships stop ships (is_warship). BG-19: ships that all pass enemies (`through`:
        moves_through_enemies) are stopped only by an enemy destroyer (TripleA's MoveValidator)."""
        if through:
            return any(self.is_destroyer(u) for u in self.hostile_units(state, power, place))
        return any(self.is_warship(u) for u in self.hostile_units(state, power, place))

    def neutral_closed(self, state: State, place: str) -> bool:
        """CL-10: a neutral country (land no power holds) where the map's "Neutrals Are Impassable" is on: no unit
        enters it, no aircraft flies over it."""
        return (self.prop("Neutrals Are Impassable") and not self.is_water(place) and self.owner(state, place) is None
                and not self.impassable(place))

    def neutral_refusal(self, place: str, what: str) -> RuleViolation:
        """Why `what` ("land units may not enter it" …) for a neutral country closed by CL-10."""
        return RuleViolation(f"{place} is a neutral country, and neutrals are impassable in this game (the map's "
                             f"\"Neutrals Are Impassable\"): {what}", "CL-10")

    def kept_in_battle(self, unit) -> str | None:
        """Why `unit` stays in its battle when the other attackers retreat, or None. BG-11: units that came ashore
        from transports; a game may keep others there too (Sgt. Apone's paratroopers dropped in)."""
        return "came ashore from the sea" if unit.flags.get("amphibious") else None

    def check_air_destination(self, state: State, power: str, place: str, phase: str) -> None:
        """Aircraft of `power` are about to fly to `place` (not in a raid); a game where flying into another's land
        is itself an act of war (the Expanded Global's Surprise Attack) acts here, before the path is checked."""

    def check_land_destination(self, state: State, power: str, place: str, phase: str) -> None:
        """Where land units may end a move: into an attack in combat move (BG-02), onto friendly land in
        non-combat (BG-08), never onto a neutral's land, nor into a neutral country the map closes (CL-10)."""
        if self.neutral_closed(state, place):
            raise self.neutral_refusal(place, "land units may not enter it")
        if self.is_neutral_land(state, power, place) and not self.neutral_passage(state, power, place, "Land"):
            raise self.not_at_war(state, power, place)
        if phase == "combat_move":
            if not self.is_attack(state, power, place):
                raise RuleViolation(f"{place} is not hostile: a combat move must end in an attack; "
                                    "move there with ncm in the non-combat phase", "BG-02")
        elif not self.is_passable_land(state, power, place) or self.hostile_units(state, power, place):
            raise RuleViolation(f"land units may not enter hostile {place} in non-combat", "BG-08")

    def not_at_war(self, state: State, power: str, place: str, verb: str = "enter") -> RuleViolation:
        """Why `power` may not enter (or fly over, `verb`) `place` of a power that is neither its ally nor its enemy
        (BG-02): a power not yet at war enters no other power's territory; one at war enters its own and its
        allies' land and attacks its enemies'. Then the declaration that would open it, if the map has one. A game
        with its own rule for it overrides this."""
        owner = self.owner(state, place) or ""
        if not self.enemies_of(state, power):
            text = (f"{power} may not {verb} {place}, which belongs to {owner}: a power that is not at war yet may "
                    "not move into territory of another power that is not its ally")
        else:
            text = (f"{power} may not {verb} {place}, which belongs to {owner}: {power} and {owner} are neither "
                    "allies nor at war, and units enter only their own and allied territories or attack an enemy's")
        if self.war_actions(power, owner):
            text += f"; to attack it, declare war first (`war {owner}`)"
        return RuleViolation(text, "BG-02")

    def neutral_passage(self, state: State, power: str, place: str, kind: str) -> bool:
        """Land of a power `power` is not at war with that the map's relationship still opens to it
        (RelationshipTypeAttachment canMove{kind}UnitsOverOwnedLand, kind "Land" or "Air"; "Landing" for
        canLandAirUnitsOnOwnedLand): China's land units may enter British Burma, with which it is Concordant."""
        owner = self.owner(state, place)
        if owner is None or not self.is_neutral_land(state, power, place):
            return False
        option = "canLandAirUnitsOnOwnedLand" if kind == "Landing" else f"canMove{kind}UnitsOverOwnedLand"
        return self.relation_option(state, power, owner, option).lower() == "true"

    def closed_to_aircraft(self, state: State, power: str, place: str, option: str) -> bool:
        """Land of a friendly power that the map's relationship still closes to `power`'s aircraft (an allied type
        whose canMoveAirUnitsOverOwnedLand or canLandAirUnitsOnOwnedLand is false, as TripleA reads it): a
        neutral that sides with it (Friendly_Neutral) is neither flown over nor landed in until its land units
        take it (BG-41, AU-122)."""
        owner = self.owner(state, place)
        return (owner is not None and owner != power and not self.is_water(place) and self.friendly(state, power, owner)
                and self.relation_option(state, power, owner, option).lower() == "false")

    def is_passable_land(self, state: State, power: str, place: str) -> bool:
        """Land a power's land units may move through or into without a battle."""
        return self.is_friendly_land(state, power, place) or self.neutral_passage(state, power, place, "Land")

    def player_rules(self, power: str):
        """The power's own RulesAttachment (TripleA names it "rulesAttachment"): its movement and placement limits."""
        return next((a for a in self.scenario.attachments_of("condition", power) if a.name == "rulesAttachment"), None)

    def movement_limits(self, state: State, power: str) -> tuple[str, set[str]] | None:
        """The map's limits on where a power's units go (its RulesAttachment movementRestrictionType "allowed" or
        "disallowed" over movementRestrictionTerritories): China stays in China and Burma; until at war, US and
        Japanese ships keep out of each other's waters. A trigger may change them (state.switches)."""
        limits = self.player_rules(power)
        if limits is None:
            return None
        key = f"{power}:rulesAttachment:"
        places = state.switches.get(key + "movementRestrictionTerritories", limits.value("movementRestrictionTerritories"))
        kind = state.switches.get(key + "movementRestrictionType", limits.value("movementRestrictionType"))
        names = {p for p in str(places).split(":") if p}
        return (str(kind), names) if names and kind in ("allowed", "disallowed") else None

    def places_without_factory(self, state: State, power: str, place: str) -> int | None:
        """How many units `power` may place in `place` without a factory (None: only at factories). From the
        map's RulesAttachment of the power: placementAnyTerritory (China places in any territory it holds),
        placementCapturedTerritory (also those taken this turn), placementPerTerritory (the most per territory,
        capped by the family's placed_per_territory)."""
        rules = self.player_rules(power)
        if rules is None or rules.value("placementAnyTerritory").lower() != "true":
            return None
        if self.is_water(place) or state.owners.get(place) != power:
            return None
        if place in state.conquered and rules.value("placementCapturedTerritory").lower() != "true":
            return None
        limit = rules.value("placementPerTerritory")
        mapped = int(limit) if limit.isdigit() else 10**6
        return mapped if self.placed_per_territory is None else min(mapped, self.placed_per_territory)

    def check_movement_limits(self, state: State, power: str, path: list[str]) -> None:
        """RULINGS.md "movement-limits": with an allowed list every place a move enters is on it; a disallowed
        place is one a move may not end in."""
        limits = self.movement_limits(state, power)
        if limits is None:
            return
        kind, names = limits
        if kind == "allowed":
            outside = next((p for p in path[1:] if p not in names), None)
            if outside:
                raise RuleViolation(f"{possessive(power, the=True)} units may not enter {outside}: they move only within "
                                    f"{', '.join(sorted(names))}", "BG-03")
        elif path[-1] in names:
            raise RuleViolation(f"{possessive(power, the=True)} units may not end a move in {path[-1]} (a limit the map's rules set "
                                f"for {power})", "BG-03")

    def air_passable(self, state: State, power: str, place: str) -> bool:
        """BG-41: aircraft may not fly over a neutral's land (a game that allows it overrides this), nor over a
        neutral country the map closes (CL-10)."""
        if self.neutral_closed(state, place) or self.closed_to_aircraft(state, power, place, "canMoveAirUnitsOverOwnedLand"):
            return False
        return (self.is_water(place) or not self.is_neutral_land(state, power, place)
                or self.neutral_passage(state, power, place, "Air"))

    def crossing_closed(self, state: State, power: str, a: str, b: str) -> RuleViolation | None:
        """Why land and air units of `power` may not go straight from `a` to its neighbour `b` now, or None. The
        base game closes no border; a game whose straits open only to those who hold both sides says why."""
        return None

    def check_canal(self, state: State, power: str, canal: Canal, a: str, b: str) -> None:
        """Ships pass a canal (here from `a` to `b`) only where each of its land territories is held by the mover
        or an ally and was not taken this turn (TripleA's canal rule)."""
        for land in canal.land_territories:
            if not self.is_friendly_land(state, power, land) or land in state.conquered:
                raise RuleViolation(f"the {canal.name} between {a} and {b} needs {land} held by "
                                    f"{power} or an ally since the start of the turn", "BG-07")

    def closed_to_ships(self, state: State, power: str, place: str) -> bool:
        """CL-12: a sea zone an enemy holds (a convoy zone) that ships may not enter in the non-combat move, where
        the map's "Naval Units May Not NonCombat Move Into Controlled Sea Zones" is on (TripleA's MoveValidator:
        "controlled" is the zone's owner, whatever units are there)."""
        return (self.prop("Naval Units May Not NonCombat Move Into Controlled Sea Zones") and self.is_water(place)
                and self.is_hostile_land(state, power, place))

    def takes_sea_zone(self, state: State, power: str, zone: str, units: list[Unit], submerged: list[Unit] = ()) -> bool:
        """CL-15: `units` of `power` take an enemy's convoy zone (a sea zone with a value, held by a power at war
        with it) where no enemy unit is left: ships do, transports do not (TripleA's BattleTracker.takeOver with
        "Transport Control Sea Zone" and "Sub Control Sea Zone Restricted" off). Sea zones without a value (the G40
        maps' kamikaze zones) never change hands."""
        return (self.is_enemy_convoy_zone(state, power, zone)
                and not [u for u in self.hostile_units(state, power, zone) if u not in submerged]
                and any(self.ut(u).domain == "sea" and not self.is_transport(u) for u in units))

    def is_enemy_convoy_zone(self, state: State, power: str, zone: str) -> bool:
        """CL-15: a sea zone with a value held by a power at war with `power`."""
        return self.is_water(zone) and self.scenario.territory(zone).production > 0 and self.is_hostile_land(
            state, power, zone)

    def check_sea_path(self, state: State, power: str, ships: list[Unit], path: list[str]) -> None:
        """A game's own limits on a voyage of `ships` along `path` (sea zones, the start first), such as a sea
        zone ships must stop in; the base game has none beyond enemy warships and canals (movement.py)."""

    def capital_of(self, power: str) -> str | None:
        for t in self.scenario.territories:
            if t.capital == power:
                return t.name
        return None

    def can_collect_income(self, state: State, power: str) -> bool:
        """BG-37: a power whose capital is held by someone else collects nothing."""
        capital = self.capital_of(power)
        return capital is None or state.owners.get(capital) == power

    # -- kamikaze: the map's zones and tokens (played by combat.kamikaze_strikes; RULINGS.md "kamikaze") ------

    def kamikaze_zones(self) -> list[str]:
        """The sea zones where kamikaze strikes may be made: a TerritoryAttachment's kamikazeZone, or a trigger that
        sets it as the game starts (the 2nd-edition map's way); none where "Use Kamikaze Suicide Attacks" is off."""
        if not self.prop("Use Kamikaze Suicide Attacks"):
            return []
        zones = [t.name for t in self.scenario.territories
                 if str((t.options.get("kamikazeZone") or [""])[-1]).lower() == "true"]
        for trigger in self.scenario.attachments_of("trigger"):
            if (any(w.endswith(":gameInitDelegate") for w in trigger.values("when"))
                    and any(n == "territoryProperty" and v == "kamikazeZone" and c.lower() == "true"
                            for n, v, c in trigger.options)):
                zones += trigger.names("territories")
        return list(dict.fromkeys(zones))

    def kamikaze_striker(self, state: State, zone: str) -> str | None:
        """Who may strike in a kamikaze zone: its original owner, or its owner now where the map says so."""
        if self.prop("Kamikaze Suicide Attacks Done By Current Territory Owner"):
            return state.owners.get(zone)
        return self.original_owner(state, zone)

    def original_owner(self, state: State, place: str) -> str | None:
        """Who held `place` as the game began: the state's record (land), else the map's (sea zones too)."""
        return state.original_owners.get(place) or self.scenario.territory(place).original_owner

    def suicide_attack(self, power: str) -> tuple[str, int] | None:
        """The resource `power` spends on strikes and the strikes' attack value (PlayerAttachment
        suicideAttackResources, "2:SuicideAttackTokens"), if its map gives it any of that resource."""
        try:
            values = self.scenario.player(power).options.get("suicideAttackResources", [])
        except KeyError:
            return None
        strength, _, resource = (values[-1] if values else "").partition(":")
        if not resource or not strength.isdigit() or resource not in self.scenario.tokens.get(power, {}):
            return None
        return resource, int(strength)

    def kamikaze_tokens(self, state: State, power: str) -> int:
        """Tokens `power` has left: the map's starting amount less those spent (State.spent "kamikaze:POWER")."""
        found = self.suicide_attack(power)
        start = self.scenario.tokens.get(power, {}).get(found[0], 0) if found else 0
        return max(start - state.spent.get(f"kamikaze:{power}", 0), 0)

    def status_fields(self, state: State) -> dict:
        """`status --json`: each power's kamikaze tokens left, where the game has kamikaze zones."""
        zones = self.kamikaze_zones()
        strikers = sorted({p for z in zones if (p := self.kamikaze_striker(state, z)) and self.suicide_attack(p)})
        if not strikers:
            return {}
        return {"kamikaze": {p: {"tokens": self.kamikaze_tokens(state, p), "attack": self.suicide_attack(p)[1],
                                 "zones": [z for z in zones if self.kamikaze_striker(state, z) == p]} for p in strikers}}

    # -- hooks a game overrides ---------------------------------------------------------------------

    def raiding(self, state: State, power: str, place: str) -> None:
        """A raid of `power` on `place` is about to be checked: a game in which an attack without a war is legal,
        with a penalty, starts that war here; the base game leaves the check to refuse it (BG-27)."""

    def raid_cost(self, state: State, power: str, dealt: int, paid: int) -> dict:
        """What a raid on a territory costs its owner besides the PUs and the map's victory points (CL-25), in a
        game whose raids cost more: `dealt` is what the bombers scored after the map's caps, `paid` what left the
        treasury (never below 0). Answers what the raid's damage record adds; nothing in the maps' games."""
        return {}

    def game_order(self, state: State, power: str, order) -> dict:
        """Play an order of a verb the game registered itself (verbs()); returns the report event."""
        raise RuleViolation(f"`{order.name}` orders are not part of this game")

    def frontier(self, state: State, power: str) -> str:
        """The production frontier (purchase list) `power` buys from now: the map's, or one a trigger set."""
        return str(state.switches.get(f"{power}:frontier") or self.scenario.player_production.get(power, ""))

    def check_purchase(self, state: State, power: str, units: dict[str, int]) -> None:
        """A game's own limits on buying `units` on top of what `power` has bought and not placed yet (China's
        Allied Materials); the base game has none beyond the purchase list and the treasury (economy.py)."""

    def check_placement(self, state: State, power: str, place: str, units: dict[str, int]) -> None:
        """A game's own limits on placing `units` in `place`, on top of what `power` placed there this turn; the
        base game has none beyond factories and their capacity (economy.py)."""

    def declaration_rule(self, power: str) -> str:
        """The ledger id a refused declaration of war by `power` cites; a game with its own rows overrides it."""
        return "BG-02"

    def may_declare_war(self, state: State, power: str, target: str) -> None:
        """Raise RuleViolation if `power` may not declare war on `target` now (BG-02)."""
        if target == power:
            raise RuleViolation("a power cannot declare war on itself", "BG-02")
        if self.at_war(state, power, target):
            raise RuleViolation(f"{power} is already at war with {target}", "BG-02")
        if self.friendly(state, power, target):
            raise RuleViolation(f"{power} and {target} are allies", "BG-02")

    def supports(self) -> list:
        """The map's support attachments that are played (BG-24); a game whose rulebook knows fewer drops some."""
        return self.scenario.supports

    def unit_value(self, unit: Unit, role: str) -> int:
        """A unit's attack or defence; a marine that came ashore from the sea this turn attacks higher by the map's
        `isMarine` (CL-21; TripleA reads "true" as 1)."""
        t = self.ut(unit)
        if role != "attacker":
            return t.defense
        return t.attack + (self.marine_bonus(unit) if unit.flags.get("amphibious") else 0)

    # -- a game's improvements of a power's units (the Expanded Global's technologies); none in the families ----

    def battle_value(self, state: State, unit: Unit, role: str, enemies: list[Unit]) -> int:
        """A unit's attack or defence in a battle against `enemies`: its value in its role (unit_value)."""
        return self.unit_value(unit, role)

    def may_target(self, state: State, shooter: Unit, target: Unit, role: str) -> bool:
        """Whether a hit of `shooter` in `role` may fall on `target`, beyond BG-18 (can_hit): always here."""
        return True

    def battle_dice(self, state: State, unit: Unit, role: str) -> int:
        """Dice `unit` rolls in a combat round, keeping the best (lowest): one here."""
        return 1

    def support_number(self, state: State | None, support, provider: Unit) -> int:
        """How many units one `provider` lifts by a support attachment (BG-24): the map's `number`."""
        return support.number

    def aa_value(self, state: State, gun: Unit) -> int:
        """What an AA gun (or a facility's AA) hits on: the map's attackAA (1)."""
        return self.number(gun, "attackAA", 1)

    def production_bonus(self, state: State, factory: Unit) -> int:
        """Units a factory mobilises beyond its production (BG-35): none here."""
        return 0

    def adjust_prices(self, state: State, power: str, prices: dict[str, int]) -> dict[str, int]:
        """`power`'s purchase list after the game's own price changes: the map's here."""
        return prices

    def blitzes_alone(self, state: State, unit: Unit) -> bool:
        """Whether `unit` may blitz without a unit to pair with (BG-04), beyond the map's canBlitz: no here."""
        return False

    def defends_at_one(self, state: State, mover: str, unit: Unit) -> bool:
        """CL-26: in the first round of the game, units defending against a power whose RulesAttachment has
        `dominatingFirstRoundAttack` (the Pacific's Japanese surprise attack) hit only on 1, unless their owner's
        has `negateDominatingFirstRoundAttack` (China) — TripleA's DiceRoll."""
        return (state.round == 1 and self._rules_option(mover, "dominatingFirstRoundAttack")
                and not self._rules_option(unit.owner, "negateDominatingFirstRoundAttack"))

    def _rules_option(self, power: str, option: str) -> bool:
        """A true/false option of the power's RulesAttachment, read once: battles ask for every die."""
        key = (power, option)
        if key not in self._rules_options:
            found = self.player_rules(power)
            self._rules_options[key] = found is not None and found.value(option).lower() == "true"
        return self._rules_options[key]

    def marine_bonus(self, unit: Unit) -> int:
        """The unit option `isMarine`: what the unit adds to its attack in an amphibious assault ("true": 1)."""
        value = (self.ut(unit).options.get("isMarine") or ["0"])[-1].strip().lower()
        return 1 if value == "true" else self.number(unit, "isMarine", 0)

    def bombard_value(self, unit: Unit) -> int:
        """CL-14: a ship bombards at the map's `bombard` value where it gives one (TripleA's default: its attack)."""
        return self.number(unit, "bombard", self.unit_value(unit, "attacker"))

    def capture_goes_to(self, state: State, power: str, place: str) -> str:
        """BG-40: liberated territory returns to a friendly original owner that can still collect income (a power
        that takes turns); its capital always returns to it, and with it the income. Otherwise the map may name who receives what a
        power captures there (TerritoryAttachment whenCapturedByGoesTo)."""
        original = self.original_owner(state, place)
        if (original and original != power and self.friendly(state, power, original)
                and original in self.scenario.turn_players()      # the Dutch take no turns and collect nothing
                and (self.can_collect_income(state, original) or self.capital_of(original) == place)):
            return original
        for value in self.scenario.territory(place).options.get("whenCapturedByGoesTo", []):
            captor, _, receiver = value.partition(":")
            if captor == power and receiver:
                return receiver       # the map's split economies: British captures in the Pacific go to UK_Pacific
        return power

    def placed_owner(self, power: str, unit_type: str, place: str) -> str:
        """Who owns a unit (`unit_type`; "": any unit) that `power` mobilises in `place`: the power itself, but for
        a power whose map gives its units to another (PlayerAttachment giveUnitControl: on the G40 maps
        UK_Pacific's new units are British wherever they are placed, as its starting units are, so that the
        British move them); facilities stay the placer's. A family that reads the map's territories overrides it."""
        if unit_type and self.ut(unit_type).has("infrastructure"):
            return power
        try:
            given = [n for v in self.scenario.player(power).options.get("giveUnitControl", []) for n in v.split(":") if n]
        except KeyError:
            return power
        return given[0] if given else power

    def capture_bonus(self, state: State, captor: str, place: str, previous: str | None) -> dict:
        """PUs paid for taking `place` (G40 Alt-Universe's city and factory bonuses); the base game has none.
        Returns what the capture event reports."""
        return {}

    def new_factory_placed(self, state: State, place: str) -> None:
        """Called when a new factory (not an upgrade) is placed: a game that keeps per-factory records resets them."""

    def check_move(self, state: State, power: str, units: list[Unit], path: list[str], phase: str) -> None:
        """A game's own limits on a move, knowing the units and the phase (French units at low escalation); the
        base game has none beyond those movement.py checks."""

    def declared_war(self, state: State, power: str, target: str, event: dict) -> list[dict]:
        """`power` has just declared war on `target` (`event`, the declaration's, which a game may add to); a game
        that counts a declaration as an attack answers with the events."""
        return []

    def flying_over_attacks(self, state: State, power: str, place: str) -> bool:
        """Whether aircraft of `power` crossing `place` attack it (flown_over); never in the base game."""
        return False

    def flown_over(self, state: State, power: str, path: list[str]) -> list[dict]:
        """Aircraft of `power` flew `path`, crossing the places between its ends. A game where flying over a
        neutral counts as attacking it answers with the events; the base game forbids it (air_passable)."""
        return []

    def after_battle(self, state: State, power: str, place: str, outcome: dict) -> list[dict]:
        """`power` attacked `place` (a battle fought, or an empty territory taken on the move); `outcome` is the
        battle event. A game that keeps records of attacks (who attacked a neutral first) answers with events."""
        return []

    def end_of_turn(self, state: State, power: str) -> list[dict]:
        """A game's own rule that acts as `power`'s turn ends, after its income (the Alt-Universe Flying Tigers'
        recall); the base game has none."""
        return []

    def plays_trigger(self, trigger) -> bool:
        """Whether a map trigger is played; a game whose rulebook replaces a trigger's rule says no."""
        return True

    # A game that decides declarations of war by its rulebook in may_declare_war sets this: the map's political
    # actions then bring only the relationships a declaration changes, not its conditions.
    declarations_by_rulebook = False

    def takes_treasury_on_capture(self, place: str, previous_owner: str) -> bool:
        return self.scenario.territory(place).capital == previous_owner
