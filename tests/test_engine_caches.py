"""What the rules engine keeps between calls must never go stale: the state hash after every kind of change, the
scenario's lookups handed out as copies, and presence conditions that skip places without a listed unit type."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
from contextlib import nullcontext

import pytest

from adjudicator.games import game_module
from adjudicator.rules.conditions import Conditions
from adjudicator.scenario import Attachment
from adjudicator.state import State, canonical_json
from cases.runner import map_scenario

AU = "G40_Alt_Universe_v2.0.8_beta-1.3"


@pytest.fixture(scope="module")
def au():
    return game_module("g40-alt-universe").RULES(map_scenario(AU))


def fresh_hash(state: State) -> str:
    return hashlib.sha256(canonical_json(state.to_dict()).encode("utf-8")).hexdigest()


def test_the_hash_follows_every_change_of_the_position(au):
    state = State.initial(au.scenario)
    other = State.initial(au.scenario)
    unit = state.units[0]
    changes = [
        lambda: state.owners.__setitem__("G2", "Russians"),
        lambda: state.owners.pop("G2"),
        lambda: state.original_owners.__setitem__("G5", "Italians"),
        lambda: state.set_relationship("Germans", "Russians", "War"),
        lambda: state.relationships.__setitem__(("Americans", "Japanese"), "War"),
        lambda: state.treasury.__setitem__("Germans", 3),
        lambda: setattr(unit, "place", "G5"),
        lambda: setattr(unit, "owner", "Italians"),
        lambda: setattr(unit, "damage", 1),
        lambda: setattr(unit, "moved", 2),
        lambda: unit.mark(fought=True),
        lambda: unit.mark(fought=1),                          # True and 1 give different texts
        lambda: setattr(unit, "flags", {}),
        lambda: setattr(unit, "carried_by", state.units[1].id),
        lambda: state.add_unit("infantry", "Germans", "G2"),
        lambda: state.remove_units([state.units[2].id]),
        lambda: state.conquered.append("G2"),
        lambda: state.switches.__setitem__("some switch", True),
    ]
    state.units_at("G2")                                  # the index by place is kept from here on
    for change in changes:
        change()
        assert state.hash() == fresh_hash(state)
        assert other.hash() == fresh_hash(other)      # another position hashed in between keeps its own text
        assert state.copy() == State.from_dict(json.loads(canonical_json(state.to_dict())))
        assert_index_true(state)


def assert_index_true(state: State) -> None:
    """units_at, by_place and counts_by_place answer what a pass over the units would."""
    scanned: dict[str, list] = {}
    tally: dict[tuple[str, str, str], int] = {}
    for u in state.units:
        scanned.setdefault(u.place, []).append(u)
        tally[u.place, u.owner, u.type] = tally.get((u.place, u.owner, u.type), 0) + 1
    assert [(p, *c) for p, here in state.counts_by_place().items() for c in here] == [(*k, n) for k, n in sorted(tally.items())]
    assert [u.id for u in state.units] == sorted(u.id for u in state.units)
    assert {p: [u.id for u in us] for p, us in state.by_place().items()} == {p: [u.id for u in us] for p, us in scanned.items()}
    assert list(state.by_place()) == list(scanned)
    for place, here in scanned.items():
        assert [u.id for u in state.units_at(place)] == [u.id for u in here]
        for owner in {u.owner for u in here}:
            assert state.units_at(place, owner) == [u for u in here if u.owner == owner]


def test_the_index_by_place_follows_moves_captures_and_losses(au):
    state = State.initial(au.scenario)
    assert_index_true(state)
    copy = state.copy()
    place, stack = max(state.by_place().items(), key=lambda item: len(item[1]))
    for u in stack[:3]:
        u.place = "G5"
    stack[3].owner = "Russians"
    state.remove_units([stack[4].id, state.units_at("G5")[0].id])
    state.add_unit("armour", "Germans", place)
    assert_index_true(state)
    assert_index_true(copy)                               # the copy's units are its own
    assert [u.id for u in copy.units_at(place)] == [u.id for u in State.initial(au.scenario).units_at(place)]
    state.remove_units([2])
    state.next_unit_id = 2                                # set back by hand: the units stay in id order
    state.add_unit("infantry", "Germans", place)
    assert_index_true(state)


def test_a_unit_or_list_changed_behind_the_states_back_is_refused(au):
    """The state keeps each unit's hash text and its units by place, so changes it would not see are errors."""
    state = State.initial(au.scenario)
    unit = state.units[0]
    for sneak in (lambda: unit.flags.__setitem__("fought", True), lambda: unit.flags.pop("fought", None),
                  lambda: unit.flags.update(fought=True), lambda: state.units.append(unit),
                  lambda: state.units.remove(unit), lambda: state.units.__delitem__(0)):
        with pytest.raises(TypeError):
            sneak()
    unit.mark(fought=True, landing="G5")
    assert unit.unmark("landing") == "G5" and unit.flags == {"fought": True}
    state.units = [u for u in state.units if u is not unit]    # a new list is taken in whole
    assert_index_true(state)
    assert state.hash() == fresh_hash(state)


@pytest.mark.parametrize("fails", [False, True])
def test_a_trial_puts_every_kind_of_change_back(au, fails):
    """`check` tries a turn on the state itself (State.trial): whatever the orders did, and however the trial ends,
    the state is the one it was, its units the same objects, and its later changes are seen as before."""
    state = State.initial(au.scenario)
    place, stack = max(state.by_place().items(), key=lambda item: len(item[1]))
    stack[0].mark(fought=True)
    before, ids, objects = state.to_dict(), state.hash(), list(state.units)
    with pytest.raises(ZeroDivisionError) if fails else nullcontext():
        with state.trial() as trial:
            assert trial is state
            for u in stack[:3]:
                u.place = "G5"
            stack[0].unmark("fought")
            stack[3].owner, stack[3].damage, stack[3].moved = "Russians", 1, 2
            state.add_unit("armour", "Germans", place).mark(placed=True)
            state.remove_units([stack[4].id, state.units_at("G5")[0].id])
            assert_index_true(state)
            state.treasury["Germans"] -= 5
            state.owners["G5"] = "Russians"
            state.purchases.setdefault("Germans", {})["infantry"] = 2
            state.conquered.append("G5")
            state.set_relationship("Germans", "Russians", "War")
            state.phase, state.round = "noncombat_move", 7
            state.units = [u for u in state.units if u.id != stack[5].id]     # a new list, taken in whole
            stack[6].place = place if stack[6].place != place else "G5"
            assert_index_true(state)
            1 / 0 if fails else None
    assert state.to_dict() == before and state.hash() == ids == fresh_hash(state)
    assert state.units == objects and all(a is b for a, b in zip(state.units, objects))
    assert_index_true(state)
    stack[1].place = "G5"                                 # changes after the trial are tracked as ever
    state.remove_units([stack[2].id])
    assert state.hash() == fresh_hash(state)
    assert_index_true(state)
    with state.trial():
        with pytest.raises(RuntimeError):
            with state.trial():
                pass


def test_a_pickled_or_deep_copied_state_keeps_tracking_its_changes(au):
    """A state sent to another process, or deep-copied, is a whole one: its units still tell it their changes."""
    state = State.initial(au.scenario)
    state.units_at("G2")
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin.hash() == state.hash()
        twin.units[0].place = "G5"
        twin.remove_units([twin.units[1].id])
        assert twin.hash() == fresh_hash(twin) != state.hash()
        assert_index_true(twin)
        with twin.trial():
            twin.units[2].owner = "Russians"
        assert twin.hash() == fresh_hash(twin)


def test_lookups_the_scenario_keeps_are_handed_out_as_copies(au):
    scenario = au.scenario
    for ask in (scenario.turn_players, lambda: scenario.phases_of("Germans"), lambda: scenario.guests_of("British"),
                lambda: scenario.attachments_of("trigger"), lambda: scenario.steps_of("Germans", "purchase")):
        first = ask()
        kept = list(first)
        first.append("changed by a caller")
        assert ask() == kept


def test_a_presence_test_finds_a_listed_unit_wherever_it_stands(au):
    state = State.initial(au.scenario)
    cond = Attachment("conditionTest", "Germans", "condition", [
        ["directPresenceTerritories", "map", "1"], ["unitPresence", "infantry:armour", "2"],
        ["players", "Germans:Italians", ""]])
    place = next(t.name for t in au.scenario.territories if not t.water and not state.units_at(t.name))
    assert Conditions(au).test(state, cond)[0]                           # German stacks hold two of them
    state.units = [u for u in state.units if u.type not in ("infantry", "armour")]
    assert not Conditions(au).test(state, cond)[0]
    state.add_unit("infantry", "Germans", place)
    assert not Conditions(au).test(state, cond)[0]                       # one is not two
    state.add_unit("armour", "Italians", place)
    assert Conditions(au).test(state, cond)[0]
    state.units[-1].owner = "Russians"                                   # not one of the condition's players
    assert not Conditions(au).test(state, cond)[0]
