"""Simulated HAL: lockstep binary channel with the host over stdin/stdout (docs/sim-protocol.md).

Every message, both ways: 0xA5, type (one ASCII byte), length (u16 little endian), payload.
Host -> firmware:
    'F' frame:  u32 LE time_ms, 16 bytes sensor bitmap, u8 buttons, then serial bytes (rest).
    'Q' quit:   no payload; wait_frame() raises SystemExit.
Firmware -> host:
    'H' hello (once, at start): ASCII "cargoboard-sim <proto>".
    'L' LED frame: 471 bytes RGB, only when it differs from the last one sent.
    'S' serial bytes written by the firmware during the frame.
    'T' text (log / diagnostics, not part of the USB serial).
    'D' frame done: u32 LE time_ms of the frame just processed. Sent by wait_frame() before it
        blocks for the next 'F'; the host reads until 'D'.
Time is the host's only: ticks_ms() is the time of the current 'F' frame (masked to 30 bits),
ticks_us() = ticks_ms() * 1000. No wall clock but what a host's HELLO sets (set_wall_time),
counted on by the process's clock.

Flash: as MicroPython mounts the Pico's flash before main.py runs, main.py mounts the
simulator's (a littlefs image in a file, firmware/drivers/flashdev.py, the Pico's geometry, at
/flash: the file given as `main.py --sim --flash PATH`, written through at once, so the virtual
board's games survive runs; without it a temporary file that is removed at once, so the image
lives as long as the process; it is kept out of the heap, as the Pico's flash is) and hands it
to the HAL with attach_flash(root, board id). The board id is the virtual chip's, given by the
host with the image, so it outlives an erased flash (flashdev.open_flash).
"""

import sys
import time
from firmware.hal import Hal, BITMAP_BYTES, FRAME_BYTES, TICKS_MASK, unload

PROTO = 1
MAGIC = 0xA5


class SimHal(Hal):
    name = "sim"

    def __init__(self, inp=None, out=None, budget_max_ma=None):
        # budget_max_ma: the board's USB-safe LED budget; revision B's HAL gives its own, else
        # revision A's pin map's, read when asked (led_budget_max_ma)
        self._budget_max_ma = budget_max_ma
        self._flash_root = None  # no flash until main.py attaches the mounted one
        self._board_id = None
        self._in = inp if inp is not None else sys.stdin.buffer
        self._out = out if out is not None else sys.stdout.buffer
        self._hdr = bytearray(4)
        self._hdr_mv = memoryview(self._hdr)
        self._buf = bytearray(1024)
        self._mv = memoryview(self._buf)
        self._sensors = bytearray(BITMAP_BYTES)
        self._buttons = 0
        self._t = 0
        self._clock = None  # the HELLO's time less the process's clock then: set_wall_time
        self._serial_in = None
        self._led = bytearray(FRAME_BYTES)
        self._led_dirty = False
        self._sent_any_led = False
        self._frame_done_pending = False
        self._send(ord("H"), b"cargoboard-sim %d" % PROTO)

    @property
    def led_budget_max_ma(self):
        """Revision A's USB-safe LED budget from its pin map, read for the moment it is asked
        (a `budget` command, rare): the pin map's module loaded at boot and dropped again left
        the unix port's heap in pieces where a game later wanted 2 KB in one."""
        if self._budget_max_ma is not None:
            return self._budget_max_ma
        from hardware import pinmap
        v = pinmap.LED_BUDGET_MAX_MA
        pinmap = None
        unload("hardware.pinmap")
        return v

    # --- channel ---------------------------------------------------------------------------
    def _send(self, typ, payload):
        n = len(payload)
        h = self._hdr
        h[0] = MAGIC
        h[1] = typ
        h[2] = n & 0xFF
        h[3] = n >> 8
        self._out.write(h)
        if n:
            self._out.write(payload)

    def _read_exact(self, mv, n):
        got = 0
        while got < n:
            k = self._in.readinto(mv[got:n])
            if not k:
                raise SystemExit(0)  # host went away
            got += k

    def log(self, text):
        """Diagnostics to the host (not the USB serial)."""
        if isinstance(text, str):
            text = text.encode()
        self._send(ord("T"), text)

    # --- HAL interface ---------------------------------------------------------------------
    def wait_frame(self):
        if self._frame_done_pending:
            if self._led_dirty:
                self._send(ord("L"), self._led)
                self._led_dirty = False
            t = self._t
            self._send(ord("D"), bytes((t & 0xFF, (t >> 8) & 0xFF, (t >> 16) & 0xFF, (t >> 24) & 0xFF)))
            self._frame_done_pending = False
        while True:
            self._read_exact(self._hdr_mv, 4)
            h = self._hdr
            if h[0] != MAGIC:
                self.log("bad magic 0x%02x" % h[0])
                raise SystemExit(2)
            n = h[2] | (h[3] << 8)
            if n > len(self._buf):
                self._buf = bytearray(n)
                self._mv = memoryview(self._buf)
            self._read_exact(self._mv, n)
            typ = h[1]
            if typ == ord("Q"):
                raise SystemExit(0)
            if self._take(typ, n):
                self._frame_done_pending = True
                return
            self.log("unknown message type 0x%02x" % typ)

    def _take(self, typ, n):
        """A frame's message of n bytes in _buf: True if it is one (revision B's HAL,
        firmware/hal/sim_revb.py, takes its own as well)."""
        if typ != ord("F") or n < 21:
            return False
        b = self._buf
        self._t = (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) & TICKS_MASK
        for i in range(BITMAP_BYTES):
            self._sensors[i] = b[4 + i]
        self._sensors[15] &= 0x01  # only cell 120 in the last byte
        self._buttons = b[20] & 0x1F
        self._serial_in = bytes(b[21:n]) if n > 21 else None
        return True

    def read_sensors(self, buf):
        s = self._sensors
        for i in range(BITMAP_BYTES):
            buf[i] = s[i]

    def read_buttons(self):
        return self._buttons

    def show(self, frame):
        if frame != self._led or not self._sent_any_led:
            self._led[:] = frame
            self._led_dirty = True
            self._sent_any_led = True

    def ticks_ms(self):
        return self._t

    def ticks_us(self):
        return (self._t * 1000) & TICKS_MASK

    def serial_read(self):
        d = self._serial_in
        self._serial_in = None
        return d

    def serial_write(self, b):
        # Each write goes out at once as its own S message (the host reads every message of
        # the frame, as a host reading the board's USB serial takes all it writes; a sync's
        # FETCH reply is tens of KB in one frame). Nothing is queued: a queue that grew in the
        # frame needed a 4 KB block the unix port's heap lacked, and one kept for good costs
        # the 192 KiB test heap a KB. (Writes are lines and frames, < 1.1 KB; a message holds
        # 65535 bytes.)
        if b:
            self._send(ord("S"), b)

    # --- flash, identity ---------------------------------------------------------------------------
    def attach_flash(self, root, board_id):
        """The flash filesystem main.py mounted at root, and the board id kept in it."""
        self._flash_root = root
        self._board_id = board_id

    def flash_root(self):
        return self._flash_root

    def board_id(self):
        return self._board_id or "sim"

    # --- clock: only what a host's HELLO said, counted on at real time ---------------------------
    def set_wall_time(self, t):
        """t seconds since 1970 UTC now: kept in RAM as its difference from the process's
        clock, so it runs at real time as a board's RTC does (the frames' ticks run ahead of
        real time while serial input comes, a frame at once for each request, and behind it
        on a loaded machine); the process's end loses it, as a board's power cut does."""
        self._clock = t - int(time.time())

    def wall_time(self):
        c = self._clock
        return 0 if c is None else c + int(time.time())
