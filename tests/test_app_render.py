"""App: render on change, blink animation, show only when changed. The same cases under CPython
and under the MicroPython unix port (tests/fwcases_app.py)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import fwcases_app as cases  # noqa: E402


@pytest.mark.parametrize("name", cases.CASES)
def test_cpython(name):
    getattr(cases, name)()


def test_micropython(micropython):
    out = micropython("import fwcases_app as c\nc.run_all()\n", path=[str(ROOT / "tests")])
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % len(cases.CASES), out
