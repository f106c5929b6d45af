# Cargocube's 8-player variant (docs/rules/cargocube.md 16.10): seats 1..8 (ints 0..7) clockwise
# from the south side's east half, each side's exit portal shared by its two seats. The rules
# core loads this module only for an 8-player position: the tables it puts on the position are
# all the variant needs.

from shared_rules import geometry as g
from shared_rules.cargocube import rules as cc


def _cells(names):
    return bytes([g.parse_cell(n) for n in names.split()])


HALVES = (
    _cells("g1 h1 i1 j1"), _cells("b1 c1 d1 e1"), _cells("a2 a3 a4 a5"), _cells("a7 a8 a9 a10"),
    _cells("b11 c11 d11 e11"), _cells("g11 h11 i11 j11"), _cells("k7 k8 k9 k10"),
    _cells("k2 k3 k4 k5"),
)
KEEPER_START = _cells("g1 e1 a5 a7 e11 g11 k7 k5")  # next to the exit portal, on the own half
del _cells
EXITS = tuple([g.EXIT_PORTAL[s >> 1] for s in range(8)])
SEAT_LETTERS = "12345678"
MAX_SCORE = 16


def _tables():
    owner = bytearray([255] * g.N_CELLS)
    for s in range(8):
        for c in HALVES[s]:
            owner[c] = s
    views = []
    for s in range(8):
        v = bytearray(cc.VIEWS[0])  # the grey cells and the centre portal are the same for all
        for c in range(g.N_CELLS):
            if g.CELL_KIND[c] >= g.TERMINAL:
                v[c] = cc.V_OWN if owner[c] == s or c == EXITS[s] else cc.V_BLOCKED
        views.append(bytes(v))
    return bytes(owner), tuple(views)


OWNER, VIEWS = _tables()
del _tables


def setup(pos):
    """Make a new position an 8-player one."""
    pos.SEAT_LETTERS = SEAT_LETTERS
    pos.max_score = MAX_SCORE
    pos._keeper = [-1] * 8
    pos._score = [0] * 8
    pos._view = VIEWS
    pos._cells = HALVES
    pos._owner = OWNER
    pos._exit = EXITS
