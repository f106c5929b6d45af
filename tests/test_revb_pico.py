"""Revision B on the emulated RP2040: `cargoboard deploy --rev b`'s build on the stock
MicroPython image, its viper scan driving the row power and the multiplexer address on the
GPIOs and converting on ADC0, where the emulator's analog front end (sim/pico/devices.mjs,
HallFrontEnd) gives each conversion from the field model's sums. The unix port's virtual board
gets the same sums whole ('G' frames), so with the model's noise off the two boards must read
the same field on each cell asked (cubes, a stack, the cells read after them): a scan that
kept the conversion it should throw away, or did not wait for its row's sensors to come up,
reads other numbers (the front end models both)."""

import pytest

from cargoboard.sim import REVB_HEAP
from cargoboard.sim.script import Session
from cargoboard.sim.world import revb_physics
from picotarget import require_pico, run_on_chip, scanning
from shared_rules.cargocube.board import cell_name

# b1 and c1 (the scan's first row; a1 is a corner, where no piece goes), a2 (row 1's first),
# f6 and g6 (a cube read right after another), a stack of two on d4, j11
CUBES = ((1, 0), (2, 5), (11, 7), (60, 0), (61, 12), (36, 3), (36, 9), (119, 20))
# empty cells read right after a cube (the node came from it), a row's last and first cells,
# and k11, the last cell (a corner), read after j11's cube
EMPTY = (3, 12, 62, 37, 21, 22, 120)


def _fields(target):
    # every scan reads the same sums, and the pieces lie where the same hand put them whatever
    # the world's random numbers (which each scan draws from: the Pico boots longer)
    noise = revb_physics().Noise(adc_lsb=0.0, sensor_lsb=0.0, shift_mm=0.0, place_mm=0.0,
                                 br_spread=False)
    kw = {"heapsize": REVB_HEAP} if target == "unix" else {}
    s = Session(out=lambda line: None, noise=noise, revision="B", target=target,
                calibrate=False, **kw)
    try:
        scanning(s)
        assert s.query("new selftest sensors")[1] == "ok started"
        for c, item in CUBES:
            if s.world.stacks[c]:
                s.world.drop(c - 1, item)      # onto a stack through the hand
                s.world.lift(c - 1)
                s.world.place(c)
            else:
                s.world.drop(c, item)
        s.wait(300)
        out = {}
        for c in sorted({c for c, _ in CUBES} | set(EMPTY)):
            final = s.query("field " + cell_name(c))[1]
            assert final.startswith("ok %s=" % cell_name(c)), final
            out[cell_name(c)] = int(final.split("=")[1])
        return out
    finally:
        s.close()


def test_the_emulated_pico_reads_the_fields_the_unix_port_reads():
    require_pico()
    pico = _fields("pico")
    unix = _fields("unix")
    assert pico == unix
    # and the cubes read as cubes (>= 6 mT), the empty cells as empty
    cubes = {cell_name(c) for c, _ in CUBES}
    assert all(abs(v) >= 600 for k, v in unix.items() if k in cubes), unix
    assert all(abs(v) < 280 for k, v in unix.items() if k not in cubes), unix
    assert len(cubes) == len(CUBES) - 1


def test_a_flash_of_the_other_revision_is_refused_in_one_line(tmp_path):
    """`sim --target pico --rev b --flash DIR --from-flash` where DIR holds a revision-A build
    (as `sim --target pico --flash DIR` or `deploy` writes it): the chip would boot revision
    A's HAL on revision B's wiring, scanning a 74HC165 chain that is not there. One line, exit 2, naming
    what the flash holds and both ways out; the flash is left as it was. The other way round,
    the same."""
    import subprocess
    from clirun import cargoboard_exe
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import firmware_files
    require_pico()
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n")
    for made, booted in (("a", "b"), ("b", "a")):
        flash = tmp_path / ("board-" + made)
        flash.mkdir()
        fsimage.write_files(flash / "flash.img", firmware_files(made.upper()))
        image = (flash / "flash.img").read_bytes()
        r = subprocess.run([cargoboard_exe(), "sim", "--target", "pico", "--flash", str(flash),
                            "--script", str(script), "--rev", booted, "--from-flash"],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and r.stdout == "", r.stdout
        assert r.stderr == (
            "cargoboard sim: error: %s: cannot start the simulated board: the flash %s holds a "
            "revision-%s build (its /board_rev), not one for the revision-%s board it was asked "
            "to boot: run it with --rev %s, or deploy --rev %s onto it\n" % (
                script, flash / "flash.img", made.upper(), booted.upper(), made, booted)), r.stderr
        assert (flash / "flash.img").read_bytes() == image


# On the chip: the revision-B HAL's viper conversion (rp2040_revb._convert, its `fast` hook on
# the reader) and hall.py's Python loop, fed the same frames: every field, `rough`, occupancy
# and `changed` bit and count the same.
CONVERT_MAIN = b"""from firmware.hal.rp2040_revb import Rp2040HallHal
from firmware.hal import hall
from hardware import pinmap_revb as PM
from array import array
hal = Rp2040HallHal()
fast = hal.reader
slow = hall.reader(PM)
assert fast.fast is not None and slow.fast is None
x = 12345
def rnd(n):
    global x
    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return (x >> 8) % n
for c in range(121):
    z = rnd(1201) - 600
    fast.zero[c] = z
    slow.zero[c] = z
sums = array("H", bytes(2 * hall.N_SUMS))
occ_f = bytearray(16)
occ_s = bytearray(16)
bad = 0
for frame in range(40):
    sums[hall.MID] = 8 * 2048 + (rnd(200) if frame % 10 == 9 else 0)
    for c in range(121):
        k = rnd(4)
        if frame == 0 or k == 0:
            if k == 1:
                sums[c] = 8 * (512 + 1024 * rnd(4)) + rnd(200) - 100   # by a DNL code
            else:
                sums[c] = rnd(8 * 4095 + 1)
    a = fast.update(sums, occ_f)
    b = slow.update(sums, occ_s)
    if (a != b or occ_f != occ_s or fast.rough != slow.rough or fast.changed != slow.changed
            or list(fast.levels) != list(slow.levels)):
        bad += 1
        print("differs at frame", frame, a, b)
    for i in range(16):                 # (as the level scanner reads them)
        fast.changed[i] = 0
        slow.changed[i] = 0
print("compared 40 frames, %d differ" % bad)
print("done")
"""


def test_the_boards_viper_conversion_gives_the_python_loops_numbers(tmp_path):
    """The board converts its sums to fields in viper (rp2040_revb._convert: the Python loop
    took 8.5 ms of a frame in which every cell moved, bench/revb_scan.py); run beside
    hall.HallReader._convert on the emulated RP2040 over 40 frames of random sums (the whole
    code range, many by the ADC's DNL codes, zeros of both signs, the mid reference moving)."""
    text = run_on_chip(tmp_path, CONVERT_MAIN, revision="B", most_ms=30000)
    assert "compared 40 frames, 0 differ" in text, text[-2000:]
