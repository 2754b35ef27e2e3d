"""`adjudicator map`: pictures of a position, on the map's own art copied at `new`, or schematic without it."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.demo import DEMO_SEED, SCRIPT
from adjudicator.game import setup_of
from adjudicator.picture import BATTLE, KNOWN_COLOURS, RAID, TITLE_HEIGHT, plan, tint
from adjudicator.picture_plan import Plan, font, inside, overlap
from adjudicator.store.db import choose, open_existing, the_game, transaction
from adjudicator.triplea.art import read_art
from conftest import G40AU_208, TEST_SEED

pytestmark = pytest.mark.slow

GERMANS_TAKE_F5 = """\
war French
cm 6 inf G8 > F5
cm 2 art, 1 arm, 3 inf G11 > F5
cm 1 ftr, 1 tac G15 > G11 > F5
bomb 1 bmb G15 > G11 > F2 > F3 factory
ool F5: inf, art, arm, tac, ftr
ncm 1 ftr, 1 tac F5 > G11 > G15
end
"""


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(bytes.fromhex(colour.removeprefix("#")))


def picture(cli, db: Path, out: Path, *args) -> tuple[dict, Image.Image]:
    """Draw with --json; the JSON and the picture read back (checked to be the PNG the JSON describes)."""
    result = cli.json("map", db, "-o", out, *args)
    image = Image.open(out)
    assert image.format == "PNG" and image.size == (result["width"], result["height"])
    return result, image.convert("RGB")


def map_area(image: Image.Image, height: int) -> Image.Image:
    """The map between the title strip and the legend."""
    return image.crop((0, TITLE_HEIGHT, image.width, TITLE_HEIGHT + height))


def layout(db: Path, turn: int | None = None, region: str = "all", width: int | None = None) -> Plan:
    """What the picture `map` draws with these options writes on the map: its callouts, names and outlines."""
    with transaction(choose(open_existing(str(db)), str(db), None)) as s:
        return plan(s, the_game(s), turn, region, width)


# -- the demo: no map art, a schematic ------------------------------------------------------------

@pytest.fixture
def demo(cli, tmp_path) -> Path:
    db = tmp_path / "demo.db"
    created = cli.json("new", db, "--game", "demo", "--seed", DEMO_SEED, "--id", "demo")     # the demo's dice
    assert created["map_art"] == []
    return db


def play(cli, db: Path, power: str, orders: str) -> None:
    cli("submit", db, "--power", power, "-", input=orders)
    cli("adjudicate", db)


def pixels(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels have `colour`, or one the picture's 256-colour palette put in its place."""
    return sum(n for n, c in image.getcolors(image.width * image.height)
               if sum((a - b) ** 2 for a, b in zip(c, colour)) <= 10 ** 2)


def tinted(image: Image.Image, power: str) -> int:
    """How many pixels have the fill of `power`'s territories."""
    return pixels(image, tint(rgb(KNOWN_COLOURS[power])))


def test_the_demo_is_drawn_as_a_schematic_of_the_width_asked(cli, demo, tmp_path):
    result, image = picture(cli, demo, tmp_path / "demo.png", "--width", "900")
    assert result == {"file": str(tmp_path / "demo.png"), "width": 900, "height": image.height, "turn": None,
                      "region": "all", "source": "schematic"}
    assert image.height > TITLE_HEIGHT + 300
    for power in ("Germans", "Russians", "Italians"):
        assert tinted(image, power) > 1000, power
    default = cli.json("map", demo, "-o", tmp_path / "default.png")
    assert 800 <= default["width"] <= 2000
    assert "wrote" in cli("map", demo, "-o", tmp_path / "again.png").output


def test_a_capture_changes_the_colours_and_a_past_turn_is_drawn_from_its_snapshot(cli, demo, tmp_path):
    """Germans take Belarus (turn 1), Russians take Romania from the Italians (turn 2): each picture shows
    the owners of its turn, and --turn 1 drawn after turn 2 shows the map as it was drawn after turn 1."""
    _, start = picture(cli, demo, tmp_path / "start.png", "--width", "1000")
    play(cli, demo, "Germans", SCRIPT["Germans"])
    assert cli.json("status", demo)["territories"]["Belarus"]["owner"] == "Germans"
    after_1, then = picture(cli, demo, tmp_path / "then.png", "--width", "1000")
    play(cli, demo, "Russians", SCRIPT["Russians"])
    assert cli.json("status", demo)["territories"]["Romania"]["owner"] == "Russians"
    past, turn_1 = picture(cli, demo, tmp_path / "turn1.png", "--width", "1000", "--turn", "1")
    _, now = picture(cli, demo, tmp_path / "now.png", "--width", "1000")
    assert past["turn"] == 1 and past["height"] == after_1["height"]
    assert tinted(turn_1, "Germans") > tinted(start, "Germans") and tinted(turn_1, "Russians") < tinted(start, "Russians")
    assert tinted(now, "Italians") < tinted(turn_1, "Italians") and tinted(now, "Russians") > tinted(turn_1, "Russians")
    height = layout(demo, 1, width=1000).size[1]
    difference = ImageChops.difference(map_area(turn_1, height), map_area(then, height))
    assert max(high for _, high in difference.getextrema()) <= 12      # the same map, up to the palette's rounding


def test_battles_crops_to_the_turns_battles_and_says_when_there_were_none(cli, demo, tmp_path):
    for power in ("Germans", "Russians", "Italians"):
        play(cli, demo, power, SCRIPT[power])
    _, whole = picture(cli, demo, tmp_path / "all.png", "--width", "1000")
    result, crop = picture(cli, demo, tmp_path / "battles.png", "--region", "battles", "--turn", "1", "--width", "1000")
    assert result["region"] == "battles"
    assert pixels(crop, rgb(BATTLE)) > 1000         # Belarus and the Baltic States outlined
    assert pixels(whole, rgb(BATTLE)) == 0
    refused = cli("map", demo, "-o", tmp_path / "none.png", "--region", "battles", code=2).output
    assert "no battle or bombing raid was fought in turn 3" in refused
    fought = max(g["turn"] for g in cli.json("rolls", demo) if g["label"].startswith("battle:"))
    assert f"the latest turn with one is turn {fought} (--turn {fought})" in " ".join(refused.split())
    assert not (tmp_path / "none.png").exists()


def test_errors_are_messages_a_host_can_act_on(cli, demo, tmp_path):
    out = tmp_path / "x.png"
    cases = {
        ("--region", "front"): "--region takes all or battles, not 'front'",
        ("--width", "50"): "--width takes 400 to 8000 pixels, not 50",
        ("--turn", "1"): "no picture of turn 1: turn 1 has not been played (the game is at turn 1); no past turn can be drawn",
        ("--region", "battles"): "no turn has been played yet",
    }
    for args, message in cases.items():
        assert message in cli("map", demo, "-o", out, *args, code=2).output, args
    assert "the picture is a PNG" in cli("map", demo, "-o", tmp_path / "x.jpg", code=2).output
    assert "there is no folder" in cli("map", demo, "-o", tmp_path / "missing" / "x.png", code=2).output
    (tmp_path / "shots.png").mkdir()
    assert "that is a folder" in cli("map", demo, "-o", tmp_path / "shots.png", code=2).output
    assert cli.json("map", demo, "-o", out, "--width", "50", code=2) == {"error": "--width takes 400 to 8000 pixels, not 50"}
    assert not out.exists()


def test_a_turn_played_before_snapshots_were_kept_names_the_turns_that_can_be_drawn(cli, demo, tmp_path):
    for power in ("Germans", "Russians", "Italians"):
        play(cli, demo, power, SCRIPT[power])
    with sqlite3.connect(demo) as con:
        con.execute("delete from snapshot where turn_index = 2")
    refused = cli("map", demo, "-o", tmp_path / "x.png", "--turn", "2", code=2).output
    assert "turn 2 was played before this game kept the positions of past turns; the turns that can be drawn are 1, 3" in refused
    cli("map", demo, "-o", tmp_path / "x.png", "--turn", "3")


def test_the_map_command_leaves_pillow_out_of_the_other_commands():
    code = "import sys, adjudicator.cli; sys.exit('PIL' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# -- G40 Alt-Universe: the map's own art, copied at `new` ----------------------------------------

@pytest.fixture(scope="module")
def au(tmp_path_factory, maps_dir) -> dict:
    """An Alt-Universe game made from a copy of the map folder, which is deleted at once; its first picture is
    drawn, then the Germans take F5 (turn 1)."""
    folder = tmp_path_factory.mktemp("au")
    source = (maps_dir / G40AU_208).parents[1]
    copy = folder / "g40_alt_universe" / "map"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("units", "flags", "*.jpg"))
    runner, db, env = CliRunner(), folder / "au.db", {"ADJUDICATOR_KEYS_DIR": str(folder / "keys")}

    def run(*args: object, input: str | None = None) -> str:
        result = runner.invoke(app, [str(a) for a in args], env=env, input=input)
        assert result.exit_code == 0, result.output
        return result.stdout

    created = json.loads(run("new", db, "--game", "g40-alt-universe", "--map", copy / "games" / Path(G40AU_208).name,
                             "--seed", TEST_SEED, "--id", "au", "--json"))
    shutil.rmtree(folder / "g40_alt_universe")
    run("map", db, "-o", folder / "start.png")
    start_plan = layout(db)
    run("submit", db, "--power", "Germans", "-", input=GERMANS_TAKE_F5)
    run("adjudicate", db)
    with sqlite3.connect(db) as con:
        art = {name: data for name, data in con.execute("select name, data from map_art")}
    return {"db": db, "created": created, "art": art, "start": Image.open(folder / "start.png").convert("RGB"),
            "start plan": start_plan}


def owner_in_picture(image: Image.Image, art: dict[str, bytes], place: str, drawn: Plan) -> str:
    """The power whose tint is nearest to the commonest colour inside `place`'s outline in a picture of the
    whole map, outside the callouts and names `drawn` on it (borders cover less of it than the fill)."""
    info, polygons = json.loads(art["map.json"]), json.loads(art["polygons.json"])
    scale = image.width / info["width"]
    mask = Image.new("L", image.size)
    for ring in polygons[place]:
        ImageDraw.Draw(mask).polygon([v * scale + (TITLE_HEIGHT if i % 2 else 0) for i, v in enumerate(ring)], fill=255)
    for x0, y0, x1, y1 in [c.box for c in drawn.callouts] + [n.box for n in drawn.names]:
        ImageDraw.Draw(mask).rectangle([x0 - 1, y0 + TITLE_HEIGHT - 1, x1 + 1, y1 + TITLE_HEIGHT + 1], fill=0)
    box = mask.getbbox()
    inside = Image.new("RGB", image.size, (1, 2, 3)).crop(box)
    inside.paste(image.crop(box), mask=mask.crop(box))
    colour = max((n, c) for n, c in inside.getcolors(inside.width * inside.height) if c != (1, 2, 3))[1]
    tints = {power: tint(rgb(value)) for power, value in info["colours"].items()}
    power = min(tints, key=lambda p: sum((a - b) ** 2 for a, b in zip(tints[p], colour)))
    assert sum((a - b) ** 2 for a, b in zip(tints[power], colour)) < 15 ** 2, (place, colour)
    return power


def test_new_copies_the_map_art_into_the_game_database(au):
    assert au["created"]["map_art"] == ["base.png", "centers.json", "map.json", "polygons.json"]
    art = au["art"]
    info = json.loads(art["map.json"])
    assert (info["width"], info["height"]) == (7680, 3398)
    assert info["colours"]["Germans"] == "#2f2f2f" and info["colours"]["Russians"] == "#ae1b01"
    with Image.open(io.BytesIO(art["base.png"])) as base:
        assert base.size == (3840, 1699)
    assert sum(map(len, art.values())) < 1_000_000
    assert json.loads(art["centers.json"])["G5"] and len(json.loads(art["polygons.json"])) > 360


def test_the_map_is_drawn_on_its_art_after_the_map_folder_is_gone(cli, au, tmp_path):
    result, image = picture(cli, au["db"], tmp_path / "au.png")
    assert (result["source"], result["width"]) == ("map art", 2000)
    assert image.height > TITLE_HEIGHT + round(3398 * 2000 / 7680)
    start, now = au["start"], layout(au["db"])
    assert [owner_in_picture(start, au["art"], p, au["start plan"]) for p in ("G5", "R4", "UK4", "F5", "J1")] == \
        ["Germans", "Russians", "British", "French", "Japanese"]
    assert owner_in_picture(image, au["art"], "F5", now) == "Germans"
    _, turn_1 = picture(cli, au["db"], tmp_path / "t1.png", "--turn", "1")
    assert owner_in_picture(turn_1, au["art"], "F5", now) == "Germans"
    assert owner_in_picture(turn_1, au["art"], "F13", now) == "French"


def test_the_battles_of_the_alt_universe_turn_are_cropped_on_the_art(cli, au, tmp_path):
    """F5 is outlined, and the Americans' land across the ocean is out of the picture."""
    result, crop = picture(cli, au["db"], tmp_path / "battles.png", "--region", "battles", "--width", "1200")
    assert (result["width"], result["source"], result["region"]) == (1200, "map art", "battles")
    assert pixels(crop, rgb(BATTLE)) > 300
    american = tint(rgb(json.loads(au["art"]["map.json"])["colours"]["Americans"]))
    assert pixels(au["start"], american) > 10_000 and pixels(crop, american) == 0
    drawn = layout(au["db"], region="battles", width=1200)
    assert {"Germany", "France"} <= set(drawn.legend) and "United States" not in drawn.legend, drawn.legend
    assert drawn.caption.startswith("Round 1 · Soviet Union · purchase · turn 2"), drawn.caption    # as players name them
    assert layout(au["db"], turn=1).caption == "Round 1 · Germany · the position after turn 1"


def test_a_stack_is_broken_down_by_power_and_type_under_its_territorys_name(cli, au):
    """Germany (G5) holds a large army: its callout names it, lists the units by type in rows no wider than the
    callout, at the size of the rest of the text, and marks its factory, victory city and city."""
    drawn = layout(au["db"])
    g5 = drawn.callout("G5")
    units = cli.json("status", au["db"])["territories"]["G5"]["units"]["Germans"]
    listed = " ".join(text for power, text in g5.rows if power == "Germans").split()
    counts = dict(zip(listed[1::2], map(int, listed[0::2])))
    assert counts == {"inf": units["infantry"], "art": units["artillery"], "mech": units["mech_infantry"],
                      "ftr": units["fighter"], "tac": units["tactical_bomber"], "bmb": units["bomber"],
                      "aa": units["aaGun"]}
    assert len(g5.rows) >= 2 and g5.name == "G5" and drawn.text >= 13
    assert g5.marks == ["factory", "victory city", "city"]
    assert g5.box[2] - g5.box[0] >= max(font(drawn.text).getlength(text) for _, text in g5.rows)


def test_a_bombed_factory_shows_its_damage_and_a_raid_is_outlined_unlike_a_battle(cli, au, tmp_path):
    """The Germans fought in F5 and bombed the factory in F3 in turn 1: the battles crop outlines F5 as a battle
    and F3 as a raid, in their own colours, and F3's callout shows the factory's damage."""
    damage = cli.json("status", au["db"])["territories"]["F3"]["damage"]
    assert [d["unit"] for d in damage] == ["factory_minor"] and damage[0]["damage"] > 0
    crop = layout(au["db"], region="battles")
    assert crop.outlines == {"F5": "battle", "F3": "raid"}
    f3 = crop.callout("F3")
    assert "factory" in f3.marks and f3.damage == [f"{damage[0]['damage']} dmg"]
    assert "factory" in crop.callout("F5").marks and crop.callout("F5").damage == []
    assert all(0 <= c.anchor[0] <= crop.size[0] and 0 <= c.anchor[1] <= crop.size[1] for c in crop.callouts)
    _, image = picture(cli, au["db"], tmp_path / "battles.png", "--region", "battles")
    assert pixels(image, rgb(BATTLE)) > 300 and pixels(image, rgb(RAID)) > 300
    assert layout(au["db"], turn=1).callout("F3").damage == f3.damage     # nothing played since turn 1


def test_a_past_turn_shows_the_damage_it_left_and_a_turn_kept_before_damage_was_says_so(cli, au, tmp_path):
    """Once the Russians have played (and repaired nothing), turn 1's picture shows F3's factory damage as its
    snapshot kept it, as the position now does. A turn whose report was written before snapshots kept the damage
    (templates older than version 3) marks the factory without a figure, and the legend says why."""
    db = tmp_path / "later.db"
    shutil.copy(au["db"], db)
    shutil.copytree(au["db"].parent / "keys", tmp_path / "keys")          # the game's dice chain
    cli("submit", db, "--power", "Russians", "-", input="end\n")
    cli("adjudicate", db)
    past, now = layout(db, turn=1), layout(db)
    assert past.damage_known and past.callout("F3").damage == layout(au["db"]).callout("F3").damage != []
    assert now.damage_known and now.callout("F3").damage == past.callout("F3").damage
    with sqlite3.connect(db) as con:
        con.execute("update report set template_version = 2 where turn_index = 1")
    older = layout(db, turn=1)
    assert not older.damage_known and older.callout("F3").damage == [] and "factory" in older.callout("F3").marks
    assert layout(db).callout("F3").damage == now.callout("F3").damage


def test_every_territory_with_units_is_named_and_tied_to_its_callout(cli, au):
    """On the whole Alt-Universe map at the default width, even small territories (the Pripet-sized
    provinces of Europe, islands, straits) keep a name: each territory where units stand has a callout, whose
    anchor lies inside the territory's own outline and which no other callout covers; a callout moved off its
    territory has a leader line from the anchor to its frame."""
    drawn = layout(au["db"])
    info, polygons = json.loads(au["art"]["map.json"]), json.loads(au["art"]["polygons.json"])
    scale = drawn.size[0] / info["width"]
    with transaction(choose(open_existing(str(au["db"])), str(au["db"]), None)) as s:
        markers = {u.name for u in setup_of(s, the_game(s)).scenario.unit_types if u.has("marker")}
    standing = {place for place, t in cli.json("status", au["db"])["territories"].items()
                if set().union(*(t.get("units") or {}).values()) - markers}
    placed = {c.place: c for c in drawn.callouts}
    assert standing <= set(placed) and {"R26", "PX3", "PA11", "C10"} <= set(placed)
    for c in drawn.callouts:
        rings = [[v * scale for v in ring] for ring in polygons[c.place]]
        assert inside(rings, *c.anchor), c.place
        x0, y0, x1, y1 = c.box
        assert 0 <= x0 < x1 <= drawn.size[0] and 0 <= y0 < y1 <= drawn.size[1], c.place
        if c.leader:
            (ax, ay), (bx, by) = c.leader
            assert (ax, ay) == c.anchor and x0 <= bx <= x1 and y0 <= by <= y1 and (bx in (x0, x1) or by in (y0, y1))
        else:
            assert x0 <= c.anchor[0] <= x1 and y0 <= c.anchor[1] <= y1
    for i, a in enumerate(drawn.callouts):
        assert not any(overlap(a.box, b.box) for b in drawn.callouts[i + 1:]), a.place
        assert not any(overlap(a.box, n.box) for n in drawn.names), a.place
    assert any(c.leader for c in drawn.callouts) and any(not c.leader for c in drawn.callouts)


def test_a_battles_crop_is_legible_on_a_phone_and_pictures_fit_a_mail(cli, au, tmp_path):
    """A phone shows a picture about 400 points wide: the default battles crop's text is at least 9 points
    there. Both the whole map and the crop stay under the 300 KB a mailed report may attach."""
    result, _ = picture(cli, au["db"], tmp_path / "battles.png", "--region", "battles")
    crop = layout(au["db"], region="battles")
    assert crop.text * 400 / result["width"] >= 9
    picture(cli, au["db"], tmp_path / "all.png")
    assert (tmp_path / "battles.png").stat().st_size < 300_000 and (tmp_path / "all.png").stat().st_size < 300_000


# -- reading a map folder's art ------------------------------------------------------------------

def fake_map(folder: Path, **damage: str) -> Path:
    """A small map folder of our own: two 256-px tiles, two territories; `damage` replaces a file's text."""
    (folder / "games").mkdir(parents=True)
    (folder / "baseTiles").mkdir()
    for x in (0, 1):
        Image.new("RGBA", (256, 256), "white").save(folder / "baseTiles" / f"{x}_0.png")
    files = {"map.properties": "map.width=512\nmap.height=256\ncolor.Reds=cc0000\n",
             "polygons.txt": "West  <  (0,0) (255,0) (255,255) (0,255)  >\nEast  <  (256,0) (511,0) (511,255) (256,255)  >\n",
             "centers.txt": "West  (128,128)\nEast  (384,128)\n", **damage}
    for name, text in files.items():
        (folder / name).write_text(text)
    xml = folder / "games" / "fake.xml"
    xml.write_text("<game/>")
    return xml


def test_the_art_of_a_map_folder_and_none_when_it_is_missing_or_damaged(tmp_path):
    art = read_art(fake_map(tmp_path / "good" / "map"))
    assert sorted(art) == ["base.png", "centers.json", "map.json", "polygons.json"]
    assert json.loads(art["map.json"]) == {"width": 512, "height": 256, "colours": {"Reds": "#cc0000"}}
    assert json.loads(art["polygons.json"])["West"] == [[0, 0, 255, 0, 255, 255, 0, 255]]
    loose = tmp_path / "loose.xml"
    loose.write_text("<game/>")
    assert read_art(loose) == {}
    no_centres = fake_map(tmp_path / "no_centres" / "map")
    (no_centres.parents[1] / "centers.txt").unlink()
    assert read_art(no_centres) == {}
    broken_tile = fake_map(tmp_path / "broken" / "map")
    (broken_tile.parents[1] / "baseTiles" / "1_0.png").write_bytes(b"not a png")
    assert read_art(broken_tile) == {}
    assert read_art(fake_map(tmp_path / "huge" / "map", **{"map.properties": "map.width=900000\nmap.height=9\n"})) == {}
