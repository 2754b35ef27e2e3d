"""The sender's own words in a mail's or a post's text: what is quoted, signed off or forwarded is someone else's
(or no orders), and is not read as the sender's orders.

Lines quoted with `>` and the attribution line before them ("On …, Bob wrote:", "@bob said in …:") become empty
lines; a signature ("-- "), a top-posted reply's quoted tail (Outlook's "-----Original Message-----", a rule of
underscores, or a "From: … Sent: …" header block) and a forwarded mail end the text. Lines are emptied, not
removed, so that line N of what is kept is line N of the message as its sender wrote it: an order's error names
the line the player sees in their own mail.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"\s*>")
_SIGNATURE = re.compile(r"--\s?")
_TAIL = re.compile(r"\s*(-{2,}\s*original message\s*-{2,}|_{10,}|-{2,}\s*reply message\s*-{2,})\s*", re.I)
_FORWARD = re.compile(r"\s*(-{2,}\s*forwarded message\s*-{2,}|begin forwarded message:|"
                      r"-{2,}\s*weitergeleitete nachricht\s*-{2,}|-{2,}\s*message transféré\s*-{2,})\s*", re.I)
_ATTRIBUTION = re.compile(r"\s*(on\b.*\bwrote|am\b.*\bschrieb.*|le\b.*\ba écrit\s*|.*\bsaid in\b.*)\s*:\s*", re.I)
_HEADER = re.compile(r"\s*\*?(from|von|de)\s*:\*?\s+\S.*", re.I)
_HEADER_NEXT = re.compile(r"\s*\*?(sent|date|to|subject|gesendet|an|betreff|envoyé|à|objet)\s*:\*?.*", re.I)


def own_words(text: str) -> tuple[str, list[str]]:
    """The sender's own lines of `text` (others emptied, tails cut), and what was left out that the sender should
    be told (a forwarded mail)."""
    lines = text.splitlines()
    notes: list[str] = []
    kept: list[str] = []
    for i, line in enumerate(lines):
        if _FORWARD.fullmatch(line):
            notes.append(f"the mail forwarded from line {i + 1} on was not read: a forwarded mail is someone "
                         "else's words, not your orders; write your orders in your own text")
            break
        if _SIGNATURE.fullmatch(line) or _TAIL.fullmatch(line) or _header_block(lines, i):
            break
        kept.append(line)
    quoted = [bool(_QUOTED.match(line)) for line in kept]
    for i, line in enumerate(kept):
        if quoted[i]:
            kept[i] = ""
        elif line.strip() and _attribution(kept, quoted, i):
            kept[i] = ""
            if i and not quoted[i - 1] and not _ATTRIBUTION.fullmatch(line):
                kept[i - 1] = ""            # "On Mon, 5 Jan 2026 at 09:12, Bob <bob@example.org>" / "wrote:"
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept), notes


def _attribution(lines: list[str], quoted: list[bool], i: int) -> bool:
    """Whether line i introduces a quotation: it reads like one, alone or with the line before (clients wrap a
    long one), and the next line with anything on it is quoted, or there is none."""
    if not (_ATTRIBUTION.fullmatch(lines[i]) or (i and _ATTRIBUTION.fullmatch(f"{lines[i - 1]} {lines[i]}"))):
        return False
    after = [q for line, q in zip(lines[i + 1:], quoted[i + 1:]) if line.strip()]
    return not after or after[0]


def _header_block(lines: list[str], i: int) -> bool:
    """Whether line i starts the header block a client puts above a quoted mail ("From: …" then "Sent: …",
    "To: …", "Subject: …"): at least two such lines in a row."""
    return bool(_HEADER.fullmatch(lines[i])) and i + 1 < len(lines) and bool(_HEADER_NEXT.fullmatch(lines[i + 1]))
