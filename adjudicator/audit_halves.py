"""`audit` on two cores: a second process replays the later part of the journal while this one replays the first.

The second process must start where the first part ends, and no table holds a whole past position. So it first
brings the position forward by the rules alone (`fast_forward`: the orders played with the same dice, no checks,
store, reports or comparisons; about a third of the cost of the full replay of those turns), then replays the rest
with the very services the full replay runs, on a store that holds the journal's rows up to there.

Nothing is taken on trust. The position it starts from must have the state hash the journal stored at that point,
which the first process reaches by the full replay, step by step, and checks against its own before it takes the
second process's verdict. Whatever the second process cannot do (a position that does not match, an error) leaves
the first to replay the rest itself, as it would on one core. A mismatch in the first part is reported first.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from dataclasses import dataclass

from sqlmodel import Session

from . import contacts, game as services
from .audit import Journal, JournalDice, Mismatch, Replay, _fresh_store
from .store import db
from .turn_summary import changed_hands

# The second process's share: the first process replays a fraction SHARE of the submissions in full while the
# second brings the position forward through them at about a third of the cost, then replays the rest.
SHARE = 0.6
MIN_SUBMISSIONS = 24            # below this the second process's start costs more than it saves
ENABLED = True                  # tests turn it off to compare with the replay on one core


def split_point(journal: Journal) -> int | None:
    """The number of submissions the first process replays, or None to replay on one core: near SHARE of them,
    where every turn submission before is of an earlier power-turn than the next one (so none is locked there)."""
    subs = journal.submissions
    if not ENABLED or len(subs) < MIN_SUBMISSIONS or not _two_cores():
        return None
    latest, before = 0, []                  # before[k]: the latest power-turn of a turn submission before k
    for sub in subs:
        before.append(latest)
        if sub.kind == "turn":
            latest = max(latest, sub.turn_index)
    want = round(len(subs) * SHARE)
    for k in sorted(range(1, len(subs)), key=lambda k: abs(k - want))[:len(subs) // 4]:
        if before[k] < subs[k].turn_index:
            return k
    return None


def _two_cores() -> bool:
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores >= 2


@dataclass
class SecondHalf:
    """The process replaying the submissions after the first `split`, seen from the first process."""

    process: multiprocessing.Process
    inbox: object                   # the receiving end of its pipe
    split: int
    progressed: int = 0
    early: tuple | None = None      # a message other than progress, read while polling for progress

    @classmethod
    def start(cls, journal: Journal, split: int) -> "SecondHalf":
        context = multiprocessing.get_context("fork")
        inbox, outbox = context.Pipe(duplex=False)
        process = context.Process(target=_second_half, args=(journal, split, outbox), daemon=True)
        process.start()
        outbox.close()
        return cls(process, inbox, split)

    def done(self) -> int:
        """How many submissions it has replayed so far."""
        while self.early is None and self.inbox.poll():
            message = self.inbox.recv()
            if message[0] == "progress":
                self.progressed = message[1]
            else:
                self.early = message
        return self.progressed

    def take_over(self, first: Replay) -> bool:
        """At the split, with `first` standing there: take the second process's verdict into `first.result`, if
        it started from this very position and finished; False leaves `first` to go on alone."""
        ready = self._wait()
        if ready[0] != "ready":
            return self.stop()
        with Session(first.engine) as s:
            here, locked = db.rows(s, "SELECT state_hash, (SELECT count(*) FROM submission WHERE game_id = game.id "
                                      "AND status = 'locked') FROM game")[0]
        if locked or here != ready[1]:
            return self.stop()
        verdict = self._wait()
        if verdict[0] != "done":
            return self.stop()
        _, turns, mismatch, state_hash = verdict
        for turn, later in turns.items():
            earlier = first.result.turns.get(turn)
            if earlier is None:
                first.result.turns[turn] = later
            else:                               # a power-turn played in two posts, one each side of the split
                earlier.steps, earlier.groups, earlier.dice = (earlier.steps + later.steps, earlier.groups + later.groups,
                                                               earlier.dice + later.dice)
                earlier.revealed, earlier.failed = later.revealed, later.failed
        first.result.state_hash = state_hash
        if mismatch is not None:
            first.result.mismatch = Mismatch(*mismatch)
        return True

    def _wait(self) -> tuple:
        if self.early is not None:
            early, self.early = self.early, None
            return early
        while True:
            try:
                message = self.inbox.recv()
            except (EOFError, OSError):
                return ("failed", "the second process ended without a verdict")
            if message[0] != "progress":
                return message
            self.progressed = message[1]

    def stop(self) -> bool:
        """End the second process (its verdict is not taken); False."""
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.inbox.close()
        return False


def _second_half(journal: Journal, split: int, outbox) -> None:
    """The second process: bring the position forward to the split, then replay and compare the rest."""
    try:
        engine = _fresh_store(journal.game)
        dice = JournalDice(journal)
        with db.transaction(engine, write=True) as s:
            g = services.open_game(s)
            changed: dict[int, list] = {}
            why_not = fast_forward(g, journal, split, dice, changed)
            mine = {sub.id for sub in journal.submissions[:split]}
            steps = sum(1 for step in journal.steps if step.submission_id in mine)
            if not steps or any(step.submission_id not in mine for step in journal.steps[:steps]):
                why_not = "the journal's steps up to there are not those of its submissions up to there"
            if why_not is None:
                expected = journal.steps[steps - 1].state_hash
                db.save_state(s, g.game, g.state)
                if g.game.state_hash != expected:
                    why_not = "the position brought forward is not the one the journal stored"
            if why_not is not None:
                outbox.send(("refused", why_not))
                return
            _copy_journal(s, journal, split, steps, g.state.turn_index)
            if g.state.turn_index in changed:   # a turn in parts: its snapshot so far, as the full replay has it
                so_far = changed[g.state.turn_index]
                db.save_snapshot(s, g.game, g.state.turn_index, g.state, {"changed": so_far} if so_far else {})
            s.commit()
        outbox.send(("ready", g.game.state_hash))
        replay = Replay(journal, lambda done, total: outbox.send(("progress", done - split)), engine)
        replay.dice, replay.compared = dice, steps
        replay.reports = sum(1 for sub in journal.submissions[:split] if sub.kind == "turn")
        try:
            replay.run(start=split)
        except Mismatch as m:
            replay.fail(m)
        finally:
            engine.dispose()
        m = replay.result.mismatch
        outbox.send(("done", replay.result.turns,
                     None if m is None else (m.turn, m.where, m.what, str(m.expected), str(m.found)),
                     replay.result.state_hash))
    except Exception as exc:            # noqa: BLE001 - any failure leaves the first process to replay alone
        try:
            outbox.send(("failed", f"{type(exc).__name__}: {exc}"))
        except OSError:                 # the first process is gone (killed): so is the reader
            pass
    finally:
        outbox.close()


def fast_forward(g: services.Loaded, journal: Journal, split: int, dice: JournalDice,
                 changed: dict[int, list] | None = None) -> str | None:
    """Bring `g.state` to where submission `split` + 1 was filed, by the rules alone, in the full replay's order
    (Replay.run): locked turn submissions are played until the position is the one each submission was filed
    in; standing orders and corrections are applied as filed. Returns why it cannot, or None. `changed`: filled
    with what changed hands in each turn played (turn_summary.changed_hands, as `adjudicate` keeps it)."""
    changed = {} if changed is None else changed
    from .corrections import apply
    state, setup, locked = g.state, g.setup, []
    for k, target in enumerate(journal.submissions[:split + 1]):
        while (state.round, state.turn_index, state.phase) != (target.round, target.turn_index, target.phase):
            if not locked:
                return f"submission {target.seq} was filed in another position"
            sub = locked.pop(0)
            seed = journal.seeds.get(state.turn_index)
            salts = json.loads(seed.salts) if seed is not None else []
            before, turn_of = dict(state.owners), state.turn_index
            setup.play(state, sub, dice.roller(journal.game.id, state.turn_index, salts), hashed=False)
            changed[turn_of] = changed_hands(before, state.owners, {"changed": changed.get(turn_of, [])})
        if k == split:
            break
        if target.kind == contacts.KIND:           # no part of the position
            continue
        if target.kind == "edit":
            corrections = setup.read_corrections(services.stored_edit(target.text)[1])
            if corrections.errors or apply(setup.rules, state, corrections.submission.orders)[1]:
                return f"correction {target.seq} does not apply"
            continue
        parsed = setup.parse(target.text, target.power, state.phase if target.power == state.power else None)
        standing = services.standing_orders(parsed.submission.orders)
        if standing:
            services.apply_standing(setup.rules, state, target.power, standing)
        if target.kind == "turn":
            locked.append(target)
    return "orders are locked there" if locked else None


def _copy_journal(s: Session, journal: Journal, split: int, steps: int, turn: int) -> None:
    """The journal's rows up to the split, as the full replay has them there: the submissions (all played), their
    steps and dice, and the seeds of the power-turns over."""
    ids = {}
    for sub in journal.submissions[:split]:
        ids[sub.id] = db.insert(s, "submission", "id", game_id=journal.game.id, seq=sub.seq, power=sub.power,
                                kind=sub.kind, round=sub.round, turn_index=sub.turn_index, phase=sub.phase,
                                text=sub.text, sha256=sub.sha256, status="done", created_at=sub.created_at)
    for step in journal.steps[:steps]:
        new = db.insert(s, "step", "id", game_id=journal.game.id, seq=step.seq, submission_id=ids[step.submission_id],
                        turn_index=step.turn_index, round=step.round, power=step.power, phase=step.phase,
                        events=step.events, state_hash=step.state_hash)
        for g in journal.groups.get(step.id, []):
            db.insert(s, "dice_group", game_id=journal.game.id, step_id=new, turn_index=g.turn_index, label=g.label,
                      sides=g.sides, count=g.count, dice=g.dice, units=g.units)
    for t, seed in sorted(journal.seeds.items()):
        if t < turn:
            db.insert(s, "revealedseed", game_id=journal.game.id, turn_index=t, seed=seed.seed, salts=seed.salts)
