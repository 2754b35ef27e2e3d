"""The map's own pictures, copied into a game at `new` so that `map` draws on them ever after.

A game never reads its map folder again (DESIGN.md "State"), so what a picture needs is taken now: the base
image stitched from `baseTiles/`, the territories' outlines (`polygons.txt`) and centres (`centers.txt`), the
powers' colours and the map's size (`map.properties`). The base image is halved until it is at most
MAX_WIDTH wide and kept as a 256-colour PNG: the maps' base tiles are flat colours and lines, so little is
lost, and the G40 Alt-Universe map (7680 x 3398 px) costs about 0.25 MB instead of 2.6 MB of tiles. Outlines
keep the map's coordinates, simplified to within a pixel (Douglas-Peucker): a sixth of polygons.txt.

Art that is missing or damaged is no error: the game then has none, and its pictures are schematic.
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

MAX_WIDTH = 4096            # widest base image kept; a larger map is reduced by a whole factor
MAX_SIDE = 20000            # a map.properties size beyond this is damaged (or a memory bomb): no art
TOLERANCE = 1.0             # map pixels an outline may move when simplified

_TILE = re.compile(r"(\d+)_(\d+)\.png")
_POINT = re.compile(r"\((-?\d+)\s*,\s*(-?\d+)\)")
_COLOUR = re.compile(r"[0-9A-Fa-f]{6}")


def map_folder(xml: Path) -> Path | None:
    """The map folder of a game XML: the folder holding its `games/` folder, or None for an XML kept elsewhere."""
    return xml.parent.parent if xml.parent.name == "games" else None


def read_art(xml: Path) -> dict[str, bytes]:
    """The MapArt rows of a new game made from `xml`: {} when its map folder has no usable art."""
    folder = map_folder(Path(xml))
    if folder is None:
        return {}
    from PIL import Image
    try:
        key = _stamp(folder)
        if key not in _READ:
            _READ.clear()                   # one map's art at a time: a process makes games of one map mostly
            _READ[key] = _read(folder)
        return _READ[key]
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return {}


# The art last read, by its folder and files (path, size, time): stitching the tiles and simplifying the outlines
# takes half a second, which a process making several games of one map (a league's season, the tests) paid for
# each. Changed files make another key.
_READ: dict[tuple, dict[str, bytes]] = {}


def _stamp(folder: Path) -> tuple:
    files = [folder / "map.properties", folder / "polygons.txt", folder / "centers.txt",
             *sorted((folder / "baseTiles").glob("*.png"))]
    return tuple((str(f), s.st_size, s.st_mtime_ns) for f in files if f.exists() and (s := f.stat()))


def _read(folder: Path) -> dict[str, bytes]:
    properties = _properties(folder / "map.properties")
    polygons = _polygons((folder / "polygons.txt").read_text(encoding="utf-8", errors="replace"))
    centres = _centres((folder / "centers.txt").read_text(encoding="utf-8", errors="replace"))
    tiles = {(int(m[1]), int(m[2])): path for path in (folder / "baseTiles").glob("*.png")
             if (m := _TILE.fullmatch(path.name))}
    if not polygons or not centres or not tiles:
        return {}
    base, width, height = _base_image(tiles, properties)
    colours = {key.removeprefix("color."): f"#{value.lower()}" for key, value in properties.items()
               if key.startswith("color.") and _COLOUR.fullmatch(value)}
    info = {"width": width, "height": height, "colours": colours}
    return {"base.png": base, "polygons.json": _json(polygons), "centers.json": _json(centres), "map.json": _json(info)}


def _properties(path: Path) -> dict[str, str]:
    """A Java properties file's `key=value` lines (comments and other lines skipped); none if it is missing."""
    if not path.is_file():
        return {}
    pairs = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and not key.startswith(("#", "!")):
            pairs[key.strip()] = value.strip()
    return pairs


def _base_image(tiles: dict[tuple[int, int], Path], properties: dict[str, str]) -> tuple[bytes, int, int]:
    """The tiles pasted into one picture of the map's size, reduced to fit MAX_WIDTH, as PNG bytes."""
    from PIL import Image
    with Image.open(next(iter(tiles.values()))) as first:
        side = first.width
    width = int(properties.get("map.width") or (max(x for x, _ in tiles) + 1) * side)
    height = int(properties.get("map.height") or (max(y for _, y in tiles) + 1) * side)
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise ValueError(f"map size {width} x {height}")
    canvas = Image.new("RGB", (width, height), "white")
    for (x, y), path in tiles.items():
        with Image.open(path) as tile:
            canvas.paste(tile, (x * side, y * side))
    factor = math.ceil(width / MAX_WIDTH)
    if factor > 1:
        canvas = canvas.reduce(factor)
    out = io.BytesIO()
    canvas.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, "PNG")
    return out.getvalue(), width, height


def _polygons(text: str) -> dict[str, list[list[int]]]:
    """polygons.txt (`name < (x,y) (x,y) ... > < ... >`) as {name: [[x0, y0, x1, y1, ...], ...]}."""
    out: dict[str, list[list[int]]] = {}
    for line in text.splitlines():
        name, sep, rest = line.partition("<")
        if not sep or not name.strip():
            continue
        rings = []
        for part in rest.split("<"):
            points = [(int(x), int(y)) for x, y in _POINT.findall(part)]
            if len(points) >= 3:
                rings.append([c for p in _simplify(points) for c in p])
        if rings:
            out[name.strip()] = rings
    return out


def _centres(text: str) -> dict[str, list[int]]:
    """centers.txt (`name (x,y)`) as {name: [x, y]}."""
    out = {}
    for line in text.splitlines():
        name, sep, rest = line.partition("(")
        point = _POINT.search(sep + rest)
        if point and name.strip():
            out[name.strip()] = [int(point[1]), int(point[2])]
    return out


def _simplify(ring: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A closed outline with the points dropped that lie within TOLERANCE of the line kept (Douglas-Peucker):
    TripleA's outlines step pixel by pixel, nine points in ten of which draw nothing at a picture's scale."""
    points = ring + [ring[0]]
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    spans = [(0, len(points) - 1)]
    while spans:
        a, b = spans.pop()
        (ax, ay), (bx, by) = points[a], points[b]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        far, at = 0.0, -1
        for i in range(a + 1, b):
            px, py = points[i]
            d = abs(dy * (px - ax) - dx * (py - ay)) / length if length else math.hypot(px - ax, py - ay)
            if d > far:
                far, at = d, i
        if far > TOLERANCE:
            keep[at] = True
            spans += [(a, at), (at, b)]
    kept = [p for p, k in zip(points, keep) if k][:-1]
    return kept if len(kept) >= 3 else ring


def _json(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8")
