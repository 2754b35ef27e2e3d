"""A NodeBB 4 write-API client: posts a turn report as a reply in the game's topic, and uploads its map pictures.

What it relies on, from NodeBB's source (tests/nodebb_standin.py imitates each point and names the file):
- a reply is POST /api/v3/topics/{tid} with a bearer token; answers are {"status": {"code", "message"}, "response"};
- error messages come translated into the forum's language unless the request asks ?lang=..., so every call asks for
  en-GB and the messages below can be recognised;
- a bearer token NodeBB does not know is not refused: the request goes on as a guest's (403 "no privileges");
- a topic's page (GET /api/topic/{tid}?page=N&sort=newest_to_oldest, the bearer token counting as on every page
  route) holds its posts rendered, with their authors' uids, and the pagination's pageCount;
- uploads (POST /api/post/upload) know only login sessions with their CSRF token, and a session cookie makes NodeBB
  demand that token on every POST, so the upload session lives in a client of its own, apart from the bearer calls.
"""

from __future__ import annotations

import html
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from importlib import metadata
from typing import Any
from urllib.parse import quote, urljoin

import httpx

from adjudicator.errors import ConfigError, DeliveryError
from adjudicator.inputs import whole_number
from adjudicator.redact import bare_url, redact, url_secrets

URL_VAR, TOKEN_VAR = "ADJUDICATOR_NODEBB_URL", "ADJUDICATOR_NODEBB_TOKEN"
USER_VAR, PASSWORD_VAR = "ADJUDICATOR_NODEBB_USER", "ADJUDICATOR_NODEBB_PASSWORD"
AGAIN = "The turn stays adjudicated: run `adjudicator post` again to post it."

DEFAULT_MAX_POST_LENGTH = 32767      # install/data/defaults.json
ATTEMPTS = 5                         # tries of one call against 429, 5xx and network failures
BACKOFF = 1.0                        # seconds before the second try, doubling after each failure: 1, 2, 4, 8
MAX_RETRY_AFTER = 120.0              # a longer Retry-After is the forum saying "not now"
RETRY = frozenset({429, 500, 502, 503, 504})
# The upload route answers its own refusals (file too big, wrong type) as HTTP 500: those are final.
UPLOAD_RETRY = RETRY - {500}
# A proxy's 502 or 504 may come after NodeBB stored the post: look before posting it again.
MAYBE_POSTED = frozenset({502, 504})
POST_DELAY_WAITS = 3                 # how often one reply waits out the forum's postDelay
POST_DELAY_MARGIN = 1.0

# public/language/en-GB/error.json: too-many-posts, too-many-posts-newbie(-minutes), user-too-new
_POST_DELAY = re.compile(r"(?:once every|wait) (\d+) (second|minute)")
_TOO_LONG = re.compile(r"longer than (\d+) character")      # content-too-long
_NO_TOPIC = ("Topic does not exist", "no topic")            # no-topic, translated or as the bare key
_KEY = re.compile(r"\[\[\w+:([\w-]+)[^\]]*\]\]")              # an untranslated "[[error:invalid-login-credentials]]"


class PostQueued(DeliveryError):
    """NodeBB accepted the reply into its post queue: nothing is in the topic until a moderator approves it."""


class PostDelayed(DeliveryError):
    """NodeBB refused the reply for coming too soon after the account's last post (its postDelay), and the waits
    allowed were spent: nothing was posted."""


@dataclass
class _Failure:
    """A try that may succeed when repeated: a network failure, HTTP 429 or 5xx, or "already posting"."""

    problem: str
    wait: float | None = None        # the forum's Retry-After, if it said one
    maybe_done: bool = False         # the forum may have acted on the request before the answer was lost
    unreachable: bool = False        # no connection at all: the address is the likely culprit


def _version() -> str:
    try:
        return metadata.version("adjudicator")
    except metadata.PackageNotFoundError:
        return "dev"


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _message(response: httpx.Response, secrets: list[str]) -> str:
    """The forum's own words: status.message of NodeBB's answer, else the start of the body; any of `secrets` the
    forum echoed (the Authorization header, the login) blotted out before the body is cut, so no part stays."""
    body = _json(response)
    if isinstance(body, dict) and isinstance(body.get("status"), dict) and body["status"].get("message"):
        text = redact(str(body["status"]["message"]), secrets)
    else:
        words = redact(re.sub(r"<[^>]*>", " ", response.text), secrets)
        text = " ".join(words.split())[:200] or response.reason_phrase
    return _KEY.sub(lambda m: m[1].replace("-", " "), text)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "").strip()
    if (seconds := whole_number(value, 19)) is not None:
        return float(seconds)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _post_delay(response: httpx.Response) -> float | None:
    """Seconds to wait when NodeBB refused a post for coming too soon after the account's last one."""
    if response.status_code != 400:
        return None
    found = _POST_DELAY.search(_message(response, []))
    return int(found[1]) * (60 if found[2] == "minute" else 1) if found else None


class NodeBB:
    """One forum, one account. Every failure is a DeliveryError whose message says what to fix."""

    def __init__(self, url: str, token: str, user: str | None = None, password: str | None = None, *,
                 sleep: Callable[[float], Any] = time.sleep, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None):
        self.url = url.strip().rstrip("/")
        try:
            parsed = httpx.URL(self.url)
        except httpx.InvalidURL:
            parsed = None
        if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
            raise ConfigError(redact(f"{URL_VAR} must be the forum's address, like "
                                     f"https://www.axisandallies.org/forums (it is {url!r})", url_secrets(url)))
        self._user, self._password = user, password
        self._secrets = [token, password or "", *url_secrets(self.url)]
        self._sleep, self._timeout, self._transport = sleep, timeout, transport
        self._http = self._client({"Authorization": f"Bearer {token}"})
        self._session: httpx.Client | None = None     # logged in, for uploads only
        self._csrf: str | None = None
        self._config: dict | None = None

    def _client(self, headers: dict[str, str]) -> httpx.Client:
        headers = {"User-Agent": f"adjudicator/{_version()}", "Accept": "application/json", **headers}
        return httpx.Client(headers=headers, params={"lang": "en-GB"}, timeout=self._timeout,
                            transport=self._transport)

    def __enter__(self) -> NodeBB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()
        if self._session is not None:
            self._session.close()

    # -- the calls ---------------------------------------------------------------------------------------------

    def max_post_length(self) -> int:
        """The forum's maximumPostLength, in UTF-16 code units of the post with HTML tags stripped and trimmed."""
        try:
            return int(self._forum_config().get("maximumPostLength") or DEFAULT_MAX_POST_LENGTH)
        except (TypeError, ValueError):
            return DEFAULT_MAX_POST_LENGTH

    def reply(self, tid: int, content: str, mark: str | None = None) -> int:
        """Posts `content` as a reply in topic `tid` and returns the new post's pid. `mark`, the content's last line
        (by default that line as it stands), finds the reply in the topic when a try's answer was lost. The forum's
        post delay is waited out POST_DELAY_WAITS times, then PostDelayed (`watch` posts in a later round)."""
        mark = mark or _last_line(content)
        failures = waits = 0
        while True:
            result = self._try(self._http, "POST", f"/api/v3/topics/{tid}", RETRY, json={"content": content})
            if isinstance(result, _Failure):
                failures += 1
                self._pause(failures, result)
                if result.maybe_done and (pid := self.find(tid, [mark]).get(mark)):
                    return pid
                continue
            delay = _post_delay(result)
            if delay is not None and waits < POST_DELAY_WAITS:
                waits += 1
                self._sleep(delay + POST_DELAY_MARGIN)
                continue
            if delay is not None:
                raise PostDelayed(redact(f"the forum refused the reply to topic {tid} for now (HTTP 400: "
                                         f"{_message(result, self._secrets)})", self._secrets))
            return self._pid(result, tid)

    def find(self, tid: int, marks: Iterable[str]) -> dict[str, int]:
        """The pid of this account's post in topic `tid` that ends in each mark, for the marks found: replies stored
        by a try whose answer was lost, or by a run killed before it recorded them. A mark is matched by its words
        alone, so that the forum's rendering, or a plugin that reflows the Markdown, does not hide it, and only as
        the post's last line: the same words anywhere else in a post (a salt or an order the report quotes, which
        a player chose) are not the mark, or a part never posted would pass for posted. The topic is
        read newest first, page by page (a post added meanwhile moves the others to later pages, so none is
        missed). A topic that cannot be read is a DeliveryError: nothing is posted on a guess."""
        wanted = {mark: _words(mark) for mark in marks}
        found: dict[str, int] = {}
        me = self.own_uid()
        page = pages = 1
        while page <= pages and len(found) < len(wanted):
            response = self._send(self._http, "GET", f"/api/topic/{tid}",
                                  params={"page": page, "sort": "newest_to_oldest"})
            body = _json(response)
            if response.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("posts"), list):
                raise self._failure(f"cannot read topic {tid} (GET /api/topic/{tid}: HTTP {response.status_code}) "
                                    f"to see whether a report part sent before is there already, so nothing was "
                                    f"posted. {AGAIN}")
            for post in body["posts"]:
                if not isinstance(post, dict) or (me and post.get("uid") != me):
                    continue
                last, pid = _last_line(str(post.get("content", ""))), whole_number(str(post.get("pid", "")), 19)
                for mark, key in wanted.items():
                    if mark not in found and key == last and pid is not None:
                        found[mark] = pid
            pagination = body.get("pagination")
            count = pagination.get("pageCount") if isinstance(pagination, dict) else None
            pages = count if isinstance(count, int) else 1
            page += 1
        return found

    def new_posts(self, tid: int, after: int) -> tuple[list[dict], int]:
        """The posts of topic `tid` on its newest page, and on every page further back while the page read holds
        only posts after the pid `after` (so a watch that read the topic before reads one page when nothing is
        new), newest first, without this account's own; and the newest pid read. The newest page is read whole
        each time: a post edited there is seen again. A topic gone or unreadable is a DeliveryError."""
        me, posts, newest = self.own_uid(), [], after
        page = pages = 1
        while page <= pages:
            response = self._send(self._http, "GET", f"/api/topic/{tid}",
                                  params={"page": page, "sort": "newest_to_oldest"})
            body = _json(response)
            if response.status_code == 404:
                raise self._failure(f"topic {tid} does not exist on {self.url} (GET /api/topic/{tid}: HTTP 404): "
                                    f"it was deleted or moved; give the game's topic again with "
                                    f"`adjudicator post DB --topic TID`")
            if response.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("posts"), list):
                raise self._failure(f"cannot read topic {tid} (GET /api/topic/{tid}: HTTP {response.status_code}): "
                                    f"its new posts are read in a later round")
            pids = []
            for post in body["posts"]:
                pid = whole_number(str(post.get("pid", "")), 19) if isinstance(post, dict) else None
                if pid is None:
                    continue
                pids.append(pid)
                if not me or post.get("uid") != me:
                    posts.append(post)
            newest = max([newest, *pids])
            if not pids or min(pids) <= after:
                break
            pagination = body.get("pagination")
            count = pagination.get("pageCount") if isinstance(pagination, dict) else None
            pages = count if isinstance(count, int) else 1
            page += 1
        return posts, newest

    def user_id(self, username: str) -> int | None:
        """The uid of the account named `username` (its login name, not its display name), None when the forum has
        none: GET /api/user/username/{username} (src/routes/api.js, controllers/api.js getUserByUsername)."""
        path = "/api/user/username/" + quote(username, safe="")
        response = self._send(self._http, "GET", path)
        body = _json(response)
        if response.status_code == 404:
            return None
        uid = whole_number(str(body.get("uid", "")), 19) if isinstance(body, dict) else None
        if response.status_code != 200 or uid is None:
            raise self._failure(f"the forum at {self.url} did not say which account {username!r} is (GET {path}: "
                                f"HTTP {response.status_code}): check {URL_VAR}, then give the contact again")
        return uid

    def upload(self, filename: str, data: bytes, mime: str = "image/png") -> str | None:
        """Uploads a picture and returns its absolute URL; None when no user and password are set to log in with."""
        if not (self._user and self._password):
            return None
        session, csrf = self._login()
        response = self._send(session, "POST", "/api/post/upload", UPLOAD_RETRY,
                              headers={"x-csrf-token": csrf}, files={"files[]": (filename, data, mime)})
        if response.status_code != 200:
            raise self._failure(f"the forum refused the picture {filename} (HTTP {response.status_code}: "
                                f"{_message(response, self._secrets)}); the account in {USER_VAR} may lack the "
                                f"privilege to upload images. {AGAIN}")
        body = _json(response)
        images = body.get("response", {}).get("images") if isinstance(body, dict) else body   # a bare list < 1.16
        try:
            return urljoin(bare_url(self.url) + "/", str(images[0]["url"]))      # a link in a public post
        except (TypeError, LookupError):
            raise self._failure(f"the forum stored the picture {filename} but did not say where "
                                f"({_message(response, self._secrets)}). {AGAIN}") from None

    # -- plumbing ----------------------------------------------------------------------------------------------

    def _try(self, client: httpx.Client, method: str, path: str, retry: frozenset[int],
             **kwargs: Any) -> httpx.Response | _Failure:
        """One request: the answer, or the failure that makes it worth trying again."""
        try:
            response = client.request(method, self.url + path, **kwargs)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            return _Failure(f"cannot connect: {exc or type(exc).__name__}", unreachable=True)
        except httpx.TimeoutException:
            return _Failure(f"no answer within {self._timeout:g} s", maybe_done=True)
        except httpx.TransportError as exc:
            return _Failure(f"the connection failed: {exc or type(exc).__name__}", maybe_done=True)
        if response.status_code in retry:
            return _Failure(f"HTTP {response.status_code} {response.reason_phrase}", _retry_after(response),
                            maybe_done=response.status_code in MAYBE_POSTED)
        if response.status_code == 400 and "already posting" in _message(response, []).lower():   # already-posting
            return _Failure("another post of this account was still in progress", maybe_done=True)
        return response

    def _pause(self, failures: int, failure: _Failure) -> None:
        """Waits before the next try (Retry-After, else exponential back-off), or gives up."""
        if failures >= ATTEMPTS:
            if failure.unreachable:
                raise self._failure(f"cannot reach the forum at {self.url} ({failure.problem}; {ATTEMPTS} tries): "
                                    f"check {URL_VAR} and the network. {AGAIN}")
            raise self._failure(f"the forum at {self.url} failed {ATTEMPTS} times ({failure.problem}); "
                                f"it may be down or overloaded. {AGAIN}")
        wait = failure.wait if failure.wait is not None else BACKOFF * 2 ** (failures - 1)
        if wait > MAX_RETRY_AFTER:
            raise self._failure(f"the forum at {self.url} is busy ({failure.problem}) and asks to wait "
                                f"{wait:.0f} s. {AGAIN}")
        self._sleep(wait)

    def _send(self, client: httpx.Client, method: str, path: str, retry: frozenset[int] = RETRY,
              **kwargs: Any) -> httpx.Response:
        failures = 0
        while isinstance(result := self._try(client, method, path, retry, **kwargs), _Failure):
            failures += 1
            self._pause(failures, result)
        return result

    def _read_config(self, client: httpx.Client) -> dict:
        response = self._send(client, "GET", "/api/config")
        config = _json(response)
        if response.status_code != 200 or not isinstance(config, dict):
            raise self._failure(f"{self.url} does not answer as a NodeBB forum (GET /api/config: HTTP "
                                f"{response.status_code}): check {URL_VAR}, the forum's address with its path, like "
                                f"https://www.axisandallies.org/forums. {AGAIN}")
        return config

    def _pid(self, response: httpx.Response, tid: int) -> int:
        """The new post's pid from NodeBB's answer to a reply, or the error the answer amounts to."""
        code, said = response.status_code, _message(response, self._secrets)
        body = _json(response)
        payload = body.get("response") if isinstance(body, dict) else None
        if code < 300 and isinstance(payload, dict) and payload.get("queued"):
            raise PostQueued(f"the forum put the reply to topic {tid} in its post queue: the account of "
                             f"{TOKEN_VAR} has its posts wait for a moderator, so the turn is not posted yet. Ask a "
                             f"moderator to approve the queued post, and to exempt the account from the post queue "
                             f"(an exempt group, or enough reputation and posts). Do not post it again meanwhile: "
                             f"the queued copy appears once approved.")
        if code < 300 and isinstance(payload, dict) and whole_number(str(payload.get("pid", "")), 19) is not None:
            return int(payload["pid"])
        if code < 300:
            raise self._failure(f"{self.url} answered the reply to topic {tid} without a post id ({said}): check "
                                f"{URL_VAR}, and the topic, before posting again.")
        if code == 401:
            raise self._failure(f"the forum refused the token (HTTP 401: {said}): {TOKEN_VAR} is wrong, revoked or "
                                f"expired. {AGAIN}")
        if code == 403:
            raise self._failure(self._forbidden(tid, said, isinstance(body, dict) and "status" in body))
        if code == 404 and said in _NO_TOPIC:
            raise self._failure(f"topic {tid} does not exist on {self.url}: check the topic id (--topic). {AGAIN}")
        if code == 404:
            raise self._failure(f"{self.url} does not answer as a NodeBB 4 forum (HTTP 404 for "
                                f"/api/v3/topics/{tid}: {said}): check {URL_VAR}, the forum's address with its "
                                f"path, like https://www.axisandallies.org/forums. {AGAIN}")
        if found := _TOO_LONG.search(said):
            raise self._failure(f"the report part is longer than the forum's limit of {found[1]} characters "
                                f"({said}). {AGAIN}")
        raise self._failure(f"the forum refused the reply to topic {tid} (HTTP {code}: {said}). {AGAIN}")

    def _failure(self, text: str) -> DeliveryError:
        """Every message names the forum and may quote it: the token, the password and the address's userinfo are
        blotted out, as the mail path does (adjudicator/redact.py)."""
        return DeliveryError(redact(text, self._secrets))

    def _forbidden(self, tid: int, said: str, from_nodebb: bool) -> str:
        """A 403 either way: NodeBB runs a request with a token it does not know as a guest's (uid 0 in /api/config)."""
        try:
            if self._config is None:
                self._config = self._read_config(self._http)
            uid = self._config.get("uid")
        except DeliveryError:
            uid = None
        if uid == 0:
            return (f"the forum does not know the token in {TOKEN_VAR} (wrong, revoked or expired) and took the "
                    f"reply for a guest's, and guests lack the privilege to reply in topic {tid} ({said}). {AGAIN}")
        account = f"uid {uid}" if uid else "its user"
        proxy = "" if from_nodebb else ", unless a firewall or bot protection in front of the forum said so"
        return (f"the account of {TOKEN_VAR} ({account}) lacks the privilege to reply in topic {tid} "
                f"({said}{proxy}): grant it in the topic's category, or use a token of an account that may "
                f"reply. {AGAIN}")

    def own_uid(self) -> int | None:
        """The uid of the token's account (/api/config), whose posts alone `find` reads: a player quoting a
        report part is not the part."""
        uid = self._forum_config().get("uid")
        return uid if isinstance(uid, int) and uid > 0 else None

    def _forum_config(self) -> dict:
        """/api/config as the token's account sees it, read once."""
        if self._config is None:
            self._config = self._read_config(self._http)
        return self._config

    def _login(self) -> tuple[httpx.Client, str]:
        """Logs in once; the session and its CSRF token, which the upload route wants instead of the bearer token."""
        if self._session is not None and self._csrf:
            return self._session, self._csrf
        self._session = self._session or self._client({})
        response = self._send(self._session, "POST", "/api/v3/utilities/login",
                              json={"username": self._user, "password": self._password})
        if response.status_code != 200:
            raise self._failure(f"the forum refused to log in (HTTP {response.status_code}: "
                                f"{_message(response, self._secrets)}): check {USER_VAR} and {PASSWORD_VAR}. {AGAIN}")
        token = self._read_config(self._session).get("csrf_token")
        if not token:
            raise self._failure(f"the forum gave no CSRF token after logging in as {USER_VAR}, so it will take no "
                                f"upload. {AGAIN}")
        self._csrf = str(token)
        return self._session, self._csrf


def _words(text: str) -> str:
    """The words of a text or of a post's HTML, lower case, one space apart: what a mark is matched on, so that the
    markup, escapes, entities and spacing a forum changes do not hide it."""
    text = unicodedata.normalize("NFKC", html.unescape(re.sub(r"<[^>]*>", " ", text)))
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


# Where a rendered post's lines end: a line break, and the start or end of a block (paragraph, list item, quote…).
_LINE_END = re.compile(r"<br\s*/?>|</?(?:p|div|li|ul|ol|blockquote|pre|h[1-6]|tr|table|hr|section)\b[^>]*>", re.I)


def _last_line(text: str) -> str:
    """The words of the last line that has any, of a post as the forum shows it (HTML) or as it was sent
    (Markdown): the line a delivery mark must be."""
    lines = html.unescape(re.sub(r"<[^>]*>", " ", _LINE_END.sub("\n", text))).splitlines()
    return next((words for line in reversed(lines) if (words := _words(line))), "")
