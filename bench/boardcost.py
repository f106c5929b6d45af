"""What the board's calls into a game plug-in cost under the MicroPython unix port (192 KiB
heap, the modules precompiled as deployed): a game traced in this process (cargoboard.sim.table.Table's trace) is replayed through the
same plug-in under MicroPython, and every call that did work is timed; and the live heap on the
emulated RP2040 with a game set up (pico_heap), and the `hint` there (pico_hint_seconds). Shared by the games' board benches
(bench/cephalopod/cephalopod_board.py, bench/kubitva/kubitva_board.py, bench/formula99/formula99_board.py)."""

RP2040_FACTOR = 300  # the unix port's usual ratio to the RP2040 at 125 MHz (bench/cargocube/hint.py)
CALLS = ("on_change", "on_button", "tick")

REPLAY = r"""
import sys, time, gc
from firmware.drivers.scanner import Scanner
Game = __import__(sys.argv[1], None, None, ["Game"]).Game
opts = {}
for w in sys.argv[2:]:
    k, v = w.split("=", 1)
    opts[k] = v
g = Game(opts)
g.emit = lambda t: None
sc = Scanner(30)
raw = bytearray(g.setup_mask() or bytes(16))
sc.reset(raw)
g.start()
now = 0
def timed(k, f, *a):
    # a collection first when the call will work (not an idle tick): the time is the call's own
    busy = k < 2 or g.tracker.settling or g.hint is not None or g.mismatch_since >= 0
    if busy:
        gc.collect()
    t0 = time.ticks_us()
    f(*a)
    dt = time.ticks_diff(time.ticks_us(), t0)
    if busy or dt > 50:
        print(k, dt)
for line in sys.stdin:
    w = line.split()
    if w[0] == "p":
        timed(1, g.on_button, int(w[1]), now)
        continue
    raw = bytearray(bytes.fromhex(w[1]))
    end = now + int(w[2])
    while now < end:
        now += 10
        if sc.update(raw, now):
            timed(0, g.on_change, sc.stable, now)
        timed(2, g.tick, now)
print("end", g.pos.notation())
"""


def trace_lines(trace):
    """The replay's input from a Table trace: `f RAWHEX MS` holds, `p BIT` presses."""
    lines = []
    for t in trace:
        if t[0] == "press":
            lines.append("p %d" % t[1])
        else:
            lines.append("f %s %d" % (t[1].hex(), t[2]))
    return lines


def replay_times(module, options, lines):
    """(call kind, us) of every call that did work, the smaller of two runs for each (the calls
    are the same in both: the firmware is deterministic; the machine's other load is not).
    module: the plug-in's module path; options: key=value words for its Game."""
    import mpy
    from cargoboard.build import cached_build
    build = cached_build()  # the modules as deployed (.mpy): their source would not even
    runs = []               # compile in the heap the board has
    for _ in range(2):
        out = mpy.run_micropython(REPLAY, args=[module] + list(options),
                                  stdin="\n".join(lines) + "\n", timeout=900,
                                  path=[build] if build else ())
        runs.append([tuple(int(x) for x in r.split()) for r in out.split("\n")
                     if r and not r.startswith("end")])
    a, b = runs
    if len(a) != len(b):
        return a
    return [(x[0], min(x[1], y[1])) for x, y in zip(a, b)]


def print_rows(label, times):
    """One row per kind of call: count, mean, p99 and worst, and the worst on the RP2040."""
    for k, name in enumerate(CALLS):
        ts = sorted(times[k])
        if not ts:
            continue
        p99 = ts[min(len(ts) - 1, len(ts) * 99 // 100)]
        print("  %-5s %-10s %7d %9.0f %9d %9d %12.0f" % (
            label, name, len(ts), sum(ts) / len(ts), p99, ts[-1],
            ts[-1] * RP2040_FACTOR / 1000.0))


def header():
    print("  %-5s %-10s %7s %9s %9s %9s %12s" % ("board", "call", "calls", "mean us", "p99 us",
                                                "worst us", "RP2040 ms*"))


def footer():
    print("  (calls that did work: every change and button, the ticks that committed, asked or")
    print("   redrew; a collection before each, the smaller of two runs; * the worst times %d,"
          % RP2040_FACTOR)
    print("   the unix port's usual ratio to the RP2040 at 125 MHz. Idle ticks take about 1 us.)")


def pico_missing():
    """Whether the emulated RP2040 cannot run here (its images are missing): then says so, as a
    skip with the reason, and returns True."""
    from cargoboard.sim.pico.images import PicoUnavailable, find_images
    try:
        find_images()
    except PicoUnavailable as e:
        print("\nemulated RP2040: skipped (%s)" % e)
        return True
    return False


# Console commands a host asks a game in play: their code and the names they intern stay or
# come back, so the heap after them is nearer a game's worst point than the set-up's.
HOST_COMMANDS = ("pos", "state", "legal", "candidates", "history")


def pico_heap(games):
    """The live heap on the emulated RP2040 (serial `mem`: in use, free, largest block), booted,
    with each game of `games` (the words of `new`, e.g. "kubitva board") set up, and after the
    HOST_COMMANDS: the whole firmware as deployed, the host link up. Skipped, with the reason,
    without the images."""
    from cargoboard.link import Link
    from cargoboard.sim.pico.runner import PicoRunner
    if pico_missing():
        return
    print()
    print("heap on the emulated RP2040 (serial `mem`: in use, free), the whole firmware with the "
          "host link:")
    for words in games:
        # the link's timeouts are wall time: the emulator runs slower than real time
        with PicoRunner() as runner, runner.serving(), Link(runner.port, timeout=10.0) as link:
            booted = link.text("mem")
            link.new_game(words)
            print("  %-28s booted: %s; set up: %s" % (words, booted[3:], link.text("mem")[3:]))
            for c in HOST_COMMANDS:
                link.text(c)
            print("  %-28s after %s: %s" % ("", " ".join(HOST_COMMANDS), link.text("mem")[3:]))


def slowest_positions(start, best_action, games, worst):
    """The `worst` positions, by the CPython time of best_action(pos), met by the engine's side
    in `games` games against a uniformly random player (seeds 0.., the engine moving first in
    even ones): (their notations, how many positions were timed). start() makes a start."""
    import random
    import time
    timed = []
    for g in range(games):
        rng = random.Random(g)
        pos = start()
        while not pos.is_over():
            if pos.to_move == g % 2:
                t = time.process_time()
                a = best_action(pos)
                timed.append((time.process_time() - t, pos.notation()))
            else:
                a = rng.choice(pos.legal_actions())
            pos.push(a)
    timed.sort(reverse=True)
    return [n for _, n in timed[:worst]], len(timed)


def pico_hint_seconds(kind, notations, max_frames=3000):
    """The console's `hint` on the emulated RP2040 (stock MicroPython, 125 MHz), a game of `kind`
    set up at each position of `notations` (`new KIND position=`) and asked over its USB
    serial: emulated seconds from the command to the reply (10 ms frames). None without the
    images (pico_missing says why)."""
    from cargoboard.sim.script import Session
    if pico_missing():
        return None
    session = Session(out=lambda line: None, target="pico")
    seconds = []
    try:
        for notation in notations:
            session.execute("new-game %s position=%s" % (kind, notation.replace(" ", "_")))
            t0 = session.runner.emu_ns
            session.query("hint", max_frames=max_frames)
            seconds.append((session.runner.emu_ns - t0) / 1e9)
            session.query("abort")
    finally:
        session.close()
    return seconds
