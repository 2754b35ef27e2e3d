"""Secrets blotted out of anything printed: a forum or mail server's answer may echo what it was sent (the
Authorization header, the login), and an address may carry a password in its userinfo (https://user:pass@host),
or in a query parameter (a database URL's ?password= or ?sslpassword=). This is the one helper for all of them:
settings, database URLs in messages, topic addresses.

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
# The userinfo runs to the LAST '@' before the host: a password may hold an unencoded '@' (bob:pa@ss@host).
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s\"'<>]+@")
# A query parameter whose name says it holds a secret: password, sslpassword, sslkey, token, api_key, secret…
_SECRET_NAME = r"[^=&;#\s\"'<>]*(?:pass|pwd|secret|token|key)[^=&;#\s\"'<>]*"
_SECRET_PARAM = re.compile(rf"(?i)([?&;]{_SECRET_NAME}=)[^&;#\s\"'<>]*")
_LOWER_HEX = re.compile(r"%[0-9A-F]{2}")
_MIN_PART = 8       # shorter base64 fragments of a secret inside a longer encoding match too much else


def redact(text: str, secrets: Iterable[str | None], keep_user: bool = False) -> str:
    """`text` without the userinfo of any URL in it, the values of its secret query parameters, and any form of
    any of `secrets`. With `keep_user` (a database URL, whose user is a name, not a forum's token) the user name
    stays: `postgresql://postgres:***@host/league`."""
    def userinfo(m: re.Match) -> str:
        user, colon, _ = m[0][len(m[1]):-1].partition(":")
        return m[1] + (f"{user}{colon and ':' + MASK}@" if keep_user else f"{MASK}@")

    text = _SECRET_PARAM.sub(rf"\g<1>{MASK}", _USERINFO.sub(userinfo, text))
    forms = {form for secret in secrets if secret for form in _forms(secret)}
    if not forms:
        return text
    pattern = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.sub(pattern, MASK, text)


def bare_url(url: str) -> str:
    """The URL without its userinfo, for a link others see (the map picture's in a post)."""
    return _USERINFO.sub(r"\g<1>", url)


def url_secrets(url: str, user: bool = True) -> list[str]:
    """The secrets a URL holds, as written and as sent: its userinfo's password, the user too unless `user` is
    False (a forum's user alone may be a token; a database's is a name, whose masking would blot out every word it
    is part of), and the values of its secret query parameters."""
    try:
        userinfo = urlsplit(url.strip()).netloc.rpartition("@")[0]
    except ValueError:
        userinfo = ""
    password = userinfo.partition(":")[2]
    params = [m[0].partition("=")[2] for m in _SECRET_PARAM.finditer(url)]
    pieces = password.split("@") if "@" in password else []     # a parser that stops at the first '@' shows the rest
    found = [*((userinfo, unquote(userinfo)) if user else ()), password, unquote(password), *pieces,
             *params, *(unquote(p) for p in params)]
    return [s for s in found if s]


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
