"""Secrets blotted out of anything printed: a forum or mail server's answer may echo what it was sent (the
Authorization header, the login), and an address may carry a password in its userinfo (https://user:pass@host).

A server echoes a secret in the forms it handles it in: as sent, inside JSON or HTML, percent-encoded, or base64
(HTTP Basic authentication, which a URL's userinfo turns into); each form is blotted out.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterable
from urllib.parse import quote, quote_plus, unquote, urlsplit

MASK = "***"
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s@\"'<>]+@")
_LOWER_HEX = re.compile(r"%[0-9A-F]{2}")
_MIN_PART = 8       # shorter base64 fragments of a secret inside a longer encoding match too much else


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """`text` without the userinfo of any URL in it and without any form of any of `secrets`."""
    text = _USERINFO.sub(rf"\g<1>{MASK}@", text)
    forms = {form for secret in secrets if secret for form in _forms(secret)}
    if not forms:
        return text
    pattern = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.sub(pattern, MASK, text)


def bare_url(url: str) -> str:
    """The URL without its userinfo, for a link others see (the map picture's in a post)."""
    return _USERINFO.sub(r"\g<1>", url)


def url_secrets(url: str) -> list[str]:
    """The secrets a URL's userinfo holds (a user alone may be a token), as written and as sent."""
    try:
        userinfo = urlsplit(url.strip()).netloc.rpartition("@")[0]
    except ValueError:
        return []
    password = userinfo.partition(":")[2]
    return [s for s in (userinfo, unquote(userinfo), password, unquote(password)) if s]


def _forms(secret: str) -> set[str]:
    raw = secret.encode()
    encoded = {quote(secret, safe=""), quote_plus(secret)}
    forms = {secret, html.escape(secret), json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1],
             *encoded, *(_LOWER_HEX.sub(lambda m: m[0].lower(), form) for form in encoded),
             base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()}
    for offset in range(3):          # the secret at each alignment inside a longer base64 text ("user:password")
        whole = base64.b64encode(bytes(offset) + raw).decode()
        part = whole[-(-8 * offset // 6):8 * (offset + len(raw)) // 6]      # the characters the secret alone makes
        if len(part) >= _MIN_PART:
            forms |= {part, part.translate(str.maketrans("+/", "-_"))}
    return forms
