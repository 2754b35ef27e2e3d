"""Paste clean-up: from a forum post or a mail as pasted to the order lines in it.

Players paste orders out of forums (BBCode, Markdown) and mail clients (quote markers, signatures, CRLF,
"smart" punctuation). The parser should only ever see plain order lines, and an error should still name the
line the player sees in what they pasted, so every cleaned line keeps its original line number.

The rules, in the order they apply:

1. Characters: NFKC (full-width letters, no-break and other unicode spaces), zero-width characters dropped,
   tabs and other spaces become one space, smart quotes become plain quotes, unicode dashes become `-`.
2. Quote markers: leading `>` markers (also nested `> >`) are removed.
3. Signature: the text ends at the first unquoted line `--` (or `-- `), `-----Original Message-----`, or
   an Outlook rule of underscores.
4. Own text beats quoted text: lines quoted with `>` and `[quote]` blocks are someone else's post being
   replied to, unless the post has nothing else, in which case they are the orders. A mail attribution line
   ("On …, Bob wrote:") before quoted lines goes with them.
5. Code beats chatter: if what remains has `[code]…[/code]` blocks or Markdown fences (``` or ~~~), only
   their content is read, so a post may wrap its orders in chatter.
6. Per line: `#` starts a comment; BBCode formatting tags ([b], [i], [u], [s], [color=…], [size=…],
   [font=…]), list bullets (`- `, `* `, `• `), emoji at either end of a line and horizontal rules (`---`)
   are dropped; blank lines go.
   An emoji inside an order is not guessed away: the parser reports it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass


# Limits of what a submission may be (README, "Input limits"): far above any real turn, low enough that a
# paste gone wrong is refused at once instead of being read for minutes.
MAX_BYTES = 256 * 1024          # of the text as UTF-8
MAX_LINES = 5_000               # lines as pasted, quotes and chatter included
MAX_LINE_CHARS = 2_000          # one order line after clean-up
MAX_UNITS = 1_000               # units named by one order (counts added up)
MAX_UNITS_IN_ALL = 10_000       # units named by all the orders (or corrections) of one submission


def too_large(text: str) -> str | None:
    """Why `text` is refused before it is read at all, or None."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return (f"the submission is {size:,} bytes; at most {MAX_BYTES:,} are read: post only your orders "
                "(not the whole thread)")
    lines = len(text.splitlines())          # as clean_text numbers them: a lone CR or U+2028 ends a line too
    if lines > MAX_LINES:
        return f"the submission has {lines:,} lines; at most {MAX_LINES:,} are read: post only your orders"
    return None


@dataclass(frozen=True)
class Line:
    number: int     # 1-based line of the text as pasted
    text: str       # the cleaned line: what error columns count in


_DROP = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))
_PLAIN = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
})
_SPACE = re.compile(r"\s")
_QUOTE_MARKERS = re.compile(r"\s*>[\s>]*")
_SEPARATOR = re.compile(r"--|-+ ?original message ?-+|_{10,}", re.I)
_ATTRIBUTION = re.compile(r".*\bwrote:", re.I)
_FENCE = re.compile(r"\s*(```|~~~)")
# A tag's attributes stop at the next '[' too, so that an unclosed `[b=` repeated does not rescan the line.
_BLOCK_TAG = re.compile(r"\[(/?)(code|quote)(?:[= ][^\[\]]*)?\]", re.I)
_FORMAT_TAG = re.compile(r"\[/?(?:b|i|u|s|color|size|font)(?:=[^\[\]]*)?\]", re.I)
_BULLET = re.compile(r"[-*\u2022\u00b7]\s+")
_RULE = re.compile(r"([-*_=])\1{2,}")


@dataclass
class _Piece:
    """A stretch of one line, with whether it was quoted and whether it sat in a code block."""

    number: int
    text: str
    quoted: bool
    code: bool


def clean_text(text: str) -> list[Line]:
    """The order lines of a pasted text, each with its line number in `text` (1-based)."""
    pieces = _pieces(_normalised(text))
    own = [p for p in pieces if not p.quoted]
    if any(_content(p.text) for p in own):
        pieces = own
    if any(p.code for p in pieces):
        pieces = [p for p in pieces if p.code]
    lines: dict[int, list[str]] = {}
    for p in pieces:
        lines.setdefault(p.number, []).append(p.text)
    cleaned = ((n, _content(" ".join(parts))) for n, parts in lines.items())
    return [Line(n, s) for n, s in cleaned if s]


def _normalised(text: str) -> list[tuple[int, str, bool]]:
    """(line number, text, quoted) for each line up to the signature."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        s = _SPACE.sub(" ", unicodedata.normalize("NFKC", raw).translate(_DROP).translate(_PLAIN))
        m = _QUOTE_MARKERS.match(s)
        quoted = bool(m)
        if m:
            s = s[m.end():]
        elif _SEPARATOR.fullmatch(s.strip()):
            break
        out.append((number, s, quoted))
    return out


def _pieces(lines: list[tuple[int, str, bool]]) -> list[_Piece]:
    """Split lines at [code]/[quote] tags and fences, marking each stretch as quoted and/or code."""
    pieces: list[_Piece] = []
    fence = ""
    stack: list[str] = []           # open BBCode blocks, innermost last
    open_ = Counter()               # how many of each are open: no scan of a deep stack per tag
    next_quoted = _next_quoted(lines)
    for i, (number, s, quoted) in enumerate(lines):
        m = _FENCE.match(s)
        if fence:
            if m and m.group(1) == fence:
                fence = ""
            else:
                pieces.append(_Piece(number, s, quoted or "quote" in stack, True))
            continue
        if m:
            fence = m.group(1)
            continue
        if not quoted and _ATTRIBUTION.match(s) and next_quoted[i]:
            quoted = True
        pos = 0
        for tag in _BLOCK_TAG.finditer(s):
            pieces.append(_Piece(number, s[pos:tag.start()], quoted or open_["quote"] > 0, open_["code"] > 0))
            pos = tag.end()
            name = tag.group(2).lower()
            if not tag.group(1):
                stack.append(name)
                open_[name] += 1
            elif open_[name]:                # close it and every block opened inside it
                while True:
                    inner = stack.pop()
                    open_[inner] -= 1
                    if inner == name:
                        break
        pieces.append(_Piece(number, s[pos:], quoted or open_["quote"] > 0, open_["code"] > 0))
    return pieces


def _next_quoted(lines: list[tuple[int, str, bool]]) -> list[bool]:
    """For each line, whether the next line with text is quoted (one pass from the end)."""
    out, following = [False] * len(lines), False
    for i in range(len(lines) - 1, -1, -1):
        out[i] = following
        if lines[i][1].strip():
            following = lines[i][2]
    return out


def _content(s: str) -> str:
    """A line without its comment, formatting tags, bullet, emoji at either end, and outer spaces."""
    s = _FORMAT_TAG.sub("", s).split("#", 1)[0].strip()
    if _RULE.fullmatch(s):
        return ""
    m = _BULLET.match(s)
    if m:
        s = s[m.end():]
    start, end = 0, len(s)
    while start < end and (_is_emoji(s[start]) or s[start] == " "):
        start += 1
    while end > start and (_is_emoji(s[end - 1]) or s[end - 1] == " "):
        end -= 1
    return s[start:end]


def _is_emoji(c: str) -> bool:
    cp = ord(c)
    return (unicodedata.category(c) == "So" or 0x1F3FB <= cp <= 0x1F3FF or cp in (0xFE0E, 0xFE0F, 0x20E3)
            or 0xE0020 <= cp <= 0xE007F)
