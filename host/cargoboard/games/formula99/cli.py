"""`cargoboard play formula99`: the hot-seat game in the terminal (hotseat.py); and «Формула 99»'s
part of `perft`, `legal` and `show`: the word 'start' and its options --level, --seed (and
Cargocube's --players, which it takes too).

    cargoboard play formula99 --players 4 --level 2 --engine 37 --save game.json
    cargoboard perft --game formula99 start 4 --players 4 --level 2
"""

import sys


# What a POSITION of `perft`, `legal` and `show` may be for «Формула 99».
POSITION_HELP = "its notation, or 'start'"

# The options of `perft`, `legal` and `show` that are «Формула 99»'s (as argparse takes them,
# in the order of the help), and another game's option it takes too, with what it means here
# (added to that option's help).
START_OPTIONS = (
    ("--level", dict(type=int, default=None,
                     help="formula99's 'start': the level of the cards, 1-3 (default 1)")),
    ("--seed", dict(type=int, default=None,
                    help="formula99's 'start': deal the cards from the seeded deck (the full "
                         "view: every card known); without it the public start")),
)
SHARED_START_OPTIONS = {"--players": "formula99's 'start': 2-9"}

EXAMPLES = {"perft": ("cargoboard perft --game formula99 start 4 --players 4 --level 2",)}


def reject_start_options(args, taken):
    """Refuse «Формула 99»'s start options for another game's position, except those in
    `taken` (the flags that game takes itself)."""
    from cargoboard.clikit import apply_only_to
    foreign = [flag for flag, _ in START_OPTIONS if flag not in taken]
    if any(getattr(args, flag[2:]) is not None for flag in foreign):
        raise apply_only_to(foreign, "formula99")


def load_position(text, args):
    """A position from the notation, or the start for the word 'start' with args.players,
    args.level and args.seed (the seeded deal: every card known)."""
    from cargoboard.clikit import UsageError
    from shared_rules.formula99 import rules
    players, level, seed = args.players, args.level, args.seed
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


def cmd_play(args):
    from cargoboard.clikit import UsageError
    from cargoboard.export import gamefile
    from cargoboard.games.formula99.hotseat import HotSeat, Quit
    if not 2 <= args.players <= 9:
        raise UsageError("--players: 2 to 9")
    if args.seed is not None and not 0 <= args.seed < 2 ** 31:
        raise UsageError("--seed: 0 to 2^31 - 1")
    if not 1 <= args.samples <= MAX_SAMPLES:  # none: the first legal action, unweighed
        raise UsageError("--samples: 1 to %d" % MAX_SAMPLES)
    if args.save:
        gamefile.check_save_file(args.save)
    try:
        game = HotSeat(args.players, args.level, args.seed, args.engine or "",
                       samples=args.samples, clear=_clearer())
    except ValueError as e:  # an --engine seat that is not in play
        raise UsageError(str(e)) from None
    try:
        game.run()
        status = 0
    except (Quit, EOFError):
        print("\nGame left after %d actions." % game.pos.ply())
        status = 0
    except KeyboardInterrupt:
        print("\nGame left after %d actions." % game.pos.ply())
        status = 130
    if args.save:
        save(game, args.save)
        print("saved to %s (cargoboard import %s puts it into the store)" % (args.save,
                                                                            args.save))
    return status


def save(game, path):
    """Write the game (even unfinished) as a game file, JSON or text by the suffix: the public
    game, the hidden cards revealed at its end (docs/export.md)."""
    from cargoboard.export import gamefile
    from cargoboard.store import GameRecord
    start, texts = game.record()
    rec = GameRecord("formula99", "L%d" % game.pos.level, game.pos.SEAT_LETTERS, start, texts,
                     source="play", played=getattr(game, "played", None))
    gamefile.save_game(rec, path)


def _clearer():
    if sys.stdout.isatty():
        # the scrollback too (3J): what the last player saw must not be there to scroll back to
        return lambda: print("\033[3J\033[2J\033[H", end="")
    return None


def add_play_parser(playsub):
    """`cargoboard play formula99` (the command `play` is the CLI's, one sub-command a game)."""
    p = playsub.add_parser(
        "formula99", help="hot seat, engines for any seats",
        description="Play «Формула 99» in the terminal: each player sees only their own hand "
                    "(a hand-over screen between players); engines may take any seats.",
        epilog="examples:\n  cargoboard play formula99 --players 3 --level 2\n"
               "  cargoboard play formula99 --players 4 --engine 357 --save game.json\n"
               "  cargoboard play formula99 --players 4 --engine all --seed 7   (watch four "
               "engines)")
    p.add_argument("--players", type=int, default=2, help="2 to 9 (default 2)")
    p.add_argument("--level", type=int, choices=(1, 2, 3), default=1,
                   help="the cards' level (default 1)")
    p.add_argument("--engine", metavar="SEATS", default="",
                   help="civilisations played by the engine: their digits (e.g. 37), or all")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this seed (the same seed deals the same cards); default "
                        "random, printed")
    p.add_argument("--samples", type=int, default=4, help=argparse_samples_help())
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the game to FILE when it ends or is left: JSON for a name "
                        "ending in .json, the text record for .txt (as `cargoboard import` "
                        "reads them); an existing FILE is refused")
    p.set_defaults(func=cmd_play)


# The engine's decision costs about 1 ms of CPU per sample (docs/rules/formula99.md, the
# engine: 3.1-4.5 ms with 4); 256 make some 0.3 s a decision, and a far larger number never
# ends a game.
MAX_SAMPLES = 256


def argparse_samples_help():
    return ("the engine's samples of the hidden cards per decision, 1 to %d (default 4; each "
            "costs about 1 ms a decision)" % MAX_SAMPLES)
