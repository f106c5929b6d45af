"""«Формула 99» benchmarks (printed, never asserted).

    .venv/bin/python bench/formula99/formula99.py [GAMES]     (part of `make bench`; several minutes)

- perft of the public start positions (2 and 4 players, each level): the counts of
  docs/rules/formula99.md §11.1, with CPU time and nodes per second of the rules core;
- the engine (shared_rules/formula99/engine.py, 4 samples of the hidden cards): wins against
  three uniformly random players in GAMES four-player games per level (default 100; the
  engine's seat rotates, the cards are dealt from a seed per game), with the CPU time per
  engine decision;
- perft speed under the MicroPython unix port (192 KiB heap, modules compiled by mpy-cross).
"""

import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

from shared_rules.formula99 import rules as R  # noqa: E402
from shared_rules.formula99 import engine as E  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

DEPTHS = {1: 6, 2: 4, 3: 4}


def bench_perft():
    print("perft of the public starts (cargoboard perft --game formula99 start D --players N "
          "--level L), CPython:")
    print("  %-7s %-5s %-5s %12s %8s %10s" % ("players", "level", "depth", "count", "cpu s",
                                               "nodes/s"))
    for players in (2, 4):
        for level in (1, 2, 3):
            for depth in range(1, DEPTHS[level] + 1):
                pos = R.start_position(players, level)
                t = time.process_time()
                n = R.perft(pos, depth)
                dt = time.process_time() - t
                rate = "%10.0f" % (n / dt) if dt > 0.05 else "%10s" % "-"
                print("  %-7d %-5d %-5d %12d %8.2f %s" % (players, level, depth, n, dt, rate))


def play(seed, level, engine_seat, samples=4, cap=3000):
    pos = R.start_position(4, level, seed)
    rng = E.Lcg(seed * 31 + 7)
    decisions = 0
    spent = 0.0
    while not pos.is_over() and pos.ply() < cap:
        if pos.to_move == engine_seat:
            t = time.process_time()
            a = E.choose(pos, engine_seat, samples, seed + pos.ply())
            spent += time.process_time() - t
            decisions += 1
        else:
            a = E.random_action(pos, rng)
        pos.push(a)
    return pos.winners(), pos.ply(), decisions, spent


def bench_engine(games):
    print()
    print("engine (4 samples) against three uniformly random players, four-player games, "
          "full view dealt from seed 1000+g, the engine in seat g mod 4:")
    print("  %-5s %-10s %-10s %-12s %-16s %-14s" % ("level", "games", "engine won", "win rate",
                                                   "mean actions", "ms/decision"))
    for level in (1, 2, 3):
        won = 0
        plies = 0
        decisions = 0
        spent = 0.0
        unfinished = 0
        for g in range(games):
            w, ply, d, t = play(1000 + g, level, g % 4)
            won += w == [g % 4]
            unfinished += not w
            plies += ply
            decisions += d
            spent += t
        print("  %-5d %-10d %-10d %-12s %-16.0f %-14.1f%s" % (
            level, games, won, "%.0f %%" % (100.0 * won / games), plies / games,
            1000 * spent / max(1, decisions),
            "  (%d unfinished at 3000 actions)" % unfinished if unfinished else ""))


def bench_micropython():
    import mpy
    from cargoboard import build
    print()
    print("perft under the MicroPython unix port (192 KiB heap, mpy-cross), public 2-player "
          "start, level 1, depth 5:")
    with tempfile.TemporaryDirectory(prefix="bench-f99-") as tmp:
        sources = sorted(p.relative_to(mpy.REPO_ROOT).as_posix()
                         for p in (mpy.REPO_ROOT / "shared_rules").rglob("*.py")
                         if "__pycache__" not in p.parts)
        build.build(tmp, sources=sources)
        script = ("import time\nfrom shared_rules.formula99 import rules as R\n"
                  "p = R.start_position(2, 1)\nt = time.ticks_us()\nn = R.perft(p, 5)\n"
                  "print(n, time.ticks_diff(time.ticks_us(), t))\n")
        out = mpy.run_micropython(script, heapsize="192k", path=[tmp], timeout=600)
    n, us = (int(x) for x in out.split())
    print("  %d nodes in %.2f s: %.0f nodes/s (the RP2040 is ~300x slower: ~%.0f nodes/s)"
          % (n, us / 1e6, n / (us / 1e6), n / (us / 1e6) / 300))


def main(argv):
    games = benchcli.number(argv[1], "GAMES", least=1) if len(argv) > 1 else 100
    bench_perft()
    bench_engine(games)
    bench_micropython()


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
