"""Revision B's `calibrate`: every cell's zero, taken on an empty board and kept on the flash.

A linear Hall sensor reads a field of its own with nothing above it (its zero error, +-0.5 mT
per part, and what the board adds); the HAL takes it off every reading (firmware/hal/hall.py,
`HallReader.zero`, 0.01 mT per cell). The console's `calibrate` (firmware/system/app_revb.py)
loads this module and drops it once the zeros are taken (a board playing or idling keeps none
of it):

- `start(app)`: the board must be clear (no cell above CAL_CLEAR, else `err` naming the
  cells). The fields are weighed with no zero taken off, as the sensors give them: an empty
  cell then reads its sensor's whole zero error (a DRV5055's zero is VCC/2 +- 60 mV at 3.3 V,
  +-2.0 mT, and the mid-supply divider's 1 % resistors add +-0.55 mT), a cube 6.06 mT at
  least (3.21 with that error against it). Weighed after the zeros, a board never calibrated,
  or one with a sensor replaced, could read over the limit empty, and be refused for good. The HAL then takes every scan's sums whole (no deadband) for CAL_SCANS
  frames; their average is every cell's zero (HallReader.calibrate), written to the flash
  power-loss safely (the game log's write_atomic: a temporary file renamed over the old one),
  and the reply is `ok calibrated max=N` (the largest zero, 0.01 mT), CAL_SCANS frames after
  the command.

The file (its name and format: firmware/system/hallzero.py) is loaded at boot
(firmware/system/boot_revb.py, `load_zeros`).
"""

from firmware import hal as H
from firmware.hal import hall


def _crowded(fields, zero, limit):
    """The names of the cells whose |field| with its zero put back (what the sensor gives) is
    above limit (0.01 mT), or ''."""
    out = []
    for c in range(hall.N_CELLS):
        v = fields[c] + zero[c]
        if v > limit or v < -limit:
            out.append(H.cell_name(c))
    return " ".join(out)


def start(app):
    """The console's `calibrate`: None (the reply follows once the scans are in) or `err ...`."""
    if app.STATE_NAMES[app.state] == "play":  # the game reads the fields
        return "err calibrate: a game is in play (abort it, clear the board, calibrate)"
    if app.calibration is not None:
        return "err calibrate: already calibrating"
    scans = app.hal.reader.cal_scans
    clear = app.hal.reader.cal_clear
    cells = _crowded(app.hal.levels, app.hal.reader.zero, clear)
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
        cells = _crowded(s, hal.reader.zero, self.clear)
        if cells:
            hal.unsettled(False)
            return "err calibrate: a piece came on the board (%s); zeros unchanged" % cells
        big = hal.reader.calibrate(s)
        hal.unsettled(False)
        root = hal.flash_root()
        if root is None or app.glog is None:
            return ("err calibrate: no filesystem to keep the zeros in (max=%d; they hold until "
                    "power-off)" % big)
        from firmware.system import hallzero
        try:
            app.glog.write_atomic(hallzero.path(root), hallzero.pack(hal.reader.zero))
        except Exception as e:
            return "err calibrate: zeros not stored: %s: %s (max=%d; they hold until power-off)" % (
                type(e).__name__, e, big)
        finally:
            hallzero = None
            H.unload("firmware.system.hallzero")
        return "ok calibrated max=%d" % big
