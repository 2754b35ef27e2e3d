"""The audited dice: DESIGN.md "Audited dice — normative", implemented to the byte.

An independent implementation recomputes every die from a report, so nothing here may drift from the
protocol: a hash chain of seeds (s_{i-1} = SHA-256(s_i), anchor s_0), one key per power-turn (optionally
salted, strict mode), an HMAC-SHA-256 byte stream per labelled dice group, and rejection sampling of bytes.

This module uses the standard library only: the fast `verify` command imports it without the database,
template or CLI stacks.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

CHAIN_LENGTH = 4096
SEED_BYTES = 32
MAX_SIDES = 256  # one byte per draw; more sides would need a different, non-normative byte rule
MAX_SALT = 200   # characters of one strict-dice salt (salts.py refuses longer ones; verify reads no longer one)

# A game's dice mode, fixed at `new` and part of its setup hash. Strict dice (§7) bind each salt to the sha256 of the
# orders it salts and key the dice with the salts in turn order. Games created before that store `strict`: their
# salts bind nothing and key the dice in the order they were accepted, and so they still replay.
STRICT = "strict-bound"
STRICT_MODES = (STRICT, "strict")
DICE_MODES = ("normal", *STRICT_MODES)


def mode_name(mode: str) -> str:
    """The dice mode as players chose it (`--dice strict`): which rules of strict dice a game keeps is the
    replay's business, told by the report's `binds:` lines, not a second name for players to learn."""
    return "strict" if mode in STRICT_MODES else mode


def _H(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def sha256_hex(data: bytes | str) -> str:
    """SHA-256 as lowercase hex; text is hashed as UTF-8 so a hash printed in a report is reproducible."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def hexb(b: bytes) -> str:
    """Bytes as reports and JSON print them: lowercase hex."""
    return b.hex()


def unhex(s: str, what: str, length: int | None = SEED_BYTES) -> bytes:
    """Parse hex typed or pasted by a person, naming `what` in the error so they know which value is wrong.

    Surrounding whitespace and upper case are accepted; `length` (in bytes, None = any) defaults to 32
    because every hex value of the protocol — secret, seeds, anchor, keys — is a SHA-256-sized value.
    The text is never echoed: it may be a secret, and error messages end up in posted logs.
    """
    try:
        data = bytes.fromhex(s.strip())
    except ValueError:
        raise ValueError(f"{what} is not valid hex") from None
    if length is not None and len(data) != length:
        raise ValueError(f"{what} must be {length} bytes ({2 * length} hex digits), got {len(data)} bytes")
    return data


def _check_seed(seed: bytes, what: str) -> None:
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise ValueError(f"{what} must be {SEED_BYTES} bytes")


def _check_index(value: int, what: str, low: int, high: int | None = None) -> None:
    # bool is an int, and f"{True}" would put "True" into an HMAC message.
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{what} must be an integer {bounds}, got {value!r}")


def new_secret() -> bytes:
    """A fresh s_N from the OS's secure generator; nothing else may ever produce a real game's secret."""
    return os.urandom(SEED_BYTES)


def chain_seed(secret: bytes, i: int, n: int = CHAIN_LENGTH) -> bytes:
    """s_i = H^(n-i)(s_n): only the key holder can go down the chain towards future turns' seeds."""
    _check_seed(secret, "the chain secret")
    _check_index(n, "the chain length", 1)
    _check_index(i, "the seed index", 0, n)
    seed = bytes(secret)
    for _ in range(n - i):
        seed = _H(seed)
    return seed


def anchor(secret: bytes, n: int = CHAIN_LENGTH) -> bytes:
    """s_0, published before the first roll so that no later seed can be swapped."""
    return chain_seed(secret, 0, n)


def seed_matches_anchor(seed: bytes, i: int, anchor: bytes) -> bool:
    """Whether a revealed s_i hashes i times to the published anchor (an audit needs no earlier seed)."""
    _check_index(i, "the seed index", 0)
    value = bytes(seed)
    for _ in range(i):
        value = _H(value)
    return hmac.compare_digest(value, bytes(anchor))


def walk(seed: bytes, steps: int) -> list[bytes]:
    """[seed, H(seed), …, H^steps(seed)]: from a revealed s_i, the seeds s_i … s_{i-steps} it proves on its way to
    the anchor (verify keeps them, so that the latest seed of a game checks every earlier one)."""
    _check_seed(seed, "the seed")
    _check_index(steps, "the number of steps", 0)
    out = [bytes(seed)]
    for _ in range(steps):
        out.append(_H(out[-1]))
    return out


def seed_follows(seed_i: bytes, seed_prev: bytes) -> bool:
    """Whether s_i is the successor of the already revealed s_{i-1}: one hash, turn by turn."""
    return hmac.compare_digest(_H(bytes(seed_i)), bytes(seed_prev))


def turn_key(seed: bytes, salts: Sequence[str] = ()) -> bytes:
    """The HMAC key of a power-turn: s_i, or H(s_i || salt_1 || … || salt_k) in strict mode (§7).

    An empty salt is refused: with only empty salts the key would be H(s_i) = s_{i-1}, which the previous
    report has already made public.
    """
    _check_seed(seed, "the turn seed")
    if not salts:
        return bytes(seed)
    if isinstance(salts, str):
        raise ValueError("salts must be a list of strings, not one string")
    parts = [bytes(seed)]
    for salt in salts:
        if not isinstance(salt, str) or not salt:
            raise ValueError(f"a salt must be a non-empty string, got {salt!r}")
        parts.append(salt.encode("utf-8"))
    return _H(b"".join(parts))


def check_label(label: str) -> None:
    """Refuse labels that could make a report ambiguous or impossible to recompute from its text.

    Allowed: any printable Unicode text in NFC form (labels carry game names such as
    `battle:76 Sea Zone:r1:attacker`, so spaces and non-ASCII letters are fine). Refused: the empty label,
    '|' (the field separator of the HMAC message), control, format and line-separator characters, spaces
    other than U+0020 (`str.isprintable`), leading or trailing whitespace (lost when a report is pasted),
    and text not in NFC (a forum or editor may normalise it, and the bytes would then change).
    """
    if not isinstance(label, str) or not label:
        raise ValueError(f"a dice label must be a non-empty string, got {label!r}")
    if "|" in label:
        raise ValueError(f"a dice label may not contain '|': {label!r}")
    if not label.isprintable():
        raise ValueError(f"a dice label may hold printable characters only: {label!r}")
    if label != label.strip():
        raise ValueError(f"a dice label may not start or end with whitespace: {label!r}")
    if unicodedata.normalize("NFC", label) != label:
        raise ValueError(f"a dice label must be in Unicode NFC form: {label!r}")


def _check_sides(sides: int) -> None:
    _check_index(sides, "the number of sides", 2, MAX_SIDES)


def byte_stream(key: bytes, game_id: str, turn: int, label: str) -> Iterator[int]:
    """The endless byte stream of one dice group: HMAC(key, "{game_id}|{turn}|{label}|{block}"), block 0, 1, 2 …

    Each group has its own stream, so a group's dice never depend on how many dice other groups used.
    The arguments are checked at once, not at the first byte; a label without '|' keeps the message
    unambiguous whatever the game id holds (it splits from the right).
    """
    return itertools.chain.from_iterable(_digests(key, game_id, turn, label))


def _digests(key: bytes, game_id: str, turn: int, label: str) -> Iterator[bytes]:
    """The byte stream of a group as its HMAC blocks of 32 bytes, the arguments checked as byte_stream says."""
    _check_seed(key, "the turn key")
    _check_index(turn, "the turn index", 1)
    check_label(label)
    return _blocks(bytes(key), f"{game_id}|{turn}|{label}|")


def _blocks(key: bytes, prefix: str) -> Iterator[bytes]:
    """The HMAC of prefix + block number, block 0, 1, 2 …: the state after the key and the prefix is computed once
    and copied for each block, so a block costs the hash of its number only, however long the game id is."""
    start = hmac.new(key, prefix.encode("utf-8"), "sha256")
    for block in itertools.count():
        mac = start.copy()
        mac.update(str(block).encode("ascii"))
        yield mac.digest()


def dice_from_bytes(data: Iterable[int], sides: int, count: int) -> list[int]:
    """§5: skip bytes >= 256 - (256 mod sides), map the rest to b mod sides + 1, keep the first `count`.

    Skipping removes modulo bias exactly. A finite `data` may yield fewer than `count` dice; the protocol's
    stream is endless.
    """
    data = iter(data)
    return _dice(iter(lambda: bytes(itertools.islice(data, 256)), b""), sides, count)


def _dice(chunks: Iterator[bytes], sides: int, count: int) -> list[int]:
    """dice_from_bytes of the bytes of `chunks`, taken a chunk at a time: a verify of two million dice takes a
    fraction of a second, not seconds."""
    _check_sides(sides)
    _check_index(count, "the number of dice", 0)
    cutoff = 256 - 256 % sides
    out: list[int] = []
    for chunk in chunks:
        if len(out) >= count:
            break
        out += [b % sides + 1 for b in chunk if b < cutoff]
    return out[:count]


def roll(key: bytes, game_id: str, turn: int, label: str, sides: int, count: int) -> list[int]:
    """The `count` dice of one group, as anyone holding the revealed key recomputes them."""
    return _dice(_digests(key, game_id, turn, label), sides, count)


@dataclass
class DiceGroup:
    """One labelled group as the report prints it: `units[k]` names the unit the k-th value belongs to."""

    label: str
    sides: int
    values: list[int]
    units: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.values)

    def to_dict(self) -> dict:
        return {
            "label": self.label, "sides": self.sides, "count": self.count,
            "values": list(self.values), "units": list(self.units),
        }


class DuplicateLabel(ValueError):
    """A label used twice in one power-turn: both groups would get the same dice (§3)."""


class MissingDice(KeyError):
    """A FixedRoller was asked for dice its test case does not fix."""

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0])


class _Recorder:
    """What Roller and FixedRoller share: label checks, one use per label, and the groups in roll order."""

    def __init__(self) -> None:
        self.groups: list[DiceGroup] = []
        self._labels: set[str] = set()

    def roll(self, label: str, sides: int, count: int, units: Sequence[str] | None = None) -> list[int]:
        check_label(label)
        _check_sides(sides)
        _check_index(count, "the number of dice", 0)
        if label in self._labels:
            raise DuplicateLabel(f"the dice label {label!r} was already used in this turn")
        if units is not None and len(units) != count:
            raise ValueError(f"{label}: {len(units)} unit names given for {count} dice")
        values = self._draw(label, sides, count)
        self._labels.add(label)
        self.groups.append(DiceGroup(label, sides, list(values), list(units or [])))
        return list(values)

    def _draw(self, label: str, sides: int, count: int) -> list[int]:
        raise NotImplementedError


class Roller(_Recorder):
    """All dice of one power-turn, keyed by that turn's (possibly salted) key."""

    def __init__(self, key: bytes, game_id: str, turn: int):
        _check_seed(key, "the turn key")
        _check_index(turn, "the turn index", 1)
        super().__init__()
        self.key = bytes(key)
        self.game_id = game_id
        self.turn = turn

    def _draw(self, label: str, sides: int, count: int) -> list[int]:
        return roll(self.key, self.game_id, self.turn, label, sides, count)


FixedDice = Mapping[str, Sequence[int]] | Callable[[str, int, int], Sequence[int]]


class FixedRoller(_Recorder):
    """Dice fixed by a rule test case, with the same interface and label rules as Roller.

    `dice` maps a label to its values, or is a function (label, sides, count) -> values. As with the real
    stream, asking for k dice takes the first k values, so a case may fix more dice than a roll uses.
    """

    def __init__(self, dice: FixedDice):
        super().__init__()
        self._dice = dice

    def _draw(self, label: str, sides: int, count: int) -> list[int]:
        if callable(self._dice):
            values = list(self._dice(label, sides, count))
        elif label in self._dice:
            values = list(self._dice[label])
        else:
            raise MissingDice(f"the test case fixes no dice for label {label!r} ({count}d{sides} asked)")
        if len(values) < count:
            raise MissingDice(f"the test case fixes {len(values)} dice for label {label!r}, {count} asked")
        values = values[:count]
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides]
        if bad:
            raise ValueError(f"fixed dice for label {label!r} must be 1..{sides}, got {bad}")
        return values

    def unused(self) -> list[str]:
        """Labels the case fixes but nothing rolled: usually a sign the case tests less than it claims."""
        if callable(self._dice):
            return []
        return [label for label in self._dice if label not in self._labels]
