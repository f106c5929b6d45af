# «Формула 99»: the default layout of the track on the 11x11 board (docs/rules/formula99.md
# §1.2), as cell names. track.py's grid_tables() imports this module to make its tables once
# and the board's plug-in drops it after (firmware/games/formula99/plugin.py TEXT_MODULES):
# a game in play keeps only the tables, not these names nor the code that reads them.
# Grid index y * 11 + x (a1 = 0). Per sector: blue 1 2 3, yellow 1 2 3, red.

SECTOR_CELLS = (
    "j1 i1 h1 j2 i2 h2 g1",
    "f1 e1 d1 f2 e2 d2 c1",
    "b1 a2 a3 c2 b2 b3 a4",
    "a5 a6 a7 b5 b6 b7 a8",
    "a9 a10 b11 b9 b10 c10 c11",
    "d11 e11 f11 d10 e10 f10 g11",
    "h11 i11 j11 h10 i10 j10 k10",
    "k9 k8 k7 j9 j8 j7 k6",
    "k5 k4 k3 j5 j4 j3 k2",
)
START_CELLS = "i3 h3 f3 e3 d3 c3 c5 c6 c7 c8 d9 e9 g9 h9 i8 i7 i6 i5"
FINISH_CELLS = "h4 f4 d4 d6 d7 e8 g8 h7 h6"


def _grid(name):
    return (int(name[1:]) - 1) * 11 + "abcdefghijk".index(name[0])


def grid_tables(n_ids):
    """track.grid_tables()'s tables, made from the names (n_ids: the track ids, 72)."""
    cell = bytearray(b"\xff" * n_ids)
    for s in range(9):
        names = SECTOR_CELLS[s].split()
        for i in range(3):
            cell[(s * 4 + i) * 2] = _grid(names[i])
            cell[(s * 4 + i) * 2 + 1] = _grid(names[3 + i])
        cell[(s * 4 + 3) * 2] = _grid(names[6])
    start = bytes([_grid(n) for n in START_CELLS.split()])
    finish = bytes([_grid(n) for n in FINISH_CELLS.split()])
    return cell, start, finish
