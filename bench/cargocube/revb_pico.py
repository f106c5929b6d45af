"""Revision B's move inference on the emulated RP2040: a game the modelled hand plays on the
field model (cargoboard.games.cargocube.play, purposeful, the bottom cube shifting up to
0.5 mm) is recorded as the scan's raw ADC sums, then played again on the stock MicroPython
image under rp2040js through the device code as `cargoboard deploy --rev b` builds it (the
HAL's readings logic, the level and occupancy scanners, the Cargocube plug-in with its step
tracker), by tests/cargocube/driver_replay.py and the host's Table. Printed, never asserted.

    .venv/bin/python bench/cargocube/revb_pico.py [ACTIONS [SEED]] [--players 2|3|4|8]
                                        [--cards base|pyramid|bastion|both|none] [--teleport]

(default: 40 actions of seed 3, 2 players, the base cards; the biggest game is
`--players 8 --cards both --teleport`.)

Figures, in emulated microseconds: each call of the plug-in's on_change (the inference after a
stable change of the occupancy or of the steps) and each tick that did work (over 0.5 ms: a
move committed once the board was still), and each button press the player made (what the
board reads from it: a question shown, a move taken), with the unix port's (this process,
CPython) beside them; the live heap's lowest free figure after an on_change (a collection before each reading,
outside the timed part); and whether the board ended where the hand did. The scan itself is
bench/revb_scan.py's."""

import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "host"), str(ROOT / "tests" / "cargocube"),
                str(ROOT / "bench")]

from cargoboard.games.cargocube.play import play_game  # noqa: E402
from cargoboard.games.cargocube.hallfield import Noise  # noqa: E402
from cargoboard.sim.pico.images import PicoUnavailable, find_images  # noqa: E402
from cargoboard.sim.table import write_trace  # noqa: E402
from shared_rules.cargocube.layouts import SEATS_BY_PLAYERS  # noqa: E402
import revb_pico  # noqa: E402  (tests/cargocube/revb_pico.py)
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

FRAME_US = 10000

# main.py on the board: the replay with the plug-in's calls timed (ticks_us: the chip's timer)
SCRIPT = """import time, gc
import revb_replay as R
calls = []
ticks = []
presses = []
low = [gc.mem_free()]
def wrap(game):
    on_change = game.on_change
    tick = game.tick
    on_button = game.on_button
    def timed_button(bit, now):
        t = time.ticks_us()
        on_button(bit, now)
        presses.append(time.ticks_diff(time.ticks_us(), t))
    def timed_change(stable, now):
        t = time.ticks_us()
        on_change(stable, now)
        calls.append(time.ticks_diff(time.ticks_us(), t))
        gc.collect()
        f = gc.mem_free()
        if f < low[0]:
            low[0] = f
    def timed_tick(now):
        t = time.ticks_us()
        tick(now)
        d = time.ticks_diff(time.ticks_us(), t)
        if d > 500:
            ticks.append(d)
    game.on_change = timed_change
    game.tick = timed_tick
    game.on_button = timed_button
gc.collect()
low[0] = gc.mem_free()
game, n = R.replay("trace.txt", %(seats)r, %(cards)r, wrap, %(teleport)r, %(wait)r)
R.report(game, n)
def stats(name, ts):
    ts.sort()
    if ts:
        print("%%s n=%%d p50=%%d p95=%%d max=%%d" %% (name, len(ts), ts[len(ts) // 2],
                                                 ts[len(ts) * 95 // 100], ts[-1]))
stats("change_us", calls)
stats("tick_us", ticks)
stats("press_us", presses)
print("lowfree=%%d done" %% low[0])
"""


def _stats(ts):
    ts = sorted(ts)
    return len(ts), ts[len(ts) // 2], ts[len(ts) * 95 // 100], ts[-1]


def unix_figures(path, seats, cards, teleport, wait=0):
    """The same replay in this process (CPython): (on_change us, work tick us, button press us,
    final line)."""
    import driver_replay as R
    calls, ticks, presses = [], [], []

    def wrap(game):
        on_change, tick, on_button = game.on_change, game.tick, game.on_button

        def timed_button(bit, now):
            t = time.perf_counter()
            on_button(bit, now)
            presses.append(int((time.perf_counter() - t) * 1e6))

        def timed_change(stable, now):
            t = time.perf_counter()
            on_change(stable, now)
            calls.append(int((time.perf_counter() - t) * 1e6))

        def timed_tick(now):
            t = time.perf_counter()
            tick(now)
            d = int((time.perf_counter() - t) * 1e6)
            if d > 50:
                ticks.append(d)
        game.on_change, game.tick, game.on_button = timed_change, timed_tick, timed_button
    game, _ = R.replay(path, seats, cards, wrap, teleport, wait)
    return calls, ticks, presses, game.pos.notation()


def parse(argv, actions=40, players=2, wait=None):
    """(ACTIONS, SEED, players, cards, teleport, wait) from the command line argv[1:] (this
    bench's and reva_pico.py's: wait=None takes no --wait); benchcli.UsageError if wrong."""
    args = list(argv[1:])
    cards, teleport = "base", "--teleport" in args
    if teleport:
        args.remove("--teleport")
    flags = ("--players", "--cards") + (("--wait",) if wait is not None else ())
    try:
        for flag in flags:
            if flag in args:
                i = args.index(flag)
                value = args[i + 1]
                del args[i:i + 2]
                if flag == "--players":
                    players = int(value)
                    if players not in (2, 3, 4, 8):
                        raise ValueError
                elif flag == "--wait":
                    wait = int(value)
                    if not 1 <= wait <= 8:
                        raise ValueError
                elif value in ("base", "pyramid", "bastion", "both", "none"):
                    cards = value
                else:
                    raise ValueError
        actions = int(args[0]) if len(args) > 0 else actions
        seed = int(args[1]) if len(args) > 1 else 3
        if len(args) > 2:
            raise ValueError
    except (ValueError, IndexError):
        raise benchcli.UsageError("ACTIONS and SEED are whole numbers, --players 2, 3, 4 or 8, "
                                  "--cards base, pyramid, bastion, both or none" +
                                  (", --wait 1 to 8" if wait is not None else "")) from None
    return actions, seed, players, cards, teleport, wait


def main(argv):
    actions, seed, players, cards, teleport, _ = parse(argv)
    try:
        find_images()
    except PicoUnavailable as e:
        print("bench/cargocube/revb_pico.py: skipped: %s" % e)
        return 0
    return 0 if measure(actions, seed, players, cards, teleport) else 1


def measure(actions, seed, players, cards, teleport, rev="B", wait=0):
    """Record the game, play it again on the emulated Pico and here, print the figures; whether
    the board ended where the hand did. rev "A": on revision A (occupancy), with the option
    wait=K (bench/cargocube/reva_pico.py)."""
    from inference import pick_purposeful
    trace = []
    st = play_game(seed, players=players, cards=cards if cards != "none" else False,
                   teleport=teleport, pick=pick_purposeful,
                   noise=Noise(shift_mm=0.5) if rev == "B" else None,
                   max_actions=actions, trace=trace, wait=wait)
    seats = SEATS_BY_PLAYERS[players]
    cards = cards if cards != "none" else "-"
    with tempfile.TemporaryDirectory(prefix="bench-revb-pico-") as tmp:
        path = Path(tmp) / "trace.txt"
        write_trace(trace, path)
        calls_u, ticks_u, presses_u, final_u = unix_figures(str(path), seats, cards, teleport,
                                                           wait)
    w0 = time.monotonic()
    text, emulated = revb_pico.run(trace, (SCRIPT % {"seats": seats, "cards": cards,
                                                     "teleport": teleport, "wait": wait}).encode())
    wall = time.monotonic() - w0
    figures = {m.group(1): tuple(int(v) for v in m.groups()[1:])
               for m in re.finditer(r"(\w+_us) n=(\d+) p50=(\d+) p95=(\d+) max=(\d+)", text)}
    final = re.search(r"^final (.*)$", text, re.M)
    if not figures or not final:
        print("the board printed no figures:\n" + text[-3000:])
        return False
    print("Revision %s move inference on the emulated RP2040 (rp2040js, stock MicroPython): seed %d,"
          " %d players, cards %s%s, %d actions of purposeful play, %s"
          " (%d readings; %.0f s emulated, %.0f s wall)" % (
              rev, seed, players, cards if cards != "-" else "none",
              ", teleport" if teleport else "", st.actions,
              "bottom cubes shifting <= 0.5 mm" if rev == "B" else "wait=%d" % wait,
              sum(1 for e in trace if e[0] == "feed"), emulated, wall))
    print("  %-40s %6s %8s %8s %8s   %s" % ("", "calls", "p50 us", "p95 us", "max us",
                                           "unix port (CPython) p95 / max us"))
    for name, label, unix in (("change_us", "on_change (inference after a change)", calls_u),
                              ("tick_us", "tick that did work (> 0.5 ms: a commit)", ticks_u),
                              ("press_us", "button press (its reading)", presses_u)):
        if name in figures:
            n, p50, p95, hi = figures[name]
            u = _stats(unix) if unix else (0, 0, 0, 0)
            print("  %-40s %6d %8d %8d %8d   %d / %d   (max %.1f%% of the %d ms frame)" % (
                label, n, p50, p95, hi, u[2], u[3], 100.0 * hi / FRAME_US, FRAME_US // 1000))
    m = re.search(r"lowfree=(\d+)", text)
    if m:
        print("  lowest live heap free after an on_change: %s bytes" % m.group(1))
    same = final.group(1).strip() == st.final == final_u
    print("  the board ended where the hand did: %s (%s)" % ("yes" if same else "NO",
                                                             final.group(1).strip()))
    return same


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
