# Revision B on the device interpreter: plays again, through the firmware's HAL logic, level
# scanner, occupancy scanner and Cargocube plug-in (cargoboard.sim.table.Table with the revision-B
# hall), a game's raw input recorded on the host (tests/cargocube/test_cargocube_revb.py): one line per
# event, `S sums...` the first scan, `F ms sums...` a reading held for ms, `P bit` a button.
# Prints the board's final position and its history. Runs under CPython and the MicroPython
# unix port (192 KiB heap), which must agree.
#
#   driver_revb_replay.py TRACE_FILE SEATS CARDS [teleport]
#
# bench/cargocube/revb_pico.py runs it on the emulated RP2040 too (replay(), report()).

import sys

from shared_rules.cargocube import rules as cc
from firmware.games.cargocube.plugin_revb import Game
from firmware.hal.hall import reader
from firmware.drivers.levels import LevelScanner
from hardware import pinmap_revb
from cargoboard.sim.table import Table


def replay(path, seats, cards, wrap=None, teleport=False):
    """Play the trace at path again on a new game (seats, cards: '-' for none, teleport: with
    the walking teleport); wrap(game), if given, is called once the game is made
    (bench/cargocube/revb_pico.py times its calls so). Returns (game, readings fed)."""
    levels = LevelScanner()
    game = Game({"seats": seats, "cards": cards if cards != "-" else "", "levels": levels,
                 "teleport": "1" if teleport else ""})
    if wrap is not None:
        wrap(game)
    table = None
    n = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "S":
                table = Table(game, hall=(reader(pinmap_revb), levels),
                              raw=[int(x) for x in parts[1:]])
            elif parts[0] == "F":
                table.feed([int(x) for x in parts[2:]], int(parts[1]))
                n += 1
            elif parts[0] == "P":
                table.press(int(parts[1]))
    return game, n


def report(game, n):
    pos = game.pos
    print("readings %d" % n)
    print("history " + " ".join([cc.format_action(a) for a in pos.history()]))
    print("final " + pos.notation())


if __name__ == "__main__":
    report(*replay(sys.argv[1], sys.argv[2], sys.argv[3],
                   teleport=len(sys.argv) > 4 and sys.argv[4] == "teleport"))
