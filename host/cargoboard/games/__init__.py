"""The host's game registry: game kind -> the package of its host parts (one line per game).

A game's package holds, under the same names for every game, what it has of:
`draw.py` (SVG and text pictures for the exports and the replay; the face is documented in
cargoboard.export.diagram), `hand.py` (the hand model: how a person's hands turn an action into
lifts and places), `play.py` (in-process play on the firmware's plug-in), `cli.py` (the
game's own subcommands: `add_parser(sub)`; a terminal game's `add_play_parser(playsub)` for
`cargoboard play GAME`; its part of `perft`, `legal` and `show`: `POSITION_HELP`, what a
POSITION may be; `START_OPTIONS`, its own options as argparse takes them, and
`SHARED_START_OPTIONS`, another game's it takes too; `reject_start_options(args, taken)`,
refusing its options for another game's position; `load_position(text, args)`, its start
word; `EXAMPLES`; cargoboard.cli), `world.py` (its pieces in the virtual board's world: the
start laid out, how a piece lands where a hand puts it, their names; cargoboard.sim.world; and
its own words after SEATS in a script's `new-game`, `new_game_words`, cargoboard.sim.script),
`live.py` (what `cargoboard serve` works out itself of a board it follows:
`mismatch_places(position, occupancy)`, for a game whose board's `state` loads code, «Формула 99»;
cargoboard.web.boards), `hallfield.py` (revision B's physics: what the board's linear Hall sensors read of its pieces;
only the game revision B is built for has one, and the sim asks for it with
`sole_part("hallfield")`), `build.py` (what the device build needs to know of the game:
`FOLDED_CONSTANTS`, its constant modules folded into their users, cargoboard.build),
`scriptgen.py` (virtual-board scripts of seeded games; `PICO_CASES`, the games the emulated
Pico plays, tests/test_pico_games.py, which every game must give). The frameworks ask for a
part by kind (`part(kind, "draw")`); a new game adds its folder here and one line below.
`register(kind, package)` adds one at run time (the tests' toy game).

(importlib is imported where it is used: the hand model and the in-process table also run
under MicroPython, tests/cargocube/driver_tracker_cards.py, and import this package on the way.)
"""

PACKAGES = {
    "cargocube": "cargoboard.games.cargocube",
    "cephalopod": "cargoboard.games.cephalopod",
    "kubitva": "cargoboard.games.kubitva",
    "formula99": "cargoboard.games.formula99",
}


def register(kind, package):
    """Take the host parts of `kind` from `package` (a dotted import path)."""
    PACKAGES[kind] = package


def kinds():
    return list(PACKAGES)


def has_part(kind, name):
    """Whether the game `kind` has the host part `name` (e.g. "draw")."""
    import importlib.util
    package = PACKAGES.get(kind)
    if package is None:
        return False
    try:
        return importlib.util.find_spec(package + "." + name) is not None
    except ImportError:
        return False


def part(kind, name):
    """The module of the game `kind`'s host part `name`, or None if it has none."""
    import importlib
    if not has_part(kind, name):
        return None
    return importlib.import_module(PACKAGES[kind] + "." + name)


def parts(name):
    """The module names of every game's host part `name`, in registry order (e.g. each game's
    `cli` for the command line)."""
    return [PACKAGES[kind] + "." + name for kind in PACKAGES if has_part(kind, name)]


def sole_part(name):
    """The module of the host part `name` of the one game that has it (revision B's physics,
    `hallfield`, is Cargocube's alone). LookupError when no game or more than one has it: the
    caller asks for something only one game may give."""
    import importlib
    owners = parts(name)
    if len(owners) != 1:
        raise LookupError("%d games have a host part %r (%s); one was expected"
                          % (len(owners), name, ", ".join(owners) or "none"))
    return importlib.import_module(owners[0])
