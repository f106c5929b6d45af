"""The debounce's cases (tests/fwcases_scanner.py) on the emulated RP2040 as well: the board's
own build of firmware/drivers/scanner.py under the stock MicroPython image, where its quick
path for a still board compares bytearrays in C and must allocate nothing (the cases'
heap_lock), as under CPython and the unix port (tests/test_firmware_cases.py)."""

from pathlib import Path

import fwcases_scanner
from picotarget import require_pico

TESTS = Path(__file__).resolve().parent

MAIN = b"""import fwcases_scanner
fwcases_scanner.run_all()
print("done")
"""


def test_the_debounce_cases_pass_on_the_chip(tmp_path):
    from cargoboard.build import stage
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PicoRunner
    require_pico()
    files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(tmp_path / "build", "rp2", "A")
             if bp != "main.py"]
    files += [(name, (TESTS / name).read_bytes()) for name in ("fwcases.py", "fwcases_scanner.py")]
    files.append(("main.py", MAIN))
    image = tmp_path / "flash.img"
    fsimage.write_files(image, files)
    text = ""
    with PicoRunner(flash=image, boot_from_flash=True) as runner:
        for _ in range(6000):
            text = bytes(runner.serial_log).decode(errors="replace")
            if "done" in text or "Error" in text:
                break
            runner.step(10)
    want = "%d passed, 0 failed" % len(fwcases_scanner.CASES)
    assert want in text, text[-2000:]
