"""Issue 11's soak: games back to back on one boot of the board, with undo, hint and a sync
between games; the board must end with no MemoryError and its free heap within 4 KB of where
it started.

    .venv/bin/python bench/soak.py [--target unix|pico] [--games 30] [--actions 12]

One virtual board (the unix port at 192 KiB, or the stock RP2040 image on the emulated Pico),
one boot, its game log on. The games alternate: Cargocube for 2 players (a seeded game of
`--actions` actions as the hand makes them, `resolve` after each, then `press end`, which ends
the turn; the game stays open and the next game's set-up closes it as abandoned) and
Cephalopod 3x3 (a seeded random game to its end). In each game the first action is taken back
with `undo` (the hand puts the pieces back as the LEDs ask) and made again, and `hint` is
pressed once. After each game `cargoboard sync`'s code fetches the board's finished logs over
the pty into a SQLite store (which deletes them from the board; a Cargocube game, not played to
its end, is closed as abandoned when the next game is set up and synced after that one), and
the board is asked `mem` (bytes in use / free / largest free block after a collection, the
game just played still set up). Printed, never asserted: for each game kind the free heap
after its first game's sync against its last, and every `evt error` line.
"""

import argparse
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from cargoboard.deploy import wait_hello  # noqa: E402
from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.games.cephalopod.play import capture_steps  # noqa: E402
from cargoboard.link import Link  # noqa: E402
from cargoboard.sim.script import ScriptError, Session  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.sync import sync  # noqa: E402
from firmware.games.cephalopod.plugin import block_cells  # noqa: E402
from shared_rules import geometry as g  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules.cephalopod import rules as ce  # noqa: E402
from heap import mem  # noqa: E402  (bench/heap.py: serial `mem`, then the pieces still 300 ms)

STILL = "wait 600"  # the hands still for longer than the board's 400 ms of settling


def adjacent(a, b):
    (ra, ca), (rb, cb) = divmod(a, 11), divmod(b, 11)
    return abs(ca - cb) + abs(ra - rb) == 1


def cargocube_lines(seed, actions):
    """The seeded game's script with its first one-lift-one-place roll to a neighbouring cell
    taken back (undo, the cube rolled back, the position before it expected) and made again,
    a hint after it, and the last turn ended with the `end` button (the game itself stays
    open: the next game set up closes it as abandoned)."""
    script, _ = game_script(seed=seed, players=2, actions=actions, check_every=0)
    lines = [x for x in script.splitlines() if x and not x.startswith("#")]
    out, undone, i = [], False, 0
    before = cc.start_position(2).notation()  # the position before the line being copied
    while i < len(lines):
        line = lines[i]
        if (not undone and line.startswith("lift ") and i + 2 < len(lines)
                and lines[i + 1].startswith("place ") and lines[i + 2].startswith("resolve ")):
            src, dst = line.split()[1], lines[i + 1].split()[1]
            if adjacent(g.parse_cell(src), g.parse_cell(dst)):
                action = lines[i:i + 3]
                out += action + ["press undo", STILL, "lift " + dst, "place " + src, STILL,
                                 "expect " + before]
                out += action + ["press hint", "wait 1500"]
                undone = True
                before = lines[i + 2][len("resolve "):]
                i += 3
                continue
        if line.startswith("resolve "):
            before = line[len("resolve "):]
        out.append(line)
        i += 1
    return out + ["press end", "wait 300"]


def cephalopod_lines(seed):
    """A seeded random 3x3 game to its end, the first die taken back with undo and dropped
    again, a hint after it."""
    rng = random.Random(seed)
    pos = ce.named_position("3x3")
    block = block_cells(pos.rows, pos.cols)
    out = ["new-game cephalopod 3x3"]
    first = True
    while not pos.is_over():
        a = rng.choice(pos.legal_actions())
        steps, _ = capture_steps(pos, a, rng, ("place-first",))
        moves = [("drop " if on else "take ") + g.cell_name(block[c]) for c, on in steps]
        out += moves + [STILL]
        if first and len(moves) == 1:
            cell = moves[0].split()[1]
            out += ["press undo", STILL, "take " + cell, STILL, moves[0], STILL,
                    "press hint", "wait 1500"]
        first = False
        pos.push(a)
    return out + ["expect " + pos.notation()]


def sync_now(session, store):
    """The host's sync over the board's pty (the emulated Pico answers in its own time, so
    the link waits as `cargoboard deploy` does)."""
    with session.host_tools() as port:
        wait_hello(port)
        with Link(port, timeout=10.0) as link:
            return sync(link, store)


def soak(target, games, actions):
    tmp = tempfile.mkdtemp(prefix="cb-soak-")
    session = Session(out=lambda line: None, target=target,
                      flash=os.path.join(tmp, "flash.img"))
    rows = []
    t0 = time.time()
    try:
        boot = mem(session)
        with Store(os.path.join(tmp, "games.sqlite")) as store:
            for n in range(games):
                kind = "cargocube" if n % 2 == 0 else "cephalopod"
                lines = (cargocube_lines(100 + n, actions) if kind == "cargocube"
                         else cephalopod_lines(100 + n))
                before = len(session.events)
                failed = None
                try:
                    for line in lines:
                        session.execute(line)
                except ScriptError as e:
                    # the board tracked something else than the hand did: said with what
                    # came just before, and the soak goes on with the next game
                    failed = "%s: %s" % (line, str(e)[:300])
                res = sync_now(session, store)
                sample = mem(session)
                errors = [e for e in session.events[before:] if e.startswith("evt error")]
                if failed:
                    errors.append("script failed at " + failed)
                    errors += ["  before it: " + e[:120] for e in session.events[before:][-8:]]
                    errors += ["  flash %s at %.0f ms (now %.0f ms)" % (op[0], op[4] / 1e6,
                                                                         session.runner.emu_ns / 1e6)
                               for op in getattr(session.runner, "flash_ops", [])[-6:]]
                rows.append((n + 1, kind, len(res.stored), sample, errors))
                print("%3d %-10s synced %d  in use %6d  free %6d  max %6d  errors %d  %4.0f s" % (
                    n + 1, kind, len(res.stored), sample[0], sample[1], sample[2], len(errors),
                    time.time() - t0), flush=True)
                for e in errors:
                    print("      " + e)
    finally:
        session.close()
    return boot, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", choices=("unix", "pico"), default="unix")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--actions", type=int, default=12,
                    help="actions of each Cargocube game before `end` (default 12)")
    a = ap.parse_args(argv)
    print("soak on %s: %d games, one boot (bytes after a collection, serial `mem`)" % (
        a.target, a.games))
    boot, rows = soak(a.target, a.games, a.actions)
    print("boot: in use %d  free %d  max %d" % boot)
    for kind in ("cargocube", "cephalopod"):
        mine = [r for r in rows if r[1] == kind]
        if len(mine) >= 2:
            first, last = mine[0], mine[-1]
            print("%s: free after game %d's sync %d, after game %d's %d: %+d bytes "
                  "(goal: within 4096)" % (kind, first[0], first[3][1], last[0], last[3][1],
                                           last[3][1] - first[3][1]))
    errors = sum(1 for r in rows for e in r[4] if e.startswith("evt error"))
    memerr = sum(1 for r in rows for e in r[4] if "MemoryError" in e)
    failed = sum(1 for r in rows for e in r[4] if e.startswith("script failed"))
    print("games stored by the syncs %d; evt error lines %d, of them MemoryError %d (goal: "
          "none); games the board tracked wrong %d" % (sum(r[2] for r in rows),
                                                       errors, memerr, failed))


if __name__ == "__main__":
    import benchcli  # (bench/: one line, not a traceback, for a part this machine lacks)
    sys.exit(benchcli.run(main, None))
