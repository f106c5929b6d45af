# Seeded random Cargocube games and perft counts, printed line by line, for comparing CPython
# with the MicroPython unix port (tests/cargocube/test_cargocube_rules_micropython.py). Runs under both: only the
# MicroPython subset, no `random` (a tiny LCG picks the actions, the same way everywhere).
#
# Usage:
#   driver_random_games.py games CAP GAME...     GAME = gid:seed:players:cards
#   driver_random_games.py perft DEPTH SPEC ...  SPEC = polygon:players:cards
#                                                     | game:seed:players:cards:steps
#                                                     | a position in the rulings notation
# cards: 0 (none), 1 or base, pyramid, bastion, both; a trailing +t adds the walking teleport.
# Output of `games`, per game:
#   G gid players cards seed
#   S step | legal actions (space separated) | chosen action | encoded hex | notation after
#   E gid steps natural|capped scores S,W,N,E winners
# Output of `perft`: "P index depth count" per SPEC.

import gc
import sys

from shared_rules.cargocube import rules as cc


def lcg(x):
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


def pick(x, n):
    return (x >> 8) % n


def hexbytes(b):
    return "".join("%02x" % v for v in b)


def play(pos, seed, cap, verbose=False):
    """Play LCG-chosen actions until the game is over or cap actions; return (steps, natural).

    verbose: write one S line per action. The legal list is written action by action (no list
    of strings is built): a 192 KiB heap is tight late in a 4-player game with cards.
    """
    x = seed & 0x7FFFFFFF
    step = 0
    write = sys.stdout.write
    while True:
        actions = pos.legal_actions()
        if not actions:
            return step, True
        if step >= cap:
            return step, False
        x = lcg(x)
        i = pick(x, len(actions))
        a = actions[i]
        if verbose:
            write("S %d |" % step)
            for b in actions:
                write(" ")
                write(cc.format_action(b))
            actions = None
            pos.push(a)
            write(" | %s | %s | %s\n" % (cc.format_action(a), hexbytes(cc.encode_action(a)),
                                         pos.notation()))
            gc.collect()
        else:
            actions = None
            pos.push(a)
        step += 1


def start(players, cards):
    """The «Полигон» start for players and a cards field (see the usage above)."""
    teleport = cards.endswith("+t")
    if teleport:
        cards = cards[:-2]
    layout = {"0": False, "1": "base"}.get(cards, cards)
    return cc.start_position(int(players), "polygon", layout, teleport)


def run_games(cap, specs):
    for spec in specs:
        gid, seed, players, cards = spec.split(":")
        pos = start(players, cards)
        print("G %s %s %s %s" % (gid, players, cards, seed))
        print("S - | %s" % pos.notation())
        steps, natural = play(pos, int(seed), cap, True)
        sc = pos.scores()
        print("E %s %d %s %s %s" % (gid, steps, "natural" if natural else "capped",
                                     ",".join(str(v) for v in sc),
                                     "".join([pos.SEAT_LETTERS[s] for s in pos.winners()])))


def load(spec):
    if spec.startswith("polygon:"):
        _, players, cards = spec.split(":")
        return start(players, cards)
    if spec.startswith("game:"):
        _, seed, players, cards, steps = spec.split(":")
        pos = start(players, cards)
        play(pos, int(seed), int(steps))
        return cc.Position.parse(pos.notation())
    return cc.Position.parse(spec)


def run_perft(args):
    i = 0
    while i + 1 < len(args):
        depth = int(args[i])
        pos = load(args[i + 1])
        print("P %d %d %d %s" % (i // 2, depth, cc.perft(pos, depth), pos.notation()))
        i += 2


def main(argv):
    if len(argv) >= 2 and argv[0] == "games":
        run_games(int(argv[1]), argv[2:])
    elif argv and argv[0] == "perft":
        run_perft(argv[1:])
    else:
        print("usage: driver_random_games.py games CAP GAME... | perft DEPTH SPEC ...")
        sys.exit(2)


main(sys.argv[1:])
