"""Cephalopod on the board: move inference over whole games played by a modelled hand, and what
it costs on the board (printed, never asserted).

    .venv/bin/python bench/cephalopod_board.py [GAMES]      (part of `make bench`)

- Inference (cargoboard.cephalopod_play: the firmware's scanner and Cephalopod plug-in in this
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

from cargoboard.cephalopod_play import Stats, pick_engine, pick_random, play_game  # noqa: E402

RP2040_FACTOR = 300

REPLAY = r"""
import sys, time, gc
from firmware.cephalopod_game import Game
from firmware.scanner import Scanner
size = sys.argv[1]
collect = sys.argv[2] == "1"
g = Game({"layout": size})
g.emit = lambda t: None
sc = Scanner(30)
raw = bytearray(16)
sc.reset(raw)
g.start()
now = 0
worst = [0, 0, 0]
total = [0, 0, 0]
count = [0, 0, 0]
def timed(k, f, *a):
    if collect and (k < 2 or g.tracker.settling or g.hint is not None or
                    g.tracker.state == 4):
        gc.collect()
    t0 = time.ticks_us()
    f(*a)
    dt = time.ticks_diff(time.ticks_us(), t0)
    total[k] += dt
    count[k] += 1
    if dt > worst[k]:
        worst[k] = dt
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
print(g.pos.notation())
for k in range(3):
    print(worst[k], total[k], count[k])
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


def cost(games=6):
    import mpy
    print()
    print("cost on the board: %d games per size replayed under the MicroPython unix port "
          "(192 KiB heap)" % games)
    print("  %-5s %-10s %7s %10s %10s %12s %14s" % ("board", "call", "calls", "worst us",
                                                    "mean us", "RP2040 ms*", "with gc: worst"))
    for size in ("5x5", "3x3"):
        res = {}
        for collect in ("1", "0"):
            worst = [0, 0, 0]
            total = [0, 0, 0]
            count = [0, 0, 0]
            for seed in range(games):
                trace = []
                play_game(seed, size, pick_random, trace=trace)
                lines = []
                for t in trace:
                    if t[0] == "press":
                        lines.append("p %d" % t[1])
                    else:
                        lines.append("f %s %d" % (t[1].hex(), t[2]))
                out = mpy.run_micropython(REPLAY, args=[size, collect],
                                          stdin="\n".join(lines) + "\n", timeout=900)
                rows = out.split("\n")[1:4]
                for k in range(3):
                    w, t, n = (int(x) for x in rows[k].split())
                    worst[k] = max(worst[k], w)
                    total[k] += t
                    count[k] += n
            res[collect] = (worst, total, count)
        worst, total, count = res["1"]
        for k, name in enumerate(("on_change", "on_button", "tick")):
            mean = total[k] / max(1, count[k])
            print("  %-5s %-10s %7d %10d %10.1f %12.1f %14d" % (
                size, name, count[k], worst[k], mean, worst[k] * RP2040_FACTOR / 1000.0,
                res["0"][0][k]))
    print("  (worst/mean: a garbage collection just before each call that does work, so the")
    print("   figures are the inference's own; * the worst times %d, the unix port's usual"
          % RP2040_FACTOR)
    print("   ratio to the RP2040 at 125 MHz; 'with gc': the worst call when collections fall")
    print("   where they fall, in us on the unix port)")


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t0 = time.time()
    inference(games)
    cost()
    print("\n(%.0f s)" % (time.time() - t0))


if __name__ == "__main__":
    main()
