"""Move inference benchmark: whole games played by a modelled hand on the firmware's scanner
and Cargocube plug-in (the same code as on the board, run in this process for speed; the tests
run it under MicroPython through the virtual board).

    .venv/bin/python bench/inference.py [GAMES [EXPANSION_GAMES]]

Two move choosers: `random` picks uniformly among the legal actions (stacks everywhere: the
hardest case for occupancy sensors), `purposeful` plays the hint's choice 4 times in 5 (cubes go
toward the own terminal, high activations), like people trying to win. The hand lifts first or
tips the cube over, drags pieces across cells, hesitates, hovers and bounces (cargoboard.games.cargocube.hand).
The player presses only what the LEDs ask for (cargoboard.games.cargocube.play). Printed, never asserted.

The expansions get their own rows (random chooser): «Пирамида», «Бастион» with the walking
teleport, both, and both with 8 players, with the actions of each new kind and the presses they
needed.
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from shared_rules.cargocube import rules as cc  # noqa: E402
from firmware.games.cargocube import tracker as T  # noqa: E402
from shared_rules.cargocube.engine import best_action  # noqa: E402
from cargoboard.games.cargocube.play import GameStats, play_game  # noqa: E402


def traceless_share(pick, games=20):
    """Share of chosen actions (not `end`) that change no sensor at all, and that another legal
    action would explain equally (same cells toggled): a floor set by the sensors."""
    import random
    rng = random.Random(99)
    total = empty = same = 0
    for n in range(games):
        pos = cc.start_position((2, 4)[n % 2], cards=True)
        for _ in range(400):
            legal = pos.legal_actions()
            if not legal:
                break
            a = pick(pos, legal, rng)
            if a[0] != cc.END:
                total += 1
                dl = T.action_delta(pos, a)
                if not dl:
                    empty += 1
                elif sum(1 for b in legal if b[0] != cc.END and T.action_delta(pos, b) == dl) > 1:
                    same += 1
            pos.push(a)
    return empty / total, same / total


def pick_random(pos, legal, rng):
    return legal[rng.randrange(len(legal))]


def pick_purposeful(pos, legal, rng):
    if rng.random() < 0.8:
        return best_action(pos)
    return legal[rng.randrange(len(legal))]


def run(name, pick, games, cards=None, teleport=False, players=None):
    """GameStats of games seeded games; by default 2, 3 and 4 players, 3 in 4 with the base
    cards; cards, teleport and players set them for every game (the expansions' rows)."""
    tot = GameStats()
    t0 = time.time()
    for seed in range(games):
        st = play_game(seed, players=players or (2, 3, 4)[seed % 3],
                       cards=cards if cards is not None else seed % 4 != 0, pick=pick,
                       teleport=teleport)
        tot.add(st)
    return tot, time.time() - t0


EXPANSION_ROWS = (
    ("pyramid 2p", dict(cards="pyramid", players=2)),
    ("bastion+T 4p", dict(cards="bastion", teleport=True, players=4)),
    ("both 4p", dict(cards="both", players=4)),
    ("both+T 8p", dict(cards="both", teleport=True, players=8)),
)
EXPANSION_KINDS = ("activation", "roll", "step", "booster", "ride", "teleport", "turn",
                   "biohazard")


def on_virtual_board(games=10, actions=80):
    """The same measure through the virtual board: the firmware under the MicroPython unix port,
    the script hand (lift, place, press; no habits), `resolve` after every action."""
    import re
    import tempfile
    from cargoboard.games.cargocube.scriptgen import game_script
    from cargoboard.sim.script import run_script
    total = no_button = 0
    t0 = time.time()
    for seed in range(games):
        players = (2, 3, 4)[seed % 3]
        script, final = game_script(seed=seed, players=players, actions=actions, check_every=0)
        kinds = [a[0] for a in final.history()]
        fd, path = tempfile.mkstemp(suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(script)
        out = []
        status = run_script(path, out=out.append)
        os.unlink(path)
        if status != 0:
            print("  virtual board game %d FAILED" % seed)
            continue
        presses = []
        for line in out:
            m = re.search(r"resolved.*?(\d+) press", line)
            if m:
                presses.append(int(m.group(1)))
        for kind, p in zip(kinds, presses):
            if kind != cc.END:
                total += 1
                no_button += p == 0
    return games, total, no_button, time.time() - t0


def expansions(games):
    print()
    print("The expansions: %d games each, random chooser, actions and the share that needed a "
          "button" % games)
    print("%-13s %6s %7s %10s %6s  %s" % ("game", "games", "actions", "no button", "wrong",
                                          "  ".join("%-10s" % k for k in EXPANSION_KINDS)))
    for name, kw in EXPANSION_ROWS:
        tot, secs = run(name, pick_random, games, **kw)
        cols = []
        for kind in EXPANSION_KINDS:
            a, b, p = tot.by_kind.get(kind, (0, 0, 0))
            cols.append("%-10s" % ("%d %.0f%%" % (a, 100.0 * (a - b) / a) if a else "-"))
        print("%-13s %6d %7d %9.1f%% %6d  %s" % (name, tot.games, tot.actions,
                                                100.0 * tot.no_button / max(1, tot.actions),
                                                tot.wrong, "  ".join(cols)))
        for f in tot.failures[:3]:
            print("  failure: " + f)
    print("(per kind: actions, and the share of them taken with no button)")


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    expansion_games = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    print("Move inference: %d games per chooser, 2/3/4 players, 3 in 4 with base cards" % games)
    print()
    rows = []
    for name, pick in (("random", pick_random), ("purposeful", pick_purposeful)):
        tot, secs = run(name, pick, games)
        rows.append((name, tot, secs))
    print("%-11s %6s %7s %8s %11s %6s %8s" % ("chooser", "games", "ended", "actions",
                                             "no button", "wrong", "time s"))
    for name, tot, secs in rows:
        print("%-11s %6d %7d %8d %10.1f%% %6d %8.1f" % (
            name, tot.games, tot.ended_naturally, tot.actions,
            100.0 * tot.no_button / max(1, tot.actions), tot.wrong, secs))
    print("(actions: every action but `end`, which is a button by design; wrong: commits that"
          " differ from what the hand did)")
    for name, tot, secs in rows:
        print()
        print("%s: actions that needed a button, by kind" % name)
        print("  %-11s %8s %8s %7s %9s" % ("kind", "actions", "button", "share", "presses"))
        for kind in ("activation", "roll", "step", "booster", "end"):
            a, b, p = tot.by_kind.get(kind, (0, 0, 0))
            if kind == "end":
                print("  %-11s %8d %8s %7s %9s" % (kind, a, "(itself)", "", ""))
                continue
            print("  %-11s %8d %8d %6.1f%% %9d" % (kind, a, b, 100.0 * b / max(1, a), p))
        print("  why: " + ", ".join("%s %d" % kv for kv in sorted(tot.reasons.items(),
                                                                   key=lambda kv: -kv[1])))
        for f in tot.failures[:5]:
            print("  failure: " + f)
    expansions(expansion_games)
    print()
    n, total, nob, secs = on_virtual_board()
    print("On the virtual board (firmware under MicroPython, script hand, random play): %d games,"
          " %d actions, %.1f%% with no button (%.0f s)" % (n, total, 100.0 * nob / max(1, total),
                                                          secs))
    print()
    print("What the sensors allow (occupancy only): share of chosen actions that")
    for name, pick in (("random", pick_random), ("purposeful", pick_purposeful)):
        empty, same = traceless_share(pick)
        print("  %-11s change no sensor: %5.1f%%   look the same as another legal action: %5.1f%%"
              % (name, 100 * empty, 100 * same))
    print("why-legend: no trace = the player pressed confirm after a move the sensors cannot see;"
          " N fit = N moves fit what was seen, picked with next/confirm; settle = a move that may"
          " have ended on a stack was confirmed at the end of the turn or game; mismatch = the"
          " board could not explain the cells until told.")


if __name__ == "__main__":
    main()
