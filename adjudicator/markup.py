"""A report's sentences carry one mark of their own, `code` (an order or a command quoted, which keeps the
game's names); each format writes it its own way, so that no Markdown is left in a BBCode or text report.

The templates pass every sentence through the filter of their format (`bbcode`, `plain`); Markdown takes the
sentences as they are.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`]*)`")


def bbcode(text: str) -> str:
    """`ncm 1 inf F5 > G11` → [font=monospace]ncm 1 inf F5 > G11[/font]."""
    return _CODE.sub(r"[font=monospace]\1[/font]", str(text))


def plain(text: str) -> str:
    """`ncm 1 inf F5 > G11` → “ncm 1 inf F5 > G11”: a quotation, as a letter would write it."""
    return _CODE.sub(r"“\1”", str(text))


FILTERS = {"bbcode": bbcode, "plain": plain}
