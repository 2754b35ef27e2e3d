"""The link from a posted or mailed report to its turn's page (ADJUDICATOR_SITE_URL, where the host put the site).

The line goes after the report's dice block, where `verify` reads nothing but group lines: the post still checks."""

from __future__ import annotations

import os
from urllib.parse import quote, urlsplit

from ..errors import DeliveryError

URL_VAR = "ADJUDICATOR_SITE_URL"


def turn_url(turn: int) -> str | None:
    """The turn's page on the game's site, or None when no site is set; a setting that is no web address is refused
    before anything is sent, rather than posting a link nobody can follow."""
    base = os.environ.get(URL_VAR, "").strip()
    if not base:
        return None
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in base):
        raise DeliveryError(f"{URL_VAR} must be the web address of the game's site (https://…/the-folder/), not "
                            f"{base[:80]!r}; nothing was sent")
    return f"{base.rstrip('/')}/turns/{quote(str(turn))}.html"


def with_site_link(text: str, turn: int) -> str:
    """The report with its turn page's address as its last line, when a site is set."""
    url = turn_url(turn)
    return text if url is None else f"{text.rstrip()}\n\nThis turn on the game's site, with its dice checked in your browser: {url}\n"
