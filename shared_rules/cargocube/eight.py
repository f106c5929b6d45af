# Cargocube's 8-player variant (docs/rules/cargocube.md 16.10): seats 1..8 (ints 0..7) clockwise
# from the south side's east half, each side's exit portal shared by its two seats. The rules
# core loads this module only for an 8-player position: the tables it puts on the position are
# all the variant needs. It imports nothing of the core (the core imports it): setup() is
# handed the core's view of the grey cells and its two view values.

from shared_rules.cargocube import board as g


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


def _owner():
    owner = bytearray([255] * g.N_CELLS)
    for s in range(8):
        for c in HALVES[s]:
            owner[c] = s
    return bytes(owner)


OWNER = _owner()  # the seat whose score a cell counts for (255: none)
del _owner
VIEWS = None  # the seats' views, made by the first setup()


def setup(pos, grey_view, own, blocked):
    """Make a new position an 8-player one. grey_view: the core's view of a seat with the
    terminals left out; own, blocked: the core's values for the own terminal and any other."""
    global VIEWS
    if VIEWS is None:
        views = []
        for s in range(8):
            v = bytearray(grey_view)
            for c in range(g.N_CELLS):
                if g.CELL_KIND[c] >= g.TERMINAL:
                    v[c] = own if OWNER[c] == s or c == EXITS[s] else blocked
            views.append(bytes(v))
        VIEWS = tuple(views)
    pos.SEAT_LETTERS = SEAT_LETTERS
    pos.max_score = MAX_SCORE
    pos._keeper = [-1] * 8
    pos._score = [0] * 8
    pos._view = VIEWS
    pos._cells = HALVES
    pos._owner = OWNER
    pos._exit = EXITS
