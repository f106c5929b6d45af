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
    7   RED       255,0,0            errors (always with BLINK_FAST)
    8   GREEN     0,255,40           ok (always with a pattern)
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
the player to move glows end to end; other bars are dark where unlit.

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
  Scaling only visits the LEDs drawn in that render.
No allocation per frame: all state is preallocated, palette lookups index a bytes object.
"""

from firmware.hal import N_LEDS, FRAME_BYTES, N_CELLS, SCORE_BASE, SCORE_LEN

OFF = 0
BLUE = 1
ORANGE = 2
WHITE = 3
MAGENTA = 4
YELLOW = 5
CYAN = 6
RED = 7
GREEN = 8
N_COLOURS = 9
COLOUR_NAMES = ("off", "blue", "orange", "white", "magenta", "yellow", "cyan", "red", "green")
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

BLINK_NONE = 0
BLINK_SLOW = 1
BLINK_FAST = 2
BLINK_WINK = 3

IDLE_MA = 1
CH_MA = 20
TURN_LEVEL = 24

_DRAWN = 0x10   # _pat[i]: LED i was drawn in this render; low bits: its blink pattern
_ALL_ON = 7     # phase bits: 1 << (pattern - 1) set while that pattern is on
_NEEDLE = (b"", bytes((_DRAWN | 1,)), bytes((_DRAWN | 2,)), bytes((_DRAWN | 3,)))


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


class Painter:
    def __init__(self, cap=96, budget_ma=400):
        self.frame = bytearray(FRAME_BYTES)
        self._zero = bytes(FRAME_BYTES)
        self.cap = cap
        self.budget_ma = budget_ma
        self.frame_no = 0
        self.turn_seat = -1
        self.turn_part = 0
        self.last_ma = 0
        self.scaled = False
        self.renders = 0                        # begin() calls: frames rendered from scratch
        # Per render: _pat[i] = _DRAWN | blink pattern for each LED drawn; _drawn[:_nd] lists
        # the drawn LEDs (each once) so that scaling visits only those.
        self._pat = bytearray(N_LEDS)
        self._zpat = bytes(N_LEDS)
        self._drawn = bytearray(N_LEDS)
        self._nd = 0
        # After finish(): the blinking LEDs grouped by pattern, _bl[_lo[k]:_hi[k]] blink with
        # pattern k, their 'on' RGB in _bl_rgb (3 bytes each, same order), the phase shown.
        self._bl = bytearray(N_LEDS)
        self._bl_rgb = bytearray(FRAME_BYTES)
        self._lo = bytearray(4)
        self._hi = bytearray(4)
        self._nbl = 0
        self._phase = _ALL_ON

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
        self._nd = 0
        self._nbl = 0

    def led(self, i, colour, level=255, blink=0):
        """Set LED i (0..156) to a palette colour at a level (0..255) with a blink pattern.
        Until finish() the frame holds the 'on' colour whatever the blink phase."""
        if i < 0 or i >= N_LEDS:
            return
        f = self.frame
        o = i * 3
        pat = self._pat
        if not pat[i]:
            self._drawn[self._nd] = i
            self._nd += 1
        if colour <= 0 or colour >= N_COLOURS:
            pat[i] = _DRAWN
            f[o] = 0
            f[o + 1] = 0
            f[o + 2] = 0
            return
        if 0 < blink <= BLINK_WINK:
            pat[i] = _DRAWN | blink
        else:
            pat[i] = _DRAWN
        k = level * self.cap  # 0..65025
        p = colour * 3
        f[o] = (PALETTE[p] * k) // 65025
        f[o + 1] = (PALETTE[p + 1] * k) // 65025
        f[o + 2] = (PALETTE[p + 2] * k) // 65025

    def cell(self, c, colour, level=255, blink=0):
        if 0 <= c < N_CELLS:
            self.led(c, colour, level, blink)

    def rgb(self, i, r, g, b):
        """Raw RGB (0..255, still scaled by cap), steady, for special effects."""
        if 0 <= i < N_LEDS:
            pat = self._pat
            if not pat[i]:
                self._drawn[self._nd] = i
                self._nd += 1
            pat[i] = _DRAWN
            o = i * 3
            k = self.cap
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
        for k in range(SCORE_LEN if part == 0 else 4):
            self.led(base + k, WHITE, TURN_LEVEL)

    def score(self, seat, value, max_value, colour=0, part=0):
        """Show value/max_value on the seat's 9-LED bar (encoding in the module doc), in the
        seat's colour unless another palette colour is given; part 1 or 2: on that half."""
        if seat < 0 or seat > 3:
            return
        base = _bar_start(seat, part)
        n = SCORE_LEN if part == 0 else 4
        if not colour:
            colour = SEAT_COLOUR[seat]
        blink = 0
        if max_value <= 0:
            max_value = 1
        if value > max_value:
            value = max_value
            blink = BLINK_FAST
        if value < 0:
            value = 0
        if max_value <= n:
            q = value * 4
        else:
            q = (value * n * 4 * 2 + max_value) // (max_value * 2)
        full = q >> 2
        quarter = q & 3
        bg = seat == self.turn_seat and part == self.turn_part
        for k in range(n):
            if k < full:
                self.led(base + k, colour, 255, blink)
            elif k == full and quarter:
                self.led(base + k, colour, quarter * 64, blink)
            elif bg:
                self.led(base + k, WHITE, TURN_LEVEL)
            else:
                self.led(base + k, OFF)

    def finish(self):
        """End the render: estimate the current of the all-on frame, scale it into the budget,
        record the blinking LEDs and apply the blink phase of frame_no. Returns the frame."""
        f = self.frame
        s = sum(f)
        idle = N_LEDS * IDLE_MA
        ch_ma = (s * CH_MA) // 255
        self.last_ma = idle + ch_ma
        avail = self.budget_ma - idle
        if avail < 0:
            avail = 0
        drawn = self._drawn
        if ch_ma > avail:
            # scale so that sum(frame) <= t (= the channel budget in byte units); each byte is
            # floored, so the result never exceeds the budget. Small ints only. Only drawn
            # LEDs can be lit.
            t = (avail * 255) // CH_MA
            for j in range(self._nd):
                o = drawn[j] * 3
                f[o] = (f[o] * t) // s
                f[o + 1] = (f[o + 1] * t) // s
                f[o + 2] = (f[o + 2] * t) // s
            self.scaled = True
        else:
            self.scaled = False
        # blinking LEDs, grouped by pattern, with their 'on' RGB
        pat = self._pat
        bl = self._bl
        rgb = self._bl_rgb
        lo = self._lo
        hi = self._hi
        n = 0
        for k in range(1, 4):
            lo[k] = n
            needle = _NEEDLE[k]
            i = pat.find(needle)
            while i >= 0:
                bl[n] = i
                o = i * 3
                q = n * 3
                rgb[q] = f[o]
                rgb[q + 1] = f[o + 1]
                rgb[q + 2] = f[o + 2]
                n += 1
                i = pat.find(needle, i + 1)
            hi[k] = n
        self._nbl = n
        self._phase = _ALL_ON
        self.animate(self.frame_no)
        return f

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
                        f[o] = 0
                        f[o + 1] = 0
                        f[o + 2] = 0
                        a += 1
        return changed

    def blinking(self):
        """Number of blinking LEDs recorded by the last finish()."""
        return self._nbl

    def estimate_ma(self):
        """Current estimate of the frame as it is now (after any scaling, in its blink phase)."""
        return N_LEDS * IDLE_MA + (sum(self.frame) * CH_MA) // 255
