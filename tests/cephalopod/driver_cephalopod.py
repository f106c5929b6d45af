# Seeded Cephalopod games, perft counts and engine choices, printed line by line, for comparing
# CPython with the MicroPython unix port (tests/cephalopod/test_cephalopod_micropython.py). Runs under both:
# only the MicroPython subset, no `random` (a tiny LCG picks the actions, the same everywhere).
#
# Usage:
#   driver_cephalopod.py games GAME...        GAME = gid:seed:rows:cols:engine_depth
#                                             (engine_depth 0: both sides LCG; d > 0: white
#                                             plays best_action(pos, d), black the LCG)
#   driver_cephalopod.py perft DEPTH POSITION [DEPTH POSITION ...]
# Output of `games`, per game:
#   G gid rows cols seed depth
#   S step | legal actions | chosen action | encoded hex | notation after
#   E gid steps scores(w,b) winners
# Output of `perft`: "P index depth count notation" per pair.

import sys

from driverkit import lcg, main, play
from shared_rules.cephalopod import rules as ce
from shared_rules.cephalopod import engine


def run_games(specs):
    write = sys.stdout.write
    for spec in specs:
        gid, seed, rows, cols, depth = spec.split(":")
        depth = int(depth)
        pos = ce.start_position(int(rows), int(cols))
        print("G %s %s %s %s %d" % (gid, rows, cols, seed, depth))
        x = int(seed) & 0x7FFFFFFF
        step = 0
        while not pos.is_over():
            actions = pos.legal_actions()
            if depth and pos.to_move == ce.WHITE:
                a = engine.best_action(pos, depth)
            else:
                x = lcg(x)
                a = actions[(x >> 8) % len(actions)]
            play(write, "S", step, pos, actions, a, ce.encode_action)
            step += 1
        sc = pos.scores()
        print("E %s %d %d,%d %s" % (gid, step, sc[0], sc[1],
                                    "".join(ce.SEAT_LETTERS[s] for s in pos.winners())))


main("driver_cephalopod.py", run_games, ce.Position.parse, ce.perft)
