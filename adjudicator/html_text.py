"""HTML as players' orders come in it (an HTML-only mail, a forum post as NodeBB renders it) turned into lines of
text, so that the notation reads it as it reads a pasted text and its errors name lines the player can find.

Lines break where the reader sees them break (<br>, <p>, <div>, <li>, <tr>, headings); in a forum post a
paragraph ends in a blank line, as in the Markdown it was written in (a mail client's paragraph is a line:
Outlook writes each line as one), and a code block keeps its lines and is fenced with
``` so that the notation reads only it when a post wraps its orders in chatter (notation/text.py, rule 5).
Quoted text (<blockquote>) keeps its lines, each a bare `>` as a quoted line of a plain mail starts: own_words
empties them (someone else's words are no orders) and the lines after them keep their numbers. Scripts, styles
and the head are no text at all.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_LINE = {"div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "dt", "dd", "address",
         "center", "section", "article", "header", "footer", "hr"}
_PARAGRAPH = {"p"}
_HIDDEN = {"script", "style", "head", "title", "template"}
_CELL = {"td", "th"}
_SPACES = re.compile(r"\s+")


class _Text(HTMLParser):
    def __init__(self, source_breaks: bool):
        super().__init__(convert_charrefs=True)
        self.source_breaks = source_breaks      # a forum post's newlines are the player's (Markdown without breaks)
        self.lines: list[tuple[str, bool]] = []   # (text, quoted)
        self.line = ""
        self.line_quoted = False
        self.quote = self.hidden = self.pre = 0
        self.after_break = False

    # -- lines -------------------------------------------------------------------------------------------------

    def _end_line(self) -> None:
        self.lines.append((self.line.rstrip(), self.line_quoted))
        self.line, self.line_quoted = "", False

    def _block(self, blank: bool = False) -> None:
        """A block starts or ends: the line in hand ends (an empty one is not made twice), and a paragraph leaves
        one blank line after it."""
        if self.line.strip():
            self._end_line()
        else:
            self.line = ""
        if blank and self.lines and self.lines[-1][0]:
            self.lines.append(("", False))

    def _add(self, text: str) -> None:
        if not text:
            return
        if self.quote:
            self.line_quoted = True
        self.line += text

    # -- the parser's events -------------------------------------------------------------------------------------

    def handle_starttag(self, tag, attrs):
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self._end_line()
            self.after_break = True
        elif tag == "blockquote":
            self._block()
            self.quote += 1
        elif tag == "pre":
            self._block()
            self.pre += 1
            if self.pre == 1:
                self._add("```")
                self._end_line()
        elif tag in _PARAGRAPH or tag in _LINE:
            self._block()
        elif tag in _CELL and self.line.strip():
            self._add(" ")

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self._end_line()
            self.after_break = True
        elif tag in _LINE:
            self._block()

    def handle_endtag(self, tag):
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "blockquote":
            self._block()
            self.quote = max(0, self.quote - 1)
        elif tag == "pre" and self.pre:
            self.pre -= 1
            if not self.pre:
                if self.line:
                    self._end_line()
                self._add("```")
                self._end_line()
        elif tag in _PARAGRAPH:
            self._block(blank=self.source_breaks)
        elif tag in _LINE:
            self._block()

    def handle_data(self, data):
        if self.hidden:
            return
        if self.after_break and data.startswith("\n"):
            data = data[1:]                     # NodeBB writes `<br />` and the newline it stands for
        self.after_break = False
        if self.pre:
            first, *rest = data.split("\n")
            self._add(first)
            for part in rest:
                self._end_line()
                self._add(part)
            return
        if self.source_breaks and not data.strip() and not self.line.strip():
            return                              # the newlines between blocks of the rendered HTML
        for k, part in enumerate(data.split("\n") if self.source_breaks else [data]):
            if k:
                self._end_line()
            part = _SPACES.sub(" ", part)
            if not self.line.strip() or self.line.endswith(" "):
                part = part.lstrip()
            self._add(part)

    def text(self) -> str:
        self.close()
        if self.line.strip():
            self._end_line()
        lines = [">" if quoted else text for text, quoted in self.lines]
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines)


def html_to_text(html: str, source_breaks: bool = False) -> str:
    """The text a reader sees in `html`, quoted lines a bare `>`. `source_breaks`: newlines in the HTML's text are
    line breaks too (a forum post rendered from Markdown, where the player's lines stay lines)."""
    parser = _Text(source_breaks)
    parser.feed(html)
    return parser.text()
