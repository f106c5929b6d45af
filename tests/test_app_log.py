"""The app's game log (tests/fwcases_log.py): each case under CPython, all of them under the
MicroPython unix port on littlefs (the RAM flash image lives in the heap there, so the heap is
larger than the Pico's; the virtual-board test in test_sim_log.py plays with the Pico's)."""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

CASES = importlib.import_module("fwcases_log").CASES


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(importlib.import_module("fwcases_log"), name)()


def test_micropython_littlefs(micropython):
    out = micropython("import fwcases_log as c\nc.run_all()\n", heapsize="1m",
                      path=[str(ROOT / "tests")], timeout=300)
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % len(CASES), out
