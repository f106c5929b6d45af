"""Button presses against long frames on the emulated Pico: what blocks the frame loop around a
commit (a log append's flash erase and programs, a collection), and whether a press that
overlaps it is seen.

    .venv/bin/python bench/presses.py [--moves N] [--press-at-erase K]
    .venv/bin/python bench/presses.py --cargocube N

Plays a Cephalopod 5x5 game (placements, each committed by the board by itself, each logged)
on the emulated Pico and, per move, prints the flash operations its log append made and the
longest gap between two of the firmware's scans (`PicoRunner.chain_loads`: the 74HC165 chain's
latch, once a frame) in emulated ms. With --press-at-erase K the same game is played again
(the emulation is deterministic: same inputs, same emulated times) and a `next` press
(held PRESS_MS, as the scripts press) is made to start in the host frame in which the K-th
erase of the first run began; the board's `evt button` lines say whether it was seen.
With --cargocube N it plays instead N actions of bench/heap.py's "4p base cards" game (seed
5, resolved with buttons as the scripts do) and sorts every scan gap longer than 12 ms by what
the chip did in it: a flash erase, a serial query (which), a press (which), or nothing the
host did (the board's own work: the tracker on a sensor change, a collection).
Printed, never asserted.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                 os.path.join(ROOT, "tests", "cephalopod")]

from cargoboard.sim.runner import FRAME_MS  # noqa: E402
from cargoboard.sim.script import PRESS_MS, BUTTONS  # noqa: E402
from simkit import WAIT  # noqa: E402  (tests/simkit.py)
from test_cephalopod_sim import Game  # noqa: E402  (tests/cephalopod/)

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


def cargocube(actions):
    """Scan gaps of a Cargocube game on the emulated Pico, by cause."""
    from cargoboard.games.cargocube.scriptgen import game_script
    from cargoboard.sim.script import Session
    script, _ = game_script(check_every=0, actions=actions, seed=5, players=4, cards=True)
    s = Session(out=lambda line: None, target="pico")
    r = s.runner
    presses, queries = [], []
    press, query = s.press, s.query

    def timed_press(name):
        t = r.emu_ns
        press(name)
        presses.append((name, t))

    def timed_query(cmd, *a, **k):
        t = r.emu_ns
        try:
            return query(cmd, *a, **k)
        finally:
            queries.append((cmd.split()[0], t, r.emu_ns))

    s.press, s.query = timed_press, timed_query
    try:
        for line in script.splitlines():
            s.execute(line)
        seen = [e for e in s.events if e.startswith("evt button")]
    finally:
        s.close()
    print("%d actions, %d presses (%d seen), %d scans" % (
        actions, len(presses), len(seen), len(r.chain_loads)))
    causes = {}
    loads = r.chain_loads
    for a, b in zip(loads, loads[1:]):
        if b - a <= 12e6:
            continue
        q = [c for c, t0, t1 in queries if t0 - 10e6 <= a <= t1 + 10e6]
        p = [n for n, t in presses if t <= a <= t + 2 * PRESS_MS * 1e6]
        if any(o[0] == "erase" and a <= o[4] < b for o in r.flash_ops):
            cause = "flash erase"
        elif q:
            cause = "query " + q[0]
        elif p:
            cause = "press " + p[0]
        else:
            cause = "the board's own"
        causes.setdefault(cause, []).append((b - a) / 1e6)
    print("scan gaps > 12 ms, emulated ms, by what the chip did in them:")
    for cause, gs in sorted(causes.items()):
        print("  %-18s %3d  %6.1f .. %6.1f" % (cause, len(gs), min(gs), max(gs)))


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
    ap.add_argument("--cargocube", type=int, default=None, metavar="N")
    args = ap.parse_args()
    if args.cargocube:
        cargocube(args.cargocube)
        return
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
    import benchcli  # (bench/: one line, not a traceback, for a part this machine lacks)
    sys.exit(benchcli.run(main, None))
