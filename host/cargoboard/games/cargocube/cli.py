"""Cargocube's own commands on the host (`perft`, `legal` and `show` are the CLI's, for every
game):

    cargoboard demo [--out DIR]     a whole game on the virtual board, synced and exported
                                    (what `make demo` runs; cargoboard.games.cargocube.demo)
"""


def add_parser(sub):
    """`cargoboard demo`."""
    from cargoboard.games.cargocube import demo
    demo.add_parser(sub)
