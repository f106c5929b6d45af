"""Revision B: from the scan's ADC sums to the field at each cell and its occupancy.

The scan (the revision-B HAL) reads per cell the sum of SAMPLES conversions of its linear Hall
sensor, then the sums of the mid-supply reference (+3V3 / 2: what a sensor gives with no field)
and of a grounded channel. This module is the logic after it, the same for the board and the
simulator:

- `settle(new, sums, deadband)`: a cell's sum is taken over only when it moved by more than the
  deadband since it was last taken (the ADC's jitter stays out; when nothing moves the sums stay
  the same object content, so the next stage can skip the frame). The board's HAL does this
  inside its compiled scan loop; the simulator calls this function.
- `HallReader.update(sums, occ)`: fields in units of 0.01 mT, (sum - mid) scaled by the ADC's
  full scale and the sensor's sensitivity, minus a per-cell zero (`zero`: the console's
  `calibrate` takes it on an empty board, firmware/system/calib.py, and the boot loads it from
  the flash, firmware/system/boot_revb.py); and the occupancy bitmap, with hysteresis: a cell
  reads occupied from |field| >= occ_on and empty again below occ_off (a cube with its worst
  neighbours against it reads 4.1 mT, an empty cell among 8 worst neighbours 2.0 mT, at nominal
  sensitivity: docs/hardware.md, revision B). The cells it converted are marked in `changed`,
  which the app's level scanner reads and clears (firmware/drivers/levels.py): it compares
  only those.

Small ints, preallocated arrays; the conversion runs only on frames where a sum changed.
"""

from array import array

N_CELLS = 121
MID = N_CELLS       # index of the mid-supply reference's sum
ZERO = N_CELLS + 1  # index of the grounded channel's sum
N_SUMS = N_CELLS + 2
MID_BAND = 4        # units of a sum: 0.5 ADC steps of an 8-conversion sum
# The RP2040 ADC's codes 512, 1536, 2560, 3584 are several steps wide (errata RP2040-E11): a
# reading within DNL_BAND codes of one may jump by that much for a tiny change. Such cells
# are marked `rough`, so that whoever compares their steps allows for it.
DNL_FIRST = 512     # the codes DNL_FIRST + DNL_STEP * k: 512, 1536, 2560, 3584
DNL_STEP = 1024
DNL_BAND = 12


def settle(new, sums, deadband):
    """Take over new[i] into sums[i] where it moved by more than deadband; returns how many."""
    n = 0
    for i in range(N_SUMS):
        d = new[i] - sums[i]
        if d > deadband or d < -deadband:
            sums[i] = new[i]
            n += 1
    return n


class HallReader:
    def __init__(self, samples, sens_uv_per_mt, full_mv, occ_on, occ_off, zero=None,
                 cal_scans=0, cal_clear=0):
        # 0.01 mT per unit of a sum: full_mv / 4096 mV a code, sens uV per mT, samples a sum;
        # num / den in lowest terms (1375 / 4096 on the board), so that a cell's (sum - mid) *
        # num stays a small int: at 330 000 000 it was a big int, an allocation per cell
        num = 100 * full_mv * 1000
        den = 4096 * sens_uv_per_mt * samples
        g, k = num, den
        while k:
            g, k = k, g % k
        self.num = num // g
        self.den = den // g
        self.occ_on = occ_on
        self.occ_off = occ_off
        # `calibrate` (firmware/system/calib.py): the scans it averages, and the most a cell
        # of a clear board may read (0.01 mT)
        self.cal_scans = cal_scans
        self.cal_clear = cal_clear
        self.levels = array("h", bytes(2 * N_CELLS))   # field per cell, 0.01 mT
        self.zero = zero if zero is not None else array("h", bytes(2 * N_CELLS))
        self._occ = bytearray(16)
        self.rough = bytearray(16)                  # cells reading next to a DNL spike
        # the cells converted since the level scanner last read this bitmap (it clears what it
        # reads, firmware/drivers/levels.py): no other cell's field can have moved
        self.changed = bytearray(16)
        self._last = array("H", bytes(2 * N_SUMS))   # the sums last converted (u16)
        self._samples = samples
        self._first = True
        # the per-cell loop of update() in compiled code, if the HAL has one (the board's:
        # fast(sums, mid, every) -> cells converted); None: update's own loop, in Python
        self.fast = None
        # The mid-supply reference moves every cell's zero at once: it is averaged over about
        # 16 scans (x 16 here) and taken over only when it moved by more than MID_BAND units
        # of a sum, else its own noise would shift all 121 fields together.
        self._mid16 = 0
        self._mid = 0

    def sum_units(self, mt100):
        """How many units of a sum make mt100 (0.01 mT): the deadband of `settle`."""
        return (2 * mt100 * self.den + self.num) // (2 * self.num)  # rounded, half up

    def update(self, sums, occ):
        """Convert the cells whose sum changed (all when the mid reference moved); fill the
        occupancy bitmap occ (bytearray(16)). Returns the number of cells converted."""
        if self._first:
            self._mid16 = sums[MID] * 16
            self._mid = sums[MID]
        else:
            self._mid16 += sums[MID] - self._mid16 // 16
        mid = (self._mid16 + 8) // 16
        every = self._first
        if mid - self._mid > MID_BAND or self._mid - mid > MID_BAND:
            self._mid = mid
            every = True
        mid = self._mid
        self._first = False
        last = self._last
        bits = self._occ
        if self.fast is not None:
            # the board's compiled loop (rp2040_revb.py): the same numbers as the one below
            # (tests/test_revb_pico.py compares both on the chip)
            n = self.fast(sums, mid, every)
        else:
            levels = self.levels
            zero = self.zero
            on = self.occ_on
            off = self.occ_off
            num = 2 * self.num  # twice over, so that halves round as with any num / den
            den = self.den
            den2 = 2 * den
            samples = self._samples
            rough = self.rough
            changed = self.changed
            first = DNL_FIRST
            step = DNL_STEP
            band = DNL_BAND
            n = 0
            for c in range(N_CELLS):
                s = sums[c]
                if not every and s == last[c]:
                    continue
                last[c] = s
                d = (s - mid) * num  # (cell - mid) in 0.01 mT, rounded to nearest
                v = ((d + den) // den2 if d >= 0 else -((den - d) // den2)) - zero[c]
                levels[c] = v
                a = v if v >= 0 else -v
                i = c >> 3
                b = 1 << (c & 7)
                changed[i] |= b
                # within DNL_BAND of a DNL code: one remainder, not a loop over the four
                r = (s // samples - first) % step
                if r < band or r > step - band:
                    rough[i] |= b
                else:
                    rough[i] &= ~b & 0xFF
                if a >= on:
                    bits[i] |= b
                elif a < off:
                    bits[i] &= ~b & 0xFF
                n += 1
        last[MID] = sums[MID]
        last[ZERO] = sums[ZERO]
        for i in range(16):
            occ[i] = bits[i]
        return n

    def calibrate(self, fields=None):
        """Take the fields now (or `fields`, e.g. their average over a few scans: 0.01 mT per
        cell, read against the current zero) as every cell's zero (the board must be clear):
        the sensors' zero errors and what the board itself adds. Returns the largest zero."""
        if fields is None:
            fields = self.levels
        big = 0
        for c in range(N_CELLS):
            v = fields[c] + self.zero[c]
            self.zero[c] = v
            if abs(v) > big:
                big = abs(v)
        self._first = True
        return big


def reader(pm):
    """The HallReader for a pin map module (hardware/pinmap_revb.py)."""
    return HallReader(pm.SAMPLES, pm.SENS_UV_PER_MT, pm.ADC_FULL_MV, pm.OCC_ON, pm.OCC_OFF,
                      None, pm.CAL_SCANS, pm.CAL_CLEAR)
