"""КУБитва benchmarks (printed, never asserted).

    .venv/bin/python bench/kubitva/kubitva.py           (part of `make bench`; a few minutes)
    .venv/bin/python bench/kubitva/kubitva.py --quick   (perft to depth 3, 20 engine games)
    .venv/bin/python bench/kubitva/kubitva.py --pico-hint   (only the hint on the emulated RP2040)

- perft of the start positions (`board`, the 11x11 board edition; `full`, the 15x16 default map)
  at depths 1-4, with nodes/s on CPython, and under the MicroPython unix port (192 KiB heap).
- the engine (shared_rules/kubitva/engine.py) against a uniformly random player: 100 games on
  the board edition (the engine S in the even seeds, N in the odd ones), won / lost / drawn, how
  they ended (a breached base or the turn limit), the mean margin in cells of land; 10 games on
  the full map; and the time per move under the MicroPython unix port with the RP2040 estimate
  (x300, as bench/cargocube/hint.py); and the hint measured on the emulated RP2040 where the Pico images
  are present (docs/virtual-board.md).
"""

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

from shared_rules.kubitva import engine  # noqa: E402
from shared_rules.kubitva import rules as kb  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)


def bench_perft(max_depth):
    print("perft of the start positions (CPython, cpu seconds):")
    for word in ("board", "full"):
        for depth in range(1, max_depth + 1):
            pos = kb.start_position(word)
            t0 = time.process_time()
            n = kb.perft(pos, depth)
            dt = time.process_time() - t0
            print("  %-5s depth %d: %10d  %7.2f s %9.0f leaves/s" % (word, depth, n, dt,
                                                                  n / max(dt, 1e-6)))
    try:
        from mpy import run_micropython
        out = run_micropython(
            "import time\nfrom shared_rules.kubitva import rules as kb\n"
            "p = kb.start_position('board')\nt = time.ticks_us()\nn = kb.perft(p, 3)\n"
            "print(n, time.ticks_diff(time.ticks_us(), t))\n", heapsize="192k")
        n, us = (int(v) for v in out.split())
        print("  MicroPython board depth 3: %d leaves %.2f s %.0f leaves/s (unix port, 192 KiB "
              "heap)" % (n, us / 1e6, n / (us / 1e6)))
    except Exception as e:  # noqa: BLE001 - informative only
        print("  MicroPython row skipped: %s" % e)


def play(word, side, seed):
    """(winners, scores, turns, breached) of one game: the engine on `side`, random on the
    other."""
    rng = random.Random(seed)
    pos = kb.start_position(word)
    while not pos.is_over():
        if pos.to_move == side:
            pos.push(engine.best_action(pos))
        else:
            pos.push(rng.choice(pos.legal_actions()))
    breached = not (pos.base_kept(kb.S) and pos.base_kept(kb.N))
    return pos.winners(), pos.scores(), pos.turn - 1, breached


def bench_engine(word, games):
    t0 = time.perf_counter()
    won = lost = drawn = breached = 0
    margin = 0
    turns = 0
    for seed in range(games):
        side = seed % 2
        w, sc, t, b = play(word, side, seed)
        if w == [side]:
            won += 1
        elif w == [side ^ 1]:
            lost += 1
        else:
            drawn += 1
        breached += b
        margin += sc[side] - sc[side ^ 1]
        turns += t
    print("  %-5s %3d games: engine won %d (%.0f%%), lost %d, drawn %d; %d by a breached base, "
          "the rest at the turn limit; mean land margin %+.1f cells, mean %.1f turns; %.1f s"
          % (word, games, won, 100.0 * won / games, lost, drawn, breached, margin / games,
             turns / games, time.perf_counter() - t0))


def bench_engine_time():
    try:
        from mpy import run_micropython
        driver = (
            "import time\nfrom shared_rules.kubitva import rules as kb\n"
            "from shared_rules.kubitva.engine import best_action\n"
            "seed = 99\n"
            "def rnd(n):\n    global seed\n"
            "    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF\n    return (seed >> 8) % n\n"
            "worst = 0\ntotal = 0\ncount = 0\n"
            "for game in range(2):\n    pos = kb.start_position('board')\n"
            "    while not pos.is_over():\n        if pos.to_move == game % 2:\n"
            "            t = time.ticks_us()\n            a = best_action(pos)\n"
            "            dt = time.ticks_diff(time.ticks_us(), t)\n"
            "            worst = max(worst, dt)\n            total += dt\n            count += 1\n"
            "        else:\n            acts = pos.legal_actions()\n"
            "            a = acts[rnd(len(acts))]\n        pos.push(a)\n"
            "print(worst, total // count, count)\n")
        worst, mean, count = (int(v) for v in run_micropython(driver, heapsize="192k").split())
        print("  MicroPython unix port, board edition, %d engine moves in 2 games: worst %.1f ms, "
              "mean %.1f ms per move; x300 on the RP2040: worst %.1f s, mean %.2f s"
              % (count, worst / 1e3, mean / 1e3, worst * 300 / 1e6, mean * 300 / 1e6))
    except Exception as e:  # noqa: BLE001 - informative only
        print("  MicroPython row skipped: %s" % e)


def bench_hint_pico(games=6, worst=5):
    """The hint on the emulated RP2040: the `worst` positions of `games` engine-v-random games
    by the engine's CPython time, each set up on the emulated board and asked `hint`
    (boardcost.pico_hint_seconds)."""
    from boardcost import pico_hint_seconds, slowest_positions
    notations, timed = slowest_positions(lambda: kb.start_position("board"),
                                         engine.best_action, games, worst)
    seconds = pico_hint_seconds("kubitva", notations)
    if seconds is None:
        return
    print("  emulated RP2040 (stock MicroPython, 125 MHz), `hint` at the %d slowest of %d "
          "positions (CPython's order): %s s; goal <= 1 s" % (
              len(seconds), timed, ", ".join("%.2f" % x for x in seconds)))


def main():
    quick = "--quick" in sys.argv[1:]
    if "--pico-hint" in sys.argv[1:]:
        bench_hint_pico()
        return
    t0 = time.perf_counter()
    print("KUBitva benchmark (printed, never asserted)")
    print()
    bench_perft(3 if quick else 4)
    print()
    print("engine against a uniformly random player (the engine S in even seeds, N in odd):")
    bench_engine("board", 20 if quick else 100)
    bench_engine("full", 2 if quick else 10)
    bench_engine_time()
    bench_hint_pico()
    print()
    print("total bench time %.1f s" % (time.perf_counter() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
