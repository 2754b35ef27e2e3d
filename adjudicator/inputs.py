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


class TooLarge(AdjudicatorError):
    """A file or paste over the limit of what is read."""


def read(file: str, what: str, max_bytes: int) -> str:
    """The text of `file` (or standard input for `-`), refused if over `max_bytes` as stored."""
    if file == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
    else:
        path = Path(file)
        if not path.is_file():
            raise AdjudicatorError(f"no {what} file at {file}")
        try:
            with path.open("rb") as fh:
                data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise AdjudicatorError(f"cannot read the {what} file {file}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise TooLarge(f"more than {max_bytes:,} bytes of {what}: nothing was read. Give only the {what} "
                       "(not a whole thread, mailbox or save game)")
    return decode(data)


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
