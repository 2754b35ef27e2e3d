"""The orders in a message that says more than its orders: "Hi all, here are my orders:", then the orders from
their header (`power: …`, `game: …` or `round: …`, NOTATION.md) to `end`, then "Good luck!" and a "Sent from my
iPad". What stands before the header and after `end` is words to the host, not orders: those lines are emptied
(the others keep their numbers) and the answer names them, so that a player who put an order there learns it
was not read. A message with no header is read whole, as `submit` reads a file.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"\s*(power|game|round)\s*:", re.I)
_END = re.compile(r"\s*end\s*\.?\s*", re.I)
_POWER = re.compile(r"\s*power\s*:", re.I)


def orders_block(text: str) -> tuple[str, list[str]]:
    """`text` with only the lines from the first header line to the `end` after it (or the text's end) kept, and
    a note naming the lines set aside, if any."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if start is None:
        return text, []
    stop = next((i for i in range(start, len(lines)) if _END.fullmatch(lines[i])), len(lines) - 1)
    aside = [i + 1 for i, line in enumerate(lines) if line.strip() and not start <= i <= stop]
    kept = [line if start <= i <= stop else "" for i, line in enumerate(lines)]
    while kept and not kept[-1].strip():
        kept.pop()
    if not aside:
        return "\n".join(kept), []
    header = lines[start].split(":")[0].strip().lower()
    notes = [f"line{'s' if len(aside) > 1 else ''} {_spans(aside, lines)} of your message, before the "
             f"`{header}:` line or after `end`, {'were' if len(aside) > 1 else 'was'} read as words to the host, not "
             "as orders"]
    second = next((i for i in range(stop + 1, len(lines)) if _POWER.match(lines[i])), None)
    if second is not None:          # a player of two powers who sent both powers' orders in one message
        notes.append(f"line {second + 1} starts orders for another power (`{lines[second].strip()}`), which were not "
                     "read: a message takes the orders of one power; send those again in a message of their own")
    return "\n".join(kept), notes


def _spans(numbers: list[int], lines: list[str]) -> str:
    """Line numbers 1, 3, 4, 7 as "1-4 and 7" when line 2 is empty: a span of lines set aside goes on over the empty
    lines in it."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and all(not s.strip() for s in lines[spans[-1][1]:n - 1]):
            spans[-1][1] = n
        else:
            spans.append([n, n])
    words = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
