"""КУБитва's commands on the host (`perft`, `legal` and `show` take `--game kubitva`):

    cargoboard play kubitva [--map board|full] [--engine S|N|SN] [--save FILE]
                                                 two people at one computer (terminal)
    cargoboard kubitva hint POSITION             the engine's choice for the side to move
"""

from shared_rules.kubitva import rules as kb

# What a POSITION of `perft`, `legal` and `show` may be for this game (the CLI's generic
# load: the rules' named_position, else the notation).
POSITION_HELP = ("its notation, or 'board' / 'full' for the board edition's or the full game's "
                 "start")


def cmd_play(args):
    from cargoboard.games.kubitva import play
    return play.main(args)


def cmd_hint(args):
    from cargoboard.clikit import CommandError, read_named_position
    from shared_rules.kubitva.engine import best_action

    pos = read_named_position(kb, args.position, POSITION_HELP)
    a = best_action(pos)
    if a is None:
        raise CommandError("the game is over: no action to suggest")
    print(pos.format_action(a))
    return 0


def add_play_parser(playsub):
    """`cargoboard play kubitva` (the command `play` is the CLI's, one sub-command a game)."""
    maps = ", ".join(name for name, _ in kb.MAPS)
    p = playsub.add_parser(
        "kubitva", help="two people at one computer, or against the engine",
        description="Play КУБитва in the terminal: the board is drawn after every line; the "
                    "player to move types actions in the notation of docs/rules/kubitva.md "
                    "(several on a line) or legal, hint, undo, board, help, quit.",
        epilog="examples:\n  cargoboard play kubitva\n"
               "  cargoboard play kubitva --engine N --save game.txt\n"
               "  cargoboard play kubitva --map full --engine SN")
    p.add_argument("--map", default="board",
                   help="the start map: %s (default board, the 11x11 board edition)" % maps)
    p.add_argument("--position", help="start from this position (notation) instead of a map")
    p.add_argument("--engine", default="", metavar="SIDE",
                   help="the engine plays SIDE: S, N or SN (both)")
    p.add_argument("--save", metavar="FILE",
                   help="write the game to FILE when it ends or on quit: JSON for a name "
                        "ending in .json, the text record for .txt (as `cargoboard import` "
                        "reads them); an existing FILE is refused")
    p.add_argument("--no-color", action="store_true",
                   help="draw the board without colours (also when NO_COLOR is set; colours "
                        "only on a terminal)")
    p.set_defaults(func=cmd_play)


def add_parser(sub):
    maps = ", ".join(name for name, _ in kb.MAPS)
    p = sub.add_parser("kubitva", help="КУБитва analysis: hint",
                       description=__doc__.strip().splitlines()[0],
                       epilog="examples:\n  cargoboard kubitva hint board\n"
                              "  cargoboard perft --game kubitva board 3")
    ksub = p.add_subparsers(dest="kubitva_command", metavar="WHAT")
    ksub.required = True
    q = ksub.add_parser("hint", help="the engine's action for the side to move",
                        description="Print the action the engine (shared_rules/kubitva/"
                                    "engine.py) chooses in POSITION.",
                        epilog="example:\n  cargoboard kubitva hint board")
    q.add_argument("position", metavar="POSITION",
                   help="a КУБитва position (quote it), or a map word (%s) for its start" % maps)
    q.set_defaults(func=cmd_hint)
