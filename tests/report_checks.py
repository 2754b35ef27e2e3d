"""Strict checks of a report as players read it, for any test that renders one (issue 32: reports posted without
editing).

Each format is read the way its readers' software reads it: Markdown through markdown-it-py (CommonMark with
tables, as NodeBB sets it up), BBCode by a strict reading of its tags, plain text as it is. Then the words people
read — everything but the dice block, the orders as understood, and orders or commands quoted as code, which keep
the game's names by design — must hold no identifier of the game's: nothing joined by underscores
(`factory_minor`, `Neutral_True`), nothing in camel case (`infantryC`, `aaGun`), none of the names a test passes
(`Germans`, when the game's table names it Germany).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markdown_it import MarkdownIt

BBCODE_TAGS = ("b", "i", "u", "s", "size", "font", "color", "list", "code", "quote", "url", "img")
IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z]*\b")
_BB_TAG = re.compile(r"\[(/?)(\*|[a-z]+)(?:=[^\]\n]*)?\]")
ORDERS_TITLE = "Orders as understood"
# A power's name of the map's (`Japanese`) is its people's name where it stands for the power (before these words,
# punctuation or the end), and plain English as an adjective (`Japanese territories`) or in a place's name (`French
# West Africa`), which are allowed.
NOUN_AFTER = r"(?:and|or|at|by|in|of|on|to|with|now|is|are|has|have|declare|attack|buy|collect|lose|take|[a-z]+ed)\b"


def markdown() -> MarkdownIt:
    """CommonMark with GFM tables and strikethrough, with line breaks, as nodebb-plugin-markdown sets it up."""
    return MarkdownIt("commonmark", {"breaks": True, "html": False}).enable(["table", "strikethrough"])


def problems(text: str, fmt: str, internal: Iterable[str] = ()) -> list[str]:
    """Everything wrong with `text` as a `fmt` report ("markdown", "bbcode", "text"); `internal`: the game's
    own names that must not show in its words (a power's, where people call it otherwise)."""
    found = {"markdown": _markdown_problems, "bbcode": _bbcode_problems, "text": _text_problems}[fmt](text)
    words = {"markdown": _markdown_words, "bbcode": _bbcode_words, "text": _text_words}[fmt](text)
    for line in words:
        for name in IDENTIFIER.findall(line):
            found.append(f"the game's identifier {name!r} in: {line.strip()[:160]}")
        for name in internal:
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])(?!\s+[A-Z])(?!\s+(?!{NOUN_AFTER})[a-z])", line):
                found.append(f"the game's name {name!r} in: {line.strip()[:160]}")
    return found


def check(text: str, fmt: str, internal: Iterable[str] = ()) -> None:
    found = problems(text, fmt, internal)
    assert not found, f"{fmt} report:\n" + "\n".join(found) + f"\n---\n{text}"


# -- Markdown ----------------------------------------------------------------------------------------------------


def _markdown_problems(text: str) -> list[str]:
    tokens = markdown().parse(text)
    found = []
    fences = [t for t in tokens if t.type == "fence"]
    if [t.content.startswith("adjudicator dice\n") for t in fences] != [True]:
        found.append(f"{len(fences)} fenced blocks, not the one dice block")
    if any(t.type == "code_block" for t in tokens):
        found.append("an indented line became a code block")
    for line in _markdown_words(text):
        for mark in ("**", "`", "[b]", "[/"):
            if mark in line:
                found.append(f"markup {mark!r} left as text (unbalanced or misplaced): {line.strip()[:160]}")
    return found


def _markdown_words(text: str) -> list[str]:
    """The text of every inline, code spans left out; the orders as understood are code spans, the dice a fence."""
    lines = []
    for token in markdown().parse(text):
        if token.type == "inline":
            lines.append("".join(c.content for c in token.children or () if c.type == "text"))
    return lines


# -- BBCode -------------------------------------------------------------------------------------------------------


def _bbcode_problems(text: str) -> list[str]:
    found = []
    stack: list[str] = []
    for m in _BB_TAG.finditer(text):
        closing, tag = m.group(1), m.group(2)
        if tag == "*":
            if closing or not stack or stack[-1] != "list":
                found.append(f"{m.group(0)} outside a [list]")
            continue
        if tag not in BBCODE_TAGS:
            continue                                # a rule's reference in brackets: [AU-12] is text
        if closing:
            if not stack or stack[-1] != tag:
                found.append(f"[/{tag}] closes {stack[-1:] or 'nothing'}")
            else:
                stack.pop()
        else:
            stack.append(tag)
    if stack:
        found.append(f"unclosed: {stack}")
    if re.search(r"\[list\]\s*\[/list\]", text):
        found.append("an empty [list]")
    if text.count("[code]") != 1 or "[code]\nadjudicator dice\n" not in text:
        found.append("not exactly one [code] block, the dice block")
    found += _no_markdown(_bbcode_words(text), "BBCode")
    return found


def _bbcode_words(text: str) -> list[str]:
    text = re.sub(r"\[code\].*?\[/code\]", "", text, flags=re.S)
    text = re.sub(r"\[font=monospace\].*?\[/font\]", "", text, flags=re.S)
    return [_BB_TAG.sub("", line) for line in text.splitlines()]


# -- plain text ---------------------------------------------------------------------------------------------------


def _text_problems(text: str) -> list[str]:
    words = _text_words(text)
    found = _no_markdown(words, "text")
    found += [f"BBCode in text: {line.strip()[:160]}" for line in words
              if any(m.group(2) in BBCODE_TAGS + ("*",) for m in _BB_TAG.finditer(line))]
    return found


def _text_words(text: str) -> list[str]:
    """The lines outside the dice block (from `adjudicator dice` to the next blank line) and the orders as understood
    (the section under its title, up to the next title), quotations (“…”) left out."""
    lines, skip = [], None
    for line in text.splitlines():
        if line == "adjudicator dice":
            skip = "dice"
        elif line == ORDERS_TITLE:
            skip = "orders"
        elif skip == "dice" and not line.strip():
            skip = None
        elif skip == "orders" and line and not line[0].isspace():
            skip = None
        if skip is None:
            lines.append(re.sub(r"“[^”]*”", "", line))
    return lines


def _no_markdown(lines: list[str], fmt: str) -> list[str]:
    """Markdown that a BBCode forum or a mail reader would show as it is."""
    found = []
    for line in lines:
        if "`" in line or "**" in line:
            found.append(f"Markdown emphasis or code left in {fmt}: {line.strip()[:160]}")
        if re.match(r"#{1,6} ", line) or re.match(r"> ", line) or re.search(r"\]\([^)]*\)", line):
            found.append(f"a Markdown heading, quote or link in {fmt}: {line.strip()[:160]}")
        if re.match(r"\|.*\|\s*$", line):
            found.append(f"a Markdown table row in {fmt}: {line.strip()[:160]}")
    return found
