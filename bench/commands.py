"""How long a console command holds the firmware's frame loop on the emulated Pico: the longest
gap between two of the firmware's scans (`PicoRunner.chain_loads`, the 74HC165 chain's latch,
in emulated ms) while the board answers it. Printed, never asserted.

    .venv/bin/python bench/commands.py [--before DIR]

One board, booted into its boot game; the commands in turn (a game set up, another game, the
console's `hello`, the first game again). --before DIR: the firmware of the checkout in DIR
run by this checkout's emulator (bench/heap.py's firmware_of), e.g. main's, to compare.
Emulated time does not depend on the machine's load.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "bench")]

from heap import firmware_of  # noqa: E402
from cargoboard.sim.script import Session  # noqa: E402

COMMANDS = ["new cargocube polygon SWNE cards=base", "new cephalopod 5x5", "hello",
            "new cargocube polygon SN"]


def held(commands):
    """[(command, reply, longest gap between scans in emulated ms)] on one board."""
    s = Session(out=lambda line: None, target="pico")
    try:
        s.wait(2000)  # the boot game set up, the frame loop running
        loads = s.runner.chain_loads
        out = []
        for words in commands:
            n = len(loads)
            _, final = s.query(words)
            s.wait(100)
            scans = loads[max(n - 1, 0):]
            gap = max(b - a for a, b in zip(scans, scans[1:]))
            out.append((words, final, gap / 1e6))
        return out
    finally:
        s.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="DIR", help="the firmware of the checkout in DIR")
    a = ap.parse_args(argv)
    if a.before:
        with firmware_of(a.before):
            rows = held(COMMANDS)
    else:
        rows = held(COMMANDS)
    print("the frame loop held by a console command, emulated Pico (%s):"
          % ("the firmware in %s" % a.before if a.before else "this checkout"))
    for words, final, ms in rows:
        print("  %-40s %7.1f ms  (%s)" % (words, ms, final[:40]))


if __name__ == "__main__":
    import benchcli  # (bench/: one line, not a traceback, for a part this machine lacks)
    sys.exit(benchcli.run(main, None))
