"""Frame-time benchmark of the firmware under the MicroPython unix port (printed, never asserted).

Run: .venv/bin/python bench/frame.py [GAME] [FRAMES] [key=value ...]   (defaults: cargocube,
then cargocube cards=both teleport=1, the same with both expansions and the teleport loaded;
1000 frames; the words pick the game's bench start, firmware/bench_frame.py)

Runs firmware/bench_frame.py (docstring there: busy mid-game Cargocube position, steady frames
with light sensor noise, lifts) under `micropython -X heapsize=192k`, with firmware/ and
shared_rules/ precompiled by mpy-cross as on the board (compiling the sources at import time
needs RAM the board does not spend either), prints its output and the ratio of each figure to
the target: a frame must fit in 10 ms on the RP2040, whose MicroPython is ~300x slower than the
unix port here, so ~30 us here.
"""

import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))

import mpy  # noqa: E402  (tests/mpy.py: the MicroPython unix-port harness)
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

HEAP = "192k"
TARGET_US = 30  # 10 ms on the RP2040 / ~300


def main(argv):
    words = [a for a in argv[1:] if "=" in a]
    args = [a for a in argv[1:] if "=" not in a]
    games = [(args[0], words)] if args else [("cargocube", words),
                                             ("cargocube", ["cards=both", "teleport=1"] + words)]
    frames = str(benchcli.number(args[1], "FRAMES")) if len(args) > 1 else "1000"
    for game, game_words in games:
        run(game, frames, game_words)


def run(game, frames, words=()):
    sys.path.insert(0, str(REPO_ROOT / "host"))
    from cargoboard.build import cached_build  # the device build, as the virtual board runs it
    build = cached_build()
    out = mpy.run_micropython(REPO_ROOT / "firmware" / "bench_frame.py", heapsize=HEAP,
                              args=(game, frames) + tuple(words), path=[build] if build else [],
                              timeout=600)
    print(out.rstrip())
    print("--- target: %d us per frame on the unix port (10 ms on the RP2040 / ~300) ---" % TARGET_US)
    for line in out.splitlines():
        m = re.match(r"(\w+_us) max=(-?\d+) p95=(-?\d+)", line)
        if m:
            name, mx, p95 = m.group(1), int(m.group(2)), int(m.group(3))
            print("%-10s p95 %6d us = %5.1fx target   max %6d us = %5.1fx target" % (
                name, p95, p95 / TARGET_US, mx, mx / TARGET_US))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
