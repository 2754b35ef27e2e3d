"""Opening a TripleA game XML: every way a file can fail becomes a MapError that names the file.

A host points `new --map` at whatever they have lying around (a map folder, a zip, the wrong XML), so each
failure says what was found and what to give instead, never a traceback.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from adjudicator.errors import MapError

Options = dict[str, list[str]]

_BOM = b"\xef\xbb\xbf"
_ZIP_MAGIC = b"PK\x03\x04"


@dataclass
class GameDocument:
    """A parsed game XML plus the name tables that every cross-reference is checked against."""

    path: Path
    root: ET.Element
    names: dict[str, set[str]] = field(default_factory=dict)   # kind ("territory", "player", ...) -> names

    def fail(self, message: str) -> NoReturn:
        raise MapError(f"{self.path}: {message}")

    def attr(self, element: ET.Element, name: str) -> str:
        """A required attribute; TripleA rejects the map without it, so do we."""
        value = element.get(name)
        if value is None:
            self.fail(f"<{element.tag} {_attrs(element)}> has no '{name}' attribute")
        return value

    def declare(self, kind: str, elements: list[ET.Element]) -> list[str]:
        """Record the names of one kind of entity; a duplicate would make references ambiguous."""
        names: list[str] = []
        seen = self.names.setdefault(kind, set())
        for element in elements:
            name = self.attr(element, "name")
            if name in seen:
                self.fail(f"{kind} '{name}' is declared twice")
            seen.add(name)
            names.append(name)
        return names

    def require(self, kind: str, name: str, where: ET.Element) -> str:
        if name not in self.names.get(kind, ()):
            self.fail(f"<{where.tag} {_attrs(where)}> refers to unknown {kind} '{name}'")
        return name

    def integer(self, value: str, what: str) -> int:
        try:
            return int(value.strip())
        except ValueError:
            self.fail(f"{what} is '{value}', not a whole number")

    def attachments(self, java_class: str) -> list[ET.Element]:
        """Attachments of one class; maps write either the full Java name or the bare class name."""
        return [a for a in self.root.iterfind("attachmentList/attachment")
                if a.get("javaClass", "").rsplit(".", 1)[-1] == java_class]

    def attached_options(self, java_class: str, kind: str) -> dict[str, Options]:
        """Options of all attachments of a class, merged per attached entity in file order."""
        merged: dict[str, Options] = {}
        for attachment in self.attachments(java_class):
            target = self.require(kind, self.attr(attachment, "attachTo"), attachment)
            for name, values in options(attachment).items():
                merged.setdefault(target, {}).setdefault(name, []).extend(values)
        return merged


def options(attachment: ET.Element) -> Options:
    """Option name -> values in file order; a `count` belongs to the value, as "count:value" (research §6.4)."""
    result: Options = {}
    for option in attachment.iterfind("option"):
        value = option.get("value", "")
        count = option.get("count")
        result.setdefault(option.get("name", ""), []).append(value if count is None else f"{count}:{value}")
    return result


def last(opts: Options, name: str, default: str | None = None) -> str | None:
    """The effective value of a repeated scalar option: TripleA's setters let the last one win."""
    values = opts.get(name)
    return values[-1] if values else default


def is_true(opts: Options, name: str) -> bool:
    return (last(opts, name) or "").strip().lower() == "true"


def colon_list(value: str | None) -> list[str]:
    return [part for part in (value or "").split(":") if part]


def open_game(path: str | Path) -> GameDocument:
    path = Path(path)
    root = _parse(path, _read(path))
    if root.tag != "game":
        raise MapError(f"{path}: is an XML file but not a TripleA game XML (its root element is <{root.tag}>, "
                       f"a game XML has <game>); pass one of the files in a map's map/games/ folder")
    if root.find("map") is None:
        raise MapError(f"{path}: has no <map> element, so it defines no territories; "
                       f"it is not a complete TripleA game XML")
    return GameDocument(path, root)


def read_info(path: Path) -> tuple[str, str] | None:
    """The `<info name version>` of a game XML, reading no further than the first child of <game>.

    find_map looks at every XML of every map folder, and game XMLs run to half a megabyte each.
    """
    try:
        with path.open("rb") as stream:
            events = ET.iterparse(stream, events=("start",))
            _, root = next(events)
            _, first = next(events)
    except (OSError, ET.ParseError, StopIteration):
        return None
    if root.tag != "game" or first.tag != "info":
        return None
    return first.get("name", ""), first.get("version", "")


def _read(path: Path) -> bytes:
    if not path.exists():
        raise MapError(f"{path}: no such file; give the path of a TripleA game XML (a map's map/games/*.xml) "
                       f"or a map name")
    if path.is_dir():
        raise MapError(f"{path}: is a folder, not a game XML; give one of the XML files in its map/games/ folder, "
                       f"or the map's name")
    try:
        return path.read_bytes()
    except OSError as error:
        raise MapError(f"{path}: cannot be read ({error.strerror or error})") from None


def _parse(path: Path, data: bytes) -> ET.Element:
    head = data.removeprefix(_BOM).lstrip()[:4]
    if head.startswith(_ZIP_MAGIC):
        raise MapError(f"{path}: is a zip archive; unpack the map first and give the XML in its map/games/ folder")
    if not head.startswith(b"<"):
        raise MapError(f"{path}: is not an XML file; a TripleA game XML starts with '<?xml' or '<game>'")
    try:
        return ET.fromstring(data)
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(":", 1)[0]
        raise MapError(f"{path}: malformed XML at line {line}, column {column + 1} ({reason}); "
                       f"the file is damaged or was cut short") from None


def _attrs(element: ET.Element) -> str:
    return " ".join(f'{k}="{v}"' for k, v in element.attrib.items())
