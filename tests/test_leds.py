"""Painter: the same cases under CPython and under the MicroPython unix port."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fwcases_leds as cases  # noqa: E402


@pytest.mark.parametrize("name", cases.CASES)
def test_cpython(name):
    getattr(cases, name)()


def test_micropython(micropython):
    out = micropython("import fwcases_leds as c\nc.run_all()\n",
                      path=[str(ROOT / "tests")])
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % len(cases.CASES), out
