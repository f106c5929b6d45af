"""Scanner, painter and app render cases (tests/fwcases_*.py), each run under CPython and
under the MicroPython unix port with the Pico-sized heap."""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

MODULES = ("fwcases_scanner", "fwcases_leds", "fwcases_app", "fwcases_follow", "fwcases_ask",
           "fwcases_memory")
CASES = [(m, name) for m in MODULES for name in importlib.import_module(m).CASES]


@pytest.mark.parametrize("module,name", CASES)
def test_cpython(module, name):
    getattr(importlib.import_module(module), name)()


@pytest.mark.parametrize("module", MODULES)
def test_micropython(micropython, module):
    # The device modules as deployed (.mpy from mpy-cross): compiling the sources on a 192k
    # heap needs RAM the board never spends.
    from cargoboard.build import cached_build
    out = micropython("import %s as c\nc.run_all()\n" % module,
                      path=[str(cached_build()), str(ROOT / "tests")])
    n = len(importlib.import_module(module).CASES)
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % n, out
