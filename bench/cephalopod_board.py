"""Cephalopod on the board: move inference over whole games played by a modelled hand, and what
it costs on the board (printed, never asserted).

    .venv/bin/python bench/cephalopod_board.py [GAMES]      (part of `make bench`)

- Inference (cargoboard.games.cephalopod.play: the firmware's scanner and Cephalopod plug-in in this
  process): GAMES seeded games per board size (default 200), the actions chosen uniformly at
  random or mostly by the engine; the hand puts the die down first, takes the dice first or
  mixes, pauses (now and then for over a second in the middle of a capture), its contacts
  bounce, the next player starts 0.45-1.8 s later. The players press a button only when the
  LEDs ask (`confirm_captures`: also confirm each capture). Printed: the share of actions the
  board took without any button, presses per 100 actions, games in which the board ever held an
  action the hand did not make (wrong).
- Cost: a few of those games replayed through the same firmware under the MicroPython unix port
  (192 KiB heap): the time of each call into the plug-in on a sensor change, a button or a
  frame's tick, worst and mean, with the RP2040 estimate (x300, as bench/hint.py).
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from cargoboard.games.cephalopod.play import Stats, pick_engine, pick_random, play_game  # noqa: E402

RP2040_FACTOR = 300

REPLAY = r"""
import sys, time, gc
from firmware.games.cephalopod.plugin import Game
from firmware.drivers.scanner import Scanner
size = sys.argv[1]
g = Game({"layout": size})
g.emit = lambda t: None
sc = Scanner(30)
raw = bytearray(16)
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


def inference(games):
    print("move inference, %d games per row (in this process, the firmware's own code):" % games)
    print("  %-5s %-7s %-8s %7s %8s %9s %8s %6s %5s" % (
        "board", "choice", "players", "actions", "captures", "no button", "presses", "asked",
        "wrong"))
    for size in ("5x5", "3x5", "3x3"):
        for pick in (pick_random, pick_engine):
            for confirm in (False, True):
                tot = Stats()
                for seed in range(games):
                    tot.add(play_game(seed, size, pick, confirm_captures=confirm))
                asked = tot.asked
                print("  %-5s %-7s %-8s %7d %8d %8.2f%% %8.2f %6d %5d" % (
                    size, pick.__name__[5:], "confirm" if confirm else "place",
                    tot.actions, tot.captures, 100.0 * tot.no_button / tot.actions,
                    100.0 * tot.presses / tot.actions, asked, tot.wrong))
                for f in tot.failures[:3]:
                    print("    " + f)
    print("  (no button: actions the board took by itself; presses per 100 actions; asked:")
    print("   actions the board had to ask about; players 'place' press only when asked,")
    print("   'confirm' also confirm every capture)")


def _replay_times(size, lines):
    """(kind, us) of every call that did work, the smaller of two runs for each (the calls are
    the same in both: the firmware is deterministic; the machine's other load is not)."""
    import mpy
    runs = []
    for _ in range(2):
        out = mpy.run_micropython(REPLAY, args=[size], stdin="\n".join(lines) + "\n",
                                  timeout=900)
        runs.append([tuple(int(x) for x in r.split()) for r in out.split("\n")
                     if r and not r.startswith("end")])
    a, b = runs
    if len(a) != len(b):
        return a
    return [(x[0], min(x[1], y[1])) for x, y in zip(a, b)]


def cost(games=6):
    print()
    print("cost on the board: %d random games per size replayed under the MicroPython unix "
          "port (192 KiB heap)" % games)
    print("  %-5s %-10s %7s %9s %9s %9s %12s" % ("board", "call", "calls", "mean us", "p99 us",
                                                "worst us", "RP2040 ms*"))
    for size in ("5x5", "3x3"):
        times = ([], [], [])
        for seed in range(games):
            trace = []
            play_game(seed, size, pick_random, trace=trace)
            lines = []
            for t in trace:
                if t[0] == "press":
                    lines.append("p %d" % t[1])
                else:
                    lines.append("f %s %d" % (t[1].hex(), t[2]))
            for k, us in _replay_times(size, lines):
                times[k].append(us)
        for k, name in enumerate(("on_change", "on_button", "tick")):
            ts = sorted(times[k])
            if not ts:
                continue
            p99 = ts[min(len(ts) - 1, len(ts) * 99 // 100)]
            print("  %-5s %-10s %7d %9.0f %9d %9d %12.0f" % (
                size, name, len(ts), sum(ts) / len(ts), p99, ts[-1],
                ts[-1] * RP2040_FACTOR / 1000.0))
    print("  (calls that did work: every change and button, the ticks that committed, asked or")
    print("   redrew; a collection before each, the smaller of two runs; * the worst times %d,"
          % RP2040_FACTOR)
    print("   the unix port's usual ratio to the RP2040 at 125 MHz. Idle ticks take about 1 us.)")


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t0 = time.time()
    inference(games)
    cost()
    print("\n(%.0f s)" % (time.time() - t0))


if __name__ == "__main__":
    main()
