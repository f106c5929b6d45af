"""Following boards on their serial ports: one thread per board owns its port (pyserial, through
cargoboard.link) and keeps a snapshot of what the board reports.

The board is never polled for its game: after connecting, the follower subscribes to events and
LED frames (docs/protocol.md, EVENTS mask 3), asks `status`, `pos`, `state` and the move list
(a long game's from its log, LIST and READ, else `history FROM COUNT` in pages) once, and from
then on keeps up from the events alone:
`auto|confirm|end ACTION -> POSITION` adds an action, `undo ACTION -> POSITION` takes one back,
`state asking`, «Формула 99»'s `picker N` (its option picker opened) and a `button` press while
candidates are shown are when to ask for the `candidates`, `state mismatch` (and a piece moved
during one) when to ask `state` for the cells to put right (a game whose `state` loads code on
the board, «Формула 99», has them worked out here instead: its host part `live`, from `occ`
and the `change` events); a new game, a resumed or loaded one starts afresh. The position
shown is always the one the board reported last. A lost port (unplugged, the virtual board
stopped) is reopened every RECONNECT_S until the board answers again; a board that stays silent
is asked HELLO after QUIET_S, so one that hangs is noticed too.

The follower thread is the only user of its port: "sync now" runs in it too (sync() through
the same Link), events keep flowing meanwhile.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections import deque

from cargoboard import games
from cargoboard.link import Link, LinkError, BoardError, candidate_ports, parse_info
from cargoboard.logrecord import LogError, record_from_log
from firmware.system import linklog as LL
from firmware.system import link as L
from shared_rules.geometry import parse_cell

RECONNECT_S = 0.5     # how often a lost port is tried again
QUIET_S = 3.0         # a board silent this long is asked HELLO (is it still there?)
HISTORY_PAGE = 48     # actions per `history FROM COUNT` request (a reply holds at most 1 KB)
POLL_S = 0.02         # the thread's serial read slice
COMMAND_S = 5.0       # a seat's command waits this long per try for its one reply (3 tries)
log = logging.getLogger("cargoboard.web")

# Events after which the game is read afresh (`status`, `pos`, `state`, the move list): the
# app's, and every game's `GAME start ...` and `GAME resumed ...` (docs/serial-protocol.md).
APP_FRESH_PREFIXES = ("game ", "load ", "log resumed")


def fresh_prefixes():
    """APP_FRESH_PREFIXES and each game's start and resumed events, of the games registered
    now (games.register: a game registered after this module was imported is not left out)."""
    return APP_FRESH_PREFIXES + tuple(
        "%s %s" % (kind, what) for kind in games.kinds() for what in ("start", "resumed"))
MOVE_KINDS = ("auto", "confirm", "end")
# «Формула 99» reports an action by its 4-byte code, `HOW CODE ply=N` (HOW: auto, confirm,
# act, card, pick, undo; docs/board-formula99.md): its text and the position are read afresh.
CODED_ACTION = re.compile(r"^[a-z]+ [0-9a-f]{8} ply=\d+$")


def _cells(state_info):
    """The cells a `state` reply asks to put right: its `fix=a1,b2` where the board blinks fewer
    than differ (Cephalopod: a mistake's culprits), else its `diff=` (`-` or none: [])."""
    cells = state_info.get("fix") or state_info.get("diff") or ""
    return [c for c in cells.split(",") if c and c != "-"]


def _mismatch_part(kind):
    """The game's host part that works out a mismatch's places itself (its board's `state`
    loads code for each request: «Формула 99»), or None."""
    live = games.part(kind, "live") if kind else None
    return live if live is not None and hasattr(live, "mismatch_places") else None


class Follower:
    """One board on one port. `snapshot()` is the latest state (a dict, never mutated after it
    is published); `on_change(follower, what)` is called from the thread ('board' for the game
    and the connection, 'leds' for an LED frame, 'sync' for sync progress)."""

    def __init__(self, key, port, on_change=None, store_path=None):
        self.key = key
        self.port = port
        self.on_change = on_change or (lambda f, what: None)
        self.store_path = store_path
        self._stop = threading.Event()
        self._jobs = deque()
        self._events = deque()
        self._thread = None
        self._lock = threading.Lock()
        self.leds = None          # bytes of the last LED frame
        self._occ = None          # during a mismatch worked out here: the board's occupancy
        self.led_time = 0.0
        self.sync_state = {"running": False, "done": 0, "total": 0, "label": "", "result": ""}
        self._state = self._blank(connected=False, status="connecting to %s" % port)
        self.version = 0

    # --- life cycle ---------------------------------------------------------------------------
    def start(self):
        self._thread = threading.Thread(target=self._run, name="follow " + self.port, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def snapshot(self):
        with self._lock:
            return self._state

    def request_sync(self):
        """Queue a sync of this board's games into the store; False if one is running or the
        board is not connected."""
        with self._lock:
            if self.sync_state["running"] or not self._state["connected"]:
                return False
            self.sync_state = {"running": True, "done": 0, "total": 0, "label": "starting",
                               "result": ""}
        self._jobs.append(("sync",))
        self.on_change(self, "sync")
        return True

    def request_command(self, seat, command):
        """Queue a board command a seat's page sent (one its game's seat_actions offered);
        False if the board is not connected. The game is read afresh after it."""
        if not self.snapshot()["connected"]:
            return False
        self._jobs.append(("command", seat, command))
        return True

    # --- the state ----------------------------------------------------------------------------
    def _blank(self, **kw):
        s = {"key": self.key, "port": self.port, "connected": False, "status": "",
             "board": None, "fw": None, "app": None, "game": None, "position": None,
             "before": None, "last": None, "tracker": None, "candidates": [], "shown": 0,
             "mismatch": [], "moves": [], "notice": None, "time": time.time()}
        s.update(kw)
        return s

    def _publish(self, **changes):
        with self._lock:
            s = dict(self._state)
            s.update(changes)
            s["time"] = time.time()
            self._state = s
            self.version += 1
        self.on_change(self, "board")

    # --- the thread ---------------------------------------------------------------------------
    def _run(self):
        while not self._stop.is_set():
            try:
                link = Link(self.port, timeout=1.0, retries=3)
            except LinkError as e:
                self._lost("waiting for the board on %s (%s)" % (self.port, e))
                self._stop.wait(RECONNECT_S)
                continue
            try:
                self._session(link)
            except LinkError as e:
                self._lost("lost the board on %s: %s; reconnecting" % (self.port, e))
            except Exception as e:  # a bug must not end the thread: say so and start again
                log.exception("following %s", self.port)  # (its traceback, on the console)
                self._lost("error following %s: %s: %s; reconnecting" % (self.port,
                                                                       type(e).__name__, e))
            finally:
                link.close()
            self._stop.wait(RECONNECT_S)

    def _lost(self, status):
        s = self.snapshot()
        if s["connected"] or s["status"] != status:
            # (what the tracker did is not known while the board is away)
            self._publish(connected=False, status=status, candidates=[], tracker=None,
                          mismatch=[])
        if self.sync_state["running"]:
            self.sync_state = dict(self.sync_state, running=False, result="stopped: board lost")
            self.on_change(self, "sync")

    def _session(self, link):
        self._events.clear()
        self._occ = None
        link.on_event = self._events.append
        link.on_leds = self._leds
        info = link.hello()
        link.events(L.EV_TEXT | L.EV_LEDS)
        self._publish(connected=True, status="connected", board=info.get("board"),
                      fw=info.get("fw"), notice=None)
        self._refresh(link)
        last_rx = time.monotonic()
        while not self._stop.is_set():
            before = link.received
            link.poll(POLL_S, until=self._has_events)  # back at once with an event
            if link.received != before:
                last_rx = time.monotonic()
            while self._events:
                self._event(link, self._events.popleft())
            if self._jobs:
                job = self._jobs.popleft()
                if job[0] == "sync":
                    self._sync(link)
                else:
                    self._command(link, job[1], job[2])
                last_rx = time.monotonic()
            if time.monotonic() - last_rx > QUIET_S:
                link.hello()  # LinkError if the board is gone
                last_rx = time.monotonic()

    def _has_events(self):
        return bool(self._events)

    def _leds(self, frame):
        self.leds = bytes(frame)
        self.led_time = time.time()
        self.on_change(self, "leds")

    # --- reading the game ---------------------------------------------------------------------
    def _text(self, link, command):
        """A console command's reply text; None if the board refuses it (no game, a game
        without that command)."""
        try:
            return link.text(command, resend=True)  # the page's queries only read
        except BoardError:
            return None

    def _refresh(self, link, known=None):
        """Read the whole game again: status, position, tracker state, moves, candidates. With
        `known` (the move list read before, of the same game) the moves are read only from its
        last one on (_history)."""
        self._occ = None
        st = parse_info(self._text(link, "status") or "")
        app = st.get("state")
        game = st.get("game") if st.get("game") not in (None, "-") else None
        changes = {"app": app, "game": game, "position": None, "before": None, "last": None,
                   "tracker": None, "candidates": [], "shown": 0, "mismatch": [], "moves": []}
        if app == "play":
            pos = self._text(link, "pos")
            if pos and pos.startswith("ok "):
                changes["position"] = pos[3:].strip()
            tracker = parse_info(self._text(link, "state") or "")
            changes["tracker"] = tracker.get("state")
            if changes["tracker"] == "mismatch":
                changes["mismatch"] = self._mismatch(link, game, changes["position"], tracker)
            changes["moves"] = self._history(link, int(tracker.get("actions", "0") or 0),
                                             known or ())
            if changes["tracker"] in ("asking", "ready"):
                changes["candidates"], changes["shown"] = self._candidates(link)
        self._publish(**changes)

    def _history(self, link, expected, known=()):
        """The game's `expected` moves, read in pages of HISTORY_PAGE. With `known` (the list
        read before) only from known's last standing move on, read again as a check: after an
        action or a take-back the moves before it are the same. (Read whole after every action,
        a long «Формула 99» game replayed itself on the board for each page: ~2 s a page on the
        emulated Pico at 400 actions.) A check that fails reads the game whole. Read whole, the
        moves of a game longer than a page come from its log if the board writes one
        (_logged_moves)."""
        if not known and expected > HISTORY_PAGE:
            moves = self._logged_moves(link, expected)
            if moves is not None:
                return moves
        start = max(0, min(len(known), expected) - 1)
        moves = list(known[:start])
        while True:
            page = self._text(link, "history %d %d" % (len(moves), HISTORY_PAGE))
            if page is None or not page.startswith("ok"):
                return moves
            got = page[2:].split()
            if start and len(moves) == start and got[:1] != list(known[start:start + 1]):
                return self._history(link, expected)  # not the moves read before
            moves += got
            if len(got) < HISTORY_PAGE or len(moves) >= expected:
                return moves

    def _logged_moves(self, link, expected):
        """The moves of the game in play as its log on the board's flash has them (LIST, READ:
        the log's bytes, replayed here as sync does), if that is the board's whole game of
        `expected` moves; None if the board writes no log, or its log says otherwise (a game
        whose log stopped): then `history` is asked. The board reads its flash for this, where
        `history` has «Формула 99» play its game again for each page (34 s of the board's time
        at 400 actions on the emulated Pico: bench/formula99/web_read.py)."""
        try:
            playing = [g for g, _size, _crc, flags in link.games() if flags & LL.FLAG_PLAYING]
            if len(playing) != 1:
                return None
            raw = bytearray()
            while True:
                total, data = link.read(playing[0], len(raw))
                raw += data
                if not data or len(raw) >= total:
                    break
            moves = record_from_log(bytes(raw)).actions
        except (LinkError, BoardError, LogError):
            return None
        return list(moves) if len(moves) == expected else None

    def _mismatch(self, link, game, position, state_info=None):
        """The cells (places) to put right during a mismatch. From the `state` reply (given, or
        asked), unless the game's host part works them out (_mismatch_part: its board's
        `state` loads code): then from the board's occupancy, asked with `occ` at the first
        call of a mismatch and kept up from the `change` events after (self._occ)."""
        part = _mismatch_part(game)
        if part is not None and position is not None:
            if self._occ is None:
                words = (self._text(link, "occ") or "").split()
                try:
                    self._occ = bytearray.fromhex(words[2]) if words[:1] == ["ok"] else None
                except (IndexError, ValueError):
                    self._occ = None
            if self._occ is not None and len(self._occ) == 16:
                try:
                    return part.mismatch_places(position, bytes(self._occ))
                except Exception:  # (a position the host's rules refuse: the board says)
                    pass
            self._occ = None
        if state_info is None:
            state_info = parse_info(self._text(link, "state") or "")
        return _cells(state_info)

    def _candidates(self, link):
        lines = (self._text(link, "candidates") or "").split("\n")
        cands = []
        shown = 0
        for line in lines:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "cand":
                cands.append(parts[2])
            elif line.startswith("ok"):
                shown = int(parse_info(line).get("shown", "0") or 0)
        return cands, shown

    def _event(self, link, text):
        s = self.snapshot()
        kind, _, rest = text.partition(" ")
        if CODED_ACTION.match(text):
            self._refresh(link, known=s["moves"])
        elif kind in MOVE_KINDS or kind == "undo":
            action, arrow, position = rest.partition(" -> ")
            if not arrow:
                return
            moves = list(s["moves"])
            if kind == "undo":
                if moves and moves[-1] == action:
                    moves.pop()
                else:
                    moves = self._history(link, len(moves) + 1)
                self._publish(position=position.strip(), before=None, last=None, moves=moves,
                              candidates=[], app="play")
            else:
                moves.append(action)
                self._publish(position=position.strip(), before=s["position"], last=action,
                              moves=moves, candidates=[], app="play")
        elif kind == "state":
            state = rest.strip()
            self._occ = None  # a mismatch that begins is read afresh
            if state in ("asking", "ready"):
                cands, shown = self._candidates(link)
                self._publish(tracker=state, candidates=cands, shown=shown, mismatch=[])
            elif state == "mismatch":
                # which cells to put right, as the board blinks them red (asked once per
                # mismatch the LEDs show, not per press)
                self._publish(tracker=state, candidates=[], shown=0,
                              mismatch=self._mismatch(link, s["game"], s["position"]))
            else:
                self._publish(tracker=state, candidates=[], shown=0, mismatch=[])
        elif kind == "change" and s["tracker"] == "mismatch":
            # pieces moved while the board shows a mismatch: the red cells may be others now
            # (the LEDs' state did not change, so no `state` event says so)
            if self._occ is not None:  # worked out here: the change is all it takes
                for word in rest.split():
                    cell = parse_cell(word[1:])
                    if cell >= 0 and word[0] in "+-":
                        bit = 1 << (cell & 7)
                        self._occ[cell >> 3] = self._occ[cell >> 3] | bit if word[0] == "+" \
                            else self._occ[cell >> 3] & ~bit
                self._publish(mismatch=self._mismatch(link, s["game"], s["position"]))
            else:
                info = parse_info(self._text(link, "state") or "")
                if info.get("state") == "mismatch":
                    self._publish(mismatch=_cells(info))
        elif kind == "picker" or (kind == "button" and (
                s["tracker"] in ("asking", "ready") or s["candidates"])):
            # what the board offers changed with no state of its tracker's: «Формула 99»'s
            # option picker opened at rest (`picker N`), or a press stepped or closed what is
            # shown. (Not at every press: on the board `candidates` loads the game's console
            # code, and «Формула 99»'s card picker takes some 20 presses a card.)
            cands, shown = self._candidates(link)
            self._publish(candidates=cands, shown=shown)
        elif text.startswith(fresh_prefixes()):
            self._refresh(link)
        elif kind in ("error", "log", "over"):
            self._publish(notice=text)

    def _command(self, link, seat, command):
        try:
            # ONCE (a second run of `undo` would undo two moves): each try the same frame, which
            # the board runs once; waited for long (a board busy with a flash erase or a slow
            # emulator answers late)
            reply = link.text(command, timeout=COMMAND_S)
        except BoardError as e:
            reply = "err %s" % e
        # the same game: its moves from the last one read on (read whole, a 400-action
        # «Формула 99» game held the emulated Pico up for ~34 s after each card a seat played)
        self._refresh(link, known=self.snapshot()["moves"])
        # the board's word only (`ok`, `err`): its reply may echo the command, e.g. the card
        # a seat chose to lay face down, which the other seats' pages must not show
        self._publish(notice="seat %s: %s: %s" % (seat, command.split()[0],
                                                  (reply.split() or ["?"])[0]))

    # --- sync now -------------------------------------------------------------------------------
    def _sync(self, link):
        import sqlite3
        from cargoboard.store import Store, StoreError, default_path, store_error
        from cargoboard.sync import sync

        def progress(done, total, label):
            self.sync_state = {"running": True, "done": done, "total": total, "label": label,
                               "result": ""}
            self.on_change(self, "sync")

        result, over = "stopped: the board stopped answering; sync again", False
        try:
            with Store(self.store_path) as store:  # its folders made as sync's (folders_may_be_made)
                res = sync(link, store, on_progress=progress)
            result, over = res.summary(), True
        except StoreError as e:
            result, over = "not synced: %s" % e, True
        except sqlite3.Error as e:
            # SQLite's words alone ("database disk image is malformed": a store damaged past
            # its schema, which opening it does not read) name no store: said as the commands
            # and the archive say them
            path = self.store_path or default_path()
            result, over = "not synced: %s" % store_error(path, e), True
        except LinkError:
            raise
        except Exception as e:  # a bug: said, the board stays followed, and sync may run again
            log.exception("sync now of %s", self.port)  # (its traceback, on the console)
            result = "not synced: %s: %s" % (type(e).__name__, e)
        finally:  # whatever ended it, the sync is over: "a sync is running" must not stay
            s = self.sync_state
            self.sync_state = {"running": False, "done": s["total"] if over else s["done"],
                               "total": s["total"], "label": "", "result": result}
            self.on_change(self, "sync")


class Boards:
    """The boards `serve` follows: the ports given (--board, repeatable) or, without any, the
    boards there are (link.candidate_ports: on USB, and running virtual boards), looked for
    again every DISCOVER_S so that a board plugged in (or a sim started) later appears."""

    DISCOVER_S = 2.0

    def __init__(self, ports=(), on_change=None, store_path=None, discover=None):
        self.on_change = on_change
        self.store_path = store_path
        self.discover = not ports if discover is None else discover
        self.followers = []
        self._stop = threading.Event()
        self._thread = None
        seen = set()
        for p in ports:
            where = os.path.realpath(p)  # the same port named twice (or by a link) is one table
            if where not in seen:
                seen.add(where)
                self.add(p)

    def add(self, port):
        f = Follower(str(len(self.followers) + 1), port, self._changed, self.store_path)
        self.followers.append(f)
        f.start()
        return f

    def _changed(self, follower, what):
        if self.on_change:
            self.on_change(follower, what)

    def get(self, key):
        for f in self.followers:
            if f.key == key:
                return f
        return None

    def start(self):
        if self.discover:
            self._thread = threading.Thread(target=self._discover, name="discover", daemon=True)
            self._thread.start()
        return self

    def _discover(self):
        while not self._stop.is_set():
            known = {f.port for f in self.followers}
            for dev, _ in candidate_ports():
                if dev not in known:
                    self.add(dev)
            self._stop.wait(self.DISCOVER_S)

    def stop(self):
        self._stop.set()
        for f in self.followers:
            f.stop()
