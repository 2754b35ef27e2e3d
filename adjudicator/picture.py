"""A picture of a game's position for a forum post: who owns what, and whose units stand where.

Drawn on the map's own art when `new` copied it (adjudicator.triplea.art): each territory is tinted with its
owner's colour by multiplying the base image with the colour, which is how a TripleA map looks (its base
tiles are white land with black borders, so the borders and the sea stay as they are). Without art (the demo
game, a map folder without tiles) a schematic is drawn instead: the connection graph laid out by a seeded
force-directed layout, land as boxes in the owner's colour, sea zones as blue ellipses.

What stands on a territory is written in a callout (adjudicator.picture_plan): its name, its marks (factory,
damage to its facilities, victory city, capital, city) and each power's units by type, abbreviated as in
orders (`11 inf 2 art 1 ftr`), which players already read and write. A player reads a position by what each
stack holds, so a stack is never cut to a total; a callout that does not fit on its territory moves off it
on a leader line. A battles crop is what players open on a phone, so its text is sized for one. The turn's
battles are outlined in red, its bombing raids in orange dashes: a raid takes no territory.
"""

from __future__ import annotations

import io
import json
import math
import random
import statistics
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont
from sqlmodel import Session, func, select

from .errors import AdjudicatorError
from .game import setup_of
from .notation.lexicon import UNIT_ALIASES
from .people import People
from .picture_plan import (GAP, MARKS, PAD, Callout, Name, Plan, anchor_of, arrange, font, head_width,
                           inside, name_height, overlap, row_height, wrap_units)
from .scenario import PHASES, Scenario
from .store import db
from .store.game_row import GameRow
from .store.journal import MapArt, Report, Snapshot, Step
from .turn_summary import SUMMARY_KEPT_FROM

REGIONS = ("all", "battles")
MIN_WIDTH, MAX_WIDTH = 400, 8000
DEFAULT_WIDTH = 2000        # the widest picture drawn unless asked: a forum post's full width
BATTLES_WIDTH = 1000        # the widest battle region drawn unless asked: what a phone shows of it stays legible
LEAST_WIDTH = 800           # the narrowest drawn unless asked (a battle region of a small map)
ROOM = 140                  # output pixels a median territory gets by default: room for its label
TITLE_HEIGHT = 58           # the title strip above the map
TINT = 0.8                  # a territory takes 80 % of its owner's colour: dark colours keep borders visible

# Colours of powers a map does not colour (the demo, a map.properties without them): the usual ones.
KNOWN_COLOURS = {"Germans": "#5d5d5d", "Russians": "#b23a2a", "Japanese": "#e0a126", "Americans": "#5f7f2e",
                 "Chinese": "#7d4a91", "British": "#b58a45", "Italians": "#3c6f8f", "ANZAC": "#4f8f86",
                 "French": "#2f62c4",
                 # the Expanded Global Scenario's nations (games/expanded_global/scenario.py NATIONS)
                 "United States": "#5f7f2e", "Russia": "#b23a2a", "Germany": "#5d5d5d", "Great Britain": "#b58a45",
                 "China": "#7d4a91", "France": "#2f62c4", "Japan": "#e0a126", "Indonesia": "#c04cc4",
                 "Eastern European Commonwealth": "#8fbf3f", "Italy": "#3c6f8f", "India": "#e07a1f",
                 "Australia": "#4f8f86", "Union of South American Nations": "#3bb273", "Canada": "#d1495b"}
SPARE_COLOURS = ("#d1495b", "#2e86ab", "#8a6fdf", "#3bb273", "#e07a1f", "#c04cc4", "#1f9fa8", "#9c7a3c")
SEA, SEA_LINE, LAND_LINE, PAPER, UNOWNED = "#cfe3f3", "#6f9cc4", "#8d8d8d", "#f5f2eb", "#e4dfd3"
BATTLE, RAID = "#e8262b", "#ff8c00"


# -- the command ---------------------------------------------------------------------------------

def save(engine, out: str, turn_index: int | None, region: str, width: int | None) -> dict:
    """`adjudicator map`: draw the picture and write it to `out`; what was drawn, for --json."""
    path = Path(out)
    if path.is_dir() or not path.parent.is_dir():
        problem = "that is a folder" if path.is_dir() else f"there is no folder {path.parent}"
        raise AdjudicatorError(f"-o {out}: {problem}; give the path of a .png file to write")
    if path.suffix.lower() != ".png":
        raise AdjudicatorError(f"-o {out}: the picture is a PNG; name the file FILE.png")
    with db.transaction(engine) as s:
        image, from_art, _ = _picture(s, db.the_game(s), turn_index, region, width)
    try:
        path.write_bytes(_png(image))
    except OSError as exc:
        raise AdjudicatorError(f"cannot write the picture to {out}: {exc.strerror or exc}") from None
    return {"file": str(path), "width": image.width, "height": image.height, "turn": turn_index, "region": region,
            "source": "map art" if from_art else "schematic"}


def draw(session: Session, game: GameRow, turn_index: int | None, region: str = "all", width: int | None = None) -> bytes:
    """The position after turn `turn_index` (the current one when None) as a PNG: a title strip, the map (all
    of it, or cropped to the turn's battles) and a legend of the powers' colours."""
    return _png(_picture(session, game, turn_index, region, width)[0])


def plan(session: Session, game: GameRow, turn_index: int | None, region: str = "all", width: int | None = None) -> Plan:
    """What `draw` writes on the map: the callouts, names and outlines, where they go."""
    return _picture(session, game, turn_index, region, width)[2]


def _png(image: Image.Image) -> bytes:
    """The picture as a 256-colour PNG: flat map colours and text lose nothing a reader sees, and a whole map
    takes a quarter of the bytes (about 0.2 MB at 2000 px), small enough to mail and upload."""
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(buffer, "PNG")
    return buffer.getvalue()


def _picture(session: Session, game: GameRow, turn_index: int | None, region: str,
             width: int | None) -> tuple[Image.Image, bool, Plan]:
    """The picture `draw` encodes, whether it was drawn on the map's own art (else a schematic), and its plan."""
    if region not in REGIONS:
        raise AdjudicatorError(f"--region takes {' or '.join(REGIONS)}, not {region!r}")
    if width is not None and not MIN_WIDTH <= width <= MAX_WIDTH:
        raise AdjudicatorError(f"--width takes {MIN_WIDTH} to {MAX_WIDTH} pixels, not {width}")
    setup = setup_of(session, game)
    scenario = setup.scenario
    people = People(scenario, setup.rules.people_names)
    position, caption = _position(session, game, turn_index, people)
    fights: dict[str, str] = {}
    if region == "battles":
        fights, fought = _battles(session, game, turn_index)
        caption += f" · turn {fought}: " + "; ".join(
            f"{kind} {', '.join(p for p, k in fights.items() if kind in k.split(' and '))}"
            for kind in ("battle", "raid") if any(kind in k.split(" and ") for k in fights.values()))
    art = _art(session, game, scenario)
    geometry = art.geometry if art else _schematic(scenario)
    polygons = art.polygons if art else {n: [[x0, y0, x1, y0, x1, y1, x0, y1]]
                                         for n, (x0, y0, x1, y1) in geometry.bounds.items()}
    box = _region(geometry, list(fights))
    room = statistics.median(b[2] - b[0] for b in geometry.bounds.values())
    if width is None:
        widest = BATTLES_WIDTH if fights else DEFAULT_WIDTH
        width = round(min(widest, max(LEAST_WIDTH, (box[2] - box[0]) * ROOM / room)))
    scale = width / (box[2] - box[0])
    size = (width, max(1, round((box[3] - box[1]) * scale)))
    colours = _colours(scenario, art.colours if art else {})
    view = View(box, scale, size)
    water = {t.name for t in scenario.territories if t.water}
    owners = {place: owner for place, owner in position["owners"].items() if place not in water}
    if art:
        picture = art.draw(view, owners, colours, fights)
    else:
        picture = _draw_schematic(geometry, scenario, view, owners, colours, fights)
    damage = _damage(session, game, turn_index, scenario)
    layout = _callouts(view, geometry, polygons, scenario, position, damage, text_size(region, width))
    layout.outlines, layout.size, layout.damage_known = fights, size, damage is not None
    _draw_plan(picture, layout, colours, water)
    seen = {power for c in layout.callouts for power, _ in c.rows} | {
        owners[p] for p, b in geometry.bounds.items() if p in owners and overlap(b, box)
        and (p not in polygons or _shows(polygons[p], box))}
    zoom = layout.text / TEXT
    title = _title(game, caption, width, zoom)
    layout.caption = caption
    legend = _legend(scenario, people, seen, colours, width, layout, zoom)
    out = Image.new("RGB", (width, title.height + size[1] + legend.height), "white")
    out.paste(title, (0, 0))
    out.paste(picture, (0, title.height))
    out.paste(legend, (0, title.height + size[1]))
    return out, art is not None, layout


# -- what is drawn: the position, its caption, the turn's battles --------------------------------

def _position(session: Session, game: GameRow, turn_index: int | None, people: People) -> tuple[dict, str]:
    """The public position (db.position) to draw and the caption of the title strip (the power as players name
    it, as the legend does)."""
    if turn_index is None:
        state = db.load_state(session, game, setup_of(session, game).scenario)
        phase = state.phase.replace("_", " ")
        position = db.position(state)
        units = setup_of(session, game).rules.public_units(state)
        if units is not None:
            position["units"] = units
        return position, (f"Round {state.round} · {people.heading(state.power)} · {phase} · turn {state.turn_index} · "
                          "the position now")
    snapshot = db.load_snapshot(session, game, turn_index) if turn_index >= 1 else None
    if snapshot is None:
        raise AdjudicatorError(_no_snapshot(session, game, turn_index))
    played = session.exec(select(Step.round, Step.power).where(Step.game_id == game.id, Step.turn_index == turn_index)).first()
    round_, power = played or (snapshot["round"], snapshot["power"])
    return snapshot, f"Round {round_} · {people.heading(power)} · the position after turn {turn_index}"


def _no_snapshot(session: Session, game: GameRow, turn_index: int) -> str:
    if turn_index < 1:
        why = "turns are numbered from 1"
    elif turn_index < game.turn_index:
        why = f"turn {turn_index} was played before this game kept the positions of past turns"
    else:
        why = f"turn {turn_index} has not been played (the game is at turn {game.turn_index})"
    kept = []
    if db.has_table(session, "snapshot"):
        kept = list(session.exec(select(Snapshot.turn_index).where(Snapshot.game_id == game.id).order_by(Snapshot.turn_index)))
    can = f"the turns that can be drawn are {_ranges(kept)}" if kept else "no past turn can be drawn"
    return f"no picture of turn {turn_index}: {why}; {can}, or leave out --turn to draw the position now"


def _ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> '1-3, 5'."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in spans)


def _battles(session: Session, game: GameRow, turn_index: int | None) -> tuple[dict[str, str], int]:
    """The places of the battles and bombing raids of a turn (the latest played when None), in the order fought:
    place -> "battle", "raid" or "battle and raid"."""
    played = select(Step).where(Step.game_id == game.id, Step.phase.in_(PHASES))
    if turn_index is None:
        turn_index = session.exec(select(func.max(Step.turn_index)).where(Step.game_id == game.id,
                                                                         Step.phase.in_(PHASES))).first()
        if turn_index is None:
            raise AdjudicatorError("no turn has been played yet, so no battle can be shown: draw --region all")
    kinds: dict[str, set[str]] = {}
    for step in session.exec(played.where(Step.turn_index == turn_index).order_by(Step.seq)):
        for place, kind in _fights(step):
            kinds.setdefault(place, set()).add(kind)
    places = {place: " and ".join(k for k in ("battle", "raid") if k in here) for place, here in kinds.items()}
    if not places:
        earlier = next((step.turn_index for step in session.exec(
            played.where(Step.turn_index < turn_index).order_by(Step.seq.desc())) if _fights(step)), None)
        raise AdjudicatorError(f"no battle or bombing raid was fought in turn {turn_index}: nothing to crop to; "
                               + (f"the latest turn with one is turn {earlier} (--turn {earlier}), or "
                                  if earlier is not None else "") + "draw --region all")
    return places, turn_index


def _fights(step: Step) -> list[tuple[str, str]]:
    """(place, "battle" or "raid") of each fight a step's events hold."""
    return [(event["place"], event["type"]) for event in json.loads(step.events)
            if event.get("type") in ("battle", "raid") and event.get("place")]


# -- geometry shared by map art and schematic ----------------------------------------------------

@dataclass
class Geometry:
    """Where territories are, in the picture's world coordinates (map pixels, or layout units)."""
    size: tuple[float, float]
    bounds: dict[str, tuple[float, float, float, float]]      # territory -> x0, y0, x1, y1
    centres: dict[str, tuple[float, float]]


@dataclass
class View:
    """The part of the world drawn (box), and at what scale, into an image of `size` pixels."""
    box: tuple[float, float, float, float]
    scale: float
    size: tuple[int, int]

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.box[0]) * self.scale, (y - self.box[1]) * self.scale


def _region(geometry: Geometry, places: list[str]) -> tuple[float, float, float, float]:
    """The whole world, or the battle places' bounds with a margin of about a territory, at least 4 x 2.5
    territories large, kept inside the world."""
    width, height = geometry.size
    known = [geometry.bounds[p] for p in places if p in geometry.bounds]
    if not places:
        return 0.0, 0.0, width, height
    if not known:
        raise AdjudicatorError(f"the battle places ({', '.join(places)}) are not on the map: draw --region all")
    t = statistics.median(b[2] - b[0] for b in geometry.bounds.values())
    x0, y0 = min(b[0] for b in known) - t, min(b[1] for b in known) - t
    x1, y1 = max(b[2] for b in known) + t, max(b[3] for b in known) + t
    grow_x, grow_y = max(0.0, 4 * t - (x1 - x0)) / 2, max(0.0, 2.5 * t - (y1 - y0)) / 2
    (x0, x1), (y0, y1) = _clamp(x0 - grow_x, x1 + grow_x, width), _clamp(y0 - grow_y, y1 + grow_y, height)
    return x0, y0, x1, y1


def _shows(rings: list[list[float]], box: tuple[float, float, float, float]) -> bool:
    """Whether any of a territory's outline lies in the view: a point of it inside the box, or a corner of the box
    inside it (a territory larger than the view). Its bounds alone also take in a neighbour whose corner only
    touches the view, and the legend named a power whose colour showed nowhere."""
    x0, y0, x1, y1 = box
    if any(x0 <= ring[i] <= x1 and y0 <= ring[i + 1] <= y1 for ring in rings for i in range(0, len(ring) - 1, 2)):
        return True
    return any(inside(rings, x, y) for x in (x0, x1) for y in (y0, y1))


def _clamp(a: float, b: float, limit: float) -> tuple[float, float]:
    """The span a..b moved (then cut) to lie within 0..limit."""
    if b - a >= limit:
        return 0.0, limit
    shift = max(0.0, -a) - max(0.0, b - limit)
    return a + shift, b + shift


# -- colours -------------------------------------------------------------------------------------

def _colours(scenario: Scenario, given: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, int, int]]:
    """Each power's colour: the map's, else the usual one, else a spare one no other power of the game has."""
    out = {p.name: given.get(p.name) or _rgb(KNOWN_COLOURS[p.name]) for p in scenario.players
           if p.name in given or p.name in KNOWN_COLOURS}
    spare = [c for c in map(_rgb, SPARE_COLOURS) if c not in out.values()]
    for i, player in enumerate(p for p in scenario.players if p.name not in out):
        out[player.name] = spare[i % len(spare)]
    return out


def _rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.removeprefix("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def tint(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour a territory of an owner of `colour` is filled with (on white land)."""
    return tuple(round(c * TINT + 255 * (1 - TINT)) for c in colour)


def _dark(colour: tuple[int, int, int]) -> bool:
    return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] < 150


# -- the map's own art ---------------------------------------------------------------------------

@dataclass
class Art:
    """A game's MapArt rows, read: the base image, the outlines in map pixels and the map's colours."""
    base: Image.Image
    polygons: dict[str, list[list[float]]]
    geometry: Geometry
    colours: dict[str, tuple[int, int, int]]

    def draw(self, view: View, owners: dict[str, str], colours: dict, fights: dict[str, str]) -> Image.Image:
        """The base image of the view, each territory of `owners` (land: the sea keeps its colour, as in TripleA)
        multiplied by its owner's tint, the places of battles and raids outlined (_outline)."""
        fx, fy = self.base.width / self.geometry.size[0], self.base.height / self.geometry.size[1]
        x0, y0, x1, y1 = view.box
        image = self.base.convert("RGB").resize(view.size, Image.Resampling.LANCZOS, box=(x0 * fx, y0 * fy, x1 * fx, y1 * fy))
        layer = Image.new("RGB", view.size, "white")
        pen = ImageDraw.Draw(layer)
        for place, owner in owners.items():
            if place in self.geometry.bounds:
                for ring in self.polygons[place]:
                    pen.polygon(self._px(view, ring), fill=tint(_colour(colours, owner)))
        image = ImageChops.multiply(image, layer)
        pen = ImageDraw.Draw(image)
        for place, kinds in fights.items():
            if place in self.geometry.bounds:
                for ring in self.polygons[place]:
                    for kind in kinds.split(" and "):
                        _outline(pen, self._px(view, ring), kind, max(3, round(view.scale * 6)))
        return image

    @staticmethod
    def _px(view: View, ring: list[float]) -> list[float]:
        (x0, y0, *_), s = view.box, view.scale
        return [(v - (x0 if i % 2 == 0 else y0)) * s for i, v in enumerate(ring)]


def _art(session: Session, game: GameRow, scenario: Scenario) -> Art | None:
    """The game's map art, or None when it has none (no map folder, an older game) or it is damaged or does not
    fit the scenario (more than a tenth of the territories without an outline): the picture is then schematic."""
    if not db.has_table(session, "map_art"):
        return None
    rows = dict(session.exec(select(MapArt.name, MapArt.data).where(MapArt.game_id == game.id)).all())
    try:
        info, centres = json.loads(rows["map.json"]), json.loads(rows["centers.json"])
        polygons = {name: [[float(v) for v in ring] for ring in rings]
                    for name, rings in json.loads(rows["polygons.json"]).items()}
        if any(len(ring) < 6 or len(ring) % 2 for rings in polygons.values() for ring in rings):
            raise ValueError("an outline of fewer than three points")
        base = Image.open(io.BytesIO(rows["base.png"]))
        base.load()
        size = (float(info["width"]), float(info["height"]))
        colours = {str(name): _rgb(value) for name, value in info["colours"].items()}
        middles = {name: (float(x), float(y)) for name, (x, y) in centres.items()}
    except (KeyError, ValueError, TypeError, AttributeError, OSError, SyntaxError, Image.DecompressionBombError):
        return None
    shown = [t.name for t in scenario.territories if not t.hidden and t.name in polygons and t.name in middles]
    if len(shown) < 0.9 * sum(1 for t in scenario.territories if not t.hidden) or min(size) <= 0:
        return None
    bounds = {}
    for name in shown:
        xs = [v for ring in polygons[name] for v in ring[0::2]]
        ys = [v for ring in polygons[name] for v in ring[1::2]]
        bounds[name] = (min(xs), min(ys), max(xs), max(ys))
    return Art(base, polygons, Geometry(size, bounds, {n: middles[n] for n in shown}), colours)


# -- the schematic -------------------------------------------------------------------------------

SPAN = 170.0                # layout units between neighbours: the schematic's pixels at scale 1
BOX = (0.8 * SPAN, 0.48 * SPAN)
SEED = 1940                 # the layout's seed: the same game always gets the same picture


def _schematic(scenario: Scenario) -> Geometry:
    """Territories laid out from the connection graph (or where the game places them: a board game's spaces, each
    with its option "centre" "x,y"), as boxes of BOX size around their centres."""
    names = [t.name for t in scenario.territories if not t.hidden]
    placed = {t.name: t.options.get("centre") for t in scenario.territories if not t.hidden}
    points = ({n: tuple(float(v) for v in c[0].split(",")) for n, c in placed.items()} if all(placed.values())
              else _layout(names, scenario.connections))
    lengths = [math.dist(points[a], points[b]) for a, b in scenario.connections if a in points and b in points]
    unit = SPAN / statistics.median(lengths) if lengths else SPAN
    points = _separate({n: (x * unit, y * unit) for n, (x, y) in points.items()})
    w, h = BOX
    left = min(x for x, _ in points.values()) - w / 2 - SPAN / 3
    top = min(y for _, y in points.values()) - h / 2 - SPAN / 3
    centres = {n: (x - left, y - top) for n, (x, y) in points.items()}
    size = (max(x for x, _ in centres.values()) + w / 2 + SPAN / 3, max(y for _, y in centres.values()) + h / 2 + SPAN / 3)
    return Geometry(size, {n: (x - w / 2, y - h / 2, x + w / 2, y + h / 2) for n, (x, y) in centres.items()}, centres)


def _layout(names: list[str], connections: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Fruchterman-Reingold (neighbours one unit apart), seeded; repulsion only between territories less than
    two units apart (found through a grid of cells), so that a few hundred territories take about a second."""
    index = {name: i for i, name in enumerate(names)}
    edges = sorted({(min(index[a], index[b]), max(index[a], index[b])) for a, b in connections
                    if a in index and b in index and a != b})
    n, rng = len(names), random.Random(SEED)
    side = math.sqrt(n) * 1.5
    xs, ys = [rng.uniform(0, side) for _ in names], [rng.uniform(0, side) for _ in names]
    steps = 150 if n <= 120 else 90
    for step in range(steps):
        heat = side / 10 * (1 - step / steps) + 0.02
        fx, fy = [0.0] * n, [0.0] * n
        cells: dict[tuple[int, int], list[int]] = {}
        for i in range(n):
            cells.setdefault((int(xs[i] // 2), int(ys[i] // 2)), []).append(i)
        for (cx, cy), members in cells.items():
            near = [j for gx in (cx - 1, cx, cx + 1) for gy in (cy - 1, cy, cy + 1) for j in cells.get((gx, gy), ())]
            for i in members:
                x, y, ax, ay = xs[i], ys[i], 0.0, 0.0
                for j in near:
                    dx, dy = x - xs[j], y - ys[j]
                    d2 = dx * dx + dy * dy
                    if 0 < d2 < 4:
                        ax, ay = ax + dx / d2, ay + dy / d2
                    elif d2 == 0 and j != i:
                        ax += (i - j) * 0.01
                fx[i], fy[i] = fx[i] + ax, fy[i] + ay
        for a, b in edges:
            dx, dy = xs[a] - xs[b], ys[a] - ys[b]
            d = math.hypot(dx, dy)
            fx[a], fy[a], fx[b], fy[b] = fx[a] - dx * d, fy[a] - dy * d, fx[b] + dx * d, fy[b] + dy * d
        mx, my = sum(xs) / n, sum(ys) / n
        for i in range(n):
            gx, gy = fx[i] - 0.05 * (xs[i] - mx), fy[i] - 0.05 * (ys[i] - my)
            d = math.hypot(gx, gy)
            if d > heat:
                gx, gy = gx * heat / d, gy * heat / d
            xs[i], ys[i] = xs[i] + gx, ys[i] + gy
    return {name: (xs[i], ys[i]) for name, i in index.items()}


def _separate(points: dict[str, tuple[float, float]], passes: int = 40) -> dict[str, tuple[float, float]]:
    """Boxes that overlap (with a margin) pushed apart along their shorter overlap, until none does."""
    names, w, h = list(points), BOX[0] * 1.12, BOX[1] * 1.35
    xs, ys = [points[n][0] for n in names], [points[n][1] for n in names]
    for _ in range(passes):
        moved = False
        cells: dict[tuple[int, int], list[int]] = {}
        for i in range(len(names)):
            cells.setdefault((int(xs[i] // w), int(ys[i] // h)), []).append(i)
        for (cx, cy), members in cells.items():
            near = [j for gx in (cx - 1, cx, cx + 1) for gy in (cy - 1, cy, cy + 1) for j in cells.get((gx, gy), ())]
            for i in members:
                for j in near:
                    if j <= i:
                        continue
                    dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                    ox, oy = w - abs(dx), h - abs(dy)
                    if ox > 0 and oy > 0:
                        moved = True
                        if ox / w < oy / h:
                            push = ox / 2 * (1 if dx >= 0 else -1)
                            xs[i], xs[j] = xs[i] - push, xs[j] + push
                        else:
                            push = oy / 2 * (1 if dy >= 0 else -1)
                            ys[i], ys[j] = ys[i] - push, ys[j] + push
        if not moved:
            break
    return {n: (xs[i], ys[i]) for i, n in enumerate(names)}


def _draw_schematic(geometry: Geometry, scenario: Scenario, view: View, owners: dict[str, str], colours: dict,
                    fights: dict[str, str]) -> Image.Image:
    """Connections as lines (blue where a sea zone is at an end), land as boxes in the owner's tint (`owners`
    holds land only), sea zones as blue ellipses, the places of battles and raids outlined (_outline)."""
    image = Image.new("RGB", view.size, PAPER)
    pen = ImageDraw.Draw(image)
    water = {t.name for t in scenario.territories if t.water}
    centres, line = geometry.centres, max(1, round(view.scale * 3))
    for a, b in scenario.connections:
        if a in centres and b in centres:
            pen.line([view.px(*centres[a]), view.px(*centres[b])], fill=SEA_LINE if {a, b} & water else LAND_LINE,
                     width=line)
    for name, (x0, y0, x1, y1) in geometry.bounds.items():
        rect = [*view.px(x0, y0), *view.px(x1, y1)]
        owner = owners.get(name)
        fill = SEA if name in water else tint(_colour(colours, owner)) if owner else UNOWNED
        edge = ("#3d6f99" if name in water else "#4a4a4a", max(1, line // 2))
        if name in water:
            pen.ellipse(rect, fill=fill, outline=edge[0], width=edge[1])
        else:
            pen.rounded_rectangle(rect, radius=round(8 * view.scale), fill=fill, outline=edge[0], width=edge[1])
        for kind in fights.get(name, "").split(" and ") if name in fights else ():
            _outline(pen, [rect[0], rect[1], rect[2], rect[1], rect[2], rect[3], rect[0], rect[3]], kind,
                     max(3, line + 1))
    return image


# -- callouts: names, marks and units --------------------------------------------------------------

TEXT = 13                   # text size (pixels) of a whole map's callouts: read at full size on a desktop
PHONE, LEGIBLE = 400, 10    # a phone shows a picture this many points wide; text smaller than LEGIBLE points is not read
SHORT = {}
for _alias, _unit in UNIT_ALIASES.items():
    SHORT.setdefault(_unit, _alias)


def text_size(region: str, width: int) -> int:
    """The callouts' text size: a battle region is what players open on a phone, shown PHONE points wide, so its
    text is at least LEGIBLE points there; a whole map is opened at full size."""
    return max(TEXT, math.ceil(width * LEGIBLE / PHONE)) if region == "battles" else TEXT


def _callouts(view: View, geometry: Geometry, polygons: dict[str, list[list[float]]], scenario: Scenario,
              position: dict, damage: dict[str, list[tuple[str, int]]] | None, text: int) -> Plan:
    """A callout for each territory in view where units stand or a mark belongs, names for the others where they
    fit, arranged (picture_plan.arrange). A territory whose anchor is outside the view (at a crop's edge) is left
    out: a callout there would point off the picture."""
    water = {t.name for t in scenario.territories if t.water}
    marks = _marks(scenario, position["units"])
    armies = _armies(scenario, position["units"])
    plan = Plan(text)
    for place, bounds in geometry.bounds.items():
        (x0, y0), (x1, y1) = view.px(*bounds[:2]), view.px(*bounds[2:])
        if x1 < 0 or y1 < 0 or x0 > view.size[0] or y0 > view.size[1]:
            continue
        cx, cy = view.px(*anchor_of(polygons[place], geometry.centres[place]))
        if not (0 <= cx <= view.size[0] and 0 <= cy <= view.size[1]):
            continue
        name = place.removesuffix(" Sea Zone") if place in water else place
        hurt = [f"{n} dmg" if kind == "factory" else f"{kind} {n} dmg" for kind, n in (damage or {}).get(place, [])]
        stack, marked = armies.get(place, []), marks.get(place, [])
        if not (stack or marked or hurt):
            width = font(text).getlength(name)
            if width + 4 <= x1 - x0:
                plan.names.append(Name(place, name, (cx - width / 2, cy - text * 0.6, cx + width / 2, cy + text * 0.6)))
            continue
        rows = [(power, line) for power, units in stack for line in wrap_units(units, text, text * 11)]
        plan.callouts.append(Callout(place, name, rows, marked, hurt, (cx, cy)))
    arrange(plan.callouts, text, view.size)
    boxes = [c.box for c in plan.callouts]
    plan.names = [n for n in plan.names if not any(overlap(n.box, b) for b in boxes)]
    return plan


def _marks(scenario: Scenario, units: list) -> dict[str, list[str]]:
    """place -> its MARKS: a factory standing there, a victory city, a capital (of a territory on the map), a city
    (a marker unit the map names a city)."""
    kinds = {u.name: u for u in scenario.unit_types}
    found: dict[str, set[str]] = {}
    for place, _, kind, _ in units:
        unit = kinds.get(kind)
        if unit is not None and unit.has("factory"):
            found.setdefault(place, set()).add("factory")
        elif unit is not None and unit.has("marker") and "city" in kind.lower():
            found.setdefault(place, set()).add("city")
    for t in scenario.territories:
        if t.victory_city and not t.hidden:
            found.setdefault(t.name, set()).add("victory city")
        if t.capital and not t.hidden:
            found.setdefault(t.name, set()).add("capital")
    return {place: [m for m in MARKS if m in here] for place, here in found.items()}


def _armies(scenario: Scenario, units: list) -> dict[str, list[tuple[str, dict[str, int]]]]:
    """place -> [(power, {abbreviation: count})]: powers in turn order, unit types in the map's order,
    facilities and markers left out (they are marks)."""
    kinds = {u.name: (i, u) for i, u in enumerate(scenario.unit_types)}
    turn = {p.name: i for i, p in enumerate(scenario.players)}
    common = {(p.name, v): c for p in scenario.players for c, vs in scenario.variants_of(p.name).items() for v in vs}
    stacks: dict[str, dict[str, dict[str, int]]] = {}
    for place, owner, kind, count in sorted(units, key=lambda row: kinds.get(row[2], (len(kinds),))[0]):
        unit = kinds.get(kind, (0, None))[1]
        if unit is not None and (unit.has("infrastructure") or unit.has("marker")):
            continue
        counts = stacks.setdefault(place, {}).setdefault(owner, {})
        short = _abbreviation(common.get((owner, kind), kind))
        counts[short] = counts.get(short, 0) + count
    return {place: sorted(powers.items(), key=lambda item: turn.get(item[0], len(turn))) for place, powers in stacks.items()}


def _abbreviation(unit: str) -> str:
    """The orders' abbreviation of a unit type (`inf`), or its name where the orders have none (`marine`: a cut
    `mari` is a name no order takes); a power's own variant of a type is given as the common type
    (Scenario.variants_of), as its orders name it."""
    return SHORT.get(unit) or unit


def _damage(session: Session, game: GameRow, turn_index: int | None, scenario: Scenario) -> dict | None:
    """place -> [(facility, damage)] of the damaged facilities: read from the game's state for the position now
    (or a turn after which nothing has been played), else from the damaged units the turn's snapshot keeps. None
    for a turn kept before snapshots held its damage (its report's templates older than SUMMARY_KEPT_FROM)."""
    state = db.load_state(session, game, scenario)
    damaged = [(u.place, u.type, u.damage) for u in state.units if u.damage]
    if turn_index is not None:
        last = session.exec(select(Step.turn_index, Step.state_hash).where(Step.game_id == game.id)
                            .order_by(Step.seq.desc())).first()
        if last is None or last[0] != turn_index or last[1] != state.hash():
            version = session.exec(select(Report.template_version).where(
                Report.game_id == game.id, Report.turn_index == turn_index).order_by(Report.id.desc())).first()
            if version is None or version < SUMMARY_KEPT_FROM:
                return None
            snapshot = db.load_snapshot(session, game, turn_index) or {}
            damaged = [(place, kind, n) for place, _, kind, n in snapshot.get("damaged", [])]
    kinds = {u.name: u for u in scenario.unit_types}
    out: dict[str, list[tuple[str, int]]] = {}
    for place, kind, n in damaged:
        unit = kinds.get(kind)
        if unit is not None and unit.has("infrastructure"):
            out.setdefault(place, []).append(("factory" if unit.has("factory") else _abbreviation(kind), n))
    return out


def _draw_plan(image: Image.Image, plan: Plan, colours: dict, water: set[str]) -> None:
    """Names, then leader lines and callouts (a light frame holding the name, its marks and the units' rows)."""
    pen = ImageDraw.Draw(image, "RGBA")
    f, t = font(plan.text), plan.text
    for n in plan.names:
        ink = ("white", (30, 70, 90)) if n.place in water else ((25, 25, 25), "white")
        pen.text(((n.box[0] + n.box[2]) / 2, (n.box[1] + n.box[3]) / 2), n.text, font=f, fill=ink[0], anchor="mm",
                 stroke_width=2, stroke_fill=ink[1])
    for c in plan.callouts:
        if c.leader:
            pen.line(c.leader, fill="white", width=max(2, t // 7) + 3)
            pen.line(c.leader, fill=(20, 20, 20), width=max(2, t // 7))
        x, y = c.anchor
        r = max(3.5, t / 4)
        pen.ellipse([x - r, y - r, x + r, y + r], fill=(20, 20, 20), outline="white", width=2)
    for c in plan.callouts:
        x0, y0, x1, y1 = c.box
        pen.rounded_rectangle(c.box, radius=4, fill=(255, 255, 255, 215), outline=(40, 40, 40), width=1)
        head = head_width(c, t)
        x = (x0 + x1 - head) / 2 if c.stacked else x0 + PAD
        y = y0 + PAD + name_height(t) / 2 if c.stacked else (y0 + y1) / 2
        pen.text((x, y), c.name, font=f, fill=(15, 15, 15), anchor="lm")
        x += f.getlength(c.name) + 4
        for mark in c.marks:
            _icon(pen, mark, x, y, t)
            x += t + 2
        for text in c.damage:
            width = f.getlength(text) + 8
            pen.rounded_rectangle([x, y - t / 2 - 1, x + width, y + t / 2 + 1], radius=3, fill=DAMAGE)
            pen.text((x + width / 2, y), text, font=f, fill="white", anchor="mm")
            x += width + 2
        top = y0 + PAD + (name_height(t) if c.stacked else 0)
        for power, text in c.rows:
            colour, width = _colour(colours, power), f.getlength(text) + 8
            left = (x0 + x1 - width) / 2 if c.stacked else x1 - PAD - width
            dark = _dark(colour)
            pen.rounded_rectangle([left, top, left + width, top + row_height(t)], radius=3, fill=colour,
                                  outline="white" if dark else (40, 40, 40), width=1)
            pen.text((left + width / 2, top + row_height(t) / 2), text, font=f, fill="white" if dark else "black",
                     anchor="mm")
            top += row_height(t) + GAP


DAMAGE = (190, 20, 20)
STAR = [(math.cos(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
         -math.sin(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45)) for k in range(10)]


def _icon(pen: ImageDraw.ImageDraw, mark: str, x: float, y: float, t: int) -> None:
    """A mark as a small picture `t` pixels wide from x, centred on y: a factory (a saw-tooth roof and a chimney),
    a victory city (a gold star), a capital (a star in a ring), a city (a small building block)."""
    h = t / 2
    if mark == "factory":
        pen.polygon([(x, y + h), (x, y - h * 0.2), (x + t * 0.33, y - h * 0.7), (x + t * 0.33, y - h * 0.2),
                     (x + t * 0.66, y - h * 0.7), (x + t * 0.66, y - h), (x + t * 0.85, y - h), (x + t * 0.85, y + h)],
                    fill=(60, 60, 60), outline=(10, 10, 10))
    elif mark in ("victory city", "capital"):
        cx, r = x + h, h * (0.8 if mark == "capital" else 1.0)
        if mark == "capital":
            pen.ellipse([cx - h, y - h, cx + h, y + h], outline=(120, 20, 20), width=max(1, t // 8))
        pen.polygon([(cx + dx * r, y + dy * r) for dx, dy in STAR], fill=(240, 190, 30), outline=(90, 60, 0))
    else:
        pen.rectangle([x + t * 0.15, y - h * 0.5, x + t * 0.85, y + h], fill=(120, 120, 160), outline=(30, 30, 60))
        pen.rectangle([x + t * 0.35, y - h, x + t * 0.65, y + h], fill=(120, 120, 160), outline=(30, 30, 60))


def _colour(colours: dict, power: str) -> tuple[int, int, int]:
    return colours.get(power, (160, 160, 160))


def _title(game: GameRow, caption: str, width: int, scale: float) -> Image.Image:
    """The game's title and the caption (wrapped, not cut: it names the turn's fights) in a dark strip, `scale`
    times the size a whole map's has."""
    big, mid, small = font(round(21 * scale)), font(round(15 * scale)), font(round(14 * scale))
    lines = _wrap(caption, mid, width - 24)
    strip = Image.new("RGB", (width, round((TITLE_HEIGHT + 20 * (len(lines) - 1)) * scale)), (31, 42, 54))
    pen = ImageDraw.Draw(strip)
    tag = f"game {game.id}"
    pen.text((width - 12, 10 * scale), tag, font=small, fill=(159, 176, 194), anchor="ra")
    pen.text((12, 6 * scale), _clip(game.title, big, width - 36 - small.getlength(tag)), font=big, fill="white",
             stroke_width=1, stroke_fill="white")
    for i, line in enumerate(lines):
        pen.text((12, (34 + 20 * i) * scale), line, font=mid, fill=(221, 229, 238))
    return strip


def _legend(scenario: Scenario, people: People, seen: set[str], colours: dict, width: int, plan: Plan,
            scale: float) -> Image.Image:
    """The colours of the powers in view, the outlines of the turn's fights, the marks and how to read a callout."""
    big, small = font(round(14 * scale)), font(round(13 * scale))
    swatch, line = round(17 * scale), round(24 * scale)
    items: list[tuple[str, object]] = [(people.heading(p.name), _colour(colours, p.name)) for p in scenario.players
                                       if p.name in seen]
    plan.legend = [text for text, _ in items]
    kinds = set(" and ".join(plan.outlines.values()).split(" and ")) - {""}
    items += [(text, kind) for kind, text in (("battle", "battle"), ("raid", "bombing raid")) if kind in kinds]
    shown = {m for c in plan.callouts for m in c.marks}
    items += [(mark, mark) for mark in MARKS if mark in shown]
    if any(c.damage for c in plan.callouts):
        items.append(("damage to a facility", "damage"))
    spots, x, y = [], 12, round(10 * scale)
    for text, key in items:
        step = swatch + 7 + big.getlength(text) + 18
        if x + step > width - 12 and x > 12:
            x, y = 12, y + line
        spots.append((x, y, text, key))
        x += step
    note = ("Each territory where units stand is named, with its units by power and type, abbreviated as in orders "
            "(inf, art, arm, ftr, ...); a line ties a name moved off a small territory to a dot inside it.")
    if not plan.damage_known and "factory" in shown:
        note += " This turn was played before the game kept the damage of past turns: damage to facilities is not shown."
    lines = _wrap(note, small, width - 24)
    strip = Image.new("RGB", (width, y + line + round(12 * scale) + round(18 * scale) * len(lines)), (246, 246, 243))
    pen = ImageDraw.Draw(strip)
    for x, y0, text, key in spots:
        box = [x, y0 + 1, x + swatch, y0 + 1 + swatch]
        if key in ("battle", "raid"):
            _outline(pen, [box[0], box[1], box[2], box[1], box[2], box[3], box[0], box[3]], key, max(3, swatch // 5))
        elif key == "damage":
            pen.rounded_rectangle(box, radius=3, fill=DAMAGE)
        elif key in MARKS:
            _icon(pen, key, x, y0 + 1 + swatch / 2, swatch)
        else:
            pen.rectangle(box, fill=key, outline=(60, 60, 60))
        pen.text((x + swatch + 7, y0 + 1 + swatch / 2), text, font=big, fill=(30, 30, 30), anchor="lm")
    for i, text in enumerate(lines):
        pen.text((12, y + line + round(12 * scale) + round(18 * scale) * i), text, font=small, fill=(90, 90, 90),
                 anchor="lm")
    return strip


def _outline(pen: ImageDraw.ImageDraw, points: list[float], kind: str, width: int) -> None:
    """A battle's outline: solid red. A raid's: orange dashes, so that a bombing raid is not read as a battle."""
    if kind == "battle":
        pen.line(points + points[:4], fill=BATTLE, width=width, joint="curve")
        return
    pairs = list(zip(points[0::2], points[1::2]))
    pairs.append(pairs[0])
    dash, on, left = width * 3, True, width * 3
    for (ax, ay), (bx, by) in zip(pairs, pairs[1:]):
        length = math.hypot(bx - ax, by - ay)
        done = 0.0
        while done < length:
            step = min(left, length - done)
            if on:
                t0, t1 = done / length, (done + step) / length
                pen.line([ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1],
                         fill=RAID, width=width)
            done, left = done + step, left - step
            if left <= 0:
                on, left = not on, dash if not on else dash * 0.7


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    lines = [""]
    for word in text.split():
        if lines[-1] and font.getlength(f"{lines[-1]} {word}") > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def _clip(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
