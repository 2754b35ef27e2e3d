"""Where the words of a map picture go: one callout per territory where something stands, laid out before a
pixel is drawn, so that tests read the layout (a Plan) instead of guessing from pixels.

A callout is the territory's name with its marks (factory, its damage, victory city, capital, city) and under
it a row per power listing its units by type (`11 inf 2 art 1 mech`), abbreviated as in orders. A player
reads a stack by what is in it, so it is never cut to a total. The callout sits on the territory when it fits
there without covering another callout or another territory's anchor; else it moves out, nearest first, and a
leader line ties it to an anchor point inside the territory: small territories (a strait, an island, a
European province) keep their name and their army together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import ImageFont

PAD, GAP = 3, 2             # pixels inside a callout's frame, and between its rows
MARKS = ("factory", "victory city", "capital", "city")
RINGS = 30                  # how far out (in steps of about half a callout) a callout may move off its territory


@dataclass
class Callout:
    """A territory's name, marks and units, and where they go in the picture (pixels of the map area)."""
    place: str
    name: str
    rows: list[tuple[str, str]]                 # (power, "11 inf 2 art"), a power's units wrapped over rows
    marks: list[str]                            # of MARKS, in that order
    damage: list[str]                           # damaged facilities: "4 dmg" (a factory), "af 2 dmg"
    anchor: tuple[float, float]                 # a point inside the territory
    size: tuple[float, float] = (0.0, 0.0)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    stacked: bool = True                        # the units' rows under the name (else one row beside it)

    @property
    def leader(self) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The line from the anchor to the nearest point of the box, when the box is not on the anchor."""
        x, y = self.anchor
        x0, y0, x1, y1 = self.box
        if x0 <= x <= x1 and y0 <= y <= y1:
            return None
        return (x, y), (min(max(x, x0), x1), min(max(y, y0), y1))


@dataclass
class Name:
    """The name of a territory where nothing stands, drawn only where it fits inside the territory."""
    place: str
    text: str
    box: tuple[float, float, float, float]


@dataclass
class Plan:
    """Everything written on the picture: on the map area its text size, callouts, names, and the outlines of the
    turn's fights; above it the caption, below it the powers the legend names."""
    text: int
    size: tuple[int, int] = (0, 0)                                # the map area's, in pixels
    callouts: list[Callout] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)
    outlines: dict[str, str] = field(default_factory=dict)        # place -> "battle", "raid" or "battle and raid"
    damage_known: bool = True           # False for a turn kept before snapshots held the damage (picture._damage)
    caption: str = ""
    legend: list[str] = field(default_factory=list)               # the powers, as players name them

    def callout(self, place: str) -> Callout:
        return next(c for c in self.callouts if c.place == place)


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size)


def row_height(text: int) -> float:
    return text + 6


def name_height(text: int) -> float:
    return text + 4


def mark_width(text: int, callout: Callout) -> float:
    """The room the marks and damage take after the name."""
    icons = len(callout.marks) * (text + 2)
    return icons + sum(font(text).getlength(d) + 8 + 2 for d in callout.damage)


def head_width(callout: Callout, text: int) -> float:
    """The width of the name with its marks and damage."""
    marked = callout.marks or callout.damage
    return font(text).getlength(callout.name) + (4 + mark_width(text, callout) if marked else 0)


def measure(callout: Callout, text: int, stacked: bool = False) -> tuple[float, float]:
    """The callout's frame size at text size `text`: a single row of units beside the name unless `stacked`
    (most callouts: half the height), more rows under it."""
    head, rows = head_width(callout, text), [font(text).getlength(t) + 8 for _, t in callout.rows]
    if len(rows) == 1 and not stacked:
        return head + 5 + rows[0] + 2 * PAD, row_height(text) + 2 * PAD
    return max([head] + rows) + 2 * PAD, 2 * PAD + name_height(text) + len(rows) * (row_height(text) + GAP)


def wrap_units(counts: dict[str, int], text: int, limit: float) -> list[str]:
    """`{"inf": 11, "art": 2}` as rows of "11 inf 2 art" no wider than `limit` pixels (a part is never split)."""
    f, rows = font(text), [""]
    for part in (f"{n} {short}" for short, n in counts.items()):
        if rows[-1] and f.getlength(f"{rows[-1]}  {part}") + 8 > limit:
            rows.append(part)
        else:
            rows[-1] = f"{rows[-1]}  {part}".strip()
    return rows


def inside(rings: list[list[float]], x: float, y: float) -> bool:
    """Whether (x, y) is inside the outline (even-odd over all rings: a lake is a hole)."""
    hit = False
    for ring in rings:
        n = len(ring) // 2
        for i in range(n):
            ax, ay, bx, by = ring[2 * i], ring[2 * i + 1], ring[2 * ((i + 1) % n)], ring[2 * ((i + 1) % n) + 1]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                hit = not hit
    return hit


def anchor_of(rings: list[list[float]], centre: tuple[float, float]) -> tuple[float, float]:
    """The map's centre of a territory when it lies inside the outline, else the point of a grid over the
    outline farthest from its edges (a crescent's centre can lie in the sea beside it)."""
    if inside(rings, *centre):
        return centre
    xs = [v for ring in rings for v in ring[0::2]]
    ys = [v for ring in rings for v in ring[1::2]]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    best, far = centre, -1.0
    for i in range(1, 16):
        for j in range(1, 16):
            x, y = x0 + (x1 - x0) * i / 16, y0 + (y1 - y0) * j / 16
            if inside(rings, x, y):
                edge = min(_to_edges(rings, x, y), math.inf)
                if edge > far:
                    best, far = (x, y), edge
    return best


def _to_edges(rings: list[list[float]], x: float, y: float) -> float:
    near = math.inf
    for ring in rings:
        n = len(ring) // 2
        for i in range(n):
            ax, ay, bx, by = ring[2 * i], ring[2 * i + 1], ring[2 * ((i + 1) % n)], ring[2 * ((i + 1) % n) + 1]
            dx, dy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy))) if dx or dy else 0.0
            near = min(near, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return near


def arrange(callouts: list[Callout], text: int, size: tuple[int, int]) -> None:
    """Give each callout its box: on its anchor if that is free, else the nearest free spot of rings around it,
    inside the picture, covering no other callout and no other callout's anchor; a single row of units may stand
    beside the name or under it, whichever fits nearer. The most crowded callouts are placed first: the spots near
    them go first. Where no spot is free (a picture too narrow for its armies), the one covering least is taken."""
    for c in callouts:
        c.size = measure(c, text)
    grid = _Grid()
    for c in callouts:
        grid.add(c.anchor + c.anchor, c.place)

    def crowd(c: Callout) -> float:
        reach = 2.5 * math.hypot(*c.size)
        return sum(o.size[0] * o.size[1] for o in callouts if math.dist(o.anchor, c.anchor) < reach)

    for c in sorted(callouts, key=lambda c: (-crowd(c), c.place)):
        single = len(c.rows) == 1
        shapes = [(not single, c.size)] + ([(True, measure(c, text, stacked=True))] if single else [])
        best, cost = (not single, c.size, (0.0, 0.0, *c.size)), math.inf
        for stacked, box in _spots(c.anchor, shapes, size):
            reach = math.dist(c.anchor, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
            covered = grid.covered(box, c.place, (cost - reach) / 100)
            if covered * 100 + reach < cost:
                best, cost = (stacked, (box[2] - box[0], box[3] - box[1]), box), covered * 100 + reach
            if not covered:
                break
        c.stacked, c.size, c.box = best
        grid.add((c.box[0] - GAP, c.box[1] - GAP, c.box[2] + GAP, c.box[3] + GAP), None)


class _Grid:
    """The boxes placed so far and the anchors, by cells of CELL pixels: a spot is checked against those near it
    only, so that a crowded picture (a whole map drawn narrow) is laid out in about a second."""
    CELL = 64

    def __init__(self):
        self.cells: dict[tuple[int, int], list[tuple[tuple, str | None]]] = {}

    def _keys(self, box: tuple):
        c = self.CELL
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def add(self, box: tuple, anchor_of: str | None) -> None:
        """A callout's box (anchor_of None), or the anchor point (a box of no size) of the territory named."""
        for key in self._keys(box):
            self.cells.setdefault(key, []).append((box, anchor_of))

    def covered(self, box: tuple, place: str, enough: float) -> float:
        """How much of `box` other callouts cover, plus 1e4 for each other territory's anchor in it (within 3
        pixels); counting stops past `enough`."""
        seen, total = set(), 0.0
        for key in self._keys((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)):
            for other, anchor in self.cells.get(key, ()):
                if id(other) in seen:
                    continue
                seen.add(id(other))
                if anchor is None:
                    total += _area(box, other)
                elif anchor != place and box[0] - 3 <= other[0] <= box[2] + 3 and box[1] - 3 <= other[1] <= box[3] + 3:
                    total += 1e4
                if total > enough:
                    return total
        return total


def _spots(anchor: tuple[float, float], shapes: list[tuple[bool, tuple[float, float]]], size: tuple[int, int]):
    """(stacked, box) for a callout of each shape: centred on its anchor, then on rings ever farther out (until a
    ring lies wholly outside the picture), each moved into the picture; a box met before is not given again."""
    x, y = anchor
    given = set()
    for ring in range(RINGS):
        for stacked, (w, h) in shapes:
            rx, ry = ring * (w / 2 + 6) / 1.6, ring * (h / 2 + 6) / 1.3
            if ring and rx > size[0] + w and ry > size[1] + h:
                return
            steps = 8 + 4 * ring if ring else 1
            for k in range(steps):
                angle = 2 * math.pi * k / steps - math.pi / 2
                box = _within(x + math.cos(angle) * rx - w / 2, y + math.sin(angle) * ry - h / 2, w, h, size)
                key = (stacked, round(box[0]), round(box[1]))
                if key not in given:
                    given.add(key)
                    yield stacked, box


def _within(x: float, y: float, w: float, h: float, size: tuple[int, int]) -> tuple[float, float, float, float]:
    x = min(max(x, 1.0), max(1.0, size[0] - w - 1))
    y = min(max(y, 1.0), max(1.0, size[1] - h - 1))
    return x, y, x + w, y + h


def _area(a: tuple, b: tuple) -> float:
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def overlap(a: tuple, b: tuple) -> bool:
    return _area(a, b) > 0
