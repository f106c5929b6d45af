"""Cephalopod benchmarks (printed, never asserted).

    .venv/bin/python bench/cephalopod/cephalopod.py        (part of `make bench`; about a minute)
    .venv/bin/python bench/cephalopod/cephalopod.py --pico-hint   (only the hint on the emulated RP2040)

- paths (CodinGame Spring Challenge 2025): the 12 official test cases, each timed from cold
  caches in this process and checked against the published answer, their total beside the best
  published time (about 0.27 s in Rust for the 12 together); then deeper cases on the empty board.
- perft of the rules core: nodes/s on CPython and under the MicroPython unix port (192 KiB heap).
- the engine (shared_rules.cephalopod.engine): win rate against a uniformly random player over
  200 games on 5x5 (the engine plays white in half of them), depth 2 against depth 1, and the time
  per move under the MicroPython unix port with the RP2040 estimate (x300, as bench/cargocube/hint.py).
- the board's `hint` (the engine at the plug-in's HINT_DEPTH) on the emulated RP2040 at the
  slowest positions of engine-v-random games, by CPython's time.
"""

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "tests", "cephalopod"), os.path.join(ROOT, "bench")]

from cargoboard.games.cephalopod import paths as paths_mod  # noqa: E402
from shared_rules.cephalopod import rules as ce  # noqa: E402
from shared_rules.cephalopod import engine  # noqa: E402
from codingame_cases import OFFICIAL  # noqa: E402  (the puzzle's 12 cases, from tests/cephalopod/)
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

RUST_BEST = 0.27  # seconds, the 12 official tests together (published)
DEEP = [(20, "0 0 0/0 0 0/0 0 0"), (30, "0 0 0/0 0 0/0 0 0")]

GAMES = 200


def bench_paths():
    print("paths (CodinGame Spring Challenge 2025), CPython, each case from cold caches;")
    print("times are CPU seconds of this process (time.process_time: steadier than the wall")
    print("clock on a shared machine):")
    print("  %-5s %-20s %11s %11s %8s" % ("depth", "board", "ours", "published", "cpu s"))
    total = 0.0
    for depth, rows, answer in OFFICIAL:
        cells = paths_mod.parse_rows(rows)
        t0 = time.process_time()
        got = paths_mod.paths(depth, cells)
        dt = time.process_time() - t0
        total += dt
        print("  %-5d %-20s %11d %11d %8.3f %s" % (depth, rows, got, answer, dt,
                                                   "" if got == answer else "MISMATCH"))
    print("  12 official cases: %.2f s  (best published, Rust: about %.2f s; ratio %.0fx)"
          % (total, RUST_BEST, total / RUST_BEST))
    for depth, rows in DEEP:
        t0 = time.process_time()
        got = paths_mod.paths(depth, paths_mod.parse_rows(rows))
        print("  %-5d %-20s %11d %11s %8.3f" % (depth, rows, got, "", time.process_time() - t0))


def bench_perft():
    print()
    print("perft of the rules core:")
    for rows, cols, depth in ((5, 5, 4), (3, 5, 5), (3, 3, 6)):
        pos = ce.start_position(rows, cols)
        t0 = time.process_time()
        n = ce.perft(pos, depth)
        dt = time.process_time() - t0
        print("  CPython      %dx%d start depth %d: %10d nodes %6.2f s %10.0f nodes/s (cpu)"
              % (rows, cols, depth, n, dt, n / dt))
    try:
        from mpy import run_micropython
        out = run_micropython(
            "import time\nfrom shared_rules.cephalopod import rules as ce\n"
            "p = ce.start_position(5, 5)\nt = time.ticks_us()\nn = ce.perft(p, 3)\n"
            "print(n, time.ticks_diff(time.ticks_us(), t))\n", heapsize="192k")
        n, us = (int(v) for v in out.split())
        print("  MicroPython  5x5 start depth 3: %10d nodes %6.2f s %10.0f nodes/s "
              "(unix port, 192 KiB heap)" % (n, us / 1e6, n / (us / 1e6)))
    except Exception as e:  # noqa: BLE001 - informative only
        print("  MicroPython row skipped: %s" % e)


def play(white, black, seed):
    """Winner seat of one 5x5 game; white/black: a depth (engine) or 0 (random)."""
    rng = random.Random(seed)
    pos = ce.start_position(5, 5)
    while not pos.is_over():
        d = white if pos.to_move == ce.WHITE else black
        pos.push(engine.best_action(pos, d) if d else rng.choice(pos.legal_actions()))
    return pos.winners()[0], pos.scores()


def bench_engine():
    print()
    print("engine on 5x5 (%d games each, the engine white in half, seeds 0..%d):" % (GAMES,
                                                                                  GAMES - 1))
    for depth in (1, 2):
        t0 = time.perf_counter()
        wins = 0
        margin = 0
        for seed in range(GAMES):
            side = seed % 2
            w, sc = play(depth if side == 0 else 0, depth if side == 1 else 0, seed)
            wins += w == side
            margin += sc[side] - sc[side ^ 1]
        print("  depth %d vs random: %d/%d won (%.1f%%), mean margin %+.1f cells, %.1f s"
              % (depth, wins, GAMES, 100.0 * wins / GAMES, margin / GAMES,
                 time.perf_counter() - t0))
    # Engine against engine: a random opening of 4 plies so that the games differ.
    wins = 0
    n = 40
    for seed in range(n):
        rng = random.Random(seed)
        pos = ce.start_position(5, 5)
        for _ in range(4):
            pos.push(rng.choice(pos.legal_actions()))
        deep = seed % 2
        while not pos.is_over():
            pos.push(engine.best_action(pos, 2 if pos.to_move == deep else 1))
        wins += pos.winners()[0] == deep
    print("  depth 2 vs depth 1 (4 random opening plies): depth 2 won %d/%d" % (wins, n))
    try:
        from mpy import run_micropython
        driver = (
            "import time\nfrom shared_rules.cephalopod import rules as ce\n"
            "from shared_rules.cephalopod.engine import best_action\n"
            "seed = 99\n"
            "def rnd(n):\n    global seed\n"
            "    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF\n    return (seed >> 8) %% n\n"
            "worst = 0\ntotal = 0\ncount = 0\n"
            "for game in range(2):\n    pos = ce.start_position(5, 5)\n"
            "    while not pos.is_over():\n        if pos.to_move == game %% 2:\n"
            "            t = time.ticks_us()\n            a = best_action(pos, %d)\n"
            "            dt = time.ticks_diff(time.ticks_us(), t)\n"
            "            worst = max(worst, dt)\n            total += dt\n            count += 1\n"
            "        else:\n            acts = pos.legal_actions()\n"
            "            a = acts[rnd(len(acts))]\n        pos.push(a)\n"
            "print(worst, total // count)\n")
        for depth in (1, 2):
            worst, mean = (int(v) for v in run_micropython(driver % depth,
                                                           heapsize="192k").split())
            print("  MicroPython unix port, depth %d: worst %.1f ms, mean %.1f ms per move; "
                  "x300 on the RP2040: worst %.2f s" % (depth, worst / 1e3, mean / 1e3,
                                                       worst * 300 / 1e6))
    except Exception as e:  # noqa: BLE001 - informative only
        print("  MicroPython rows skipped: %s" % e)


def bench_hint_pico(games=10, worst=5):
    """The board's hint on the emulated RP2040: the `worst` positions of `games` 5x5 games (the
    engine at the board's depth against a random player) by the engine's CPython time, each set
    up on the emulated board and asked `hint` (boardcost.pico_hint_seconds)."""
    from boardcost import pico_hint_seconds, slowest_positions
    from firmware.games.cephalopod.plugin import HINT_DEPTH
    notations, timed = slowest_positions(lambda: ce.start_position(5, 5),
                                         lambda pos: engine.best_action(pos, HINT_DEPTH),
                                         games, worst)
    print()
    seconds = pico_hint_seconds("cephalopod", notations)
    if seconds is None:
        return
    print("emulated RP2040 (stock MicroPython, 125 MHz), `hint` (depth %d) at the %d slowest of "
          "%d positions (CPython's order): %s s" % (
              HINT_DEPTH, len(seconds), timed, ", ".join("%.2f" % x for x in seconds)))


def main():
    if "--pico-hint" in sys.argv[1:]:
        bench_hint_pico()
        return
    t0 = time.perf_counter()
    print("Cephalopod benchmark (printed, never asserted)")
    print()
    bench_paths()
    bench_perft()
    bench_engine()
    bench_hint_pico()
    print()
    print("total bench time %.1f s" % (time.perf_counter() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
