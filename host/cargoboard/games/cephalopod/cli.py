"""`cargoboard cephalopod ...`: Cephalopod analysis on the host.

    cargoboard cephalopod paths DEPTH ROWS      the CodinGame Spring Challenge 2025 sum
    cargoboard cephalopod hint POSITION         the engine's choice for the side to move

(`perft`, `legal` and `show` take `--game cephalopod`.)
"""

import time

from shared_rules.cephalopod import rules as ce

# What a POSITION of `perft`, `legal` and `show` may be for this game (the CLI's generic
# load: the rules' named_position, else the notation).
POSITION_HELP = "its notation, or 5x5, 3x5, 5x3, 3x3 for the empty board"


def cmd_paths(args):
    from cargoboard.clikit import CommandError, UsageError
    from cargoboard.games.cephalopod.paths import parse_rows, paths

    if args.depth < 0:
        raise UsageError("DEPTH must be 0 or more, not %d" % args.depth)
    try:
        words = args.rows
        # three words without a '/' are the rows ('0 6 0' '2 2 2' '1 6 1', 060 222 161); else
        # the words are one board split by the shell ('0 6 0/2 2 2/1 6 1' unquoted)
        separate = len(words) == 3 and not any("/" in w for w in words)
        cells = parse_rows("/".join(words) if separate else " ".join(words))
    except ValueError as e:
        raise CommandError(str(e)) from None
    t0 = time.perf_counter()
    print(paths(args.depth, cells))
    if args.time:
        print("time %.3f s" % (time.perf_counter() - t0))
    return 0


# The engine's search grows about 8 times a ply: from the 5x5 start depth 8 took 7 s on the
# shared machine (CPython), depth 9 55 s, and more never ends for the user.
MAX_HINT_DEPTH = 8


def cmd_hint(args):
    from cargoboard.clikit import CommandError, UsageError, read_named_position
    from shared_rules.cephalopod.engine import best_action

    if not 1 <= args.depth <= MAX_HINT_DEPTH:
        raise UsageError("--depth must be 1 to %d, not %d (each ply costs about 8 times the "
                         "one before)" % (MAX_HINT_DEPTH, args.depth))
    pos = read_named_position(ce, args.position, POSITION_HELP)
    a = best_action(pos, args.depth)
    if a is None:
        raise CommandError("the game is over: no action to suggest")
    print(pos.format_action(a))
    return 0


def add_parser(sub):
    p = sub.add_parser("cephalopod", help="Cephalopod analysis: paths, hint",
                       description=__doc__.strip().splitlines()[0],
                       epilog="examples:\n  cargoboard cephalopod paths 20 '0 6 0/2 2 2/1 6 1'\n"
                              "  cargoboard cephalopod hint 5x5\n"
                              "  cargoboard perft --game cephalopod 5x5 3")
    csub = p.add_subparsers(dest="cephalopod_command", metavar="WHAT")
    csub.required = True

    q = csub.add_parser(
        "paths", help="sum of the final boards' hashes over all placement sequences",
        description="CodinGame Spring Challenge 2025 on a 3x3 board (dice without colour): "
                    "every sequence of up to DEPTH placements (a sequence ends early when the "
                    "board is full); each final board read left to right, top to bottom as a "
                    "9-digit number (empty = 0); print the sum modulo 2^30.",
        epilog="examples:\n  cargoboard cephalopod paths 1 '5 5 5/0 0 5/5 5 5'\n"
               "  cargoboard cephalopod paths 24 300/362/102 --time")
    q.add_argument("depth", metavar="DEPTH", type=int,
                   help="the most placements in a sequence")
    q.add_argument("rows", metavar="ROWS", nargs="+",
                   help="the board's 3 rows, values 0-6 (0 = empty): one word with '/' "
                        "between them ('0 6 0/2 2 2/1 6 1', 060/222/161) or three words "
                        "('0 6 0' '2 2 2' '1 6 1', 060 222 161)")
    q.add_argument("--time", action="store_true", help="also print the time taken")
    q.set_defaults(func=cmd_paths)

    q = csub.add_parser("hint", help="the engine's action for the side to move",
                        description="Print the action the engine (shared_rules."
                                    "cephalopod.engine) chooses in POSITION.",
                        epilog="examples:\n  cargoboard cephalopod hint 5x5\n"
                               "  cargoboard cephalopod hint '.w1./b1.b1/.w1. w' --depth 3")
    q.add_argument("position", metavar="POSITION",
                   help="a Cephalopod position (quote it), or 5x5, 3x5, 5x3, 3x3 for the start")
    q.add_argument("--depth", type=int, default=2, help="search depth in plies, 1 to %d (default 2)" % MAX_HINT_DEPTH)
    q.set_defaults(func=cmd_hint)
