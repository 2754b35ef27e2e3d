"""`verify`: check the dice of a posted report from its text alone, with no database and no key.

A report's dice block (report.dice_block) names the game, the turn, the anchor, the revealed seed, the salts
of a strict game with the orders each binds, and every dice group. From those lines alone anyone can check that the seed leads to the
anchor (H^turn(seed) == anchor) and recompute every die (DESIGN.md "Audited dice"). The text may come back
from a forum changed: Markdown with or without its code fence (NodeBB's raw post), the HTML NodeBB renders
(`<pre><code>`, `<br>`, `&amp;`), BBCode, plain text, quoted once or several times (`> `, `[quote]`), with
CRLF line ends, no-break spaces or zero-width characters. Reading is tolerant of all of that; checking is exact.
Anyone can paste anything, so the work is bounded too: numbers are a few ASCII digits, a turn beyond every chain
is refused unwalked, and all the hashing from seeds to anchors in one paste is at most MAX_HASHES. Every header is
as long as a real game's can be (a game id as keys.check_game_id takes it, a salt as `submit` takes it, a hash 64
hex digits), each dice key is made once per revealed seed, and each die costs the same whatever the game id.

The dice the battle narrative prints are read back and held to the block too (verify_narrative): a reader reads
the narrative, not the block.

Only the standard library and adjudicator.dice / .keys / .errors / .verify_narrative (and its .verify_other_rolls) are imported here: a player's check
starts in a fraction of a second, without the store, the rules or the templates.
"""

from __future__ import annotations

import hmac
import html
import re
from collections import Counter
import unicodedata
from dataclasses import dataclass, field

from . import dice
from . import verify_narrative as narrative
from .errors import MAX_SHOWN, AdjudicatorError
from .inputs import whole_number
from .keys import MAX_GAME_ID

START = "adjudicator dice"
MAX_TURN = dice.CHAIN_LENGTH    # `new` makes every chain this long: no real game has a later power-turn

MAX_BYTES = 4 * 1024 * 1024     # a paste: a long forum thread's page of reports is far less
MAX_GROUPS = 20_000             # dice groups in one paste: a G40 turn rolls a few dozen
# Hashes walked from seeds towards their anchors in one paste: the chains of 256 games walked from their last
# turn. A whole game's reports cost one walk (_Chains); each block whose seed leads nowhere costs one more, so
# this bounds what a paste of forged blocks can make verify do (about 0.3 s).
MAX_HASHES = 256 * MAX_TURN
MAX_DIGITS = 9                  # a number in a dice block: turns, dice, sides and counts are far shorter
# The longest value of a header, and of each `|`-separated item of `salts:` and `binds:`: what a real game prints.
# Longer is refused with a problem, before any hashing (a 2 MB game id once cost a hash of it per 32 dice bytes).
_LONGEST = {"game": MAX_GAME_ID, "anchor": 64, "seed": 64, "orders": 64, "binds": 64, "salts": dice.MAX_SALT}

# Every pattern here runs in time linear in the line: no unbounded repeat is followed by something that can
# fail far away (a tag's attributes stop at the next '<' or '[', trailing markers are matched on the reversed line).
_HTML = re.compile(r"<(?:pre|code|p|br|div|blockquote|span|li)\b[^<>]*>", re.I)
_HTML_BREAK = re.compile(r"<br\s*/?>|</?(?:p|pre|div|blockquote|li|ul|ol|h[1-6]|tr|table)\b[^<>]*>", re.I)
_TAG = re.compile(r"<[^<>]*>")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SPACE = re.compile(r"[^\S\n]")         # tabs, no-break and other unicode spaces: labels only hold U+0020
# Quote and code markers a forum or a mail client puts around or before the block's lines, all at once.
_LEAD = re.compile(r"(?:(?:>|\[quote(?:=[^\[\]]*)?\]|\[/quote\]|\[code(?:=[^\[\]]*)?\]|\[/code\]|```+|~~~+)\s*)+", re.I)
_TRAIL_REVERSED = re.compile(r"(?:\s*(?:\]etouq/\[|\]edoc/\[|```+|~~~+))+\s*", re.I)
_HEADER = re.compile(r"(game|turn|anchor|seed|salts|binds|orders|holds)\s*:\s*(.*)", re.I)
# Numbers are ASCII digits only (inputs.whole_number): int() and str.isdigit() also take '²' and '①'.
_NUMBERS = re.compile(r"[0-9]{1,%d}(?: +[0-9]{1,%d})*" % (MAX_DIGITS, MAX_DIGITS))    # clean() leaves only ' '
_HOLDS = re.compile(r"([0-9]{1,%d}) groups?, ([0-9]{1,%d}) dice" % (MAX_DIGITS, MAX_DIGITS), re.I)
_SIDES = re.compile(r"d([0-9]{1,%d})" % MAX_DIGITS, re.I)


class VerifyError(AdjudicatorError):
    """The text holds nothing that can be checked: no dice block, or only seeds not revealed yet."""


@dataclass
class Group:
    label: str
    sides: int
    values: list[int]
    units: str
    line: int
    expected: list[int] | None = None      # recomputed from the seed; None until checked
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.expected is not None and not self.problem and self.expected == self.values


@dataclass
class Block:
    """One dice block as read back from the text, and what checking it found."""

    line: int                               # 1-based line of `adjudicator dice` in the cleaned text
    game: str = ""
    turn: int = 0
    anchor: str = ""
    seed: str | None = None                 # None: not revealed in this block
    salts: list[str] = field(default_factory=list)
    binds: list[str] = field(default_factory=list)     # strict dice: the sha256 of the orders each salt was given for
    orders: str = ""                                    # … and of the orders salted, which they must all be
    groups: list[Group] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    holds: tuple[int, int] | None = None    # (groups, dice) the block says it holds; None in older reports
    seed_from: int | None = None            # line of the block whose revealed seed checked this one
    status: str = ""                        # "match", "mismatch" or "unrevealed"
    narrative_checked: int = 0              # rolls the narrative before the block prints that agree with it
    narrative_elsewhere: int = 0            # … whose group is in no block pasted (another part of a split report)
    block_only: list[Group] = field(default_factory=list)     # groups no roll the narrative prints was held to
    seen: set[str] = field(default_factory=set, repr=False)    # header names read so far

    def where(self) -> str:
        return f"game {self.game or '?'}, turn {self.turn or '?'} (dice block at line {self.line})"

    def to_dict(self) -> dict:
        return {"game": self.game, "turn": self.turn, "anchor": self.anchor, "seed": self.seed, "salts": self.salts,
                "binds": self.binds, "orders": self.orders, "line": self.line, "status": self.status, "problems": self.problems, "seed_from_line": self.seed_from,
                "narrative": {"checked": self.narrative_checked, "not_in_paste": self.narrative_elsewhere,
                              "block_only": [g.label for g in self.block_only]},
                "groups": [{"label": g.label, "sides": g.sides, "values": g.values, "expected": g.expected,
                            "ok": g.ok, "problem": g.problem} for g in self.groups]}


# -- reading ------------------------------------------------------------------------------------

def clean(text: str) -> list[str]:
    """The text's lines with forum and mail wrapping taken off, ready to be read as dice-block lines."""
    if _HTML.search(text):
        text = html.unescape(_TAG.sub("", _HTML_BREAK.sub("\n", text)))
    text = unicodedata.normalize("NFC", text.translate(_INVISIBLE)).replace("\r\n", "\n").replace("\r", "\n")
    lines = []
    for line in _SPACE.sub(" ", text).split("\n"):
        line = line.strip()
        lead = _LEAD.match(line)
        if lead:
            line = line[lead.end():]
        trail = _TRAIL_REVERSED.match(line[::-1])
        if trail:
            line = line[:len(line) - trail.end()]
        lines.append(line)
    return lines


def read_blocks(text: str, cleaned: list[str] | None = None) -> list[Block]:
    """Every dice block in the text, in order.

    A block starts at a line `adjudicator dice`; its header lines (`game:`, `turn:`, `anchor:`, `seed:`,
    `salts:`) come before its groups; every group line (`label | dN | values | units`) up to the next block
    belongs to it. Other lines (a mail client's wrapped tail of a long unit list, the report text after the
    block) are skipped, so no group is lost because something was printed between two of them. Reading stops
    at the first group over MAX_GROUPS, with a VerifyError. `cleaned`: the text's lines as clean() gives them,
    when the caller has them.
    """
    blocks: list[Block] = []
    earlier = 0                             # dice groups of the blocks before the last one
    cut = ""                                # a group line a mail client wrapped inside its dice, awaiting its rest
    for number, line in enumerate(clean(text) if cleaned is None else cleaned, 1):
        if line.casefold() == START:
            earlier += len(blocks[-1].groups) if blocks else 0
            blocks.append(Block(number))
            cut = ""
        elif blocks and line:
            if cut:
                line, cut = f"{cut} {line}", ""
            head = _header(blocks[-1], line)
            if head and not head.group(2).strip():
                cut = line                  # `anchor:` wrapped before its value
                continue
            if not head and _wrapped(line):     # a header is never a group: `salts: a | d6 | b` holds three salts
                cut = line
                continue
            _read_line(blocks[-1], line, number)
            if earlier + len(blocks[-1].groups) > MAX_GROUPS:
                raise VerifyError(f"the text holds more than {MAX_GROUPS:,} dice groups; verify checks at most "
                                  f"{MAX_GROUPS:,} at a time: paste fewer reports at once")
    for block in blocks:
        _check_complete(block)
    return blocks


def _wrapped(line: str) -> bool:
    """`label | d6 | 1 2 3` with no units: the head of a group line wrapped inside its dice (the units field
    always follows the dice), to be joined with the next line."""
    fields = line.split("|")
    return len(fields) == 3 and _SIDES.fullmatch(fields[1].strip()) is not None


def _header(block: Block, line: str) -> re.Match | None:
    """The line as a header of the block, or None: headers come before the groups, each once."""
    head = _HEADER.fullmatch(line)
    return head if head and not block.groups and head.group(1).casefold() not in block.seen else None


def _read_line(block: Block, line: str, number: int) -> None:
    head = _header(block, line)
    if head:
        _read_header(block, head.group(1).casefold(), head.group(2).strip(), number)
        return
    fields = [f.strip() for f in line.split("|", 3)]
    if len(fields) != 4 or fields[1][:1] not in "dD" or not fields[1][1:].isnumeric():
        return
    sides = _SIDES.fullmatch(fields[1])
    if sides is None:
        block.problems.append(f"line {number}: the sides of {_shown(fields[0])} are not a number verify reads: "
                              f"{_shown(fields[1])} (ASCII digits, at most {MAX_DIGITS})")
    elif fields[2] and not _NUMBERS.fullmatch(fields[2]):
        block.problems.append(f"line {number}: the dice of {_shown(fields[0])} are not all numbers: {_shown(fields[2])}")
    else:
        block.groups.append(Group(fields[0], int(sides.group(1)), list(map(int, fields[2].split())), fields[3], number))


def _shown(text: str, most: int = 80) -> str:
    """A value of the text as a problem quotes it: a pasted line may be megabytes long."""
    return repr(text if len(text) <= most else text[:most] + "…")


def _read_header(block: Block, name: str, value: str, number: int) -> None:
    block.seen.add(name)
    items = value.split("|") if name in ("salts", "binds") else [value]
    longest = _LONGEST.get(name)
    if longest is not None and any(len(item.strip()) > longest for item in items):
        what = {"game": "the game id", "salts": "a salt", "binds": "a hash in `binds:`"}.get(name, f"the {name}")
        size = max(len(item.strip()) for item in items)
        block.problems.append(f"line {number}: {what} is {size:,} characters long; a real game's has at most {longest} "
                              f"(`{name}:` {_shown(value)})")
        if name == "game":
            block.game = _shown(value, MAX_GAME_ID)
        return
    if name == "game":
        block.game = value
    elif name == "turn":
        turn = whole_number(value, MAX_DIGITS)
        if turn is None:
            block.problems.append(f"line {number}: the turn is not a number: {_shown(value)}")
        elif turn == 0:
            block.problems.append(f"line {number}: turn 0 is not a power-turn: they are numbered from 1")
        elif turn > MAX_TURN:
            block.problems.append(f"line {number}: turn {turn} is beyond any game's dice chain: a game has at most "
                                  f"{MAX_TURN} power-turns")
        else:
            block.turn = turn
    elif name == "anchor":
        block.anchor = value.lower()
    elif name == "seed":
        block.seed = None if "revealed" in value.lower() else value.lower()
    elif name == "holds":
        held = _HOLDS.fullmatch(value)
        if held:
            block.holds = (int(held.group(1)), int(held.group(2)))
        else:
            block.problems.append(f"line {number}: `holds:` should read `N groups, M dice`, not {_shown(value)}")
    elif name == "binds":
        block.binds = [s.strip().lower() for s in items]
    elif name == "orders":
        block.orders = value.lower()
    else:
        block.salts = [s.strip() for s in items]


def _check_complete(block: Block) -> None:
    for name in ("game", "turn", "anchor"):
        if not getattr(block, name):
            block.problems.append(f"the block has no `{name}:` line")
    if block.holds is not None:
        found = (len(block.groups), sum(len(g.values) for g in block.groups))
        if found != block.holds:
            block.problems.append(
                f"the block says it holds {block.holds[0]} groups and {block.holds[1]} dice, but {found[0]} groups and "
                f"{found[1]} dice were read: a dice line is missing or cut (a mail client that wraps long lines, or "
                "a partial copy?); check the report as it was first posted")
    if block.binds or block.orders and block.salts:       # old games' blocks have salts only
        _check_binds(block)
    counts = Counter(g.label for g in block.groups)
    for label in sorted(label for label, n in counts.items() if n > 1):
        block.problems.append(f"the label {label} appears twice: one power-turn never rolls the same label twice")


def _check_binds(block: Block) -> None:
    """Strict dice: every salt binds the orders it was given for, and those must be the orders salted."""
    if len(block.binds) != len(block.salts) or not block.orders:
        block.problems.append(f"the block names the orders of {len(block.binds)} salt(s) for {len(block.salts)} "
                              f"salt(s){'' if block.orders else ' and no `orders:` line'}: a line is missing or cut")
        return
    for k, (salt, bound) in enumerate(zip(block.salts, block.binds), 1):
        if bound != block.orders:
            block.problems.append(f"salt {k} ({_shown(salt)}) was given for the orders with sha256 {_shown(bound)}, "
                                  f"not for those salted, {_shown(block.orders)}: the orders were changed after the salts")


# -- checking -----------------------------------------------------------------------------------

def check(text: str, anchor: str | None = None, orders: str | None = None) -> list[Block]:
    """Read and check every dice block of `text`. A block whose own seed is not revealed yet is checked with the
    seed another block of the same game and turn reveals (a mid-turn report pasted with the final one).

    `orders` (`--orders`, strict dice): the sha256 `submit` printed to the mover for the orders, or to a salter for
    the orders their salt binds. `audit` checks that the journal agrees with itself, which a host who rewrites the
    orders and every binding together keeps; only the sha256 a player was told can show that, so each block must
    say its salts bind it.

    Raises VerifyError when there is no block at all or the text is over a limit; otherwise each block's
    `status` says how it fared.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise VerifyError(f"the text is {size:,} bytes; verify reads at most {MAX_BYTES:,}: paste only the reports "
                          "to check (the part from `adjudicator dice` to the last dice line is enough)")
    lines = clean(text)
    blocks = read_blocks(text, lines)
    if not blocks:
        raise VerifyError("no dice block found: a report's dice block starts with the line `adjudicator dice` "
                          "(paste the whole post, or the part from `adjudicator dice` to the last dice line)")
    revealed = {(b.game, b.turn, b.anchor): b for b in blocks if b.seed and not b.problems}
    chains = _Chains()
    keys: dict[int, bytes | str] = {}       # the dice key of each revealed block's seed and salts (or what is wrong)
    # latest turns first: the walk from a game's last revealed seed proves every earlier one on the way
    for block in sorted(revealed.values(), key=lambda b: -b.turn):
        chains.leads(block.seed, block.turn, block.anchor)
    for block in blocks:
        source = block if block.seed else revealed.get((block.game, block.turn, block.anchor))
        if anchor is not None and block.anchor != anchor.strip().lower():
            block.problems.append(f"its anchor {block.anchor} is not the game's anchor {anchor.strip().lower()}")
        if orders is not None and (block.orders != orders.strip().lower() or not block.binds):
            block.problems.append(f"its salts do not bind the orders with sha256 {orders.strip().lower()} given with "
                                  f"--orders: " + (f"they bind {_shown(block.orders)}. Those are not the orders "
                                  "`submit` told you of: the host changed them" if block.orders and block.binds else
                                  "it names no orders its salts bind (a game without strict dice, a turn not salted or "
                                  "not over yet, or a report of another turn)"))
        if source is None:
            block.status = "mismatch" if block.problems else "unrevealed"
            continue
        block.seed_from = None if source is block else source.line
        _check_block(block, source, chains, keys)
        block.status = "mismatch" if block.problems or not all(g.ok for g in block.groups) else "match"
    narrative.cross_check(blocks, lines)
    for block in blocks:
        if block.problems:
            block.status = "mismatch"
    return blocks


class _Chains:
    """The seeds proven so far, by anchor, and what walking from a seed towards its anchor costs.

    Hashing s_i down to the anchor passes through s_{i-1} … s_1, so the walk from a game's latest revealed seed
    proves all its earlier ones, and a seed of an earlier turn is then one comparison. Only a walk above what is
    proven costs hashes; a seed that leads nowhere (forged, or of another game) costs its whole walk, and all
    walks together may take at most MAX_HASHES, so no paste can keep verify busy for long.
    """

    def __init__(self) -> None:
        self.proven: dict[bytes, list[bytes]] = {}          # anchor -> [s_0 = anchor, s_1, …, s_k]
        self.refuted: set[tuple[bytes, int, bytes]] = set()
        self.spent = 0

    def leads(self, seed_hex: str, turn: int, anchor_hex: str) -> bool:
        """Whether the seed, hashed `turn` times, gives the anchor (dice.seed_matches_anchor, walked once)."""
        try:
            seed, anchor = dice.unhex(seed_hex, "the seed"), dice.unhex(anchor_hex, "the anchor")
        except ValueError:
            return False
        chain = self.proven.setdefault(anchor, [anchor])
        if turn < len(chain):
            return hmac.compare_digest(chain[turn], seed)
        if (anchor, turn, seed) in self.refuted:
            return False
        steps = turn - (len(chain) - 1)
        self.spent += steps
        if self.spent > MAX_HASHES:
            raise VerifyError(f"the text holds more seeds to check than verify walks at once ({MAX_HASHES:,} hashes, "
                              f"the chains of {MAX_HASHES // MAX_TURN} games): each block whose seed does not lead to "
                              "its anchor costs a walk of its own. Paste the reports of fewer games at a time")
        walked = dice.walk(seed, steps)                     # s_turn, s_turn-1, …, down to s_{len(chain) - 1}
        if not hmac.compare_digest(walked[-1], chain[-1]):
            self.refuted.add((anchor, turn, seed))
            return False
        chain.extend(reversed(walked[:-1]))
        return True


def _check_block(block: Block, source: Block, chains: _Chains, keys: dict[int, bytes | str]) -> None:
    """Check the block with the seed and salts of `source` (itself, or the block revealing its turn's seed); the
    key is made once per source, as a paste may hold thousands of blocks that one seed checks."""
    if block.problems:
        return
    seed_hex = source.seed
    try:
        seed = dice.unhex(seed_hex, "the seed")
        dice.unhex(block.anchor, "the anchor")
    except ValueError as exc:
        block.problems.append(str(exc))
        return
    key = keys.get(source.line)
    if key is None:
        try:
            key = dice.turn_key(seed, source.salts)
        except ValueError as exc:
            key = str(exc)
        keys[source.line] = key
    if isinstance(key, str):
        block.problems.append(key)
        return
    if not chains.leads(seed_hex, block.turn, block.anchor):
        block.problems.append(f"the seed does not lead to the anchor: hashing it {block.turn} time(s) does not give {block.anchor}")
        return
    for g in block.groups:
        try:
            g.expected = dice.roll(key, block.game, block.turn, g.label, g.sides, len(g.values))
        except ValueError as exc:
            g.problem = str(exc)


# -- what the player reads ----------------------------------------------------------------------

def summary(blocks: list[Block], anchor: str | None = None, orders: str | None = None) -> tuple[int, list[str]]:
    """Exit code and lines to print: 0 all checked dice match, 1 something does not, 2 nothing could be checked.
    With the game's `anchor` given (`--anchor`), every block was already held to it, so the closing line says so
    instead of asking the reader to compare it by eye; so with `orders` (`--orders`).

    Of the blocks that do not check out, the first MAX_SHOWN lines are printed and the rest counted: a paste gone
    wrong can hold thousands of broken blocks. A block that checks out takes one line."""
    lines, shown, hidden = [], 0, 0
    for b in blocks:
        for line in _describe(b):
            if b.status != "mismatch":
                lines.append(line)
            elif shown < MAX_SHOWN:
                lines.append(line)
                shown += 1
            else:
                hidden += 1
    if hidden:
        lines.append(f"… and {hidden:,} more line{'s' if hidden != 1 else ''} about blocks that do not check out "
                     f"(the first {MAX_SHOWN} are shown; --json gives them all)")
    if any(b.status == "mismatch" for b in blocks):
        return 1, lines
    if all(b.status == "unrevealed" for b in blocks):
        return 2, lines
    lines.append(f"Checked: {narrative.CHECKED}.")
    if orders is not None:
        lines.append(f"Every block's salts bind the orders given with --orders ({orders}).")
    if anchor is not None:
        lines.append(f"Every block carries the anchor given with --anchor ({anchor}).")
        return 0, lines
    anchors = sorted({b.anchor for b in blocks if b.status == "match"})
    lines.append(f"Compare the anchor with the one posted when the game was created: {', '.join(anchors)} "
                 "(or pass it with --anchor).")
    return 0, lines


def _told(b: Block) -> str:
    """What the narrative before the block was held to."""
    told = f"; the narrative's {b.narrative_checked} battle roll(s) agree with it" if b.narrative_checked else ""
    if b.narrative_elsewhere:
        told += (f"; {b.narrative_elsewhere} roll(s) the narrative prints are in no dice block pasted (another part "
                 "of a split report?): paste every part to check them")
    if b.block_only:
        named = ", ".join(f"{g.label} (line {g.line})" for g in b.block_only[:MAX_SHOWN])
        more = f" and {len(b.block_only) - MAX_SHOWN:,} more" if len(b.block_only) > MAX_SHOWN else ""
        told += (f"; {len(b.block_only)} group(s) checked in the dice block only (the narrative tells them in a game's "
                 f"own words, which verify does not read back, or not at all): {named}{more}")
    return told


def _describe(b: Block) -> list[str]:
    if b.status == "unrevealed":
        return [f"{b.where()}: the seed of this turn is not revealed yet, so its {len(b.groups)} dice group(s) "
                "cannot be checked yet; verify the report that ends the turn"]
    if b.status == "match":
        via = f" with the seed revealed by the block at line {b.seed_from}" if b.seed_from else ""
        salted = f", salted by {len(b.salts)} salt(s)" if b.salts else ""
        salted += f" bound to the orders with sha256 {b.orders}" if b.binds else ""
        dice_count = sum(len(g.values) for g in b.groups)
        rolled = f"{len(b.groups)} group(s), {dice_count} dice all match" if b.groups else "no dice were rolled this turn"
        return [f"{b.where()}: seed leads to anchor {b.anchor[:16]}…{salted}; {rolled}{via}{_told(b)}"]
    out = [f"{b.where()}: DOES NOT CHECK OUT"]
    out += [f"  {p}" for p in b.problems]
    for g in b.groups:
        if g.problem:
            out.append(f"  group {g.label} (line {g.line}): {g.problem}")
        elif g.expected is not None and g.expected != g.values:
            out.append(f"  group {g.label} (line {g.line}, d{g.sides}): expected {' '.join(map(str, g.expected))}, "
                       f"found {' '.join(map(str, g.values))}")
    return out
