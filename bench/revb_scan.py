"""Revision B's scan of the 121 linear Hall sensors on the emulated RP2040: the board's own HAL
(firmware/hal/rp2040_revb.py, its viper loop compiled for the RP2040 as `cargoboard deploy`
builds it) runs under the stock MicroPython image on rp2040js, whose ADC takes its 2 us per
conversion and whose timer is the chip's, wired as revision B (an empty board's sensors on the
emulator's analog front end). Printed, never asserted.

    .venv/bin/python bench/revb_scan.py [SCANS]      (default 50)

Figures, in emulated microseconds: the scan alone (rows powered in turn, ROW_ON_US each, one
conversion discarded and SAMPLES summed per cell; no cell moved, so nothing else runs), the HAL's
read_sensors() when every cell moved (the scan plus firmware.hal.hall's fields and occupancy for
all 121 cells of a board with the 2-player start's 42 cubes on it, each converted: the worst
frame), and the frame (10 ms) they must fit in. What the emulator does not model: flash wait
states (the viper loops are native code in RAM, the Python around them runs from RAM too, as
.mpy), the sensors' own settling (the scan waits ROW_ON_US regardless)."""

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
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
