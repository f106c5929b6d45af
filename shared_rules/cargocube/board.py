# Cargocube's board on the 11x11 grid: directions, the kind of each cell (terminals, corners,
# grey), the portals, each cell's neighbours, and turning the board. The grid itself (cells,
# names, edges) is shared_rules/geometry.py, re-exported here so Cargocube's modules use one
# namespace (`from shared_rules.cargocube import board as g`); the other games' boards never
# load this module.

import sys
from array import array

from shared_rules.geometry import (  # noqa: F401 (re-exported: g.SIZE, g.cell_name, ...)
    COLUMNS, E, N, N_CELLS, S, SEAT_LETTERS, SIZE, W, cell, cell_name, parse_cell)

# Orthogonal directions; DX/DY give the step of each.
DIR_N = 0
DIR_E = 1
DIR_S = 2
DIR_W = 3
DIR_LETTERS = "nesw"
DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)
OPPOSITE = (2, 3, 0, 1)

# Kinds of cell.
GREY = 0
CORNER = 1
TERMINAL = 2  # TERMINAL + seat: the terminal of that seat

CENTRE = 5 * 11 + 5  # f6, the entry portal
ENTRY_PORTAL = CENTRE
EXIT_PORTAL = (5, 5 * 11, 10 * 11 + 5, 5 * 11 + 10)  # f1, a6, f11, k6 by seat


def _cell_kind(x, y):
    edge_x = x == 0 or x == SIZE - 1
    edge_y = y == 0 or y == SIZE - 1
    if edge_x and edge_y:
        return CORNER
    if y == 0:
        return TERMINAL + S
    if x == 0:
        return TERMINAL + W
    if y == SIZE - 1:
        return TERMINAL + N
    if x == SIZE - 1:
        return TERMINAL + E
    return GREY


CELL_KIND = bytearray(N_CELLS)
for _c in range(N_CELLS):
    CELL_KIND[_c] = _cell_kind(_c % SIZE, _c // SIZE)

# NEIGHBOUR[c * 4 + d]: the orthogonal neighbour of c toward d, or -1 off the board.
# AROUND[c * 8 + k]: the k-th surrounding cell of c in the order N, NE, E, SE, S, SW, W, NW,
# 255 past the last (one flat table: 121 little objects would cost ~8 KB of the board's heap);
# around(c) lists them.
# Both are filled in place: this module is loaded with a Cargocube game, when the heap is in
# pieces, and lists of every entry on the way (an 8 KB block on the 64-bit unix port) made a
# game's resume there fail with a MemoryError. On the board NEIGHBOUR is a signed byte per
# entry; CPython indexes a tuple twice as fast, so it gets one. Same values.
_neighbour = array("b", bytes(N_CELLS * 4))
_around = bytearray(b"\xff" * (N_CELLS * 8))
_D8 = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
for _c in range(N_CELLS):
    _x = _c % SIZE
    _y = _c // SIZE
    for _d in range(4):
        _nx = _x + DX[_d]
        _ny = _y + DY[_d]
        _neighbour[_c * 4 + _d] = (_ny * SIZE + _nx if 0 <= _nx < SIZE and 0 <= _ny < SIZE
                                   else -1)
    _k = _c * 8
    for _dx, _dy in _D8:
        _nx = _x + _dx
        _ny = _y + _dy
        if 0 <= _nx < SIZE and 0 <= _ny < SIZE:
            _around[_k] = _ny * SIZE + _nx
            _k += 1
NEIGHBOUR = _neighbour if sys.implementation.name == "micropython" else tuple(_neighbour)
AROUND = bytes(_around)
# the build's scaffolding goes: on the board each object left here is heap for good
del _neighbour, _around, _D8, _cell_kind

def around(c):
    """The surrounding cells of c, in the order N, NE, E, SE, S, SW, W, NW (off-board left out)."""
    base = c * 8
    out = []
    for k in range(8):
        t = AROUND[base + k]
        if t == 255:
            break
        out.append(t)
    return out


def terminal_cells(seat):
    """The 9 cells of a seat's terminal, in cell-index order."""
    out = []
    for c in range(N_CELLS):
        if CELL_KIND[c] == TERMINAL + seat:
            out.append(c)
    return bytes(out)


TERMINAL_CELLS = (terminal_cells(S), terminal_cells(W), terminal_cells(N), terminal_cells(E))


def rotate(c, quarter_turns):
    """The cell c turned clockwise (seen from above) about the centre by quarter_turns.

    One quarter turn takes the south edge onto the west edge, i.e. seat S's view onto seat W's.
    """
    x = c % SIZE - 5
    y = c // SIZE - 5
    for _ in range(quarter_turns % 4):
        x, y = y, -x
    return (y + 5) * SIZE + x + 5

