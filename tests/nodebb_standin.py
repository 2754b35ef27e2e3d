"""A local stand-in for a NodeBB 4 forum, faithful in what adjudicator's client meets.

Each behaviour follows NodeBB's source (NodeBB 4.15, nodebb-plugin-markdown 13, nodebb-plugin-mentions 5); the
comments name the file it comes from. What the stand-in leaves out: admins and moderators (who skip the post delay
and the length check, and see deleted topics), groups and their mentions, newbie delays and edit limits, votes,
translation of anything but the messages below.

    with NodeBBStandIn(tokens={"tok": "alice"}, topics={7}) as forum:
        NodeBB(forum.url, "tok").reply(7, "Turn 3 ...")
        forum.posts[-1]["html"]

Players for tests of reading a game's topic: accounts with a full name that NodeBB may show as their display name
(which, unlike the user name, another account can choose too), their posts (`post_as`, or the write API with their
token), edits (`edit`, PUT /api/v3/posts/{pid}), the post queue (`approve`), a post deleted (`delete_post`) and a
topic deleted or purged (`delete_topic`).
"""

from __future__ import annotations

import email
import email.policy
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from markdown_it import MarkdownIt

# public/language/{en-GB,de}/error.json and success.json. NodeBB translates an error into ?lang=, else into the
# user's or the forum's language (src/controllers/helpers.js generateError); keys missing here fall back to en-GB.
MESSAGES = {
    "en-GB": {
        "invalid-data": "Invalid Data",
        "required-parameters-missing": "Required parameters were missing from this API call: %1",
        "no-topic": "Topic does not exist",
        "no-post": "Post does not exist",
        "no-privileges": "You do not have enough privileges for this action.",
        "content-too-short": "Please enter a longer post. Posts should contain at least %1 character(s).",
        "content-too-long": "Please enter a shorter post. Posts can't be longer than %1 character(s).",
        "too-many-posts": "You can only post once every %1 second(s) - please wait before posting again",
        "already-posting": "You are already posting",
        "file-too-big": "Maximum allowed file size is %1 kB - please upload a smaller file",
        "api.401": "A valid login session was not found. Please log in and try again.",
        "api.404": "Invalid API call",
        "post-edit-duration-expired": "You are only allowed to edit posts for %1 second(s) after posting",
    },
    "de": {
        "no-topic": "Das Thema existiert nicht",
        "no-privileges": "Du verfügst nicht über ausreichende Berechtigungen, um die Aktion durchzuführen.",
        "content-too-long": "Bitte schreibe einen kürzeren Beitrag. "
                            "Beiträge können nicht länger als %1 Zeichen sein.",
        "too-many-posts": "Du kannst nur einen Beitrag innerhalb von %1 Sekunden erstellen - Bitte warte bevor Du "
                          "erneut einen Beitrag erstellst.",
        "already-posting": "Du bist bereits am Posten",
    },
}
STATUS_CODES = {400: "bad-request", 401: "not-authorised", 403: "forbidden", 404: "not-found",
                500: "internal-server-error"}

# nodebb-plugin-mentions library.js: (?<=(^|\P{L}))(@[\p{L}\d\-_.@]+(?<!-)), flags "gu" (so \d is 0-9 only).
# Python's re has no \p{L}; [^\W\d_] is the letters (and the few numerals that are not decimal digits).
MENTION = re.compile(r"(?<![^\W\d_])@(?:[^\W\d_]|[0-9_.@-])+(?<!-)")
# lib/utility.js split(): what mentions skip. In the rendered HTML (links shown): links and code, not quotes;
# in the raw Markdown (who is notified): links, quoted lines, `inline code` and ```fenced``` code (greedy: from the
# first ``` to the last). ~~~ fences and indented code are not skipped there.
_SKIP_HTML = re.compile(r"(<a\s[\s\S]*?</a>(?=<[^>]+>)?|<code[\s\S]*?</code>|<pre[\s\S]*?</pre>)", re.M)
_SKIP_MARKDOWN = re.compile(r"(\[.*?\]\(.*?\)|^>.*$|`[^`\n]+`|```[\s\S]+```)", re.M)
_NO_MENTION_GROUPS = {"registered-users", "verified-users", "unverified-users", "guests", "banned-users"}
_TAGS = re.compile(r"<(/)?([^\s>]+)(\s+[^<>]*?)?\s*(/)?>")   # public/src/utils.common.js stripHTMLTags


def _markdown() -> MarkdownIt:
    """nodebb-plugin-markdown index.js: markdown-it with its defaults (html off, breaks on, xhtmlOut) and the
    dir="auto" it adds to paragraphs. Its linkify (needs linkify-it-py) and checkbox/table plugins are left out."""
    parser = MarkdownIt("js-default", {"html": False, "xhtmlOut": True, "breaks": True, "linkify": False,
                                       "typographer": False})

    def autodir(state: Any) -> None:
        for token in state.tokens:
            if token.type == "paragraph_open":
                token.attrJoin("dir", "auto")

    parser.core.ruler.push("autodir", autodir)
    return parser


_MD = _markdown()


def slugify(text: str) -> str:
    """public/src/modules/slugify.js, for the characters a mention can hold."""
    return re.sub(r"-+", "-", re.sub(r"\s+", "-", text.strip().lower())).strip("-")


def js_length(text: str) -> int:
    """String.length in JavaScript: UTF-16 code units, so an emoji counts 2."""
    return len(text.encode("utf-16-le")) // 2


def mentions(raw: str) -> list[str]:
    """The slugs a post's raw Markdown mentions, as Mentions.notify finds them (library.js)."""
    kept = "".join(_SKIP_MARKDOWN.split(raw)[::2])
    slugs = (slugify(match[1:]) for match in MENTION.findall(kept))
    return list(dict.fromkeys(s for s in slugs if s and s not in _NO_MENTION_GROUPS))


class NodeBBStandIn:
    """A forum on 127.0.0.1 (a random port) under `relative_path`, run in a thread while used as a context manager.

    tokens: API token -> user name; users: user name -> password (users of tokens exist too);
    queued_users: whose posts go to the post queue; cannot_reply: users without the reply privilege;
    fail_next: answers to the next requests, whatever they ask, as a proxy would give them: a status, or
    (status, headers); reply_time: seconds a reply takes while it holds the user's posting lock;
    answer_time: seconds a reply waits, stored already, before it answers (a slow forum a client may give up on),
    or a function of the number of posts stored by then, to hold only one reply;
    rewrite: what a plugin does to a post's Markdown as it is stored (filter:post.create);
    posts_per_page: the page size of a topic's pages (the user setting postsPerPage);
    clock: the clock of the post delay (tests pass a fake one); language: the forum's default language;
    fullnames: user name -> full name; fullname_as_displayname: the forum shows full names as display names
    (showFullnameAsDisplayName on, hideFullname off; NodeBB's defaults show user names);
    edit_duration: seconds after posting that a post may be edited (postEditDuration; 0, the default: always).
    """

    def __init__(self, *, tokens: dict[str, str] | None = None, users: dict[str, str] | None = None,
                 topics: Iterable[int] = (7,), relative_path: str = "/forums", max_post_length: int = 32767,
                 min_post_length: int = 8, post_delay: int = 10, queued_users: Iterable[str] = (),
                 cannot_reply: Iterable[str] = (), fail_next: Iterable[int | tuple[int, dict[str, str]]] = (),
                 reply_time: float = 0.0, answer_time: float = 0.0, rewrite: Callable[[str], str] = str,
                 posts_per_page: int = 20, max_file_kb: int = 2048, legacy_upload: bool = False,
                 language: str = "en-GB", clock: Callable[[], float] = time.monotonic,
                 fullnames: dict[str, str] | None = None, fullname_as_displayname: bool = False,
                 edit_duration: int = 0):
        self.tokens = dict(tokens or {})
        self.passwords = dict(users or {})
        names = list(dict.fromkeys([*self.passwords, *self.tokens.values()]))
        self.uids = {name: uid for uid, name in enumerate(names, start=1)}
        self.topics = set(topics)
        self.relative_path = relative_path.rstrip("/")
        self.max_post_length, self.min_post_length, self.post_delay = max_post_length, min_post_length, post_delay
        self.queued_users, self.cannot_reply = set(queued_users), set(cannot_reply)
        self.fail_next = list(fail_next)
        self.reply_time, self.max_file_kb, self.legacy_upload = reply_time, max_file_kb, legacy_upload
        self.answer_time, self.rewrite, self.posts_per_page = answer_time, rewrite, posts_per_page
        self.language, self.clock = language, clock
        self.fullnames, self.fullname_as_displayname = dict(fullnames or {}), fullname_as_displayname
        self.edit_duration = edit_duration
        self.titles: dict[int, str] = {}           # tid -> title, of topics opened with open_topic
        self.main_pids: dict[int, int] = {}        # tid -> pid of the topic's first post (topics/create.js mainPid)
        self.deleted_topics: set[int] = set()      # deleted, not purged: still there, shown to no one here
        # tid, pid, uid, user, raw (as stored), html (as rendered), timestamp, edited and editor (0 until edited)
        self.posts: list[dict] = []
        self.queue: list[dict] = []       # posts waiting for a moderator
        self.notified: list[tuple[int, str]] = []   # (pid, user name) of each mention notification
        self.uploads: list[dict] = []     # url, name, data, mime, user
        self.requests: list[dict] = []    # method, path, query, headers, status
        self.sessions: dict[str, dict] = {}   # express.sid -> {"uid", "csrf"}
        self._last: dict[tuple[int, str], float] = {}   # (uid, "post" | "queue") -> clock time
        self._posting: set[object] = set()
        self.started_posting = threading.Event()          # set when a reply first takes a posting lock
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    def __enter__(self) -> NodeBBStandIn:
        handler = type("Handler", (_Handler,), {"forum": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}{self.relative_path}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def user(self, uid: int) -> str | None:
        return next((name for name, u in self.uids.items() if u == uid), None)

    def render(self, raw: str) -> str:
        """Posts.parsePost: Markdown (priority 5), then mentions turned into links in what is not a link or code."""
        parts = _SKIP_HTML.split(_MD.render(raw))
        parts[::2] = [MENTION.sub(self._mention_link, part) for part in parts[::2]]
        return "".join(parts)

    def _mention_link(self, match: re.Match) -> str:
        name = match[0][1:]
        for candidate in (name, re.sub(r"[!?.]*$", "", name)):   # "@bob." at a sentence's end
            slug = slugify(candidate)
            if slug in {slugify(n) for n in self.uids}:
                return (f'<a class="plugin-mentions-user plugin-mentions-a" href="{self.relative_path}/user/{slug}" '
                        f'aria-label="Profile: {candidate}">@<bdi>{candidate}</bdi></a>{name[len(candidate):]}')
        return match[0]

    # -- the test API: players, their posts, moderators' acts ---------------------------------------------------

    def add_user(self, name: str, *, password: str | None = None, token: str | None = None,
                 fullname: str | None = None) -> int:
        """A new account; its uid. User names and their slugs are unique (user/create.js: a taken one gets a
        number added; here it is a mistake in the test), full names are not."""
        with self._lock:
            if slugify(name) in {slugify(n) for n in self.uids}:
                raise ValueError(f"user name {name!r} is taken")
            self.uids[name] = max(self.uids.values(), default=0) + 1
            if password is not None:
                self.passwords[name] = password
            if token is not None:
                self.tokens[token] = name
            if fullname is not None:
                self.fullnames[name] = fullname
            return self.uids[name]

    def open_topic(self, tid: int, user: str, content: str, title: str | None = None) -> int:
        """A topic and its first post, by `user`; the post's pid. The first post leads the topic's first page
        whatever the sort (topics/posts.js getTopicPosts: mainPid is put in front when start is 0)."""
        with self._lock:
            self.topics.add(tid)
            self.titles[tid] = title or f"Game {tid}"
            post = self._store(tid, self.uids[user], content)
            self.main_pids[tid] = post["pid"]
            return post["pid"]

    def post_as(self, tid: int, user: str, content: str) -> int:
        """A player's reply as the forum stores it once its checks are passed (the browser's composer, say);
        its pid. The write API's checks are tested through POST /api/v3/topics/{tid} with the player's token."""
        with self._lock:
            return self._store(tid, self.uids[user], content)["pid"]

    def edit(self, pid: int, content: str, by: str | None = None) -> dict:
        """posts/edit.js: new content, rendered again; `edited` the time and `editor` the uid of who edited it
        (its author unless `by`)."""
        with self._lock:
            post = next(p for p in self.posts if p["pid"] == pid)
            post.update(raw=content, html=self.render(content), edited=_now_ms(),
                        editor=self.uids[by] if by else post["uid"])
            return post

    def approve(self, queue_id: str | None = None) -> int:
        """A moderator accepts a queued reply (posts/queue.js submitFromQueue: topics.reply with fromQueue, no
        post delay or length check): it is posted now, as its author's; its pid. The oldest one by default."""
        with self._lock:
            queued = next(q for q in self.queue if queue_id in (None, q["id"]))
            self.queue.remove(queued)
            return self._store(queued["tid"], queued["uid"], queued["content"])["pid"]

    def delete_post(self, pid: int, by: str | None = None) -> None:
        """posts/delete.js: the post stays in its place, deleted (1) and by whom (deleterUid), its content shown
        to its author alone (posts/index.js modifyPostByPrivilege)."""
        with self._lock:
            post = next(p for p in self.posts if p["pid"] == pid)
            post.update(deleted=1, deleter=self.uids[by] if by else post["uid"])

    def delete_topic(self, tid: int, purge: bool = False) -> None:
        """A moderator deletes a topic (it stays, readable by admins and moderators only) or purges it (gone)."""
        with self._lock:
            if purge:
                self.topics.discard(tid)
            else:
                self.deleted_topics.add(tid)

    def _store(self, tid: int, uid: int, content: str) -> dict:
        """posts/create.js: the post stored, rendered, and its mentions notified (called holding the lock)."""
        name = self.user(uid)
        content = self.rewrite(content)
        post = {"tid": tid, "pid": max((p["pid"] for p in self.posts), default=0) + 1, "uid": uid, "user": name,
                "raw": content, "html": self.render(content), "timestamp": _now_ms(), "edited": 0, "editor": 0}
        self.posts.append(post)
        mentioned = mentions(content)
        self.notified += [(post["pid"], n) for n in self.uids if slugify(n) in mentioned and n != name]
        return post

    def user_view(self, uid: int) -> dict:
        """A post's author as a topic page shows it (posts/user.js getUserInfoForPosts; the display name by
        user/data.js parseDisplayNames)."""
        name = self.user(uid) or ""
        fullname = self.fullnames.get(name, "") if self.fullname_as_displayname else None
        view = {"uid": uid, "username": name, "userslug": slugify(name), "displayname": fullname or name,
                "reputation": 0, "postcount": sum(p["uid"] == uid for p in self.posts), "picture": None,
                "status": "offline", "banned": False}
        return view if fullname is None else {**view, "fullname": fullname}


def _now_ms() -> int:
    return int(time.time() * 1000)


def _iso(ms: int) -> str:
    """utils.toISOString, as JavaScript's Date.toISOString writes it."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


class _Handler(BaseHTTPRequestHandler):
    forum: NodeBBStandIn
    protocol_version = "HTTP/1.0"

    def log_message(self, *args: Any) -> None:
        pass

    # -- answering ---------------------------------------------------------------------------------------------

    def _answer(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
        self._record["status"] = status
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass    # the client gave up waiting; the forum did its work all the same

    def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._answer(status, json.dumps(payload).encode(), "application/json; charset=utf-8", headers)

    def _ok(self, response: Any, headers: dict[str, str] | None = None) -> None:
        """src/controllers/helpers.js formatApiResponse, 2xx."""
        self._json(200, {"status": {"code": "ok", "message": "OK"}, "response": response}, headers)

    def _error(self, status: int, key: str, *args: object) -> None:
        """formatApiResponse for an Error "[[error:key, args]]": translated; no-privileges is always a 403,
        no-topic a 404 (the switch in formatApiResponse)."""
        status = {"no-privileges": 403, "no-topic": 404}.get(key, status)
        text = MESSAGES.get(self._lang, {}).get(key) or MESSAGES["en-GB"].get(key, f"[[error:{key}]]")
        for i, arg in enumerate(args, start=1):
            text = text.replace(f"%{i}", str(arg))
        self._json(status, {"status": {"code": STATUS_CODES.get(status, "bad-request"), "message": text},
                            "response": {}})

    def _forbidden(self) -> None:
        """src/controllers/errors.js: a bad CSRF token (EBADCSRFTOKEN) is res.sendStatus(403)."""
        self._answer(403, b"Forbidden", "text/plain; charset=utf-8")

    # -- the request -------------------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def do_PUT(self) -> None:
        self._handle()

    def _handle(self) -> None:
        forum = self.forum
        split = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(split.query).items()}
        self._lang = query.get("lang") or forum.language
        self._record = {"method": self.command, "path": split.path, "query": query, "headers": dict(self.headers),
                        "status": None}
        with forum._lock:
            forum.requests.append(self._record)
            failure = forum.fail_next.pop(0) if forum.fail_next else None
        length = int(self.headers.get("Content-Length") or 0)
        self._body = self.rfile.read(length) if length else b""
        if failure is not None:
            status, headers = failure if isinstance(failure, tuple) else (failure, {})
            page = f"<html><body><h1>{status}</h1>nginx</body></html>".encode()
            return self._answer(status, page, "text/html", headers)
        if not split.path.startswith(forum.relative_path + "/"):
            return self._answer(404, b"<html><body>Not Found</body></html>", "text/html")
        path = unquote(split.path[len(forum.relative_path):])
        routes: list[tuple[str, str, Callable[..., None]]] = [
            ("GET", r"/api/config", self._config),
            ("POST", r"/api/v3/utilities/login", self._login),
            ("POST", r"/api/v3/topics/(\d+)", self._reply),
            ("GET", r"/api/topic/(\d+)(?:/[^/]*)?", self._topic_page),
            ("PUT", r"/api/v3/posts/(\d+)", self._edit),
            ("GET", r"/api/user/username/([^/]+)", self._user_by_name),
            ("POST", r"/api/post/upload", self._upload),
            ("GET", r"/assets/uploads/files/([^/]+)", self._file),
        ]
        for method, pattern, route in routes:
            if self.command == method and (found := re.fullmatch(pattern, path)):
                return route(*found.groups())
        if path.startswith("/api/v3/"):
            return self._error(404, "api.404")     # src/routes/write/index.js: the 404 of the write API
        self._not_found(path)

    def _fields(self) -> dict:
        if "json" in self.headers.get("Content-Type", ""):
            return json.loads(self._body or b"{}")
        return {k: v[0] for k, v in parse_qs(self._body.decode()).items()}

    def _session(self) -> tuple[str, dict] | None:
        cookie = SimpleCookie(self.headers.get("Cookie", ""))
        sid = cookie["express.sid"].value if "express.sid" in cookie else None
        return (sid, self.forum.sessions[sid]) if sid in self.forum.sessions else None

    def _new_session(self, uid: int) -> tuple[str, dict[str, str]]:
        """express-session's cookie (src/meta/configs.js: path = relative_path, SameSite Lax, HttpOnly)."""
        sid = secrets.token_urlsafe(16)
        self.forum.sessions[sid] = {"uid": uid, "csrf": None}
        path = self.forum.relative_path or "/"
        return sid, {"Set-Cookie": f"express.sid={sid}; Path={path}; HttpOnly; SameSite=Lax"}

    def _authenticate(self) -> int | None:
        """src/middleware/user.js authenticate: a logged-in session wins, and then a POST must carry the session's
        CSRF token; else a bearer token gives its user and a token NodeBB does not know gives a guest (uid 0),
        with no CSRF check; with neither, a guest, CSRF-checked. None when the 403 is sent."""
        session = self._session()
        auth = self.headers.get("Authorization")
        if session and session[1]["uid"] > 0 or not auth:
            if self.command != "GET" and not self._csrf_ok(session):
                self._forbidden()
                return None
            return session[1]["uid"] if session else 0
        token = auth.split(" ", 1)[1] if " " in auth else ""
        return self.forum.uids.get(self.forum.tokens.get(token, ""), 0)

    def _csrf_ok(self, session: tuple[str, dict] | None) -> bool:
        """src/middleware/csrf.js (csrf-sync): the x-csrf-token header or a csrf_token field equals the session's."""
        sent = self.headers.get("x-csrf-token")
        return bool(session and session[1]["csrf"] and sent == session[1]["csrf"])

    # -- routes ------------------------------------------------------------------------------------------------

    def _config(self) -> None:
        """src/controllers/api.js loadConfig. csrf_token is given to anyone with uid >= 0, guests included, and
        tied to the session; a bearer call's session is destroyed at its end, so its token is good for nothing."""
        forum = self.forum
        uid = self._authenticate()
        assert uid is not None       # a GET is never CSRF-checked
        headers: dict[str, str] = {}
        session = self._session()
        if session is None and self.headers.get("Authorization"):
            csrf = secrets.token_hex(32)
        else:
            if session is None:
                sid, headers = self._new_session(0)
                session = (sid, forum.sessions[sid])
            session[1]["csrf"] = session[1]["csrf"] or secrets.token_hex(32)
            csrf = session[1]["csrf"]
        self._json(200, {
            "relative_path": forum.relative_path, "upload_url": "/assets/uploads", "postQueue": 1,
            "minimumPostLength": forum.min_post_length, "maximumPostLength": forum.max_post_length,
            "maximumFileSize": forum.max_file_kb, "loggedIn": uid > 0, "uid": uid, "csrf_token": csrf,
        }, headers)

    def _login(self) -> None:
        """src/controllers/write/utilities.js login -> src/controllers/authentication.js: no authentication and no
        CSRF check on this route; a refusal is a bare 403 with the untranslated key (helpers.noScriptErrors)."""
        fields = self._fields()
        missing = [f for f in ("username", "password") if f not in fields]
        if missing:
            return self._error(400, "required-parameters-missing", " ".join(missing))
        name = str(fields["username"]).strip()
        if self.forum.passwords.get(name) != fields["password"]:
            return self._answer(403, b"[[error:invalid-login-credentials]]", "text/html; charset=utf-8")
        uid = self.forum.uids[name]
        _, headers = self._new_session(uid)
        self._ok({"uid": uid, "username": name, "userslug": slugify(name)}, headers)

    def _reply(self, tid: str) -> None:
        """src/routes/write/topics.js -> controllers/write/topics.js reply -> api/topics.js reply ->
        topics/create.js reply, in NodeBB's order of checks."""
        forum = self.forum
        uid = self._authenticate()
        if uid is None:
            return
        fields = self._fields()
        if "content" not in fields:
            return self._error(400, "required-parameters-missing", "content")
        if int(tid) not in forum.topics:
            return self._error(404, "no-topic")                       # middleware/assert.js topic
        if int(tid) in forum.deleted_topics and uid > 0:
            return self._error(400, "topic-deleted")                  # topics/create.js canReply
        lock = uid if uid > 0 else object()                           # lockPosting: the uid, else the session
        with forum._lock:
            if lock in forum._posting:
                return self._error(400, "already-posting")
            forum._posting.add(lock)
            forum.started_posting.set()
        try:
            answer = self._post(int(tid), uid, str(fields["content"] or ""))
        finally:
            with forum._lock:
                forum._posting.discard(lock)
        wait = forum.answer_time
        time.sleep(wait(len(forum.posts)) if callable(wait) else wait)
        answer()                    # after the unlock, as NodeBB answers: a client's next post never finds it held

    def _post(self, tid: int, uid: int, content: str) -> Callable[[], None]:
        """Make the reply; returns what answers the request."""
        forum = self.forum
        name = forum.user(uid)
        if not content:
            return partial(self._error, 400, "invalid-data")
        if uid == 0 or name in forum.queued_users:                    # posts/queue.js shouldQueue
            if (error := self._length_error(content)) or (error := self._privilege_error(name)) \
                    or (error := self._delay_error(uid, "queue")):
                return partial(self._error, *error)
            with forum._lock:
                forum._last[uid, "queue"] = forum.clock()
                queued = {"id": f"reply-{int(time.time() * 1000)}", "type": "reply", "tid": tid, "uid": uid,
                          "content": content}
                forum.queue.append(queued)
            return partial(self._ok, {"id": queued["id"], "type": "reply", "queued": True,
                                      "message": "[[success:post-queued]]"})
        content = content.rstrip()                                    # data.content.trimEnd()
        if (error := self._privilege_error(name)) or (error := self._delay_error(uid, "post")) \
                or (error := self._length_error(content)):
            return partial(self._error, *error)
        time.sleep(forum.reply_time)
        with forum._lock:
            post = forum._store(tid, uid, content)
            forum._last[uid, "post"] = forum.clock()
        return partial(self._ok, {"pid": post["pid"], "tid": tid, "uid": uid, "content": post["html"],
                                  "timestamp": post["timestamp"], "index": sum(p["tid"] == tid for p in forum.posts),
                                  "user": {"uid": uid, "username": name}})

    def _privilege_error(self, name: str | None) -> tuple | None:
        """topics/create.js canReply: guests and users without topics:reply get no-privileges."""
        return (403, "no-privileges") if name is None or name in self.forum.cannot_reply else None

    def _delay_error(self, uid: int, what: str) -> tuple | None:
        """user/posts.js isReady: postDelay seconds since the user's last post (or last queued post)."""
        last = self.forum._last.get((uid, what))
        if uid and last is not None and self.forum.clock() - last < self.forum.post_delay:
            return 400, "too-many-posts", self.forum.post_delay
        return None

    def _length_error(self, content: str) -> tuple | None:
        """topics/create.js check: the length of the content with HTML tags stripped, trimmed, in UTF-16 units."""
        length = js_length(_TAGS.sub("", content).strip())
        if length < self.forum.min_post_length:
            return 400, "content-too-short", self.forum.min_post_length
        if length > self.forum.max_post_length:
            return 400, "content-too-long", self.forum.max_post_length
        return None

    def _topic_page(self, tid: str) -> None:
        """GET /api/topic/:tid (src/controllers/topics.js): a page of the topic's posts with their rendered content,
        postsPerPage a page, in the order ?sort= asks (validSorts, else the forum's oldest_to_newest), the topic's
        first post in front of the first page whatever the sort (topics/posts.js getTopicPosts); ?page= past the
        last page holds no posts (usePagination is off by default). Each post as topics/posts.js addPostData makes
        it: its author (user), its editor, edited 0 until it is. The pagination says how many pages there are
        (pagination.js create). A purged topic is a 404; a deleted one is refused (helpers.notAllowed): 403 for a
        user, 401 for a guest."""
        forum, tid_n = self.forum, int(tid)
        viewer = self._authenticate()
        assert viewer is not None       # a GET is never CSRF-checked
        if tid_n not in forum.topics:
            return self._not_found(f"/api/topic/{tid}")
        if tid_n in forum.deleted_topics:
            if viewer == 0:
                return self._json(401, {"status": {"code": "not-authorised", "message": self._text("api.401")},
                                        "response": {}})
            return self._json(403, {"path": f"/topic/{tid}", "loggedIn": True, "title": "[[global:403.title]]"})
        query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        with forum._lock:
            main = [p for p in forum.posts if p["pid"] == forum.main_pids.get(tid_n)]
            replies = [p for p in forum.posts if p["tid"] == tid_n and p not in main]
            if query.get("sort") == "newest_to_oldest":
                replies.reverse()
            size = forum.posts_per_page
            page = int(query["page"]) if query.get("page", "").isdigit() else 1
            start = (page - 1) * size
            chosen = (main + replies)[start:start + size] if page >= 1 else []
            first = start if main else start + 1
            posts = [self._post_view(post, index, viewer) for index, post in enumerate(chosen, start=first)]
            count = len(main) + len(replies)
        pages = max(1, -(-count // size))
        title = forum.titles.get(tid_n, f"Game {tid}")
        self._json(200, {"tid": tid_n, "title": title, "slug": f"{tid}/{slugify(title)}", "postcount": count,
                         "mainPid": forum.main_pids.get(tid_n, 0), "deleted": 0, "posts": posts,
                         "pagination": {"currentPage": page if pages > 1 else 1, "pageCount": pages}})

    def _post_view(self, post: dict, index: int, viewer: int) -> dict:
        """posts/data.js modifyPost (timestampISO, editedISO, deleted 0 or 1), topics/posts.js addPostData (user,
        editor) and posts/index.js modifyPostByPrivilege (a deleted post's content hidden but from its author)."""
        forum = self.forum
        stamp, edited, editor = post.get("timestamp", 0), post.get("edited", 0), post.get("editor", 0)
        editor_name = forum.user(editor) if editor else None
        deleted = post.get("deleted", 0)
        hidden = deleted and viewer != post["uid"]
        return {"pid": post["pid"], "uid": post["uid"], "tid": post["tid"],
                "content": "[[topic:post-is-deleted]]" if hidden else post["html"],
                "timestamp": stamp, "timestampISO": _iso(stamp), "edited": edited,
                "editedISO": _iso(edited) if edited else "", "deleted": deleted,
                "deleterUid": post.get("deleter", 0), "votes": 0, "index": index,
                "editor": {"uid": editor, "username": editor_name, "userslug": slugify(editor_name)}
                if editor_name else None,
                "user": forum.user_view(post["uid"]), "selfPost": viewer > 0 and viewer == post["uid"]}

    def _edit(self, pid: str) -> None:
        """PUT /api/v3/posts/:pid (src/routes/write/posts.js: ensureLoggedIn, checkRequired content) ->
        api/posts.js edit (the length of the content without HTML tags, trimmed) -> posts/edit.js (privileges
        canEdit: the post's author, within postEditDuration); answers the post as edited, rendered."""
        forum = self.forum
        uid = self._authenticate()
        if uid is None:
            return
        if uid == 0:
            return self._json(401, {"status": {"code": "not-authorised", "message": self._text("api.401")},
                                    "response": {}})
        fields = self._fields()
        if "content" not in fields:
            return self._error(400, "required-parameters-missing", "content")
        content = str(fields["content"] or "")
        if not content:
            return self._error(400, "invalid-data")
        length = js_length(_TAGS.sub("", content).strip())
        if length < forum.min_post_length:
            return self._error(400, "content-too-short", forum.min_post_length)
        if length > forum.max_post_length:
            return self._error(400, "content-too-long", forum.max_post_length)
        with forum._lock:
            post = next((p for p in forum.posts if p["pid"] == int(pid)), None)
        if post is None:
            return self._error(400, "no-post")
        if forum.edit_duration and _now_ms() - post.get("timestamp", 0) > forum.edit_duration * 1000:
            return self._error(400, "post-edit-duration-expired", forum.edit_duration)
        if post["uid"] != uid:
            return self._error(403, "no-privileges")
        old = post["raw"]
        post = forum.edit(post["pid"], content, forum.user(uid))
        title = forum.titles.get(post["tid"], f"Game {post['tid']}")
        self._ok({"pid": post["pid"], "uid": post["uid"], "tid": post["tid"], "content": post["html"],
                  "timestamp": post.get("timestamp", 0), "edited": post["edited"], "editedISO": _iso(post["edited"]),
                  "editor": uid, "deleted": False, "changed": content != old, "oldContent": old,
                  "newContent": content, "user": forum.user_view(post["uid"]),
                  "topic": {"tid": post["tid"], "title": title, "slug": f"{post['tid']}/{slugify(title)}"}})

    def _user_by_name(self, name: str) -> None:
        """GET /api/user/username/:username (controllers/user.js getUserByUsername): the account whose user name
        is exactly this (user/index.js getUidByUsername: not the slug, not a display name), or the 404."""
        uid = self.forum.uids.get(name)
        if uid is None:
            return self._not_found(f"/api/user/username/{name}")
        view = self.forum.user_view(uid)
        self._json(200, {**view, "fullname": view.get("fullname", ""), "topiccount": 0, "joindate": 0})

    def _not_found(self, path: str) -> None:
        """controllers/404.js send404, for an /api route: the path without /api and the untranslated title."""
        self._json(404, {"path": path.removeprefix("/api"), "title": "[[global:404.title]]"})

    def _text(self, key: str) -> str:
        return MESSAGES.get(self._lang, {}).get(key) or MESSAGES["en-GB"][key]

    def _upload(self) -> None:
        """src/routes/api.js /post/upload: no authenticateRequest (a bearer token counts for nothing), then
        applyCSRF; controllers/uploads.js answers its errors through formatApiResponse(500), which makes
        no-privileges a 403 and leaves the rest (file too big) a 500."""
        forum = self.forum
        session = self._session()
        if not self._csrf_ok(session):
            return self._forbidden()
        assert session is not None
        uid = session[1]["uid"]
        message = email.message_from_bytes(
            f"Content-Type: {self.headers.get('Content-Type', '')}\r\n\r\n".encode() + self._body,
            policy=email.policy.HTTP)
        files = [part for part in message.iter_parts()
                 if part.get_param("name", header="content-disposition") == "files[]" and part.get_filename()]
        if not files:
            return self._error(500, "invalid-data")
        images = []
        for part in files:
            data = part.get_payload(decode=True)
            if uid == 0:
                return self._error(500, "no-privileges")
            if len(data) > forum.max_file_kb * 1024:
                return self._error(500, "file-too-big", forum.max_file_kb)
            name = part.get_filename()
            stored = ".".join(map(slugify, f"{int(time.time() * 1000)}-{name}".split(".")))   # file.js
            url = f"{forum.relative_path}/assets/uploads/files/{stored}"
            with forum._lock:
                forum.uploads.append({"url": url, "name": name, "data": data, "mime": part.get_content_type(),
                                      "user": forum.user(uid)})
            images.append({"url": url, "name": name})
        if forum.legacy_upload:
            return self._json(200, images)          # NodeBB before 1.16 answered a bare list
        self._ok({"images": images})

    def _file(self, name: str) -> None:
        url = f"{self.forum.relative_path}/assets/uploads/files/{name}"
        stored = next((u for u in self.forum.uploads if u["url"] == url), None)
        if stored is None:
            return self._answer(404, b"Not Found", "text/plain")
        self._answer(200, stored["data"], stored["mime"])
