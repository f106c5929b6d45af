"""Peak MicroPython heap of the firmware over whole games on the virtual board.

    .venv/bin/python bench/heap.py

The heap a game needs is found the honest way: the firmware (app, scanner, painter, tracker,
rules, serial) plays the same whole game under `micropython -X heapsize=N` for smaller and
smaller N, and the smallest N with which the game still runs to its end without a single
firmware error (a MemoryError inside a frame is reported as an error event) is the figure.
The unix port is 64-bit: its objects are larger than the Pico's 32-bit ones, so the Pico needs
less; this is the figure on this port. Printed, never asserted.
"""

import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.sim.script import run_script  # noqa: E402


def runs_with(path, heap_kb):
    lines = []
    status = run_script(path, out=lines.append, heapsize="%dk" % heap_kb)
    errors = 0
    for line in lines:
        m = re.search(r"(\d+) firmware error event", line)
        if m:
            errors = int(m.group(1))
    return status == 0 and errors == 0


def min_heap(path, lo=16, hi=192, step=4):
    if not runs_with(path, hi):
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2
        if runs_with(path, mid):
            hi = mid
        else:
            lo = mid
    return hi


def live_peak(kw):
    """Peak and start of the live heap (after a collection, serial `mem`) along the game, at
    192k: (bytes in use once set up, the most in use after any action)."""
    script, final = game_script(check_every=0, **kw)
    lines = []
    for line in script.splitlines():
        lines.append(line)
        if line.startswith("resolve ") or line.startswith("new-game "):
            lines.append("send mem")
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    out = []
    run_script(path, out=out.append)
    os.unlink(path)
    used = [int(m.group(1)) for m in (re.search(r"ok alloc=(\d+)", x) for x in out) if m]
    return used[0], max(used)


def _alloc(link):
    return int(link.text("mem").split("alloc=")[1].split()[0])


def boot_live():
    """Bytes in use (after a collection, serial `mem`) once the virtual board has booted with
    no game: the resident firmware's modules and state, to the byte."""
    from cargoboard.link import Link
    from cargoboard.sim.runner import UnixRunner
    with UnixRunner() as r, r.serving(), Link(r.port) as link:
        return _alloc(link)


def game_setup_cost(words):
    """Bytes the live heap grows by when the virtual board sets up `new WORDS`."""
    from cargoboard.link import Link
    from cargoboard.sim.runner import UnixRunner
    with UnixRunner() as r, r.serving(), Link(r.port) as link:
        before = _alloc(link)
        link.new_game(words)
        return _alloc(link) - before


def main():
    games = [
        ("2 players, no cards", dict(seed=3, players=2, actions=150, cards=False)),
        ("4 players, base cards", dict(seed=5, players=4, actions=150, cards=True)),
        # the expansions loaded: both, with the walking teleport; 8 players with both
        ("4p both + teleport", dict(seed=5, players=4, actions=150, cards="both",
                                    teleport=True)),
        ("8p both", dict(seed=6, players=8, actions=150, cards="both")),
    ]
    print("Smallest -X heapsize with which the firmware plays the whole game without an error")
    print("(micropython unix port, 64-bit; the Pico's 32-bit objects are smaller)")
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write("wait 100\nsend status\n")
    boot = min_heap(path)
    os.unlink(path)
    print("firmware booted, no game: %d KB" % boot)
    print("live heap at boot (serial `mem` after a collection, no game): %d bytes" % boot_live())
    print("%-24s %8s %10s %14s %12s %8s" % ("game", "actions", "min heap", "set up, idle",
                                             "the game", "time s"))
    for name, kw in games:
        t0 = time.time()
        row = []
        for actions in (0, kw["actions"]):
            kw2 = dict(kw, actions=actions)
            script, final = game_script(check_every=0, **kw2)
            fd, path = tempfile.mkstemp(suffix=".txt")
            with os.fdopen(fd, "w") as f:
                f.write(script)
            row.append(min_heap(path))
            os.unlink(path)
        idle, total = row
        print("%-24s %8d %9s %13s %12s %8.1f" % (
            name, final.ply(), "%d KB" % total if total else "> 192 KB",
            "%d KB" % idle if idle else "?", "%d KB" % (total - idle) if total and idle else "?",
            time.time() - t0))
    print()
    print("Live heap (in use after a collection, serial `mem`), sampled after every action:")
    print("%-24s %12s %12s %10s" % ("game", "set up", "peak", "playing"))
    for name, kw in games:
        start, peak = live_peak(kw)
        print("%-24s %9.1f KB %9.1f KB %7.1f KB   (bytes: %d set up, %d peak)" % (
            name, start / 1024, peak / 1024, (peak - start) / 1024, start, peak))
    print()
    print("What setting a game up adds to the live heap (serial `mem` before and after `new`,")
    print("the game's modules and state; the firmware booted with no game):")
    for words in ("cargocube polygon SN", "cargocube polygon SWNE cards=both teleport=1",
                  "cephalopod 5x5"):
        print("  %-44s %7.1f KB" % (words, game_setup_cost(words) / 1024))
    print()
    print("min heap: the whole firmware with its modules loaded (.mpy, as deployed);")
    print("set up, idle: the same with the game set up and no move made; the game: the difference,")
    print("what playing the game adds at its peak. Goal (issue 3): <= 64 KB on the board.")


if __name__ == "__main__":
    main()
