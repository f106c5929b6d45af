"""Power cuts while a long game is logged, on real littlefs: tests/driver_powercut.py under the
MicroPython unix port cuts the power at every block operation (every writeblocks call and every
erase, half of them torn half-way) of a whole run, remounts the flash image as it was left and
resumes the game; every completed action must be there, at most the one in flight lost, the
older game on the flash untouched.

The game: a seeded random Cargocube game with the base cards (wind-rose hops make 3+ byte
actions) and take-backs, 180+ steps, then the finish, with a doubt record (format version 2, the
option wait=K's) after every 11th step. Two flash geometries: the Pico's (4 KB
blocks, progsize 256: the log starts inline in the directory and moves to its own blocks past
512 bytes) and a small one (512-byte blocks, progsize 16: many more block operations, metadata
compactions and block boundaries). Each geometry runs as two interleaved halves (odd and even
cuts) so that both cores work. The number of cuts tried is printed (pytest -s shows it).
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from logsteps import random_steps, steps_text, with_doubts  # noqa: E402

DRIVER = ROOT / "tests" / "driver_powercut.py"
GEOMETRIES = {"pico": "4096:48:256", "small": "512:128:16"}


def long_game(seed=5, steps=190):
    return with_doubts(random_steps(seed, n=steps, cards=True, undo_rate=0.08)[0]) + ["f"]


@pytest.mark.parametrize("half", [1, 2])
@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_power_cut_at_every_block_operation(micropython, tmp_path, geometry, half):
    lines = long_game()
    actions = sum(1 for x in lines if isinstance(x, bytes))
    assert actions >= 150 and None in lines
    assert any(len(x) > 2 for x in lines if isinstance(x, bytes)), "no action with hops"
    assert any(isinstance(x, tuple) and x[1] for x in lines), "no doubt record"
    assert any(isinstance(x, tuple) and not x[1] for x in lines), "no empty doubt record"
    steps = tmp_path / "steps.txt"
    steps.write_text(steps_text(lines))
    out = micropython(DRIVER, heapsize="2m", args=[steps, GEOMETRIES[geometry], half, 2],
                      path=[str(ROOT / "tests")], timeout=300)
    fails = [x for x in out.splitlines() if x.startswith("FAIL")]
    last = out.strip().splitlines()[-1].split()
    assert last[0] == "cuts", out[-2000:]
    tried, ok, ops = int(last[1]), int(last[3]), int(last[5])
    print("%s flash, cuts %s: %d of %d block operations cut, %d resumed with every completed "
          "step (%d steps, %d actions)" % (geometry, "odd" if half == 1 else "even", tried, ops,
                                           ok, len(lines), actions))
    assert not fails, "\n".join(fails[:20])
    # every step commits at least one program to the flash: a device that counted no block
    # operations would otherwise pass with no cut tried at all ((0 - 1) // 2 + 1 == 0)
    assert ops >= len(lines), "%d block operations for %d steps" % (ops, len(lines))
    assert tried == (ops - half) // 2 + 1, "every other block operation was cut"
    assert ok == tried
