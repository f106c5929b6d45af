"""Which rules module plays which game kind (the host's side of firmware/games.py).

Every module named here has the python-chess-like face of shared_rules.cargocube:
`Position.parse(text)`, `pos.notation()`, `pos.legal_actions()`, `pos.push/pop`,
`pos.parse_action(text)`, `pos.format_action(action)`, `pos.is_over()`, `pos.scores()`,
`pos.winners()`, `encode_action(a)`, `decode_action(pos, buf, offset)`, `perft(pos, depth)`.
"""

import importlib

MODULES = {
    "cargocube": "shared_rules.cargocube",
    "cephalopod": "shared_rules.cephalopod",
    "formula99": "shared_rules.formula99.rules",
}


class UnknownGame(ValueError):
    pass


def kinds():
    return sorted(MODULES)


def rules_for(kind):
    """The rules module for a game kind; UnknownGame (a ValueError) names the known kinds."""
    name = MODULES.get(kind)
    if name is None:
        raise UnknownGame("unknown game '%s' (known: %s)" % (kind, ", ".join(kinds())))
    return importlib.import_module(name)


def mover(pos):
    """The letter of the seat that acts in pos, '-' at a chance node (a card shown: «Формула
    99»), '' when the game is over."""
    if pos.is_over():
        return ""
    who = pos.to_move
    return "-" if who < 0 else pos.SEAT_LETTERS[who]


def turn_letter(pos):
    """The letter of the seat whose turn it is (another seat may act within it: «Формула 99»'s
    answers and owners' choices)."""
    return pos.SEAT_LETTERS[getattr(pos, "turn", pos.to_move)]


def seat_letters(pos):
    """Letters naming pos's seats by seat int: 'SWNE' (Cargocube), 'wb' (Cephalopod: 0 white,
    1 black), from the rules module's Position."""
    return pos.SEAT_LETTERS


def rules_errors():
    """The RulesError classes of every registered rules module (the CLI reports them as one
    line)."""
    return tuple(importlib.import_module(name).RulesError for name in MODULES.values())


# How a kind's records are shown, when it hides information until the end (docs/export.md):
# a module with shown(rec, positions) and restore(start, actions, reveal).
RECORD_VIEWS = {
    "formula99": "cargoboard.games.formula99.record",
}


def record_view(kind):
    name = RECORD_VIEWS.get(kind)
    return importlib.import_module(name) if name else None
