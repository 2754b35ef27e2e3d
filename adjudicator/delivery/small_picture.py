"""The map picture made small enough to mail and upload.

A mail server or a mailbox may refuse a large attachment, and a player on a phone pays for it, so a picture goes
out at most MOST bytes: one larger has its colours cut (the map's flat colours lose little), then its size, until
it fits. One that would be too small to read is not sent at all, never sent too large.
"""

from __future__ import annotations

import io

from PIL import Image

MOST = 300_000              # bytes of a picture that is mailed or uploaded
COLOURS = (128, 64, 32)     # palettes tried before the picture is made smaller
SMALLEST = 400              # pixels across below which a map cannot be read


def fit(png: bytes, most: int = MOST) -> bytes | None:
    """The picture itself if it is at most `most` bytes; else fewer colours, then smaller, until it is; None when
    it is not at SMALLEST pixels across."""
    if len(png) <= most:
        return png
    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGB")
    for colours in COLOURS:
        smaller = _png(image, colours)
        if len(smaller) <= most:
            return smaller
    while image.width * 4 // 5 >= SMALLEST:
        image = image.resize((image.width * 4 // 5, max(1, image.height * 4 // 5)), Image.Resampling.LANCZOS)
        smaller = _png(image, COLOURS[-1])
        if len(smaller) <= most:
            return smaller
    return None


def _png(image: Image.Image, colours: int) -> bytes:
    buffer = io.BytesIO()
    image.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(buffer, "PNG",
                                                                                               optimize=True)
    return buffer.getvalue()
