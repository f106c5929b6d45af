# Seeded КУБитва games and perft counts, printed line by line, for comparing CPython with the
# MicroPython unix port (tests/kubitva/test_kubitva_micropython.py). Runs under both: only the
# MicroPython subset, no `random` (a tiny LCG picks the actions, the same everywhere).
#
# Usage:
#   driver_kubitva.py games GAME...      GAME = gid:seed:start:actions:engine
#                                        start = board, full or arena (tests' busy position);
#                                        at most `actions` actions; engine 1: S plays the
#                                        engine's choice, N the LCG (0: both the LCG)
#   driver_kubitva.py perft DEPTH POSITION [DEPTH POSITION ...]
# Output of `games`, per game:
#   G gid start seed
#   A step | legal actions | chosen action | encoded hex | notation after
#   E gid steps scores winners
# Output of `perft`: "P index depth count notation" per pair.

import sys

from driverkit import lcg, main, play
from shared_rules.kubitva import rules as kb

ARENA = (".b.baaa..b./bpbraqa.bib/....aaa.b../...x...bmb./..w...s...w/....Sws..../"
         "W...S...W../.bmb...x.../..b.aaa..../bib.aqarbpb/.b..aaab.b."
         " 11N/11N/11N/11N/11N/5S6N/11S/11S/11S/11S/11S S 40,40 5/60")


def run_games(specs):
    write = sys.stdout.write
    for spec in specs:
        gid, seed, start, limit, engine = spec.split(":")
        pos = kb.Position.parse(ARENA) if start == "arena" else kb.start_position(start)
        if engine == "1":
            from shared_rules.kubitva import engine as en
        print("G %s %s %s" % (gid, start, seed))
        x = int(seed) & 0x7FFFFFFF
        step = 0
        while not pos.is_over() and step < int(limit):
            actions = pos.legal_actions()
            if engine == "1" and pos.to_move == kb.S:
                a = en.best_action(pos)
            else:
                x = lcg(x)
                a = actions[(x >> 8) % len(actions)]
                if a == kb.END and len(actions) > 1 and (x >> 4) % 4:
                    a = actions[(x >> 12) % (len(actions) - 1)]
            play(write, "A", step, pos, actions, a, kb.encode_action)
            step += 1
        sc = pos.scores()
        print("E %s %d %d,%d %s" % (gid, step, sc[0], sc[1],
                                    "".join(kb.SEAT_LETTERS[s] for s in pos.winners())))


def parse(text):
    if text == "arena":
        return kb.Position.parse(ARENA)
    return kb.named_position(text) or kb.Position.parse(text)


main("driver_kubitva.py", run_games, parse, kb.perft)
