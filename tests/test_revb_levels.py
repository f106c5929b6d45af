"""The level scanner skips what cannot have changed (the cells the HAL did not convert, the
frames in which no waiting cell can have held long enough) and finds waiting and reported cells
without searching lists: it must report the same steps and keep the same baselines as the plain
loops it had until stop 45. tests/driver_levels.py feeds both the same random frames and
compares them after each: under CPython and the MicroPython unix port (which must print the
same), and on the emulated RP2040 with the revision-B HAL's reader, whose viper conversion
marks the cells it converted."""

import re
from pathlib import Path

import mpy
from picotarget import require_pico

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
    from cargoboard.build import stage
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PicoRunner
    require_pico()
    files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(tmp_path / "build", "rp2", "B")
             if bp != "main.py"]
    files += [("driver_levels.py", DRIVER.read_bytes()), ("main.py", MAIN)]
    image = tmp_path / "flash.img"
    fsimage.write_files(image, files)
    text = ""
    with PicoRunner(flash=image, boot_from_flash=True, revision="B") as runner:
        for _ in range(6000):
            text = bytes(runner.serial_log).decode(errors="replace")
            if "done" in text or "Error" in text:
                break
            runner.step(10)
    assert "compared 400 frames, 0 differ" in text, text[-2000:]
