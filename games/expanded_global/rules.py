"""The Expanded Global Scenario's own rules: the G40 2nd-edition base rules (EG-28) with the game's turn.

A nation's turn (EG-07 … EG-10; RULINGS.md "turn") is the Agenda Phase, its six steps in EG-09's order, then the
Combat Phase: the phases `scenario.TURN_PHASES`, played by the map driver (adjudicator/rules/turn.py) like any G40
turn. Purchase and Repair is the G40 purchase phase with two changes:

* Peacetime Spending (EG-29; RULINGS.md "peacetime-spending"): a nation at war with no one spends at most half its
  total income, rounded down, in Purchase and Repair — on units and on repairs together;
* the repair fee (EG-30; RULINGS.md "repair-fee"): a damaged battleship or carrier is repaired by a `repair` order for
  5 IPCs a unit, where a naval base serves it; nothing is repaired free as the turn starts (BG-21 is replaced).

The Agenda's other steps and the Combat Phase's additions each live in their own module, reached through the
hooks below:

* Resolving Surrenders and Armistices: offers and answers (politics.py's agreements), surrenders (surrender.py),
  armistices (armistice.py);
* Technology Research and Exchange: `research N chart C`, its dice rolled as the step ends, and each technology
  read where its rule asks (research.py, tech.py); exchanges (armistice.py);
* Collect and Spend Influence: Influence and markers (influence.py), insurgents (insurgents.py), who fight as
  Conduct Combat begins;
* Make Alliances and Declare War (politics.py); attacks at sea and Surprise Attacks (war.py);
* Resolve Strikes, closing the combat move: missiles and nuclear weapons (strikes.py);
* victory, checked as each round ends (victory.py).
"""

from __future__ import annotations

from adjudicator.errors import ILLEGAL, OrderError
from adjudicator.notation.orders import GameVerb, Repair
from adjudicator.rules import turn
from adjudicator.rules.economy import price_list
from adjudicator.rules.facts import RuleViolation
from adjudicator.rules.g40_family import G40Rules
from adjudicator.state import State

from . import armistice, influence, insurgents, nations, politics, research, strikes, surrender, victory, view, war
from .names import NAMES

REPAIR_FEE = 5                      # EG-30: IPCs a battleship or carrier, whatever its damage
PEACETIME_CAP = "peacetime-cap:{}"  # State.spent: a nation at peace's cap this turn, set as its Purchase begins
PEACETIME_SPENT = "peacetime:{}"    # State.spent: IPCs a nation has spent in this turn's Purchase and Repair


class ExpandedGlobalRules(G40Rules):
    """The G40 base rules with the Expanded Global turn: the Agenda, Peacetime Spending, the repair fee."""

    name = "expanded-global"
    title = "Expanded Global Scenario"
    phase_titles = {"purchase": "Purchase and repair"}
    # An insurgency (insurgents.py) takes nothing: the Insurgents win (the territory turns neutral, as the line after
    # the battle says) or lose, never capture or defend as a battle's sides do (EG-58)
    battle_words = {"insurgency": {"attacker": "{power} Insurgents", "captured": "the Insurgents win",
                                   "defended": "the insurgency is put down",
                                   "destroyed": "the Insurgents and the defenders are all destroyed: the insurgency "
                                                "fails"}}
    people_names = NAMES
    takes_bids = False

    def verbs(self):
        """The G40 verbs; the Agenda's order is binding (EG-09): an order of a step already over cites it."""
        reg = politics.add_verbs(super().verbs().copy())     # war, ally, leave, accept, refuse (politics.py)
        reg.order_rule = "EG-09"
        influence.register(reg)             # `influence`, `influence N NEUTRAL` (influence.py)
        war.register(reg)                   # `attack [NATION] ZONE` (war.py)
        armistice.register(reg)             # `armistice NATION TERMS`, `exchange NATION TERMS` (armistice.py)
        research.register(reg)              # `research N chart C` (research.py)
        strikes.register(reg)               # `strike …`, `stockpile N …` (strikes.py)
        insurgents.register(reg)            # `insurgents N TERRITORY` (insurgents.py)
        surrender.register(reg)             # `surrender NATION`, `halt PLACE` (surrender.py)
        return reg

    # -- wars and alliances (politics.py) ---------------------------------------------------------------

    def game_order(self, state: State, power: str, order) -> dict:
        if order.name == influence.VERB:
            return influence.order(self, state, power, order)
        if order.name == research.VERB:
            return research.order(self, state, power, order)
        if order.name == insurgents.VERB:
            return insurgents.buy(self, state, power, order.args["count"], order.args["place"])
        if order.name == war.VERB:
            return war.attack(self, state, power, order.args["place"], order.args.get("nation"))
        if order.name in armistice.VERBS:
            return armistice.order(self, state, power, order)
        if order.name == strikes.VERB:
            return strikes.strike(self, state, power, order.args)
        if order.name == strikes.STOCK_VERB:
            return strikes.stockpile(self, state, power, order.args["count"], order.args["weapon"])
        if order.name == "ally":
            return politics.offer(self, state, power, order.args["nation"])
        if order.name == "draw":
            return politics.offer_draw(self, state, power)
        if order.name == surrender.SURRENDER:
            return surrender.offer(self, state, power, order.args["nation"])
        if order.name == surrender.HALT:
            return surrender.order_halt(self, state, power, order.args["place"])
        return super().game_order(state, power, order)

    def check(self, state: State, orders: list, ended: bool) -> list:
        """The turn's errors; a retreat from an insurgency is refused for what it is (EG-57; insurgents.py)."""
        return insurgents.retreat_errors(state, orders, super().check(state, orders, ended))

    def combat_begins(self, state: State, power: str, roller) -> list[dict]:
        """The nation's insurgencies, before any other battle (EG-56 … EG-58; insurgents.py)."""
        return insurgents.combat_begins(self, state, power, roller)

    def check_standing(self, state: State, power: str, orders: list) -> list:
        """The G40 standing orders, and the game's own: answers to alliance offers and departures (politics.py)."""
        own = [o for o in orders if isinstance(o, GameVerb)]
        errors = super().check_standing(state, power, [o for o in orders if o not in own])
        answered: set[str] = set()
        for o in own:
            try:
                politics.check_standing(self, state, power, o, answered)
            except RuleViolation as exc:
                errors.append(OrderError(ILLEGAL, exc.message, o.line, o.column, o.source, rule=exc.rule))
        return errors

    def file_standing(self, state: State, power: str, order) -> None:
        politics.file_standing(self, state, power, order)

    def combat_allowed(self, state: State, power: str, other: str) -> bool:
        """At war with `other`, and combat between them allowed (EG-65: from the round after the declaration, or
        at once after a Surprise Attack): what a player, or tests/legal_turns.py, may attack without one."""
        return politics.combat_allowed(self, state, power, other)

    def may_declare_war(self, state: State, power: str, target: str) -> None:
        politics.may_declare_war(self, state, power, target)

    def declared_war(self, state: State, power: str, target: str, event: dict) -> list[dict]:
        politics.declared_war(self, state, power, target, event)
        return []

    def fights(self, state: State, a: str, b: str) -> bool:
        """Units stop, block and fight only with combat allowed (RULINGS.md "eg-shared-sea-zones"; war.py)."""
        return politics.combat_allowed(self, state, a, b)

    def raiding(self, state: State, power: str, place: str) -> None:
        war.raiding(self, state, power, place)     # a Surprise Attack (EG-66), not a refusal

    def check_air_destination(self, state: State, power: str, place: str, phase: str) -> None:
        insurgents.check_destination(state, power, place, phase)   # EG-56: an insurgency is fought alone
        politics.entering(self, state, power, place, phase)        # a Surprise Attack by air (EG-66)

    def air_passable(self, state: State, power: str, place: str) -> bool:
        """BG-41: no neutral is flown over or into, save one `power` attacks this turn (politics.air_open)."""
        return super().air_passable(state, power, place) and politics.air_open(self, state, power, place)

    def check_land_destination(self, state: State, power: str, place: str, phase: str) -> None:
        insurgents.check_destination(state, power, place, phase)   # EG-56: an insurgency is fought alone
        politics.entering(self, state, power, place, phase)        # a Surprise Attack (EG-66), not a refusal
        super().check_land_destination(state, power, place, phase)

    # -- technologies (research.py): research as its step ends; each technology read where its rule asks ----

    def battle_value(self, state: State, unit, role: str, enemies: list) -> int:
        return research.battle_value(self, state, unit, role, enemies, super().battle_value(state, unit, role, enemies))

    def may_target(self, state: State, shooter, target, role: str) -> bool:
        return super().may_target(state, shooter, target, role) and research.may_target(self, state, shooter, target,
                                                                                         role)

    def battle_dice(self, state: State, unit, role: str) -> int:
        return max(super().battle_dice(state, unit, role), research.battle_dice(self, state, unit, role))

    def start_bonus(self, state: State, unit) -> int:
        return super().start_bonus(state, unit) + research.start_bonus(self, state, unit)

    def support_number(self, state, support, provider) -> int:
        return research.support_number(self, state, support, provider)

    def aa_value(self, state: State, gun) -> int:
        return research.aa_value(self, state, gun, super().aa_value(state, gun))

    def production_bonus(self, state: State, factory) -> int:
        return super().production_bonus(state, factory) + research.production_bonus(self, state, factory)

    def adjust_prices(self, state: State, power: str, prices: dict[str, int]) -> dict[str, int]:
        return research.prices(self, state, power, super().adjust_prices(state, power, prices))

    def blitzes_alone(self, state: State, unit) -> bool:
        return super().blitzes_alone(state, unit) or research.blitzes_alone(self, state, unit)

    # -- nations and their land (nations.py) ------------------------------------------------------------

    def not_at_war(self, state: State, power: str, place: str, verb: str = "enter") -> RuleViolation:
        """A nation's land is closed without an alliance or combat allowed: EG-05, not G40's BG-02."""
        return nations.not_allied(self, state, power, place, verb) or super().not_at_war(state, power, place, verb)

    def check_placement(self, state: State, power: str, place: str, units: dict[str, int]) -> None:
        super().check_placement(state, power, place, units)
        nations.check_factories(self, state, power, place, units)       # EG-04

    def check_move(self, state: State, power: str, units: list, path: list[str], phase: str) -> None:
        super().check_move(state, power, units, path, phase)
        nations.check_move(self, state, power, units, path, phase)      # EG-05 while combat is not allowed yet
        surrender.check_move(self, state, power, units, path)           # EG-20: units halted by a victor

    def neutral_passage(self, state: State, power: str, place: str, kind: str) -> bool:
        """EG-19: a victor under Political surrender terms moves freely into and through the loser's land, by land
        and by air, and lands there (its air bases)."""
        return super().neutral_passage(state, power, place, kind) or (
            self.is_neutral_land(state, power, place)
            and surrender.free_passage(state, power, self.owner(state, place)))

    def income(self, state: State, power: str) -> tuple[int, list[dict]]:
        """G40's income, plus the income of the territories of a nation that surrendered on Political terms (EG-19)."""
        total, lines = super().income(state, power)
        extra, more = surrender.income_lines(self, state, power)
        return total + extra, lines + more

    # -- influence and victory (influence.py, victory.py) ---------------------------------------------

    def after_battle(self, state: State, power: str, place: str, outcome: dict) -> list[dict]:
        """A neutral conquered loses every nation's Influence markers on it (RULINGS.md "eg-neutrals"); a loser's
        capital freed ends Political surrender terms at once (RULINGS.md "surrenders")."""
        return (super().after_battle(state, power, place, outcome) + influence.conquered(self, state, place)
                + surrender.capital_lost(self, state))         # EG-21: Political terms end with the capital

    def check_victory(self, state: State, power: str) -> list[dict]:
        """RULINGS.md "eg-victory", checked as each round ends (victory.py)."""
        return victory.check(self, state, power)

    def victory_status(self, state: State) -> dict:
        return victory.status(self, state)

    def victory_city_goals(self, owners: dict[str, str]) -> list[str]:
        """Its victory is its own (victory_status), not the map's triggers nor a count of cities."""
        return []

    def position_lines(self, state: State) -> list[str]:
        """Nations with their money, income, Influence and alliance; alliances, wars, offers, markers (view.py)."""
        return view.position_lines(self, state)

    def status_fields(self, state: State) -> dict:
        """`status`: every nation's stored Influence and its markers on every neutral ("eg-competing-markers"), the
        alliances, the pending offers, armistices, technologies, nuclear stocks, insurgents waiting to fight, the
        surrenders' lasting effects (Political terms, halts, Original Territories gained by Land terms), and the same
        as sentences under the table ("notes", with the stored Influence the table of `status` has no column for)."""
        stored = {n: state.spent.get(influence.POOL.format(n), 0) for n in politics.nations(self)}
        return {**super().status_fields(state), "influence_markers": influence.markers(state),
                "influence": stored,
                "alliances": view.alliances(self, state), "offers": politics.offers(state),
                **armistice.status(self, state),
                "technologies": research.held(self, state, politics.nations(self)),
                "nuclear_stock": strikes.stocks(self, state),
                "insurgents": {f"{n}:{p}": k for (n, p), k in insurgents.pending(state).items()},
                **surrender.status(self, state),
                "notes": view.notes(self, state) + view.stored_influence(stored)}

    # -- the turn -------------------------------------------------------------------------------------

    def turn_start(self, state: State, power: str) -> list[dict]:
        """Nothing as the turn starts: G40's free repair at a naval base (BG-21) is replaced by the repair fee
        (EG-30), paid with a `repair` order in Purchase and Repair. The nation's alliance offers still unanswered
        end, refused by silence (EG-60), and departures filed outside their turn take effect (EG-63); armistice
        income held for it arrives (EG-27), and Political surrender terms whose capital is free again end (EG-21)."""
        return (politics.turn_start(self, state, power) + armistice.turn_start(self, state, power)
                + surrender.turn_start(self, state, power))

    def phase_start(self, state: State, power: str, phase: str) -> list[dict]:
        """As Purchase and Repair begins, the nation's war status is taken for the whole turn (RULINGS.md
        "at-war"): at peace, its cap is half its income then, rounded down (EG-29); the report says which. As
        Make Alliances begins, the nation's answers to alliance offers take effect (EG-60, EG-61); as the battles
        begin, the Surprise Attacks of the combat move are reported (EG-66, EG-67)."""
        if phase == "alliances":
            return politics.alliances_start(self, state, power)
        if phase == "surrenders":       # answers to offers of the kinds answered here (surrenders, armistices)
            return (politics.answers_take_effect(self, state, power, "surrenders")
                    + surrender.lapse_at_peace(self, state)       # EG-11: no surrender once at peace
                    + surrender.below_threshold(self, state, power))
        if phase == "research":         # answers to technology exchanges (armistice.py)
            return politics.answers_take_effect(self, state, power, "research")
        if phase == "battle":
            return politics.surprise_reports(state, power)
        if phase != "purchase":
            return []
        enemies = self.nations_at_war_with(state, power)
        income = self.income(state, power)[0]
        state.spent.pop(PEACETIME_SPENT.format(power), None)
        if enemies:
            state.spent.pop(PEACETIME_CAP.format(power), None)
            return [{"type": "spending", "power": power, "at_war_with": enemies, "cap": None}]
        state.spent[PEACETIME_CAP.format(power)] = income // 2
        return [{"type": "spending", "power": power, "at_war_with": [], "income": income, "cap": income // 2}]

    def phase_end(self, state: State, power: str, phase: str, roller) -> list[dict]:
        """The research dice close the research step (research.py; RULINGS.md "eg-research"); the Resolve Strikes
        step closes the combat move (strikes.py; RULINGS.md "eg-resolve-strikes")."""
        events = super().phase_end(state, power, phase, roller)
        if phase == "research":
            events += research.roll(self, state, power, roller)
        return events + strikes.phase_end(self, state, power, phase, roller)

    def turn_end(self, state: State, roller) -> list[dict]:
        """G40's end of turn; a nation at peace this turn collects half its income, rounded down, after convoy
        losses (RULINGS.md "peacetime-spending", "eg-income"): the other half is not collected."""
        power = state.power
        cap_key = PEACETIME_CAP.format(power)
        peace = cap_key in state.spent
        taken = influence.taken(state, power)      # read before end_of_turn clears it
        interned = nations.intern(self, state, power)      # EG-63: before the next nation's turn starts
        politics.neutrals_at_peace(self, state, power)
        events = interned + super().turn_end(state, roller)
        if peace:
            income = next((e for e in events if e["type"] == "income" and e["power"] == power), None)
            if income is not None and income["income"] > 0:
                cut = income["income"] - income["income"] // 2
                state.treasury[power] -= cut
                income["income"] -= cut
                income["treasury"] = state.treasury[power]
                income["lines"] = income["lines"] + [{
                    "item": "peacetime", "amount": -cut,
                    "note": f"at peace as this turn's Purchase and Repair began, {power} collect half their income, "
                            f"rounded down: {cut} PUs are "
                            "not collected (EG-29)"}]
        influence.deduct(state, power, events, taken)      # the Influence taken this turn (RULINGS.md "eg-income")
        return events

    def end_of_turn(self, state: State, power: str) -> list[dict]:
        """The records of this turn's Peacetime Spending are cleared; the next Purchase takes them anew."""
        state.spent.pop(PEACETIME_SPENT.format(power), None)
        state.spent.pop(PEACETIME_CAP.format(power), None)
        influence.end_of_turn(state, power)
        strikes.end_of_turn(state, power)
        return super().end_of_turn(state, power)

    # -- Peacetime Spending (EG-29) ---------------------------------------------------------------------

    def nations_at_war_with(self, state: State, power: str) -> list[str]:
        """The nations `power` is at war with: EG-29's "at war" (RULINGS.md "at-war"). Fighting a neutral's
        standing army is not a war: the neutral owners (optional players) do not count."""
        return [p.name for p in self.scenario.players
                if not p.optional and p.name != power and self.at_war(state, power, p.name)]

    def peacetime_limit(self, state: State, power: str) -> int | None:
        """The most `power` may spend in this turn's Purchase and Repair, or None (at war: no cap beyond its
        treasury). Taken as its Purchase began (phase_start); if the cursor stood inside Purchase already, now."""
        key = PEACETIME_CAP.format(power)
        if key in state.spent:
            return state.spent[key]
        if self.nations_at_war_with(state, power):
            return None
        return self.income(state, power)[0] // 2

    def spend(self, state: State, power: str, cost: int, what: str) -> None:
        """Count `cost` IPCs of Purchase and Repair against Peacetime Spending: refused (EG-29) if a nation at peace
        would spend more than half its income this turn; else recorded (the caller pays it next, with nothing
        left to refuse it)."""
        key = PEACETIME_SPENT.format(power)
        spent = state.spent.get(key, 0)
        limit = self.peacetime_limit(state, power)
        if limit is not None and spent + cost > limit:
            raise RuleViolation(
                f"{what} costs {cost} IPCs, but {power} are at war with no nation: in peacetime a nation spends at "
                f"most half its income, rounded down, in Purchase and Repair ({limit} IPCs this turn"
                + (f", {spent} spent already, {max(0, limit - spent)} left" if spent else "")
                + "); what it does not spend stays in its treasury", "EG-29")
        state.spent[key] = spent + cost

    def check_purchase(self, state: State, power: str, units: dict[str, int]) -> None:
        super().check_purchase(state, power, units)
        prices = price_list(self, state, power)
        cost = sum(prices.get(u, 0) * n for u, n in units.items())
        self.spend(state, power, cost, "buying " + ", ".join(f"{n} {u}" for u, n in sorted(units.items())))

    # -- repairs (BG-29 facilities; EG-30 ships) ------------------------------------------------------------

    def repair_order(self, state: State, power: str, order: Repair) -> dict:
        """`repair N SEAZONE [TYPE]` repairs N of the mover's damaged battleships or carriers (of TYPE) in SEAZONE,
        for 5 IPCs each (EG-30; RULINGS.md "repair-fee"); `repair N PLACE [FACILITY]` repairs N damage points of a
        facility for N IPCs, as in G40 (BG-29). Both count against Peacetime Spending (EG-29)."""
        if self.is_water(order.place):
            return self._repair_ships(state, power, order)
        cost = research.facility_repair_cost(state, power, order.count)        # EG-36: 2 damage an IPC
        if state.treasury.get(power, 0) >= cost:        # else BG-29's refusal says what is missing
            key = PEACETIME_SPENT.format(power)
            before = state.spent.get(key, 0)
            self.spend(state, power, cost, order.canonical())
            try:
                return research.facility_repair(self, state, power, order)
            except RuleViolation:
                state.spent[key] = before
                raise
        return research.facility_repair(self, state, power, order)

    def _repair_ships(self, state: State, power: str, order: Repair) -> dict:
        what = order.facility or "battleship or carrier"
        if order.facility is not None and self.ut(order.facility).hit_points < 2:
            raise RuleViolation(f"a {order.facility} is not repaired: only battleships and carriers (two-hit units) "
                                "are, for 5 IPCs each", "EG-30")
        damaged = [u for u in state.units_at(order.place, power) if u.damage and self.ut(u).hit_points >= 2
                   and order.facility in (None, u.type)]
        if not damaged:
            raise RuleViolation(f"{power} have no damaged {what} in {order.place} to repair", "EG-30")
        if self.prop("Two HitPoint Units Require Repair Facilities"):
            served = [u for u in damaged if turn._repairing_base(self, state, u)]
            if not served:
                raise RuleViolation(f"no operative friendly naval base next to {order.place} repairs {power}'s damaged "
                                    f"{what}: ships are repaired where a naval base serves their sea zone "
                                    "(RULINGS.md \"repair-fee\")", "EG-30")
            damaged = served
        if order.count > len(damaged):
            raise RuleViolation(f"{power} have {len(damaged)} damaged {what} in {order.place} that can be repaired, "
                                f"not {order.count}", "EG-30")
        fee = REPAIR_FEE * order.count
        if state.treasury.get(power, 0) < fee:
            raise RuleViolation(f"repairing {order.count} ship{'s' if order.count > 1 else ''} costs {fee} IPCs "
                                f"(5 a unit); {power} have {state.treasury.get(power, 0)}", "EG-30")
        self.spend(state, power, fee, order.canonical())
        events = []
        for u in sorted(damaged, key=lambda u: u.id)[:order.count]:
            u.damage = 0
            state.treasury[power] -= REPAIR_FEE
            events.append({"type": "ship_repaired", "power": power, "place": u.place, "unit": u.type,
                           "base": turn._repairing_base(self, state, u) or "", "fee": REPAIR_FEE,
                           "treasury": state.treasury[power]})
        first, *rest = events
        return {**first, "follows": rest} if rest else first
