"""The board's game store (firmware/system/gamelog.py): every case of tests/gamelog_cases.py under
CPython (a temporary directory) and under the MicroPython unix port on real littlefs (a RAM
block device; the heap is larger than the Pico's because the flash image lives in it here)."""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

CASES = importlib.import_module("gamelog_cases").CASES


@pytest.mark.parametrize("name", CASES)
def test_cpython(name):
    getattr(importlib.import_module("gamelog_cases"), name)()


def test_micropython_littlefs(micropython):
    out = micropython("import gamelog_cases as c\nc.run_all()\n", heapsize="4m",
                      path=[str(ROOT / "tests")])
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % len(CASES), out
