"""Cephalopod on the board: move inference over whole games played by a modelled hand, and what
it costs on the board (printed, never asserted).

    .venv/bin/python bench/cephalopod/cephalopod_board.py [GAMES]      (part of `make bench`)

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
  frame's tick, worst and mean, with the RP2040 estimate (x300, as bench/cargocube/hint.py).
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

from cargoboard.games.cephalopod.play import Stats, pick_engine, pick_random, play_game  # noqa: E402
from boardcost import footer, header, print_rows, replay_times, trace_lines  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)


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
    print()
    print("cost on the board: %d random games per size replayed under the MicroPython unix "
          "port (192 KiB heap)" % games)
    header()
    for size in ("5x5", "3x3"):
        times = ([], [], [])
        for seed in range(games):
            trace = []
            play_game(seed, size, pick_random, trace=trace)
            for k, us in replay_times("firmware.games.cephalopod.plugin", ["layout=" + size],
                                      trace_lines(trace)):
                times[k].append(us)
        print_rows(size, times)
    footer()


def main():
    games = benchcli.number(sys.argv[1], "GAMES", least=1) if len(sys.argv) > 1 else 200
    t0 = time.time()
    inference(games)
    cost()
    print("\n(%.0f s)" % (time.time() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
