"""Cargoboard main loop: HAL -> scanner -> game plug-in -> painter -> HAL.show, plus the
serial command handler (line protocol, docs/serial-protocol.md).

The app knows nothing of any particular game: games come from the registry
(firmware/games/__init__.py) by name (firmware/system/plugins.py, loaded with newgame.py to set
a game up) and follow the plug-in interface in docs/firmware.md.

The link (firmware/system/link.py), the console (console.py), the set-up of a new game
(newgame.py), the log's boot and command code (logboot.py, logcmd.py) are given the App
(logboot also the loader, plugins.load) and never import this module, so there is no import
circle; what they may use of it
(docs/firmware.md "The app's interface"): the attributes hal, glog, now, state, errors, game,
game_name, scanner, mask, events, shown / shown_any (the last frame shown), VERSION,
STATE_NAMES, and the methods emit, report_error, command, settings, setting, change_setting,
check_flash, press, abort, plugin_options, close_log, begin_log, resume_play, play_loaded.
"""

import gc
from firmware import hal as H
from firmware.drivers.scanner import Scanner, Buttons
from firmware.drivers.leds import Painter, WHITE, MAGENTA, RED, ORANGE, BLINK_SLOW, BLINK_FAST
from firmware.hal import unload

VERSION = "0.2"  # the firmware's version (HELLO, `hello`, the deploy stamp)

# The app's states.
IDLE = 0
SETUP = 1
PLAY = 2
STATE_NAMES = ("idle", "setup", "play")

# A console line: long enough for `new GAME position=...` (a Cargocube position with both
# expansions' cards for 8 players is about 520 characters, a КУБитва one about 230). The line
# buffer holds _LINE_SHORT, enough for the commands a host sends in play (`pos`, `status`,
# `card Qh`, `act draw1`, `candidates`); a longer line (a `new ... position=`) gets the room it
# needs while it lasts, so the heap does not keep 640 bytes for it (at the 64-bit unix port's
# 192k that was the hole a 2 KB move list missed; 320 kept for good was 256 B of the 700 B
# «Формула 99» is short of its 120 KiB free on the Pico).
_LINE_MAX = 640
_LINE_SHORT = 64
FRAME_OPEN_MS = 250  # a frame arrives in one burst; one open longer than this is dropped

# The app's console commands but `mem` and `status` (a host asks them often): in
# firmware/system/console.py, loaded for one of them (or an unknown command) and dropped after;
# a game's own commands go to the game.
CONSOLE = ("hello", "help", "occ", "mask", "new", "press", "events", "bright", "budget", "abort",
           "games", "logread", "logdel")

CORNERS = (0, 10, 110, 120)  # empty in every game's set-up: the flash-low warning in idle/setup


class App:
    # What the link shows and checks (it is given the App and does not import this module).
    VERSION = VERSION
    STATE_NAMES = STATE_NAMES

    def __init__(self, hal, stable_ms=30, cap=96, budget_ma=400, gamelog=None):
        self.hal = hal
        # The game log on the flash (firmware/system/gamelog.py), None without one. Games whose
        # plug-in has log_header() are logged: the header when the game starts, every action
        # and take-back the plug-in reports through options['record'] / ['record_undo'], the
        # moves it keeps in doubt through options['record_doubt'] (the header then says format
        # version 2: the plug-in's log_version), the end through options['record_over'].
        self.glog = gamelog
        self.flash_low = False
        self._resumed = False  # the game was resumed from the log: compare the first scan
        self.scanner = Scanner(stable_ms)
        self.buttons = Buttons(stable_ms)
        self.painter = Painter(cap, budget_ma)
        self.raw = bytearray(H.BITMAP_BYTES)
        self.mask = bytearray(H.BITMAP_BYTES)
        self.state = IDLE
        self.game = None
        self.game_name = ""
        self.options = None
        self.frame_no = 0
        self.now = 0
        self.errors = 0
        self.events = True
        self._injected = 0
        self._scanned = False  # the first full scan has been taken
        self._line = bytearray(_LINE_SHORT)
        self._line_len = 0
        self._line_bad = 0  # 1 too long, 2 bad character
        # Binary frames (docs/protocol.md) share the serial with the text console: a zero byte
        # opens a frame, the next zero closes it.
        # Loaded at the first zero byte (a host tool speaking frames), not at boot: a board
        # resuming a long game from its log needs the heap more than an idle protocol does.
        self.link = None
        self._frame = None
        self._frame_len = -1  # -1: not inside a frame, -2: skipping a too long one; else length
        self._frame_t0 = 0     # when the open frame began
        # Render on change (docs/firmware.md): what the last render showed.
        self._repaint = True        # force the next frame to render (new game, bright, ...)
        self._versioned = False     # the game has paint_version
        self._painted_state = -1
        self._painted_version = -1
        self._painted_errors = False
        self.shown = bytearray(H.FRAME_BYTES)  # the last frame given to hal.show
        self.shown_any = False

    # --- output ------------------------------------------------------------------------------
    def write_line(self, text):
        self.hal.serial_write(text.encode() + b"\n")

    def emit(self, text):
        """Asynchronous event `evt <text>` (plug-ins get this as options['emit']): a line on
        the console, an EVENT frame once a host subscribed to them (a host that subscribed to
        LED frames only still gets the lines)."""
        link = self.link
        if link is not None and link.events & 1:
            link.event(text)
        elif self.events:
            self.write_line("evt " + text)

    def report_error(self, where, e):
        self.errors += 1
        self.emit("error %s: %s: %s" % (where, type(e).__name__, e))

    # --- game log ------------------------------------------------------------------------------
    def check_flash(self):
        """Whether the flash is low (a new logged game would be refused); the idle/setup LEDs
        show it."""
        if self.glog is None:
            return
        try:
            low = self.glog.low()
        except Exception as e:
            self.report_error("log flash", e)
            return
        if low != self.flash_low:
            self.flash_low = low
            self._repaint = True
            if low:
                self.emit("log flash low free=%d" % self.glog.free_bytes())

    def _logged(self):
        """The number of the game being logged, 0 if none."""
        return self.glog.cur if self.glog is not None else 0

    def _log_write(self, where, fn, arg=None):
        """One write to the current game's log. Out of memory: once more after a collection.
        If it still fails the game goes on unlogged from here (the log stays a true prefix of
        the game, so it still replays): `evt error log ...` and `evt log stopped game=N`."""
        err = None
        for attempt in range(2):
            try:
                if arg is None:
                    fn()
                else:
                    fn(arg)
                return True
            except MemoryError as e:
                err = e
                gc.collect()
            except Exception as e:
                err = e
                break
        n = self.glog.cur
        self.glog.cur = 0
        self.report_error("log " + where, err)
        self.emit("log stopped game=%d" % n)
        return False

    def _record(self, payload):
        if self._logged():
            self._log_write("append", self.glog.append, payload)

    def _record_undo(self):
        if self._logged():
            self._log_write("undo", self.glog.undo)

    def _record_doubt(self, payload):
        if self._logged():
            self._log_write("doubt", self.glog.doubt, payload)

    def _record_over(self):
        n = self._logged()
        if n and not self.glog.closed:
            if self._log_write("finish", self.glog.finish):
                self.emit("log finished game=%d" % n)

    def close_log(self):
        """The app drops the current game: its log is closed (abandoned if still open)."""
        n = self._logged()
        if not n:
            return
        was_open = not self.glog.closed
        try:
            self.glog.close()
            if was_open:
                self.emit("log abandoned game=%d" % n)
        except Exception as e:
            self.glog.cur = 0
            self.report_error("log close", e)
        self.check_flash()

    def begin_log(self):
        g = self.game
        if self.glog is None or not hasattr(g, "log_header"):
            return
        err = None
        for attempt in range(2):
            try:
                variant, seats, start, rules = g.log_header()
                n = self.glog.begin(self.game_name, variant, seats, start, None, rules,
                                    self.hal.wall_time(), getattr(g, "log_version", 1))
                self.emit("log begin game=%d" % n)
                err = None
                break
            except MemoryError as e:
                # Right after a game's modules were loaded the heap is in pieces; once the
                # failed attempt's frames are gone a collection usually frees a block.
                err = e
                gc.collect()
            except Exception as e:
                err = e
                break
        if err is not None:
            self.report_error("log begin", err)
        self.check_flash()

    def plugin_options(self, opts):
        """Put the app's callbacks into a plug-in's options (docs/firmware.md): emit and the
        game log's record, record_undo, record_doubt, record_over."""
        opts["emit"] = self.emit
        opts["record"] = self._record
        opts["record_undo"] = self._record_undo
        opts["record_doubt"] = self._record_doubt
        opts["record_over"] = self._record_over

    # --- game lifecycle ------------------------------------------------------------------------
    def new_game(self, name, options):
        """Create a game and enter setup. Raises ValueError on failure (message for `err`).
        The game is made by firmware/system/newgame.py, loaded for it and dropped before the
        log begins (the set-up's high point)."""
        dropped = None
        for attempt in range(2):
            try:
                from firmware.system import newgame
                break
            except MemoryError as e:
                # the heap is too full even for the set-up's code: the old game goes first
                unload("firmware.system.newgame")
                unload("firmware.system.plugins")
                if attempt or self.game is None:
                    raise ValueError("%s: %s" % (type(e).__name__, e))
                dropped = self.game_name
                self.abort()
                gc.collect()
        try:
            g, opts, m, logged = newgame.make(self, name, options, dropped)
        finally:
            newgame = None
            unload("firmware.system.newgame")
            unload("firmware.system.plugins")
        gc.collect()
        self.close_log()
        if logged:
            gc.collect()
            self.glog.keep_spare()  # a block for the log's file opens, held through the setup
        self._resumed = False
        self._install(g, name, opts, m)
        self.state = SETUP
        self.emit("game %s setup missing=%d extra=%d" % (name, self._missing(), self._extra()))
        if m is None:
            self._start()
        else:
            self._check_setup()

    def _install(self, g, name, opts, m):
        """g, a plug-in's Game made with opts, is the game now; m its setup mask."""
        self.game = g
        self.game_name = name
        self.options = opts
        self._versioned = hasattr(g, "paint_version")
        self._repaint = True
        for i in range(H.BITMAP_BYTES):
            self.mask[i] = m[i] if m is not None else 0
        self.mask[15] &= 1

    def resume_play(self, g, name, opts, m):
        """The game resumed from the log (firmware/system/logboot.py) goes on: in play at once,
        and the first scan is compared with its position."""
        self._install(g, name, opts, m)
        self.state = PLAY
        self._resumed = True

    def play_loaded(self):
        """The game was given a position from outside (the host's LOAD, firmware/system/link.py):
        the old log ends (abandoned if open) and a new one starts at that position, so that
        every log replays from its own start; the game is in play and painted anew."""
        self.close_log()
        self.state = PLAY
        self.begin_log()
        self._repaint = True

    def setting(self, name):
        if name == "bright":
            return self.painter.cap
        if name == "budget":
            return self.painter.budget_ma
        return self.scanner.stable_ms

    def settings(self):
        """The settings a host or the console may change: (name, lowest, highest) each. bright:
        the LED brightness cap; budget: the LED current budget in mA, at most what keeps this
        board within USB power (its HAL's led_budget_max_ma, from the pin map, which
        circuit/power.py computes); debounce: the scanner's stable time in ms. Made when asked
        (a command), not kept."""
        return (("bright", 0, 255), ("budget", 0, self.hal.led_budget_max_ma),
                ("debounce", 0, 1000))

    def change_setting(self, name, v, check=False):
        """Set one of settings(); False if the name is unknown or v out of its range. check:
        only say so, set nothing (CONFIG checks its whole body before it sets any of it)."""
        for key, lo, hi in self.settings():
            if key == name and lo <= v <= hi:
                break
        else:
            return False
        if check:
            return True
        if name == "bright":
            self.painter.cap = v
        elif name == "budget":
            self.painter.budget_ma = v
        else:
            self.scanner.stable_ms = v
            self.buttons.stable_ms = v
        self._repaint = True
        return True

    def press(self, bit):
        """A button pressed from the console (`press`): taken as a debounced press next frame."""
        self._injected |= bit

    def abort(self):
        self.close_log()
        self._resumed = False
        self.game = None
        self.game_name = ""
        self.state = IDLE
        self._repaint = True

    def _missing(self):
        n = 0
        st = self.scanner.stable
        for i in range(H.BITMAP_BYTES):
            b = self.mask[i] & ~st[i] & 0xFF
            while b:
                b &= b - 1
                n += 1
        return n

    def _extra(self):
        n = 0
        st = self.scanner.stable
        for i in range(H.BITMAP_BYTES):
            b = st[i] & ~self.mask[i] & 0xFF
            while b:
                b &= b - 1
                n += 1
        return n

    def _check_setup(self):
        st = self.scanner.stable
        for i in range(H.BITMAP_BYTES):
            if st[i] != self.mask[i]:
                return
        self._start()

    def _start(self):
        self.state = PLAY
        self.begin_log()
        try:
            self.game.start()
        except Exception as e:
            self.report_error("start", e)
        self.emit("game %s started" % self.game_name)

    # --- frame -----------------------------------------------------------------------------------
    def run(self):
        """Frames forever. A failure inside one frame (even running out of memory) is counted,
        reported as an `evt error` line and the board goes on: a game is never lost to it."""
        while True:
            try:
                self.step()
            except (SystemExit, KeyboardInterrupt):
                raise
            except MemoryError as e:
                gc.collect()
                self.report_error("frame", e)
            except Exception as e:
                self.report_error("frame", e)

    def step(self):
        """One frame: wait for it, scan, dispatch, render or animate, show if changed."""
        hal = self.hal
        hal.wait_frame()
        now = hal.ticks_ms()
        self.now = now
        hal.read_sensors(self.raw)
        braw = hal.read_buttons()
        data = hal.serial_read()
        if data:
            self._feed(data)
        if self._frame_len != -1 and ((now - self._frame_t0) & 0x3FFFFFFF) > FRAME_OPEN_MS:
            # a stray zero (or a cut cable) left a frame open: back to the text console
            if self._frame_len > 0:
                self.link.error(0, 1, "incomplete frame dropped")  # link exists: a frame opened
            self._frame_len = -1
        if self.link is not None:
            self.link.tick(now)
        n = self.scanner.update(self.raw, now)
        presses = self.buttons.update(braw, now) | self._injected
        self._injected = 0
        if n:
            self._on_change(now)
        elif not self._scanned:
            # The first scan is taken as it is (no change reported): a board already set up
            # at power-on must still start its game, and a game resumed from the log compares
            # the board with its position (a difference shows as the game shows mistakes).
            if self.state == SETUP:
                self._check_setup()
            elif self.state == PLAY and self._resumed:
                try:
                    self.game.on_change(self.scanner.stable, now)
                except Exception as e:
                    self.report_error("on_change", e)
        self._scanned = True
        if presses:
            for j in range(H.N_BUTTONS):
                bit = 1 << j
                if presses & bit:
                    self._on_button(bit, now)
        if self.state == PLAY:
            try:
                self.game.tick(now)
            except Exception as e:
                self.report_error("tick", e)
        p = self.painter
        if self._needs_render(n):
            self._paint()
            dirty = True
        else:
            dirty = p.animate(self.frame_no)
        if dirty:
            # a render may give the same frame again (e.g. a plug-in without paint_version):
            # compared in C, so that the HAL is called only for a frame that differs
            f = p.frame
            if f != self.shown or not self.shown_any:
                self.shown[:] = f
                self.shown_any = True
                hal.show(f)
                if self.link is not None and self.link.events:
                    self.link.leds(f)
        self.frame_no += 1

    def _needs_render(self, n):
        """Whether this frame must be rendered from scratch: something the frame shows changed
        (app state, the game's paint_version, the stable occupancy in setup, the error LED,
        brightness/budget, a new game); else the painter only animates the blinking."""
        st = self.state
        if self._repaint or st != self._painted_state:
            return True
        if st == PLAY:
            if not self._versioned or self.game.paint_version != self._painted_version:
                return True
        elif st == SETUP and n:
            return True
        if st != PLAY and (self.errors > 0) != self._painted_errors:
            return True
        return False

    def _on_change(self, now):
        if self.events:
            ch = self.scanner.changed
            st = self.scanner.stable
            parts = []
            for i in range(H.BITMAP_BYTES):  # by byte: a few cells change, 121 calls cost ms
                b = ch[i]
                j = 0
                while b:
                    if b & 1:
                        c = (i << 3) + j
                        parts.append(("+" if (st[i] >> j) & 1 else "-") + H.cell_name(c))
                    b >>= 1
                    j += 1
            self.emit("change " + " ".join(parts))
        if self.state == SETUP:
            self._check_setup()
        elif self.state == PLAY:
            try:
                self.game.on_change(self.scanner.stable, now)
            except Exception as e:
                self.report_error("on_change", e)

    def _on_button(self, bit, now):
        self.emit("button " + H.button_name(bit))
        if self.state == PLAY:
            try:
                self.game.on_button(bit, now)
            except Exception as e:
                self.report_error("on_button", e)

    def _paint(self):
        p = self.painter
        p.begin(self.frame_no)
        st = self.state
        ver = self.game.paint_version if st == PLAY and self._versioned else -1
        errs = self.errors > 0
        if st == PLAY:
            try:
                self.game.paint(p, self.frame_no)
            except Exception as e:
                self.report_error("paint", e)
        if self.flash_low and st != PLAY:
            # the flash is low: a new game would be refused (the setup assist, drawn after,
            # wins on a corner where a piece is to be put or removed)
            for c in CORNERS:
                p.cell(c, ORANGE, 255, BLINK_SLOW)
        if st == SETUP:
            # setup assist: white slow blink = put a piece here, magenta fast blink = remove;
            # a game's setup_colour may say what goes there by colour, pattern and level
            m = self.mask
            s = self.scanner.stable
            # a game may say what goes on a cell (docs/firmware.md: setup_colour)
            what = getattr(self.game, "setup_colour", None)
            for i in range(H.BITMAP_BYTES):
                miss = m[i] & ~s[i] & 0xFF
                extra = s[i] & ~m[i] & 0xFF
                if miss | extra:
                    for j in range(8):
                        bit = 1 << j
                        if miss & bit:
                            c = (i << 3) + j
                            if what is None:
                                p.cell(c, WHITE, 255, BLINK_SLOW)
                            else:  # colour | pattern << 4 | level << 8; level 0: full, slow
                                v = what(c)
                                lv = v >> 8
                                p.cell(c, v & 15, lv or 255, (v >> 4) & 15 if lv else BLINK_SLOW)
                        elif extra & bit:
                            p.cell((i << 3) + j, MAGENTA, 255, BLINK_FAST)
        if self.errors and st != PLAY:
            p.led(H.SCORE_BASE, RED, 255, BLINK_FAST)
        p.finish()
        # what this render showed (only once it is complete: a frame that failed half-way
        # renders again next time)
        self._repaint = False
        self._painted_state = st
        self._painted_version = ver
        self._painted_errors = errs

    # --- serial --------------------------------------------------------------------------------
    def _start_link(self):
        from firmware.system.link import Link
        from firmware.drivers.frames import MAX_WIRE
        self.link = Link(self)
        self._frame = bytearray(MAX_WIRE)

    def _feed(self, data):
        fr = self._frame
        for ch in data:
            n = self._frame_len
            if n >= 0:
                # inside a frame: collect up to the closing zero
                if ch == 0:
                    if n:
                        self._frame_len = -1
                        self.link.handle_block(memoryview(fr)[:n])
                    # an empty block (two zeros): stay in frame mode
                elif n < len(fr):
                    fr[n] = ch
                    self._frame_len = n + 1
                else:
                    self._frame_len = -2  # too long: dropped up to the closing zero
                    self.link.error(0, 1, "frame too long")
                continue
            if n == -2:
                if ch == 0:
                    self._frame_len = -1
                continue
            if ch == 0:
                if self.link is None:
                    self._start_link()
                    fr = self._frame
                self._frame_len = 0
                self._frame_t0 = self.now
                self._line_len = 0
                self._line_bad = 0
                self._line_short()
            elif ch == 10:  # \n
                bad = self._line_bad
                n = self._line_len
                self._line_len = 0
                self._line_bad = 0
                if bad == 1:
                    self.write_line("err line too long (max %d characters)" % (_LINE_MAX - 1))
                elif bad == 2:
                    self.write_line("err bad character in line (printable ASCII only)")
                else:
                    self._line_cmd(bytes(self._line[:n]).decode())
                self._line_short()
            elif ch == 13:
                pass
            elif ch == 8 or ch == 127:
                if self._line_len:
                    self._line_len -= 1
            elif ch == 9 or 32 <= ch < 127:
                if self._line_len >= _LINE_MAX - 1:
                    self._line_bad = 1
                else:
                    if self._line_len == len(self._line):  # a long line: room while it lasts
                        room = bytearray(_LINE_MAX)
                        room[:self._line_len] = self._line
                        self._line = room
                    self._line[self._line_len] = ch
                    self._line_len += 1
            else:
                if not self._line_bad:
                    self._line_bad = 2

    def _line_short(self):
        """A long line's room is given back once the line is over (or cut off by a frame)."""
        if len(self._line) > _LINE_SHORT:
            self._line = bytearray(_LINE_SHORT)

    def _line_cmd(self, line):
        words = line.split()
        if not words:
            return
        if self.link is not None:
            self.link.line_seen()
        try:
            r = self.command(words)
        except Exception as e:
            self.errors += 1
            r = "err %s: %s" % (type(e).__name__, e)
        if r is None:
            return
        if isinstance(r, str):
            self.write_line(r)
        else:
            # Long replies come as an iterable of lines, written one by one so that only one
            # line is in memory at a time.
            try:
                for line in r:
                    self.write_line(line)
            except Exception as e:
                self.errors += 1
                self.write_line("err %s: %s" % (type(e).__name__, e))

    def command(self, words):
        """Handle one command line (split in words). Returns the reply: a text, or an iterable of
        lines (the last one ok/err)."""
        cmd = words[0].lower()
        if cmd == "mem":
            # the heap's own figures: taken here, before any module is loaded for the command
            gc.collect()
            r = "ok alloc=%d free=%d" % (gc.mem_alloc(), gc.mem_free())
            from firmware.system import memcmd  # loaded for the command, then dropped
            r += memcmd.largest()
            memcmd = None
            unload("firmware.system.memcmd")
            return r
        if cmd == "status":
            return self._status()
        if cmd not in CONSOLE and self.game is not None:
            try:
                r = self.game.command(words)
            except Exception as e:
                return "err %s" % (e,) if isinstance(e, ValueError) else "err %s: %s" % (type(e).__name__, e)
            if r is not None:
                if not isinstance(r, str):
                    return r  # an iterable of reply lines, the last one ok/err
                if r.startswith("ok") or r.startswith("err") or "\n" in r:
                    return r
                return "ok " + r
        # the app's own commands, and the reply to an unknown one
        from firmware.system import console  # loaded for the command, then dropped
        try:
            r = console.command(self, words)
        finally:
            console = None
            unload("firmware.system.console")
            unload("firmware.system.plugins")  # the registry's names for hello, help, new
        if not isinstance(r, tuple):
            return r
        # `new GAME ...`, read by the console: the game is made with the console gone
        try:
            self.new_game(r[0], r[1])
        except ValueError as e:
            return "err %s" % (e,)
        if self.state == PLAY:
            return "ok started"
        return "ok setup missing=%d extra=%d" % (self._missing(), self._extra())

    def _status(self):
        sc = "0,0,0,0"
        if self.game is not None and self.state == PLAY:
            try:
                s = self.game.scores()
                sc = ",".join([str(x) for x in s])
            except Exception as e:
                self.report_error("scores", e)
        extra = ""
        if self.state == SETUP:
            extra = " missing=%d extra=%d" % (self._missing(), self._extra())
        return "ok state=%s game=%s t=%d frame=%d occ=%d pending=%d scores=%s errors=%d ma=%d%s" % (
            STATE_NAMES[self.state], self.game_name or "-", self.now, self.frame_no,
            H.bit_count(self.scanner.stable), self.scanner.pending(), sc, self.errors,
            self.painter.last_ma, extra)
