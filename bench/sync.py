"""Sync throughput: 100 games stored on the virtual board, fetched with `sync` over the
pseudo-terminal (the binary protocol, pyserial, a real SQLite file). Printed, never asserted.

    .venv/bin/python bench/sync.py [GAMES]
    .venv/bin/python bench/sync.py --target pico [GAMES]

With `--target pico` both sides are measured on the emulated Pico (the stock MicroPython image,
USB CDC on the pty, the same flash image): `cargoboard sync`, then the real mpremote copying the
same log files (`mpremote connect PTY fs cp :/games/gNNNNN.log ...`, every file in one call),
each in emulated time (what a board would take) and wall time, and their ratio (issue 11:
sync >= 10x faster). Each side starts once the board has run 2 emulated seconds after its boot
(the firmware settles after power-on, ~0.5 s with 100 games on the flash: neither side's cost).
Where sync's time goes is printed with it: emulated and wall ms of each request type (the
board's work and the USB round trips), of the store's transactions, and of the host's own
work between requests (replaying each log through the rules core, checks), in all and per
game; then how long after the sync the board went on deleting the confirmed games (CONFIRM
leaves that to the frames once the host is quiet, docs/protocol.md).

Emulated time runs on while the host works: the board is served by a thread that keeps the
chip running (1 ms steps while bytes flow, then 10 ms frames paced by the wall clock), as a
real board runs while its host thinks. So host time counts in the emulated figure at roughly
its wall-clock length (more when the machine is loaded), on both sides alike.

The games are random legal games (2-4 players, with and without cards) written onto a littlefs
image with the Pico's geometry by the board's own log code (firmware/system/gamelog.py) under the
MicroPython unix port; the virtual board then boots on that image and serves them.

Beside it, the cost of fetching the same files with `mpremote fs cp`: mpremote cannot run
against the virtual board (it has no raw REPL), so that cost is computed from mpremote's own
transfer code (mpremote/transport.py fs_readfile: one `print(repr(r(256)))` evaluation per
256 bytes, plus stat, open and close; each evaluation in raw-paste mode is two round trips),
at the round-trip time and byte rate measured on this same pty in this run.
"""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from shared_rules.cargocube import rules as cc  # noqa: E402
from cargoboard.link import Link  # noqa: E402
from cargoboard.sim.runner import UnixRunner, find_micropython  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.sync import sync  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

WRITE_GAMES = """
import sys, binascii
from firmware.drivers import flashdev
from firmware.system.gamelog import GameLog
dev = flashdev.FileBlockDev.open(sys.argv[1])
flashdev.mount(dev, "/flash", True)
log = GameLog("/flash", "sim-bench")
with open("/flash/board_id", "w") as f:
    f.write("sim-bench\\n")
for line in open(sys.argv[2]):
    w = line.split("|")
    log.begin("cargocube", "polygon", w[0], w[1], None, %d, 0)
    for h in w[2].split():
        log.append(binascii.unhexlify(h))
    if sys.argv[3] != "open":
        log.finish()
print("ok")
""" % cc.RULES_VERSION


def random_game(seed):
    rng = random.Random(seed)
    players = (2, 3, 4)[seed % 3]
    pos = cc.start_position(players, cards=seed % 2 == 1)
    start = pos.notation()
    payloads = []
    while not pos.is_over() and pos.ply() < 400:
        a = rng.choice(pos.legal_actions())
        pos.push(a)
        payloads.append(bytes(cc.encode_action(a)).hex())
    return "%s|%s|%s\n" % ("".join("SWNE"[s] for s in pos.seats), start, " ".join(payloads))


def mpremote_cost(sizes, rtt_s, byte_s):
    """(round trips, bytes on the wire, seconds) for `mpremote fs cp :g.log .` of each file,
    following mpremote's fs_readfile: stat, open, r(256) until empty, close; raw-paste mode:
    each exec is 2 round trips ("\\x05A\\x01" -> "R\\x01" + window, then the code -> output)."""
    trips = 0
    wire = 0
    path = "'/games/g00001.log'"

    def exec_cost(code, output_len):
        nonlocal trips, wire
        trips += 2
        wire += 3 + 4 + len(code) + 1 + 1 + 2 + output_len + 1 + 1 + 1  # paste, OK, output, EOFs, >

    rnd = random.Random(1)
    for size in sizes:
        exec_cost("import os\nprint(repr(os.stat(%s)))" % path, 60)
        exec_cost("f=open(%s,'rb')\nr=f.read" % path, 0)
        left = size
        while True:
            n = min(256, left)
            # repr() of a log chunk: printable bytes stay one character, others become \\xNN
            chunk = bytes(rnd.randrange(256) for _ in range(n))
            exec_cost("print(repr(r(256)))", len(repr(chunk)) + 2)
            left -= n
            if n == 0:
                break
        exec_cost("f.close()", 0)
    return trips, wire, trips * rtt_s + wire * byte_s


def write_image(tmp, games, leave_open=False):
    """A littlefs image (the Pico's geometry) holding the games (random_game() lines), written
    by the board's log code, finished unless leave_open; its path."""
    image = os.path.join(tmp, "flash.img")
    specs = os.path.join(tmp, "games.txt")
    with open(specs, "w") as f:
        f.writelines(games)
    script = os.path.join(tmp, "write.py")
    with open(script, "w") as f:
        f.write(WRITE_GAMES)
    env = dict(os.environ, MICROPYPATH=".frozen:" + ROOT)
    t0 = time.monotonic()
    r = subprocess.run([find_micropython(), script, image, specs,
                        "open" if leave_open else "finish"], capture_output=True, text=True,
                       env=env)
    if r.returncode or "ok" not in r.stdout:
        raise SystemExit("bench: writing the games failed: %s %s" % (r.stdout, r.stderr))
    print("wrote %d games onto the flash image in %.1f s" % (len(games), time.monotonic() - t0))
    return image


class Phases:
    """Emulated and wall time of the phases of a sync, summed by name."""

    def __init__(self, runner):
        self.runner = runner
        self.sums = {}  # name -> [calls, emulated ns, wall s]

    def timed(self, name, f):
        def g(*args, **kwargs):
            e0, w0 = self.runner.emu_ns, time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                row = self.sums.setdefault(name, [0, 0.0, 0.0])
                row[0] += 1
                row[1] += self.runner.emu_ns - e0
                row[2] += time.perf_counter() - w0
        return g


class TimedLink(Link):
    """The host link with each request type's time (emulated and wall) summed."""

    def __init__(self, phases, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in (("hello", "HELLO"), ("fetch", "FETCH (board streams logs)"),
                            ("confirm_all", "CONFIRM")):
            setattr(self, name, phases.timed(label, getattr(self, name)))


class TimedStore(Store):
    """The store with its batch transactions' time summed."""

    def __init__(self, phases, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_all = phases.timed("store (SQLite, one transaction a batch)", self.add_all)


def settle(runner, seconds=2.0):
    """Let the board run `seconds` of emulated time after its boot."""
    t = runner.emu_ns
    while runner.emu_ns - t < seconds * 1e9:
        time.sleep(0.02)


def flash_quiet_at(runner, since, quiet_s=1.0):
    """Emulated ns of the board's last flash operation after `since`, once none has come for
    quiet_s of emulated time (the deletes CONFIRM left to the frames); `since` if none."""
    while True:
        last = max([since] + [op[4] for op in runner.flash_ops[-1:]])
        if runner.emu_ns - last > quiet_s * 1e9:
            return last
        time.sleep(0.1)


def pico(n_games):
    """Both sides measured on the emulated Pico, each on its own copy of the same flash image
    (sync confirms and so deletes the games it fetched): sync, then the real mpremote."""
    import shutil
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from pico import mpremote_on_pico  # bench/pico.py
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PicoRunner
    with tempfile.TemporaryDirectory() as tmp:
        image = write_image(tmp, [random_game(seed) for seed in range(n_games)])
        logs = ["/games/" + n for n in fsimage.listdir(image, "/games") if n.endswith(".log")]
        copy = os.path.join(tmp, "flash-mpremote.img")
        shutil.copyfile(image, copy)
        with PicoRunner(flash=image) as runner, runner.serving():
            settle(runner)
            phases = Phases(runner)
            # a generous timeout: the emulator runs slower than the chip on a busy machine
            with TimedLink(phases, runner.port, timeout=10.0) as link, \
                    TimedStore(phases, os.path.join(tmp, "games.sqlite")) as store:
                ops0 = len(runner.flash_ops)
                e0, w0 = runner.emu_ns, time.monotonic()
                res = sync(link, store)
                s_emu, s_wall = (runner.emu_ns - e0) / 1e9, time.monotonic() - w0
                s_end = runner.emu_ns
                sizes = [len(store.get(gid).log) for _, gid in res.stored]
            deleted_at = flash_quiet_at(runner, s_end)
            ops = runner.flash_ops[ops0:]
        left = [n for n in fsimage.listdir(image, "/games") if n.endswith(".log")]
        out_dir = os.path.join(tmp, "copied")
        os.mkdir(out_dir)
        args = []
        for path in logs:
            args += ["fs", "cp", ":" + path, out_dir + "/", "+"]
        with PicoRunner(flash=copy) as runner, runner.serving():
            settle(runner)
            e0, w0 = runner.emu_ns, time.monotonic()
            mpremote_on_pico(runner, *args[:-1])
            m_emu, m_wall = (runner.emu_ns - e0) / 1e9, time.monotonic() - w0
        files = os.listdir(out_dir)
        copied = sum(os.path.getsize(os.path.join(out_dir, n)) for n in files)
    payload = sum(sizes)
    n = max(1, len(res.stored))
    print("games synced: %d (%d rejected), log bytes %d; mpremote copied %d files, %d bytes"
          % (len(res.stored), len(res.rejected), payload, len(files), copied))
    print()
    print("where sync's time goes (emulated ms: the board's work, USB round trips, and the "
          "host's time while the board waits)")
    print("%-42s %6s %12s %10s %10s %10s" % ("phase", "calls", "emulated ms", "per game",
                                            "wall ms", "per game"))
    e_sum = w_sum = 0.0
    for name, (calls, e_ns, w_s) in phases.sums.items():
        e_sum += e_ns
        w_sum += w_s
        print("%-42s %6d %12.1f %10.2f %10.1f %10.2f" % (name, calls, e_ns / 1e6, e_ns / 1e6 / n,
                                                        w_s * 1e3, w_s * 1e3 / n))
    rest_e, rest_w = s_emu * 1e3 - e_sum / 1e6, s_wall * 1e3 - w_sum * 1e3
    print("%-42s %6s %12.1f %10.2f %10.1f %10.2f" % ("host: replay through the rules, checks",
                                                    "", rest_e, rest_e / n, rest_w, rest_w / n))
    erases = sum(1 for o in ops if o[0] == "erase")
    deletes_s = max(0.0, deleted_at - s_end) / 1e9
    print("after the sync the board deleted the confirmed games for %.2f s more (emulated; "
          "%d flash programs, %d sector erases of 45 ms); logs left on its flash: %d" % (
              deletes_s, len(ops) - erases, erases, len(left)))
    print()
    print("%-36s %14s %10s" % ("emulated Pico", "emulated s", "wall s"))
    print("%-36s %14.2f %10.2f" % ("cargoboard sync (measured)", s_emu, s_wall))
    print("%-36s %14.2f %10.2f" % ("mpremote fs cp (measured, real)", m_emu, m_wall))
    print("ratio mpremote/sync: emulated time %.1fx, wall %.1fx (goal >= 10x); "
          "emulated with the board's deletes after the sync %.1fx"
          % (m_emu / s_emu, m_wall / s_wall, m_emu / (s_emu + deletes_s)))
    print("(sync includes the SQLite writes, the replay of every game through the rules core "
          "and the confirms; mpremote's figure is the copy alone)")
    return 0


def main():
    argv = sys.argv[1:]
    if argv[:2] == ["--target", "pico"]:
        return pico(benchcli.number(argv[2], "GAMES", least=1) if len(argv) > 2 else 100)
    n_games = benchcli.number(argv[0], "GAMES", least=1) if argv else 100
    with tempfile.TemporaryDirectory() as tmp:
        image = write_image(tmp, [random_game(seed) for seed in range(n_games)])

        with UnixRunner(flash=image) as runner, runner.serving(), Link(runner.port) as link:
            rtts = []
            for _ in range(50):
                t = time.perf_counter()
                link.request(0x05, b"\x00")  # EVENTS off: the cheapest request
                rtts.append(time.perf_counter() - t)
            rtt = statistics.median(rtts)
            sent0, recv0 = link.sent, link.received
            with Store(os.path.join(tmp, "games.sqlite")) as store:
                t = time.perf_counter()
                res = sync(link, store)
                took = time.perf_counter() - t
                sizes = [len(store.get(gid).log) for _, gid in res.stored]
            wire = (link.sent - sent0) + (link.received - recv0)

    payload = sum(sizes)
    byte_s = took / max(1, wire)  # seconds per byte on this pty, as the sync saw it
    trips, m_wire, m_time = mpremote_cost(sizes, rtt, byte_s)
    print("games synced: %d (%d rejected), log bytes %d (mean %.0f per game)"
          % (len(res.stored), len(res.rejected), payload, payload / max(1, len(sizes))))
    print()
    print("%-34s %12s %12s %10s %10s" % ("", "time s", "KB/s payload", "wire bytes", "payload %"))
    print("%-34s %12.2f %12.1f %10d %9.1f%%" % (
        "cargoboard sync (frames, measured)", took, payload / took / 1024, wire, 100.0 * payload / wire))
    print("%-34s %12.2f %12.1f %10d %9.1f%%" % (
        "mpremote fs cp (computed)", m_time, payload / m_time / 1024, m_wire, 100.0 * payload / m_wire))
    print()
    print("ratio mpremote/sync: time %.1fx, wire bytes %.1fx" % (m_time / took, m_wire / wire))
    print("pty round trip (EVENTS request, median of 50): %.2f ms; mpremote needs %d round trips" % (rtt * 1000, trips))
    print("(sync includes the SQLite writes, the replay of every game through the rules core "
          "and the confirms; mpremote's figure is the copy alone)")
    return 0


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
