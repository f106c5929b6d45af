"""Real HAL for the revision-B board (linear Hall sensors): the Pico (RP2040) scans 121 DRV5055
sensors through 8 CD74HC4067 multiplexers into ADC0, the rows powered one at a time by a
74HC154 and P-MOSFETs. Pins come from hardware/pinmap_revb.py; the circuit, the scan's timing
and the power budget are in docs/hardware.md ("Revision B").

- The scan (`_scan`, viper: compiled to Thumb code, `mpy-cross -march=armv6m`, which
  host/cargoboard/build.py does for this module): for each row, put the row address on
  GP7..GP10 and ROW_EN low, wait ROW_ON_US for the sensors to come up (busy-waiting on the
  1 MHz timer); for each of the row's cells put its address (multiplexer << 4 | channel) on
  GP0..GP6, discard one conversion while the input settles, sum SAMPLES conversions (ADC CS
  START_ONCE, polled till READY). A cell's sum is taken over only when it moved by more than
  the deadband (the logic of firmware.hal.hall.settle, inside the loop: no call per cell). Then
  ROW_EN high (no row powered between scans) and the mid-supply and GND channels. Registers
  are written directly (SIO's set/clear registers, the ADC's CS and RESULT): a Python loop of
  ADC.read_u16() would take ~19 ms, the viper loop 6.7 ms on the emulated RP2040
  (`python -m circuit.scantime`, bench/revb_scan.py).
- From the sums on, firmware.hal.hall (the same as in the simulator): fields per cell in
  0.01 mT (`levels`), cells next to an ADC DNL spike (`rough`), the occupancy bitmap with
  hysteresis (read_sensors()).
- Buttons: GP12..GP16, active low (47 k pull-ups on the board), read from SIO's GPIO_IN once
  a frame, and latched: a falling edge (a press) sets its bit from a hard GPIO interrupt, kept
  in the chip's INTR register while interrupts are off (a flash erase of a log append blinds
  the CPU for ~45 ms; revision A's buttons, on the 74HC165 chain, cannot be latched). A press
  the latch saw but the sample does not (it began and ended in a long frame) is reported in
  two samples: a late frame credits it from the frame that was due and the next sample
  confirms it (firmware/drivers/scanner.py, Buttons); on time, two samples 10 ms apart are
  short of the 30 ms debounce, so a contact bounce the latch catches is still not a press.
- The Pico's RT6150 regulator runs in PWM mode (SMPS_PS, GP23, high; the stock image leaves
  it low, power-save PFM): the Pico datasheet recommends it while the ADC is used, for less
  ripple on 3V3, which feeds the sensors and is the ADC's reference. It costs some efficiency
  at light load.
- LEDs, USB serial, the frame clock, flash, identity: as revision A (firmware.hal.rp2040).

Besides the HAL interface: `levels`, `rough` (above), `reader` (the HallReader: its `zero`
per cell, `calibrate`), `unsettled(on)` (every scan's sums taken whole while the calibration
averages them) and `led_budget_ma`, the LED current the app may spend (lower than revision
A's: the sensors draw from the same USB 500 mA).
Compiled with mpy-cross, never run on hardware yet (no revision-B board exists).
"""

import machine
import micropython
from micropython import const
from machine import Pin, ADC
from array import array

from firmware.hal.rp2040 import Rp2040Hal
from firmware.hal import hall, BITMAP_BYTES, unload
from hardware import pinmap_revb as PMB

# RP2040 registers (datasheet, chapter 2.3.1 SIO and 4.9 ADC)
_SIO_IN = const(0xD0000004)       # GPIO_IN
_SIO_SET = const(0xD0000014)      # GPIO_OUT_SET
_SIO_CLR = const(0xD0000018)      # GPIO_OUT_CLR
_ADC_CS = const(0x4004C000)       # CS: EN bit 0, START_ONCE bit 2, READY bit 8, AINSEL bits 12..14
_ADC_RESULT = const(0x4004C004)
_TIMERAWL = const(0x40054028)     # the 1 MHz timer's low word
# the scan's settings, one array (a viper function takes few arguments)
_ROWS = const(0)
_ROW_CELLS = const(1)
_SAMPLES = const(2)
_T_ON = const(3)
_DEADBAND = const(4)
_CELL_SHIFT = const(5)
_ROW_SHIFT = const(6)
_ROW_EN = const(7)
_AINSEL = const(8)
_MID = const(9)
_ZERO = const(10)


@micropython.viper
def _scan(sums: ptr16, cfg: ptr32) -> int:
    rows = cfg[_ROWS]
    row_cells = cfg[_ROW_CELLS]
    samples = cfg[_SAMPLES]
    t_on = cfg[_T_ON]
    deadband = cfg[_DEADBAND]
    cell_shift = cfg[_CELL_SHIFT]
    row_shift = cfg[_ROW_SHIFT]
    row_en = cfg[_ROW_EN]
    mid = cfg[_MID]
    zero = cfg[_ZERO]
    sio_set = ptr32(_SIO_SET)
    sio_clr = ptr32(_SIO_CLR)
    cs = ptr32(_ADC_CS)
    result = ptr32(_ADC_RESULT)
    timer = ptr32(_TIMERAWL)
    start = (cfg[_AINSEL] << 12) | 5         # EN | START_ONCE on the hall input
    cell_mask = 0x7F << cell_shift
    row_mask = 0xF << row_shift
    n = 0
    c = 0
    y = 0
    while y < rows + 1:
        if y < rows:
            sio_set[0] = 1 << row_en             # every row off while the address changes:
            sio_clr[0] = row_mask                # (cleared, it would select row 0 between rows)
            sio_set[0] = y << row_shift
            sio_clr[0] = 1 << row_en             # the row's sensors on
            t0 = timer[0]
            while timer[0] - t0 < t_on:
                pass
            last = c + row_cells
        else:
            sio_set[0] = 1 << row_en             # every row off: the two reference channels
            last = c + 2
        while c < last:
            addr = c
            if c == rows * row_cells:
                addr = mid
            elif c > rows * row_cells:
                addr = zero
            sio_clr[0] = cell_mask
            sio_set[0] = addr << cell_shift
            k = 0
            s = 0
            while k <= samples:
                cs[0] = start
                while not (cs[0] & 0x100):
                    pass
                if k:                           # the first conversion settles the input
                    s += result[0]
                k += 1
            d = s - sums[c]
            if d > deadband or d < 0 - deadband:
                sums[c] = s
                n += 1
            c += 1
        y += 1
    return n


# the conversion's settings and state, one array (_convert's cfg)
_C_MID = const(0)
_C_NUM = const(1)       # 2 * num of the field's fraction in lowest terms
_C_DEN = const(2)       # its den, a power of two, and ...
_C_SHIFT = const(3)     # ... log2(2 * den)
_C_SSHIFT = const(4)    # log2(SAMPLES): a sum to its code
_C_ON = const(5)
_C_OFF = const(6)
_C_BAND = const(7)      # hall.DNL_BAND
_C_FIRST = const(8)     # hall.DNL_FIRST
_C_STEP = const(9)      # hall.DNL_STEP, a power of two
_C_CELLS = const(10)    # hall.N_CELLS


@micropython.viper
def _convert(sums: ptr16, bufs, cfg: ptr32, every: int) -> int:
    """The per-cell loop of hall.HallReader.update in viper, the same numbers
    (tests/test_revb_pico.py compares the two on the chip): the Python loop takes 70 us a cell
    there, 8.5 ms for a frame in which every cell moved; this one 6.5 us.
    bufs: (levels, zero, last, rough, occupancy bits, changed)."""
    levels = ptr16(bufs[0])
    zero = ptr16(bufs[1])
    last = ptr16(bufs[2])
    rough = ptr8(bufs[3])
    bits = ptr8(bufs[4])
    changed = ptr8(bufs[5])
    mid = cfg[_C_MID]
    num = cfg[_C_NUM]
    den = cfg[_C_DEN]
    shift = cfg[_C_SHIFT]
    sshift = cfg[_C_SSHIFT]
    on = cfg[_C_ON]
    off = cfg[_C_OFF]
    band = cfg[_C_BAND]
    first = cfg[_C_FIRST]
    step = cfg[_C_STEP]
    cells = cfg[_C_CELLS]
    n = 0
    c = 0
    while c < cells:
        s = int(sums[c])
        if every or s != int(last[c]):
            last[c] = s
            d = (s - mid) * num
            if d >= 0:
                v = (d + den) >> shift
            else:
                v = 0 - ((den - d) >> shift)
            z = int(zero[c])
            if z & 0x8000:                      # (a signed 16-bit zero)
                z -= 0x10000
            v -= z
            levels[c] = v
            a = v
            if v < 0:
                a = 0 - v
            i = c >> 3
            b = 1 << (c & 7)
            changed[i] = int(changed[i]) | b
            r = ((s >> sshift) - first) & (step - 1)
            if r < band or r > step - band:
                rough[i] = int(rough[i]) | b
            else:
                rough[i] = int(rough[i]) & (0xFF ^ b)
            if a >= on:
                bits[i] = int(bits[i]) | b
            elif a < off:
                bits[i] = int(bits[i]) & (0xFF ^ b)
            n += 1
        c += 1
    return n


def _log2(x):
    """k if x is 2 ** k, else -1."""
    k = 0
    while x > 1 and not x & 1:
        x >>= 1
        k += 1
    return k if x == 1 else -1


class Rp2040HallHal(Rp2040Hal):
    name = "rp2040-revb"

    def __init__(self):
        pm = PMB
        for i in range(7):
            Pin(pm.CELL_SHIFT + i, Pin.OUT, value=0)
        for i in range(4):
            Pin(pm.ROW_SHIFT + i, Pin.OUT, value=0)
        Pin(pm.ROW_EN, Pin.OUT, value=1)         # no row powered until the scan
        self._latched = 0                        # presses (falling edges) since the last sample
        self._held = 0                           # ... reported once, to be reported again
        for i in range(5):
            Pin(pm.BUTTON_FIRST + i, Pin.IN).irq(_latch(self, 1 << i), Pin.IRQ_FALLING,
                                                 hard=True)   # pulled up on the board
        # the Pico's regulator in PWM mode (its PS pin, GP23, high): less ripple on the 3V3
        # that is the sensors' supply and the ADC's reference (Pico datasheet, 4.3)
        Pin(pm.SMPS_PS, Pin.OUT, value=1)
        self._adc = ADC(pm.ADC_ID)               # sets GP26 up as the ADC input, enables it
        self._reader = hall.reader(pm)
        self._fast_conversion(pm)
        self._sums = array("H", bytes(2 * hall.N_SUMS))
        self._occ = bytearray(BITMAP_BYTES)
        self._first = True
        # deadband -1 at first: the first scan takes every sum
        self._cfg = array("i", (hall.N_CELLS // pm.ROW_CELLS, pm.ROW_CELLS, pm.SAMPLES,
                                pm.ROW_ON_US, -1, pm.CELL_SHIFT, pm.ROW_SHIFT, pm.ROW_EN,
                                pm.ADC_ID, pm.MID_ADDR, pm.ZERO_ADDR))
        self._deadband = self._reader.sum_units(pm.DEADBAND)
        self._settled = self._deadband
        self._button_first = pm.BUTTON_FIRST
        self.reader = self._reader
        self.levels = self._reader.levels
        self.rough = self._reader.rough
        self.led_budget_ma = pm.LED_BUDGET_MA
        Rp2040Hal.__init__(self, pm)  # the LEDs, serial and clock as on revision A
        unload("hardware.pinmap_revb")         # read once: its constants need no heap after

    def _fast_conversion(self, pm):
        """Hand the reader the viper loop (_convert) if its arithmetic fits: the field's
        denominator, SAMPLES and the DNL codes' step powers of two (1375 / 4096, 8 and 1024 on
        this board)."""
        r = self._reader
        shift = _log2(2 * r.den)
        sshift = _log2(pm.SAMPLES)
        if shift < 0 or sshift < 0 or _log2(hall.DNL_STEP) < 0:
            return
        cfg = array("i", (0, 2 * r.num, r.den, shift, sshift, r.occ_on, r.occ_off,
                          hall.DNL_BAND, hall.DNL_FIRST, hall.DNL_STEP, hall.N_CELLS))
        bufs = (r.levels, r.zero, r._last, r.rough, r._occ, r.changed)

        def fast(sums, mid, every):
            cfg[_C_MID] = mid
            return _convert(sums, bufs, cfg, 1 if every else 0)
        r.fast = fast

    # --- sensors and buttons ----------------------------------------------------------------
    def read_sensors(self, buf):
        n = _scan(self._sums, self._cfg)
        if n or self._first:
            self._first = False
            self._cfg[_DEADBAND] = self._deadband
            self._reader.update(self._sums, self._occ)
        buf[:] = self._occ
        irq = machine.disable_irq()
        latched = self._latched
        self._latched = 0
        machine.enable_irq(irq)
        raw = (~_gpio_in() >> self._button_first) & 0x1F   # active low
        self._buttons = raw | latched | self._held
        self._held = latched & ~raw

    def read_buttons(self):
        return self._buttons

    def unsettled(self, on):
        """While on, every scan's sums are taken as read, no deadband (`calibrate` averages
        them); off: the deadband again. (A new zero is applied to every cell by
        HallReader.calibrate, which has them all converted anew at the next update.)"""
        self._deadband = -1 if on else self._settled
        self._cfg[_DEADBAND] = self._deadband
        self._first = True


def _latch(hal, bit):
    # a hard interrupt handler: runs at once (after a flash operation, as soon as interrupts
    # are on again), allocates nothing
    def pressed(pin):
        hal._latched |= bit
    return pressed


@micropython.viper
def _gpio_in() -> int:
    """The GPIO input levels (SIO GPIO_IN)."""
    return int(ptr32(_SIO_IN)[0])
