"""LED painter over one preallocated frame (R, G, B per LED; layout in firmware/hal/__init__.py).

Palette (colour ids), chosen for colour-blind players: the hues are blue / orange / yellow /
white / magenta / cyan (Okabe-Ito inspired), and every meaning is also carried by a second
channel, the blink pattern or the brightness level. Red and green exist in the palette but
must never be the only distinction between two meanings.

    id  name      RGB at full        intended use
    0   OFF       0,0,0
    1   BLUE      0,40,255           seat S
    2   ORANGE    255,90,0           seat W
    3   WHITE     255,255,255        seat N, setup "put a piece here"
    4   MAGENTA   255,0,200          seat E, setup "remove this piece"
    5   YELLOW    255,190,0          hint / candidate move
    6   CYAN      0,200,255          selection, board messages
    7   RED       255,0,0            errors (always with BLINK_FAST); «Формула 99»'s red track
                                     cells (very dim, steady: its map)
    8   GREEN     0,255,40           ok (always with a pattern); КУБитва's set-up: a filler
    SEAT_COLOUR = (BLUE, ORANGE, WHITE, MAGENTA) indexed by seat S, W, N, E.

Blink patterns (second channel), from the frame counter (10 ms frames):
    BLINK_NONE  steady
    BLINK_SLOW  on 320 ms / off 320 ms      on while (frame & 63) < 32
    BLINK_FAST  on 80 ms / off 80 ms        on while (frame & 15) < 8
    BLINK_WINK  on 560 ms / off 80 ms       on while (frame & 63) < 56
                (a short dark wink: "steady but special")
Levels: `level` 0..255 scales the colour (e.g. 64 = dim "background", 255 = full).

Score bars (score(seat, value, max[, colour])): 9 LEDs, k = 0 at the seat player's left, in the
seat's colour unless a colour is given. The bar is a proportional gauge in quarter-LED steps:
q = round(value * 36 / max); LEDs k < q // 4 are lit at full level, LED q // 4 is lit at level
(q % 4) / 4 (dimmer = partial), the rest are off (or dim white if that seat is to move, see
turn()). If max <= 9 each point is one LED.
value > max: the whole bar blinks fast; value < 0 is shown as 0.

turn(seat): the seat to move has its bar's unlit LEDs at dim white (level 24), so the bar of
the player to move glows end to end; other bars are dark where unlit. The glow is budgeted
first and never scaled (finish()): it is the whose-turn sign, in a bright frame too.

Half bars (the 8-player variant, two seats to a side): score() and turn() take part=1 for the
bar's LEDs k = 0..3, part=2 for k = 5..8 (k = 4, before the exit portal, stays dark); a half bar
is the same gauge over 4 LEDs (16 points: one quarter step a point).

Rendering and animation (a frame is rendered only when its content changes):
    begin(frame_no); led()/cell()/score()/turn()/rgb() ...; finish()   render from scratch
    animate(frame_no) -> changed?                                       every other frame
While rendering, the frame holds every LED 'on' (blinking ones too). finish() estimates the
current of that all-on frame and scales it into the budget, records the blinking LEDs with their
'on' RGB (after cap and scaling) in preallocated buffers, and applies the blink phase of
frame_no. animate() only toggles the LEDs of a pattern whose phase changed (FAST every 8
frames, SLOW every 32, WINK at 56 and 64) and returns whether the frame changed; when nothing
blinks or no pattern changes phase it does nothing. The current budget holds in every phase,
since every phase lights a subset of the all-on frame. `renders` counts begin() calls.

Brightness and current:
- `cap` (0..255, default 96) scales every colour at draw time (global brightness cap).
- Current model (per render, estimated in finish() on the all-on frame): I = N_LEDS * IDLE_MA + sum(channel values)
  * CH_MA / 255, with IDLE_MA = 1 mA quiescent per LED and CH_MA = 20 mA per channel at 255.
  If I exceeds `budget_ma` (default 400 mA at 5 V), every channel value is scaled by
  (budget_ma - idle) / (I - idle) (per byte, floored), so the frame stays within the budget. `last_ma` keeps the
  estimate (all-on) before scaling, `scaled` tells whether the last render was scaled.
  Scaling only visits the LEDs drawn in that render. The turn glow's LEDs (turn(); `_pat` 0
  while lit, so that _group does not scale them) are budgeted first: with u their channel sum
  and t the budget's, the others are scaled by (t - u) / s (s the frame's sum), which keeps the
  frame within t: (s - u) * (t - u) / s + u <= t. (Scaled with the rest, the glow went to 2 of
  255 at Cargocube's activation with 8 players, the only sign of which seat of a side moves:
  the LED audit, stop 41.) A budget too small for the glow alone scales it with the rest.
No allocation per frame: all state is preallocated, palette lookups index a bytes object.

Speed (every Python operation costs ~1 us on the RP2040): the palette is kept scaled by `cap`
(rebuilt when cap is set), a score bar drawn with the same arguments as in the last render is
copied from its cached bytes, the turn glow is one slice copy, `cells(overlay)` draws a
plug-in's Overlay in one call, and finish() visits only the drawn LEDs, found with
bytearray.find in C. On the RP2040 cells() and finish()'s sum of the frame, its scaling and
the grouping of the drawn LEDs are native code (firmware/hal/rp2040.py: led_cells, led_group;
byte for byte the Python loops of firmware/drivers/ledloops.py, which the unix port and the host
run, and which the RP2040 does not load).

Overlay: what a plug-in lights besides the bars, prepared when its state changes and drawn at
every render: (cell, colour, level, blink) entries in one preallocated bytearray. A list of
tuples cost an allocation per entry, and on the Pico's heap, in pieces once the modules are
loaded, an allocation of more than 16 bytes searches the heap from its first hole (~0.2 ms
each, emulated).
"""

import sys as _sys
from array import array
from firmware.hal import const, N_LEDS, FRAME_BYTES, N_CELLS, SCORE_BASE, SCORE_LEN

OFF = const(0)
BLUE = const(1)
ORANGE = const(2)
WHITE = const(3)
MAGENTA = const(4)
YELLOW = const(5)
CYAN = const(6)
RED = const(7)
GREEN = const(8)
N_COLOURS = const(9)
SEAT_COLOUR = (BLUE, ORANGE, WHITE, MAGENTA)

PALETTE = bytes((
    0, 0, 0,
    0, 40, 255,
    255, 90, 0,
    255, 255, 255,
    255, 0, 200,
    255, 190, 0,
    0, 200, 255,
    255, 0, 0,
    0, 255, 40,
))

BLINK_NONE = const(0)
BLINK_SLOW = const(1)
BLINK_FAST = const(2)
BLINK_WINK = const(3)

IDLE_MA = const(1)
CH_MA = const(20)
TURN_LEVEL = const(24)

_DRAWN = const(0x10)  # _pat[i]: LED i was drawn in this render; low bits: its blink pattern
_ALL_ON = const(7)    # phase bits: 1 << (pattern - 1) set while that pattern is on
_BAR_GLOW = bytes(SCORE_LEN)  # _pat of the turn glow's LEDs: 0, not scaled (finish())
_HALF_GLOW = bytes(4)
_ZERO3 = bytes(3)


def _bar_start(seat, part):
    """The first LED of a seat's score bar (9 LEDs), or of its half `part` (1: k 0..3, 2: 5..8;
    4 LEDs)."""
    return SCORE_BASE + seat * SCORE_LEN + (5 if part == 2 else 0)


def phase_bits(f):
    """Which blink patterns are on at frame f: bit 0 SLOW, bit 1 FAST, bit 2 WINK."""
    ph = 0
    if (f & 63) < 32:
        ph = 1
    if (f & 15) < 8:
        ph |= 2
    if (f & 63) < 56:
        ph |= 4
    return ph


class Overlay:
    """Up to `size` LEDs to light, each (cell 0..120, colour, level, blink), in order (a later
    entry for the same cell wins); the entries drawn are buf's [lo, n). Iterating yields them as
    tuples (for tests and replies, not for frames: that allocates).

    A plug-in may keep a set of entries to show again later without making it anew (Cargocube's
    idle overlay, shown again when a lifted cube is put back): keep() marks the entries so far
    as kept, clear() starts the next set after them, show_kept() draws them again. In the same
    buffer: a second one would hold the Pico's heap for a cache. A set that does not fit after
    the kept entries moves to the front and the kept ones are gone (kept == 0)."""

    def __init__(self, size=N_CELLS + 8):
        self.buf = bytearray(4 * size)
        self.lo = 0
        self.n = 0
        self.kept = 0

    def clear(self):
        """Start a new set of entries (after the kept ones)."""
        self.lo = self.n = self.kept

    def forget(self):
        """Start a new set of entries from the front: nothing kept."""
        self.lo = self.n = self.kept = 0

    def keep(self):
        """Keep the entries so far (made after forget()) for show_kept()."""
        self.kept = self.n

    def show_kept(self):
        """Draw the kept entries again (more may be added after them)."""
        self.lo = 0
        self.n = self.kept

    def add(self, c, colour, level=255, blink=0):
        if c < 0 or c >= N_CELLS:
            return  # no cell: nothing to light
        b = self.buf
        o = self.n * 4
        if o >= len(b):
            lo = self.lo * 4
            if not lo:
                return  # full
            for j in range(o - lo):  # byte by byte: a slice would allocate
                b[j] = b[lo + j]
            o -= lo
            self.lo = self.kept = 0
        b[o] = c
        b[o + 1] = colour
        b[o + 2] = level
        b[o + 3] = blink
        self.n = (o >> 2) + 1

    def __len__(self):
        return self.n - self.lo

    def __iter__(self):
        b = self.buf
        for o in range(self.lo * 4, self.n * 4, 4):
            yield (b[o], b[o + 1], b[o + 2], b[o + 3])


class Painter:
    def __init__(self, cap=96, budget_ma=400):
        self.frame = bytearray(FRAME_BYTES)
        self._zero = bytes(FRAME_BYTES)
        self.budget_ma = budget_ma
        self.frame_no = 0
        self.turn_seat = -1
        self.turn_part = 0
        self.last_ma = 0
        self.scaled = False
        self.renders = 0                        # begin() calls: frames rendered from scratch
        # Per render: _pat[i] = _DRAWN | blink pattern for each LED drawn (0: not drawn).
        self._pat = bytearray(N_LEDS)
        self._zpat = memoryview(self._zero)[:N_LEDS]  # zeros, without a second buffer
        # After finish(): the blinking LEDs grouped by pattern, _bl[_lo[k]:_hi[k]] blink with
        # pattern k, their 'on' RGB in _bl_rgb (3 bytes each, same order), the phase shown.
        self._bl = bytearray(N_LEDS)
        self._bl_rgb = bytearray(FRAME_BYTES)
        self._lo = bytearray(4)
        self._hi = bytearray(4)
        self._nbl = 0
        self._phase = _ALL_ON
        # The palette scaled by cap (PALETTE[j] * cap, up to 65025) and the turn glow's 9 LEDs
        # (4 on a half bar).
        self._pc = array("H", bytearray(2 * N_COLOURS * 3))
        self._turn_bar = bytearray(3 * SCORE_LEN)
        self._turn_half = bytearray(3 * 4)
        # Each score bar as the last render drew it (RGB, patterns), a half bar at its place in
        # its seat's bytes; what each showed: _bar_key[4 * (3 * seat + part)...] = value, max,
        # colour, glow (value -1: none cached).
        self._bar_rgb = [bytearray(3 * SCORE_LEN) for _ in range(4)]
        self._bar_pat = [bytearray(SCORE_LEN) for _ in range(4)]
        self._bar_key = array("h", bytearray(b"\xff" * (2 * 4 * 12)))  # 48 times -1
        # With 8 players (at the first half bar drawn) _bar_rgb gets the half bars' places in
        # those bytes as memoryviews after its 4 buffers, (RGB, patterns) at [4 + 4 * seat + 2 *
        # (part - 1)]: a half bar shown as last time is then two slice copies instead of 16 byte
        # copies (1 ms of the RP2040's time for the 8 half bars of a render). In that list: a
        # new attribute would grow every Painter's attribute table.
        self.cap = cap

    @property
    def cap(self):
        """Global brightness cap 0..255 (module doc); setting it rescales the palette."""
        return self._cap

    @cap.setter
    def cap(self, v):
        self._cap = v
        pc = self._pc
        for j in range(N_COLOURS * 3):
            pc[j] = PALETTE[j] * v
        k = TURN_LEVEL * v
        t = self._turn_bar
        for j in range(3 * SCORE_LEN):
            t[j] = (255 * k) // 65025
        self._turn_half[:] = t[:12]
        for j in range(0, 4 * 12, 4):
            self._bar_key[j] = -1

    def begin(self, frame_no):
        """Start rendering a frame from scratch: clear it and set the blink clock."""
        self.frame_no = frame_no
        self.turn_seat = -1
        self.turn_part = 0
        self.renders += 1
        self.clear()

    def clear(self):
        self.frame[:] = self._zero  # slice copies in C, no allocation
        self._pat[:] = self._zpat
        self._nbl = 0

    def led(self, i, colour, level=255, blink=0):
        """Set LED i (0..156) to a palette colour at a level (0..255) with a blink pattern.
        Until finish() the frame holds the 'on' colour whatever the blink phase."""
        if i < 0 or i >= N_LEDS:
            return
        f = self.frame
        o = i * 3
        if colour <= 0 or colour >= N_COLOURS:
            self._pat[i] = _DRAWN
            f[o:o + 3] = _ZERO3
            return
        self._pat[i] = (_DRAWN | blink) if 0 < blink <= BLINK_WINK else _DRAWN
        pc = self._pc
        p = colour * 3
        f[o] = (pc[p] * level) // 65025
        f[o + 1] = (pc[p + 1] * level) // 65025
        f[o + 2] = (pc[p + 2] * level) // 65025

    def cell(self, c, colour, level=255, blink=0):
        if 0 <= c < N_CELLS:
            self.led(c, colour, level, blink)

    def rgb(self, i, r, g, b):
        """Raw RGB (0..255, still scaled by cap), steady, for special effects."""
        if 0 <= i < N_LEDS:
            self._pat[i] = _DRAWN
            o = i * 3
            k = self._cap
            self.frame[o] = (r * k) // 255
            self.frame[o + 1] = (g * k) // 255
            self.frame[o + 2] = (b * k) // 255

    def turn(self, seat, part=0):
        """Mark `seat` as the seat to move (its bar's unlit LEDs glow dim white); part 1 or 2:
        only that half of the bar (module doc)."""
        if seat < 0 or seat > 3:
            return
        self.turn_seat = seat
        self.turn_part = part
        base = _bar_start(seat, part)
        if part == 0:
            self.frame[base * 3:(base + SCORE_LEN) * 3] = self._turn_bar
            self._pat[base:base + SCORE_LEN] = _BAR_GLOW
        else:
            self.frame[base * 3:(base + 4) * 3] = self._turn_half
            self._pat[base:base + 4] = _HALF_GLOW

    def score(self, seat, value, max_value, colour=0, part=0):
        """Show value/max_value on the seat's 9-LED bar (encoding in the module doc), in the
        seat's colour unless another palette colour is given; part 1 or 2: on that half."""
        if seat < 0 or seat > 3:
            return
        if not colour:
            colour = SEAT_COLOUR[seat]
        bg = seat == self.turn_seat and part == self.turn_part
        key = self._bar_key
        kk = 4 * (3 * seat + part)
        if key[kk] == value and key[kk + 1] == max_value and key[kk + 2] == colour and \
                key[kk + 3] == bg:
            # as last time (the check first: ~1 us an operation on the RP2040, and a render
            # draws 4 bars, 8 half bars with 8 players)
            if part == 0:
                base = SCORE_BASE + seat * SCORE_LEN
                self.frame[base * 3:(base + SCORE_LEN) * 3] = self._bar_rgb[seat]
                self._pat[base:base + SCORE_LEN] = self._bar_pat[seat]
            else:
                base = SCORE_BASE + seat * SCORE_LEN + (5 if part == 2 else 0)
                hv = self._bar_rgb
                k = 4 * seat + 2 * part + 2
                self.frame[base * 3:(base + 4) * 3] = hv[k]
                self._pat[base:base + 4] = hv[k + 1]
            return
        base = _bar_start(seat, part)
        n = SCORE_LEN if part == 0 else 4
        f = self.frame
        pat = self._pat
        rgb = self._bar_rgb[seat]
        bp = self._bar_pat[seat]
        at = base - SCORE_BASE - seat * SCORE_LEN  # where the (half) bar is in its seat's bytes
        if part and len(self._bar_rgb) == 4:
            hv = self._bar_rgb
            for s in range(4):
                for at0 in (0, 5):
                    hv.append(memoryview(hv[s])[at0 * 3:at0 * 3 + 12])
                    hv.append(memoryview(self._bar_pat[s])[at0:at0 + 4])
        m = max_value
        v = value
        blink = 0
        if m <= 0:
            m = 1
        if v > m:
            v = m
            blink = BLINK_FAST
        if v < 0:
            v = 0
        if m <= n:
            q = v * 4
        else:
            q = (v * n * 4 * 2 + m) // (m * 2)
        full = q >> 2
        quarter = q & 3
        for k in range(n):
            if k < full:
                self.led(base + k, colour, 255, blink)
            elif k == full and quarter:
                self.led(base + k, colour, quarter * 64, blink)
            elif bg:
                self.led(base + k, WHITE, TURN_LEVEL)
                pat[base + k] = 0  # the turn glow: not scaled (finish())
            else:
                self.led(base + k, OFF)
        # kept for the next render (copied byte by byte: a slice would allocate)
        o = base * 3
        r = at * 3
        for j in range(3 * n):
            rgb[r + j] = f[o + j]
        for j in range(n):
            bp[at + j] = pat[base + j]
        key[kk] = value
        key[kk + 1] = max_value
        key[kk + 2] = colour
        key[kk + 3] = bg
        # the whole bar and its halves share the seat's bytes: the other kind is gone
        kk = 12 * seat
        if part == 0:
            key[kk + 4] = -1
            key[kk + 8] = -1
        else:
            key[kk] = -1

    def finish(self):
        """End the render: estimate the current of the all-on frame, scale it into the budget,
        record the blinking LEDs and apply the blink phase of frame_no. Returns the frame."""
        idle = N_LEDS * IDLE_MA
        avail = self.budget_ma - idle
        if avail < 0:
            avail = 0
        # The channels draw (sum(frame) * CH_MA) // 255 mA: over avail when sum(frame) >= over.
        # Then the drawn LEDs (only they can be lit) are scaled so that sum(frame) <= the
        # channel budget in byte units; each byte is floored, so the result never exceeds the
        # budget. Small ints only; the sum, the scaling and the grouping in one call.
        over = (255 * (avail + 1) + CH_MA - 1) // CH_MA
        t = (avail * 255) // CH_MA
        # The turn glow's LEDs (_pat 0, lit) are budgeted first and never scaled: scaled with
        # the rest they went dark in a full frame (Cargocube's activation with 8 players: 2 of
        # 255, the only sign of which seat of a side moves). The others are scaled into what is
        # left: by (t - u) / s, so that their sum, (s - u) * (t - u) / s at most, and u stay
        # within t.
        u = 0
        seat = self.turn_seat
        if seat >= 0:
            base = _bar_start(seat, self.turn_part)
            n = 4 if self.turn_part else SCORE_LEN
            f = self.frame
            pat = self._pat
            for i in range(base, base + n):
                if not pat[i]:
                    o = i * 3
                    u += f[o] + f[o + 1] + f[o + 2]
            if u > t:  # a budget too small even for the glow: scaled with the rest
                u = 0
                for i in range(base, base + n):
                    pat[i] |= _DRAWN
        r = self._group(over, t - u)
        s = r >> 8
        self._nbl = r & 255
        self.last_ma = idle + (s * CH_MA) // 255
        self.scaled = s >= over
        self._phase = _ALL_ON
        self.animate(self.frame_no)
        return self.frame

    def animate(self, frame_no):
        """Show frame frame_no without re-rendering: toggle the blinking LEDs whose pattern
        changed phase. Returns True if the frame changed. No allocation."""
        self.frame_no = frame_no
        if not self._nbl:
            return False
        ph = phase_bits(frame_no)
        x = ph ^ self._phase
        if not x:
            return False
        self._phase = ph
        f = self.frame
        bl = self._bl
        rgb = self._bl_rgb
        changed = False
        for k in range(1, 4):
            bit = 1 << (k - 1)
            if x & bit:
                a = self._lo[k]
                b = self._hi[k]
                if a == b:
                    continue
                changed = True
                if ph & bit:
                    while a < b:
                        o = bl[a] * 3
                        q = a * 3
                        f[o] = rgb[q]
                        f[o + 1] = rgb[q + 1]
                        f[o + 2] = rgb[q + 2]
                        a += 1
                else:
                    while a < b:
                        o = bl[a] * 3
                        f[o:o + 3] = _ZERO3
                        a += 1
        return changed

    def blinking(self):
        """Number of blinking LEDs recorded by the last finish()."""
        return self._nbl

    def estimate_ma(self):
        """Current estimate of the frame as it is now (after any scaling, in its blink phase)."""
        return N_LEDS * IDLE_MA + (sum(self.frame) * CH_MA) // 255


if _sys.platform == "rp2":
    # In Python on the RP2040 _group()'s loop costs ~80 us an LED drawn, cells() ~60 us an
    # overlay entry and sum() of the frame 1.1 ms: native code there, the same results
    # (firmware/hal/rp2040.py); the Python loops are then not loaded (their bytecode would stay
    # in the Pico's heap)
    from firmware.hal.rp2040 import led_group as _g, led_cells as _c
else:
    from firmware.drivers.ledloops import group as _g, cells as _c
Painter._group = _g
Painter.cells = _c
