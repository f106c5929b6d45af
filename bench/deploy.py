"""Where `cargoboard deploy --port` spends its time on the emulated Pico: the steps of
host/cargoboard/deploy.py run one by one against a board that runs other firmware (the same
files, another build stamp: the case of tests/test_pico.py's deploy test), each with its wall
time, the emulated time it took and how the runner drove the chip meanwhile (1 ms steps while
serial bytes flow, 10 ms frames otherwise, and the wall time spent in those lockstep
exchanges). Printed, never asserted.

    .venv/bin/python bench/deploy.py

On this project's machine (05:20 UTC, 2 cores, the other engineers' load ~10):

    step                     wall s  emu s  1ms steps  frames  lockstep s
    boot                       11.7   0.80          0      80        11.0
    the prompt (enter_repl)     1.2   0.15         23      13         1.0
    mpremote (exit 0)          13.3  14.58      13806      80        11.6
    the board back (HELLO)      9.3   1.16         21     114         8.0

and with two CPU burners beside (`for i in 1 2; do timeout 900 sh -c 'while :; do :; done' &
done`): boot 28.5 s, the prompt 2.4 s, mpremote 45.7 s (9,908 steps, 39.9 s in lockstep, ~4 ms
of wall time per emulated ms), the board back 23.8 s. mpremote's time is its ~7 raw-REPL round
trips a file (two stats, the sha256 on the board) for the 51 files that are up to date: each
round trip is ~30 emulated ms of 1 ms lockstep steps, so it costs what the host's lockstep
exchange costs, not what the chip computes.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "host")]

from cargoboard import deploy as D  # noqa: E402
from cargoboard.sim.pico import fsimage  # noqa: E402
from cargoboard.sim.pico.images import PicoUnavailable, find_images  # noqa: E402
from cargoboard.sim.pico.runner import PicoRunner, firmware_files  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)


class Counted(PicoRunner):
    """A PicoRunner that counts its lockstep exchanges (A: 1 ms steps, F: 10 ms frames)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.counts = {"steps": 0, "frames": 0, "lockstep_s": 0.0}

    def _exchange(self, typ, head):
        t0 = time.monotonic()
        try:
            return super()._exchange(typ, head)
        finally:
            self.counts["lockstep_s"] += time.monotonic() - t0
            self.counts["steps" if typ == ord("A") else "frames"] += 1


def main():
    try:
        find_images()
    except PicoUnavailable as e:
        print("emulated Pico: skipped (%s)" % e)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-deploy-") as tmp:
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, [(bp, data.replace(b"build=", b"build=old")
                                     if bp == D.STAMP else data)
                                    for bp, data in firmware_files()])
        print("%-24s %8s %8s %8s %8s %11s" % ("step", "wall s", "emu s", "1ms steps",
                                             "frames", "lockstep s"))
        t = time.monotonic()
        emu = 0.0

        def row(what, runner):
            nonlocal t, emu
            now = time.monotonic()
            c = runner.counts
            print("%-24s %8.1f %8.2f %8d %8d %11.1f" % (
                what, now - t, (runner.emu_ns / 1e9) - emu, c["steps"], c["frames"],
                c["lockstep_s"]))
            t, emu = now, runner.emu_ns / 1e9
            c.update(steps=0, frames=0, lockstep_s=0.0)

        with Counted(flash=image, boot_from_flash=True) as runner, runner.serving():
            row("boot", runner)
            D.enter_repl(runner.port)
            row("the prompt (enter_repl)", runner)
            staged_dir = Path(tmp) / "stage"
            staged = D.stage(staged_dir, "rp2")
            cmd = D.mpremote_command(runner.port, staged_dir)
            cmd[0] = D._mpremote_exe()
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=D.COPY_TIMEOUT_S)
            row("mpremote (exit %d)" % r.returncode, runner)
            time.sleep(1.0)
            D.wait_hello(runner.port)
            row("the board back (HELLO)", runner)
        print("%d files, %d bytes; %d up to date (sha256 on the board)" % (
            len(staged), sum(n for _, _, n in staged), r.stdout.count("Up to date")))
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
