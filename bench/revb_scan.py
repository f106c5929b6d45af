"""Revision B's scan of the 121 linear Hall sensors on the emulated RP2040: the board's own HAL
(firmware/hal/rp2040_revb.py, its viper loop compiled for the RP2040 as `cargoboard deploy`
builds it) runs under the stock MicroPython image on rp2040js, whose ADC takes its 2 us per
conversion and whose timer is the chip's, wired as revision B (an empty board's sensors on the
emulator's analog front end). Printed, never asserted.

    .venv/bin/python bench/revb_scan.py [SCANS]      (default 50)

Figures, in emulated microseconds. First the scan alone (rows powered in turn, ROW_ON_US each, one
conversion discarded and SAMPLES summed per cell; no cell moved, so nothing else runs), the HAL's
read_sensors() when every cell moved (the scan plus firmware.hal.hall's fields and occupancy for
all 121 cells of a board with the 2-player start's 42 cubes on it, each converted), and the
frame (10 ms) they must fit in.

Then the whole frame, App.step as the board runs it (the boot as deployed, its Cargocube game
in play on the 2-player start, no noise): each phase timed on the chip by a wrapper around it
(a wrapped call costs some 20 us more, so the phases add up to a little more than the frame
unwrapped, which the first quiet frames give): `scan`, `convert` (the viper conversion of the
cells whose sum moved), `read` (the rest of read_sensors), `occupancy` (the debounce of the
bitmap), `levels` (the level scanner: firmware/drivers/levels.py), `game` (the plug-in's
on_change and tick: the step tracker's inference), `leds` (render, blink, show) and `rest`
(serial, buttons, the app's own code). Quiet frames (nothing moves): their p50 and max, the
phases' means. Then each frame in which something moved, in order, for these changes of the
sensors (the host's field model, the emulator's analog front end): a move onto a stack (d3w,
the cube on d3 lifted, then put on c3's), the top of that stack lifted and put back (steps
only), the mid-supply reference up by 80 units of a sum (every cell converted anew, each field
a little off, no step reported) and back, and every cell's sum 10 ADC codes up (every cell's
step reported) and back. What the emulator does not model: flash wait states (the viper loops
are native code in RAM, the Python around them runs from RAM too, as .mpy), the sensors' own
settling (the scan waits ROW_ON_US regardless)."""

import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "host")]

from cargoboard.deploy import stage  # noqa: E402
from cargoboard.sim.pico import fsimage  # noqa: E402
from cargoboard.sim.pico.images import PicoUnavailable, find_images  # noqa: E402
from cargoboard.sim.pico.runner import PicoRunner  # noqa: E402
from hardware import pinmap_revb as PMB  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

FRAME_US = 10000

SCRIPT = """import time, gc
from firmware.hal.rp2040_revb import Rp2040HallHal, _scan
hal = Rp2040HallHal()
BOARD = %(board)r
buf = bytearray(16)
hal.read_sensors(buf)
def stats(name, ts):
    ts.sort()
    print("%%s min=%%d p50=%%d max=%%d" %% (name, ts[0], ts[len(ts) // 2], ts[-1]))
scan = []
for i in range(%(n)d):
    t = time.ticks_us()
    _scan(hal._sums, hal._cfg)
    scan.append(time.ticks_diff(time.ticks_us(), t))
stats("scan_us", scan)
full = []
for i in range(%(n)d):
    for c in range(121):                # every cell 10 codes off what the scan will read,
        hal._sums[c] = BOARD[c] + 80    # as the last frame had it converted
        hal.reader._last[c] = BOARD[c] + 80
    t = time.ticks_us()
    hal.read_sensors(buf)
    full.append(time.ticks_diff(time.ticks_us(), t))
stats("read_all_moved_us", full)
gc.collect()
print("free=%%d done" %% gc.mem_free())
"""

# main.py for the whole frame: the board as deployed boots (its Cargocube game set up), then
# runs App.step as App.run does: SKIP frames (the game starts), BARE frames timed whole, then
# each phase timed by a wrapper
FRAME_SCRIPT = """import time, gc
from array import array
from firmware.system import boot
app = boot.start()
boot = None
from firmware.hal import rp2040_revb as RB
from firmware.drivers.scanner import Scanner
tu = time.ticks_us
td = time.ticks_diff
PHASES = %(phases)r
NP = len(PHASES)
acc = array("i", bytes(4 * NP))
began = array("i", [0])
converted = array("i", [0])
hal = app.hal
lv = app.levels
def timed(f, k, n):
    if n == 1:
        def w(a):
            t = tu(); r = f(a); acc[k] += td(tu(), t); return r
    elif n == 2:
        def w(a, b):
            t = tu(); r = f(a, b); acc[k] += td(tu(), t); return r
    else:
        def w(a, b, c, d=None):
            t = tu()
            r = f(a, b, c) if d is None else f(a, b, c, d)
            acc[k] += td(tu(), t)
            return r
    return w
wait_frame = hal.wait_frame
def wait():
    wait_frame()
    began[0] = tu()
hal.wait_frame = wait
def install():
    RB._scan = timed(RB._scan, 1, 2)
    fast = timed(hal.reader.fast, 2, 3)
    def counted(s, m, e):
        n = fast(s, m, e)
        converted[0] += n
        return n
    hal.reader.fast = counted
    hal.read_sensors = timed(hal.read_sensors, 3, 1)
    Scanner.update = timed(Scanner.update, 4, 3)
    lv.update = timed(lv.update, 5, 4)
    paint = app._paint
    def painted():
        t = tu(); paint(); acc[7] += td(tu(), t)
    app._paint = painted
    app.painter.animate = timed(app.painter.animate, 7, 1)
    hal.show = timed(hal.show, 7, 1)
def noop(a):
    return a
w = timed(noop, 0, 1)
t = tu()
for i in range(100):
    noop(i)
bare = td(tu(), t)
t = tu()
for i in range(100):
    w(i)
print("wrap_us=%%d" %% ((td(tu(), t) - bare) // 100))
quiet = array("H", bytes(2 * %(frames)d))
bare = array("H", bytes(2 * %(bare)d))
mean = array("i", bytes(4 * NP))
nq = 0
rows = []
game = None
gc.collect()
print("frames begin t=%%d" %% time.ticks_ms())
begin = time.ticks_ms()
frame = 0
while time.ticks_diff(time.ticks_ms(), begin) < %(ms)d and frame < %(frames)d:
    if frame == %(skip)d:
        gc.collect()                            # (the boot's and the game start's garbage)
    if frame == %(skip)d + %(bare)d:
        install()
    g = app.game
    if frame >= %(skip)d + %(bare)d and g is not None and g is not game:
        game = g
        g.on_change = timed(g.on_change, 6, 2)
        g.tick = timed(g.tick, 6, 1)
    for k in range(NP):
        acc[k] = 0
    converted[0] = 0
    version = lv.version
    waited = lv.pending()
    app.step()
    acc[0] = td(tu(), began[0])
    if frame < %(skip)d:
        pass
    elif frame < %(skip)d + %(bare)d:
        bare[frame - %(skip)d] = acc[0]
    elif (converted[0] or waited or lv.pending() or lv.version != version or acc[6] > 500):
        rows.append((time.ticks_diff(time.ticks_ms(), begin), converted[0], lv.pending(),
                     len(lv.cells)) + tuple(acc))
    else:
        quiet[nq] = acc[0]
        for k in range(NP):
            mean[k] += acc[k]
        nq += 1
    frame += 1
def stats(name, ts, n):
    ts = sorted(ts[:n])
    print("%%s n=%%d p50=%%d max=%%d" %% (name, n, ts[n // 2], ts[-1]))
stats("bare", bare, %(bare)d)
stats("quiet", quiet, nq)
print("quiet_mean " + " ".join([str(mean[k] // nq) for k in range(NP)]))
for r in rows:
    print("moved " + " ".join([str(x) for x in r]))
gc.collect()
print("state=%%d free=%%d done" %% (app.state, gc.mem_free()))
"""
PHASES = ("total", "scan", "convert", "read", "occupancy", "levels", "game", "leds")
SKIP_FRAMES = 50      # the game starts (the first scan matches its layout), its log begins
BARE_FRAMES = 40


def frame_run():
    """The whole frame on the chip through the changes the docstring lists: (the board's
    output, [(the change, emulated ms since the frames began when it was made)])."""
    from cargoboard.sim.world import parse_cell, revb_physics
    from shared_rules.cargocube import rules as cc
    physics = revb_physics()
    world = physics.HallWorld(physics.Noise(adc_lsb=0.0, sensor_lsb=0.0, shift_mm=0.0,
                                            place_mm=0.0), seed=0)
    pos = cc.start_position(2)
    world.load_position(pos)
    hold_ms = 600
    changes = []
    with tempfile.TemporaryDirectory(prefix="bench-revb-") as tmp:
        staged = stage(Path(tmp) / "stage", rev="B")
        files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in staged if bp != "main.py"]
        script = FRAME_SCRIPT % {"phases": PHASES, "frames": 1000, "skip": SKIP_FRAMES,
                                 "bare": BARE_FRAMES, "ms": 13 * hold_ms}
        files.append(("main.py", script.encode()))
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, files)
        runner = PicoRunner(flash=image, boot_from_flash=True, revision="B")
        runner.sums = world.adc_sums()
        with runner:
            def text():
                return bytes(runner.serial_log).decode(errors="replace")
            for _ in range(3000):
                if "frames begin" in text() or "Error" in text():
                    break
                runner.step(1)
            t0 = runner.t

            def change(what, sums):
                runner.sums = sums
                changes.append((what, runner.t - t0))
                for _ in range(hold_ms // 10):
                    runner.step(1)

            change("quiet", runner.sums)
            for _ in range(2 * hold_ms // 10):    # (the first SKIP + BARE frames in it)
                runner.step(1)
            world.lift(parse_cell("d3"))
            change("d3w: the cube on d3 lifted", world.adc_sums())
            world.place(parse_cell("c3"))
            pos.push(pos.parse_action("d3w"))
            world.sync_items(pos)
            change("d3w: put on c3's cube (a stack of 2)", world.adc_sums())
            world.lift(parse_cell("c3"))
            change("the top of c3's stack lifted", world.adc_sums())
            world.place(parse_cell("c3"))
            change("... and put back", world.adc_sums())
            base = world.adc_sums()
            change("the mid-supply reference +80 (every cell converted anew)",
                   base[:121] + [base[121] + 80, base[122]])
            change("... and back", base)
            change("every cell's sum +80 (10 ADC codes: every step reported)",
                   [v + 80 for v in base[:121]] + base[121:])
            change("... and back", base)
            for _ in range(6000):
                if "done" in text() or "Error" in text():
                    break
                runner.step(1)
        return text(), changes


def print_frames(text, changes):
    m = re.search(r"wrap_us=(\d+)", text)
    wrap = int(m.group(1)) if m else 0
    got = {name: (int(n), int(p50), int(mx)) for name, n, p50, mx in
           re.findall(r"(bare|quiet) n=(\d+) p50=(\d+) max=(\d+)", text)}
    m = re.search(r"quiet_mean ([\d ]+)", text)
    if "quiet" not in got or not m:
        print("bench/revb_scan.py: the board printed no frame figures:\n" + text[-2000:])
        return 1
    print()
    print("Revision B's whole frame on the emulated RP2040 (App.step as deployed, Cargocube in "
          "play on the 2-player start), emulated us; each timed phase includes its wrapper "
          "(~%d us):" % wrap)
    n, p50, mx = got["bare"]
    print("  quiet frame, unwrapped: p50 %d max %d (%d frames once the game started)"
          % (p50, mx, n))
    n, p50, mx = got["quiet"]
    print("  quiet frame, wrapped:   p50 %d max %d (%d frames)" % (p50, mx, n))
    head = "  %-8s %5s %5s %5s " % ("at ms", "conv", "wait", "steps") + " ".join(
        "%9s" % k for k in PHASES + ("rest",))
    mean = [int(v) for v in m.group(1).split()]
    print(head)
    print("  %-8s %5s %5s %5s " % ("quiet", "", "", "") + _phases(mean))
    rows = [[int(v) for v in line.split()] for line in re.findall(r"moved ([\d -]+)", text)]
    for i, (what, at) in enumerate(changes):
        end = changes[i + 1][1] if i + 1 < len(changes) else 1 << 30
        mine = [r for r in rows if at <= r[0] < end]
        if not mine:
            continue
        print("  " + what)
        for r in mine:
            t, conv, waiting, steps = r[:4]
            print("  %-8d %5d %5d %5d " % (t, conv, waiting, steps) + _phases(r[4:]))
    m = re.search(r"free=(\d+)", text)
    if m:
        print("  heap free after (collected): %s bytes" % m.group(1))
    print("  (conv: cells converted; wait: cells whose field waits to hold 30 ms, after the "
          "frame; steps: cells whose step is reported. A collection, ~1.5 ms, lands in some "
          "frame's phase that allocates)")
    return 0


def _phases(v):
    """The phases' figures and the rest of the frame (total less the phases, read less the
    scan and conversion)."""
    total, scan, convert, read, occ, levels, game, leds = v[:8]
    rest = total - read - occ - levels - game - leds
    return " ".join("%9d" % x for x in (total, scan, convert, read - scan - convert, occ, levels,
                                         game, leds, rest))



def board_sums():
    """The scan's sums of a board with pieces on it (the field model's, no noise): the 2-player
    Cargocube start, 42 cubes, and the empty cells around them. Its fields are what a cell's
    conversion works on: with every cell at the mid-supply level (an empty, ideal board) it is
    all zeros, far cheaper than a board's (bench/revb_scan.py measured that until stop 44)."""
    from cargoboard.sim.world import revb_physics
    from shared_rules.cargocube import rules as cc
    physics = revb_physics()
    world = physics.HallWorld(physics.Noise(adc_lsb=0.0, sensor_lsb=0.0, shift_mm=0.0,
                                            place_mm=0.0), seed=0)
    pos = cc.start_position(2)
    for c in range(121):
        if pos.height(c):                   # (one cube each at the start)
            world.drop(c, 0)
    return world.adc_sums()


def main(argv):
    n = benchcli.number(argv[1], "N") if len(argv) > 1 else 50
    try:
        find_images()
    except PicoUnavailable as e:
        print("bench/revb_scan.py: skipped: %s" % e)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-revb-") as tmp:
        staged = stage(Path(tmp) / "stage", rev="B")
        files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in staged if bp != "main.py"]
        board = board_sums()
        files.append(("main.py", (SCRIPT % {"n": n, "board": board}).encode()))
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, files)
        w0 = time.monotonic()
        runner = PicoRunner(flash=image, boot_from_flash=True, revision="B")
        runner.sums = board                 # what the emulator's sensors read
        with runner:
            for _ in range(6000):           # at most 60 emulated seconds
                runner.step(10)
                text = bytes(runner.serial_log).decode(errors="replace")
                if "done" in text or "Error" in text:
                    break
        wall = time.monotonic() - w0
    figures = {m.group(1): tuple(int(v) for v in m.groups()[1:])
               for m in re.finditer(r"(\w+_us) min=(\d+) p50=(\d+) max=(\d+)", text)}
    if not figures:
        print("bench/revb_scan.py: the board printed no figures:\n" + text[-2000:])
        return 1
    print("Revision B scan on the emulated RP2040 (rp2040js, stock MicroPython), %d scans each,"
          " emulated us (%.0f s wall):" % (n, wall))
    print("  %d rows x %d cells + 2 reference channels, ROW_ON_US %d, %d+1 conversions per cell"
          % (121 // PMB.ROW_CELLS, PMB.ROW_CELLS, PMB.ROW_ON_US, PMB.SAMPLES))
    for name, label in (("scan_us", "scan alone (no cell moved)"),
                        ("read_all_moved_us", "read_sensors, every cell moved")):
        if name in figures:
            lo, mid, hi = figures[name]
            print("  %-32s min %5d  p50 %5d  max %5d us  = %4.1f%% of the %d ms frame (max)" % (
                label, lo, mid, hi, 100.0 * hi / FRAME_US, FRAME_US // 1000))
    m = re.search(r"free=(\d+)", text)
    if m:
        print("  heap free after: %s bytes" % m.group(1))
    return print_frames(*frame_run())


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
