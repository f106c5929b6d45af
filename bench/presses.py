"""Button presses against long frames on the emulated Pico: what blocks the frame loop around a
commit (a log append's flash erase and programs, a collection), and whether a press that
overlaps it is seen.

    .venv/bin/python bench/presses.py [--moves N] [--press-at-erase K]

Plays a Cephalopod 5x5 game (placements, each committed by the board by itself, each logged)
on the emulated Pico and, per move, prints the flash operations its log append made and the
longest gap between two of the firmware's scans (`PicoRunner.chain_loads`: the 74HC165 chain's
latch, once a frame) in emulated ms. With --press-at-erase K the same game is played again
(the emulation is deterministic: same inputs, same emulated times) and a `next` press
(held PRESS_MS, as the scripts press) is made to start in the host frame in which the K-th
erase of the first run began; the board's `evt button` lines say whether it was seen.
Printed, never asserted.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from cargoboard.sim.runner import FRAME_MS  # noqa: E402
from cargoboard.sim.script import PRESS_MS, BUTTONS  # noqa: E402
from test_cephalopod_sim import Game, WAIT  # noqa: E402

# placements on a 5x5 Cephalopod board that capture nothing (each die alone or with one
# neighbour), so each is one committed action
MOVES = ["a1", "e5", "a5", "e1", "c3", "a3", "e3", "c1", "c5", "b2", "d4", "b4", "d2"]


def gaps(loads, t0, t1):
    """(longest gap in ns, its start) between consecutive scans within [t0, t1]."""
    best = (0.0, t0)
    prev = None
    for t in loads:
        if t < t0:
            prev = t
            continue
        if t > t1:
            break
        if prev is not None and t - prev > best[0]:
            best = (t - prev, prev)
        prev = t
    return best


def play(moves, press_at_ns=None, out=print):
    gm = Game("5x5", target="pico")
    r = gm.s.runner
    rows = []
    pressed = None
    try:
        for m in moves:
            t0 = r.emu_ns
            ops0 = len(r.flash_ops)
            ev0 = len(gm.s.events)
            gm.act(m, settle=False)
            # the settle wait, frame by frame, so that a press can start in a chosen frame
            for _ in range(600 // FRAME_MS):
                if (press_at_ns is not None and pressed is None
                        and r.emu_ns + FRAME_MS * 1e6 > press_at_ns):
                    pressed = (r.emu_ns, len(gm.s.events), len(r.chain_loads))
                    gm.s.press("next")
                    pressed += (len(gm.s.events),)
                else:
                    gm.s.step(1)
            ops = r.flash_ops[ops0:]
            gap, at = gaps(r.chain_loads, t0, r.emu_ns)
            rows.append((m, ops, gap, at, gm.s.events[ev0:]))
        return rows, pressed, list(r.chain_loads), list(r.flash_ops)
    finally:
        gm.close()


def report(rows):
    print("move | flash ops of the append (erase ms / programs) | longest scan gap ms (at ms)")
    for m, ops, gap, at, _ in rows:
        er = [o for o in ops if o[0] == "erase"]
        pr = [o for o in ops if o[0] == "program"]
        print("%-4s | %d erase(s) %s, %d program(s) | %.1f (at %.1f)" % (
            m, len(er), " ".join("@%.1f" % (o[4] / 1e6) for o in er), len(pr),
            gap / 1e6, at / 1e6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=len(MOVES))
    ap.add_argument("--press-at-erase", type=int, default=None, metavar="K")
    args = ap.parse_args()
    moves = MOVES[:args.moves]
    rows, _, loads, ops = play(moves)
    report(rows)
    erases = [o for o in ops if o[0] == "erase"]
    print("erases: %d; scans: %d" % (len(erases), len(loads)))
    if args.press_at_erase is None:
        return
    k = args.press_at_erase
    if k >= len(erases):
        raise SystemExit("bench/presses.py: only %d erases" % len(erases))
    at = erases[k][4]
    print("press `next` (%d ms down, %d ms up) in the frame of erase %d at %.3f ms" % (
        PRESS_MS, PRESS_MS, k, at / 1e6))
    rows2, pressed, loads2, ops2 = play(moves, press_at_ns=at)
    same = [o[4] for o in ops2[:len(ops)]] == [o[4] for o in ops]
    print("second run: flash ops at the same emulated times as the first until the press: %s"
          % (same or "no"))
    t_press, ev_before, scan_i, ev_after = pressed
    seen = [e for rows_ in rows2 for e in rows_[4] if e.startswith("evt button")]
    scans = [t for t in loads2 if t_press <= t <= t_press + 2 * PRESS_MS * 1e6]
    print("press down at %.3f ms, up at %.3f ms; scans in the next 100 ms at: %s" % (
        t_press / 1e6, t_press / 1e6 + PRESS_MS, " ".join("%.1f" % (t / 1e6) for t in scans)))
    print("evt button lines: %s" % (seen or "none: the press was lost"))


if __name__ == "__main__":
    main()
