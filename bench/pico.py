"""The firmware's frame times on the emulated Pico, beside the unix port's from the same run,
and what the emulator costs in wall time. Printed, never asserted.

    .venv/bin/python bench/pico.py [FRAMES] [GAME] [each] [--expansion pyramid|bastion|both]
        [--teleport] [--players 2|3|4|8]   (default 300 steady frames, cargocube; GAME as
        firmware/bench_frame.py takes it; `each`: every lift's and put-back's frame with its
        phases, one line each; the options: Cargocube's mid-game position from that start,
        4 players and base cards unless told)
    .venv/bin/python bench/pico.py --speed [SECONDS]  (only 4. below; default 8 emulated s)

1. `firmware/bench_frame.py` (the one frame benchmark, which also runs on a real board) on the
   emulated RP2040: the stock MicroPython image boots the board's flash (this checkout's deploy
   build), and the real mpremote runs the script there as on a board (`mpremote connect PTY exec
   ... run firmware/bench_frame.py`): its HAL is the real one (74HC165 chain over SPI, WS2812
   over PIO, both modelled cycle by cycle), time is the emulated chip's (rp2040js charges
   Cortex-M0+ cycles at 125 MHz; flash wait states and the XIP cache are not modelled, so real
   silicon running code from flash can only be slower; docs/virtual-board.md).
2. The same script under the MicroPython unix port (bench/frame.py's build and harness).
3. Emulator speed with the host in the loop (the runner serving the pty to mpremote, as for
   any host tool): per emulated second, wall seconds, CPU seconds of the emulator process and
   of this one (the runner's exchanges with it, the pty), the wall seconds the runner waited
   (for the pty, or for the wall clock: an idle board keeps real time) and the runner's round
   trips with the emulator, while the board idles in its frame loop (the firmware running, no
   input) and while the benchmark runs (the CPU busy nearly all the time). Goal: one emulated
   second <= 2 s wall.
4. (--speed) The same without a host in the loop, on fixed workloads that do not depend on the
   machine (bench/pico_speed.mjs): the deploy build booting and idling in its frame loop, and
   bench_frame.py (300 frames) run from the flash's main.py at power-on; CPU and wall seconds
   of node for the first emulated second (building the board, V8's warm-up, the boot) and for
   each one after, with the load average beside; each with V8's warm-up and without it.
"""

import os
import re
import resource
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
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

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


def runqueue_seconds(pid):
    """Seconds a process has waited, runnable, for a core so far (/proc/PID/schedstat: the
    scheduler's share of a loaded machine), or None where the kernel does not say."""
    try:
        return int(open("/proc/%d/schedstat" % pid).read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def children_cpu_seconds():
    """User + system CPU seconds of this process's children that have ended (mpremote)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


class Meter:
    """Where the wall time of a stretch of a served run goes, per emulated second: wall
    seconds, CPU seconds of the emulator (node) and of this process (the runner's serving
    thread: the lockstep exchanges, the pty) and of the host tool it ran to its end (mpremote),
    the seconds the emulator waited, runnable, for a core (the machine's other work), the wall
    seconds the serving loop waited (for the pty or the wall clock's pace), and the lockstep
    round trips with the emulator."""

    def __init__(self, runner):
        self.runner = runner
        self.w0, self.e0 = time.monotonic(), runner.emu_ns
        self.c0 = cpu_seconds(runner.proc.pid)
        self.q0 = runqueue_seconds(runner.proc.pid)
        self.p0 = time.process_time()
        self.t0 = children_cpu_seconds()
        self.s0, self.x0 = runner.serve_wait_s, runner.exchanges

    def stop(self):
        r = self.runner
        emu = (r.emu_ns - self.e0) / 1e9
        c1 = cpu_seconds(r.proc.pid)
        cpu = (c1 - self.c0) / emu if c1 is not None and self.c0 is not None else float("nan")
        q1 = runqueue_seconds(r.proc.pid)
        queued = (q1 - self.q0) / emu if q1 is not None and self.q0 is not None else float("nan")
        return {"emu_s": emu, "wall": (time.monotonic() - self.w0) / emu, "cpu": cpu,
                "queued": queued, "host_cpu": (time.process_time() - self.p0) / emu,
                "tool_cpu": (children_cpu_seconds() - self.t0) / emu,
                "waited": (r.serve_wait_s - self.s0) / emu,
                "exchanges": (r.exchanges - self.x0) / emu}


def mpremote_on_pico(runner, *args):
    """Run the real mpremote with these arguments against the emulated board (its console on
    the runner's pty, as on a board's USB) and return what it prints."""
    r = subprocess.run([_mpremote_exe(), "connect", runner.port] + list(args),
                       capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit("bench: mpremote failed: %s" % (r.stderr or r.stdout).strip())
    return r.stdout


def emulated(frames, game, extra=()):
    runner = PicoRunner()
    w0, c0 = time.monotonic(), time.process_time()
    runner.start()  # power-on to the firmware ready: V8's warm-up and compiling, the boot
    boot = {"emu_s": runner.emu_ns / 1e9, "wall": time.monotonic() - w0,
            "cpu": cpu_seconds(runner.proc.pid), "queued": runqueue_seconds(runner.proc.pid),
            "host_cpu": time.process_time() - c0}
    try:
        with runner.serving():
            # the board idling in its frame loop (no input) for 2 emulated seconds
            idle = Meter(runner)
            while runner.emu_ns - idle.e0 < 2e9:
                time.sleep(0.05)
            idle = idle.stop()
            busy = Meter(runner)
            argv = ["bench_frame.py", game, str(frames)] + list(extra)
            out = mpremote_on_pico(runner, "exec", "import sys; sys.argv[:] = %r" % (argv,),
                                   "run", str(ROOT / "firmware" / "bench_frame.py"))
            busy = busy.stop()
    finally:
        runner.stop()
    return out, boot, idle, busy


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


def unix(frames, game, extra=()):
    build = cached_build()  # the device build, as bench/frame.py runs it
    return mpy.run_micropython(ROOT / "firmware" / "bench_frame.py", heapsize=unix_frame.HEAP,
                               args=[game, str(frames)] + list(extra),
                               path=[build] if build else [], timeout=600)


BUSY_MAIN = b"""import sys
sys.argv[:] = ['bench_frame.py', 'cargocube', '300']
exec(open('bench_frame.py').read())
"""


def speed(seconds):
    """bench/pico_speed.mjs on an idle and a busy board (4. above), each with V8's warm-up
    (board.mjs, as the runner starts it) and without it (`cold`): the first emulated second
    apart from the others, CPU and wall seconds, the load average beside each."""
    import json
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PINS, find_node, firmware_files
    rom, uf2 = find_images()
    deploy = firmware_files()
    busy = [f for f in deploy if f[0] != "main.py"] + [
        ("bench_frame.py", (ROOT / "firmware" / "bench_frame.py").read_bytes()),
        ("main.py", BUSY_MAIN)]
    print("--- emulator speed without a host (bench/pico_speed.mjs, %d emulated s each; per "
          "emulated s: node's CPU s / wall s; goal: wall <= 2) ---" % seconds)
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
        for name, files in (("idle", deploy), ("busy", busy)):
            for mode in ("fast", "cold"):
                # a fresh image for each run: the board writes through to it (its first boot
                # makes the log's folder), which would change the next run's workload
                image = Path(tmp) / ("%s-%s.img" % (name, mode))
                fsimage.write_files(image, files)
                load = os.getloadavg()[0]
                r = subprocess.run([find_node(), str(ROOT / "bench" / "pico_speed.mjs"), str(rom),
                                    str(uf2), str(image), str(PINS), str(seconds * 1000), mode],
                                   capture_output=True, text=True, timeout=3600, cwd=ROOT)
                if r.returncode != 0:
                    raise SystemExit("bench/pico.py: pico_speed.mjs failed: %s" % r.stderr.strip())
                f = json.loads(r.stdout)
                per, walls = f["cpu_s_per_second"], f["wall_s_per_second"]
                rest, rest_w = per[1:] or per, walls[1:] or walls
                print("%s %s: first second %.2f CPU s / %.2f s wall (goal: %s; of it building "
                      "the board %.2f CPU s); then %.2f / %.2f per emulated s (goal: %s); all "
                      "%.2f / %.2f; load average %.1f before, %.1f after; CPU s per second: %s; "
                      "%d cycles, %.2f s in WFI" % (
                          name, "warm" if mode == "fast" else "cold", per[0], walls[0],
                          "met" if walls[0] <= 2 else "NOT met", f["setup_cpu_s"],
                          sum(rest) / len(rest), sum(rest_w) / len(rest_w),
                          "met" if sum(rest_w) / len(rest_w) <= 2 else "NOT met",
                          f["cpu_s"] / f["emulated_s"], f["wall_s"] / f["emulated_s"], load,
                          os.getloadavg()[0], " ".join("%.2f" % x for x in per), f["cycles"],
                          f["wfi_s"]))
    print("(warm: as the runner starts the board, V8 trained on a throwaway chip first "
          "(host/cargoboard/sim/pico/warmup.mjs); cold: without it. CPU seconds do not depend "
          "on what else runs on this machine, wall seconds do)")


def start_words(argv):
    """(bench_frame.py's `key=value` words, the other arguments) from the options --expansion
    LAYOUT, --teleport, --players N (firmware/bench_frame.py's game_options)."""
    words, rest = [], []
    it = iter(argv)
    for a in it:
        if a == "--expansion":
            layout = next(it, None)
            if layout not in ("pyramid", "bastion", "both"):
                raise SystemExit("bench/pico.py: --expansion pyramid|bastion|both")
            words.append("cards=" + layout)
        elif a == "--players":
            n = next(it, None)
            if n not in ("2", "3", "4", "8"):
                raise SystemExit("bench/pico.py: --players 2|3|4|8")
            words.append("players=" + n)
        elif a == "--teleport":
            words.append("teleport=1")
        else:
            rest.append(a)
    return words, rest


def main(argv):
    if argv[1:2] == ["--speed"]:
        try:
            find_images()
        except PicoUnavailable as e:
            print("bench/pico.py: skipped: %s" % e)
            return 0
        speed(benchcli.number(argv[2], "SECONDS") if len(argv) > 2 else 8)
        return 0
    words, argv = start_words(argv)
    frames = benchcli.number(argv[1], "FRAMES") if len(argv) > 1 else 300
    game = argv[2] if len(argv) > 2 else "cargocube"
    extra = argv[3:4] + words
    try:
        find_images()
    except PicoUnavailable as e:
        print("bench/pico.py: skipped: %s" % e)
        return 0
    w0 = time.monotonic()
    emu_out, boot, idle, busy = emulated(frames, game, extra)
    wall = time.monotonic() - w0
    print("--- emulated RP2040 (rp2040js 1.4.1, 125 MHz, stock MicroPython v1.26.1) ---")
    print(emu_out.rstrip(), flush=True)
    unix_out = unix(frames, game, extra)
    loop_us = empty_loop_us()
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
    print("--- emulator speed with the host in the loop (goal: one emulated second <= 2 s of "
          "wall time) ---")
    print("boot  (power-on to ready, %.2f emulated s): %.2f s wall, %.2f s wall per emulated s; "
          "CPU s: emulator %s, host %.2f; the emulator waited %s s for a core" % (
              boot["emu_s"], boot["wall"], boot["wall"] / boot["emu_s"],
              "%.2f" % boot["cpu"] if boot["cpu"] is not None else "?", boot["host_cpu"],
              "%.2f" % boot["queued"] if boot["queued"] is not None else "?"))
    for name, m, what in (("idle", idle, "the firmware's frame loop, no input"),
                          ("busy", busy, "the benchmark, the CPU nearly always busy")):
        print("%s  (%s, %.1f emulated s): %.2f s wall per emulated s (goal <= 2: %s); CPU s: "
              "emulator %.2f, host %.2f, mpremote %.2f; the emulator waited %.2f s for a core; the host waited "
              "%.2f s (pty, wall-clock pace); %.0f round trips" % (
                  name, what, m["emu_s"], m["wall"], "met" if m["wall"] <= 2 else "NOT met",
                  m["cpu"], m["host_cpu"], m["tool_cpu"], m["queued"], m["waited"], m["exchanges"]))
    print("(idle frames keep the wall clock's pace, so idle costs at least 1 s wall; wall "
          "depends on what else runs on this machine: load average %.1f now; the whole bench "
          "took %.0f s)" % (os.getloadavg()[0], wall))
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
