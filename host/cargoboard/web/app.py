"""The web app of `cargoboard serve` (Starlette): the live tables, the archive, the replays.

Pages: `/` every table side by side, `/table/K` one table (`/api/table/K` its view as JSON),
`/table/K/seat/S?token=T` one seat's page (its hidden hand), `/games` the archive (filters),
`/games/N` a replay, `/games/N/export.FMT` the exports, `/host?token=T` the host's page (seat
links). Live pages update through server-sent events (`/events`, `/table/K/events`,
`/table/K/seat/S/events`). Changes are POSTs with the page's CSRF token: `/table/K/sync` (sync
now), `/table/K/seat/S/act` (a seat plays from its page), `/games/N/delete`. docs/web.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import logging
import re
import sqlite3
import sys
import threading
from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import (HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse,
                                 Response, StreamingResponse)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from cargoboard import rules
from cargoboard.clikit import CommandError, shown, terminal_text
from cargoboard.export import diagram
from cargoboard.store import (SEATS, BadGameId, NoSuchGame, Store, StoreError, is_date_filter,
                              is_result_filter, result_text, source_text, store_error,
                              when_text)
from cargoboard.web import views
from cargoboard.web.security import COOKIE, Keys

HERE = Path(__file__).resolve().parent
PAGE_SIZE = 100          # archive rows per page
LED_MIN_S = 0.05         # LED frames to one page at most every 50 ms (the board may blink faster)
REPLAY_CACHE_BYTES = 32 * 2 ** 20  # replay pages kept (a 778-action game's is 0.85 MB)
log = logging.getLogger("cargoboard.web")


class Hub:
    """Wakes the event streams when a followed board changes (called from the board threads)."""

    def __init__(self):
        self.loop = None
        self.queues = set()
        self.closing = False

    def close(self):
        """The server stops: every event stream ends (rather than being cancelled)."""
        self.closing = True
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._put, None, None)

    def notify(self, follower, what):
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._put, follower.key, what)

    def _put(self, key, what):
        for q in list(self.queues):
            q.put_nowait((key, what))


class ReplayPages:
    """The replay pages made, by what they are made of: a long game's page takes a replay
    through the rules and a drawing per action (0.2-0.4 s for 778 actions), and a page depends
    on its game's record only. A game's page is kept without links (its export.html; its
    replay page is that with the archive's links, html.with_nav) under its store and game id
    with a digest of everything it was made from (html.page_inputs), and given only to a
    request whose record, read from the store afresh, has the same digest: a game changed (a
    sync's longer log), deleted (no record: 404 before any look here), or another store at the
    path (a sync that made it anew, an upgraded schema) never gets a page made before. At most
    max_bytes of pages are kept, the least recently shown dropped first; a game keeps one page
    (its newer one replaces it). Requests run in threads: the lock guards the dict."""

    def __init__(self, max_bytes=None):
        self.max_bytes = REPLAY_CACHE_BYTES if max_bytes is None else max_bytes
        self.bytes = 0
        self._pages = collections.OrderedDict()  # (store_path, id) -> (digest, page)
        self._lock = threading.Lock()

    @staticmethod
    def digest(rec):
        from cargoboard.export.html import page_inputs
        made_of = json.dumps(page_inputs(rec), ensure_ascii=False)
        return hashlib.sha256(made_of.encode()).digest()

    def get(self, store_path, rec):
        """The page kept for this record, or None."""
        with self._lock:
            hit = self._pages.get((store_path, rec.id))
            if hit is None or hit[0] != self.digest(rec):
                return None
            self._pages.move_to_end((store_path, rec.id))
            return hit[1]

    def put(self, store_path, rec, page):
        with self._lock:
            old = self._pages.pop((store_path, rec.id), None)
            if old is not None:
                self.bytes -= sys.getsizeof(old[1])
            if sys.getsizeof(page) > self.max_bytes:
                return
            self._pages[(store_path, rec.id)] = (self.digest(rec), page)
            # (its memory: a text with a Cyrillic letter takes 2 bytes a character)
            self.bytes += sys.getsizeof(page)
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._pages.popitem(last=False)
                self.bytes -= sys.getsizeof(dropped)

    def page(self, store_path, rec, make):
        """The page of rec (without links): the one kept, else make() (rec, positions, the
        rules' actions: rec.replay()'s), drawn and kept. make is where a game that does not
        replay or may not be shown is refused: a page is kept only of a record that passed
        it."""
        from cargoboard.export.html import game_html
        page = self.get(store_path, rec)
        if page is None:
            rec, positions, actions = make()
            page = game_html(rec, positions, actions)
            self.put(store_path, rec, page)
        return page


class Web:
    """Everything a request needs: the boards, the store's path, the keys, the view cache,
    the replay pages made."""

    def __init__(self, boards, db_path, keys: Keys, hub: Hub):
        self.boards = boards
        self.db_path = Path(db_path)
        self.keys = keys
        self.hub = hub
        self._views = {}
        self.replays = ReplayPages()

    def view(self, follower, seat=None):
        """The board's view for an audience, made once per board version."""
        key = (follower.key, seat)
        version = follower.version
        hit = self._views.get(key)
        if hit is None or hit[0] != version:
            hit = (version, views.board_view(follower.snapshot(), seat))
            self._views[key] = hit
        return hit[1]

    @contextlib.contextmanager
    def store(self):
        """The store, read only: StoreError says what is wrong (missing, damaged, foreign),
        also of an SQLite error met reading it (a store damaged past its schema, which opening
        it does not read: "database disk image is malformed"), as the commands say it."""
        try:
            with Store(self.db_path, readonly=True) as st:
                yield st
        except sqlite3.DatabaseError as e:
            raise store_error(self.db_path, e) from None


# --- access ---------------------------------------------------------------------------------

def _token(request):
    return request.query_params.get("token") or request.cookies.get(COOKIE)


def _need_table_access(request):
    web = request.app.state.web
    if web.keys.public and not web.keys.is_host(_token(request)):
        raise HTTPException(403, "this server is public: open the link with the host token "
                                 "that `cargoboard serve` printed")


def _follower(request):
    """The table of the path's key: a key that is no number is malformed (400, as a game id
    is on /games/x), a number no table has is not found (404)."""
    key = request.path_params["key"]
    if not re.fullmatch(r"[0-9]+", key):
        raise HTTPException(400, "table must be a number, not '%s' (see the tables page)" % shown(key))
    f = request.app.state.web.boards.get(key)
    if f is None:
        raise HTTPException(404, "no table %s (see the tables page)" % shown(key))
    return f


def _seat_access(request, follower):
    seat = request.path_params["seat"]
    if not request.app.state.web.keys.is_seat(request.query_params.get("token"), follower.key,
                                              seat):
        raise HTTPException(403, "a seat's page needs that seat's link (with its token); the "
                                 "host has them")
    return seat


def _check_post(request, form):
    web = request.app.state.web
    if not web.keys.csrf_ok(form.get("csrf")):
        raise HTTPException(403, "this change did not come from one of this server's pages "
                                 "(missing or wrong CSRF token): reload the page and try again")
    origin = request.headers.get("origin")
    # ("null" passes: a browser with a no-referrer policy sends it for its own pages' POSTs,
    # the Fetch standard says so; the CSRF token above still had to be this server's)
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise HTTPException(403, "a change from another site (Origin %s) is refused" % origin)


def _render(request, name, status=200, **context):
    web = request.app.state.web
    context.setdefault("csrf", web.keys.csrf)
    context.setdefault("public", web.keys.public)
    resp = request.app.state.templates.TemplateResponse(request, name, context,
                                                        status_code=status)
    return _remember_host(request, resp)


def _remember_host(request, resp):
    """resp, with the host token as a cookie if the request's link carried it: the host
    opened a page with the token, later pages (its links) need it no more."""
    token = request.query_params.get("token")
    if token and request.app.state.web.keys.is_host(token):
        resp.set_cookie(COOKIE, token, httponly=True, samesite="strict")
    return resp


def _int_param(request, name, default=None, lo=None, hi=None):
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    if not re.fullmatch(r"-?[0-9]+", raw):  # (int() also reads "٣", "1_0", " +3")
        raise HTTPException(400, "%s must be a whole number, not '%s'" % (name, shown(raw)))
    if len(raw.lstrip("-0")) > 19:  # past SQLite's integers (and int() refuses 4300 digits)
        raise HTTPException(400, "%s is too large: %s" % (name, shown(raw)))
    v = int(raw)
    if hi is None and v >= 2 ** 63:  # past SQLite's integers, where it would fail (a 500)
        raise HTTPException(400, "%s is too large: %d" % (name, v))
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise HTTPException(400, "%s must be %s..%s, not %d" % (name, lo, "" if hi is None else hi,
                                                                  v))
    return v


# --- live pages -----------------------------------------------------------------------------

async def tables_page(request):
    _need_table_access(request)
    web = request.app.state.web
    followers = list(web.boards.followers)
    return _render(request, "tables.html", tables=[web.view(f) for f in followers],
                   syncs={f.key: f.sync_state for f in followers},
                   discover=web.boards.discover)


async def table_page(request):
    _need_table_access(request)
    f = _follower(request)
    return _render(request, "table.html", t=request.app.state.web.view(f), seat=None,
                   token=None, syncs={f.key: f.sync_state})


async def seat_page(request):
    f = _follower(request)
    seat = _seat_access(request, f)
    return _render(request, "table.html", t=request.app.state.web.view(f, seat), seat=seat,
                   token=request.query_params.get("token"), syncs=None)


async def table_json(request):
    _need_table_access(request)
    f = _follower(request)
    return JSONResponse(request.app.state.web.view(f))


def _sse(event, data):
    return "event: %s\ndata: %s\n\n" % (event, json.dumps(data, separators=(",", ":")))


async def _stream(request, followers, seat=None):
    """Server-sent events for some followers (None: every board, also those found later):
    `board` (the whole view) whenever it changes, at once; `leds` (the frame as hex) at most
    every LED_MIN_S per board (a blinking board sends more); `sync` (a sync now's progress)."""
    web = request.app.state.web
    hub = web.hub
    q = asyncio.Queue()
    hub.queues.add(q)
    every = followers is None  # the tables page: every board, also ones found later
    if every:
        followers = list(web.boards.followers)
    keys = {f.key: f for f in followers}
    try:
        if hub.closing:
            return
        yield "retry: 1000\n\n"
        for f in followers:  # the state now, then the changes
            yield _sse("board", web.view(f, seat))
            if f.leds is not None:
                yield _sse("leds", {"key": f.key, "leds": f.leds.hex()})
        loop = asyncio.get_running_loop()
        led_sent = {}      # key -> when its last LED frame went out
        led_due = set()    # keys whose newer LED frame waits for its turn
        while True:
            timeout = 15.0
            if led_due:
                timeout = max(0.0, min(led_sent[k] for k in led_due) + LED_MIN_S - loop.time())
            try:
                got = [await asyncio.wait_for(q.get(), timeout)]
            except asyncio.TimeoutError:
                got = []
                if not led_due:
                    yield ": keep-alive\n\n"
                    continue
            if hub.closing:
                return
            while not q.empty():  # a burst becomes one message per board and kind
                got.append(q.get_nowait())
            for key, what in sorted(set(got)):
                f = keys.get(key)
                if f is None and every:
                    f = keys[key] = web.boards.get(key)
                if f is None:
                    continue
                if what == "board":
                    yield _sse("board", web.view(f, seat))
                elif what == "leds":
                    led_due.add(key)  # sent below, at most every LED_MIN_S per board
                elif what == "sync" and seat is None:
                    yield _sse("sync", dict(f.sync_state, key=key))
            now = loop.time()
            for key in sorted(led_due):
                if now - led_sent.get(key, -LED_MIN_S) >= LED_MIN_S:
                    led_due.discard(key)
                    led_sent[key] = now
                    if keys[key].leds is not None:
                        yield _sse("leds", {"key": key, "leds": keys[key].leds.hex()})
    finally:
        hub.queues.discard(q)


def _event_response(gen):
    return StreamingResponse(gen, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def all_events(request):
    _need_table_access(request)
    return _event_response(_stream(request, None))


async def table_events(request):
    _need_table_access(request)
    return _event_response(_stream(request, [_follower(request)]))


async def seat_events(request):
    f = _follower(request)
    seat = _seat_access(request, f)
    return _event_response(_stream(request, [f], seat))


async def sync_now(request):
    _need_table_access(request)
    f = _follower(request)
    form = await request.form()
    _check_post(request, form)
    if not f.request_sync():
        raise HTTPException(409, "table %s cannot sync now: %s" % (
            f.key, "a sync is running" if f.sync_state["running"] else "the board is not "
            "connected"))
    if request.headers.get("accept", "").startswith("application/json"):
        return JSONResponse({"started": True, "key": f.key})
    return RedirectResponse("/table/%s" % f.key, status_code=303)


async def seat_act(request):
    """A seat plays from its page: POST command=... (one of its view's actions), with the
    seat's token in the URL and the page's CSRF token."""
    f = _follower(request)
    seat = _seat_access(request, f)
    form = await request.form()
    _check_post(request, form)
    command = form.get("command") or ""
    offered = [a[1] for a in request.app.state.web.view(f, seat)["actions"]]
    if command not in offered:
        raise HTTPException(403, "seat %s may not send '%s' now (it may: %s)" % (
            seat, command, ", ".join(offered) or "nothing"))
    if not f.request_command(seat, command):
        raise HTTPException(409, "table %s: the board is not connected" % f.key)
    if request.headers.get("accept", "").startswith("application/json"):
        return JSONResponse({"sent": command})
    return RedirectResponse("/table/%s/seat/%s?%s" % (f.key, seat, urlencode(
        {"token": request.query_params.get("token")})), status_code=303)


async def host_page(request):
    web = request.app.state.web
    if not web.keys.is_host(_token(request)):
        raise HTTPException(403, "the host's page needs the host token that `cargoboard serve` "
                                 "printed")
    tables = []
    for f in web.boards.followers:
        v = web.view(f)
        seats = v["seats"] or []
        hidden = bool(v["game"]) and diagram.has_hidden(v["game"])
        links = [(s, "/table/%s/seat/%s?%s" % (f.key, s, urlencode(
            {"token": web.keys.seat(f.key, s)}))) for s in seats]
        tables.append({"view": v, "links": links, "hidden": hidden})
    return _render(request, "host.html", tables=tables)


# --- the archive ----------------------------------------------------------------------------

def _filters(request):
    q = request.query_params
    kind = q.get("kind") or None
    if kind is not None and kind not in rules.kinds():
        raise HTTPException(400, "kind must be a game (%s), not '%s'" % (
            ", ".join(rules.kinds()), shown(kind)))
    result = q.get("result") or None
    if result and not is_result_filter(result):
        raise HTTPException(400, "result must be over, open, abandoned or a seat (its letter "
                                 "or digit), not '%s'" % shown(result))
    dates = {}
    for name in ("since", "until"):
        v = q.get(name) or None
        if v is not None and not is_date_filter(v):
            raise HTTPException(400, "%s must be a date YYYY-MM-DD, not '%s'" % (name, shown(v)))
        dates[name] = v
    return {"kind": kind, "players": _int_param(request, "players", None, *SEATS),
            "result": result, **dates}


def archive_page(request):
    _need_table_access(request)
    web = request.app.state.web
    filters = _filters(request)
    page = _int_param(request, "page", 1, 1)
    try:
        with web.store() as st:
            total = st.count(**filters)
            pages = max(1, (total + PAGE_SIZE - 1) // PAGE_SIZE)
            if page > pages:
                raise HTTPException(404, "no page %d: the archive has %d page%s here" % (
                    page, pages, "" if pages == 1 else "s"))
            rows = st.list(limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE, newest_first=True,
                           **filters)
            kinds = st.kinds()
            # delete_game's redirect says which game went; told only if it is gone (a link
            # cannot make it say so of a game there, and a bad value is no error)
            deleted = request.query_params.get("deleted", "")
            deleted = int(deleted) if deleted.isdecimal() and deleted.isascii() and \
                len(deleted) < 19 else None
            if deleted is not None:
                try:
                    st.get(deleted)
                    deleted = None
                except StoreError:
                    pass
    except StoreError as e:
        return _render(request, "archive.html", problem=str(e), rows=[], total=0, page=1,
                       pages=1, filters=filters, kinds=[], db=web.db_path, query="")
    query = urlencode({k: v for k, v in filters.items() if v not in (None, "")})
    return _render(request, "archive.html", problem=None, rows=rows, total=total, page=page,
                   pages=pages, filters=filters, kinds=kinds, db=web.db_path, query=query,
                   deleted=deleted)


def _store_status(e):
    """The HTTP status of a StoreError met looking up a game: 404 for a game the store does not
    have, 400 for an id that is no number, else 503: the store itself cannot be used (missing,
    damaged, another program's file; in use: another program writing it, a moment later it
    may be done). (By its class: "no game store at ..." is no unknown game.)"""
    return 404 if isinstance(e, NoSuchGame) else 400 if isinstance(e, BadGameId) else 503


def _game_ref(request):
    """The path's game id, as the store takes it: digits 0-9 only (400 else), since Python's
    int() also reads "٣" (an Arabic-Indic three), "1_0" and " +3", which made /games/1_0 game
    10 where /table/1_0 and /games/x are 400."""
    ref = request.path_params["game"]
    if not re.fullmatch(r"[0-9]+", ref):
        raise HTTPException(400, str(BadGameId("game id must be a number, not '%s' (see "
                                               "`cargoboard games`)" % shown(ref))))
    return ref


def _record(request):
    """The record of the path's game, read from the store."""
    ref = _game_ref(request)
    try:
        with request.app.state.web.store() as st:
            return st.get(ref)
    except StoreError as e:
        raise HTTPException(_store_status(e), str(e)) from None


def _game(request, rec=None):
    """(record, positions, the rules' actions) of the path's game (rec: its record, read
    already; positions and actions as rec.replay() gives them): 422 for a game that does not
    replay, 403 for a hidden game not over."""
    from cargoboard.export.cli import replayed
    if rec is None:
        rec = _record(request)
    try:
        positions, actions = replayed(rec)
    except CommandError as e:  # its rules refuse it, or this program has none for its kind
        raise HTTPException(422, str(e)) from None
    last = positions[-1]
    if diagram.has_hidden(rec.kind) and not last.is_over() and \
            diagram.seat_view(rec.kind, last.notation(), None)[0] != last.notation():
        # (a game of such a kind played in the open, e.g. «Формула 99» with real cards, hides
        # nothing: its seat_view is the position itself)
        raise HTTPException(403, "game %s hides the players' hands and is not over: its replay "
                                 "opens when it has ended" % rec.id)
    return rec, positions, actions


def replay_page(request):
    _need_table_access(request)
    from cargoboard.export.html import with_nav
    web = request.app.state.web
    rec = _record(request)
    links = " ".join('<a href="/games/%d/export.%s">%s</a>' % (rec.id, ext, ext.upper())
                     for ext in ("json", "txt", "svg", "html"))
    if rec.log is not None:  # a synced game: the board's own log (an import has none)
        links += ' <a href="/games/%d/export.log" title="the board\'s log, byte for byte' \
                 '%s">LOG</a>' % (rec.id, " (damaged: its actions after the damage)"
                                  if rec.damage else "")
    links += (' <a id="cb-svg-step" href="/games/%d/export.svg?at=0" '
              'data-step-href="/games/%d/export.svg?at=">SVG of this step</a>' % (rec.id, rec.id))
    nav = ('<nav class="cb-nav"><a href="/">tables</a> <a href="/games">archive</a> '
           '<span class="cb-exports">export: %s</span> '
           '<form method="post" action="/games/%d/delete" class="cb-del">'
           '<input type="hidden" name="csrf" value="%s">'
           '<button type="submit" id="cb-delete">delete…</button></form></nav>'
           % (links, rec.id, web.keys.csrf))
    # (a replay opened with the host token, `--public`: its links need the cookie)
    return _remember_host(request, HTMLResponse(with_nav(_game_page(request, rec), nav)))


def _game_page(request, rec):
    """The replay page of the path's game without links (its export.html), kept
    (ReplayPages): 422 for a game that does not replay, 403 for a hidden game not over."""
    web = request.app.state.web
    # (the store by the path it is served from: another store there is told by the digest)
    return web.replays.page(str(web.db_path), rec, lambda: _game(request, rec))


EXPORTS = {"json": ("json", "application/json"), "txt": ("text", "text/plain; charset=utf-8"),
           "svg": ("svg", "image/svg+xml"), "html": ("html", "text/html; charset=utf-8"),
           "log": ("log", "application/octet-stream")}


def export_file(request):
    _need_table_access(request)
    from cargoboard.export.cli import raw_log, render
    ext = request.path_params["ext"]
    if ext not in EXPORTS:
        raise HTTPException(404, "no export format '%s' (json, txt, svg, html, log)" % shown(ext))
    fmt, media = EXPORTS[ext]
    if fmt == "html":  # the replay page without links, kept as /games/N keeps it
        rec = _record(request)
        at = _int_param(request, "at")
        if at is not None:
            raise HTTPException(400, "at applies to the svg export only")
        body = _game_page(request, rec)
    else:
        rec, positions, _ = _game(request)
        at = _int_param(request, "at", None, 0, len(positions) - 1)
        if at is not None and ext != "svg":
            raise HTTPException(400, "at applies to the svg export only")
        if fmt == "log":
            try:
                body = raw_log(rec)
            except CommandError as e:  # an imported game has none
                raise HTTPException(404, str(e)) from None
        else:
            body = render(rec, fmt, at, positions)
    name = "game%d%s.%s" % (rec.id, "" if at is None else "-%d" % at, ext)
    disposition = "inline" if ext == "svg" else 'attachment; filename="%s"' % name
    return Response(body, media_type=media, headers={"Content-Disposition": disposition})


async def delete_game(request):
    _need_table_access(request)
    web = request.app.state.web
    form = await request.form()
    _check_post(request, form)
    ref = _game_ref(request)
    if form.get("confirm") != "yes":
        rec, _, _ = await asyncio.to_thread(_game, request)
        return _render(request, "delete.html", rec=rec)
    def remove():
        with web.store():
            pass  # a missing, damaged or foreign store is refused here, never written
        try:
            with Store(web.db_path) as st:
                return st.delete(ref)
        except sqlite3.DatabaseError as e:  # (its games damaged: the delete is rolled back)
            raise store_error(web.db_path, e) from None
    try:
        rec = await asyncio.to_thread(remove)
    except StoreError as e:
        raise HTTPException(_store_status(e), str(e)) from None
    return RedirectResponse("/games?deleted=%d" % rec.id, status_code=303)


# --- errors ---------------------------------------------------------------------------------

def _wants_json(request):
    return "application/json" in request.headers.get("accept", "") or \
        request.url.path.startswith("/api/")


async def http_error(request, exc):
    # (a path's control characters, e.g. a NUL from /table/1%00, shown as escapes: \x00)
    exc.detail = terminal_text(exc.detail)
    if _wants_json(request):
        return JSONResponse({"error": exc.detail, "status": exc.status_code},
                            status_code=exc.status_code)
    if request.url.path.endswith("/events"):
        return PlainTextResponse(exc.detail + "\n", status_code=exc.status_code)
    return _render(request, "error.html", status=exc.status_code, status_code=exc.status_code,
                   message=exc.detail)


async def server_error(request, exc):
    # one line naming the request: the traceback follows from uvicorn ("Exception in ASGI
    # application": Starlette raises the exception again once this answer is sent)
    log.error("error serving %s: %s: %s", request.url.path, type(exc).__name__, exc)
    return PlainTextResponse("500: the server failed on this request (%s); its console says "
                             "more\n" % type(exc).__name__, status_code=500)


async def icon(request):
    """The browser's tab icon at the place every browser asks for one (/favicon.ico), for every
    page, the replays too (their HTML is the export's, a file that names no icon): without it
    each page's request was a 404 in the browser's console."""
    return Response((HERE / "static" / "icon.svg").read_bytes(), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=86400"})


def create_app(boards, db_path, keys=None, allowed_hosts=None, hub=None):
    """The ASGI app. boards: a cargoboard.web.boards.Boards (its on_change should be
    hub.notify); allowed_hosts: the Host headers served (None: any)."""
    keys = keys or Keys()
    hub = hub or Hub()
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["result_text"] = result_text
    templates.env.globals["when_text"] = when_text
    templates.env.globals["source_text"] = source_text
    templates.env.globals["game_title"] = diagram.title  # «Формула 99», not formula99
    routes = [
        Route("/", tables_page),
        Route("/events", all_events),
        Route("/table/{key}", table_page),
        Route("/table/{key}/events", table_events),
        Route("/table/{key}/sync", sync_now, methods=["POST"]),
        Route("/table/{key}/seat/{seat}", seat_page),
        Route("/table/{key}/seat/{seat}/events", seat_events),
        Route("/table/{key}/seat/{seat}/act", seat_act, methods=["POST"]),
        Route("/api/table/{key}", table_json),
        Route("/host", host_page),
        Route("/games", archive_page),
        Route("/games/{game}", replay_page),
        Route("/games/{game}/export.{ext}", export_file),
        Route("/games/{game}/delete", delete_game, methods=["POST"]),
        Route("/favicon.ico", icon),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.loop = asyncio.get_running_loop()
        yield
        hub.loop = None

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.web = Web(boards, db_path, keys, hub)
    app.state.templates = templates
    return app
