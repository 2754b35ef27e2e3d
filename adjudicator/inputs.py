"""Reading what a player pastes or saves: orders and reports, from a file or standard input.

At most a fixed number of bytes is read, so a wrong file (a save game, a 10 MB log) is refused at once without
being held in memory. Text comes as editors and mailers write it: UTF-8 with or without a byte-order mark,
UTF-16 or UTF-32 with a mark (Windows' "Unicode"), UTF-16 without one, else Windows-1252.
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path

from .errors import AdjudicatorError

_MARKS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
          (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def whole_number(text: str, digits: int) -> int | None:
    """`text` as a whole number written in at most `digits` ASCII digits, else None: int() and str.isdigit() also
    take '²', '①', Arabic-Indic and fullwidth digits (int() then fails, or reads what nobody wrote), and int()
    fails on more than 4,300 digits. Pasted text, stored rows and a forum's answers are read with it alike."""
    return int(text) if 0 < len(text) <= digits and text.isascii() and text.isdigit() else None


class TooLarge(AdjudicatorError):
    """A file or paste over the limit of what is read."""


def read(file: str, what: str, limit: int) -> str:
    """The text of `file` (or standard input for `-`), refused unless it can be at most `limit` bytes as UTF-8.

    Four bytes a character are read for each byte of the limit (UTF-32 takes four, and a byte-order mark four more),
    and no more: beyond that the text is longer than the limit in any encoding, so it is refused unread."""
    most = 4 * limit + 4
    data = read_bytes(file, what, most)
    if len(data) > most:
        source = "standard input" if file == "-" else file
        raise TooLarge(f"{source} holds more than {limit:,} bytes of {what}, the most that is read: nothing was "
                       f"read. Give only the {what} (not a whole thread, mailbox or save game)")
    return decode(data)


def read_bytes(file: str, what: str, most: int) -> bytes:
    """The bytes of `file` (standard input for `-`), at most `most` and one more: one more says there are more."""
    if file == "-":
        return sys.stdin.buffer.read(most + 1)
    path = Path(file)
    if not path.is_file():
        raise AdjudicatorError(f"no {what} file at {file}")
    try:
        with path.open("rb") as fh:
            return fh.read(most + 1)
    except OSError as exc:
        raise AdjudicatorError(f"cannot read the {what} file {file}: {exc.strerror or exc}") from None


def decode(data: bytes) -> str:
    for mark, encoding in _MARKS:
        if data.startswith(mark):
            return data.decode(encoding, errors="replace")
    odd, even = data[1::2], data[0::2]
    if len(data) >= 4 and odd.count(0) > len(odd) * 0.4 > even.count(0):
        return data.decode("utf-16-le", errors="replace")
    if len(data) >= 4 and even.count(0) > len(even) * 0.4 > odd.count(0):
        return data.decode("utf-16-be", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
