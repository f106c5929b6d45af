"""Game log size: bytes per action and games per MB (docs/log-format.md). Printed, never asserted.

    .venv/bin/python bench/log.py [GAMES]

100 simulated games (default): random legal actions through the rules core until the game is
over, 2, 3 and 4 players, with and without the base cards (wind-rose hops make actions of 3+
bytes), and a take-back now and then (3% of the actions, as a player correcting the board).
Each game is logged by the board's own store code (firmware/system/gamelog.py, here on a temporary
directory). Then the same logs are written, again and again, onto a 1 MiB littlefs image with
the Pico's geometry (4 KiB blocks, progsize 256) under the MicroPython unix port, until it is
full: littlefs gives a file of more than 512 bytes whole blocks of its own, so the real figure
is well below the raw bytes.
"""

import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from shared_rules.cargocube import layouts, rules as cc  # noqa: E402
from firmware.system import logread  # noqa: E402
from firmware.system.gamelog import GameLog, RESERVE  # noqa: E402
from logsteps import log_step, random_steps  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

UNDO_RATE = 0.03
MIB = 1 << 20


def main():
    n_games = benchcli.number(sys.argv[1], "GAMES", least=1) if len(sys.argv) > 1 else 100
    tmp = tempfile.mkdtemp(prefix="bench-log-")
    gl = GameLog(tmp, "e6614c3100000000")
    rows = []
    for i in range(n_games):
        players = (2, 3, 4)[i % 3]
        cards = (i // 3) % 2 == 1
        steps, _ = random_steps(1000 + i, players=players, cards=cards, undo_rate=UNDO_RATE)
        start = cc.start_position(players, cards=cards)
        n = gl.begin("cargocube", "polygon" + ("+cards" if cards else ""),
                     layouts.SEATS_BY_PLAYERS[players], start.notation(), None,
                     cc.RULES_VERSION, 1767225600)
        header = logread.size(gl, n)
        for s in steps:
            log_step(gl, s)
        gl.finish()
        size = logread.size(gl, n)
        played = sum(1 for s in steps if s is not None)
        undos = len(steps) - played
        hops = sum(1 for s in steps if s is not None and len(s) > 2)
        rows.append((players, cards, played, undos, hops, header, size))
    played = sum(r[2] for r in rows)
    undos = sum(r[3] for r in rows)
    hops = sum(r[4] for r in rows)
    headers = sum(r[5] for r in rows)
    total = sum(r[6] for r in rows)
    records = total - headers
    print("game log: %d simulated games (2/3/4 players, with and without cards), %d actions "
          "played, %d take-backs (%.1f%%), %d actions with wind-rose hops" % (
              len(rows), played, undos, 100.0 * undos / played, hops))
    print("  actions per game: mean %.0f, min %d, max %d" % (
        played / len(rows), min(r[2] for r in rows), max(r[2] for r in rows)))
    print("  records: %.2f bytes per action played (take-backs and the finish record included;"
          " a plain action is 4 bytes: tag, 2 bytes of the rules' encoding, CRC-8)" % (
              records / played))
    for label, sel in (("no cards", lambda r: not r[1]), ("cards", lambda r: r[1])):
        sub = [r for r in rows if sel(r)]
        if sub:  # fewer than 4 games have none with cards (the 4th is the first)
            print("    %-8s %.2f bytes per action" % (
                label, sum(r[6] - r[5] for r in sub) / sum(r[2] for r in sub)))
    # the extremes of the notation's size, of the games there are (4 players with cards from 6)
    small = [r[5] for r in rows if r[0] == 2 and not r[1]]
    big = [r[5] for r in rows if r[0] == 4 and r[1]]
    print("  header: mean %.0f bytes (the start position's notation is most of it%s)" % (
        headers / len(rows), ": " + ", ".join(
            "%s %d" % (what, f(sizes)) for what, f, sizes in (
                ("2 players", min, small), ("4 players with cards", max, big)) if sizes)))
    mean = total / len(rows)
    print("  whole log: %.2f bytes per action, mean %.0f bytes per game (median %.0f, max %d)" % (
        total / played, mean, statistics.median(r[6] for r in rows), max(r[6] for r in rows)))
    print("  raw bytes: %.0f games per MiB" % (MIB / mean))
    littlefs(tmp, gl.numbers(), mean)


MPY_FILL = r"""
import os, sys, gc
from firmware.drivers import flashdev
from firmware.system.gamelog import GameLog
src = sys.argv[1]
names = sorted([n for n in os.listdir(src) if n.endswith(".log")])
root = flashdev.mount(flashdev.RamBlockDev(4096, 256), "/flash", True)
free0 = os.statvfs(root)[0] * os.statvfs(root)[3]
gl = GameLog(root, "bench", 0)
games = 0
size = 0
try:
    while True:
        for name in names:
            with open(src + "/" + name, "rb") as f:
                raw = f.read()
            path = gl.path(games + 1)
            with open(path, "wb") as f:
                f.write(raw)
            games += 1
            size += len(raw)
            gc.collect()
except OSError as e:
    pass
print(games, size, free0)
"""


def littlefs(tmp, numbers, mean):
    try:
        from mpy import find_micropython, micropypath
        exe = find_micropython()
    except Exception as e:
        print("  littlefs: skipped (%s)" % e)
        return
    env = dict(os.environ, MICROPYPATH=micropypath())
    script = os.path.join(tmp, "fill.py")
    with open(script, "w") as f:
        f.write(MPY_FILL)
    out = subprocess.run([exe, "-X", "heapsize=4m", script, os.path.join(tmp, "games")],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    if out.returncode != 0:
        print("  littlefs: failed: %s%s" % (out.stdout[-500:], out.stderr[-500:]))
        return
    games, size, free0 = (int(x) for x in out.stdout.split())
    print("  littlefs (1 MiB image, 4 KiB blocks, progsize 256, as on the Pico): %d games fit "
          "(%.0f KiB of logs in %.0f KiB free after formatting): %.0f games per MiB; "
          "%d on the Pico's 1408 KiB filesystem if the firmware is frozen (less the .mpy files "
          "otherwise, 4 KiB a game)" % (games, size / 1024, free0 / 1024, games, games * 1408 / 1024))
    print("  at the %d KiB reserve the board keeps (firmware/system/gamelog.py RESERVE) a new game is "
          "refused before the flash is full" % (RESERVE // 1024))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
