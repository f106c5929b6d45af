"""The level scanner skips what cannot have changed (the cells the HAL did not convert, the
frames in which no waiting cell can have held long enough) and finds waiting and reported cells
without searching lists: it must report the same steps and keep the same baselines as the plain
loops it had until stop 45. tests/driver_levels.py feeds both the same random frames and
compares them after each: under CPython and the MicroPython unix port (which must print the
same), and on the emulated RP2040 with the revision-B HAL's reader, whose viper conversion
marks the cells it converted."""

import re

import mpy
from picotarget import run_on_chip

DRIVER = mpy.REPO_ROOT / "tests" / "driver_levels.py"


def test_same_steps_and_baselines_as_the_plain_loops(micropython):
    cp = mpy.run_cpython(DRIVER, ["1500", "7"])
    assert "compared 1500 frames, 0 differ" in cp, cp
    # (the frames did what they are for: steps reported, cells waiting, not in every frame)
    m = re.search(r"steps changed in (\d+), cells waiting in (\d+)", cp)
    assert int(m.group(1)) > 100 and 500 < int(m.group(2)) < 1500, cp
    mp = micropython(DRIVER, args=["1500", "7"], heapsize="192k", timeout=300)
    assert cp == mp, mpy.first_difference(cp, mp)


MAIN = b"""from firmware.hal.rp2040_revb import Rp2040HallHal
import driver_levels
hal = Rp2040HallHal()
assert hal.reader.fast is not None
driver_levels.run(400, 3, hal.reader)
print("done")
"""


def test_same_steps_and_baselines_on_the_chip(tmp_path):
    files = [(path.name, path.read_bytes()) for path in (DRIVER, DRIVER.parent / "driver_revb.py")]
    text = run_on_chip(tmp_path, MAIN, files, revision="B")
    assert "compared 400 frames, 0 differ" in text, text[-2000:]
