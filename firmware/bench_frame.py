"""Frame-time benchmark: scan -> debounce -> plug-in on_change/tick/paint -> painter.finish
(-> HAL read/show on the board). Runs on the board (`mpremote run firmware/bench_frame.py`,
with firmware/ and shared_rules/ on the board) and under the unix port:

    MICROPYPATH=.frozen:. micropython -X heapsize=192k firmware/bench_frame.py [GAME] [FRAMES]

GAME defaults to "cargocube" (options in OPTIONS); if that plug-in cannot be loaded the
built-in "paintall" plug-in (lights every occupied cell, scores, blinks) is used instead, and
the output says so. Synthetic input: the game's setup occupancy, with a cell lifted and put
back every 20 frames, a bounce every 50 frames, and a 3-cell slide every 100 frames.
Printed: `core_us` (scanner + painter only, no plug-in), `alloc_bytes_per_frame`, and on the
last line `frame_us max=... p95=...` for the full frame.
"""

import sys
import time
import gc
from array import array
from firmware import hal as H
from firmware.scanner import Scanner, Buttons
from firmware.leds import Painter, SEAT_COLOUR, YELLOW, BLINK_SLOW

GAME = "cargocube"
OPTIONS = {"layout": "polygon", "seats": "SN"}
N_FRAMES = 600
ON_BOARD = sys.platform == "rp2"


class PaintAll:
    """Fallback plug-in: lights every occupied cell, two score bars and a blinking cell."""

    def __init__(self, options):
        self.occ = bytearray(16)
        m = bytearray(16)
        for c in range(24, 97):
            if (c % 11) in (2, 3, 7, 8):
                H.bit_set(m, c, 1)
        self.mask = m
        self.n = 0

    def setup_mask(self):
        return self.mask

    def start(self):
        pass

    def on_change(self, occ, now_ms):
        for i in range(16):
            self.occ[i] = occ[i]
        self.n += 1

    def on_button(self, bit, now_ms):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        occ = self.occ
        for c in range(H.N_CELLS):
            if (occ[c >> 3] >> (c & 7)) & 1:
                p.cell(c, SEAT_COLOUR[c & 3], 128)
        p.cell(60, YELLOW, 255, BLINK_SLOW)
        p.turn(0)
        p.score(0, self.n % 37, 36)
        p.score(2, 12, 36)

    def command(self, words):
        return None

    def scores(self):
        return [0, 0, 0, 0]


def load(name):
    if name != "paintall":
        try:
            from firmware import games
            cls = games.load(name)
            g = cls(dict(OPTIONS))
            return name, g
        except Exception as e:
            print("bench: game %s not usable (%s: %s); using paintall" % (name, type(e).__name__, e))
    return "paintall", PaintAll({})


def stats(name, arr, n):
    s = sorted(arr)
    p95 = s[(n * 95) // 100]
    tot = 0
    for v in s:
        tot += v
    return "%s max=%d p95=%d mean=%d min=%d n=%d" % (name, s[-1], p95, tot // n, s[0], n)


_cells = []


def synth(raw, base, f):
    """Raw bitmap for frame f: base occupancy with scripted disturbances."""
    for i in range(16):
        raw[i] = base[i]
    cells = _cells
    if not cells:
        for c in range(H.N_CELLS):
            if H.bit_get(base, c):
                cells.append(c)
    phase = f % 20
    if cells and phase < 10:
        c = cells[(f // 20) % len(cells)]
        H.bit_set(raw, c, 0)              # lifted for 100 ms, then put back
    if f % 50 in (5, 7, 9):
        H.bit_set(raw, 60, 1 - H.bit_get(base, 60))   # bounce on f6
    k = f % 100
    if 40 <= k < 46:
        H.bit_set(raw, 11 + (k - 40) // 2, 1)         # slide across a2, b2, c2 (20 ms each)


def main():
    gc.collect()
    args = sys.argv[1:] if hasattr(sys, "argv") else []
    name = args[0] if args else GAME
    n = int(args[1]) if len(args) > 1 else N_FRAMES
    gname, game = load(name)
    base = game.setup_mask() or bytearray(16)
    raw = bytearray(16)
    hal = None
    if ON_BOARD:
        from firmware.hal_rp2040 import Rp2040Hal
        hal = Rp2040Hal()
    dummy = bytearray(16)

    # 1) scanner + painter only
    sc = Scanner(30)
    p = Painter()
    sc.reset(base)
    core = array("I", range(n))  # 4 bytes a sample, no big list
    gc.collect()
    for f in range(n):
        synth(raw, base, f)
        t0 = time.ticks_us()
        sc.update(raw, f * 10)
        p.begin(f)
        st = sc.stable
        for c in range(H.N_CELLS):
            if (st[c >> 3] >> (c & 7)) & 1:
                p.cell(c, SEAT_COLOUR[c & 3], 128)
        p.finish()
        core[f] = time.ticks_diff(time.ticks_us(), t0)

    # 2) full frame with the plug-in
    sc = Scanner(30)
    bt = Buttons(30)
    p = Painter()
    sc.reset(base)
    game.start()
    game.on_change(sc.stable, 0)
    full = array("I", range(n))
    changes = 0
    gc.collect()
    alloc = 0
    for f in range(n):
        now = f * 10
        synth(raw, base, f)
        m0 = gc.mem_alloc()
        t0 = time.ticks_us()
        if hal is not None:
            hal.read_sensors(dummy)
            hal.read_buttons()
        k = sc.update(raw, now)
        bt.update(0, now)
        if k:
            changes += 1
            game.on_change(sc.stable, now)
        game.tick(now)
        p.begin(f)
        game.paint(p, f)
        p.finish()
        if hal is not None:
            hal.show(p.frame)
        full[f] = time.ticks_diff(time.ticks_us(), t0)
        m1 = gc.mem_alloc()
        if m1 > m0:
            alloc += m1 - m0
        if f % 50 == 49:
            gc.collect()
    print("bench: game=%s frames=%d accepted_changes=%d platform=%s hal=%s" % (
        gname, n, changes, sys.platform, "rp2040" if hal else "none"))
    print(stats("core_us", core, n))
    print("alloc_bytes_per_frame=%d" % (alloc // n))
    print(stats("frame_us", full, n))


try:
    main()
except MemoryError:
    print("bench: out of memory (fewer frames? e.g. `bench_frame.py cargocube 300`)")
    print("frame_us max=-1 p95=-1")
