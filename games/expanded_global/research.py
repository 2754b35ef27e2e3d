"""Technology research (EG-31 … EG-34) and the effects of the Chart 1 and Chart 2 technologies EG-35 … EG-42
(RULINGS.md "eg-research", "eg-breakthroughs", "eg-tech-effects").

The order of a nation's `research` step, the verb `research` (registered by `register`):

* ``research N chart C`` — buy N research dice at 5 IPCs each, paid from the treasury as the order is carried out
  (EG-31), and name now the chart, 1 or 2, that every breakthrough of this turn is rolled on (EG-33: a forum post
  is a whole turn, so the choice "after a success" is made in the order). One research order a turn.

As the step ends (`roll`, from the rules' phase_end) the N dice are rolled under `research:NATION`; each 6 is a
breakthrough (EG-32). Each breakthrough rolls the chosen chart (EG-34): Chart 1 one die (`chart1:NATION:K`), Chart 2
two dice summed (`chart2:NATION:K`), K counting this turn's chart rolls from 1. A Chart 2 sum of 2–6 (no technology)
or a technology the nation holds already is rolled again under the next K. A technology gained takes effect at once.
Peacetime Spending (EG-29) does not cap research: it caps the Purchase and Repair step, and research is another step
of the Agenda (EG-09).

The effects (`ExpandedGlobalRules` hooks that ask `tech.has`; the shared unit types are never changed):
Advanced Artillery (`support_number`), Increased Factory Production (`production_bonus`, `facility_repair_cost`),
Fighting Transports (`battle_value`, `may_target`), Super Submarines (`battle_value`), Radar (`aa_value`), Improved
Shipyards (`prices`), Improved Mechanized Infantry (`blitzes_alone`), Long Range Bombers (`start_bonus`,
`battle_dice`).

Records: state.switches["research-order:NATION"] = "N:C", the order of this turn until its dice are rolled.
"""

from __future__ import annotations

from adjudicator.rules.facts import RuleViolation
from adjudicator.state import State, Unit

from . import tech
from .phrases import said

VERB = "research"
USAGE = "research N chart 1|2"
DIE_COST = 5                          # EG-31
ORDER = "research-order:{}"
# Chart rolls of one breakthrough: a chart with one technology left to gain gives it within 1,000 rolls but for a
# chance below 1 in 10^12 (Chart 2's 12: 1 in 36 a roll). A guard against a die that never changes (fixed dice in
# tests), not a rule: the report says when it ends a breakthrough.
MAX_CHART_ROLLS = 1000

ADVANCED_ARTILLERY = "Advanced Artillery"
FACTORY_PRODUCTION = "Increased Factory Production"
FIGHTING_TRANSPORTS = "Fighting Transports"
SUPER_SUBMARINES = "Super Submarines"
RADAR = "Radar"
SHIPYARDS = "Improved Shipyards"
IMPROVED_MECH = "Improved Mechanized Infantry"
LONG_RANGE_BOMBERS = "Long Range Bombers"

SHIPYARD_PRICES = {"battleship": 17, "carrier": 13, "cruiser": 9, "destroyer": 7, "transport": 6, "submarine": 5}
FACTORY_BONUS = {"factory_major": 2, "factory_upgrade": 2, "factory_minor": 1}     # 10 → 12, 3 → 4 (EG-36)
SUPER_SUB_BONUS = 1                   # EG-38: attack 2 → 3
RADAR_AA = 2                          # EG-39: hit on 1 or 2
FIGHTING_TRANSPORT_DEFENCE = 2        # EG-37: against air units only
ARTILLERY_SUPPORT = 2                 # EG-35: infantry or mech infantry an artillery supports


def register(reg) -> None:
    """Bind the verb `research` to the `research` step in the game's registry."""
    reg.register(VERB, phase="research", usage=USAGE, parse=_parse)


def _parse(r) -> dict:
    t = r.peek()
    dice = r.number("the number of research dice")
    if dice < 1:
        r.fail("research buys at least 1 research die (5 IPCs each)", t, expected="the number of research dice",
               rule="EG-31")
    r.keyword("chart")
    t = r.peek()
    chart = r.number("the chart, 1 or 2")
    if chart not in (1, 2):
        r.fail(f"there is no chart {chart}: a breakthrough is rolled on Chart 1 or Chart 2", t,
               expected="the chart, 1 or 2", rule="EG-33")
    return {"dice": dice, "keyword": "chart", "chart": chart}      # written back as `research N chart C`


# -- the order and its dice ---------------------------------------------------------------------------------

def order(rules, state: State, power: str, order) -> dict:
    """`research N chart C`: pay 5 IPCs a die now (EG-31); the dice are rolled as the step ends (`roll`)."""
    key = ORDER.format(power)
    if key in state.switches:
        raise RuleViolation(f"{power} have bought research dice this turn already: one `research` order a turn, "
                            "with all its dice", "EG-31")
    dice, chart = order.args["dice"], order.args["chart"]
    cost = DIE_COST * dice
    have = state.treasury.get(power, 0)
    if have < cost:
        raise RuleViolation(f"{dice} research dice cost {cost} IPCs (5 each); {power} have {have}", "EG-31")
    state.treasury[power] = have - cost
    state.switches[key] = f"{dice}:{chart}"
    return said({"type": "research_bought", "power": power, "dice": dice, "chart": chart, "cost": cost,
                 "treasury": state.treasury[power], "rule": "EG-31"})


def roll(rules, state: State, power: str, roller) -> list[dict]:
    """The research step's dice (EG-32 … EG-34). None while `submit` checks the orders: nothing is rolled."""
    spec = state.switches.pop(ORDER.format(power), None)
    if spec is None or roller is None:
        return []
    dice, chart = (int(x) for x in spec.split(":"))
    label = f"research:{power}"
    values = roller.roll(label, 6, dice, units=["research"] * dice)
    sixes = sum(1 for v in values if v == 6)
    events = [said({"type": "research", "power": power, "label": label, "values": values, "breakthroughs": sixes,
                    "chart": chart, "rule": "EG-32"})]
    table = tech.CHART_1 if chart == 1 else tech.CHART_2
    k = 0
    for _ in range(sixes):
        rolls: list[dict] = []
        gained = None
        while len(rolls) < MAX_CHART_ROLLS:
            if all(tech.has(state, power, t) for t in table.values()):
                break
            k += 1
            chart_label = f"chart{chart}:{power}:{k}"
            faces = roller.roll(chart_label, 6, chart, units=[f"chart {chart}"] * chart)
            total = sum(faces)
            found = table.get(total)
            held = found is not None and not tech.grant(state, power, found)
            rolls.append({"label": chart_label, "values": faces, "total": total, "tech": found or "",
                          "result": "none" if found is None else "held" if held else "gained"})
            if found is not None and not held:
                gained = found
                break
        events.append(said({"type": "breakthrough", "power": power, "chart": chart, "rolls": rolls,
                            "tech": gained or "", "exhausted": gained is None and len(rolls) >= MAX_CHART_ROLLS,
                            "rule": "EG-34" if chart == 2 else "EG-33"}))
    return events


# -- the effects (read by ExpandedGlobalRules' hooks) ---------------------------------------------------------

def battle_value(rules, state: State, unit: Unit, role: str, enemies: list[Unit], value: int) -> int:
    """Super Submarines (EG-38): a submarine attacks at 3. Fighting Transports (EG-37): a transport defends at 2
    while an enemy aircraft is in the battle (its hits fall on aircraft only: `may_target`)."""
    if role == "attacker" and rules.is_sub(unit) and tech.has(state, unit.owner, SUPER_SUBMARINES):
        return value + SUPER_SUB_BONUS
    if (role == "defender" and rules.is_transport(unit) and tech.has(state, unit.owner, FIGHTING_TRANSPORTS)
            and any(rules.is_air(e) for e in enemies)):
        return max(value, FIGHTING_TRANSPORT_DEFENCE)
    return value


def may_target(rules, state: State, shooter: Unit, target: Unit, role: str) -> bool:
    """EG-37: a fighting transport's hit falls on an air unit, never on a ship."""
    if rules.is_transport(shooter) and tech.has(state, shooter.owner, FIGHTING_TRANSPORTS):
        return rules.is_air(target)
    return True


def battle_dice(rules, state: State, unit: Unit, role: str) -> int:
    """EG-42: an attacking bomber of a nation with Long Range Bombers rolls two dice and keeps the better."""
    if role == "attacker" and _bomber(rules, unit) and tech.has(state, unit.owner, LONG_RANGE_BOMBERS):
        return 2
    return 1


def start_bonus(rules, state: State, unit: Unit) -> int:
    """EG-42: a bomber of a nation with Long Range Bombers moves 1 further."""
    return 1 if _bomber(rules, unit) and tech.has(state, unit.owner, LONG_RANGE_BOMBERS) else 0


def _bomber(rules, unit: Unit) -> bool:
    """A bomber: the G40 unit of that name (the tactical bomber is another unit, RULINGS.md "eg-long-range-bombers")."""
    return unit.type == "bomber"


def support_number(rules, state: State | None, support, provider: Unit) -> int:
    """EG-35: an artillery of a nation with Advanced Artillery supports up to 2 infantry or mech infantry (the map's
    artillery support, impArtTech)."""
    if (state is not None and support.provider == "artillery" and tech.has(state, provider.owner, ADVANCED_ARTILLERY)
            and set(support.targets) & {"infantry", "mech_infantry"}):
        return support.number * ARTILLERY_SUPPORT
    return support.number


def aa_value(rules, state: State, gun: Unit, value: int) -> int:
    """EG-39: AAA and facility AA of a nation with Radar hit on 1 or 2."""
    return max(value, RADAR_AA) if tech.has(state, gun.owner, RADAR) else value


def production_bonus(rules, state: State, factory: Unit) -> int:
    """EG-36: a major factory of a nation with Increased Factory Production mobilises up to 12, a minor up to 4."""
    return FACTORY_BONUS.get(factory.type, 0) if tech.has(state, factory.owner, FACTORY_PRODUCTION) else 0


def facility_repair_cost(state: State, power: str, damage: int) -> int:
    """EG-36: with Increased Factory Production each IPC removes 2 damage points (an odd last point costs 1)."""
    return (damage + 1) // 2 if tech.has(state, power, FACTORY_PRODUCTION) else damage


def prices(rules, state: State, power: str, listed: dict[str, int]) -> dict[str, int]:
    """EG-40: Improved Shipyards' prices for the warships a nation buys."""
    if not tech.has(state, power, SHIPYARDS):
        return listed
    return {u: min(c, SHIPYARD_PRICES[u]) if u in SHIPYARD_PRICES else c for u, c in listed.items()}


def blitzes_alone(rules, state: State, unit: Unit) -> bool:
    """EG-41: a mech infantry of a nation with Improved Mechanized Infantry blitzes without a tank beside it."""
    return unit.type == "mech_infantry" and tech.has(state, unit.owner, IMPROVED_MECH)


def facility_repair(rules, state: State, mover: str, order) -> dict:
    """`repair N PLACE [FACILITY]` with Increased Factory Production: N damage points for ceil(N/2) IPCs (EG-36);
    else as G40 (BG-29)."""
    from adjudicator.rules import turn
    cost = facility_repair_cost(state, mover, order.count)
    if cost == order.count:
        return turn.repair(rules, state, mover, order)
    return {**turn.repair(rules, state, mover, order, cost, "EG-36"), "rule": "EG-36"}


# -- status --------------------------------------------------------------------------------------------------

def held(rules, state: State, nations: list[str]) -> dict[str, list[str]]:
    """Each nation's technologies, in the order gained (nations with none left out)."""
    return {n: tech.technologies(state, n) for n in nations if tech.technologies(state, n)}


def notes(rules, state: State, nations: list[str]) -> list[str]:
    return [f"Technologies of {n}: {', '.join(ts)}" for n, ts in held(rules, state, nations).items()]
