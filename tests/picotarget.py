"""The emulated Pico target in tests: `require_pico()` skips (with the reason printed) where the
boot ROM and the MicroPython image are not there (CI has ../shared/pico). Node.js and rp2040js
are installed by `make`, so a test that finds them missing fails instead."""

import pytest

from cargoboard.sim.pico.images import PicoUnavailable, find_images

TARGETS = ("unix", "pico")


def require_pico():
    try:
        find_images()
    except PicoUnavailable as e:
        pytest.skip("emulated Pico: %s" % e)


def require(target):
    if target == "pico":
        require_pico()
