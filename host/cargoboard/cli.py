"""The `cargoboard` command: one entry point for the host tools.

Exit codes: 0 success, 1 the command ran and found a problem (bad position, illegal action,
a failed script line, an unknown game, a malformed file), 2 wrong usage (argparse). A problem is
one line on stderr; `--debug` shows its traceback instead.
"""

import argparse
import sqlite3
import sys

from cargoboard import rules as game_rules
from shared_rules.cargocube import rules as cc
from cargoboard.link import LinkError
from cargoboard.store import StoreError, score_text, winners_text
from cargoboard.deploy import DeployError


class HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions and epilogs as usual but keeps indented lines (the examples) as
    written. Every subcommand gets it (build_parser), so modules only write `epilog=`."""

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line if line.startswith("  ") else
                         super(HelpFormatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


class CommandError(Exception):
    """A failure the user can act on: printed as one line, exit code 1."""


EXPANSIONS = ("pyramid", "bastion", "both")


def load_position(text, players=2, cards=False, game="cargocube", expansion=None,
                  teleport=False):
    """A position from the rulings notation, or the start for the word 'polygon' (Cephalopod:
    its notation, or a board size such as '5x5' for the empty board). cards: the base cards in
    their default places; expansion: "pyramid", "bastion" or "both", that layout of cards;
    teleport: the walking teleport on the centre."""
    start_options = players != 2 or cards or expansion or teleport
    if game != "cargocube":
        rules = game_rules.rules_for(game)
        if start_options:
            raise CommandError("--players, --cards, --expansion and --teleport apply to "
                               "cargocube only")
        named = rules.named_position(text.strip().lower())
        return named if named is not None else rules.Position.parse(text)
    if cards and expansion:
        raise CommandError("--cards lays the base cards, --expansion %s its own layout: "
                           "give one of them" % expansion)
    if text.strip().lower() == "polygon":
        return cc.start_position(players=players, layout="polygon",
                                 cards=expansion or cards, teleport=teleport)
    if start_options:
        raise CommandError("--players, --cards, --expansion and --teleport apply to the "
                           "'polygon' start only; write the position in the notation")
    return cc.Position.parse(text)


def _add_position_args(p):
    p.add_argument("position", metavar="POSITION",
                   help="a position in the rulings notation (quote it), or 'polygon' for the start "
                        "(cephalopod: its notation, or 5x5, 3x5, 5x3, 3x3 for the empty board)")
    p.add_argument("--game", choices=game_rules.kinds(), default="cargocube",
                   help="the game whose rules apply (default cargocube)")
    p.add_argument("--players", type=int, choices=(2, 3, 4, 8), default=2,
                   help="players for the 'polygon' start (default 2; 8: the 8-player variant, "
                        "seats 1-8)")
    p.add_argument("--cards", action="store_true",
                   help="with 'polygon': lay each player's base cards in the default places")
    p.add_argument("--expansion", choices=EXPANSIONS,
                   help="with 'polygon': lay the cards of «Пирамида», «Бастион» or both in "
                        "their default places")
    p.add_argument("--teleport", action="store_true",
                   help="with 'polygon': the walking teleport on the centre")


def _load(args):
    return load_position(args.position, args.players, args.cards, args.game, args.expansion,
                         args.teleport)


def cmd_perft(args):
    pos = _load(args)
    perft = game_rules.rules_for(args.game).perft
    if args.depth < 0:
        raise CommandError("DEPTH must be 0 or more")
    if args.divide and args.depth >= 1:
        total = 0
        for a in pos.legal_actions():
            pos.push(a)
            n = perft(pos, args.depth - 1)
            pos.pop()
            total += n
            print("%s %d" % (pos.format_action(a), n))
        print(total)
    else:
        print(perft(pos, args.depth))
    return 0


def cmd_legal(args):
    pos = _load(args)
    for a in pos.legal_actions():
        print(pos.format_action(a))
    return 0


def cmd_show(args):
    pos = _load(args)
    for text in args.actions:
        pos.push(pos.parse_action(text))
    print(pos.notation())
    print("scores " + score_text(pos))
    if pos.is_over():
        print("over, winners " + winners_text(pos))
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="cargoboard", formatter_class=HelpFormatter,
        description="Cargoboard host tools: the Cargocube rules, the virtual board and more.",
        epilog="example:\n  cargoboard perft polygon 2\n"
               "`cargoboard COMMAND --help` shows each command's options and examples.")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, show the traceback instead of one line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("perft", help="count legal action sequences of a given depth",
                       description="Print perft(POSITION, DEPTH) on the last line.",
                       epilog="examples:\n  cargoboard perft polygon 3 --cards\n"
                              "  cargoboard perft polygon 3 --expansion both --teleport --players 8\n"
                              "  cargoboard perft 'd4=B1,e4=B1,f1=KS,f11=KN SN S a' 2 --divide")
    _add_position_args(p)
    p.add_argument("depth", metavar="DEPTH", type=int)
    p.add_argument("--divide", action="store_true", help="also print the count below each action")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("legal", help="list the legal actions, one per line",
                       description="List the legal actions of POSITION in the action notation.",
                       epilog="examples:\n  cargoboard legal polygon --players 3\n"
                              "  cargoboard legal 'd5=21.1O,e5=*wS SN S 2'\n"
                              "  cargoboard legal 'f1=KS,c5=B1.B1,d5=*cS,f11=KN SN S 2'")
    _add_position_args(p)
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("show", help="apply actions to a position and print the result",
                       description="Apply ACTIONS (action notation) to POSITION; print the "
                                   "position, the scores and whether the game is over.",
                       epilog="examples:\n  cargoboard show --players 3 polygon e4s end\n"
                              "  cargoboard show polygon --expansion bastion e3w j1@f1 end")
    _add_position_args(p)
    p.add_argument("actions", metavar="ACTION", nargs="*")
    p.set_defaults(func=cmd_show)

    for register in _plugin_parsers():
        register(sub)
    for p in sub.choices.values():  # --debug also after the command name
        p.formatter_class = HelpFormatter
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="on an error, show the traceback instead of one line")
    return parser


# Subcommands that live in their own modules: each module has `add_parser(sub)`. After them
# come the games' own (each game's `cli` part, cargoboard/games/<kind>/cli.py).
PLUGIN_MODULES = (
    "cargoboard.sim",
    "cargoboard.demo",
    "cargoboard.sync_cli",
    "cargoboard.deploy",
    "cargoboard.export.cli",
    "cargoboard.web",
)


def _plugin_parsers():
    import importlib
    from cargoboard import games
    names = list(PLUGIN_MODULES) + games.parts("cli")
    return [importlib.import_module(name).add_parser for name in names]


def main(argv=None):
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # `show POSITION --players 3 e4s end`: actions may also follow the options.
        if getattr(args, "func", None) is cmd_show and not any(x.startswith("-") for x in extra):
            args.actions = list(args.actions) + extra
        else:
            parser.error("unrecognized arguments: %s" % " ".join(extra))
    try:
        return args.func(args) or 0
    except BrokenPipeError:  # an OSError: before the clause below
        return 0
    except (CommandError, LinkError, StoreError, DeployError, ValueError, OSError,
            sqlite3.Error) + game_rules.rules_errors() as exc:
        if args.debug:
            raise
        print("cargoboard: error: %s" % (str(exc).splitlines() or [type(exc).__name__])[0],
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
