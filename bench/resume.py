"""Boot to ready while resuming an open game of ACTIONS actions (default 150; issue 11: <= 2 s),
on the emulated Pico (the stock MicroPython image booting the board's flash: the deploy build
and the open game's log; emulated time from power-on to the `log resumed` line, which the app
emits once the game is replayed and in play) and, in the same run, on the virtual board's unix
target (wall time from starting the process to the same line). Printed, never asserted.

    .venv/bin/python bench/resume.py [ACTIONS]

The log is written by the board's own log code (firmware/system/gamelog.py) under the MicroPython
unix port onto a littlefs image with the Pico's geometry: a seeded 4-player game with cards,
ACTIONS legal actions, left open as a power cut would leave it.
"""

import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "bench")]

from shared_rules.cargocube import rules as cc  # noqa: E402
from cargoboard.sim.runner import UnixRunner  # noqa: E402
from sync import write_image  # noqa: E402  (bench/sync.py)
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

DONE = b"log resumed"
MAX_FRAMES = 2000  # 20 s of board time


def open_game(actions):
    """'SEATS|START|HEX PAYLOADS' of a seeded 4-player game with cards, `actions` long, open."""
    for seed in range(100):
        rng = random.Random(seed)
        pos = cc.start_position(4, cards=True)
        start = pos.notation()
        payloads = []
        while not pos.is_over() and len(payloads) < actions:
            a = rng.choice(pos.legal_actions())
            pos.push(a)
            payloads.append(bytes(cc.encode_action(a)).hex())
        if len(payloads) == actions and not pos.is_over():
            return "%s|%s|%s" % ("".join("SWNE"[s] for s in pos.seats), start, " ".join(payloads))
    raise SystemExit("bench/resume.py: no seeded game lasts %d actions" % actions)


def resumed_line(runner):
    text = bytes(runner.serial_log).decode(errors="replace")
    for line in text.splitlines():
        if "log resumed" in line or "resume-failed" in line or "log resume " in line:
            return line.strip()
    return "(no resume line)"


def emulated(image):
    """Emulated seconds from power-on to the `log resumed` line, and that line."""
    from cargoboard.sim.pico.runner import PicoRunner
    from cargoboard.sim.runner import Runner
    runner = PicoRunner(flash=image)
    try:
        Runner.start(runner)  # power on; PicoRunner.start would run on to a quiet console
        for _ in range(MAX_FRAMES):
            runner.step()
            if DONE in runner.serial_log:
                return runner.emu_ns / 1e9, resumed_line(runner)
        return None, resumed_line(runner)
    finally:
        runner.stop()


def unix(image):
    """Wall seconds from starting the unix target's process to the `log resumed` line."""
    runner = UnixRunner(flash=image)
    t0 = time.monotonic()
    try:
        runner.start()
        for _ in range(MAX_FRAMES):
            if DONE in runner.serial_log:
                return time.monotonic() - t0, resumed_line(runner)
            runner.step()
        return None, resumed_line(runner)
    finally:
        runner.stop()


def main(argv):
    actions = benchcli.number(argv[1], "ACTIONS") if len(argv) > 1 else 150
    with tempfile.TemporaryDirectory(prefix="bench-resume-") as tmp:
        image = write_image(tmp, [open_game(actions) + "\n"], leave_open=True)
        try:
            from cargoboard.sim.pico.images import PicoUnavailable, find_images
            find_images()
            emu, emu_line = emulated(image)
        except PicoUnavailable as e:
            emu, emu_line = None, "skipped: %s" % e
        wall, unix_line = unix(image)
    print("boot to ready, resuming an open 4-player game with cards of %d actions:" % actions)
    print("  emulated Pico: %s   %s" % ("%.3f s emulated" % emu if emu is not None else "-",
                                       emu_line))
    print("  unix port:     %s   %s" % ("%.3f s wall" % wall if wall is not None else "-",
                                       unix_line))
    print("  (goal: 2 s on the board; the emulated figure counts the stock image's own boot too)")
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
