# Board geometry of the 11x11 grid, shared by every grid game of the project: the cells, their
# names and the four edges. Cells are small ints c = y * 11 + x (x: column a..k west to east, y:
# row 1..11 south to north), so tables are flat bytearrays/tuples indexed by cell: cheap on the
# board, fast on the PC. Every board keeps this module (the HAL names cells with it), so it holds
# nothing one game alone needs: Cargocube's cell kinds, neighbours and portals are in
# shared_rules/cargocube/board.py.

SIZE = 11
N_CELLS = 121
COLUMNS = "abcdefghijk"

# The board's edges (seats) in clockwise order, which is also Cargocube's turn order.
S = 0
W = 1
N = 2
E = 3
SEAT_LETTERS = "SWNE"


def cell(x, y):
    return y * SIZE + x


def cell_name(c):
    return COLUMNS[c % SIZE] + str(c // SIZE + 1)


def parse_cell(text):
    """Cell index of a name such as 'e5'; -1 if the text is no cell of the board."""
    if len(text) < 2 or len(text) > 3:
        return -1
    x = COLUMNS.find(text[0])
    if x < 0:
        return -1
    digits = text[1:]
    for ch in digits:
        if ch < "0" or ch > "9":
            return -1
    if digits[0] == "0":
        return -1
    y = int(digits) - 1
    if y < 0 or y >= SIZE:
        return -1
    return y * SIZE + x


