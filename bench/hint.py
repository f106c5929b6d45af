"""Time of the `hint` search (shared_rules.cargocube.engine.best_action) under the MicroPython unix
port, on positions along seeded 4-player games with cards (the busiest: the most legal actions).

    .venv/bin/python bench/hint.py

The board must answer within 1 s; the RP2040 runs MicroPython about 300x slower than this
machine's unix port, so the budget here is about 3.3 ms. Printed, never asserted.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from mpy import run_micropython  # noqa: E402
from cargoboard.build import cached_build  # noqa: E402

DRIVER = r"""
import time
from shared_rules.cargocube import rules as cc
from shared_rules.cargocube.engine import best_action
seed = 12345
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed % n
times = []
legal_n = []
for game in range(3):
    pos = cc.start_position(4, cards=True)
    for ply in range(120):
        acts = pos.legal_actions()
        if not acts:
            break
        if ply % 3 == 0:
            t0 = time.ticks_us()
            best_action(pos)
            times.append(time.ticks_diff(time.ticks_us(), t0))
            legal_n.append(len(acts))
        pos.push(acts[rnd(len(acts))])
times.sort()
print("positions", len(times), "legal max", max(legal_n))
print("hint_us max=%d p95=%d median=%d" % (times[-1], times[len(times) * 95 // 100],
                                          times[len(times) // 2]))
"""


def main():
    build = cached_build()
    out = run_micropython(DRIVER, heapsize="192k", path=[str(build)] if build else [])
    print("hint (best_action) under the MicroPython unix port, modules as .mpy:")
    last = ""
    for line in out.strip().splitlines():
        print("  " + line)
        last = line
    parts = dict(p.split("=") for p in last.split()[1:])
    worst = int(parts["max"])
    print("  worst x300 = %.2f s on the RP2040 (budget 1 s)" % (worst * 300 / 1e6))


if __name__ == "__main__":
    main()
