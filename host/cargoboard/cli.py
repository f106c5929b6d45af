"""The `cargoboard` command: one entry point for the host tools.

Exit codes: 0 success, 1 the command ran and found a problem (bad position, illegal action,
a failed script line, an unknown game, a malformed file), 2 wrong usage (argparse's, and
clikit.UsageError: options out of range or that do not fit together), 130 Ctrl-C, 143 SIGTERM
(where a command takes it as Ctrl-C: clikit.Terminated). A problem is one line on stderr;
`--debug` shows its traceback instead. A problem is an error of the kinds main() names
(CommandError, clikit.InputError, LinkError, ...); any other exception, a bare ValueError
among them, is a bug: its traceback, exit code 1.
"""

import argparse
import os
import sqlite3
import sys

from cargoboard import rules as game_rules
from cargoboard.link import LinkError
from cargoboard.store import StoreError, default_path, score_text, store_error, winners_text
from cargoboard.deploy import DeployError
from cargoboard.clikit import (ArgumentParser, CommandError, HelpFormatter, InputError,
                               Terminated, UsageError, error_text, read_named_position,
                               read_position)


# The game of `perft`, `legal` and `show` without --game: the board's boot game.
DEFAULT_GAME = game_rules.boot_game()


def _start_parts():
    """(kind, its `cli` part) of each game that has one, in the registry's order: what a
    POSITION may be for it and the start options it owns (see _add_position_args)."""
    from cargoboard import games
    return [(kind, games.part(kind, "cli")) for kind in games.kinds()
            if games.has_part(kind, "cli")]


def load_position(args):
    """args.position for args.game: the game's `cli` part reads it (its notation or a start
    word, with its start options) or, if it has no `load_position`, its rules module
    (`named_position(word)`, else `Position.parse`). First every other game refuses its own
    start options that this game does not take; the default game's refusals come last (which
    message a mix of wrong options gets is a contract: the other games' single options are
    refused before the default game's --players is checked)."""
    from cargoboard import games
    own = games.part(args.game, "cli")
    taken = {flag for flag, _ in getattr(own, "START_OPTIONS", ())}
    taken.update(getattr(own, "SHARED_START_OPTIONS", {}))
    others = [(kind, part) for kind, part in _start_parts()
              if kind != args.game and hasattr(part, "reject_start_options")]
    for _, part in sorted(others, key=lambda other: other[0] == DEFAULT_GAME):
        part.reject_start_options(args, taken)
    if hasattr(own, "load_position"):
        return read_position(lambda text: own.load_position(text, args), args.position,
                             own.POSITION_HELP, game_rules.rules_errors())
    # (a game with no `cli` part, as the tests' toy: its notation or its rules' start words)
    position_help = getattr(own, "POSITION_HELP", "the game's notation or a start word")
    return read_named_position(game_rules.rules_for(args.game), args.position, position_help)


def _add_position_args(p):
    """POSITION, --game and every game's start options (each game's `cli` part: its
    POSITION_HELP and START_OPTIONS; an option another game takes too gets that game's
    SHARED_START_OPTIONS note in its help)."""
    parts = _start_parts()
    default_help = dict(parts)[DEFAULT_GAME].POSITION_HELP
    others = ["%s: %s" % (kind, part.POSITION_HELP) for kind, part in parts
              if kind != DEFAULT_GAME and hasattr(part, "POSITION_HELP")]
    p.add_argument("position", metavar="POSITION",
                   help="%s (%s)" % (default_help, "; ".join(others)) if others else default_help)
    p.add_argument("--game", choices=game_rules.kinds(), default=DEFAULT_GAME,
                   help="the game whose rules apply (default %s)" % DEFAULT_GAME)
    notes = {}
    for _, part in parts:
        for flag, note in getattr(part, "SHARED_START_OPTIONS", {}).items():
            notes.setdefault(flag, []).append(note)
    for _, part in parts:
        for flag, options in getattr(part, "START_OPTIONS", ()):
            options = dict(options, help="; ".join([options["help"]] + notes.get(flag, [])))
            p.add_argument(flag, **options)


def _examples(command):
    """The epilog of `perft`, `legal` or `show`: each game's EXAMPLES of it, registry order."""
    return "examples:\n" + "\n".join("  " + line for _, part in _start_parts()
                                      for line in getattr(part, "EXAMPLES", {}).get(command, ()))


# perft walks DEPTH actions deep by recursion: Python's stack holds about 1000 frames, and
# counting every sequence of 100 actions is out of reach anyway (it grows exponentially).
MAX_PERFT_DEPTH = 100


def cmd_perft(args):
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise UsageError("DEPTH must be 0..%d, not %d (perft counts every sequence of DEPTH "
                         "actions: it grows exponentially with the depth)"
                         % (MAX_PERFT_DEPTH, args.depth))
    pos = load_position(args)
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
    pos = load_position(args)
    for a in pos.legal_actions():
        print(pos.format_action(a))
    return 0


def cmd_show(args):
    pos = load_position(args)
    for text in args.actions:
        pos.push(pos.parse_action(text))
    print(pos.notation())
    print("scores " + score_text(pos))
    if pos.is_over():
        print("over, winners " + winners_text(pos))
    return 0


def build_parser():
    parser = ArgumentParser(
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
                       epilog=_examples("perft"))
    _add_position_args(p)
    p.add_argument("depth", metavar="DEPTH", type=int,
                   help="the number of actions, 0..%d" % MAX_PERFT_DEPTH)
    p.add_argument("--divide", action="store_true", help="also print the count below each action")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("legal", help="list the legal actions, one per line",
                       description="List the legal actions of POSITION in the action notation.",
                       epilog=_examples("legal"))
    _add_position_args(p)
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("show", help="apply actions to a position and print the result",
                       description="Apply ACTIONS (action notation) to POSITION; print the "
                                   "position, the scores and whether the game is over.",
                       epilog=_examples("show"))
    _add_position_args(p)
    p.add_argument("actions", metavar="ACTION", nargs="*",
                   help="actions in the game's action notation, applied in order (none: the "
                        "position as given)")
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
# What a command module of the core is handed from a layer above it, by the name its
# add_parser takes (a core module imports nothing above it: tests/test_host_layers.py):
# `deploy --flash DIR` puts the firmware on the virtual board's flash, the sim layer's.
PLUGIN_PARTS = {
    "cargoboard.deploy": {"flash": "cargoboard.sim.flashdeploy"},
}


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
    """Every command's parser, with the sub-commands' below them (`play GAME`)."""
    for p in sub.choices.values():
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                yield from _all_parsers(action)


def _plugin_parsers():
    import functools
    import importlib
    from cargoboard import games
    names = list(PLUGIN_MODULES) + games.parts("cli")
    adders = []
    for name in names:
        add = getattr(importlib.import_module(name), "add_parser", None)
        if add is None:
            continue  # a game's cli part may have only a `play` sub-command (add_play_parser)
        parts = {arg: importlib.import_module(part)
                 for arg, part in PLUGIN_PARTS.get(name, {}).items()}
        adders.append(functools.partial(add, **parts) if parts else add)
    return adders


def _check_standard_streams():
    """CommandError if standard output is closed (`>&-`: Python then has no sys.stdout, and
    every print would vanish or fail midway, after files were made); a closed standard
    input reads as empty, so interactive commands end as at the end of their input."""
    if sys.stdout is None:
        raise CommandError("standard output is closed")
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # takes the free descriptor 0: children read nothing too


def main(argv=None):
    try:
        _check_standard_streams()
    except CommandError as exc:
        print("cargoboard: error: %s" % exc, file=sys.stderr)
        return 1
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except BrokenPipeError:  # `--help | head`: the reader has what it wanted, as below
        return 0
    except OSError as exc:  # `--help > /dev/full` (ArgumentParser._print_message)
        print("cargoboard: error: %s" % error_text(exc), file=sys.stderr)
        return 1
    except UsageError as exc:  # an empty name for a file (ArgumentParser.parse_known_args)
        print("%s: error: %s" % (getattr(exc, "prog", "cargoboard"), exc), file=sys.stderr)
        return 2
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
    except (CommandError, InputError, LinkError, StoreError, DeployError, OSError,
            sqlite3.Error) + game_rules.rules_errors() as exc:
        if args.debug:
            raise
        if isinstance(exc, sqlite3.Error) and hasattr(args, "db"):
            # SQLite's words alone ("database disk image is malformed") name no file: the
            # store's reads fail so when the file opens but its games are damaged
            exc = store_error(args.db if args.db is not None else default_path(), exc)
        print("cargoboard: error: %s" % error_text(exc), file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt as exc:
        return 143 if isinstance(exc, Terminated) else 130


if __name__ == "__main__":
    sys.exit(main())
