# A Cargocube game's raw input recorded on the host (cargoboard.sim.table.Table's trace, written
# by write_trace), played again on the device interpreter through the firmware's scanners and
# plug-in. Revision B (tests/cargocube/test_cargocube_revb.py): the HAL's logic, level scanner,
# occupancy scanner and plug_revb; lines `S sums...` the first scan, `F ms sums...` a reading held
# for ms. Revision A (tests/cargocube/test_cargocube_inference_games.py): the occupancy scanner
# and the plug-in; lines `R ms HEX` an occupancy (16 bytes, hex) held for ms. Both: `P bit` a
# button. Prints the board's final position and its history. Runs under CPython and the
# MicroPython unix port, which must agree.
#
#   driver_replay.py TRACE_FILE SEATS CARDS [teleport] [wait=K]
#
# bench/cargocube/revb_pico.py runs it on the emulated RP2040 too (replay(), report()).

import sys

from binascii import unhexlify

from shared_rules.cargocube import rules as cc
from cargoboard.sim.table import Table


def _game(revb, seats, cards, teleport, wait=None):
    """A new game on revision B (with its LevelScanner) or A (with the option wait=K);
    returns (game, levels or None)."""
    options = {"seats": seats, "cards": cards if cards != "-" else "",
               "teleport": "1" if teleport else "", "wait": "" if wait is None else str(wait)}
    if not revb:
        from firmware.games.cargocube.plugin import Game
        return Game(options), None
    from firmware.games.cargocube.plugin_revb import Game
    from firmware.drivers.levels import LevelScanner
    levels = LevelScanner()
    options["levels"] = levels
    return Game(options), levels


def replay(path, seats, cards, wrap=None, teleport=False, wait=None):
    """Play the trace at path again on a new game (seats, cards: '-' for none, teleport: with
    the walking teleport, wait: revision A's option wait=K), on the revision its first line
    shows; wrap(game), if given, is
    called once the game is made (bench/cargocube/revb_pico.py times its calls so). Returns
    (game, readings fed)."""
    game = table = levels = None
    n = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if game is None:
                game, levels = _game(parts[0] == "S", seats, cards, teleport, wait)
                if wrap is not None:
                    wrap(game)
                if levels is None:
                    table = Table(game)
            if parts[0] == "S":
                from firmware.hal.hall import reader
                from hardware import pinmap_revb
                table = Table(game, hall=(reader(pinmap_revb), levels),
                              raw=[int(x) for x in parts[1:]])
            elif parts[0] == "F":
                table.feed([int(x) for x in parts[2:]], int(parts[1]))
                n += 1
            elif parts[0] == "R":
                table.feed(unhexlify(parts[2]), int(parts[1]))
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
    words = sys.argv[4:]
    wait = None
    for w in words:
        if w.startswith("wait="):
            wait = int(w[5:])
    report(*replay(sys.argv[1], sys.argv[2], sys.argv[3], teleport="teleport" in words,
                   wait=wait))
