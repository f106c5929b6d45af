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
# A request type with this bit (NEW, CONFIG, LOAD, TEXT) runs at most once: its repeat (the same
# type, seq and body next) gets the reply kept from the first, and does not run again.
ONCE = 0x20

# Error codes (first byte of an ERROR body; the rest is a message).
E_FRAME = 1      # the frame itself was bad (COBS, length, CRC): seq unknown, 0 in the reply
E_UNKNOWN = 2    # unknown request type
E_REQUEST = 3    # bad request body
E_FAILED = 4     # the request was understood but could not be done (message says why)

EV_TEXT = 1      # EVENTS mask: event frames (the `evt` texts)
EV_LEDS = 2      # EVENTS mask: LED frames whenever the LEDs change

CTRL_C_IDLE_MS = 3000  # Ctrl-C comes back this long after the last frame


class Link:
    def __init__(self, app):
        self.app = app
        self.events = 0          # EV_* mask; nonzero: events go out as frames, not lines
        self.last_frame_ms = -1  # time of the last good frame (-1: no session)
        self.frames_in = 0
        self.bad_frames = 0
        self.once = None         # [type, seq, body, reply frame]: the last request, a ONCE one
        # the log requests' state (firmware/system/linklog.py)
        self.crc_cache = {}      # game_no -> (size, crc32, state) of games seen
        self.log_buf = None      # MAX_BODY bytes, for reading logs (made at the first use)
        self.confirmed = []      # games confirmed, deleted by tick() (gone for the host)
        self.logs = False        # linklog loaded for a host's log request (dropped: _forget_logs)
        self.held = None         # (game, size): the finished game the app still shows, among
        #                          confirmed but kept until the app moves on (linklog.tick)

    # --- output -----------------------------------------------------------------------------
    def send(self, typ, seq, body=b""):
        f = F.encode(typ, seq, body)
        once = self.once
        if once is not None and seq and seq == once[1]:
            once[3] = f  # the reply to a ONCE request: kept for its repeats
        self.app.hal.serial_write(f)

    def error(self, seq, code, message):
        b = bytearray((code,))
        b += message.encode()
        if len(b) > F.MAX_BODY:
            b = b[:F.MAX_BODY]
        self.send(ERROR, seq, b)

    def bad_request(self, seq, message):
        self.error(seq, E_REQUEST, message)

    def failed(self, seq, message):
        self.error(seq, E_FAILED, message)

    def event(self, text):
        b = text.encode()
        self.send(EVENT, 0, b[:F.MAX_BODY])

    def leds(self, frame):
        if self.events & EV_LEDS:
            self.send(LEDS, 0, frame)

    # --- session ------------------------------------------------------------------------------
    def tick(self, now):
        """Once a frame: give Ctrl-C back to the REPL once the host has gone quiet; delete a
        confirmed game while it is (linklog.tick)."""
        quiet = ((now - self.last_frame_ms) & 0x3FFFFFFF) if self.last_frame_ms >= 0 else -1
        if quiet > CTRL_C_IDLE_MS:
            self.last_frame_ms = -1
            self.app.hal.set_ctrl_c(True)
            quiet = -1
        if self.confirmed:
            from firmware.system import linklog
            linklog.tick(self, quiet)
        elif quiet < 0 and self.logs:
            self._forget_logs()

    def _forget_logs(self):
        """The host has gone and no confirmed game waits: what its log requests loaded goes
        too (the read buffer, the CRCs seen, linklog and logread: 5.2 KB on the emulated
        RP2040), so that the next game's set-up has the heap. A host's next request loads them
        again."""
        self.logs = False
        self.log_buf = None
        self.crc_cache = {}
        from firmware.hal import unload
        unload("firmware.system.linklog")
        unload("firmware.system.logread")

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
        # A ONCE request is kept with its reply until the next good frame: the host sends the
        # same frame again whenever it cannot tell whether it ran (a damaged frame, no reply),
        # and no other frame between the copies (docs/protocol.md, "Requests and replies")
        once = self.once
        self.once = None
        if typ & ONCE:
            if once is not None and once[0] == typ and once[1] == seq and once[2] == body:
                self.once = once
                if once[3] is not None:
                    self.app.hal.serial_write(once[3])
                return
            if NEW <= typ ^ ONCE <= TEXT:  # NEW, CONFIG, LOAD, TEXT
                self.once = [typ, seq, body, None]
                typ ^= ONCE
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
            # `time=SECONDS`: the host's clock, taken if it is whole seconds since 1970 UTC from
            # 2024 on and below 2**32 (the log header's u32); any other word or value is
            # ignored: an old host sends no body, and a HELLO never fails (docs/protocol.md;
            # nor runs out of memory on a thousand digits)
            for w in body.split():
                if w[:5] == b"time=" and len(w) < 16 and w[5:].isdigit():
                    t = int(w[5:])
                    # (small ints: a constant of 2**30 or more costs the heap an object)
                    if t >> 32 == 0 and t // 86400 >= 19723:  # day 19723: 2024-01-01
                        app.hal.set_wall_time(t)
            self.send(HELLO | 0x80, seq, self.info().encode())
        elif typ == LIST or typ == READ or typ == CONFIRM or typ == FETCH:
            from firmware.system import linklog  # loaded at a host's first request about logs
            self.logs = True
            if typ == LIST:
                linklog.list_games(self, typ, seq, body)
            elif typ == READ:
                linklog.read(self, typ, seq, body)
            elif typ == CONFIRM:
                linklog.confirm(self, typ, seq, body)
            else:
                linklog.fetch(self, typ, seq, body)
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
        # a console line: the console's characters only, as the console drops a line with any
        # other byte, while split() here ran it (`abort \xc3\xb1` aborted the game)
        for i in range(len(body)):
            ch = body[i]
            if ch != 9 and not 32 <= ch < 127:
                self.error(seq, E_REQUEST, "bad character 0x%02x at byte %d (printable ASCII only)"
                           % (ch, i))
                return
        text = body.decode()
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
            n = 0
            for g in log.numbers():
                if g not in self.confirmed:  # gone for the host already
                    n += 1
            extra = " free=%d games=%d" % (log.free_bytes(), n)
        else:
            extra = " free=0 games=0"
        return "cargoboard fw=%s proto=%d once=1 clock=1 rules=%s build=%s board=%s hal=%s state=%s%s" % (
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
        """CONFIG: `bright=N budget=MA debounce=MS` (any of them; none: just report). All or
        nothing: every word is checked before any is set (`bright=40 bogus` set bright)."""
        app = self.app
        words = text.split()
        for check in (True, False):
            for w in words:
                i = w.find("=")
                try:
                    v = int(w[i + 1:]) if i > 0 else -1
                except ValueError:
                    v = -1
                if not app.change_setting(w[:i] if i > 0 else w, v, check):
                    return "err bad setting '%s' (%s)" % (
                        w, " ".join(["%s=%d..%d" % r for r in app.settings()]))
        return "ok " + " ".join(["%s=%d" % (r[0], app.setting(r[0])) for r in app.settings()])

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
