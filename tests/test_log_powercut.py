"""Power cuts while a long game is logged, on real littlefs: tests/driver_powercut.py under the
MicroPython unix port cuts the power at every block operation (every writeblocks call and every
erase, half of them torn half-way) of a whole run, remounts the flash image as it was left and
resumes the game; every completed action must be there, at most the one in flight lost, the
older game on the flash untouched.

The game: a seeded random Cargocube game with the base cards (wind-rose hops make 3+ byte
actions) and take-backs, 180+ steps, then the finish. Two flash geometries: the Pico's (4 KB
blocks, progsize 256: the log starts inline in the directory and moves to its own blocks past
512 bytes) and a small one (512-byte blocks, progsize 16: many more block operations, metadata
compactions and block boundaries). Each geometry runs as two interleaved halves (odd and even
cuts) so that both cores work. The number of cuts tried is printed (pytest -s shows it).
"""

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_rules import cargocube as cc  # noqa: E402

DRIVER = ROOT / "tests" / "driver_powercut.py"
GEOMETRIES = {"pico": "4096:48:256", "small": "512:128:16"}


def long_game(seed=5, steps=190):
    rng = random.Random(seed)
    pos = cc.start_position(2, cards=True)
    lines = []
    while len(lines) < steps and not pos.is_over():
        if pos.ply() and rng.random() < 0.08:
            pos.pop()
            lines.append("u")
            continue
        a = rng.choice(pos.legal_actions())
        pos.push(a)
        lines.append("a " + cc.encode_action(a).hex())
    lines.append("f")
    return lines


@pytest.mark.parametrize("half", [1, 2])
@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_power_cut_at_every_block_operation(micropython, tmp_path, geometry, half):
    lines = long_game()
    actions = sum(1 for x in lines if x.startswith("a"))
    assert actions >= 150 and "u" in lines
    assert any(len(x) > 6 for x in lines if x.startswith("a")), "no action with hops"
    steps = tmp_path / "steps.txt"
    steps.write_text("\n".join(lines) + "\n")
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
    assert tried == (ops - half) // 2 + 1, "every other block operation was cut"
    assert ok == tried
