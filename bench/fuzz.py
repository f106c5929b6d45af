"""Bad input against the firmware (issue 11): generated frames and console lines (truncated,
oversized, bad CRC, unknown types, bad bodies, random bytes, over-long lines, bad characters,
unknown commands and bad arguments) fed to the board's App and Link in the middle of a logged
Cargocube game (tests/fuzz_link.py). Prints the counts: every input must get an ERROR frame
or an `err` line, none may crash the board, and the game and its log must be untouched.

    .venv/bin/python bench/fuzz.py [COUNT [SEED]]                 # the MicroPython unix port, 192k
    .venv/bin/python bench/fuzz.py --target pico [COUNT [SEED]]   # the emulated RP2040

On the unix port the firmware runs as deployed (.mpy, the Pico's heap size); on the emulated
Pico the stock MicroPython image runs the modules from the board's flash (the deploy build),
the fuzz driver sent by the real mpremote (`mpremote run`), and the inputs go to the App
in-process (its serial HAL replaced; the USB CDC path itself is what sync and deploy use).
Goals: >= 100,000 inputs on the unix port, >= 2,000 on the emulated board.
"""

import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

import mpy  # noqa: E402  (tests/mpy.py)
from cargoboard.build import cached_build  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

DRIVER = os.path.join(ROOT, "tests", "fuzz_link.py")


# The Pico's 192k plus room for the driver itself (its bytecode, a 1.3 KB input buffer, the
# counts): at 192k exactly the game's log start or a refused `new` ran out of memory because of
# the driver's own objects (the board's firmware alone runs at 192k in the virtual board).
# At 208k it passed with under 4 KB to spare (204k: `logread` refused with a MemoryError, stop
# 36), so a few hundred bytes more in the firmware failed the fuzz test on the heap, not on a
# bad input; the board's heap is measured on the emulated Pico (bench/heap.py). 256k since stop
# 51, 224k before: the virtual board runs revision A at 224k now (its default Cargocube tracker
# waits, ~14 KB more here), and at 224k `logread` was refused with a MemoryError on a clean
# clone (whose paths the unix port's heap holds too).
HEAP = "256k"


def unix(count, seed):
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as tmp:
        # the driver compiled too: as source its bytecode would take the heap the game needs
        mpy.mpy_cross_compile(DRIVER, out_dir=tmp)
        return mpy.run_micropython("import fuzz_link\nfuzz_link.run(%d, %d)\n" % (count, seed),
                                   path=[tmp, str(cached_build())], heapsize=HEAP,
                                   timeout=3600)


def pico(count, seed):
    from pico import mpremote_on_pico  # bench/pico.py
    from cargoboard.sim.pico.runner import PicoRunner
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as tmp:
        script = os.path.join(tmp, "fuzz_main.py")
        with open(DRIVER) as f:
            src = f.read()
        with open(script, "w") as f:
            f.write(src.replace('if __name__ == "__main__":', "if True:")
                    .replace("int(sys.argv[1]) if len(sys.argv) > 1 else 1000", str(count))
                    .replace("int(sys.argv[2]) if len(sys.argv) > 2 else 1", str(seed)))
        with PicoRunner() as runner, runner.serving():
            e0 = runner.emu_ns
            out = mpremote_on_pico(runner, "run", script)
            return out + "emulated s %.2f\n" % ((runner.emu_ns - e0) / 1e9)


def main(argv):
    target = "unix"
    if argv[:2] == ["--target", "pico"]:
        target, argv = "pico", argv[2:]
    count = benchcli.number(argv[0], "COUNT") if argv else (100000 if target == "unix" else 2000)
    seed = benchcli.number(argv[1], "SEED") if len(argv) > 1 else 1
    w0 = time.monotonic()
    out = (pico if target == "pico" else unix)(count, seed)
    print("--- %s: %d generated inputs, seed %d ---" % (
        "emulated RP2040 (stock MicroPython v1.26.1)" if target == "pico"
        else "MicroPython unix port, heap %s (192k + the driver)" % HEAP, count, seed))
    print(out.rstrip())
    print("wall s %.1f" % (time.monotonic() - w0))
    m = re.search(r"inputs=(\d+) .*answered=(\d+) unanswered=(\d+) crashes=(\d+) "
                  r"handler_errors=(\d+) untouched=(\d)", out)
    goal = 100000 if target == "unix" else 2000
    if m:
        n, ok, bad, crashes, herr, same = map(int, m.groups())
        print("every input answered with an error: %s; crashes %d; game and log untouched: %s; "
              "inputs %d (goal >= %d)" % ("yes" if not bad else "NO (%d not)" % bad, crashes,
                                          "yes" if same else "NO", n, goal))
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv[1:]))
