# Seeded «Формула 99» games and perft counts, printed line by line, for comparing CPython with
# the MicroPython unix port (tests/formula99/test_formula99_micropython.py). Runs under both: only the
# MicroPython subset, no `random` (a tiny LCG picks the actions, the same everywhere).
#
# Usage:
#   driver_formula99.py games GAME...     GAME = gid:seed:players:level:view:plies
#                                         view p (public) or f (full, dealt from the seed)
#   driver_formula99.py perft DEPTH POSITION [DEPTH POSITION ...]
#   driver_formula99.py takeback GAME...   GAME = gid:seed:players:level:view:steps
# Output of `games`, per game:
#   G gid players level view seed
#   S step | legal actions | chosen action | encoded hex | notation after
#   E gid steps scores winners
# Output of `perft`: "P index depth count notation" per pair.
# Output of `takeback`, per step of a walk that plays on and takes back (1 to 400 actions at a
# time), the same actions on a position with the whole undo log and on one that keeps only 2
# chunks of it (keep_undo, as the board):
#   T gid step ply whole-sum kept-sum kept-floor same-history same-taken-back
#
# The chooser favours card plays, charges and blockades (weights below) so that short games
# reach the rare events; tests/formula99/formula99_games.py has the same weights for CPython-only tests.

import sys

from driverkit import lcg, main, play
from shared_rules.formula99 import rules as R

# by action kind (the top byte of the 4-byte encoding): K_PLAY 5, K_LAY 6, K_BLOCK 7, K_LIFT 8,
# K_DRAW 4 of shared_rules/formula99/const.py, as numbers: the device build folds those names
# into the modules that use them (cargoboard.build.fold_constants), so R has none of them there
WEIGHTS = {5: 6, 6: 4, 7: 6, 8: 1, 4: 2}


def pick(actions, x):
    """(action, new x): a kind by weight among those present, then an action of that kind."""
    kinds = []
    for a in actions:
        k = a >> 24
        if k not in kinds:
            kinds.append(k)
    kinds.sort()
    total = 0
    for k in kinds:
        total += WEIGHTS.get(k, 1)
    x = lcg(x)
    r = (x >> 8) % total
    for k in kinds:
        r -= WEIGHTS.get(k, 1)
        if r < 0:
            break
    of_kind = [a for a in actions if a >> 24 == k]
    x = lcg(x)
    return of_kind[(x >> 8) % len(of_kind)], x


def run_games(specs):
    write = sys.stdout.write
    for spec in specs:
        gid, seed, players, level, view, plies = spec.split(":")
        seed = int(seed)
        pos = R.start_position(int(players), int(level), seed if view == "f" else None)
        pos.reserve(int(plies))
        print("G %s %s %s %s %d" % (gid, players, level, view, seed))
        x = seed
        step = 0
        while not pos.is_over() and step < int(plies):
            actions = pos.legal_actions()
            a, x = pick(actions, x)
            play(write, "S", step, pos, actions, a, R.encode_action)
            step += 1
        print("E %s %d %s %s" % (gid, step, ",".join([str(v) for v in pos.scores()]),
                                 "".join([pos.SEAT_LETTERS[s] for s in pos.winners()])))


def _sum(st):
    v = 0
    for i in range(len(st)):
        v = (v * 31 + st[i]) & 0xFFFFFF
    return v


def run_takeback(specs):
    for spec in specs:
        gid, seed, players, level, view, steps = spec.split(":")
        seed = int(seed)
        whole = R.start_position(int(players), int(level), seed if view == "f" else None)
        kept = R.start_position(int(players), int(level), seed if view == "f" else None)
        kept.keep_undo(2)
        x = seed
        for step in range(int(steps)):
            x = lcg(x)
            r = (x >> 8) % 100
            same = 1
            if whole.ply() and (whole.is_over() or r < 4):
                x = lcg(x)
                n = max(0, whole.ply() - (1, 1, 2, 5, 40, 400)[(x >> 8) % 6])
                taken = []
                while whole.ply() > n:
                    taken.append(whole.pop())
                if r & 1:
                    kept.take_back_to(n)
                else:
                    for a in taken:
                        same = same and kept.pop() == a
            else:
                a, x = pick(whole.legal_actions(), x)
                whole.push(a)
                kept.push(a)
            print("T %s %d %d %d %d %d %d %d" % (
                gid, step, whole.ply(), _sum(whole.st), _sum(kept.st), kept._floor,
                1 if kept.history() == whole.history() else 0, 1 if same else 0))
            if step % 50 == 0:
                copy_check(gid, step, kept)


def copy_check(gid, step, kept):
    """Position.copy(): the position without its history (it made the copy with
    Position.__new__, which a class does not have on MicroPython: it failed there)."""
    c = kept.copy()
    print("C %s %d %d" % (gid, step, 1 if bytes(c.st) == bytes(kept.st) and not c.ply() and
                          c.legal_actions() == kept.legal_actions() else 0))


if len(sys.argv) > 1 and sys.argv[1] == "takeback":
    run_takeback(sys.argv[2:])
else:
    main("driver_formula99.py", run_games, R.Position.parse, R.perft)
