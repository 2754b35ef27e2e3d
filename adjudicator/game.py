"""What the commands do to a game: create it, accept a submission, adjudicate, read its state and journal.

The CLI stays thin: it parses arguments, calls these functions and prints what they return. Every write
here is one transaction, so a failure leaves the database as it was (DESIGN.md).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlmodel import Session

from . import dice, report
from .config import Settings
from .errors import ILLEGAL, AdjudicatorError, ConfigError, NothingToDo, OrderError, StoreError, SubmissionRejected
from .inputs import whole_number
from .keys import KeyStore, check_game_id
from .people import People, speaking
from .notation import Lexicon, parse_submission
from .notation.orders import STANDING, GameVerb, Intercept, Kamikaze, OrderOfLoss, Salt, Scramble, Submerge
from . import salts as salts_mod
from . import turn_summary, unplaced
from .rules import turn
from .rules.core import RulesCore
from .scenario_source import load_scenario, rules_for
from .scenario import Scenario
from .state import State
from .store import creation, db, shapes
from .store.game_row import GameRow, setup_hash
from .store.schema import now
from .words import possessive


@dataclass
class Setup:
    """What a game fixed at `new` and never changes: its scenario, rules and the names players may use."""

    scenario: Scenario
    rules: RulesCore
    setup_hash: str                 # GameRow.setup_hash(): what the reports print
    _lexicon: Lexicon | None = field(default=None, repr=False)
    _parsed: dict = field(default_factory=dict, repr=False)

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = self.rules.lexicon()
        return self._lexicon

    def parse(self, text: str, power: str, start_phase: str | None = None):
        """`text` read for `power` from `start_phase` (notation.parse_submission), kept for the next few asks: a
        turn's orders are read at submit, at adjudicate and for its report, and `audit` does all three in turn.
        Callers only read what it returns."""
        key = (text, power, start_phase)
        found = self._parsed.get(key)
        if found is None:
            if len(self._parsed) >= 16:
                self._parsed.clear()
            found = self._parsed[key] = parse_submission(text, self.lexicon, start_phase=start_phase,
                                                         phases=self.scenario.phases_of(power) or None,
                                                         verbs=self.rules.verbs(), power=power,
                                                         elsewhere=self._elsewhere(power))
        return found

    def _elsewhere(self, power: str) -> dict[str, str]:
        """Where `power`'s orders go for a phase it plays inside another power's turn (pacific's Australians and
        the G40 maps' UK_Pacific buy in the British turn)."""
        return {phase: f"{power} {'buy' if phase == 'purchase' else 'play that phase'} in the {host} turn: the {host} "
                       f"submission writes `{'buy ' + power + ' UNITS' if phase == 'purchase' else '…'}`"
                for host in self.scenario.turn_players() for guest, phase in self.scenario.guests_of(host)
                if guest == power}

    def play(self, state: State, sub, roller, hashed: bool = True) -> list:
        """Play the locked submission `sub` (a row: seq, text, the phase it was accepted in) of the power to move on
        `state`: `adjudicate`, and `audit` when it brings a position forward by the rules alone (not `hashed`: it
        checks the hash where it arrives)."""
        phases = self.scenario.phases_of(state.power)
        if sub.phase not in phases:
            raise shapes.Damaged(f"the locked submission {sub.seq} was accepted in the phase {str(sub.phase)[:40]!r}, "
                                 f"no phase of {state.power}'s turn ({', '.join(phases)})")
        parsed = self.parse(sub.text, state.power, sub.phase)
        if parsed.errors:
            raise StoreError(f"the locked submission {sub.seq} no longer parses; the database was changed by hand?")
        return self.rules.play(state, turn.turn_orders(parsed.submission.orders), parsed.submission.ended, roller,
                               hashed)

    def read_corrections(self, text: str):
        """A host's corrections (`edit`), read with their own verbs."""
        from .notation.edits import edit_verbs
        return parse_submission(text, self.lexicon, verbs=edit_verbs())


def standing_orders(orders: list) -> list:
    """The orders filed at any time, as opposed to a phase's orders of this turn: those that stand until replaced,
    and a game's own verbs of no phase (an answer to an offer, DESIGN.md "Agreements between powers")."""
    return [o for o in orders if isinstance(o, (*STANDING, GameVerb)) and not o.phase]


@dataclass
class Loaded:
    """An open game: its row, setup and current state."""

    session: Session
    game: GameRow
    setup: Setup
    state: State

    @property
    def scenario(self) -> Scenario:
        return self.setup.scenario

    @property
    def rules(self) -> RulesCore:
        return self.setup.rules

    @property
    def lexicon(self) -> Lexicon:
        return self.setup.lexicon


# Each engine's games' setups, by game id: `audit`, a league's server or a benchmark opens the same game hundreds
# of times, and reading and parsing a map's scenario is most of the cost of opening it. A game's setup never
# changes once made; the fingerprint tells a game made again under the same id from the one cached.
_SETUPS: "WeakKeyDictionary[object, dict[str, tuple[tuple, Setup]]]" = WeakKeyDictionary()


@lru_cache(maxsize=4)
def _scenario(text: str) -> Scenario:
    """A stored scenario, parsed once per process whatever database holds it: a process that opens games of one
    map in several databases (`watch` over a league's games, the tests) parsed the same text again for each.
    Nothing changes a Scenario once read (it keeps only memos of its own)."""
    return Scenario.from_json(text)


def setup_of(session: Session, game: GameRow) -> Setup:
    """The game's scenario, rules and names, parsed once per engine."""
    known = _SETUPS.setdefault(session.get_bind(), {})
    fingerprint = (game.name, game.rules_version, game.anchor, game.created_at, game.chain_length, game.dice_mode,
                   game.salts_required, game.test_seed)
    found = known.get(game.id)
    if found is None or found[0] != fingerprint:
        db.read_setup(session, game)
        try:
            scenario = _scenario(game.scenario)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreError(f"the game's stored scenario is damaged ({type(exc).__name__}: {exc}); "
                             "restore the database from a copy") from None
        found = known[game.id] = (fingerprint, Setup(scenario, rules_for(game.name, scenario, game.rules_version),
                                                     game.setup_hash()))
    return found[1]


def open_game(session: Session) -> Loaded:
    game = db.the_game(session)
    setup = setup_of(session, game)
    return Loaded(session, game, setup, db.load_state(session, game, setup.scenario))


# -- new ------------------------------------------------------------------------------------------

def game_options(name: str, version: str, chosen: list[str]) -> dict[str, bool]:
    """The optional rules a group agreed at `new`, as the state keeps them (State.switches "option:NAME") so that
    the rules read them and the state hash covers them; refused unless the game has each in this rule version."""
    from .games import game_module
    offered = getattr(game_module(name), "OPTIONS", {})
    switches = {}
    for option in chosen:
        if not offered:
            raise ConfigError(f"the {name} game has no optional rules: drop --option {option}")
        if option not in offered:
            listed = "; ".join(f"{n} ({what})" for n, (_, what) in offered.items())
            raise ConfigError(f"--option {option}: {name} has no optional rule of that name; it has {listed}")
        versions, _ = offered[option]
        if version not in versions:
            raise ConfigError(f"--option {option}: the {version} rules of {name} have no such option; "
                              f"only {', '.join(versions)} {'does' if len(versions) == 1 else 'do'}")
        switches[f"option:{option}"] = True
    return switches


def new_game(db_arg: str, name: str, settings: Settings, map_arg: str | None = None, rules_version: str | None = None,
             players: list[tuple[str, str]] | None = None, seed_hex: str | None = None, dice_mode: str = "normal",
             game_id: str | None = None, salt_from: list[str] | None = None, options: list[str] | None = None,
             bids: list[tuple[str, str]] | None = None) -> dict:
    scenario, version, xml = load_scenario(name, map_arg, rules_version, settings)
    warnings = [] if xml is None else check_map(name, xml)
    chosen = game_options(name, version, options or [])
    contacts = _check_players(players or [], scenario)
    scenario = _seat(name, scenario, list(contacts), chosen)
    rules = rules_for(name, scenario, version)
    bid = _check_bids(bids or [], scenario, rules)
    if dice_mode not in ("normal", "strict"):
        raise ConfigError(f"--dice takes normal or strict, not {dice_mode!r}")
    salters = _check_salters(salt_from or [], scenario, dice_mode)
    try:
        secret = dice.unhex(seed_hex, "--seed") if seed_hex else None
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    from .store.models import Game, GameSetup
    gid = game_id or _default_id(db_arg)
    check_game_id(gid)
    state = State.initial(scenario)
    state.switches.update(chosen)
    rules.begin(state)
    order = scenario.turn_players()
    if bid:                 # round 0: the bid turns, in turn order, before round 1 (RULINGS.md "bid")
        state.bids = bid
        state.round, state.power, state.phase = 0, next(p for p in order if p in bid), "purchase"
    keystore = KeyStore(settings.keys_dir)
    if secret is None:
        secret = dice.new_secret()
    anchor = dice.chain_seed(secret, 0, dice.CHAIN_LENGTH)
    dice_mode = dice.STRICT if dice_mode == "strict" else dice_mode
    game = Game(id=gid, name=name, title=f"{scenario.name} {scenario.version}".strip(), rules_version=version,
                anchor=dice.hexb(anchor), chain_length=dice.CHAIN_LENGTH, dice_mode=dice_mode,
                salts_required=",".join(salters), test_seed=seed_hex is not None,
                round=state.round, power=state.power, phase=state.phase, turn_index=state.turn_index)
    fixed = GameSetup(game_id=gid, scenario=scenario.to_json(), initial_state=json.dumps(state.to_dict(), sort_keys=True))
    setup = setup_hash(game, fixed.scenario, fixed.initial_state)
    from .triplea.art import read_art
    art = {} if xml is None else read_art(xml)      # the map's pictures, copied now: the game never reads its map again
    creation.write(db_arg, lambda s: _fill(s, game, fixed, state, order, contacts, art), keystore, gid, secret)
    return {"game": gid, "name": name, "title": f"{scenario.name} {scenario.version}".strip(), "rules": version,
            "anchor": dice.hexb(anchor), "setup_hash": setup, "test_seed": seed_hex is not None, "key_file": str(keystore.path_for(gid, anchor)),
            "powers": order, "treasury": {p: state.treasury.get(p, 0) for p in order}, "round": state.round, "power": state.power, "phase": state.phase,
            "dice": dice_mode, "salts_from": salters, "options": sorted(o.removeprefix("option:") for o in chosen),
            "bids": bid, "map_art": sorted(art), "warnings": warnings}


def check_map(name: str, xml: Path) -> list[str]:
    """The property check (DESIGN.md "Rules core"), at `new` only: a map setting a rule the game's family neither
    honours nor fixes at that value is refused before anything is written, naming each such property and what the
    family does instead; harmless differences come back as warning lines. A stored game is never checked again:
    it no longer reads its map, and `copy` or an upgrade must not refuse a game the players already play."""
    from .families import FAMILIES, check, families_playing, refusal, warning_lines
    from .games import base_games, family_of, game_module
    from .triplea.importer import read_settings
    if family_of(name) is None:
        return []
    family = FAMILIES[family_of(name)]
    settings = read_settings(xml)
    findings = check(settings, family)
    if any(f.refused for f in findings):
        others = base_games([f for f in families_playing(settings) if f != family.name])
        raise ConfigError(refusal(settings, family, name, findings, others))
    # a game made for one map may settle what its family leaves out, by rulings of its own (SETTLED: a property's
    # name, or a step delegate's or attachment's word, -> the ruling), and then has nothing to warn of
    settled = getattr(game_module(name), "SETTLED", {})
    return warning_lines([f for f in findings if not any(key == f.name or key in f.name.split() for key in settled)])


MAX_BID = 999           # PUs: far above any forum bid, and a typo's 10**20 never reaches the treasury's column


def _check_bids(given: list[tuple[str, str]], scenario: Scenario, rules: RulesCore) -> dict[str, int]:
    """Power -> PUs of the `--bid POWER=PUS`s, in turn order: powers of one side that buy and place in turns of
    their own, each named once, with a whole number of PUs from 1 to MAX_BID (RULINGS.md "bid")."""
    if given and not rules.takes_bids:
        raise ConfigError(f"the {rules.name} game takes no bid: it has no units to buy and place before round 1; "
                          "drop --bid")
    lex = Lexicon.from_scenario(scenario)
    bids: dict[str, int] = {}
    for name, amount in given:
        power = resolve_power(lex, name, "--bid", scenario)
        if power in bids:
            raise ConfigError(f"--bid names {power} twice: give each power its whole bid once")
        phases = scenario.phases_of(power) if power in scenario.turn_players() else []
        if not {"purchase", "place"} <= set(phases):
            host = next((h for h in scenario.turn_players() if (power, "purchase") in scenario.guests_of(h)), None)
            raise ConfigError(f"--bid {name}: {power} do not buy and place in turns of their own"
                              + (f" ({power} buy in the {host} turn): give the bid to {host}" if host else ""))
        bid = whole_number(amount.strip(), 18)
        if bid is None or not 1 <= bid <= MAX_BID:
            raise ConfigError(f"--bid {name}={amount}: a bid is a whole number of PUs from 1 to {MAX_BID}")
        bids[power] = bid
    sides = {tuple(scenario.player(p).alliances) for p in bids}
    if len(sides) > 1:
        raise ConfigError(f"--bid gives PUs to powers of different sides ({', '.join(bids)}): a bid goes to one side, "
                          "shared among its powers as the players agreed")
    return {p: bids[p] for p in scenario.turn_players() if p in bids}


def _seat(name: str, scenario: Scenario, powers: list[str], options: dict[str, bool]) -> Scenario:
    """A game whose powers are those the players chose (Allies vs. Axis: 2 to 4 of its 4) makes its scenario from
    the `--player` powers and the options (its `seat`, which refuses a table it cannot play); others keep theirs."""
    from .games import game_module
    seat = getattr(game_module(name), "seat", None)
    if seat is None:
        return scenario
    return seat(scenario, powers, sorted(o.removeprefix("option:") for o in options))


def _fill(s: Session, game, fixed, state: State, order: list[str], contacts: dict[str, str],
          art: dict[str, bytes]) -> None:
    from .store.journal import MapArt
    s.add_all([game, fixed])          # the game row first: the setup's row points at it
    s.flush()
    db.save_state(s, game, state, turn_order=order, contacts=contacts)
    s.add_all(MapArt(game_id=game.id, name=name, data=data) for name, data in art.items())


def _check_salters(given: list[str], scenario: Scenario, dice_mode: str) -> list[str]:
    """The powers whose salts a strict game awaits (`--salt-from`); none listed means every power that takes turns."""
    if given and dice_mode != "strict":
        raise ConfigError("--salt-from is for games created with `--dice strict`")
    lex = Lexicon.from_scenario(scenario)
    salters = []
    for name in given:
        power = resolve_power(lex, name, "--salt-from", scenario)
        if power not in scenario.turn_players():
            raise ConfigError(f"--salt-from {name}: {power} takes no turns, so it has no orders to salt dice with")
        if power not in salters:
            salters.append(power)
    return salters


def _default_id(db_arg: str) -> str:
    stem = Path(db_arg).stem if db.is_file_db(db_arg) else "game"
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "game"
    return f"{slug[:48]}-{secrets.token_hex(3)}"


def resolve_power(lex: Lexicon, given: str, option: str, scenario: Scenario) -> str:
    """A power named on the command line (`GER`, `Germany`, `Germans`), or a ConfigError that helps."""
    found = lex.resolve("power", given)
    if len(found) == 1:
        return found[0]
    if found:
        raise ConfigError(f"{option} {given}: ambiguous, it could be {', '.join(found)}")
    close = lex.suggest("power", given)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ConfigError(f"{option} {given}: not a power of this game{hint}; the powers are "
                      f"{', '.join(scenario.turn_players())}")


def _check_players(players: list[tuple[str, str]], scenario: Scenario) -> dict[str, str]:
    """Power -> contact of the `--player POWER=CONTACT`s, in the order given; one power given twice, however it is
    spelled (`UK` and `British`), is refused: each power is played by one player."""
    lex = Lexicon.from_scenario(scenario)
    contacts: dict[str, str] = {}
    given_as: dict[str, str] = {}
    for given, contact in players:
        power = resolve_power(lex, given, "--player", scenario)
        if power in contacts:
            raise ConfigError(f"--player names {power} twice ({given_as[power]} and {given}={contact}): each power is "
                              "played by one player; give it once")
        contacts[power], given_as[power] = contact, f"{given}={contact}"
    return contacts


# -- submit ---------------------------------------------------------------------------------------

def submit(engine, power_arg: str, text: str, dry_run: bool = False, record=None) -> dict:
    """Check a submission and, unless dry-run, store it. Raises SubmissionRejected listing every error.
    `record(session, summary)` writes what must be stored with the submission or not at all (the message it came
    in: intake), in its transaction."""
    with db.transaction(engine, write=not dry_run) as s:
        g = open_game(s)
        power = resolve_power(g.lexicon, power_arg, "--power", g.scenario)
        _refuse_when_over(g)
        mover = power == g.state.power
        result = g.setup.parse(text, power, g.state.phase if mover else None)
        sub = result.submission
        errors = list(result.errors) + _header_errors(g, sub, power)
        turn_orders = turn.turn_orders(sub.orders)
        salts = [o for o in sub.orders if isinstance(o, Salt)]
        errors += salts_mod.salt_errors(s, g, power, salts)
        locked = db.locked_submission(s, g.game)
        blocked = bool(turn_orders) and (not mover or locked is not None)
        if turn_orders and not mover:
            when = ("bid, before round 1" if g.state.bidding else
                    f"turn (round {g.state.round}, {g.state.phase.replace('_', ' ')})")
            errors.append(OrderError(ILLEGAL, f"it is {possessive(g.state.power, the=True)} {when}: "
                                     f"{g.rules.off_turn(g.state, power)}",
                                     turn_orders[0].line, turn_orders[0].column, turn_orders[0].source))
        elif turn_orders and locked:
            errors.append(OrderError(ILLEGAL, f"{possessive(power, the=True)} orders for this turn are already locked; "
                                     "they are adjudicated next (`adjudicate`)"))
        standing = standing_orders(sub.orders)
        standing_errors = g.rules.check_standing(g.state, power, standing)
        errors += standing_errors
        if standing and not standing_errors:
            # on file before the turn's orders are checked, which may rest on them (a `leave` before a `war`); the
            # state is saved only if the whole submission is taken
            apply_standing(g.rules, g.state, power, standing)
        if turn_orders and not blocked:
            errors += g.rules.check(g.state, turn_orders, sub.ended)
        if not sub.orders and not errors:
            errors.append(OrderError("invalid", "the submission holds no orders"))
        people = People(g.setup.scenario, g.setup.rules.people_names)
        if errors:
            raise SubmissionRejected(sorted((replace(e, message=people.told(e.message)) for e in errors),
                                            key=lambda e: (e.line, e.column)))
        covers = g.rules.covered_phases(g.state, turn_orders, sub.ended) if turn_orders else []
        summary = {"game": g.game.id, "power": power,
                   "name": people.power(power), "orders": [o.canonical() for o in sub.orders], "covers": covers,
                   "whole_turn": bool(covers) and covers[-1] == g.scenario.phases_of(power)[-1],
                   "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "dry_run": dry_run}
        with speaking(people):
            summary["warnings"] = unplaced.warning(unplaced.unplaced(g.state, power, turn_orders, covers))
        if salts and salts_mod.binds(g):
            summary["binds"] = {"power": g.state.power, "sha256": locked.sha256}
        if dry_run:
            return summary
        kind = "turn" if turn_orders else ("salt" if salts else "standing")
        seq, row_id = _add_submission(s, g, power, kind, text, summary["sha256"], "locked" if kind == "turn" else "done")
        if "binds" in summary:
            _add_step(s, g, row_id, "standing", [salts_mod.binding(power, salts[0].text, locked.sha256)])
        if standing:
            _add_step(s, g, row_id, "standing", [{"type": "standing", "power": power,
                                                  "orders": [o.canonical() for o in standing]}])
            db.save_state(s, g.game, g.state)
        summary["submission"] = seq
        summary["kind"] = kind
        if record is not None:
            record(s, summary)
        s.commit()
        return summary


def awaits_turn(engine, power: str, text: str) -> bool:
    """Whether `text` holds turn orders of `power` while another power is on the move (orders sent before the
    report of the turn before them): `watch` keeps them until that power's turn rather than refusing them."""
    with db.transaction(engine) as s:
        g = open_game(s)
        if (g.state.power == power or power not in g.scenario.turn_players()
                or g.rules.victory_status(g.state)["winner"]):
            return False
        return bool(turn.turn_orders(g.setup.parse(text, power, None).submission.orders))


# -- edit (host corrections) ----------------------------------------------------------------------

HOST = "host"           # the journal's "power" of a correction
_REASON = "# reason: "


def edit(engine, text: str, reason: str, dry_run: bool = False) -> dict:
    """Apply a host's corrections (adjudicator.corrections) as one journalled step; refused, changing nothing,
    while a power's orders are locked or when any line is wrong."""
    from .corrections import apply, reason_problem
    problem = reason_problem(reason)
    if problem:
        raise ConfigError(problem)
    with db.transaction(engine, write=not dry_run) as s:
        g = open_game(s)
        if not g.rules.takes_corrections:
            raise ConfigError(f"the {g.game.name} game takes no host corrections: its position is not units and "
                              "owners that `edit` could change")
        result = g.setup.read_corrections(text)
        errors = list(result.errors)
        if db.locked_submission(s, g.game) is not None:
            errors.insert(0, OrderError(ILLEGAL, f"{possessive(g.state.power, the=True)} orders are locked: correct the game after "
                                        "`adjudicate`, so that the orders are played on the position they were checked on"))
        corrections = result.submission.orders
        if not corrections and not errors:
            errors.append(OrderError("invalid", "no corrections given"))
        changes, problems = apply(g.rules, g.state, corrections) if not errors else ([], [])
        if errors or problems:
            raise SubmissionRejected(sorted(errors + problems, key=lambda e: (e.line, e.column)))
        stored = f"{_REASON}{reason.strip()}\n{text}"
        summary = {"game": g.game.id, "reason": reason.strip(), "changes": changes, "dry_run": dry_run,
                   "sha256": hashlib.sha256(stored.encode("utf-8")).hexdigest()}
        if dry_run:
            return summary
        seq, row_id = _add_submission(s, g, HOST, "edit", stored, summary["sha256"], "done")
        _add_step(s, g, row_id, "edit", [{"type": "edit", "reason": reason.strip(), "changes": changes}])
        db.save_state(s, g.game, g.state)
        s.commit()
        return {**summary, "submission": seq}


def replay_edit(engine, stored: str) -> dict:
    """`audit`: a journalled correction, applied again from its stored text."""
    reason, text = stored_edit(stored)
    return edit(engine, text, reason)


def stored_edit(stored: str) -> tuple[str, str]:
    """A journalled correction's reason and lines."""
    head, _, text = stored.partition("\n")
    if not head.startswith(_REASON):
        raise StoreError("a journalled correction has lost its reason line")
    return head[len(_REASON):], text


def _refuse_when_over(g: Loaded) -> None:
    """A side has won: the game takes no more orders of any kind, and says why."""
    winner = g.rules.victory_status(g.state)["winner"]
    if winner:
        raise SubmissionRejected([OrderError(ILLEGAL, f"no orders are taken: {report.victory_phrase(winner)}")])


def _header_errors(g: Loaded, sub, power: str) -> list[OrderError]:
    errors = []
    if sub.game is not None and sub.game != g.game.id:
        errors.append(OrderError(ILLEGAL, f"these orders are for game {sub.game!r}; this is game {g.game.id!r}"))
    if sub.power is not None and sub.power != power:
        errors.append(OrderError(ILLEGAL, f"the header says power {sub.power}, but the orders are submitted for {power}"))
    if sub.round is not None and sub.round != g.state.round:
        now = "the bid before round 1 (`round: 0`)" if g.state.bidding else f"round {g.state.round}"
        errors.append(OrderError(ILLEGAL, f"these orders are for round {sub.round}; the game is in {now}"))
    return errors


def apply_standing(rules: RulesCore, state: State, power: str, orders: list) -> None:
    """Standing orders replace the power's earlier ones of the same kind; a game's own are filed by the game."""
    mine = state.standing.setdefault(power, {})
    scrambles = []
    strikes: list[dict] | None = None          # kamikaze orders of this submission replace the earlier ones
    for o in orders:
        if isinstance(o, GameVerb):
            rules.file_standing(state, power, o)
        elif isinstance(o, OrderOfLoss):
            mine["ool"] = list(o.units)
        elif isinstance(o, Submerge):
            mine["submerge"] = o.always
        elif isinstance(o, Intercept):
            mine["intercept"] = o.always
        elif isinstance(o, Scramble):
            scrambles.append({"place": o.place, "sea_zone": o.sea_zone, "max": o.max})
        elif isinstance(o, Kamikaze):
            strikes = [] if o.none else [s for s in strikes or [] if s["zone"] != o.zone]
            if not o.none:
                strikes.append({"zone": o.zone, "max": o.max, "targets": list(o.targets)})
    if scrambles:
        mine["scramble"] = scrambles
    if strikes is not None:
        if strikes:
            mine["kamikaze"] = strikes
        else:
            mine.pop("kamikaze", None)


def _next_seq(s: Session, table: str, gid: str) -> int:
    """The number of the journal's next row, after its last (a SQLite column holds text as well)."""
    last = db.rows(s, f"SELECT max(seq) FROM {table} WHERE game_id = :game", game=gid)[0][0] or 0
    if not shapes.whole(last) or not 0 <= last < shapes.LARGEST:
        raise shapes.Damaged(f"the {table} rows are numbered up to {str(last)[:40]!r}, not a whole number from 1")
    return last + 1


def _add_submission(s: Session, g: Loaded, power: str, kind: str, text: str, sha256: str, status: str) -> tuple[int, int]:
    """Journal a submission at the game's position now, numbered on from the last: its number and row id."""
    seq = _next_seq(s, "submission", g.game.id)
    row_id = db.insert(s, "submission", "id", game_id=g.game.id, seq=seq, power=power, kind=kind, round=g.state.round,
                       turn_index=g.state.turn_index, phase=g.state.phase, text=text, sha256=sha256, status=status,
                       created_at=now())
    return seq, row_id


def _add_step(s: Session, g: Loaded, submission_id: int | None, phase: str, events: list[dict]) -> None:
    """A journal step that rolls no dice (standing orders, a salt's binding, a host's correction), at the game's
    position now."""
    _add_steps(s, g, submission_id, [turn.StepResult(phase, events, [], g.state.hash())],
               g.state.turn_index, g.state.round, g.state.power)


def _add_steps(s: Session, g: Loaded, submission_id: int | None, results: list, turn_index: int, round_: int,
               power: str) -> None:
    """The steps of one command and their dice groups, numbered on from the journal's last."""
    first = _next_seq(s, "step", g.game.id)
    groups = []
    for k, r in enumerate(results):
        step_id = db.insert(s, "step", "id", game_id=g.game.id, seq=first + k, submission_id=submission_id,
                            turn_index=turn_index, round=round_, power=power, phase=r.phase,
                            events=json.dumps(r.events, sort_keys=True), state_hash=r.state_hash)
        groups += [{"game_id": g.game.id, "step_id": step_id, "turn_index": turn_index, "label": grp.label,
                    "sides": grp.sides, "count": len(grp.values), "dice": json.dumps(grp.values),
                    "units": json.dumps(grp.units)} for grp in r.groups]
    if groups:
        db.execute_many(s, "INSERT INTO dice_group (game_id, step_id, turn_index, label, sides, count, dice, units) "
                           "VALUES (:game_id, :step_id, :turn_index, :label, :sides, :count, :dice, :units)", groups)


# -- adjudicate -----------------------------------------------------------------------------------

def adjudicate(engine, settings: Settings | None, without_salts: bool = False, dice_source=None,
               fmt: str = "markdown") -> dict:
    """Play the locked submission of the power to move; one transaction for all it writes, the turn's report
    included, which is also returned in `fmt` (with the host's templates).

    `dice_source` gives a turn's roller and the seed to reveal when the turn is over: by default the host's
    key file (HostDice). `audit` passes one built from the journal, so that a replay runs this very code.
    """
    report.check_format(fmt)
    with db.transaction(engine, write=True) as s:
        g = open_game(s)
        sub = db.locked_submission(s, g.game)
        if sub is None:
            over = g.rules.victory_status(g.state)["winner"]
            raise NothingToDo(f"nothing to adjudicate: the game is over, the {over['side']} won" if over else
                              f"nothing to adjudicate: awaiting the bid of {g.state.power}, before round 1"
                              if g.state.bidding else f"nothing to adjudicate: awaiting orders from {g.state.power} "
                              f"(round {g.state.round}, {g.state.phase.replace('_', ' ')})")
        turn_index, round_, power = g.state.turn_index, g.state.round, g.state.power
        salts, salt_event = salts_mod.key_salts(s, g, sub, without_salts)
        source = dice_source or HostDice(settings, g.game)
        roller = source.roller(g.game.id, turn_index, [text for _, text in salts])
        owners_before = dict(g.state.owners)
        results = g.setup.play(g.state, sub, roller)
        if salt_event and results:
            results[0].events.insert(0, salt_event)
        _add_steps(s, g, sub.id, results, turn_index, round_, power)
        finished = g.state.turn_index != turn_index
        if finished:
            db.insert(s, "revealedseed", game_id=g.game.id, turn_index=turn_index,
                      seed=dice.hexb(source.seed(turn_index)), salts=json.dumps([text for _, text in salts]))
        db.execute(s, "UPDATE submission SET status = 'done' WHERE id = :id", id=sub.id)
        db.save_state(s, g.game, g.state, state_hash=results[-1].state_hash if results else None)
        snapshot = db.save_snapshot(s, g.game, turn_index, g.state, {
            "income": {p: g.rules.income(g.state, p)[0] for p in g.scenario.turn_players()}, "victory": _victory(g),
            **({"board": lines} if (lines := g.rules.position_lines(g.state)) else {}),
            **({"damaged": hurt} if (hurt := turn_summary.damaged_units(g.state)) else {}),
            **({"changed": changed} if (changed := turn_summary.changed_hands(
                owners_before, g.state.owners, db.load_snapshot(s, g.game, turn_index))) else {}),
            **({"units": units} if (units := g.rules.public_units(g.state)) is not None else {})})
        text = report.store_report(s, turn_index, fmt, settings.templates_dir if settings else None, game=g.game,
                                   snapshot=snapshot)
        s.commit()
        return {"game": g.game.id, "turn_index": turn_index, "round": round_, "power": power,
                "phases": [r.phase for r in results], "turn_over": finished, "orders_sha256": sub.sha256,
                "next": {"round": g.state.round, "power": g.state.power, "phase": g.state.phase}, "report": text}


class HostDice:
    """The host's dice: power-turn i is keyed by s_i, derived from the chain secret in the game's key file."""

    def __init__(self, settings: Settings, game: GameRow):
        self.secret = KeyStore(settings.keys_dir).load(game.id, dice.unhex(game.anchor, "anchor"), game.chain_length)
        self.n = game.chain_length

    def seed(self, turn_index: int) -> bytes:
        return dice.chain_seed(self.secret, turn_index, self.n)

    def roller(self, game_id: str, turn_index: int, salts: list[str]) -> dice.Roller:
        return dice.Roller(dice.turn_key(self.seed(turn_index), salts), game_id, turn_index)


# -- reading --------------------------------------------------------------------------------------

def people_of(engine):
    """The words players use for the game's units and powers (people.People), for text meant for people."""
    with db.transaction(engine) as s:
        setup = setup_of(s, db.the_game(s))          # parsed once per engine: status has just read it
        return People(setup.scenario, setup.rules.people_names)


def status(engine, power: str | None = None, places: list[str] = ()) -> dict:
    """`power`, `places`: the filters of `status --power --place` (status_view.filtered), names as orders take them."""
    from .status_view import filtered, resolve_place
    with db.transaction(engine) as s:
        g = open_game(s)
        st = g.state
        power = resolve_power(g.setup.lexicon, power, "--power", g.scenario) if power is not None else None
        places = list(dict.fromkeys(resolve_place(g.setup.lexicon, p) for p in places))
        powers = {}
        contacts = {p.name: p.contact for p in powers_in_order(s, g.game)}
        order = g.scenario.turn_players()
        for p in g.scenario.players:
            income, lines = g.rules.income(st, p.name)
            objectives = [{"name": line["name"], "value": line["value"], "met": line["met"], "paid": line["paid"]}
                          for line in lines if line["item"] == "objective"]
            powers[p.name] = {"treasury": st.treasury.get(p.name, 0), "income": income, "objectives": objectives,
                              "at_war_with": sorted(g.rules.enemies_of(st, p.name)),
                              "turn_order": order.index(p.name) + 1 if p.name in order else None,
                              "contact": contacts.get(p.name, ""),
                              "pending_purchases": st.purchases.get(p.name, {})}
        territories = {}
        victory = _victory(g)
        by_place = st.by_place()
        for t in g.scenario.territories:
            here = by_place.get(t.name, [])
            if t.water and not here:
                continue
            territories[t.name] = {"owner": st.owners.get(t.name), "units": st.units_by_owner(t.name, here)}
            aboard = [u for u in here if u.carried_by is not None]
            if aboard:          # of `units`, those carried: land units on transports, an ally's aircraft on a carrier
                territories[t.name]["aboard"] = st.units_by_owner(t.name, aboard)
            damaged = [u for u in here if u.damage]
            if damaged:
                territories[t.name]["damage"] = [{"owner": u.owner, "unit": u.type, "damage": u.damage}
                                                 for u in sorted(damaged, key=lambda u: u.id)]
        out = {"game": g.game.id, "name": g.game.name, "title": g.game.title, "rules": g.game.rules_version,
                "round": st.round, "power": st.power, "phase": st.phase, "turn_index": st.turn_index,
                "anchor": g.game.anchor, "setup_hash": g.setup.setup_hash, "dice": dice.mode_name(g.game.dice_mode), "test_seed": g.game.test_seed,
                "options": sorted(k.removeprefix("option:") for k in st.switches if k.startswith("option:")),
                "bids": dict(st.bids),
                "awaiting": _awaiting(s, g, victory["winner"]), "victory": victory,
                "powers": powers, "territories": territories, "state_hash": st.hash(), **g.rules.status_fields(st)}
        out["territories"] = filtered(out["territories"], power, places)    # a game's own units (status_fields) too
        if power or places:
            out["filter"] = {"power": power, "places": places}
        return out


def _awaiting(s: Session, g: Loaded, winner: dict | None) -> str:
    if winner:
        return f"nothing: the game is over, the {winner['side']} won"
    if db.locked_submission(s, g.game) is None:
        if g.state.bidding:
            return f"the bid of {g.state.power} ({g.state.bids.get(g.state.power, 0)} PUs to buy and place)"
        return f"orders from {g.state.power}"
    if g.game.dice_mode in dice.STRICT_MODES and not salts_mod.turn_started(s, g):
        missing = salts_mod.unsalted(g, salts_mod.turn_salts(s, g))
        if missing:
            return f"salts from {', '.join(missing)}"
    return "adjudicate"


def _victory(g: Loaded) -> dict:
    """`status`: the winner and the holds under way, each as its event with the report's sentence."""
    standing = g.rules.victory_status(g.state)
    winner = standing["winner"]
    return {"winner": {**winner, "text": report.victory_phrase(winner)} if winner else None,
            "holds": [{**h, "text": report.victory_phrase(h)} for h in standing["holds"]]}


def rolls(engine, turn_index: int | None = None) -> list[dict]:
    """Every dice group, or those of one turn; a turn not played yet is an error (as `report --turn`), not an
    empty list that reads as "no dice were rolled"."""
    with db.transaction(engine) as s:
        game = db.the_game(s)
        where = ""
        if turn_index is not None:
            played = [t for (t,) in db.rows(s, "SELECT DISTINCT turn_index FROM step WHERE game_id = :game AND "
                                               "phase != 'standing' ORDER BY turn_index", game=game.id)]
            if turn_index not in played:
                so_far = (f"the turns played so far are {played[0]} to {played[-1]}" if played
                          else "nothing has been adjudicated yet")
                why = "turns are numbered from 1; " if turn_index < 1 else "it has not been played; " if played else ""
                raise AdjudicatorError(f"no dice of turn {turn_index}: {why}{so_far}")
            where = " AND turn_index = :turn"
        seeds = {r.turn_index: r for r in db.rows(s, "SELECT turn_index, seed, salts FROM revealedseed WHERE game_id = :game",
                                                  game=game.id)}
        orders = dict(db.rows(s, "SELECT step.id, submission.sha256 FROM step JOIN submission ON step.submission_id = "
                                 "submission.id WHERE step.game_id = :game", game=game.id))
        out = []
        for r in db.rows(s, f"SELECT * FROM dice_group WHERE game_id = :game{where} ORDER BY id", game=game.id, turn=turn_index):
            seed = seeds.get(r.turn_index)
            shapes.dice(r.label, json.loads(r.dice), json.loads(r.units))
            out.append({"game": game.id, "turn": r.turn_index, "label": r.label, "sides": r.sides, "count": r.count,
                        "values": json.loads(r.dice), "units": json.loads(r.units), "seed": seed.seed if seed else None,
                        "salts": json.loads(seed.salts) if seed else [], "orders_sha256": orders.get(r.step_id)})
        return out


def powers_in_order(s: Session, game: GameRow) -> list:
    """The game's powers as rows (name, turn_order, treasury, contact), in turn order."""
    return db.rows(s, "SELECT name, turn_order, treasury, contact FROM power WHERE game_id = :game ORDER BY turn_order",
                   game=game.id)


__all__ = ["new_game", "submit", "adjudicate", "status", "rolls", "open_game", "AdjudicatorError"]
