"""Real HAL for the Raspberry Pi Pico (RP2040). Pins come from hardware/pinmap.py; the wiring is
in docs/hardware.md.

- Sensors and buttons: a chain of 16 x 74HC165 read over hardware SPI (mode 2, 1 MHz): pulse
  PL low to latch all inputs, pull CE low, read 16 bytes, CE high. The first byte comes from
  chip 0 (nearest the Pico) and, MSB first, bit j of byte k is input Dj of chip k = cell 8k+j.
  Inputs are active low, so the bytes are inverted. Byte 15: D0 = cell 120, D1..D5 = buttons.
- LEDs: WS2812B through a PIO state machine (the rp2 ws2812 example program, 800 kHz). The RGB
  frame is packed into GRB words (shifted left by 8: the PIO shifts out the top 24 bits) in a
  preallocated array by a viper function (native code, ~0.1 ms for 157 LEDs where the Python
  loop took ~3 ms), and a DMA channel paced by the state machine's TX DREQ feeds them into
  its FIFO: show() returns at once while the ~4.7 ms transfer runs (sm.put blocked the CPU
  for all of it). A frame that comes before the last one is out and latched (30 us per LED,
  then the WS2812B's reset time, LATCH_US, low) waits for that: sent at once it would be read
  as the continuation of the last one and lost; at one frame per 10 ms this never waits.
  The app calls show() only for a frame that differs from the last one shown (App.step).
- Flash: MicroPython's _boot.py mounts the littlefs filesystem at "/" (1408 KiB on a 2 MB
  Pico, 4096-byte blocks, progsize 256); the game logs live under /games.
- USB serial: the MicroPython USB CDC stdio. Reading polls sys.stdin (select.poll, timeout 0)
  and reads sys.stdin.buffer byte by byte, at most 64 bytes a frame. Ctrl-C (0x03) on the
  serial still interrupts the firmware (kept for development with mpremote); the line
  protocol never sends it. Output goes to sys.stdout.buffer.
"""

import sys
import time
import select
import array
import machine
import micropython
import rp2
from machine import Pin, SPI

from firmware.hal import Hal, BITMAP_BYTES, N_LEDS, FRAME_MS
from hardware import pinmap as PM


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=24)
def _ws2812():
    # 10 PIO cycles per bit at 8 MHz = 1.25 us: '1' = 7 high + 3 low, '0' = 2 high + 8 low.
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


@micropython.viper
def _pack_grb(frame, words, n: int):
    # frame: R, G, B bytes per LED; words[i] = G << 24 | R << 16 | B << 8 for the DMA
    src = ptr8(frame)
    dst = ptr32(words)
    o = 0
    for i in range(n):
        dst[i] = (src[o + 1] << 24) | (src[o] << 16) | (src[o + 2] << 8)
        o += 3


@micropython.viper
def led_group(painter, over: int, t: int) -> int:
    # Painter._group (firmware/drivers/ledloops.py: group) in native code, which leds.py puts in
    # its place on the RP2040 (in Python ~80 us an LED drawn: 5.2 ms of a 9 ms render for a
    # Cargocube position with 30 blinking cells, and the builtin sum of the frame 1.1 ms);
    # byte for byte the same (tests/test_pico.py compares them). s = the sum of the frame's
    # bytes; if s >= over every drawn LED (pat[i]: 0x10 | its blink pattern, 0 if not drawn)
    # scaled by t / s; those that blink recorded in bl by pattern k (bl[lo[k]:hi[k]], k 1..3,
    # by index), their 'on' RGB in rgb; returns s << 8 | how many blink.
    f = ptr8(painter.frame)
    pat = painter._pat
    p = ptr8(pat)
    bl = ptr8(painter._bl)
    rgb = ptr8(painter._bl_rgb)
    lo = ptr8(painter._lo)
    hi = ptr8(painter._hi)
    n_leds = int(len(pat))
    s = 0
    i = 0
    while i < n_leds * 3:
        s += f[i]
        i += 1
    if s >= over:
        i = 0
        while i < n_leds:
            if p[i]:
                o = i * 3
                while o < i * 3 + 3:
                    f[o] = (f[o] * t) // s
                    o += 1
            i += 1
    n = 0
    k = 1
    while k < 4:
        lo[k] = n
        want = 0x10 | k
        i = 0
        while i < n_leds:
            if p[i] == want:
                bl[n] = i
                o = i * 3
                q = n * 3
                rgb[q] = f[o]
                rgb[q + 1] = f[o + 1]
                rgb[q + 2] = f[o + 2]
                n += 1
            i += 1
        hi[k] = n
        k += 1
    return (s << 8) | n


@micropython.viper
def led_cells(painter, overlay):
    # Painter.cells (firmware/drivers/ledloops.py: cells) in native code, which leds.py puts in
    # its place on the RP2040: a plug-in's overlay is drawn at every render, and in Python each
    # entry cost ~60 us (3.9 ms of a КУБитва lift's 65 entries). Byte for byte the same
    # (tests/test_pico.py compares them). Each entry (cell, colour, level, blink) of buf[lo:n]:
    # the cell's LED at the cap-scaled palette colour times level / 255 (a colour outside the
    # palette: colour 0, off), pat[cell] = 0x10 | its blink pattern (1..3; none for colour 0).
    f = ptr8(painter.frame)
    pat = ptr8(painter._pat)
    pcol = painter._pc
    pc = ptr16(pcol)
    n_colours = int(len(pcol)) // 3
    b = ptr8(overlay.buf)
    e = int(overlay.lo) * 4
    end = int(overlay.n) * 4
    while e < end:
        c = b[e]
        colour = b[e + 1]
        level = b[e + 2]
        blink = b[e + 3]
        if colour >= n_colours:
            colour = 0
        if colour == 0 or blink > 3:
            blink = 0
        pat[c] = 0x10 | blink
        o = c * 3
        p = colour * 3
        k = 0
        while k < 3:
            f[o + k] = (pc[p + k] * level) // 65025
            k += 1
        e += 4


LED_US = 30     # 24 bits at 800 kHz
LATCH_US = 300  # the data line low this long latches the frame (WS2812B-V5: >= 280 us)


def _dreq_tx(sm_id):
    """The DMA request line of a state machine's TX FIFO (PIO0 SM0..3: 0..3, PIO1: 8..11)."""
    return ((sm_id >> 2) << 3) | (sm_id & 3)


class Rp2040Hal(Hal):
    name = "rp2040"

    def __init__(self, pm=PM):
        # pm: the pin map of the LEDs, USB serial and status LED; revision B's HAL
        # (rp2040_revb.py) passes its own, having set up its sensors instead of the switches
        if pm is PM:
            self._pl = Pin(PM.PL, Pin.OUT, value=1)
            self._ce = Pin(PM.CE, Pin.OUT, value=1)
            self._spi = SPI(PM.SPI_ID, baudrate=PM.SPI_BAUD, polarity=PM.SPI_POLARITY,
                            phase=PM.SPI_PHASE, bits=8, firstbit=SPI.MSB,
                            sck=Pin(PM.SPI_SCK), mosi=Pin(PM.SPI_MOSI), miso=Pin(PM.SPI_MISO))
            self._chain = bytearray(PM.CHAIN_BYTES)
        self._buttons = 0
        self._sm = rp2.StateMachine(pm.WS2812_SM, _ws2812, freq=8000000,
                                    sideset_base=Pin(pm.WS2812_PIN))
        self._sm.active(1)
        self._words = array.array("I", bytearray(4 * N_LEDS))
        self._dma = rp2.DMA()
        self._dma_ctrl = self._dma.pack_ctrl(size=2, inc_read=True, inc_write=False,
                                             treq_sel=_dreq_tx(pm.WS2812_SM))
        self._free_at = time.ticks_us()  # the LED line may take the next frame from then
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._rx = bytearray(64)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._next = time.ticks_add(time.ticks_ms(), FRAME_MS)
        self._led = Pin(pm.STATUS_LED, Pin.OUT, value=0)
        self._frames = 0
        self.led_budget_max_ma = pm.LED_BUDGET_MAX_MA

    # --- sensors and buttons ----------------------------------------------------------------
    def read_sensors(self, buf):
        pl = self._pl
        pl.value(0)          # latch all 128 inputs (t_w >= 20 ns; a Python call is ~us)
        pl.value(1)
        self._ce.value(0)
        self._spi.readinto(self._chain, 0x00)
        self._ce.value(1)
        c = self._chain
        inv = 0xFF if PM.ACTIVE_LOW else 0
        for i in range(BITMAP_BYTES):
            buf[i] = c[i] ^ inv
        b15 = buf[15]
        self._buttons = (b15 >> PM.BUTTON_SHIFT) & 0x1F
        buf[15] = b15 & 0x01

    def read_buttons(self):
        return self._buttons

    # --- LEDs ----------------------------------------------------------------------------------
    def show(self, frame):
        # App.step calls this only for a frame that differs from the last one shown (it keeps
        # that copy): a second copy here was 471 bytes of heap
        dma = self._dma
        wait = time.ticks_diff(self._free_at, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)  # the last frame is still being sent or latched
        while dma.active():
            pass
        _pack_grb(frame, self._words, N_LEDS)
        dma.config(read=self._words, write=self._sm, count=N_LEDS, ctrl=self._dma_ctrl,
                   trigger=True)
        self._free_at = time.ticks_add(time.ticks_us(), N_LEDS * LED_US + LATCH_US)

    # --- time ----------------------------------------------------------------------------------
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def wait_frame(self):
        d = time.ticks_diff(self._next, time.ticks_ms())
        if d > 0:
            time.sleep_ms(d)
            self._next = time.ticks_add(self._next, FRAME_MS)
        else:
            # overrun: do not try to catch up, start a fresh 10 ms grid from now
            self._next = time.ticks_add(time.ticks_ms(), FRAME_MS)
        self._frames += 1
        if self._frames % 50 == 0:
            self._led.toggle()

    # --- USB serial ------------------------------------------------------------------------------
    def serial_read(self):
        n = 0
        rx = self._rx
        while n < 64 and self._poll.poll(0):
            b = self._in.read(1)
            if not b:
                break
            rx[n] = b[0]
            n += 1
        if n == 0:
            return None
        return bytes(rx[:n])

    has_repl = True
    holds_heap = True  # its viper code (and frames_viper's) names heap blocks: heldblocks.py

    def set_ctrl_c(self, on):
        # 3 = Ctrl-C interrupts (the REPL's default); -1 = the byte is plain data
        import micropython
        micropython.kbd_intr(3 if on else -1)

    def serial_write(self, b):
        self._out.write(b)

    # --- flash, identity, clock ------------------------------------------------------------------
    def flash_root(self):
        return "/"

    def board_id(self):
        return "".join(["%02x" % b for b in machine.unique_id()])

    # The clock is the RTC, set by a host's HELLO (firmware/system/link.py): it counts on by
    # itself and never wraps (ticks_ms does every 2**30 ms, 12.4 days); a power cut resets it to
    # 2021, read as not known. MicroPython v1.26's rp2 port counts from 1970 (time.gmtime(0)).
    def wall_time(self):
        """The RTC as seconds since 1970, 0 while it has not been set (before 2024-01-01, day
        19723: small ints, as a constant of 2**30 or more costs the heap an object)."""
        t = time.time()
        return t if t // 86400 >= 19723 else 0

    def set_wall_time(self, t):
        y, mo, d, h, mi, s, wd = time.gmtime(t)[:7]
        machine.RTC().datetime((y, mo, d, wd, h, mi, s, 0))
