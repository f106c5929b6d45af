"""The CodinGame Spring Challenge 2025 computation on a 3x3 Cephalopod board (dice without
colour): play every sequence of up to DEPTH placements from a board (a sequence stops early when
the board is full), read each sequence's final board as the 9-digit decimal number of its cells
(left to right, top to bottom, empty = 0) and sum these numbers modulo 2^30.

    paths(depth, cells) -> int        cells: 9 ints 0..6, top-left first

How (docs/rules/cephalopod.md, "Paths"):
- Layer by layer (breadth first): the boards reachable after k placements, each with the number
  of sequences reaching it (mod 2^30); a full board adds count * hash to the sum and goes no
  further; after DEPTH layers the boards left add theirs. Counting sequences per board is what
  makes the memo exact: every sequence is one path, and equal boards share all their futures.
- Symmetry: the rules do not change under the 8 rotations and reflections of the square, so a
  layer keeps one entry per class of boards, under its canonical member C (the smallest under the
  3-bit-per-cell packing), holding 8 counts: lane t counts the sequences that reach t(C). The hash
  is not symmetric; it is applied to t(C) at the end. A child y = s(C') of C moves lane t to lane
  t*s of C'. The 8 lanes live in one Python int (64 bits each), so one addition moves all eight.
- Move generation is a table lookup: for each empty cell, the values of its neighbours index a
  precomputed tuple of XOR deltas (one per capture subset, or the plain placement).
"""

MOD_MASK = (1 << 30) - 1
_LANE = 64

# -- geometry -----------------------------------------------------------------------------------
# Cell i = r * 3 + c (r from the top), 3 bits at bit 3 * i of a board int.


def _neighbours(i):
    r, c = divmod(i, 3)
    out = []
    for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
        if 0 <= rr < 3 and 0 <= cc < 3:
            out.append(rr * 3 + cc)
    return out


def _product(ranges):
    out = [()]
    for r in ranges:
        out = [t + (v,) for t in out for v in r]
    return out


def _move_tables():
    """Per cell i: (dict neighbour bits -> tuple of XOR deltas, neighbour mask, 1 << 3i)."""
    tables = []
    for i in range(9):
        nb = _neighbours(i)
        deltas = {}
        for vals in _product([range(7)] * len(nb)):
            key = sum(v << (3 * j) for v, j in zip(vals, nb))
            occupied = [(j, v) for j, v in zip(nb, vals) if v]
            out = []
            n = len(occupied)
            for m in range(1, 1 << n):
                chosen = [occupied[k] for k in range(n) if m >> k & 1]
                s = sum(v for _, v in chosen)
                if len(chosen) >= 2 and s <= 6:
                    out.append(sum(v << (3 * j) for j, v in chosen) ^ (s << (3 * i)))
            deltas[key] = tuple(out) if out else (1 << (3 * i),)
        tables.append((deltas, sum(7 << (3 * j) for j in nb), 1 << (3 * i)))
    return tables


def _transforms():
    """8 cell permutations P (t(b)[i] = b[P[i]]): 4 rotations, each optionally mirrored."""
    out = []
    for t in range(8):
        perm = []
        for i in range(9):
            r, c = divmod(i, 3)
            for _ in range(t & 3):
                r, c = c, 2 - r
            if t & 4:
                c = 2 - c
            perm.append(r * 3 + c)
        out.append(perm)
    return out


TRANSFORMS = _transforms()


def apply(t, b):
    """Board t(b)."""
    p = TRANSFORMS[t]
    return sum(((b >> (3 * p[i])) & 7) << (3 * i) for i in range(9))


# COMPOSE[a][b]: apply(a, apply(b, x)) == apply(COMPOSE[a][b], x).
COMPOSE = [[TRANSFORMS.index([TRANSFORMS[b][TRANSFORMS[a][i]] for i in range(9)])
            for b in range(8)] for a in range(8)]
INVERSE = [COMPOSE[t].index(0) for t in range(8)]
_WEIGHT = [10 ** (8 - i) for i in range(9)]


def board_hash(b):
    return sum(_WEIGHT[i] * ((b >> (3 * i)) & 7) for i in range(9))


# Per transform and board row (9 bits): the row's bits moved by the transform, and its hash.
_ROWS = [[[apply(t, rb << (9 * k)) for rb in range(512)] for k in range(3)] for t in range(8)]
_HROWS = tuple(tuple(tuple(board_hash(apply(t, rb << (9 * k))) for rb in range(512))
                     for k in range(3)) for t in range(8))
_MOVES = _move_tables()
# Empty cells by occupancy (bit 3i set if cell i holds a die).
_EMPTIES = {}
for _m in range(512):
    _EMPTIES[sum(1 << (3 * i) for i in range(9) if _m >> i & 1)] = tuple(
        i for i in range(9) if not _m >> i & 1)
_OCC = 0o111111111


# -- the 8 lanes of one class of boards, packed in one int --------------------------------------
# Lane LANE_OF[t] (64 bits, at bit 64 * LANE_OF[t]) counts the sequences reaching t(C). A child
# y = s(C') of C receives lane t of C in lane t*s of C' (apply s, then t). With the lanes ordered
# rho^0..rho^3, then mu*rho^0, mu*rho^-1, mu*rho^-2, mu*rho^-3 (rho a quarter turn, mu a mirror),
# that move is, for every s, two cyclic rotations of the two halves, possibly swapping them: each
# lane moves by one of at most two distances up and two down, so four masked shifts make it.


def _mul(a, b):
    return COMPOSE[a][b]


def _lane_order():
    rho = next(t for t in range(8) if _mul(_mul(t, t), t) != 0 and _mul(t, t) != 0
               and _mul(_mul(t, t), _mul(t, t)) == 0)
    mu = next(t for t in range(8) if t and _mul(t, t) == 0 and all(
        t != p for p in _powers(rho)))
    order = list(_powers(rho))
    inv = INVERSE[rho]
    order += [_mul(mu, p) for p in _powers(inv)]
    assert sorted(order) == list(range(8))
    return order


def _powers(t):
    out = [0]
    for _ in range(3):
        out.append(_mul(out[-1], t))
    return out


LANE_ORDER = _lane_order()  # transform in lane k
LANE_OF = [LANE_ORDER.index(t) for t in range(8)]
_LANE_MASK = (1 << _LANE) - 1
LANES30 = sum(MOD_MASK << (_LANE * k) for k in range(8))  # every lane's count mod 2^30


def _moves_of_lanes():
    """Per s: (mask_up1, up1, mask_up2, up2, mask_down1, down1, mask_down2, down2) in bits."""
    out = []
    for s in range(8):
        by_delta = {}
        for t in range(8):
            src = LANE_OF[t]
            delta = LANE_OF[_mul(t, s)] - src
            by_delta[delta] = by_delta.get(delta, 0) | (_LANE_MASK << (_LANE * src))
        up = sorted((d, m) for d, m in by_delta.items() if d >= 0)
        down = sorted((-d, m) for d, m in by_delta.items() if d < 0)
        assert len(up) <= 2 and len(down) <= 2, by_delta
        up += [(0, 0)] * (2 - len(up))
        down += [(0, 0)] * (2 - len(down))
        out.append((up[0][1], _LANE * up[0][0], up[1][1], _LANE * up[1][0],
                    down[0][1], _LANE * down[0][0], down[1][1], _LANE * down[1][0]))
    return out


_LANE_MOVES = _moves_of_lanes()


def _move_lanes(x, s):
    """The packed lanes x of C as they land in C' for a child s(C') (reference version; the
    loop in _solve inlines it)."""
    m0, k0, m1, k1, m2, k2, m3, k3 = _LANE_MOVES[s]
    return ((x & m0) << k0) | ((x & m1) << k1) | ((x & m2) >> k2) | ((x & m3) >> k3)


def lanes(pk):
    """[count of sequences reaching t(C) for t in 0..7] of a packed value, mod 2^30."""
    return [(pk >> (_LANE * LANE_OF[t])) & MOD_MASK for t in range(8)]


def canonical(b, R=_ROWS, INV=INVERSE):
    """(C, s): C the smallest of the 8 transforms of b, and s with b == apply(s, C)."""
    r0 = b & 511
    r1 = (b >> 9) & 511
    r2 = b >> 18
    best = b
    bt = 0
    t = R[1]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 1
    t = R[2]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 2
    t = R[3]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 3
    t = R[4]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 4
    t = R[5]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 5
    t = R[6]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 6
    t = R[7]
    y = t[0][r0] | t[1][r1] | t[2][r2]
    if y < best:
        best, bt = y, 7
    return best, INV[bt]


def _hashes(b):
    """[board_hash(apply(t, b)) for t in 0..7]."""
    r0 = b & 511
    r1 = (b >> 9) & 511
    r2 = b >> 18
    return [h[0][r0] + h[1][r1] + h[2][r2] for h in _HROWS]


def pack(cells):
    """Board int of 9 cell values (top-left first)."""
    b = 0
    for i, v in enumerate(cells):
        b |= v << (3 * i)
    return b


def paths(depth, cells):
    """Sum mod 2^30 of the hashes of the final boards of all placement sequences of length
    depth (shorter if the board fills up) from the board `cells` (9 ints 0..6, top-left first)."""
    if len(cells) != 9 or any(not 0 <= v <= 6 for v in cells):
        raise ValueError("a 3x3 board of values 0..6")
    return _solve(depth, pack(cells))


def _solve(depth, b):
    moves = _MOVES
    empties_of = _EMPTIES
    lane_moves = _LANE_MOVES
    canon = canonical
    l30 = LANES30
    C, s = canon(b)
    cur = {C: 1 << (_LANE * LANE_OF[s])}
    acc = 0
    seen = {}  # raw child board -> C' * 8 + s, shared by all layers
    seen_get = seen.get
    for _ in range(depth):
        if not cur:
            break
        nxt = {}
        get = nxt.get
        for x, pk in cur.items():
            pk &= l30
            empties = empties_of[(x | x >> 1 | x >> 2) & _OCC]
            if not empties:  # only the start board can be full here
                acc += _finish(x, pk)
                continue
            if len(empties) == 1:
                deltas, nm, one = moves[empties[0]]
                d = deltas[x & nm]
                if d[0] == one:  # the only move fills the board
                    acc += _finish(x | one, pk)
                    continue
            moved = [0, 0, 0, 0, 0, 0, 0, 0]  # pk's lanes moved for a child s(C'), by s
            for i in empties:
                deltas, nm, one = moves[i]
                for d in deltas[x & nm]:
                    y = x ^ d
                    r = seen_get(y)
                    if r is None:
                        c2, s = canon(y)
                        r = seen[y] = (c2 << 3) | s
                    s = r & 7
                    p = moved[s]
                    if not p:
                        m0, k0, m1, k1, m2, k2, m3, k3 = lane_moves[s]
                        p = moved[s] = (((pk & m0) << k0) | ((pk & m1) << k1)
                                        | ((pk & m2) >> k2) | ((pk & m3) >> k3))
                    y = r >> 3
                    nxt[y] = get(y, 0) + p
        cur = nxt
    for x, pk in cur.items():
        acc += _finish(x, pk & l30)
    return acc & MOD_MASK


def _finish(x, pk):
    """Sum over t of (sequences reaching t(x)) * hash(t(x))."""
    h = _hashes(x)
    total = 0
    for t in range(8):
        total += ((pk >> (_LANE * LANE_OF[t])) & MOD_MASK) * h[t]
    return total


def parse_rows(text):
    """9 cell values from 'a b c/d e f/g h i' (or '060/222/161'); ValueError naming the
    problem."""
    rows = text.strip().split("/")
    if len(rows) != 3:
        raise ValueError("ROWS needs 3 rows, separated by '/' ('0 6 0/2 2 2/1 6 1', "
                         "060/222/161) or as three words ('0 6 0' '2 2 2' '1 6 1')")
    cells = []
    for k, row in enumerate(rows, 1):
        items = row.split()
        if len(items) == 1 and len(items[0]) == 3:
            items = list(items[0])
        if len(items) != 3 or not all(len(v) == 1 and v in "0123456" for v in items):
            raise ValueError("row %d %r must be 3 values 0-6 (0 = empty), e.g. '2 2 2'"
                             % (k, row.strip()))
        cells.extend(int(v) for v in items)
    return cells
