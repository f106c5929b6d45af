# The binary side of the USB serial (docs/protocol.md): framed, checksummed requests from the
# host tools, answered with one reply frame each; event and LED frames while subscribed.
#
# The app hands over every block read between two zero bytes (firmware.drivers.frames). Nothing here
# can stop the board: a bad frame gets an error frame back, an exception in a handler too.
# The link is given the App and uses only its interface for the system's modules
# (firmware/system/app.py); it never imports the app.

from firmware.drivers import frames as F

# Request types (host -> board). A reply has the request's type | 0x80 and its seq.
HELLO = 0x01
LIST = 0x02
READ = 0x03
CONFIRM = 0x04
EVENTS = 0x05
NEW = 0x06
CONFIG = 0x07
LOAD = 0x08
TEXT = 0x09
REPL = 0x0A
FETCH = 0x0B
# Board -> host, unsolicited (seq 0).
EVENT = 0x40
LEDS = 0x41
ERROR = 0x7F

# Error codes (first byte of an ERROR body; the rest is a message).
E_FRAME = 1      # the frame itself was bad (COBS, length, CRC): seq unknown, 0 in the reply
E_UNKNOWN = 2    # unknown request type
E_REQUEST = 3    # bad request body
E_FAILED = 4     # the request was understood but could not be done (message says why)

EV_TEXT = 1      # EVENTS mask: event frames (the `evt` texts)
EV_LEDS = 2      # EVENTS mask: LED frames whenever the LEDs change

LIST_PAGE = 64   # games per LIST reply
LIST_ENTRY = 13  # bytes per game in a LIST reply: game u32, size u32, crc32 u32, flags u8
FLAG_CLOSED = 1  # LIST flags: the log is finished (over or abandoned)
FLAG_PLAYING = 2 # the game is being played (its log still grows)
READ_FRAME = F.MAX_BODY - 12  # data bytes in one READ reply frame (after game, offset, size)
READ_MAX = 0xFFFF  # a READ asks for up to this many bytes: they come in READ_FRAME pieces
# FETCH reply frames start with a tag: a piece of a log (u32 game, u32 offset, u32 total, the
# bytes: up to FETCH_DATA), a game's end (its LIST entry), the reply's end (u8 more)
FETCH_PIECE = 0x44  # 'D'
FETCH_GAME = 0x47   # 'G'
FETCH_END = 0x45    # 'E'
FETCH_DATA = F.MAX_BODY - 13
FETCH_MS = 150     # a FETCH starts no further game after this long: the frame loop waits meanwhile
FETCH_GAMES = 32   # nor more games than this (a host confirms them in one CONFIRM)
CONFIRM_MAX = F.MAX_BODY // 8  # games one CONFIRM may name
DELETE_QUIET_MS = 250  # confirmed games are deleted one a frame once the host is this quiet
CTRL_C_IDLE_MS = 3000  # Ctrl-C comes back this long after the last frame


class Link:
    def __init__(self, app):
        self.app = app
        self.events = 0          # EV_* mask; nonzero: events go out as frames, not lines
        self.last_frame_ms = -1  # time of the last good frame (-1: no session)
        self.frames_in = 0
        self.bad_frames = 0
        self._crc_cache = {}     # game_no -> (size, crc32, state) of games seen
        self._buf = None         # MAX_BODY bytes, for reading logs (made at the first use)
        self._doomed = []        # games confirmed, deleted by tick() (gone for the host)

    # --- output -----------------------------------------------------------------------------
    def send(self, typ, seq, body=b""):
        self.app.hal.serial_write(F.encode(typ, seq, body))

    def error(self, seq, code, message):
        b = bytearray((code,))
        b += message.encode()
        if len(b) > F.MAX_BODY:
            b = b[:F.MAX_BODY]
        self.send(ERROR, seq, b)

    def event(self, text):
        b = text.encode()
        self.send(EVENT, 0, b[:F.MAX_BODY])

    def leds(self, frame):
        if self.events & EV_LEDS:
            self.send(LEDS, 0, frame)

    # --- session ------------------------------------------------------------------------------
    def tick(self, now):
        """Once a frame: give Ctrl-C back to the REPL once the host has gone quiet; delete a
        confirmed game while the host is quiet (a littlefs remove: ~3 ms on the RP2040, ~90 ms
        when it compacts the directory: not in the time of the host's requests)."""
        quiet = ((now - self.last_frame_ms) & 0x3FFFFFFF) if self.last_frame_ms >= 0 else -1
        if quiet > CTRL_C_IDLE_MS:
            self.last_frame_ms = -1
            self.app.hal.set_ctrl_c(True)
        if self._doomed and (quiet < 0 or quiet >= DELETE_QUIET_MS):
            from firmware.system import logread as LR
            try:
                LR.delete(self.app.glog, self._doomed[0], True)
            except (ValueError, OSError):
                pass  # gone already (serial `logdel`)
            self._doomed.pop(0)

    def line_seen(self):
        """A text line arrived: the console user gets text events again."""
        self.events = 0

    # --- input --------------------------------------------------------------------------------
    def handle_block(self, block):
        r = F.decode(block)
        if isinstance(r, int):
            self.bad_frames += 1
            self.error(0, E_FRAME, ("bad COBS", "bad length", "bad CRC")[r - 1])
            return
        typ, seq, body = r
        self.frames_in += 1
        if self.last_frame_ms < 0:
            # binary session: a 0x03 inside a frame must not interrupt the firmware
            self.app.hal.set_ctrl_c(False)
        self.last_frame_ms = self.app.now
        try:
            self._dispatch(typ, seq, body)
        except MemoryError:
            import gc
            gc.collect()
            self.error(seq, E_FAILED, "out of memory")
        except Exception as e:
            self.app.errors += 1
            self.error(seq, E_FAILED, "%s: %s" % (type(e).__name__, e))

    def _dispatch(self, typ, seq, body):
        app = self.app
        if typ == HELLO:
            self.send(HELLO | 0x80, seq, self.info().encode())
        elif typ == LIST:
            self._list(seq, body)
        elif typ == READ:
            self._read(seq, body)
        elif typ == CONFIRM:
            self._confirm(seq, body)
        elif typ == FETCH:
            self._fetch(seq, body)
        elif typ == EVENTS:
            if len(body) != 1:
                self.error(seq, E_REQUEST, "EVENTS wants one byte (1 events, 2 LED frames)")
                return
            self.events = body[0] & (EV_TEXT | EV_LEDS)
            if self.events & EV_LEDS and app.shown_any:
                self.leds(app.shown)  # the subscriber gets the frame now, not at the next change
            self.send(EVENTS | 0x80, seq, bytes((self.events,)))
        elif typ == NEW or typ == CONFIG or typ == LOAD or typ == TEXT:
            self._text(typ, seq, body)
        elif typ == REPL:
            if not app.hal.has_repl:
                self.error(seq, E_FAILED, "this board (%s) has no REPL" % app.hal.name)
                return
            self.send(REPL | 0x80, seq)
            self.last_frame_ms = -1
            app.hal.set_ctrl_c(True)
            raise SystemExit  # out of App.run; main.py returns and the REPL prompt follows
        else:
            self.error(seq, E_UNKNOWN, "unknown request type 0x%02x" % typ)

    def _text(self, typ, seq, body):
        try:
            text = body.decode()
        except UnicodeError:
            self.error(seq, E_REQUEST, "body is not UTF-8 text")
            return
        app = self.app
        if typ == NEW:
            words = ["new"] + text.split()
        elif typ == CONFIG:
            r = self.configure(text)
            self._reply_text(typ, seq, r)
            return
        elif typ == LOAD:
            r = self.load_position(text.strip())
            self._reply_text(typ, seq, r)
            return
        else:
            words = text.split()
        if not words:
            self.error(seq, E_REQUEST, "empty command")
            return
        r = app.command(words)
        if r is not None and not isinstance(r, str):
            lines = []
            for line in r:
                lines.append(line)
            r = "\n".join(lines)
        self._reply_text(typ, seq, r or "ok")

    def _reply_text(self, typ, seq, r):
        b = r.encode()
        if len(b) > F.MAX_BODY:
            self.error(seq, E_FAILED, "reply too long (%d bytes)" % len(b))
            return
        last = r[r.rfind("\n") + 1:]
        if last.startswith("err"):
            self.error(seq, E_FAILED, last[4:] if len(last) > 4 else last)
            return
        self.send(typ | 0x80, seq, b)

    # --- what only the host asks (kept here, not in the resident app: loaded with the link) ----
    def info(self):
        """The HELLO text: versions, board, space (docs/protocol.md)."""
        from shared_rules import versions
        app = self.app
        log = app.glog
        bid = (log.board if log is not None else "") or "-"
        if log is not None:
            # the list of games is kept for the sync that HELLO usually begins
            extra = " free=%d games=%d" % (log.free_bytes(), len(self._games(log)))
        else:
            extra = " free=0 games=0"
        return "cargoboard fw=%s proto=%d rules=%s build=%s board=%s hal=%s state=%s%s" % (
            app.VERSION, F.PROTOCOL_VERSION, versions.text(), self._build(), bid,
            app.hal.name, app.STATE_NAMES[app.state], extra)

    def _build(self):
        """The build id `cargoboard deploy` stamped on the flash (cargoboard.ver), or '-'."""
        root = self.app.hal.flash_root()
        if not root:
            return "-"
        try:
            with open(root.rstrip("/") + "/cargoboard.ver") as f:
                for w in f.read().split():
                    if w.startswith("build="):
                        return w[6:]
        except OSError:
            pass
        return "-"

    def configure(self, text):
        """CONFIG: `bright=N budget=MA debounce=MS` (any of them; none: just report)."""
        app = self.app
        for w in text.split():
            i = w.find("=")
            try:
                v = int(w[i + 1:]) if i > 0 else -1
            except ValueError:
                v = -1
            if not app.change_setting(w[:i] if i > 0 else w, v):
                return "err bad setting '%s' (%s)" % (
                    w, " ".join(["%s=%d..%d" % r for r in app.SETTINGS]))
        return "ok " + " ".join(["%s=%d" % (r[0], app.setting(r[0])) for r in app.SETTINGS])

    def load_position(self, text):
        """LOAD (resync): the game goes on from the host's position."""
        app = self.app
        g = app.game
        if g is None:
            return "err no game (new GAME ... first)"
        if not hasattr(g, "load"):
            return "err game %s cannot load a position" % app.game_name
        try:
            g.load(text)
        except ValueError as e:
            return "err %s" % (e,)
        # the old log ends (abandoned if open) and a new one starts at the loaded position, so
        # every log replays from its own start
        app.play_loaded()
        try:
            g.on_change(app.scanner.stable, app.now)  # compare the board with it at once
        except Exception as e:
            app.report_error("on_change", e)
        app.emit("load %s" % app.game_name)
        return "ok loaded"

    # --- the game log -------------------------------------------------------------------------
    # What a host asks of the logs is firmware/system/logread.py: imported by the handlers below
    # at a host's first request about the logs and kept (a board that only plays never loads it).
    def _size(self, log, game_no):
        """Bytes in a game's log, -1 if there is no such game (or it is confirmed)."""
        if game_no in self._doomed:
            return -1
        from firmware.system import logread as LR
        try:
            return LR.size(log, game_no)
        except ValueError:
            return -1

    def _games(self, log):
        """[(game, size)] of the games on the flash, oldest first, less those confirmed."""
        from firmware.system import logread as LR
        out = LR.listing(log)
        if self._doomed:
            out = [e for e in out if e[0] not in self._doomed]
        return out

    def _log(self, seq):
        log = self.app.glog
        if log is None:
            self.error(seq, E_FAILED, "no game log on this board (flash not mounted)")
        return log

    def _buffer(self):
        """One reused buffer of a frame body's size: READ's pieces, LIST's scans, FETCH's
        frames (the log's bytes read straight into the frame)."""
        if self._buf is None:
            self._buf = bytearray(F.MAX_BODY)
        return self._buf

    def _scan(self, log, game_no, size):
        """(CRC-32, state) of a game's log of this size: read once (one open, the log in
        pieces into one buffer), then kept while its size stays."""
        c = self._crc_cache.get(game_no)
        if c is None or c[0] != size:
            from firmware.system import logread as LR
            crc, state = LR.scan(log, game_no, size, self._buffer())
            c = (size, crc, state)
            self._crc_cache[game_no] = c
        return c

    def _crc(self, log, game_no, size):
        return self._scan(log, game_no, size)[1]

    def _list(self, seq, body):
        log = self._log(seq)
        if log is None:
            return
        start = F.u32(body, 0) if len(body) >= 4 else 0
        out = bytearray(2)
        n = 0
        more = 0
        current = log.current()
        from firmware.system import logread as LR
        for game_no, size in self._games(log):
            if game_no < start:
                continue
            if n == LIST_PAGE:
                more = 1
                break
            if game_no == current and not LR.state(log, game_no, size):
                # a game still being written has no final checksum yet
                crc, flags = 0, FLAG_PLAYING
            else:
                _, crc, closed = self._scan(log, game_no, size)
                flags = FLAG_CLOSED if closed else 0
            F.put_u32(out, game_no)
            F.put_u32(out, size)
            F.put_u32(out, crc)
            out.append(flags)
            n += 1
        out[0] = n
        out[1] = more
        self.send(LIST | 0x80, seq, out)

    def _game_request(self, seq, body, length, usage):
        """(log, game number, its log's size or -1) for a request about one game whose body
        starts with the game number; None (an error frame sent) if the body or the log is
        missing."""
        if len(body) != length:
            self.error(seq, E_REQUEST, usage)
            return None
        log = self._log(seq)
        if log is None:
            return None
        game_no = F.u32(body, 0)
        return log, game_no, self._size(log, game_no)

    def _read(self, seq, body):
        r = self._game_request(seq, body, 10, "READ wants game u32, offset u32, length u16")
        if r is None:
            return
        log, game_no, size = r
        if size < 0:
            self.error(seq, E_FAILED, "no game %d on the board" % game_no)
            return
        off = F.u32(body, 4)
        end = off + ((body[8] << 8) | body[9])
        if end > size:
            end = size
        if off >= end:
            self._read_reply(seq, game_no, off, size, b"")
            return
        # the bytes asked for, in as many reply frames as it takes, the file opened once
        buf = memoryview(self._buffer())[:READ_FRAME]
        from firmware.system import logread as LR
        f = LR.open_log(log, game_no)
        try:
            f.seek(off)
            while off < end:
                k = f.readinto(buf)
                if not k:
                    break
                if k > end - off:
                    k = end - off
                self._read_reply(seq, game_no, off, size, memoryview(buf)[:k])
                off += k
        finally:
            f.close()

    def _read_reply(self, seq, game_no, off, size, data):
        out = bytearray(12 + len(data))
        out[0:4] = game_no.to_bytes(4, "big")
        out[4:8] = off.to_bytes(4, "big")
        out[8:12] = size.to_bytes(4, "big")
        out[12:] = data
        self.send(READ | 0x80, seq, out)

    def _confirm(self, seq, body):
        """CONFIRM of one or more (game, CRC-32) pairs, in order; a refused one (the CRC
        differs, the game is being played) ends it with an error naming that game. A game
        the app no longer writes is deleted by tick() once the host is quiet (gone for the
        host at once; a power cut before that leaves it, and the next sync confirms it
        again); the app's current one (finished, its board shows the end) at once."""
        n = len(body) // 8
        if n < 1 or n > CONFIRM_MAX or len(body) != 8 * n:
            self.error(seq, E_REQUEST, "CONFIRM wants 1..%d pairs of game u32, crc32 u32"
                       % CONFIRM_MAX)
            return
        log = self._log(seq)
        if log is None:
            return
        from firmware.system import logread as LR
        done = bytearray(n)
        for i in range(n):
            game_no = F.u32(body, 8 * i)
            crc = F.u32(body, 8 * i + 4)
            current = game_no == log.current()
            known = self._crc_cache.get(game_no)
            if known is not None and not current and game_no not in self._doomed:
                size = known[0]  # a log no longer written: as FETCH or LIST read it
            else:
                size = self._size(log, game_no)
                if size < 0:
                    continue  # already deleted (a confirm whose reply was lost): done all the same
                if current and not LR.state(log, game_no, size):
                    self.error(seq, E_FAILED, "game %d is still being played" % game_no)
                    return
            if self._crc(log, game_no, size) != crc:
                self.error(seq, E_FAILED, "game %d: checksum differs, not deleted" % game_no)
                return
            self._crc_cache.pop(game_no, None)
            if current:
                LR.delete(log, game_no, True)
            else:
                self._doomed.append(game_no)
            done[i] = 1
        self.send(CONFIRM | 0x80, seq, done)

    def _fetch(self, seq, body):
        """FETCH: every game from a number on, whole logs streamed after one request in pieces
        of up to `piece` bytes (one game from an offset: a transfer cut short), each followed
        by its LIST entry (the CRC-32 computed as it is read); a game being played gets its
        entry alone. Stops starting games after FETCH_MS or FETCH_GAMES (more=1 in the end
        frame: ask again)."""
        if len(body) != 14:
            self.error(seq, E_REQUEST, "FETCH wants first game u32, resumed game u32, "
                       "its offset u32, piece u16")
            return
        log = self._log(seq)
        if log is None:
            return
        from firmware.system import logread as LR
        first = F.u32(body, 0)
        resumed = F.u32(body, 4)
        skip = F.u32(body, 8)
        n = (body[12] << 8) | body[13]
        if n == 0 or n > FETCH_DATA:
            n = FETCH_DATA
        buf = self._buffer()
        head = memoryview(buf)[:13]
        data = memoryview(buf)[13:13 + n]
        current = log.current()
        hal = self.app.hal
        t0 = hal.ticks_ms()
        more = 0
        game_no = size = 0
        start = 0

        def piece(off, k):
            # a piece of the log in data[:k]: sent from the offset asked for on
            if off + k <= start:
                return
            if off < start:  # the piece that holds that offset: its tail alone (rare)
                data[:k - (start - off)] = bytes(data[start - off:k])
                k -= start - off
                off = start
            buf[0] = FETCH_PIECE
            head[1:5] = game_no.to_bytes(4, "big")
            head[5:9] = off.to_bytes(4, "big")
            head[9:13] = size.to_bytes(4, "big")
            self.send(FETCH | 0x80, seq, memoryview(buf)[:13 + k])

        sent = 0
        for game_no, size in self._games(log):  # listed once for HELLO and the FETCHes
            if game_no < first:
                continue
            if sent == FETCH_GAMES or sent and ((hal.ticks_ms() - t0) & 0x3FFFFFFF) > FETCH_MS:
                more = 1
                break
            sent += 1
            if game_no == current and not LR.state(log, game_no, size):
                crc, flags = 0, FLAG_PLAYING
            else:
                start = skip if game_no == resumed else 0
                try:
                    crc, closed = LR.scan(log, game_no, size, data, piece)
                except ValueError:
                    continue  # deleted since the list was made (serial `delete`)
                self._crc_cache[game_no] = (size, crc, closed)
                flags = FLAG_CLOSED if closed else 0
            out = bytearray((FETCH_GAME,))
            F.put_u32(out, game_no)
            F.put_u32(out, size)
            F.put_u32(out, crc)
            out.append(flags)
            self.send(FETCH | 0x80, seq, out)
        self.send(FETCH | 0x80, seq, bytes((FETCH_END, more)))
