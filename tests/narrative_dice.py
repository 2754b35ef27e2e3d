"""A die changed in a report's narrative alone, its dice block untouched: `verify` must name the line (issue 32
item 5), whatever roll the narrative prints it in."""

from __future__ import annotations

import re
from pathlib import Path


def change_die(text: str, pattern: str) -> tuple[str, int]:
    """The text with the die `pattern`'s group 1 finds on the first line it matches changed (to the next face of a
    d6), and the 1-based number of that line."""
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if re.search(pattern, line))
    found = re.search(pattern, lines[k])
    lines[k] = lines[k][:found.start(1)] + str(int(found.group(1)) % 6 + 1) + lines[k][found.end(1):]
    return "\n".join(lines), k + 1


def verify(cli, folder: Path, text: str, code: int = 0) -> str:
    """`verify` of `text` posted to a file, expecting exit `code`: its output."""
    path = folder / "post.txt"
    path.write_text(text, encoding="utf-8")
    return cli("verify", path, code=code).output


def each_changed_die_is_named(cli, folder: Path, text: str, rolls: dict[str, str]) -> None:
    """`rolls`: a pattern finding one die of each roll, and the words `verify` names that roll by. The text as
    rendered verifies; with any one of those dice changed it does not, and the problem names its line and roll."""
    assert "DOES NOT" not in verify(cli, folder, text)
    for pattern, what in rolls.items():
        changed, line = change_die(text, pattern)
        out = verify(cli, folder, changed, code=1)
        assert "DOES NOT CHECK OUT" in out and f"line {line}: the narrative prints the dice of {what} as " in out, out
