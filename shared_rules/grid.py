"""Rectangular grids of any size (games played on part of the board or on their own map):
the neighbour table, built once per size and shared by every position of that size."""

NONE = 255  # "off the grid" in the neighbour table

_TABLES = {}


def neighbours(rows, cols):
    """bytes of 4 per cell (n, e, s, w): the neighbour's index, or NONE off the grid."""
    key = rows * 256 + cols
    nb = _TABLES.get(key)
    if nb is None:
        t = bytearray(rows * cols * 4)
        for c in range(rows * cols):
            x = c % cols
            y = c // cols
            t[c * 4] = c + cols if y + 1 < rows else NONE
            t[c * 4 + 1] = c + 1 if x + 1 < cols else NONE
            t[c * 4 + 2] = c - cols if y > 0 else NONE
            t[c * 4 + 3] = c - 1 if x > 0 else NONE
        nb = bytes(t)
        _TABLES[key] = nb
    return nb
