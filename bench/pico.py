"""The firmware's frame times on the emulated Pico, beside the unix port's from the same run,
and what the emulator costs in wall time. Printed, never asserted.

    .venv/bin/python bench/pico.py [FRAMES] [GAME]   (default 300 steady frames, cargocube;
                                                      GAME as firmware/bench_frame.py takes it)
    .venv/bin/python bench/pico.py --speed [SECONDS]  (only 4. below; default 8 emulated s)

1. `firmware/bench_frame.py` (the one frame benchmark, which also runs on a real board) on the
   emulated RP2040: the stock MicroPython image boots the board's flash (this checkout's deploy
   build), and the real mpremote runs the script there as on a board (`mpremote connect PTY exec
   ... run firmware/bench_frame.py`): its HAL is the real one (74HC165 chain over SPI, WS2812
   over PIO, both modelled cycle by cycle), time is the emulated chip's (rp2040js charges
   Cortex-M0+ cycles at 125 MHz; flash wait states and the XIP cache are not modelled, so real
   silicon running code from flash can only be slower; docs/virtual-board.md).
2. The same script under the MicroPython unix port (bench/frame.py's build and harness).
3. Emulator speed: wall seconds, and CPU seconds of the emulator process, per emulated second
   while the board idles in its frame loop (the firmware running, no input) and while the
   benchmark runs (the CPU busy nearly all the time). Goal: one emulated second <= 2 s wall.
4. (--speed) The same without a host in the loop, on fixed workloads that do not depend on the
   machine (bench/pico_speed.mjs): the deploy build booting and idling in its frame loop, and
   bench_frame.py (300 frames) run from the flash's main.py at power-on; CPU seconds of node
   for each emulated second (the first holds the boot and most of V8's compiling) and in all.
"""

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "host"), str(ROOT / "bench"), str(ROOT / "tests")]

import frame as unix_frame  # noqa: E402  (bench/frame.py)
import mpy  # noqa: E402
from cargoboard.build import cached_build  # noqa: E402
from cargoboard.deploy import _mpremote_exe  # noqa: E402
from cargoboard.sim.pico.images import PicoUnavailable, find_images  # noqa: E402
from cargoboard.sim.pico.runner import PicoRunner  # noqa: E402

FIGURE = re.compile(r"(\w+_us) max=(-?\d+) p95=(-?\d+)")
GOALS_MS = {"lift_us": 15, "back_us": 15, "frame_us": 10}  # issue 11 (p95, p95, max)


def figures(text):
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in FIGURE.finditer(text)}


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far (/proc), or None off Linux."""
    try:
        fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


class Meter:
    """Wall and emulator-CPU seconds per emulated second over a stretch of a run."""

    def __init__(self, runner):
        self.runner = runner
        self.w0, self.e0 = time.monotonic(), runner.emu_ns
        self.c0 = cpu_seconds(runner.proc.pid)

    def stop(self):
        emu = (self.runner.emu_ns - self.e0) / 1e9
        c1 = cpu_seconds(self.runner.proc.pid)
        cpu = (c1 - self.c0) / emu if c1 is not None and self.c0 is not None else float("nan")
        return (time.monotonic() - self.w0) / emu, cpu, emu


def mpremote_on_pico(runner, *args):
    """Run the real mpremote with these arguments against the emulated board (its console on
    the runner's pty, as on a board's USB) and return what it prints."""
    r = subprocess.run([_mpremote_exe(), "connect", runner.port] + list(args),
                       capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit("bench: mpremote failed: %s" % (r.stderr or r.stdout).strip())
    return r.stdout


def emulated(frames, game):
    with PicoRunner() as runner, runner.serving():
        # the board idling in its frame loop (no input) for 2 emulated seconds
        idle = Meter(runner)
        while runner.emu_ns - idle.e0 < 2e9:
            time.sleep(0.05)
        idle = idle.stop()
        cmd = [_mpremote_exe(), "connect", runner.port, "exec",
               "import sys; sys.argv[:] = ['bench_frame.py', '%s', '%d']" % (game, frames),
               "run", str(ROOT / "firmware" / "bench_frame.py")]
        busy = Meter(runner)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        busy = busy.stop()
    if r.returncode != 0:
        raise SystemExit("bench/pico.py: mpremote failed: %s" % (r.stderr or r.stdout).strip())
    return r.stdout, idle, busy


EMPTY_LOOP = b"""import time
def loop():
    t = time.ticks_us()
    for i in range(10000):
        pass
    return time.ticks_diff(time.ticks_us(), t)
print("loop_us=%d" % loop())
"""


def empty_loop_us():
    """An empty 10000-round loop on a bare emulated Pico (main.py only), in emulated us: what
    the idle USB line costs (rp2040js as it ships: 98.7 ms, its OUT endpoint re-armed every
    10 us; held until data comes: 33.9 ms)."""
    from cargoboard.sim.pico import fsimage
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, [("main.py", EMPTY_LOOP)])
        with PicoRunner(flash=image, boot_from_flash=True) as runner:
            runner.step(10)
            m = re.search(r"loop_us=(\d+)", bytes(runner.serial_log).decode())
    return int(m.group(1)) if m else -1


def unix(frames, game):
    # the device build as bench/frame.py and the virtual board run it (bench/frame.py has no
    # compile_tree since the layout change: this bench stopped there)
    build = cached_build()
    return mpy.run_micropython(ROOT / "firmware" / "bench_frame.py", heapsize=unix_frame.HEAP,
                               args=[game, str(frames)], path=[build] if build else [],
                               timeout=600)


BUSY_MAIN = b"""import sys
sys.argv[:] = ['bench_frame.py', 'cargocube', '300']
exec(open('bench_frame.py').read())
"""


def speed(seconds):
    """bench/pico_speed.mjs on an idle and a busy board (4. above)."""
    import json
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PINS, find_node, firmware_files
    rom, uf2 = find_images()
    deploy = firmware_files()
    busy = [f for f in deploy if f[0] != "main.py"] + [
        ("bench_frame.py", (ROOT / "firmware" / "bench_frame.py").read_bytes()),
        ("main.py", BUSY_MAIN)]
    print("--- emulator speed without a host (bench/pico_speed.mjs, %d emulated s each; CPU s of "
          "node per emulated s; goal <= 2) ---" % seconds)
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
        for name, files in (("idle", deploy), ("busy", busy)):
            image = Path(tmp) / ("%s.img" % name)
            fsimage.write_files(image, files)
            r = subprocess.run([find_node(), str(ROOT / "bench" / "pico_speed.mjs"), str(rom),
                                str(uf2), str(image), str(PINS), str(seconds * 1000)],
                               capture_output=True, text=True, timeout=3600, cwd=ROOT)
            if r.returncode != 0:
                raise SystemExit("bench/pico.py: pico_speed.mjs failed: %s" % r.stderr.strip())
            f = json.loads(r.stdout)
            per = f["cpu_s_per_second"]
            rest = per[1:] or per
            print("%s: %.2f CPU s per emulated s in all, %.2f after the first second (per second: "
                  "%s); %.2f s wall per emulated s; %d cycles, %.2f s in WFI" % (
                      name, f["cpu_s"] / f["emulated_s"], sum(rest) / len(rest),
                      " ".join("%.2f" % x for x in per), f["wall_s"] / f["emulated_s"],
                      f["cycles"], f["wfi_s"]))
    print("(CPU seconds: the machine is shared; load average %.1f now)" % os.getloadavg()[0])


def main(argv):
    if argv[1:2] == ["--speed"]:
        try:
            find_images()
        except PicoUnavailable as e:
            print("bench/pico.py: skipped: %s" % e)
            return 0
        speed(int(argv[2]) if len(argv) > 2 else 8)
        return 0
    frames = int(argv[1]) if len(argv) > 1 else 300
    game = argv[2] if len(argv) > 2 else "cargocube"
    try:
        find_images()
    except PicoUnavailable as e:
        print("bench/pico.py: skipped: %s" % e)
        return 0
    w0 = time.monotonic()
    emu_out, idle, busy = emulated(frames, game)
    wall = time.monotonic() - w0
    unix_out = unix(frames, game)
    loop_us = empty_loop_us()
    print("--- emulated RP2040 (rp2040js 1.4.1, 125 MHz, stock MicroPython v1.26.1) ---")
    print(emu_out.rstrip())
    print("--- MicroPython unix port, this machine, same run ---")
    print(unix_out.rstrip())
    e, u = figures(emu_out), figures(unix_out)
    print("--- side by side: p95 / max (emulated ms | unix port us | ratio of p95) ---")
    for name in ("frame_us", "lift_us", "back_us", "render_us"):
        if name in e and name in u:
            (emx, ep), (umx, up) = e[name], u[name]
            goal = " (goal %s %d ms)" % ("max" if name == "frame_us" else "p95",
                                         GOALS_MS[name]) if name in GOALS_MS else ""
            print("%-10s %7.2f / %7.2f ms | %6d / %6d us | x%.0f%s" % (
                name, ep / 1000, emx / 1000, up, umx, ep / max(up, 1), goal))
    print("empty loop of 10000 rounds: %.1f ms emulated (98.7 ms with rp2040js's idle USB "
          "OUT storm)" % (loop_us / 1000))
    print("--- emulator speed (goal: one emulated second <= 2 s of wall time) ---")
    print("idle  (the firmware's frame loop, no input, %.1f emulated s): %.2f s wall, %.2f s of "
          "emulator CPU per emulated s" % (idle[2], idle[0], idle[1]))
    print("busy  (the benchmark, %.1f emulated s, the CPU nearly always busy): %.2f s wall, "
          "%.2f s of emulator CPU per emulated s" % (busy[2], busy[0], busy[1]))
    print("(wall depends on what else runs on this machine: load average %.1f now; the whole "
          "bench took %.0f s)" % (os.getloadavg()[0], wall))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
