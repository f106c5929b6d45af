"""Which rules module plays which game kind (the host's side of firmware/games/__init__.py).

The kinds are the games of shared_rules/versions.py (the one table of rules versions, one line
per game) and each one's rules core is `shared_rules/<kind>/rules.py`: a new game adds its line
there, not here. `register(kind, module)` adds a rules module at run time (the tests' toy game).

Every module named here has the python-chess-like face of shared_rules.cargocube.rules:
`Position.parse(text)`, `pos.notation()`, `pos.legal_actions()`, `pos.push/pop`,
`pos.parse_action(text)`, `pos.format_action(action)`, `pos.is_over()`, `pos.scores()`,
`pos.winners()`, `encode_action(a)`, `decode_action(pos, buf, offset)`, `perft(pos, depth)`.
"""

import importlib

from cargoboard.clikit import InputError
from shared_rules import versions

MODULES = {kind: "shared_rules.%s.rules" % kind for kind, _ in versions.RULES}


class UnknownGame(InputError):
    pass


def register(kind, module):
    """Play `kind` with the rules module named `module` (a dotted import path)."""
    MODULES[kind] = module


def kinds():
    return sorted(MODULES)


def rules_for(kind):
    """The rules module for a game kind; UnknownGame (a ValueError) names the known kinds."""
    name = MODULES.get(kind)
    if name is None:
        raise UnknownGame("unknown game '%s' (known: %s)" % (kind, ", ".join(kinds())))
    return importlib.import_module(name)


def boot_game():
    """The game a board plays when it starts: the first entry of the firmware's plug-in registry
    (firmware/games/__init__.py). The host's default game too: `perft`, `legal` and `show`
    without --game, a sim script before its first new-game."""
    from firmware.games import REGISTRY
    return REGISTRY[0][0]


def mover(pos):
    """The letter of the seat that acts in pos, '-' at a chance node (a card shown: «Формула
    99»), '' when the game is over."""
    if pos.is_over():
        return ""
    who = pos.to_move
    return "-" if who < 0 else pos.SEAT_LETTERS[who]


def turn_letter(pos):
    """The letter of the seat whose turn it is (another seat may act within it: «Формула 99»'s
    answers and owners' choices). A game where that can differ from to_move says so with a
    `turn_seat` (КУБитва's `turn` is a turn number, not a seat)."""
    seat = getattr(pos, "turn_seat", None)
    return pos.SEAT_LETTERS[pos.to_move if seat is None else seat]


def seat_letters(pos):
    """Letters naming pos's seats by seat int: 'SWNE' (Cargocube), 'wb' (Cephalopod: 0 white,
    1 black), from the rules module's Position."""
    return pos.SEAT_LETTERS


def rules_errors():
    """The RulesError classes of every registered rules module (the CLI reports them as one
    line)."""
    return tuple(importlib.import_module(name).RulesError for name in MODULES.values())

