"""Bring-up self-test, as a game plug-in: `new selftest` over the USB serial (docs/bringup.md).

It needs nothing from the app beyond the plug-in interface (docs/firmware.md).

Start: the board must read empty (setup mask = no cell), so the app's setup assist blinks every
cell that reads occupied (magenta, fast): a sensor stuck "occupied" shows at once. `new
selftest sensors` starts in the sensor phase; `empty=no` skips the empty-board check (for a
board with a sensor that cannot be cleared; occupancy is then only known from the first change).

Phase "leds": every LED red, then green, blue, white (through the brightness cap and the current
budget, as in a game), then "chase": one white LED walking along the data chain (150 ms each,
cell a1 first, score bars last), which shows the chain's order and where it breaks. Any button
(or `press next`) goes to the next step; after the chase, to the sensor phase.

Phase "sensors": a cell that reads occupied is white; a cell seen occupied at least once is dim
cyan; a cell never seen yet is dim orange. Pass a magnet over every cell: the tester sees the
coverage grow. The N score bar shows it as a gauge (seen / 121). The first five LEDs of the S bar
are the buttons confirm, next, undo, hint, end: dim white until pressed once, then yellow, and
bright white while the button reads pressed (debounced), as a cell reads occupied: a switch
stuck closed (or shorted) shows white with no hand on it, where a press count alone (one press
when it closed, or none if it was closed before the test began) could not tell it from a good
button or a dead one. The held state is the app's debounced buttons (`options['buttons']`,
given to a plug-in whose Game has an attribute `buttons`, kept there).

Serial commands (besides the app's): `seen` (counts), `seen reset`, `unseen` (the cells never
seen, by name), `buttons` (presses per button, and the buttons held now), `selftest
[leds|sensors]` (phase), `pos`, and on revision B `field [CELL]`: a cell's field, or every
occupied cell's, in 0.01 mT with its sign (the app's level scanner, `options['levels']`, kept
as `_levels`: a plug-in's attribute `levels` would ask for on_change at every step), so that
the magnets' polarity and the empty cells' zeros are checked from the console.
Events: `evt selftest leds STEP`, `evt selftest sensors`, `evt selftest seen CELL n=N`.
"""

from firmware import hal as H
from firmware.drivers.leds import WHITE, CYAN, ORANGE, YELLOW

LED_STEPS = ("red", "green", "blue", "white", "chase")
_RGB = (255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255)
CHASE_MS = 150
CHASE = 4
LEDS = 0
SENSORS = 1
PHASES = ("leds", "sensors")

SEEN_LEVEL = 64
UNSEEN_LEVEL = 24
BUTTON_IDLE_LEVEL = 24
COVERAGE_SEAT = 2       # the N score bar shows the coverage
BUTTON_SEAT_BASE = H.SCORE_BASE   # S bar: LED k = button k
_NAMES_PER_LINE = 16


def _noop(text):
    pass


class Game:
    # the options of `new` (firmware/system/newgame.py refuses others)
    OPTIONS = ("layout", "empty")
    buttons = None   # so firmware/system/newgame.py gives options['buttons'] (held: .state)

    def __init__(self, options):
        self.emit = options.get("emit") or _noop
        self.buttons = options.get("buttons")
        self._levels = options.get("levels")   # revision B only
        self.held = 0
        first = options.get("layout", "leds")
        if first not in PHASES:
            raise ValueError("selftest: start phase '%s' (leds or sensors)" % first)
        empty = options.get("empty", "yes")
        if empty not in ("yes", "no"):
            raise ValueError("selftest: empty=yes|no")
        self._check_empty = empty == "yes"
        self._first = PHASES.index(first)
        self.phase = LEDS
        self.step = 0
        self.chase = 0
        self._due = 0
        self.occ = bytearray(H.BITMAP_BYTES)
        self.seen = bytearray(H.BITMAP_BYTES)
        self.presses = bytearray(H.N_BUTTONS)
        self.nseen = 0
        self.now = 0
        self.paint_version = 0

    # --- plug-in interface ---------------------------------------------------------------------
    def setup_mask(self):
        if self._check_empty:
            return bytearray(H.BITMAP_BYTES)    # start on an empty board
        return None

    def start(self):
        if self._first == SENSORS:
            self._enter_sensors()
        else:
            self._enter_leds()

    def on_change(self, occ, now_ms):
        self.now = now_ms
        o = self.occ
        for i in range(H.BITMAP_BYTES):
            o[i] = occ[i]
        if self.phase == SENSORS:
            self._mark_seen()
        self.paint_version += 1

    def on_button(self, bit, now_ms):
        self.now = now_ms
        if self.phase == LEDS:
            if self.step < CHASE:
                self.step += 1
                self._announce_step(now_ms)
            else:
                self._enter_sensors()
            self.paint_version += 1
            return
        i = 0
        while i < H.N_BUTTONS:
            if bit == (1 << i):
                if self.presses[i] < 255:
                    self.presses[i] += 1
                self.paint_version += 1
            i += 1

    def tick(self, now_ms):
        self.now = now_ms
        b = self.buttons
        if b is not None and b.state != self.held:
            self.held = b.state
            self.paint_version += 1
        if self.phase == LEDS and self.step == CHASE and H.ticks_diff(now_ms, self._due) >= 0:
            self.chase += 1
            if self.chase >= H.N_LEDS:
                self.chase = 0
            self._due = (now_ms + CHASE_MS) & H.TICKS_MASK
            self.paint_version += 1

    def paint(self, p, frame_no):
        if self.phase == LEDS:
            if self.step < CHASE:
                k = 3 * self.step
                r = _RGB[k]
                g = _RGB[k + 1]
                b = _RGB[k + 2]
                for i in range(H.N_LEDS):
                    p.rgb(i, r, g, b)
            else:
                p.rgb(self.chase, 255, 255, 255)
            return
        occ = self.occ
        seen = self.seen
        for c in range(H.N_CELLS):
            byte = c >> 3
            bit = 1 << (c & 7)
            if occ[byte] & bit:
                p.cell(c, WHITE)
            elif seen[byte] & bit:
                p.cell(c, CYAN, SEEN_LEVEL)
            else:
                p.cell(c, ORANGE, UNSEEN_LEVEL)
        for i in range(H.N_BUTTONS):
            if self.held & (1 << i):
                p.led(BUTTON_SEAT_BASE + i, WHITE)
            elif self.presses[i]:
                p.led(BUTTON_SEAT_BASE + i, YELLOW)
            else:
                p.led(BUTTON_SEAT_BASE + i, WHITE, BUTTON_IDLE_LEVEL)
        p.score(COVERAGE_SEAT, self.nseen, H.N_CELLS)

    def command(self, words):
        cmd = words[0].lower()
        if cmd == "seen":
            if len(words) == 2 and words[1] == "reset":
                for i in range(H.BITMAP_BYTES):
                    self.seen[i] = 0
                self.nseen = 0
                if self.phase == SENSORS:
                    self._mark_seen()
                self.paint_version += 1
            elif len(words) != 1:
                return "err usage: seen [reset]"
            return "ok seen=%d unseen=%d occupied=%d" % (
                self.nseen, H.N_CELLS - self.nseen, H.bit_count(self.occ))
        if cmd == "unseen":
            lines = []
            names = []
            for c in range(H.N_CELLS):
                if not H.bit_get(self.seen, c):
                    names.append(H.cell_name(c))
                    if len(names) == _NAMES_PER_LINE:
                        lines.append("unseen " + " ".join(names))
                        names = []
            if names:
                lines.append("unseen " + " ".join(names))
            lines.append("ok %d" % (H.N_CELLS - self.nseen))
            return "\n".join(lines)
        if cmd == "buttons":
            parts = []
            held = []
            for i in range(H.N_BUTTONS):
                parts.append("%s=%d" % (H.BUTTON_NAMES[i], self.presses[i]))
                if self.held & (1 << i):
                    held.append(H.BUTTON_NAMES[i])
            return "ok %s held=%s" % (" ".join(parts), ",".join(held) or "-")
        if cmd == "selftest":
            if len(words) == 2:
                if words[1] == "leds":
                    self._enter_leds()
                elif words[1] == "sensors":
                    self._enter_sensors()
                else:
                    return "err usage: selftest [leds|sensors]"
            elif len(words) != 1:
                return "err usage: selftest [leds|sensors]"
            return "ok " + self._describe()
        if cmd == "field":
            return self._field(words)
        if cmd == "pos":
            return "ok selftest " + self._describe()
        if cmd == "candidates":
            return "ok 0 shown=0"
        return None

    def scores(self):
        return [0, 0, 0, 0]

    def _field(self, words):
        lv = self._levels
        if lv is None:
            return "err field: revision B only (this board's Hall switches read no field)"
        if len(words) > 2:
            return "err usage: field [CELL]"
        if len(words) == 2:
            c = H.parse_cell(words[1].lower())
            if c < 0:
                return "err usage: field [CELL] (a1..k11)"
            cells = (c,)
        else:
            cells = [c for c in range(H.N_CELLS) if H.bit_get(self.occ, c)]
        parts = ["%s=%d" % (H.cell_name(c), lv.level[c]) for c in cells]
        return "ok " + (" ".join(parts) or "-")

    # --- phases ----------------------------------------------------------------------------------
    def _describe(self):
        if self.phase == LEDS:
            return "phase=leds step=%s" % LED_STEPS[self.step]
        return "phase=sensors seen=%d" % self.nseen

    def _announce_step(self, now_ms):
        if self.step == CHASE:
            self.chase = 0
            self._due = (now_ms + CHASE_MS) & H.TICKS_MASK
        self.emit("selftest leds " + LED_STEPS[self.step])

    def _enter_leds(self):
        self.phase = LEDS
        self.step = 0
        self.paint_version += 1
        self._announce_step(self.now)

    def _enter_sensors(self):
        self.phase = SENSORS
        self.paint_version += 1
        self.emit("selftest sensors")
        self._mark_seen()

    def _mark_seen(self):
        occ = self.occ
        seen = self.seen
        for i in range(H.BITMAP_BYTES):
            new = occ[i] & ~seen[i] & 0xFF
            if new:
                seen[i] |= new
                for j in range(8):
                    if new & (1 << j):
                        self.nseen += 1
                        self.emit("selftest seen %s n=%d" % (H.cell_name((i << 3) + j), self.nseen))
