"""Time of the `hint` search (shared_rules.cargocube.engine.best_action) on positions along
seeded 4-player games with cards (the busiest: the most legal actions): on the emulated Pico
(the stock MicroPython image, the modules from the board's flash, the script sent by the real
mpremote; emulated time) and, from the same run, under the MicroPython unix port.

    .venv/bin/python bench/cargocube/hint.py [GAMES]     (default 3 games, a hint every third ply)

The board must answer within 1 s (issue 11). Printed, never asserted; without the Pico images
(CARGOBOARD_PICO_DIR) only the unix port's figures.
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

from mpy import run_micropython  # noqa: E402
from cargoboard.build import cached_build  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

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
for game in range(GAMES):
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


def figures(out):
    """{'max': us, 'p95': us, 'median': us} from the driver's last line."""
    return {k: int(v) for k, v in (p.split("=") for p in out.strip().splitlines()[-1].split()[1:])}


def emulated(script):
    """The driver on the emulated Pico, or None without its images."""
    from cargoboard.sim.pico.images import PicoUnavailable, find_images
    try:
        find_images()
    except PicoUnavailable as e:
        print("emulated Pico: skipped: %s" % e)
        return None
    from pico import mpremote_on_pico  # bench/pico.py
    from cargoboard.sim.pico.runner import PicoRunner
    with tempfile.TemporaryDirectory(prefix="bench-hint-") as tmp:
        path = os.path.join(tmp, "hint_driver.py")
        with open(path, "w") as f:
            f.write(script)
        with PicoRunner() as runner, runner.serving():
            return mpremote_on_pico(runner, "run", path)


def main(argv):
    games = benchcli.number(argv[1], "GAMES", least=1) if len(argv) > 1 else 3
    script = "GAMES = %d\n" % games + DRIVER
    emu = emulated(script)
    if emu is not None:
        print("hint (best_action) on the emulated RP2040 (emulated time):")
        for line in emu.strip().splitlines():
            print("  " + line)
    build = cached_build()
    out = run_micropython(script, heapsize="192k", path=[str(build)] if build else [])
    print("hint (best_action) under the MicroPython unix port, modules as .mpy, same positions:")
    for line in out.strip().splitlines():
        print("  " + line)
    u = figures(out)
    if emu is not None:
        e = figures(emu)
        print("hint max %.3f s emulated | %d us unix port | x%.0f (goal 1 s)" % (
            e["max"] / 1e6, u["max"], e["max"] / max(u["max"], 1)))
    else:
        print("  worst x300 = %.2f s on the RP2040 (budget 1 s)" % (u["max"] * 300 / 1e6))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
