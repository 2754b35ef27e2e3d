"""The audited dice against DESIGN.md "Audited dice — normative".

Two kinds of known answers: an independent re-implementation of the protocol written here with hashlib and
hmac only (so the module is checked against the text of the design, not against itself), and literal vectors
computed once (and cross-checked with `openssl dgst`) so that any change of the algorithm fails loudly.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator import dice
from adjudicator.dice import (
    CHAIN_LENGTH, DiceGroup, DuplicateLabel, FixedRoller, MissingDice, Roller, anchor, byte_stream, chain_seed,
    check_label, dice_from_bytes, hexb, roll, seed_follows, seed_matches_anchor, sha256_hex, turn_key, unhex,
)

SECRET = bytes(range(32))
LABEL = "battle:Poland:r1:attacker"

# Known-answer vectors: secret = bytes(range(32)), n = 4096.
ANCHOR_HEX = "fbd3136db367d4cb21dc522f7e8a28ccce1bec79ee01d51fcd31af5d31c08754"
S1_HEX = "27ad82e6eeaf90dedb923c1fa2aa6d5188210e9ad587e6f1583ffb104245bc3e"
# key s_1, game "demo", turn 1, label LABEL, 10d6
ROLL_10D6 = [2, 1, 4, 6, 3, 4, 1, 5, 3, 1]
# the same, 5d20
ROLL_5D20 = [16, 13, 6, 16, 1]
# strict mode: key = H(s_1 || "alice" || "bob")
SALTED_KEY_HEX = "bc3cb12cf3981806a39770cd1539a0525a4b5faade136fabab76246727183617"
SALTED_10D6 = [3, 3, 5, 3, 4, 4, 6, 3, 5, 1]
# non-ASCII label and a space: game "Partie-1", turn 1, label "battle:76 Sea Zone:r1:défenseur", 10d6
UTF8_LABEL = "battle:76 Sea Zone:r1:d\u00e9fenseur"
UTF8_10D6 = [4, 3, 5, 3, 3, 4, 5, 1, 4, 5]


# --- an independent reading of the protocol -----------------------------------------------------------------

def ref_chain(secret: bytes, n: int) -> list[bytes]:
    """[s_0, s_1, …, s_n]."""
    seeds = [secret]
    for _ in range(n):
        seeds.append(hashlib.sha256(seeds[-1]).digest())
    return seeds[::-1]


def ref_bytes(key: bytes, game_id: str, turn: int, label: str, blocks: int) -> bytes:
    return b"".join(
        hmac.new(key, f"{game_id}|{turn}|{label}|{block}".encode("utf-8"), hashlib.sha256).digest()
        for block in range(blocks)
    )


def ref_roll(key: bytes, game_id: str, turn: int, label: str, sides: int, count: int) -> list[int]:
    out: list[int] = []
    blocks = 1
    while True:
        out = [b % sides + 1 for b in ref_bytes(key, game_id, turn, label, blocks) if b < 256 - (256 % sides)]
        if len(out) >= count:
            return out[:count]
        blocks += 1


S1 = bytes.fromhex(S1_HEX)


# --- chain ---------------------------------------------------------------------------------------------------

def test_known_anchor_and_first_seed():
    assert hexb(anchor(SECRET)) == ANCHOR_HEX
    assert hexb(chain_seed(SECRET, 1)) == S1_HEX
    assert chain_seed(SECRET, CHAIN_LENGTH) == SECRET


def test_chain_matches_reference():
    seeds = ref_chain(SECRET, 64)
    for i in range(65):
        assert chain_seed(SECRET, i, 64) == seeds[i]


def test_consecutive_seeds_follow_and_match_anchor():
    a = anchor(SECRET)
    for i in (1, 2, 3, 17, 100, 4095, 4096):
        seed = chain_seed(SECRET, i)
        assert seed_follows(seed, chain_seed(SECRET, i - 1))
        assert seed_matches_anchor(seed, i, a)
    assert seed_matches_anchor(a, 0, a)


def test_wrong_seed_fails():
    a = anchor(SECRET)
    s5 = chain_seed(SECRET, 5)
    assert not seed_matches_anchor(s5, 4, a)
    assert not seed_matches_anchor(s5, 6, a)
    assert not seed_follows(s5, chain_seed(SECRET, 3))
    assert not seed_follows(chain_seed(SECRET, 4), s5)  # the wrong way round
    tampered = bytes([s5[0] ^ 1]) + s5[1:]
    assert not seed_matches_anchor(tampered, 5, a)


@pytest.mark.parametrize("i, n", [(-1, 10), (11, 10), (0, 0), (True, 10), (1.0, 10)])
def test_chain_seed_rejects_bad_index(i, n):
    with pytest.raises(ValueError):
        chain_seed(SECRET, i, n)


@pytest.mark.parametrize("secret", [b"", bytes(31), bytes(33)])
def test_chain_seed_rejects_secret_of_wrong_size(secret):
    with pytest.raises(ValueError):
        chain_seed(secret, 0)


def test_new_secret_is_fresh():
    a, b = dice.new_secret(), dice.new_secret()
    assert len(a) == 32 and a != b


# --- keys and bytes ------------------------------------------------------------------------------------------

def test_turn_key_without_salts_is_the_seed():
    assert turn_key(S1) == S1
    assert turn_key(S1, []) == S1


def test_turn_key_with_salts():
    assert hexb(turn_key(S1, ["alice", "bob"])) == SALTED_KEY_HEX
    assert turn_key(S1, ["alice", "bob"]) == hashlib.sha256(S1 + b"alice" + b"bob").digest()
    assert turn_key(S1, ["\u00e9"]) == hashlib.sha256(S1 + "\u00e9".encode("utf-8")).digest()
    assert turn_key(S1, ["alice", "bob"]) != turn_key(S1, ["bob", "alice"])


def test_empty_salt_is_refused_because_it_would_reveal_the_key():
    # H(s_1 || "") == s_0, the public anchor.
    with pytest.raises(ValueError):
        turn_key(S1, [""])
    with pytest.raises(ValueError):
        turn_key(S1, "alice")


def test_byte_stream_matches_reference_over_several_blocks():
    stream = byte_stream(S1, "demo", 7, LABEL)
    got = bytes(next(stream) for _ in range(32 * 3 + 5))
    assert got == ref_bytes(S1, "demo", 7, LABEL, 4)[: 32 * 3 + 5]


def test_byte_stream_checks_arguments_at_once():
    with pytest.raises(ValueError):
        byte_stream(S1, "demo", 0, LABEL)
    with pytest.raises(ValueError):
        byte_stream(S1, "demo", 1, "a|b")
    with pytest.raises(ValueError):
        byte_stream(b"short", "demo", 1, LABEL)


# --- dice ----------------------------------------------------------------------------------------------------

def test_known_rolls():
    assert roll(S1, "demo", 1, LABEL, 6, 10) == ROLL_10D6
    assert roll(S1, "demo", 1, LABEL, 20, 5) == ROLL_5D20
    assert roll(turn_key(S1, ["alice", "bob"]), "demo", 1, LABEL, 6, 10) == SALTED_10D6
    assert roll(S1, "Partie-1", 1, UTF8_LABEL, 6, 10) == UTF8_10D6


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 7, 10, 12, 20, 100, 129, 255, 256])
def test_rolls_match_reference(sides):
    for turn, label in [(1, LABEL), (2, "aa:G6:r1"), (9, UTF8_LABEL)]:
        assert roll(S1, "demo", turn, label, sides, 40) == ref_roll(S1, "demo", turn, label, sides, 40)


def test_many_dice_use_several_blocks():
    values = roll(S1, "demo", 1, LABEL, 6, 100)
    assert len(values) == 100
    assert values == ref_roll(S1, "demo", 1, LABEL, 6, 100)
    assert values[:10] == ROLL_10D6


def test_every_input_of_the_message_changes_the_dice():
    base = roll(S1, "demo", 1, LABEL, 6, 20)
    assert roll(chain_seed(SECRET, 2), "demo", 1, LABEL, 6, 20) != base
    assert roll(S1, "demo2", 1, LABEL, 6, 20) != base
    assert roll(S1, "demo", 2, LABEL, 6, 20) != base
    assert roll(S1, "demo", 1, LABEL + "x", 6, 20) != base


def first_label_with_skip(sides: int, within: int) -> tuple[str, bytes]:
    """A label whose first block has a byte at or above the cut-off among its first `within` bytes."""
    cutoff = 256 - 256 % sides
    for k in range(100_000):
        label = f"skip:{sides}:{k}"
        block = ref_bytes(S1, "demo", 1, label, 1)
        if any(b >= cutoff for b in block[:within]):
            return label, block
    raise AssertionError("no label found")


@pytest.mark.parametrize("sides, cutoff", [(6, 252), (5, 255), (7, 252), (10, 250), (20, 240)])
def test_bytes_at_or_above_cutoff_are_skipped(sides, cutoff):
    assert 256 - 256 % sides == cutoff
    label, block = first_label_with_skip(sides, 8)
    expected = [b % sides + 1 for b in block if b < cutoff]
    assert len(expected) < 32
    assert roll(S1, "demo", 1, label, sides, len(expected)) == expected
    # A naive modulo of every byte would have differed.
    assert [b % sides + 1 for b in block[: len(expected)]] != expected


def test_exact_cutoff_byte_is_skipped_and_the_one_below_kept():
    assert dice_from_bytes([252, 251, 253, 255, 0], 6, 2) == [251 % 6 + 1, 1]
    assert dice_from_bytes([255, 254], 5, 1) == [254 % 5 + 1]
    assert dice_from_bytes([252, 3], 7, 1) == [4]


def test_d256_skips_nothing():
    assert dice_from_bytes(range(256), 256, 256) == list(range(1, 257))
    label = "sbr:UK4:factory"
    assert roll(S1, "demo", 1, label, 256, 64) == [b + 1 for b in ref_bytes(S1, "demo", 1, label, 2)]


def test_d2_and_powers_of_two_skip_nothing():
    for sides in (2, 4, 8, 16, 32, 64, 128):
        assert len(dice_from_bytes(range(256), sides, 256)) == 256


def test_zero_dice():
    assert roll(S1, "demo", 1, LABEL, 6, 0) == []


@pytest.mark.parametrize("sides, count", [(1, 1), (0, 1), (257, 1), (6, -1), (6, 1.5), (True, 1)])
def test_bad_sides_or_count(sides, count):
    with pytest.raises(ValueError):
        roll(S1, "demo", 1, LABEL, sides, count)


# --- labels --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("label", [
    "battle:G6:r1:attacker", "battle:76 Sea Zone:r1:attacker", "aa:G6:r1", "bombard:G6", "sbr:UK4:factory",
    "tech:Germans", "spin:British", UTF8_LABEL, "x",
])
def test_good_labels(label):
    check_label(label)


@pytest.mark.parametrize("label", [
    "", "a|b", "|", " lead", "trail ", "tab\there", "new\nline", "nul\x00", "del\x7f", "nbsp\u00a0x",
    "zero\u200bwidth", "line\u2028sep", "de\u0301composed", 7,
])
def test_bad_labels(label):
    with pytest.raises(ValueError):
        check_label(label)


# --- rollers -------------------------------------------------------------------------------------------------

def test_roller_records_groups_in_order():
    r = Roller(S1, "demo", 1)
    first = r.roll(LABEL, 6, 3, units=["Germans infantry #1", "Germans infantry #2", "Germans tank #1"])
    second = r.roll("battle:Poland:r1:defender", 6, 2)
    assert first == ROLL_10D6[:3]
    assert second == roll(S1, "demo", 1, "battle:Poland:r1:defender", 6, 2)
    assert [g.label for g in r.groups] == [LABEL, "battle:Poland:r1:defender"]
    assert r.groups[0].to_dict() == {
        "label": LABEL, "sides": 6, "count": 3, "values": ROLL_10D6[:3],
        "units": ["Germans infantry #1", "Germans infantry #2", "Germans tank #1"],
    }
    assert r.groups[1].units == [] and r.groups[1].count == 2


def test_roller_refuses_a_label_twice():
    r = Roller(S1, "demo", 1)
    r.roll(LABEL, 6, 3)
    with pytest.raises(DuplicateLabel):
        r.roll(LABEL, 6, 3)
    with pytest.raises(DuplicateLabel):
        r.roll(LABEL, 12, 1)  # other dice, same label: still the same stream
    assert len(r.groups) == 1
    assert issubclass(DuplicateLabel, ValueError)


def test_roller_refuses_units_of_wrong_length():
    r = Roller(S1, "demo", 1)
    with pytest.raises(ValueError):
        r.roll(LABEL, 6, 2, units=["one"])
    assert r.groups == []
    r.roll(LABEL, 6, 1, units=["one"])  # a refused roll does not use up its label


def test_roller_checks_key_and_turn():
    with pytest.raises(ValueError):
        Roller(S1[:16], "demo", 1)
    with pytest.raises(ValueError):
        Roller(S1, "demo", 0)


def test_returned_values_are_copies():
    r = Roller(S1, "demo", 1)
    values = r.roll(LABEL, 6, 3)
    values[0] = 99
    assert r.groups[0].values == ROLL_10D6[:3]


def test_fixed_roller_from_dict():
    f = FixedRoller({LABEL: [6, 6, 1, 2], "aa:G6:r1": [1], "never": [3]})
    assert f.roll(LABEL, 6, 3, units=["a", "b", "c"]) == [6, 6, 1]
    assert f.roll("aa:G6:r1", 6, 1) == [1]
    assert f.groups[0] == DiceGroup(LABEL, 6, [6, 6, 1], ["a", "b", "c"])
    assert f.unused() == ["never"]
    with pytest.raises(DuplicateLabel):
        f.roll(LABEL, 6, 1)


def test_fixed_roller_errors():
    f = FixedRoller({LABEL: [1, 2], "big": [7]})
    with pytest.raises(MissingDice, match="no dice for label 'other'"):
        f.roll("other", 6, 1)
    with pytest.raises(MissingDice, match="fixes 2 dice"):
        f.roll(LABEL, 6, 3)
    with pytest.raises(ValueError, match="1..6"):
        f.roll("big", 6, 1)
    assert f.groups == []
    assert issubclass(MissingDice, KeyError)


def test_fixed_roller_from_function():
    f = FixedRoller(lambda label, sides, count: [sides] * count)
    assert f.roll("a", 6, 2) == [6, 6]
    assert f.roll("b", 12, 1) == [12]
    assert f.unused() == []
    short = FixedRoller(lambda label, sides, count: [1])
    with pytest.raises(MissingDice):
        short.roll("a", 6, 2)


# --- helpers -------------------------------------------------------------------------------------------------

def test_hex_helpers():
    assert sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert sha256_hex(b"abc") == sha256_hex("abc")
    assert hexb(b"\x00\xff") == "00ff"
    assert unhex(ANCHOR_HEX, "the anchor") == anchor(SECRET)
    assert unhex(" " + ANCHOR_HEX.upper() + "\n", "the anchor") == anchor(SECRET)
    assert unhex("00ff", "a salt", length=None) == b"\x00\xff"


def test_unhex_errors_name_the_value_and_never_echo_it():
    with pytest.raises(ValueError, match="the seed is not valid hex") as e:
        unhex("zz" * 32, "the seed")
    assert "zz" not in str(e.value)
    with pytest.raises(ValueError, match="the seed must be 32 bytes"):
        unhex("00" * 31, "the seed")
    with pytest.raises(ValueError, match="must be 2 bytes"):
        unhex("00", "x", length=2)


def test_dice_module_needs_no_heavy_imports():
    import subprocess
    import sys

    code = (
        "import sys, adjudicator.dice; "
        "print([m for m in ('sqlmodel', 'sqlalchemy', 'typer', 'jinja2') if m in sys.modules])"
    )
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "[]"


# --- properties ----------------------------------------------------------------------------------------------

labels = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "S"], exclude_characters="|"),
    min_size=1, max_size=30,
).filter(lambda s: s == unicodedata.normalize("NFC", s))


@settings(max_examples=200, deadline=None)
@given(sides=st.integers(2, 256), count=st.integers(0, 80), extra=st.integers(0, 80),
       turn=st.integers(1, 5000), label=labels)
def test_roll_properties(sides, count, extra, turn, label):
    values = roll(S1, "demo", turn, label, sides, count)
    assert len(values) == count
    assert all(1 <= v <= sides for v in values)
    assert roll(S1, "demo", turn, label, sides, count) == values
    assert roll(S1, "demo", turn, label, sides, count + extra)[:count] == values


@settings(max_examples=50, deadline=None)
@given(sides=st.integers(2, 256), label=labels)
def test_roll_matches_reference_property(sides, label):
    assert roll(S1, "g1", 3, label, sides, 50) == ref_roll(S1, "g1", 3, label, sides, 50)
