"""`audit`: rebuild a game from its initial setup and its journal, and compare the rebuild with what is stored.

The replay runs the very services that played the game (game.submit and game.adjudicate) on a fresh
in-memory SQLite store made by the same store code, so what is checked is what happened, not a second
implementation of it. Submissions are replayed in the order they were accepted; before each one, the locked
orders are adjudicated until the game stands where the submission says it stood when it was accepted, which
puts every standing order before or after each adjudication exactly as it happened.

Dice of a turn whose seed is revealed come from that seed (and the turn's salts in a strict game), never from
the journal; each revealed seed must hash to the one before it (the anchor for turn 1). Dice of a turn not
over yet are taken from the journal, "not checkable yet", so that the state hashes after them still replay.
Every step is compared with the stored one: its submission, phase, dice groups (label, sides, values,
units), report events and state hash; every stored report with the one the replay writes at the same moment
(it prints the setup hash, the test-dice flag and each adjudicated submission's sha256, so a setup edited, a
flag cleared or orders swapped after the fact all show; a report the journal records as written by earlier
templates, by its dice block and hashes only); every stored snapshot, the position after a turn that reports and
pictures show, with the replay's once the turn is over; then the revealed seeds and salts, and the final state
with the current tables. The first difference stops the replay and is named. Given the anchor players saw
first (`--anchor`), a game re-keyed with a new dice chain shows too.

The stored database is only read (SQLite: `PRAGMA query_only`), and no key file is needed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from sqlmodel import Session

from . import contacts, dice, game as services
from .errors import AdjudicatorError, StoreError, SubmissionRejected
from .report import TEMPLATE_VERSION
from .turn_summary import SUMMARY_KEPT_FROM, SUMMARY_KEYS
from .scenario import Scenario
from .state import State
from .store import db
from .store.game_row import SETUP, GameRow

Row = tuple     # a row as db.rows reads it: a named tuple of its table's columns


class Mismatch(Exception):
    """The first place where the stored game and its replay differ."""

    def __init__(self, turn: int, where: str, what: str, expected: object, found: object):
        super().__init__(what)
        self.turn, self.where, self.what, self.expected, self.found = turn, where, what, expected, found

    def message(self) -> str:
        return f"turn {self.turn}, {self.where}: {self.what}: expected {self.expected}, found {self.found}"

    def to_dict(self) -> dict:
        return {"turn": self.turn, "where": self.where, "what": self.what, "expected": str(self.expected),
                "found": str(self.found), "message": self.message()}


@dataclass
class TurnVerdict:
    turn: int
    round: int
    power: str
    steps: int = 0
    groups: int = 0
    dice: int = 0
    revealed: bool = False          # its seed is in the journal: dice recomputed, not copied
    failed: bool = False

    def line(self) -> str:
        head = f"turn {self.turn} ({'bid' if self.round == 0 else f'round {self.round}'}, {self.power}): "
        if self.failed:
            return head + "MISMATCH (below)"
        hashes = f"{self.steps} state hash{'es' if self.steps != 1 else ''} replay"
        if not self.groups:
            rolled = "no dice"
        elif self.revealed:
            rolled = f"{self.groups} dice group(s), {self.dice} dice recomputed from the revealed seed"
        else:
            rolled = f"{self.groups} dice group(s), {self.dice} dice not checkable yet (the seed is revealed when the turn is over)"
        seed = "seed follows the chain; " if self.revealed else "in progress; "
        return head + seed + rolled + "; " + hashes

    def to_dict(self) -> dict:
        return {"turn": self.turn, "round": self.round, "power": self.power, "steps": self.steps,
                "groups": self.groups, "dice": self.dice, "revealed": self.revealed, "ok": not self.failed}


@dataclass
class AuditResult:
    game: str
    submissions: int = 0
    steps: int = 0
    turns: dict[int, TurnVerdict] = field(default_factory=dict)
    state_hash: str = ""
    mismatch: Mismatch | None = None
    setup_hash: str = ""
    orders: list[dict] = field(default_factory=list)      # each submission: seq, power, kind, sha256, status
    posted: list = field(default_factory=list)            # audit_posted.Posted: the reports a player saw

    @property
    def ok(self) -> bool:
        return self.mismatch is None and not any(p.problem for p in self.posted)

    def lines(self) -> list[str]:
        out = [f"audit of game {self.game}: {self.submissions} submission(s), {self.steps} step(s), "
               f"{len(self.turns)} turn(s) replayed from the setup and the journal",
               f"setup hash {self.setup_hash}: it must be the one printed in the game's reports"]
        out += [v.line() for v in self.turns.values()]
        out += [p.describe() for p in self.posted]
        unheld = next((p for p in self.posted if p.problem), None)
        if self.mismatch:
            out.append(f"FAILED at the first mismatch: {self.mismatch.message()}")
        elif unheld:
            out.append(f"FAILED: {unheld.problem}")
        else:
            out.append("OK: every revealed seed, dice group, state hash, stored report and snapshot replays; the current "
                       f"state matches (state hash {self.state_hash})")
        return out

    def to_dict(self) -> dict:
        return {"game": self.game, "setup_hash": self.setup_hash, "ok": self.ok, "submissions": self.submissions,
                "orders": self.orders, "steps": self.steps,
                "turns": [v.to_dict() for v in self.turns.values()], "state_hash": self.state_hash,
                "mismatch": self.mismatch.to_dict() if self.mismatch else None,
                "posted": [p.to_dict() for p in self.posted]}


@dataclass
class Journal:
    """Everything stored about one game, read once, in journal order: rows of its tables (db.rows), each with its
    columns as attributes."""

    game: GameRow
    submissions: list[Row]
    steps: list[Row]
    groups: dict[int, list[Row]]                # step id -> its dice groups, in roll order
    seeds: dict[int, Row]                       # power-turn -> its revealed seed
    state: State                                # the current tables
    reports: list[Row]                          # as stored after each adjudication, in order
    snapshots: dict[int, Row] = field(default_factory=dict)    # turn -> the position kept after it (schema 3)

    def groups_of_turn(self, turn: int) -> dict[str, Row]:
        return {g.label: g for rows in self.groups.values() for g in rows if g.turn_index == turn}


def audit(db_arg: str, progress: Callable[[int, int], None] | None = None, anchor: str | None = None,
          game_id: str | None = None, posted: list | None = None) -> AuditResult:
    """Replay the game in `db_arg` (the one `game_id` names, in a league) and compare; the result names the first
    mismatch, if any. `anchor` (64 hex digits) is the one players saw when the game began; `posted`
    (audit_posted.read), the reports they saw last, which the journal must hold."""
    from . import audit_halves, audit_posted
    journal = read_journal(db_arg, game_id)
    if posted:
        audit_posted.check(posted, journal.game.id, journal.steps)
    replay = Replay(journal, progress or (lambda done, total: None))
    second = None
    try:
        if anchor is not None and anchor != journal.game.anchor:
            raise Mismatch(0, "anchor", "the anchor published when the game began (a game re-keyed with a new dice "
                           "chain has another)", anchor, journal.game.anchor)
        split = audit_halves.split_point(journal)
        second = audit_halves.SecondHalf.start(journal, split) if split else None
        replay.run(until=split if second else None, second=second)
    except Mismatch as m:
        replay.fail(m)
    finally:
        replay.engine.dispose()
        if second is not None:
            second.stop()
    replay.result.posted = posted or []
    return replay.result


def read_journal(db_arg: str, game_id: str | None = None) -> Journal:
    engine = db.choose(db.open_existing(db_arg), db_arg, game_id)
    try:
        with db.transaction(engine, read_only=True) as s:
            game = db.the_game(s, setup=True)
            def journal(sql: str) -> list:
                return db.rows(s, sql, game=game.id)
            subs = journal("SELECT * FROM submission WHERE game_id = :game ORDER BY seq")
            steps = journal("SELECT * FROM step WHERE game_id = :game ORDER BY seq")
            groups: dict[int, list] = {}
            for row in journal("SELECT * FROM dice_group WHERE game_id = :game ORDER BY id"):
                groups.setdefault(row.step_id, []).append(row)
            seeds = {r.turn_index: r for r in journal("SELECT * FROM revealedseed WHERE game_id = :game")}
            state = db.load_state(s, game)
            reports = journal("SELECT * FROM report WHERE game_id = :game ORDER BY id")
            kept = journal("SELECT * FROM snapshot WHERE game_id = :game ORDER BY turn_index") \
                if db.has_table(s, "snapshot") else []
            snapshots = {r.turn_index: r for r in kept}
    finally:
        engine.dispose()
    return Journal(game, subs, steps, groups, seeds, state, reports, snapshots)


def _values(values: list) -> str:
    return " ".join(map(str, values)) or "(none)"


def _units(units: list) -> str:
    return ", ".join(map(str, units))


def _stored_json(text: str, turn: int, where: str, kind: type = list):
    """A JSON list (or object) column of the stored journal: damage there is a mismatch to name, not a crash."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, kind):
        what = "a JSON list" if kind is list else "a JSON object"
        raise Mismatch(turn, where, f"the stored column must be {what}", what, _short(text))
    return value


class JournalDice:
    """The replay's dice source (see game.adjudicate): a turn's revealed seed, checked against the chain,
    or, for a turn whose seed is not revealed yet, the dice the journal stored."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.checked: dict[int, bytes] = {0: self._hex(journal.game.anchor, 0, "the anchor")}

    def roller(self, game_id: str, turn: int, salts: list[str]):
        seed = self._seed(turn)
        if seed is None:
            return dice.FixedRoller(lambda label, sides, count: self._stored(turn, label, sides, count))
        return dice.Roller(dice.turn_key(seed, salts), game_id, turn)

    def seed(self, turn: int) -> bytes:
        seed = self._seed(turn)
        if seed is None:
            raise Mismatch(turn, "end of turn", "the turn is over on replay, so the journal must reveal its seed",
                           "a revealed seed", "none")
        return seed

    def _seed(self, turn: int) -> bytes | None:
        """s_turn from the journal, proven to hash to s_{turn-1} (itself proven, back to the anchor)."""
        if turn in self.checked:
            return self.checked[turn]
        row = self.journal.seeds.get(turn)
        if row is None:
            return None
        if turn - 1 not in self.checked and self._seed(turn - 1) is None:
            raise Mismatch(turn - 1, "revealed seed", "a later turn's seed is revealed, so this one must be too",
                           "a revealed seed", "none")
        seed = self._hex(row.seed, turn, "the revealed seed")
        previous = self.checked[turn - 1]
        if not dice.seed_follows(seed, previous):
            before = "the anchor" if turn == 1 else f"the seed of turn {turn - 1}"
            raise Mismatch(turn, "revealed seed", f"SHA-256 of the revealed seed must be {before}",
                           previous.hex(), dice.sha256_hex(seed))
        self.checked[turn] = seed
        return seed

    @staticmethod
    def _hex(text: str, turn: int, what: str) -> bytes:
        try:
            return dice.unhex(text, what)
        except ValueError as exc:
            raise Mismatch(turn, what, str(exc), "64 hex digits", text) from None

    def _stored(self, turn: int, label: str, sides: int, count: int) -> list[int]:
        row = self.journal.groups_of_turn(turn).get(label)
        where = f"dice group {label}"
        if row is None:
            raise Mismatch(turn, where, "the replay rolls this group but the journal does not hold it",
                           f"{count}d{sides}", "no such group")
        values = _stored_json(row.dice, turn, where)
        if (row.sides, len(values)) != (sides, count):
            raise Mismatch(turn, where, "number of dice and sides", f"{count}d{sides}", f"{len(values)}d{row.sides}")
        if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides for v in values):
            raise Mismatch(turn, where, f"stored values must be 1..{sides}", f"{count} values 1..{sides}", _values(values))
        return values


class Replay:
    """The rebuild of one game in memory, compared step by step with its journal."""

    def __init__(self, journal: Journal, progress: Callable[[int, int], None], engine=None):
        self.journal = journal
        self.progress = progress
        self.result = AuditResult(journal.game.id, len(journal.submissions), len(journal.steps),
                                  setup_hash=journal.game.setup_hash())
        self.dice = JournalDice(journal)
        self.compared = 0                                   # stored steps compared so far
        self.seq_of = {sub.id: sub.seq for sub in journal.submissions}
        self.result.orders = [{"seq": sub.seq, "power": sub.power, "kind": sub.kind, "sha256": sub.sha256,
                               "status": sub.status} for sub in journal.submissions]
        self.reports = 0                                    # stored reports compared so far
        self.unfinished: int | None = None                  # the turn last adjudicated, while it is not over
        self.first_step: dict[int, Row] = {}               # submission id -> its first stored step
        for step in reversed(journal.steps):
            self.first_step[step.submission_id] = step
        self.engine = engine or _fresh_store(journal.game)

    def fail(self, m: Mismatch) -> None:
        self.result.mismatch = m
        if m.turn in self.result.turns:
            self.result.turns[m.turn].failed = True

    def run(self, until: int | None = None, second=None, start: int = 0) -> None:
        """Replay the submissions from number `start` + 1. `until`: where submission `until` + 1 is about to be
        filed, take the verdict of `second` (audit_halves.SecondHalf), which replayed the rest from there, if it
        can be taken; else go on."""
        total = len(self.journal.submissions)
        previous_id = self.journal.submissions[start - 1].id if start else 0
        for k, stored in enumerate(self.journal.submissions[start:], start + 1):
            if k - 1 == until:
                self._catch_up(stored)
                if second is not None and second.take_over(self):
                    return
                second = until = None
            self.progress(k - 1 + (second.done() if second else 0), total)
            where = f"submission {stored.seq} ({stored.power})"
            if stored.seq != k:
                raise Mismatch(stored.turn_index, where, "submission numbers run 1, 2, 3 … in acceptance order", k, stored.seq)
            if stored.id <= previous_id:
                raise Mismatch(stored.turn_index, where, "acceptance order: rows are stored in the order of their "
                               "numbers, and this one was stored before the submission numbered before it",
                               f"a row after row {previous_id}", f"row {stored.id}")
            previous_id = stored.id
            text_hash = dice.sha256_hex(stored.text)
            if text_hash != stored.sha256:
                raise Mismatch(stored.turn_index, where, "SHA-256 of its text (the hash published when it was accepted)",
                               stored.sha256, text_hash)
            self._catch_up(stored)
            self._submit(stored, where)
        self.progress(total, total)
        self._catch_up(None)
        self._finish()

    # -- replaying ------------------------------------------------------------------------------

    def _catch_up(self, target: Row | None) -> None:
        """Adjudicate locked orders until the game stands where `target` was accepted (None: the journal's end)."""
        while True:
            *here, locked = db.peek(self.engine, "SELECT round, turn_index, phase, (SELECT min(seq) FROM submission "
                                                 "WHERE game_id = game.id AND status = 'locked') FROM game")[0]
            here = tuple(here)
            if target is not None and here == (target.round, target.turn_index, target.phase):
                return
            done = locked is not None and self.journal.submissions[locked - 1].status == "done"
            if not done:
                if target is None:
                    return
                raise Mismatch(target.turn_index, f"submission {target.seq} ({target.power})",
                               "the game's position when it was accepted (round, turn, phase)",
                               f"round {here[0]}, turn {here[1]}, {here[2]}",
                               f"round {target.round}, turn {target.turn_index}, {target.phase}")
            self._adjudicate(self.journal.submissions[locked - 1])

    def _submit(self, stored: Row, where: str) -> None:
        try:
            if stored.kind == "edit":
                services.replay_edit(self.engine, stored.text)
                self._compare_new_steps()
                return
            if stored.kind == contacts.KIND:
                contacts.replay(self.engine, stored.text)
                self._compare_new_steps()           # a contact change makes no step: one in the journal is a forgery
                return
            out = services.submit(self.engine, stored.power, stored.text)
        except SubmissionRejected as exc:
            raise Mismatch(stored.turn_index, where, "accepted when it was submitted, but the replay rejects it",
                           "accepted", exc.errors[0].render().splitlines()[0]) from None
        except AdjudicatorError as exc:
            raise Mismatch(stored.turn_index, where, "the replay cannot submit it", "accepted", exc.message) from None
        if out["kind"] != stored.kind:
            raise Mismatch(stored.turn_index, where, "kind of submission", out["kind"], stored.kind)
        self._compare_new_steps()

    def _adjudicate(self, stored: Row) -> None:
        where = f"adjudication of submission {stored.seq} ({stored.power})"
        try:
            out = services.adjudicate(self.engine, None, without_salts=self._fell_back(stored), dice_source=self.dice)
        except AdjudicatorError as exc:
            raise Mismatch(stored.turn_index, where, "the journal adjudicated it, but the replay cannot",
                           "adjudicated", exc.message) from None
        self._compare_new_steps()
        self._compare_report(stored.turn_index)
        self.unfinished = out["turn_index"]
        if out["turn_over"]:                # no later adjudication replaces the turn's snapshot
            self._compare_snapshot(out["turn_index"])

    def _fell_back(self, stored: Row) -> bool:
        """Whether the host adjudicated this submission without some salts, as its first stored step records."""
        first = self.first_step.get(stored.id)
        events = _stored_json(first.events, stored.turn_index, f"step {first.seq} ({first.phase})") if first else []
        return any(isinstance(e, dict) and e.get("type") == "salts" and e.get("missing") for e in events)

    # -- comparing ------------------------------------------------------------------------------

    def _compare_new_steps(self) -> None:
        mine = db.peek(self.engine, "SELECT * FROM step WHERE game_id = :game AND seq > :seq ORDER BY seq",
                       game=self.journal.game.id, seq=self.compared)
        if not mine:
            return
        ids = [st.id for st in mine]
        seqs = dict(db.peek(self.engine, "SELECT id, seq FROM submission WHERE id IN :ids",
                            ids=[st.submission_id for st in mine]))
        groups: dict[int, list] = {i: [] for i in ids}
        for row in db.peek(self.engine, "SELECT * FROM dice_group WHERE step_id IN :ids ORDER BY id", ids=ids):
            groups[row.step_id].append(row)
        for step in mine:
            stored = self.journal.steps[self.compared] if self.compared < len(self.journal.steps) else None
            self._compare_step(step, seqs.get(step.submission_id), groups[step.id], stored)
            self.compared += 1

    def _compare_step(self, mine: Row, sub_seq: int | None, groups: list[Row], stored: Row | None) -> None:
        where = f"step {mine.seq} ({mine.phase})"
        verdict = self.result.turns.setdefault(mine.turn_index, TurnVerdict(mine.turn_index, mine.round, mine.power))
        if stored is None:
            raise Mismatch(mine.turn_index, where, "the replay makes this step, the journal ends before it", "a step", "none")
        fields = [("step number", mine.seq, stored.seq), ("submission", sub_seq, self.seq_of.get(stored.submission_id)),
                  ("turn", mine.turn_index, stored.turn_index), ("round", mine.round, stored.round),
                  ("power", mine.power, stored.power), ("phase", mine.phase, stored.phase)]
        for what, expected, found in fields:
            if expected != found:
                raise Mismatch(mine.turn_index, where, what, expected, found)
        self._compare_groups(mine, groups, self.journal.groups.get(stored.id, []), where)
        if mine.state_hash != stored.state_hash:
            raise Mismatch(mine.turn_index, where, "state hash after the step", mine.state_hash, stored.state_hash)
        if mine.events != stored.events:        # the same text is the same events (both written sorted)
            self._compare_events(mine, stored, where)
        verdict.steps += 1
        verdict.groups += len(groups)
        verdict.dice += sum(g.count for g in groups)
        verdict.revealed = mine.turn_index in self.dice.checked

    @staticmethod
    def _compare_events(mine, stored, where: str) -> None:
        mine_events, stored_events = json.loads(mine.events), _stored_json(stored.events, mine.turn_index, where)
        if mine_events != stored_events and not _worded_alike(mine_events, stored_events):
            k = next((i for i, (a, b) in enumerate(zip(mine_events, stored_events)) if a != b),
                     min(len(mine_events), len(stored_events)))
            raise Mismatch(mine.turn_index, where, f"report event {k + 1}",
                           _event(mine_events, k), _event(stored_events, k))

    def _compare_groups(self, step: Row, mine: list[Row], stored: list[Row], where: str) -> None:
        theirs = {g.label: g for g in stored}
        for g in mine:
            at = f"{where}, dice group {g.label}"
            other = theirs.pop(g.label, None)
            if other is None:
                raise Mismatch(step.turn_index, at, "the replay rolls this group but the journal does not hold it",
                               f"d{g.sides}: {_values(json.loads(g.dice))}", "no such group")
            pairs = [("turn", g.turn_index, other.turn_index), ("sides", g.sides, other.sides),
                     ("values", _values(json.loads(g.dice)), _values(_stored_json(other.dice, step.turn_index, at))),
                     ("count", g.count, other.count),
                     ("units", _units(json.loads(g.units)), _units(_stored_json(other.units, step.turn_index, at)))]
            for what, expected, found in pairs:
                if expected != found:
                    raise Mismatch(step.turn_index, at, what, expected, found)
        if theirs:
            label = next(iter(theirs))
            raise Mismatch(step.turn_index, f"{where}, dice group {label}", "the journal holds a group the replay never rolls",
                           "no such group", f"d{theirs[label].sides}: {theirs[label].dice}")
        order = [g.label for g in mine], [g.label for g in stored]
        if order[0] != order[1]:
            raise Mismatch(step.turn_index, where, "order of the dice groups", ", ".join(order[0]), ", ".join(order[1]))

    def _compare_report(self, turn: int) -> None:
        """The report the adjudication just stored, against the one stored at that moment in the game."""
        mine = db.peek(self.engine, "SELECT turn_index, format, text FROM report ORDER BY id DESC LIMIT 1")[0]
        where = f"report {self.reports + 1}"
        if self.reports >= len(self.journal.reports):
            raise Mismatch(turn, where, "every adjudication stores its report, and the journal holds none for this one",
                           "a stored report", "none")
        stored = self.journal.reports[self.reports]
        self.reports += 1
        if (stored.turn_index, stored.format) != (mine.turn_index, mine.format):
            raise Mismatch(turn, where, "turn and format of the stored report", f"turn {mine.turn_index}, {mine.format}",
                           f"turn {stored.turn_index}, {stored.format}")
        earlier = self._template_version(self.reports - 1, turn, where) < TEMPLATE_VERSION
        if stored.text != mine.text and not _worded_alike(mine.text, stored.text):
            ours, theirs = mine.text.splitlines(), (stored.text or "").splitlines()
            if earlier:
                # written by an earlier version of the templates: its prose differs, so only what it proves is
                # compared (the journal's events behind the prose were compared step by step already)
                ours, theirs = _proof(ours), _proof(theirs)
                if ours == theirs:
                    return
            k = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
            raise Mismatch(turn, f"{where}, line {k + 1}", "the stored report must be the one the replay writes "
                           "(was it edited, or the game's setup, flags or orders changed after it was posted?)",
                           _line(ours, k), _line(theirs, k))

    def _compare_snapshot(self, turn: int) -> None:
        """The position the journal kept after `turn` (what `report`, `post` and `map --turn` show), against the
        replay's. A game kept snapshots from its upgrade to schema 3 on: none is missing after the first."""
        self.unfinished = None
        where = f"snapshot of turn {turn}"
        stored = self.journal.snapshots.get(turn)
        if stored is None:
            if any(isinstance(t, int) and t < turn for t in self.journal.snapshots):
                raise Mismatch(turn, where, "the position after every turn since the first snapshot is kept, and the "
                               "journal lacks this one", "a snapshot", "none")
            return
        mine = db.peek(self.engine, "SELECT data FROM snapshot WHERE turn_index = :turn", turn=turn)[0].data
        if mine == stored.data:             # both written by save_snapshot, keys sorted
            return
        mine, found = json.loads(mine), _stored_json(stored.data, turn, where, dict)
        if self._written_before(SUMMARY_KEPT_FROM):   # snapshots keep the turn's summary from then on
            for key in SUMMARY_KEYS:
                if key not in found:
                    mine.pop(key, None)
        if mine != found:
            at, expected, got = _first_difference("", mine, found)
            raise Mismatch(turn, f"{where} ({at.strip()})", "the position kept after the turn (shown by report, post "
                           "and map --turn) must be the replayed one", _short(expected), _short(got))

    def _written_before(self, version: int) -> bool:
        """Whether the turn's latest report, stored with its snapshot, was written by templates older than
        `version` (and so by an adjudicator that kept less in the snapshot)."""
        latest = self.journal.reports[self.reports - 1] if 0 < self.reports <= len(self.journal.reports) else None
        return latest is not None and getattr(latest, "template_version", 0) < version

    def _template_version(self, index: int, turn: int, where: str) -> int:
        """The version of the templates that wrote the stored report, as the journal kept it with the report (none
        before schema 5: 0). Versions only rise as a game goes on, so a report cannot be passed off as older than
        the one before it."""
        version = getattr(self.journal.reports[index], "template_version", 0)
        what = "the version of the templates that wrote the report"
        if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= TEMPLATE_VERSION:
            raise Mismatch(turn, where, f"{what} (this adjudicator writes version {TEMPLATE_VERSION})",
                           f"0 to {TEMPLATE_VERSION}", _short(version))
        before = getattr(self.journal.reports[index - 1], "template_version", 0) if index else 0
        if isinstance(before, int) and version < before:
            raise Mismatch(turn, where, f"{what}: reports are written in order, so none was written by older "
                           "templates than the report before it", f"{before} or later", version)
        return version

    def _finish(self) -> None:
        """After the last submission: nothing left over, the same seeds and salts, the same snapshots and current
        state."""
        if self.reports < len(self.journal.reports):
            extra = self.journal.reports[self.reports]
            raise Mismatch(extra.turn_index, f"report {self.reports + 1}", "the journal holds a report of an "
                           "adjudication the replay never makes", "no such report", "a report")
        if self.compared < len(self.journal.steps):
            extra = self.journal.steps[self.compared]
            raise Mismatch(extra.turn_index, f"step {extra.seq} ({extra.phase})",
                           "the journal holds a step the replay never makes", "no such step", "a step")
        known = {st.id for st in self.journal.steps}
        for step_id, rows in self.journal.groups.items():
            if step_id not in known:
                raise Mismatch(rows[0].turn_index, f"dice group {rows[0].label}", "the group belongs to no step of the journal",
                               "a step", f"step id {step_id}")
        game = self.journal.game.id
        subs = db.peek(self.engine, "SELECT * FROM submission WHERE game_id = :game ORDER BY seq", game=game)
        seeds = {r.turn_index: r for r in db.peek(self.engine, "SELECT * FROM revealedseed WHERE game_id = :game",
                                                  game=game)}
        with Session(self.engine) as s:
            state = db.load_state(s, db.the_game(s))
        for mine, stored in zip(subs, self.journal.submissions):
            if mine.status != stored.status:
                raise Mismatch(stored.turn_index, f"submission {stored.seq} ({stored.power})", "status", mine.status, stored.status)
        for turn, stored in sorted(self.journal.seeds.items()):
            if turn not in seeds:
                raise Mismatch(turn, "revealed seed", "a seed is revealed only when its turn is over, and this turn is not",
                               "no seed yet", stored.seed)
            if json.loads(seeds[turn].salts) != _stored_json(stored.salts, turn, "salts of the dice key"):
                raise Mismatch(turn, "salts of the dice key", "the salts accepted for the turn, in order",
                               seeds[turn].salts, stored.salts)
        if self.unfinished is not None:
            self._compare_snapshot(self.unfinished)
        played = {step.turn_index for step in self.journal.steps}
        never = [turn for turn in self.journal.snapshots if turn not in played]
        if never:
            raise Mismatch(never[0], f"snapshot of turn {never[0]}", "the journal holds the position after a turn "
                           "that was never adjudicated", "no snapshot", "a snapshot")
        self._compare_state(state)

    def _compare_state(self, replayed: State) -> None:
        mine, stored = replayed.to_dict(), self.journal.state.to_dict()
        turn = replayed.turn_index
        for key in mine:
            if mine[key] != stored.get(key):
                where, expected, found = _first_difference(key, mine[key], stored.get(key))
                raise Mismatch(turn, f"current state ({where})", "the tables must hold the state the journal leads to",
                               _short(expected), _short(found))
        if self.journal.game.state_hash != replayed.hash():
            raise Mismatch(turn, "current state", "the game's stored state hash", replayed.hash(), self.journal.game.state_hash)
        self.result.state_hash = replayed.hash()


_ARTICLE = re.compile(r"\bthe (?=[A-Z])")
_POSSESSIVE = re.compile(r"(?<=[A-Za-z])'s?(?![A-Za-z])")


def _worded_alike(mine: object, stored: object) -> bool:
    """Events or reports that differ only in how a power's possessive is written: earlier versions wrote
    `Germans's transports` and `Germans units` where the replay writes `the Germans' …`. The facts are the same,
    so a game played then still audits."""
    def plain(value: object) -> str:
        return _POSSESSIVE.sub("", _ARTICLE.sub("", value if isinstance(value, str) else json.dumps(value, sort_keys=True)))
    return plain(mine) == plain(stored)


def _first_difference(where: str, a: object, b: object) -> tuple[str, object, object]:
    """The innermost place where two values of the state differ, so that a long list names the one bad item."""
    if isinstance(a, dict) and isinstance(b, dict):
        key = next((k for k in sorted(a.keys() | b.keys(), key=str) if a.get(k) != b.get(k)), None)
        if key is not None:
            return _first_difference(f"{where} {key}", a.get(key), b.get(key))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if k is not None:
            return _first_difference(f"{where} item {k + 1}", a[k], b[k])
    return where, a, b


def _proof(lines: list[str]) -> list[str]:
    """A report's dice block (without the `holds:` line that earlier versions did not write) and its hashes."""
    out, inside = [], False
    for line in lines:
        if line == "adjudicator dice":
            inside = True
        elif inside and line.startswith("```"):
            inside = False
        if inside and not line.startswith("holds: ") or line.startswith("State hash"):
            out.append(line)
    return out


def _line(lines: list[str], k: int) -> str:
    return _short(lines[k]) if k < len(lines) else "(end of report)"


def _event(events: list[dict], k: int) -> str:
    return _short(events[k]) if k < len(events) else "no event"


def _short(value: object, limit: int = 300) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def _fresh_store(stored: GameRow):
    """An in-memory game database holding the stored game as it was created: same rows, initial state."""
    try:
        state = State.from_dict(json.loads(stored.initial_state))
        order = Scenario.from_json(stored.scenario).turn_players()
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"the game's stored setup is damaged ({type(exc).__name__}: {exc}), so it cannot be "
                         "replayed: restore the database from a copy") from None
    engine = db.live(db.create("sqlite://"))
    with Session(engine) as s:
        game = replace(stored)
        db.insert(s, "game", **{k: v for k, v in asdict(game).items() if k not in SETUP})
        db.insert(s, "game_setup", game_id=game.id, scenario=game.scenario, initial_state=game.initial_state)
        db.save_state(s, game, state, turn_order=order)
        s.commit()
    return engine
