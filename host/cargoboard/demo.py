"""`cargoboard demo`: a game on the virtual board.

The firmware runs as its own process under the MicroPython unix port with the simulated HAL;
a modelled player moves the pieces of a seeded game (cargoboard.scriptgen) through the physical
world, reads the board and presses buttons only when the board asks. The board's own account
of the game comes back over the pseudo-terminal and is checked against the true position.
"""

import os
import tempfile

from shared_rules import cargocube as cc
from cargoboard.scriptgen import game_script


def _purposeful(pos, legal, rng):
    from firmware.cargocube_game import best_action
    if rng.random() < 0.8:
        return best_action(pos)
    return legal[rng.randrange(len(legal))]


class _Condensed:
    """Prints the script's account briefly: moves, what the board committed, button presses."""

    def __init__(self, verbose):
        self.verbose = verbose
        self.presses = 0

    def __call__(self, line):
        if self.verbose:
            print(line)
            return
        text = line.strip()
        if text.startswith("[") and "] evt " in text:
            evt = text.split("] evt ", 1)[1]
            word = evt.split(" ", 1)[0]
            if word in ("auto", "confirm", "end", "undo"):
                print("    board: %s" % evt.split(" -> ")[0])
            elif word in ("over", "error"):
                print("    board: %s" % evt)
            return
        verb = text.split(": ", 1)[1].split(" ")[0] if ": " in text else ""
        if verb in ("lift", "place", "press") and not text.startswith("resolved"):
            print("  hand: " + text.split(": ", 1)[1])
        elif text.startswith("resolved"):
            if not text.endswith("0 presses"):
                print("    player: " + text)
        elif "FAILED" in text or text.endswith("sim time") or ": ok;" in text:
            print(text.split(": ", 1)[-1] if ": " in text else text)


def cmd_demo(args):
    from cargoboard.sim.script import run_script
    script, final = game_script(seed=args.seed, players=args.players, actions=args.actions,
                                check_every=0, pick=_purposeful if args.purposeful else None)
    fd, path = tempfile.mkstemp(prefix="cargoboard-demo-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(script)
    print("Cargoboard demo: %d players, %d actions of a seeded game (seed %d) on the virtual "
          "board;" % (args.players, args.actions, args.seed))
    print("the firmware runs under the MicroPython unix port, the hand moves real-world pieces.")
    if args.keep_script:
        print("script: %s" % path)
    try:
        status = run_script(path, out=_Condensed(args.verbose))
    finally:
        if not args.keep_script:
            os.unlink(path)
    sc = final.scores()
    print("true position: %s" % final.notation())
    print("scores: " + " ".join("%s=%d" % ("SWNE"[s], sc[s]) for s in final.seats))
    print("demo %s" % ("ok: the board tracked every move" if status == 0 else "FAILED"))
    return status


def add_parser(sub):
    p = sub.add_parser("demo", help="play a seeded game on the virtual board",
                       description=__doc__.strip().splitlines()[0],
                       epilog="examples:\n  cargoboard demo\n"
                              "  cargoboard demo --players 3 --actions 60 --seed 2 --purposeful")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--actions", type=int, default=30, help="actions to play (default 30)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--purposeful", action="store_true",
                   help="play mostly the hint's choice (default: legal actions at random)")
    p.add_argument("--verbose", action="store_true", help="print everything the script prints")
    p.add_argument("--keep-script", action="store_true", help="keep the generated sim script")
    p.set_defaults(func=cmd_demo)
