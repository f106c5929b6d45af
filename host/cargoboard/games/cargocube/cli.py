"""Cargocube's own commands on the host, and its part of the commands every game shares:

    cargoboard demo [--out DIR]     a whole game on the virtual board, synced and exported
                                    (what `make demo` runs; cargoboard.games.cargocube.demo)
    cargoboard perft|legal|show     the word 'polygon' for the start and its options --players,
                                    --cards, --expansion, --teleport (START_OPTIONS; cargoboard.cli
                                    asks each game's cli part for its start, see load_position)
"""

from cargoboard.clikit import UsageError, apply_only_to

EXPANSIONS = ("pyramid", "bastion", "both")
PLAYERS = (2, 3, 4, 8)

# What a POSITION of `perft`, `legal` and `show` may be for Cargocube (the default game: the
# other games' words follow it in the help).
POSITION_HELP = "a position in the rulings notation (quote it), or 'polygon' for the start"

# The options of `perft`, `legal` and `show` that are Cargocube's, as argparse takes them, in
# the order of the help. Another game's cli part may take one too (its SHARED_START_OPTIONS).
START_OPTIONS = (
    ("--players", dict(type=int, default=None,
                       help="players for the 'polygon' start: 2, 3, 4 or 8 (default 2; 8: the "
                            "8-player variant, seats 1-8)")),
    ("--cards", dict(action="store_true",
                     help="with 'polygon': lay each player's base cards in the default places")),
    ("--expansion", dict(choices=EXPANSIONS,
                         help="with 'polygon': lay the cards of «Пирамида», «Бастион» or both in "
                              "their default places")),
    ("--teleport", dict(action="store_true",
                        help="with 'polygon': the walking teleport on the centre")),
)

EXAMPLES = {
    "perft": ("cargoboard perft polygon 3 --cards",
              "cargoboard perft polygon 3 --expansion both --teleport --players 8",
              "cargoboard perft 'f1=KS,d4=B1,e4=B1,f11=KN SN S a' 2 --divide"),
    "legal": ("cargoboard legal polygon --players 3",
              "cargoboard legal 'd5=21.1O,e5=*wS SN S 2'",
              "cargoboard legal 'f1=KS,c5=B1.B1,d5=*cS,f11=KN SN S 2'"),
    "show": ("cargoboard show --players 3 polygon e4s end",
             "cargoboard show polygon --expansion bastion e3w j1@f1 end"),
}


def _check_players(players):
    if players is not None and players not in PLAYERS:
        raise UsageError("--players: 2, 3, 4 or 8 for cargocube")


def _given(args):
    """Cargocube's start options given in args, by flag (--players 2 is the default start)."""
    return {"--players": (args.players or 2) != 2, "--cards": args.cards,
            "--expansion": bool(args.expansion), "--teleport": args.teleport}


def reject_start_options(args, taken):
    """Refuse Cargocube's start options for another game's position, except those in `taken`
    (the flags that game takes itself)."""
    if "--players" not in taken:
        _check_players(args.players)
    foreign = [flag for flag, _ in START_OPTIONS if flag not in taken]
    given = _given(args)
    if any(given[flag] for flag in foreign):
        raise apply_only_to(foreign, "cargocube")


def load_position(text, args):
    """A position from the rulings notation, or the start for the word 'polygon' with
    args.players, args.cards (the base cards in their default places), args.expansion
    ("pyramid", "bastion" or "both", that layout of cards) and args.teleport (the walking
    teleport on the centre)."""
    from shared_rules.cargocube import rules as cc
    _check_players(args.players)
    if args.cards and args.expansion:
        raise UsageError("--cards lays the base cards, --expansion %s its own layout: "
                         "give one of them" % args.expansion)
    if text.strip().lower() == "polygon":
        return cc.start_position(players=args.players or 2, layout="polygon",
                                 cards=args.expansion or args.cards, teleport=args.teleport)
    if any(_given(args).values()):
        raise UsageError("--players, --cards, --expansion and --teleport apply to the "
                         "'polygon' start only; write the position in the notation")
    return cc.Position.parse(text)


def add_parser(sub):
    """`cargoboard demo`."""
    from cargoboard.games.cargocube import demo
    demo.add_parser(sub)
