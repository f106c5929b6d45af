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
from cargoboard.clikit import CommandError, HelpFormatter, UsageError, error_text


EXPANSIONS = ("pyramid", "bastion", "both")
CARGOCUBE_PLAYERS = (2, 3, 4, 8)


def load_position(text, players=None, cards=False, game="cargocube", expansion=None,
                  teleport=False, level=None, seed=None):
    """A position from the rulings notation, or the start for the word 'polygon' (Cephalopod:
    its notation, or a board size such as '5x5' for the empty board; КУБитва: its notation, or
    'board' / 'full' for a map's start; «Формула 99»: its notation, or 'start' with players,
    level and seed). cards: the base cards in their default places;
    expansion: "pyramid", "bastion" or "both", that layout of cards; teleport: the walking
    teleport on the centre."""
    if game == "formula99":
        if cards or expansion or teleport:
            raise UsageError("--cards, --expansion and --teleport apply to cargocube only")
        return _load_formula99(text, players, level, seed)
    if level is not None or seed is not None:
        raise UsageError("--level and --seed apply to formula99 only")
    if players is not None and players not in CARGOCUBE_PLAYERS:
        raise UsageError("--players: 2, 3, 4 or 8 for cargocube")
    players = players or 2
    start_options = players != 2 or cards or expansion or teleport
    if game != "cargocube":
        rules = game_rules.rules_for(game)
        if start_options:
            raise UsageError("--players, --cards, --expansion and --teleport apply to "
                               "cargocube only")
        named = rules.named_position(text.strip().lower())
        return named if named is not None else rules.Position.parse(text)
    if cards and expansion:
        raise UsageError("--cards lays the base cards, --expansion %s its own layout: "
                           "give one of them" % expansion)
    if text.strip().lower() == "polygon":
        return cc.start_position(players=players, layout="polygon",
                                 cards=expansion or cards, teleport=teleport)
    if start_options:
        raise UsageError("--players, --cards, --expansion and --teleport apply to the "
                           "'polygon' start only; write the position in the notation")
    return cc.Position.parse(text)


def _load_formula99(text, players, level, seed):
    rules = game_rules.rules_for("formula99")
    if text.strip().lower() == "start":
        players = 2 if players is None else players
        if not 2 <= players <= 9:
            raise UsageError("--players: 2 to 9 for formula99")
        if level is not None and level not in (1, 2, 3):
            raise UsageError("--level: 1, 2 or 3")
        if seed is not None and not 0 <= seed < 2 ** 31:
            raise UsageError("--seed: 0 to 2^31 - 1")
        return rules.start_position(players, level or 1, seed)
    if players is not None or level is not None or seed is not None:
        raise UsageError("--players, --level and --seed apply to the word 'start'; "
                           "a position in the notation says them itself")
    return rules.Position.parse(text)


def _add_position_args(p):
    p.add_argument("position", metavar="POSITION",
                   help="a position in the rulings notation (quote it), or 'polygon' for the start "
                        "(cephalopod: its notation, or 5x5, 3x5, 5x3, 3x3 for the empty board; "
                        "kubitva: its notation, or 'board' / 'full' for the board edition's or "
                        "the full game's start; formula99: its notation, or 'start')")
    p.add_argument("--game", choices=game_rules.kinds(), default="cargocube",
                   help="the game whose rules apply (default cargocube)")
    p.add_argument("--players", type=int, default=None,
                   help="players for the 'polygon' start: 2, 3, 4 or 8 (default 2; 8: the "
                        "8-player variant, seats 1-8); formula99's 'start': 2-9")
    p.add_argument("--cards", action="store_true",
                   help="with 'polygon': lay each player's base cards in the default places")
    p.add_argument("--expansion", choices=EXPANSIONS,
                   help="with 'polygon': lay the cards of «Пирамида», «Бастион» or both in "
                        "their default places")
    p.add_argument("--teleport", action="store_true",
                   help="with 'polygon': the walking teleport on the centre")
    p.add_argument("--level", type=int, default=None,
                   help="formula99's 'start': the level of the cards, 1-3 (default 1)")
    p.add_argument("--seed", type=int, default=None,
                   help="formula99's 'start': deal the cards from the seeded deck (the full "
                        "view: every card known); without it the public start")


def _load(args):
    return load_position(args.position, args.players, args.cards, args.game, args.expansion,
                         args.teleport, args.level, args.seed)


# perft walks DEPTH actions deep by recursion: Python's stack holds about 1000 frames, and
# counting every sequence of 100 actions is out of reach anyway (it grows exponentially).
MAX_PERFT_DEPTH = 100


def cmd_perft(args):
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise UsageError("DEPTH must be 0..%d, not %d (perft counts every sequence of DEPTH "
                         "actions: it grows exponentially with the depth)"
                         % (MAX_PERFT_DEPTH, args.depth))
    pos = _load(args)
    perft = game_rules.rules_for(args.game).perft
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
                              "  cargoboard perft 'd4=B1,e4=B1,f1=KS,f11=KN SN S a' 2 --divide\n"
                              "  cargoboard perft --game formula99 start 4 --players 4 --level 2")
    _add_position_args(p)
    p.add_argument("depth", metavar="DEPTH", type=int,
                   help="the number of actions, 0..%d" % MAX_PERFT_DEPTH)
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
    _add_play_parser(sub)
    for p in _all_parsers(sub):  # --debug also after the command name
        p.formatter_class = HelpFormatter
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="on an error, show the traceback instead of one line")
    return parser


# Subcommands that live in their own modules: each module has `add_parser(sub)`. After them
# come the games' own (each game's `cli` part, cargoboard/games/<kind>/cli.py: Cargocube's
# `demo`, ...).
PLUGIN_MODULES = (
    "cargoboard.sim",
    "cargoboard.sync_cli",
    "cargoboard.deploy",
    "cargoboard.export.cli",
    "cargoboard.web",
)


def _add_play_parser(sub):
    """`cargoboard play GAME [options]`: one command, each game that can be played in the
    terminal adds its own sub-command with its own options (`add_play_parser(playsub)` in its
    `cli` part)."""
    import importlib
    from cargoboard import games
    adders = [getattr(importlib.import_module(name), "add_play_parser", None)
              for name in games.parts("cli")]
    adders = [a for a in adders if a is not None]
    if not adders:
        return
    p = sub.add_parser("play", help="play a game in the terminal (%s)" % ", ".join(
                           a.__module__.split(".")[-2] for a in adders),
                       description="Play a game in the terminal; `cargoboard play GAME --help` "
                                   "shows that game's options.",
                       epilog="examples:\n" + "".join(
                           "  cargoboard play %s --help\n" % a.__module__.split(".")[-2]
                           for a in adders))
    playsub = p.add_subparsers(dest="game", metavar="GAME")
    playsub.required = True
    for add in adders:
        add(playsub)


def _all_parsers(sub):
    """Every command's parser, with the sub-commands' below them (`play kubitva`)."""
    for p in sub.choices.values():
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                yield from _all_parsers(action)


def _plugin_parsers():
    import importlib
    from cargoboard import games
    names = list(PLUGIN_MODULES) + games.parts("cli")
    # A game's cli part may have only a `play` sub-command (add_play_parser).
    adders = [getattr(importlib.import_module(name), "add_parser", None) for name in names]
    return [a for a in adders if a is not None]


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
        print("cargoboard: error: %s" % error_text(exc), file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
