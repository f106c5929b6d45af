"""Revision B's simulated HAL (linear Hall sensors): the SimHal of sim.py, which also takes the
host's 'G' frames (docs/sim-protocol.md: u32 LE time_ms, u8 buttons, the scan's ADC sums as
u16 LE each, then serial bytes). The HAL's logic (firmware/hal/hall.py, as on the board) turns
the sums into the occupancy bitmap and the per-cell fields (`levels`, 0.01 mT; `rough`, the
cells next to an ADC DNL spike) the app's level scanner reads; `reader` and `unsettled(on)` as
on the board (firmware/hal/rp2040_revb.py). main.py's --rev B picks it;
a revision-A board never loads it.
"""

from array import array
from firmware.hal import TICKS_MASK, unload
from firmware.hal import hall
from firmware.hal.sim import SimHal


class SimHallHal(SimHal):
    name = "sim-revb"  # `hello` tells a revision-B virtual board from a revision-A one

    def __init__(self, inp=None, out=None):
        from hardware import pinmap_revb as PMB
        self._reader = hall.reader(PMB)
        self._sums = array("H", bytes(2 * hall.N_SUMS))
        self._new = array("H", bytes(2 * hall.N_SUMS))
        self._deadband = self._reader.sum_units(PMB.DEADBAND)
        self._settled = self._deadband
        self._first = True
        self.reader = self._reader
        self.levels = self._reader.levels
        self.rough = self._reader.rough
        self.led_budget_ma = PMB.LED_BUDGET_MA
        budget_max_ma = PMB.LED_BUDGET_MAX_MA
        PMB = None
        unload("hardware.pinmap_revb")  # read once: its constants need no heap after
        SimHal.__init__(self, inp, out, budget_max_ma)

    def _take(self, typ, n):
        if typ != ord("G") or n < 5 + 2 * len(self._sums):
            return SimHal._take(self, typ, n)
        b = self._buf
        self._t = (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) & TICKS_MASK
        self._buttons = b[4] & 0x1F
        new = self._new
        k = len(new)
        for i in range(k):
            new[i] = b[5 + 2 * i] | (b[6 + 2 * i] << 8)
        if self._first:
            self._first = False
            for i in range(k):
                self._sums[i] = new[i]
            self._reader.update(self._sums, self._sensors)
        elif hall.settle(new, self._sums, self._deadband):
            self._reader.update(self._sums, self._sensors)
        end = 5 + 2 * k
        self._serial_in = bytes(b[end:n]) if n > end else None
        return True

    def unsettled(self, on):
        """As on the board: every scan's sums taken as read while on (no deadband); off: the
        deadband again."""
        self._deadband = -1 if on else self._settled
        self._first = True
