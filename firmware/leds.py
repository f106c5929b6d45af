"""LED painter over one preallocated frame (R, G, B per LED; layout in firmware/hal.py).

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
    BLINK_SLOW  on 320 ms / off 320 ms
    BLINK_FAST  on 80 ms / off 80 ms
    BLINK_WINK  on 560 ms / off 80 ms (a short dark wink: "steady but special")
Levels: `level` 0..255 scales the colour (e.g. 64 = dim "background", 255 = full).

Score bars (score(seat, value, max)): 9 LEDs, k = 0 at the seat player's left. The bar is a
proportional gauge in quarter-LED steps: q = round(value * 36 / max); LEDs k < q // 4 are lit
at full level, LED q // 4 is lit at level (q % 4) / 4 (dimmer = partial), the rest are off
(or dim white if that seat is to move, see turn()). If max <= 9 each point is one LED.
value > max: the whole bar blinks fast; value < 0 is shown as 0.

turn(seat): the seat to move has its bar's unlit LEDs at dim white (level 24), so the bar of
the player to move glows end to end; other bars are dark where unlit.

Brightness and current:
- `cap` (0..255, default 96) scales every colour at draw time (global brightness cap).
- Current model (per frame, estimated in finish()): I = N_LEDS * IDLE_MA + sum(channel values)
  * CH_MA / 255, with IDLE_MA = 1 mA quiescent per LED and CH_MA = 20 mA per channel at 255.
  If I exceeds `budget_ma` (default 400 mA at 5 V), every channel value is scaled by
  (budget_ma - idle) / (I - idle) (per byte, floored), so the frame stays within the budget. `last_ma` keeps the
  estimate before scaling, `scaled` tells whether the last frame was scaled.
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


class Painter:
    def __init__(self, cap=96, budget_ma=400):
        self.frame = bytearray(FRAME_BYTES)
        self._zero = bytes(FRAME_BYTES)
        self.cap = cap
        self.budget_ma = budget_ma
        self.frame_no = 0
        self.turn_seat = -1
        self.last_ma = 0
        self.scaled = False

    def begin(self, frame_no):
        """Start a new frame: clear it and set the blink clock."""
        self.frame_no = frame_no
        self.turn_seat = -1
        self.clear()

    def clear(self):
        self.frame[:] = self._zero  # slice copy in C, no allocation

    def _on(self, blink):
        if blink == 0:
            return True
        f = self.frame_no
        if blink == BLINK_SLOW:
            return (f & 63) < 32
        if blink == BLINK_FAST:
            return (f & 15) < 8
        if blink == BLINK_WINK:
            return (f & 63) < 56
        return True

    def led(self, i, colour, level=255, blink=0):
        """Set LED i (0..156) to a palette colour at a level (0..255) with a blink pattern."""
        if i < 0 or i >= N_LEDS:
            return
        f = self.frame
        o = i * 3
        if colour <= 0 or colour >= N_COLOURS or not self._on(blink):
            f[o] = 0
            f[o + 1] = 0
            f[o + 2] = 0
            return
        k = level * self.cap  # 0..65025
        p = colour * 3
        f[o] = (PALETTE[p] * k) // 65025
        f[o + 1] = (PALETTE[p + 1] * k) // 65025
        f[o + 2] = (PALETTE[p + 2] * k) // 65025

    def cell(self, c, colour, level=255, blink=0):
        if 0 <= c < N_CELLS:
            self.led(c, colour, level, blink)

    def rgb(self, i, r, g, b):
        """Raw RGB (0..255, still scaled by cap) for special effects."""
        if 0 <= i < N_LEDS:
            o = i * 3
            k = self.cap
            self.frame[o] = (r * k) // 255
            self.frame[o + 1] = (g * k) // 255
            self.frame[o + 2] = (b * k) // 255

    def turn(self, seat):
        """Mark `seat` as the seat to move (its bar's unlit LEDs glow dim white)."""
        if seat < 0 or seat > 3:
            return
        self.turn_seat = seat
        base = SCORE_BASE + seat * SCORE_LEN
        for k in range(SCORE_LEN):
            self.led(base + k, WHITE, TURN_LEVEL)

    def score(self, seat, value, max_value):
        """Show value/max_value on the seat's 9-LED bar (encoding in the module doc)."""
        if seat < 0 or seat > 3:
            return
        base = SCORE_BASE + seat * SCORE_LEN
        colour = SEAT_COLOUR[seat]
        blink = 0
        if max_value <= 0:
            max_value = 1
        if value > max_value:
            value = max_value
            blink = BLINK_FAST
        if value < 0:
            value = 0
        if max_value <= SCORE_LEN:
            q = value * 4
        else:
            q = (value * SCORE_LEN * 4 * 2 + max_value) // (max_value * 2)
        full = q >> 2
        part = q & 3
        bg = seat == self.turn_seat
        for k in range(SCORE_LEN):
            if k < full:
                self.led(base + k, colour, 255, blink)
            elif k == full and part:
                self.led(base + k, colour, part * 64, blink)
            elif bg:
                self.led(base + k, WHITE, TURN_LEVEL)
            else:
                self.led(base + k, OFF)

    def finish(self):
        """Estimate the current and scale the frame into the budget. Returns the frame."""
        f = self.frame
        s = sum(f)
        idle = N_LEDS * IDLE_MA
        ch_ma = (s * CH_MA) // 255
        self.last_ma = idle + ch_ma
        avail = self.budget_ma - idle
        if avail < 0:
            avail = 0
        if ch_ma > avail:
            # scale so that sum(frame) <= t (= the channel budget in byte units); each byte is
            # floored, so the result never exceeds the budget. Small ints only.
            t = (avail * 255) // CH_MA
            for i in range(FRAME_BYTES):
                v = f[i]
                if v:
                    f[i] = (v * t) // s
            self.scaled = True
        else:
            self.scaled = False
        return f

    def estimate_ma(self):
        """Current estimate of the frame as it is now (after any scaling)."""
        return N_LEDS * IDLE_MA + (sum(self.frame) * CH_MA) // 255
