"""Independent, deliberately simple reference for Cephalopod (Mark Steere), written from the
rules text (/work/shared/seeds/002_3fbb4e0b92b6ab85.txt) and the issue, not from
shared_rules/cephalopod/rules.py. Clarity over speed; used by the tests to cross-check the fast core.

State: (rows, cols, board, side) with board a dict {(r, c): (colour, pips)} of the occupied
cells, r counted from the TOP row (0) down, c from the left; colour 'w' or 'b'; side 'w' or 'b'.

Action strings (the notation of docs/rules/cephalopod.md): a cell is its column letter
(a = left) and its row number counted from the BOTTOM (1 = bottom row); `c3` places a die showing
1; `c3:c4,d3` places and captures the listed neighbours, listed north, east, south, west.

    parse(text) -> state        fmt(state) -> notation
    legal(state) -> [action]    play(state, action) -> new state (input untouched)
    is_over(state)              scores(state) -> {'w': n, 'b': n}
    perft(state, depth)
"""

from itertools import combinations

ALLOWED = {(5, 5), (3, 5), (5, 3), (3, 3)}
COMPASS = [("n", -1, 0), ("e", 0, 1), ("s", 1, 0), ("w", 0, -1)]


def parse(text):
    rows_text, side = text.split()
    assert side in ("w", "b"), side
    lines = rows_text.split("/")
    board = {}
    width = None
    for r, line in enumerate(lines):
        cells = []
        k = 0
        while k < len(line):
            if line[k] == ".":
                cells.append(None)
                k += 1
            else:
                colour, pips = line[k], int(line[k + 1])
                assert colour in "wb" and 1 <= pips <= 6, line
                cells.append((colour, pips))
                k += 2
        if width is None:
            width = len(cells)
        if len(cells) != width:
            raise ValueError("ragged rows")
        for c, cell in enumerate(cells):
            if cell is not None:
                board[(r, c)] = cell
    if (len(lines), width) not in ALLOWED:
        raise ValueError("size")
    return (len(lines), width, board, side)


def fmt(state):
    rows, cols, board, side = state
    out = []
    for r in range(rows):
        line = ""
        for c in range(cols):
            cell = board.get((r, c))
            line += "." if cell is None else "%s%d" % cell
        out.append(line)
    return "/".join(out) + " " + side


def name(state, r, c):
    rows = state[0]
    return "abcde"[c] + str(rows - r)


def neighbours(state, r, c):
    """[(r2, c2)] of the occupied orthogonal neighbours, in the order n, e, s, w."""
    rows, cols, board, _ = state
    out = []
    for _, dr, dc in COMPASS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) in board:
            out.append((rr, cc))
    return out


def legal(state):
    rows, cols, board, side = state
    acts = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in board:
                continue
            occupied = neighbours(state, r, c)
            captures = []
            for k in range(2, len(occupied) + 1):
                for group in combinations(occupied, k):  # keeps the n, e, s, w order
                    if sum(board[x][1] for x in group) <= 6:
                        captures.append(name(state, r, c) + ":" +
                                        ",".join(name(state, *x) for x in group))
            acts.extend(captures or [name(state, r, c)])
    return acts


def _cell(state, text):
    rows = state[0]
    return rows - int(text[1:]), "abcde".index(text[0])


def play(state, action):
    rows, cols, board, side = state
    assert action in legal(state), (action, fmt(state))
    board = dict(board)
    head, _, rest = action.partition(":")
    r, c = _cell(state, head)
    pips = 1
    if rest:
        pips = 0
        for t in rest.split(","):
            pips += board.pop(_cell(state, t))[1]
    board[(r, c)] = (side, pips)
    return (rows, cols, board, "b" if side == "w" else "w")


def is_over(state):
    rows, cols, board, _ = state
    return len(board) == rows * cols


def scores(state):
    board = state[2]
    return {"w": sum(1 for v in board.values() if v[0] == "w"),
            "b": sum(1 for v in board.values() if v[0] == "b")}


def perft(state, depth):
    if depth == 0:
        return 1
    return sum(perft(play(state, a), depth - 1) for a in legal(state))
