"""Revision B: every cell's zero, taken on an empty board and kept on the flash.

A linear Hall sensor reads a field of its own with nothing above it (its zero error, +-0.5 mT
per part, and what the board adds); the HAL takes it off every reading (firmware/hal/hall.py,
`HallReader.zero`, 0.01 mT per cell). This module, loaded for one of its two jobs and dropped
after (a board playing or idling keeps none of it):

- `boot(app)` (firmware/system/boot.py, revision B): the zeros from the flash file ZERO_FILE
  into the HAL. A missing or bad file leaves every zero 0 and says so (`evt not calibrated:
  ...`); a bad file is left as it is.
- `start(app)` (the console's `calibrate`, firmware/system/app_revb.py): the board must be
  clear (no cell above CAL_CLEAR after its zero, else `err` naming the cells). The HAL then
  takes every scan's sums whole (no deadband) for CAL_SCANS frames; the average is every cell's
  zero (HallReader.calibrate), written to the flash power-loss safely (the game log's
  write_atomic: a temporary file renamed over the old one) and the reply is
  `ok calibrated max=N` (the largest zero, 0.01 mT), CAL_SCANS frames after the command.

The file: a version byte (VERSION), then the 121 zeros as signed 16-bit little endian.
"""

from firmware import hal as H
from firmware.hal import hall

ZERO_FILE = "hall_zero"
VERSION = 1
SIZE = 1 + 2 * hall.N_CELLS


def _path(app):
    root = app.hal.flash_root()
    return None if root is None else root.rstrip("/") + "/" + ZERO_FILE


def boot(app):
    """Load the zeros kept on the flash into the HAL (True); `evt not calibrated: ...` if there
    are none (every zero stays 0)."""
    import os
    path = _path(app)
    why = None
    if path is None:
        why = "no flash"
    else:
        try:
            # looked up before it is opened: a failed open leaves the Pico's heap fuller for
            # good (firmware/system/boot.py, /board_rev)
            size = os.stat(path)[6]
        except OSError:
            size = -1
        if size < 0:
            why = "no zeros on the flash"
        else:
            buf = bytearray(SIZE)
            n = -1
            if size == SIZE:
                try:
                    with open(path, "rb") as f:
                        n = f.readinto(buf)
                except OSError as e:
                    why = "%s unreadable (%s)" % (ZERO_FILE, e)
            if why is None and (n != SIZE or buf[0] != VERSION):
                why = "%s is damaged (%d bytes, version %d; kept)" % (ZERO_FILE, size, buf[0])
            if why is None:
                zero = app.hal.reader.zero
                for c in range(hall.N_CELLS):
                    v = buf[1 + 2 * c] | (buf[2 + 2 * c] << 8)
                    zero[c] = v - 65536 if v >= 32768 else v
                return True
    app.emit("not calibrated: %s (every zero 0; `calibrate` on an empty board)" % why)
    return False


def _crowded(fields, limit):
    """The names of the cells whose |field| is above limit (0.01 mT), or ''."""
    out = []
    for c in range(hall.N_CELLS):
        v = fields[c]
        if v > limit or v < -limit:
            out.append(H.cell_name(c))
    return " ".join(out)


def start(app):
    """The console's `calibrate`: None (the reply follows once the scans are in) or `err ...`."""
    if app.STATE_NAMES[app.state] == "play":  # the game reads the fields
        return "err calibrate: a game is in play (abort it, clear the board, calibrate)"
    if app.calibration is not None:
        return "err calibrate: already calibrating"
    from hardware import pinmap_revb as PM
    scans = PM.CAL_SCANS
    clear = PM.CAL_CLEAR
    PM = None
    H.unload("hardware.pinmap_revb")
    cells = _crowded(app.hal.levels, clear)
    if cells:
        return "err calibrate: the board must be clear (|field| > %d.%02d mT on %s)" % (
            clear // 100, clear % 100, cells)
    app.calibration = Calibration(app, scans, clear)
    app.hal.unsettled(True)
    return None


class Calibration:
    """The scans being averaged; `scan()` once a frame (HallApp's scanner) until done."""

    def __init__(self, app, scans, clear):
        from array import array
        self.app = app
        self.scans = scans
        self.clear = clear
        self.sum = array("i", bytes(4 * hall.N_CELLS))
        self.n = -1  # the first frame's scan was made before the HAL took every sum

    def scan(self):
        n = self.n
        self.n = n + 1
        if n < 0:
            return
        levels = self.app.hal.levels
        s = self.sum
        for c in range(hall.N_CELLS):
            s[c] += levels[c]
        if n + 1 < self.scans:
            return
        self.app.calibration = None
        self.app.write_line(self._finish())

    def _finish(self):
        app = self.app
        hal = app.hal
        k = self.scans
        s = self.sum
        for c in range(hall.N_CELLS):  # the average, rounded to the nearest 0.01 mT
            v = s[c]
            s[c] = (v + k // 2) // k if v >= 0 else -((k // 2 - v) // k)
        cells = _crowded(s, self.clear)
        if cells:
            hal.unsettled(False)
            return "err calibrate: a piece came on the board (%s); zeros unchanged" % cells
        big = hal.reader.calibrate(s)
        hal.unsettled(False)
        path = _path(app)
        if path is None or app.glog is None:
            return "err calibrate: no flash to keep the zeros (max=%d; they hold until power-off)" % big
        data = bytearray(SIZE)
        data[0] = VERSION
        zero = hal.reader.zero
        for c in range(hall.N_CELLS):
            v = zero[c] & 0xFFFF
            data[1 + 2 * c] = v & 0xFF
            data[2 + 2 * c] = v >> 8
        try:
            app.glog.write_atomic(path, data)
        except Exception as e:
            return "err calibrate: zeros not stored: %s: %s (max=%d; they hold until power-off)" % (
                type(e).__name__, e, big)
        return "ok calibrated max=%d" % big
