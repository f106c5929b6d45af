"""КУБитва on the board: move inference over whole games played by a modelled hand, and what it
costs on the board (printed, never asserted).

    .venv/bin/python bench/kubitva/kubitva_board.py [GAMES]      (part of `make bench`)
    .venv/bin/python bench/kubitva/kubitva_board.py pico-heap    (the emulated RP2040's heap only)
    .venv/bin/python bench/kubitva/kubitva_board.py rules        (only the rules per action, below)

- Inference (cargoboard.games.kubitva.hand: the firmware's scanner and КУБитва plug-in in this
  process): GAMES seeded games per chooser (default 40) from the board edition's start, played
  to their end (a breached base or the turn limit), the actions chosen uniformly at random or
  mostly by the engine. The hands lift and put down in any order, pause (now and then a unit
  is put down over a second before its cube), their contacts bounce; a player presses a button
  only when the LEDs ask. Printed: actions, the share the board took without any button (and
  without `end`, fills, rockets and recycling, which take one by design), presses per 100
  actions, readings asked about, games in which the board ever held an action the hands did not
  make (wrong), and the actions by kind.
- Cost: a few of those games replayed through the same firmware under the MicroPython unix port
  (192 KiB heap): the time of each call into the plug-in, worst and mean, with the RP2040
  estimate (x300, as bench/cargocube/hint.py).
- The live heap on the emulated RP2040 (when its images are there): serial `mem` booted and with
  `new kubitva board` set up, the whole firmware as deployed with the host link up.
- The rules per action (`rules`, and last in the whole run): along the game the engine plays
  against itself on the board edition (`cargoboard play kubitva --engine SN`, 486 actions to its
  end; web_replay.py --game kubitva's), in every position fill_sites() (what the tracker asks
  when a cube is put down), legal_actions() (the hint's and `legal`'s) and decode_action() of
  the action played (the log's replay when the board starts again, a sync's on the PC): mean
  and worst us, a collection before each call, under the unix port (192 KiB heap) and on the
  emulated RP2040, both running the modules as deployed.
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

from cargoboard.games.kubitva.hand import Stats, pick_engine, pick_random, play_game  # noqa: E402
from shared_rules.kubitva import rules as kb  # noqa: E402
from boardcost import (footer, header, pico_heap, pico_missing, print_rows,  # noqa: E402
                       replay_times, trace_lines)
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

BY_DESIGN = ("end", "fill", "k@", "K@", "x@")  # a button every time (docs/board-kubitva.md)


def inference(games):
    print("move inference, %d whole games per chooser (in this process, the firmware's own "
          "code):" % games)
    print("  %-7s %7s %9s %11s %8s %6s %5s %6s" % ("choice", "actions", "no button",
                                                  "(not b.d.)", "presses", "asked", "wrong",
                                                  "time s"))
    totals = []
    for pick in (pick_random, pick_engine):
        tot = Stats()
        t0 = time.time()
        for seed in range(games):
            tot.add(play_game(seed, pick=pick))
        designed = sum(tot.by_kind.get(k, (0, 0))[0] for k in BY_DESIGN)
        print("  %-7s %7d %8.1f%% %10.1f%% %8.1f %6d %5d %6.0f" % (
            pick.__name__[5:], tot.actions, 100.0 * tot.no_button / tot.actions,
            100.0 * tot.no_button / max(1, tot.actions - designed),
            100.0 * tot.presses / tot.actions, tot.asked, tot.wrong, time.time() - t0))
        for f in tot.failures[:3]:
            print("    " + f)
        totals.append((pick.__name__[5:], tot))
    print("  (no button: the share of all actions the board took by itself; (not b.d.): of the")
    print("   actions that are not a button by design (%s); presses per 100 actions)"
          % ", ".join(BY_DESIGN))
    for name, tot in totals:
        print("  %s, by kind: %s" % (name, ", ".join(
            "%s %d/%d" % (k, v[1], v[0]) for k, v in sorted(tot.by_kind.items()))))
    print("   (kind: taken without a button / played)")


def cost(games=3):
    print()
    print("cost on the board: %d random games (300 actions each) replayed under the MicroPython "
          "unix port (192 KiB heap)" % games)
    header()
    times = ([], [], [])
    for seed in range(games):
        trace = []
        play_game(seed, pick=pick_random, max_actions=300, trace=trace)
        for k, us in replay_times("firmware.games.kubitva.plugin", ["position=" + kb.BOARD],
                                  trace_lines(trace)):
            times[k].append(us)
    print_rows("11x11", times)
    footer()


RULES = r"""
import gc, time, binascii
from shared_rules.kubitva import rules as kb
log = binascii.unhexlify(%r)
pos = kb.start_position('board')
sums = [0, 0, 0]
worst = [0, 0, 0]
def timed(k, f, *a):
    gc.collect()
    t0 = time.ticks_us()
    r = f(*a)
    dt = time.ticks_diff(time.ticks_us(), t0)
    sums[k] += dt
    if dt > worst[k]:
        worst[k] = dt
    return r
for i in range(0, len(log), 2):
    timed(0, pos.fill_sites)
    timed(1, pos.legal_actions)
    pos.push(timed(2, kb.decode_action, pos, log, i)[0])
n = len(log) // 2
print('rules', n, sums[0] // n, worst[0], sums[1] // n, worst[1], sums[2] // n, worst[2])
"""


def engine_log():
    """The encoded actions of the game the engine plays against itself on the board edition."""
    from shared_rules.kubitva.engine import best_action
    pos = kb.start_position("board")
    log = bytearray()
    while not pos.is_over():
        a = best_action(pos)
        log += kb.encode_action(a)
        pos.push(a)
    return bytes(log)


def rules_cost():
    import mpy
    from cargoboard.build import cached_build
    log = engine_log()
    script = RULES % log.hex()
    print()
    print("the rules per action along the engine's own game (%d actions), us, mean / worst "
          "(a collection before each call):" % (len(log) // 2))
    print("  %-34s %15s %15s %15s" % ("", "fill_sites", "legal_actions", "decode_action"))

    def row(label, out):
        w = [int(v) for v in out.split("rules", 1)[1].split()]
        print("  %-34s %7d / %5d %7d / %5d %7d / %5d" % ((label,) + tuple(w[1:])))

    build = cached_build()
    row("MicroPython unix port (192 KiB)", mpy.run_micropython(
        script, heapsize="192k", timeout=900, path=[build] if build else ()))
    if pico_missing():
        return
    import subprocess
    import tempfile
    from cargoboard.deploy import _mpremote_exe
    from cargoboard.sim.pico.runner import PicoRunner
    with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
        f.write(script)
        f.flush()
        with PicoRunner() as runner, runner.serving():
            r = subprocess.run([_mpremote_exe(), "connect", runner.port, "run", f.name],
                               capture_output=True, text=True, timeout=3600)
    if r.returncode or "rules" not in r.stdout:
        print("  emulated RP2040: mpremote failed: %s" % (r.stderr or r.stdout).strip())
        return
    row("emulated RP2040 (125 MHz)", r.stdout)


def main():
    t0 = time.time()
    if sys.argv[1:2] == ["pico-heap"]:
        pico_heap(("kubitva board",))
        return
    if sys.argv[1:2] == ["rules"]:
        rules_cost()
        return
    games = benchcli.number(sys.argv[1], "GAMES", least=1) if len(sys.argv) > 1 else 40
    inference(games)
    cost()
    pico_heap(("kubitva board",))
    rules_cost()
    print("\n(%.0f s)" % (time.time() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
