"""The shortest button press the firmware's debounce (`Buttons`, firmware/drivers/scanner.py)
always takes, at 10 ms frames that jitter and around one late frame. Printed, never asserted.

    .venv/bin/python bench/buttons.py [--trials N] [--jitter MS] [--firmware DIR]

The real `Buttons` class (this checkout's, or DIR's: `--firmware /work/wt/base36` for stop
35's) is fed samples as the chip takes them: a frame wakes on its 10 ms grid plus a jitter
drawn in [0, MS) (default 1 ms: the emulated Pico's scans are 9.1-11.0 ms apart on time,
`tests/test_pico_buttons.py`), the grid at any phase in the millisecond, reads `now` (whole
ms) and latches the buttons 0.7 ms later (as measured on the emulated Pico at 5d5daf6). A
late frame blinds the chip for L ms after a sample (a commit, a log append's flash erase:
20-260 ms, docs/firmware.md "Frames that hide a press"); the grid then starts again from the
frame after it, as `wait_frame` does after an overrun.
For each L (0: none), presses of D ms (1 ms steps) begin at random moments from a frame before
the late frame to its end (N trials each, the same seeds for every D); printed: the shortest D
from which every press is taken, and the longest never taken.
"""

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FRAME = 10.0
LATCH_AFTER_NOW = 0.7   # ms from the frame's `now` to the 74HC165 latch (emulated Pico)
LATES = (0, 20, 30, 35, 40, 45, 60, 90)


def samples(rng, jitter, late):
    """[(now ms, latch ms)] of 16 frames; the late frame (blind `late` ms) after the 4th."""
    out = []
    grid = 1000.0 + rng.random()   # the grid's phase in the millisecond: any
    for k in range(16):
        wake = grid + rng.random() * jitter
        out.append((int(wake), wake + LATCH_AFTER_NOW))
        if k == 3 and late > FRAME:
            grid = wake + late             # the overrun: a fresh grid from the late wake
        else:
            grid += FRAME
    return out


def taken(Buttons, frames, start, hold):
    b = Buttons(30)
    got = 0
    for now, latch in frames:
        raw = 1 if start <= latch < start + hold else 0
        got |= b.update(raw, now)
    return got == 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=400)
    ap.add_argument("--jitter", type=float, default=1.0)
    ap.add_argument("--firmware", default=ROOT, metavar="DIR")
    args = ap.parse_args()
    if args.trials < 1 or not 0 <= args.jitter < FRAME:
        ap.error("--trials is at least 1, --jitter from 0 to less than a frame (%g ms)" % FRAME)
    if not os.path.isfile(os.path.join(args.firmware, "firmware", "drivers", "scanner.py")):
        ap.error("--firmware %s: no firmware/drivers/scanner.py there (a checkout's folder)"
                 % args.firmware)
    sys.path.insert(0, os.path.abspath(args.firmware))
    from firmware.drivers.scanner import Buttons
    print("Buttons of %s (%s), frames %g ms + [0, %g) ms, %d presses per length" % (
        args.firmware, sys.modules[Buttons.__module__].__file__, FRAME, args.jitter, args.trials))
    print("late frame | shortest press always taken | longest never taken")
    for late in LATES:
        rng = random.Random(late)
        cases = []
        for _ in range(args.trials):
            frames = samples(rng, args.jitter, late)
            blind = frames[3][1]   # the late frame's sample; the chip blind after it
            start = blind - FRAME + rng.random() * (FRAME + max(late, FRAME))
            cases.append((frames, start))
        always, never, streak = None, 0, True
        for hold in range(150, 0, -1):
            n = sum(taken(Buttons, f, s, hold) for f, s in cases)
            streak = streak and n == len(cases)
            if streak:
                always = hold
            if n == 0 and not never:
                never = hold
        print("%9s | %s | %s" % ("%d ms" % late if late else "none",
                                 "%d ms" % always if always else "over 150 ms",
                                 "%d ms" % never if never else "-"))


if __name__ == "__main__":
    import benchcli  # (bench/: one line, not a traceback, for a part this machine lacks)
    sys.exit(benchcli.run(main, None))
