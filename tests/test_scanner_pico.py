"""The debounce's cases (tests/fwcases_scanner.py) on the emulated RP2040 as well: the board's
own build of firmware/drivers/scanner.py under the stock MicroPython image, where its quick
path for a still board compares bytearrays in C and must allocate nothing (the cases'
heap_lock), as under CPython and the unix port (tests/test_firmware_cases.py)."""

from pathlib import Path

import fwcases_scanner
from picotarget import run_on_chip

TESTS = Path(__file__).resolve().parent

MAIN = b"""import fwcases_scanner
fwcases_scanner.run_all()
print("done")
"""


def test_the_debounce_cases_pass_on_the_chip(tmp_path):
    files = [(name, (TESTS / name).read_bytes()) for name in ("fwcases.py", "fwcases_scanner.py")]
    text = run_on_chip(tmp_path, MAIN, files)
    want = "%d passed, 0 failed" % len(fwcases_scanner.CASES)
    assert want in text, text[-2000:]
