"""«Формула 99» on the board: move inference over whole games played by a modelled hand, and
what it costs on the board (printed, never asserted).

    .venv/bin/python bench/formula99/formula99_board.py [GAMES [ACTIONS]]      (part of `make bench`)
    .venv/bin/python bench/formula99/formula99_board.py pico [ACTIONS]        (the emulated RP2040 only)
    .venv/bin/python bench/formula99/formula99_board.py pico-heap             (its heap only)
    .venv/bin/python bench/formula99/formula99_board.py pico-walk [PLIES [SEED:PLAYERS:LEVEL:d|r ...]]
                                                                    (its heap over games)
    .venv/bin/python bench/formula99/formula99_board.py unix-walk [PLIES [...]]  (the same, unix port)

- Inference (cargoboard.games.formula99.play: the firmware's scanner and plug-in in this
  process): GAMES seeded full-view games per level (default 40) of 2 to 4 players, the actions
  chosen at random (favouring cards and charges) or mostly by the engine. The hand lifts and
  places one piece at a time with pauses and bouncing contacts, takes a crossed charge's token
  off before or after entering its card, enters cards with the card picker or (a quarter of the
  time) the console, takes what the sensors cannot see with the option picker or the console, and
  presses a button otherwise only when the board asks. After every action the board's public
  position must equal the truth's (wrong: games where it did not).
- Cost: a few of those games replayed through the same plug-in under the MicroPython unix port
  (192 KiB heap, modules compiled by mpy-cross): the time of each call into the plug-in on a
  sensor change, a button, a console command or a frame's tick that did work, with the RP2040
  estimate (x300, as bench/cargocube/hint.py).
- The same on the emulated RP2040 (host/cargoboard/sim/pico, when its images are there): the
  stock MicroPython image runs the deployed build; the trace is copied onto its flash and the
  replay run with mpremote, timed by the emulated chip (125 MHz, a lower bound of the silicon:
  docs/virtual-board.md); the first ACTIONS actions (default 60) of one game per level (the
  emulator is slow: 8 actions take minutes on a loaded machine); and the live heap there,
  booted and with a 4-player level-3 game set up.
"""

import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

import boardcost  # noqa: E402
from cargoboard.games.formula99.play import Stats, play_game  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

RP2040_FACTOR = 300

REPLAY = r"""
import sys, time, gc
from firmware.games.formula99.plugin import Game
from firmware.drivers.scanner import Scanner
g = Game({"layout": sys.argv[1], "seats": sys.argv[2]})
g.emit = lambda t: None
sc = Scanner(30)
raw = bytearray(g.setup_mask())
sc.reset(raw)
g.start()
now = 0
gc.collect()
low = gc.mem_free()
def timed(k, f, *a):
    global low
    busy = k != 3 or g.tracker.settling or g.mismatch_since >= 0
    if busy:
        gc.collect()
    t0 = time.ticks_us()
    f(*a)
    dt = time.ticks_diff(time.ticks_us(), t0)
    if busy:
        gc.collect()
        free = gc.mem_free()
        if free < low:
            low = free
    if busy or dt > 50:
        print(k, dt)
src = open(sys.argv[3]) if len(sys.argv) > 3 else sys.stdin
for line in src:
    w = line.split()
    if w[0] == "p":
        timed(1, g.on_button, int(w[1]), now)
        continue
    if w[0] == "c":
        timed(2, g.command, w[1:])
        continue
    raw = bytearray(bytes.fromhex(w[1]))
    end = now + int(w[2])
    while now < end:
        now += 10
        if sc.update(raw, now):
            timed(0, g.on_change, sc.stable, now)
        timed(3, g.tick, now)
gc.collect()
print("end", gc.mem_alloc(), low)
"""


def inference(games):
    print("move inference, %d games per row (in this process, the firmware's own code):" % games)
    print("  %-5s %-7s %7s %8s %9s %6s %9s %9s %6s %5s" % (
        "level", "choice", "actions", "physical", "by sensor", "cards", "presses", "console",
        "asked", "wrong"))
    for level in (1, 2, 3):
        for how in ("random", "engine"):
            tot = Stats()
            for seed in range(games):
                tot.add(play_game(seed, players=2 + seed % 3, level=level, how=how))
            print("  %-5d %-7s %7d %8d %8.1f%% %6d %9.1f %9.1f %6d %5d" % (
                level, how, tot.actions, tot.physical,
                100.0 * tot.by_sensors / max(1, tot.physical), tot.cards,
                100.0 * tot.presses / tot.actions, 100.0 * tot.console / tot.actions,
                tot.asked, tot.wrong))
            for f in tot.failures[:3]:
                print("    %r" % (f,))
    print("  (physical: actions that move a piece; by sensor: of those, taken from the sensors")
    print("   alone, no button or console; cards: cards entered; presses and console inputs per")
    print("   100 actions; asked: questions the board asked; wrong: games where the board's")
    print("   position left the truth)")


def _replay(level, seats, lines, build_dir):
    import mpy
    out = mpy.run_micropython(REPLAY, args=["L%d" % level, seats],
                              stdin="\n".join(lines) + "\n", timeout=1200, path=[build_dir])
    calls = []
    end = None
    for r in out.split("\n"):
        if r.startswith("end"):
            end = [int(x) for x in r.split()[1:]]
        elif r:
            calls.append(tuple(int(x) for x in r.split()))
    return calls, end


def cost(games=4):
    from cargoboard import build
    from shared_rules.formula99 import rules as R
    print()
    print("cost on the board: %d games per level replayed under the MicroPython unix port "
          "(192 KiB heap, mpy-cross)" % games)
    print("  %-5s %-10s %7s %9s %9s %9s %12s" % ("level", "call", "calls", "mean us", "p99 us",
                                                "worst us", "RP2040 ms*"))
    lowest = None
    with tempfile.TemporaryDirectory(prefix="bench-f99b-") as tmp:
        build.build(tmp)
        for level in (1, 3):
            times = ([], [], [], [])
            for seed in range(games):
                trace = []
                players = 2 + seed % 3
                play_game(seed, players=players, level=level, trace=trace)
                seats = R.start_position(players, level).SEAT_LETTERS
                calls, end = _replay(level, seats, _trace_lines(trace), tmp)
                for k, us in calls:
                    times[k].append(us)
                if end and (lowest is None or end[1] < lowest):
                    lowest = end[1]
            for k, name in enumerate(("on_change", "on_button", "command", "tick")):
                ts = sorted(times[k])
                if not ts:
                    continue
                p99 = ts[min(len(ts) - 1, len(ts) * 99 // 100)]
                print("  %-5d %-10s %7d %9.0f %9d %9d %12.0f" % (
                    level, name, len(ts), sum(ts) / len(ts), p99, ts[-1],
                    ts[-1] * RP2040_FACTOR / 1000.0))
    print("  (calls that did work: every change, button and command, the ticks that committed")
    print("   or redrew; a collection before each; * the worst times %d, the unix port's usual"
          % RP2040_FACTOR)
    print("   ratio to the RP2040 at 125 MHz.) Least free heap after a call (collected) in these "
          "games, the plug-in alone (no app, no log): %d bytes of 192 KiB" % (lowest or 0))


def _trace_lines(trace):
    """The replay script's lines of a table's trace: `p BIT`, `c WORDS`, `f OCC-HEX MS`."""
    lines = []
    for t in trace:
        if t[0] == "press":
            lines.append("p %d" % t[1])
        elif t[0] == "cmd":
            lines.append("c " + " ".join(t[1]))
        else:
            lines.append("f %s %d" % (t[1].hex(), t[2]))
    return lines


def pico_heap():
    """The live heap on the emulated RP2040 booted, then with a 4-player level-3 game set up,
    real and digital cards."""
    boardcost.pico_heap(("formula99 L3 1357", "formula99 L3 1357 deal=12"))


def pico_walk(plies=40, games=((12, 4, 3, True), (12, 4, 3, False)), target="pico"):
    """The heap on the emulated RP2040 over whole games, the worst point: each game of `games`
    (seed, players, level, digital cards) written by scriptgen and played on the virtual board
    (the stock image, the deployed build, the game log, the host link loaded first; or with
    target "unix" the unix port at 192 KiB with the board's paths, bench/heap.py), serial `mem`
    after the set-up and after every action (bench/heap.py's samples): the most in use, the
    least free, the smallest largest block. A resolve that fails (the board's position is not
    the truth's) ends the game and is printed."""
    import heap
    from cargoboard.games.formula99.scriptgen import game_script
    from cargoboard.sim.script import ScriptError
    if target == "pico" and boardcost.pico_missing():
        return
    print()
    print("heap on the %s over a game (serial `mem` after the set-up and every action; game "
          "log, host link):" % ("emulated RP2040" if target == "pico" else
                                "unix port (192 KiB, the board's paths)"))
    for seed, players, level, digital in games:
        script, final = game_script(seed, players=players, level=level, plies=plies,
                                    digital=digital)
        session = heap.board(target)
        samples, failed, setup = [], None, None
        try:
            heap.load_link(session)
            for line in script.splitlines():
                if not line or line.startswith("#"):
                    continue
                try:
                    session.execute(line)
                except ScriptError as e:
                    failed = "after %d actions: %s" % (len(samples), str(e)[:300])
                    break
                if line.startswith("new-game "):
                    setup = heap.mem(session)
                elif line.startswith("resolve "):
                    samples.append(heap.mem(session))
            errors = [e for e in session.events if e.startswith("evt error")]
        finally:
            session.close()
        every = [setup] + samples
        print("  seed %d, %d players, level %d, %s cards: %d actions; set up: in use %d, free %d, "
              "max %d; worst: in use %d, free %d; smallest max %d; errors %d" % (
                  seed, players, level, "digital" if digital else "real", len(samples),
                  setup[0], setup[1], setup[2], max(x[0] for x in every),
                  min(x[1] for x in every), min(x[2] for x in every), len(errors)))
        for e in errors[:3]:
            print("    " + e)
        if failed:
            print("    stopped " + failed)


def pico_cost(actions=60):
    """The calls' times on the emulated RP2040 (None if its images are missing)."""
    import subprocess
    from cargoboard.deploy import _mpremote_exe
    from cargoboard.sim.pico.runner import PicoRunner
    from shared_rules.formula99 import rules as R
    if boardcost.pico_missing():
        return
    print()
    print("cost on the emulated RP2040 (stock MicroPython, deployed build, emulated time), the "
          "first %d actions of one game per level:" % actions)
    print("  %-5s %-10s %7s %9s %9s %9s" % ("level", "call", "calls", "mean ms", "p99 ms",
                                          "worst ms"))
    for level in (1, 3):
        trace = []
        play_game(1, players=3, level=level, max_actions=actions, trace=trace)
        seats = R.start_position(3, level).SEAT_LETTERS
        with tempfile.TemporaryDirectory(prefix="bench-f99p-") as tmp:
            tpath = os.path.join(tmp, "trace.txt")
            spath = os.path.join(tmp, "replay.py")
            with open(tpath, "w") as f:
                f.write("\n".join(_trace_lines(trace)) + "\n")
            with open(spath, "w") as f:
                f.write(REPLAY)
            with PicoRunner() as runner, runner.serving():
                mp = _mpremote_exe()
                subprocess.run([mp, "connect", runner.port, "cp", tpath, ":trace.txt"],
                               capture_output=True, text=True, timeout=900, check=True)
                r = subprocess.run([mp, "connect", runner.port, "exec",
                                    "import sys; sys.argv[:] = ['replay', 'L%d', '%s', "
                                    "'trace.txt']" % (level, seats), "run", spath],
                                   capture_output=True, text=True, timeout=3600)
        if r.returncode != 0:
            print("  level %d: the replay failed: %s" % (level, (r.stderr or r.stdout)[-300:]))
            continue
        times = ([], [], [], [])
        end = None
        for row in r.stdout.split("\n"):
            if row.startswith("end"):
                end = row.split()[1:]
            elif row.strip():
                k, us = (int(x) for x in row.split())
                times[k].append(us)
        for k, name in enumerate(("on_change", "on_button", "command", "tick")):
            ts = sorted(times[k])
            if ts:
                p99 = ts[min(len(ts) - 1, len(ts) * 99 // 100)]
                print("  %-5d %-10s %7d %9.1f %9.1f %9.1f" % (level, name, len(ts),
                                                            sum(ts) / len(ts) / 1000.0,
                                                            p99 / 1000.0, ts[-1] / 1000.0))
        if end:
            print("  level %d: heap in use at the end %s bytes, least free after a call %s "
                  "bytes (the plug-in alone, the app stopped by mpremote)" % (level, end[0],
                                                                             end[1]))


def main():
    t0 = time.time()
    if sys.argv[1:2] == ["pico-heap"]:
        pico_heap()
    elif sys.argv[1:2] in (["pico-walk"], ["unix-walk"]):
        games = [tuple(benchcli.number(x, "SEED:PLAYERS:LEVEL") for x in g.split(":")[:3])
                 + (g.endswith(":d"),)
                 for g in sys.argv[3:]]
        pico_walk(benchcli.number(sys.argv[2], "PLIES") if len(sys.argv) > 2 else 40,
                  tuple(games) or ((12, 4, 3, True), (12, 4, 3, False)), sys.argv[1][:4])
    elif sys.argv[1:2] == ["pico"]:
        pico_heap()
        pico_cost(benchcli.number(sys.argv[2], "ACTIONS") if len(sys.argv) > 2 else 60)
    else:
        inference(benchcli.number(sys.argv[1], "GAMES", least=1) if len(sys.argv) > 1 else 40)
        cost()
        pico_heap()
        pico_cost(benchcli.number(sys.argv[2], "ACTIONS") if len(sys.argv) > 2 else 60)
    print("\n(%.0f s)" % (time.time() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
