"""Cargoboard hardware abstraction layer: the one interface and the shared constants, and
unload(), the platform's way to drop a module from the heap (MicroPython; nothing on CPython).

Nothing above the HAL imports `machine` or `rp2`. There are two implementations of the
interface below:

- `firmware.hal.rp2040.Rp2040Hal`: the real board (74HC165 sensor chain, WS2812 LEDs, USB serial).
- `firmware.hal.sim.SimHal`: the simulator (lockstep binary channel on stdin/stdout, see
  docs/sim-protocol.md).

Interface (duck-typed; `Hal` below documents it and both implementations subclass it):

    read_sensors(buf)   fill bytearray(16): bit i (byte i >> 3, bit i & 7) = cell i occupied.
                        Bits 121..127 are always 0. Does the chain read for this frame.
    read_buttons()      raw (not debounced) button bitmask, CONFIRM|NEXT|UNDO|HINT|END,
                        1 = pressed, sampled at the last read_sensors().
    show(frame)         bytearray(3 * N_LEDS), R,G,B per LED, LED order below. May return
                        before the LEDs are updated; may skip the transfer if unchanged.
                        The app calls it only in frames where the frame changed (rendered
                        or a blink toggled), so no call = keep showing the last frame.
    ticks_ms()          ms, wraps at TICKS_PERIOD (2**30); use ticks_diff().
    ticks_us()          us, wraps at TICKS_PERIOD; for benchmarks only.
    wait_frame()        returns when the next frame is due (FRAME_MS on hardware; in the
                        simulator when the host sends the next frame). Raises SystemExit
                        when the simulator host asks the firmware to stop.
    serial_read()       bytes received on the USB serial since the last call, or None.
    serial_write(b)     queue bytes for the USB serial (never blocks for long; may drop
                        output when the host is not reading).
    flash_root()        the directory of the mounted flash filesystem (littlefs) that keeps
                        the game logs ("/" on the Pico, "/flash" in the simulator), or None
                        if there is none (then games are not logged).
    board_id()          a short text naming this board for good (the host files its games
                        under it): the RP2040's unique id in hex; in the simulator the
                        virtual chip's, which the host gives with the flash image.
    wall_time()         seconds since 1970-01-01 UTC, 0 if the board does not know the time.
    set_wall_time(t)    the time is t (seconds since 1970-01-01 UTC; a host's HELLO, never
                        before 2024); kept in RAM only (the RP2040's RTC, the simulator's
                        (t, ticks_ms) pair): a power cut loses it.
    name                short implementation name ("rp2040", "sim").
    set_ctrl_c(on)      whether a 0x03 byte on the USB serial interrupts the firmware (the
                        REPL's Ctrl-C); off while the host speaks binary frames.
    led_budget_max_ma   the largest LED current budget (mA) that keeps this board within
                        USB power (its pin map's LED_BUDGET_MAX_MA, circuit/power.py's
                        figure): the App's `budget` setting goes no higher.
    has_repl            True where a REPL follows when main.py returns (the board): the
                        firmware then returns instead of raising SystemExit, which the
                        rp2 port takes for a soft reboot (main.py would run again).

LED layout (N_LEDS = 157):
    0..120    cell LEDs, LED c under cell c (c = y * 11 + x).
    121..156  score bars, 9 LEDs per seat in seat order S, W, N, E (SCORE_BASE + 9 * seat + k),
              each along the outside of that seat's terminal edge, k = 0 at the seat player's
              left (S: west->east, E: south->north, N: east->west, W: north->south).
"""

import sys

try:
    from micropython import const
except ImportError:  # CPython (host-side tests)
    def const(x):
        return x

# Buttons (bit values of read_buttons() and of the debounced presses).
CONFIRM = const(1)
NEXT = const(2)
UNDO = const(4)
HINT = const(8)
END = const(16)
N_BUTTONS = const(5)
BUTTON_NAMES = ("confirm", "next", "undo", "hint", "end")  # index = bit number

# Board geometry (one place for it: shared_rules/geometry.py, used by every grid game).
from shared_rules.geometry import SIZE, N_CELLS  # noqa: E402,F401
BITMAP_BYTES = const(16)

# LEDs.
SCORE_BASE = const(121)
SCORE_LEN = const(9)
N_LEDS = const(157)
FRAME_BYTES = const(471)  # 3 * N_LEDS

# Time.
FRAME_MS = const(10)
TICKS_PERIOD = const(0x40000000)
TICKS_MASK = const(0x3FFFFFFF)



# The objects that hold the heap blocks the board's own code would pin (firmware/hal/heldblocks.py)
HELD = []


def ticks_diff(a, b):
    """a - b for 30-bit wrapping tick counts (result in -2**29 .. 2**29 - 1)."""
    d = (a - b) & TICKS_MASK
    if d >= 0x20000000:
        d -= TICKS_PERIOD
    return d


def button_bit(name):
    """'confirm' -> 1 ... 'end' -> 16; -1 if unknown."""
    i = 0
    for n in BUTTON_NAMES:
        if n == name:
            return 1 << i
        i += 1
    return -1


def button_name(bit):
    i = 0
    while i < N_BUTTONS:
        if bit == (1 << i):
            return BUTTON_NAMES[i]
        i += 1
    return "?"


# Cell names are board geometry, shared with every grid game (shared_rules/geometry.py).
from shared_rules.geometry import cell_name, parse_cell  # noqa: E402,F401


def word_range(words, n):
    """(lo, hi): the items lo..hi-1 of n that a game command's optional words FROM [COUNT]
    (words[1], words[2]) ask for, e.g. `history 64 64`; empty for FROM at or past the end.
    ValueError (the console's `err`) if they are not whole numbers."""
    try:
        lo = int(words[1]) if len(words) > 1 else 0
        count = int(words[2]) if len(words) > 2 else n
    except ValueError:
        lo = count = -1
    if lo < 0 or count < 0:
        raise ValueError("usage: %s [FROM [COUNT]] (whole numbers)" % words[0])
    lo = min(lo, n)  # FROM past the end: none (a host that pages asks one past the last)
    return lo, min(lo + count, n)


def bit_get(bitmap, c):
    return (bitmap[c >> 3] >> (c & 7)) & 1


def bit_set(bitmap, c, v):
    if v:
        bitmap[c >> 3] |= 1 << (c & 7)
    else:
        bitmap[c >> 3] &= ~(1 << (c & 7)) & 0xFF


def bit_count(bitmap):
    n = 0
    for b in bitmap:
        while b:
            b &= b - 1
            n += 1
    return n


class Hal:
    """Documents the interface; implementations override every method."""

    name = "none"

    def read_sensors(self, buf):
        raise NotImplementedError

    def read_buttons(self):
        raise NotImplementedError

    def show(self, frame):
        raise NotImplementedError

    def ticks_ms(self):
        raise NotImplementedError

    def ticks_us(self):
        raise NotImplementedError

    def wait_frame(self):
        raise NotImplementedError

    def serial_read(self):
        raise NotImplementedError

    def serial_write(self, b):
        raise NotImplementedError

    has_repl = False
    # whether the board's code holds words that would pin heap blocks: those blocks are then
    # held before each game's code is loaded (firmware/hal/heldblocks.py; the RP2040's native code)
    holds_heap = False

    def set_ctrl_c(self, on):
        """Default: nothing to switch (no REPL behind the serial)."""
        self.ctrl_c = on

    def flash_root(self):
        return None

    def board_id(self):
        return ""

    def wall_time(self):
        return 0

    def set_wall_time(self, t):
        """Default: no clock to set (wall_time stays 0); a HELLO is answered all the same."""


# --- the platform ---------------------------------------------------------------------------------

def unload(module):
    """Drop a loaded module (e.g. "firmware.system.logformat") on MicroPython, where its bytecode
    would otherwise stay in the heap: code needed only now and then is imported when needed
    and dropped after (docs/firmware.md "Loading on demand"). Nothing on CPython."""
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(module, None)
    i = module.rfind(".")
    if i > 0:
        pkg = sys.modules.get(module[:i])
        short = module[i + 1:]
        # not `short in dir(pkg)`: MicroPython's dir() tries every interned name on the object
        # (a thousand with «Формула 99» loaded), 0.25 ms an unload on the unix port; a name not
        # there is KeyError on MicroPython (getattr(pkg, short, None) first ran the 256k cards
        # game of tests/cargocube/test_cargocube_tracker_cards.py out of memory)
        if pkg is not None:
            try:
                delattr(pkg, short)
            except (AttributeError, KeyError):
                pass
