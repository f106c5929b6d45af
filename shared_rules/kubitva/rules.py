# КУБитва rules core: position, legal actions, push/pop, notation, encoding, perft.
#
# Runs unchanged on the board (MicroPython) and on the PC (CPython): bytearrays for the grid,
# small ints for actions, one bytearray undo log, no CPython-only modules. The rules as
# implemented, every interpretation, the notations and the binary encoding are written out in
# docs/rules/kubitva.md (section numbers below refer to it); the face is the one of
# shared_rules.cargocube (docs/rules/api.md).
#
# Representation
# - Cell index c = y * cols + x: x = column a.. (west to east), y = row 1.. (south to north).
#   At most 255 cells, so a cell fits one byte; 255 means "no cell" (off the grid).
# - cells[c]: a cube code (EMPTY, BRICK ... BASE, or WORKER/SOLDIER + side).
# - terr[c]: bit 0 the side owning the cell, bit 1 (FRESH) captured during the current turn.
# - points[c]: move points of the unit on c (meaningless elsewhere).
# - An action is a small int cell * 256 + code (section 10), END = 0xFFFF.
# - Filler groups (the candidate buildings) are cached: fillers never move and are never
#   destroyed, so the groups change only by a fill (push) and its pop.

from shared_rules import versions as _versions
from shared_rules.grid import neighbours as _neighbours
from shared_rules.perft import perft  # noqa: F401 (the same for every rules core)

RULES_VERSION = _versions.version("kubitva")

from shared_rules.kubitva.codes import *  # noqa: F401,F403 (the face: kb.BRICK, kb.RulesError...)
from shared_rules.kubitva.codes import direction as _direction

_ASCII = b".baxipmrq???????WwSs"  # the letter of each code, for notation()
_LAND = b"SNsn"  # a territory byte (side | FRESH) -> its letter

# Start maps (sections 11 and 12): the notation of each start position.
BOARD = ("....aaa..../....aqa.bbb/....aaa.bbb/..w..w..w../.........../.........../"
         ".........../..W..W..W../bbb.aaa..../bbb.aqa..../....aaa.... "
         "11N/11N/11N/11N/11N/5S6N/11S/11S/11S/11S/11S S 0,0 1/60")
FULL = (".....aaaaa...../.....aqqqa.bbb./.....aqqqa.bbb./.....aqqqa.bbb./.....aaaaa.bbb./"
        "...........bbb./...wwwwwwwwww../.............../.............../..WWWWWWWWWW.../"
        ".bbb.........../.bbb.aaaaa...../.bbb.aqqqa...../.bbb.aqqqa...../.bbb.aqqqa...../"
        ".....aaaaa..... "
        "15N/15N/15N/15N/15N/15N/15N/15N/15S/15S/15S/15S/15S/15S/15S/15S S 0,0 1/200")
MAPS = (("board", BOARD), ("full", FULL))


def _check_size(rows, cols):
    if cols < 3 or cols > 26 or rows < 3 or rows * cols > MAX_CELLS:
        raise RulesError("grid %dx%d: KUBitva takes 3-26 columns, 3 or more rows and at most %d "
                         "cells" % (cols, rows, MAX_CELLS))


def cell_name(c, cols):
    return COLUMNS[c % cols] + str(c // cols + 1)


def parse_cell(text, rows, cols):
    """Index of the cell named text (e.g. 'c3', 'o16') on a grid, or -1."""
    if len(text) < 2 or len(text) > 3:
        return -1
    x = COLUMNS.find(text[0])
    digits = text[1:]
    if x < 0 or x >= cols or digits[0] == "0":
        return -1
    for ch in digits:
        if ch < "0" or ch > "9":
            return -1
    y = int(digits) - 1
    if y >= rows:
        return -1
    return y * cols + x


def is_wall(v):
    return v == BRICK or v == ARMOUR


def cube_text(v, points=MOVE_POINTS):
    """The notation of one cell's cube: '.', 'b', 'W', 'S7', ..."""
    if v >= WORKER:
        t = UNIT_LETTERS[v - WORKER]
        return t if points == MOVE_POINTS else t + str(points)
    return CUBE_LETTERS[v]


def item_letter(action):
    """The purchase letter (b a w s k K x) or fill letter (i p m r) of an action, else ''."""
    code = action & 255
    if action == END or code < FILL:
        return ""
    if code < BUY:
        return FILL_LETTERS[(code - FILL) >> 2]
    return ITEM_LETTERS[(code - BUY) >> 2]


class Position:
    """A KUBitva position: the cubes on the grid, the territory, the side to move, the
    treasuries, the turn and its limit, the move points of the units."""

    SEAT_LETTERS = SEAT_LETTERS
    seats = (S, N)

    def __init__(self, rows, cols):
        _check_size(rows, cols)
        n = rows * cols
        self.rows = rows
        self.cols = cols
        self.n = n
        self.cells = bytearray(n)
        self.terr = bytearray(n)
        self.points = _filled(n, MOVE_POINTS)
        self.to_move = S
        self.treasury = [0, 0]
        self.turn = 1
        self.limit = 1
        self.active = -1  # the active unit's cell (docs section 5), -1 if none
        self.nb = _neighbours(rows, cols)
        self._groups = []  # filler groups: (kind, rooms, boundary, door) as bytes, see _group
        self._bases = b""  # the cells holding base cubes (they never change)
        self.near_base = bytearray(n)  # 1 where a cube stands next to a base cube
        self._undo = bytearray(64)  # undo records, see _record(); used up to _ulen
        self._ulen = 0
        self._ply = 0

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        """Parse the one-line notation (docs section 9); RulesError naming the problem."""
        from shared_rules.kubitva import text as kt
        return kt.parse_position(cls, text)

    def _index(self):
        """Build the caches from the cells: the base cubes, the cells next to them, the filler
        groups."""
        cells = self.cells
        nb = self.nb
        bases = []
        near = self.near_base
        for c in range(self.n):
            near[c] = 0
        for c in range(self.n):
            if cells[c] == BASE:
                bases.append(c)
                for d in range(4):
                    t = nb[c * 4 + d]
                    if t != NONE:
                        near[t] = 1
        self._bases = bytes(bases)
        self._groups = []
        seen = bytearray(self.n)
        for c in range(self.n):
            v = cells[c]
            if INCOME <= v <= RECYCLING and not seen[c]:
                rooms = [c]
                seen[c] = 1
                i = 0
                while i < len(rooms):
                    r = rooms[i]
                    i += 1
                    for d in range(4):
                        t = nb[r * 4 + d]
                        if t != NONE and cells[t] == v and not seen[t]:
                            seen[t] = 1
                            rooms.append(t)
                self._groups.append(self._group(v, rooms))

    def _group(self, kind, rooms):
        """A filler group: (kind, rooms, boundary, door) as bytes; door[j] is the one room next
        to boundary[j], or 255 if it touches several; a room on the edge puts 255 (off the grid)
        into the boundary."""
        nb = self.nb
        inside = bytearray(self.n)
        for r in rooms:
            inside[r] = 1
        bnd = []
        door = []
        for r in rooms:
            for d in range(4):
                t = nb[r * 4 + d]
                if t == NONE:
                    if NONE not in bnd:
                        bnd.append(NONE)
                        door.append(NONE)
                    continue
                if inside[t]:
                    continue
                if t in bnd:
                    door[bnd.index(t)] = NONE
                else:
                    bnd.append(t)
                    door.append(r)
        return (kind, bytes(rooms), bytes(bnd), bytes(door))

    def copy(self):
        """The position without its history."""
        p = Position(self.rows, self.cols)
        p.cells = bytearray(self.cells)
        p.terr = bytearray(self.terr)
        p.points = bytearray(self.points)
        p.to_move = self.to_move
        p.treasury = [self.treasury[0], self.treasury[1]]
        p.turn = self.turn
        p.limit = self.limit
        p.active = self.active
        p._groups = list(self._groups)
        p._bases = self._bases
        p.near_base = bytearray(self.near_base)
        return p

    def notation(self):
        # One bytearray of ASCII, turned into text once: the board logs a notation for every
        # action, and building it cell by cell as strings would allocate a string per cell.
        cols = self.cols
        cells = self.cells
        pts = self.points
        terr = self.terr
        out = bytearray()
        for y in range(self.rows - 1, -1, -1):
            if out:
                out.append(47)  # /
            for c in range(y * cols, y * cols + cols):
                v = cells[c]
                out.append(_ASCII[v])
                if v >= WORKER and pts[c] != MOVE_POINTS:
                    out.append(48 + pts[c])
        out.append(32)
        for y in range(self.rows - 1, -1, -1):
            if y != self.rows - 1:
                out.append(47)
            run = 0
            prev = terr[y * cols]
            for c in range(y * cols, y * cols + cols + 1):
                v = terr[c] if c < y * cols + cols else 255
                if v != prev:
                    out.extend(str(run).encode())
                    out.append(_LAND[prev])
                    run = 0
                    prev = v
                run += 1
        return "%s %s %d,%d %d/%d" % (str(out, "ascii"), SEAT_LETTERS[self.to_move],
                                      self.treasury[0], self.treasury[1], self.turn, self.limit)

    def __repr__(self):
        return "<kubitva %s>" % self.notation()

    # -- queries --------------------------------------------------------------------------------

    def cell_name(self, c):
        return cell_name(c, self.cols)

    def parse_cell(self, text):
        """Index of the cell named text on this grid, or -1."""
        return parse_cell(text, self.rows, self.cols)

    def base_kept(self, side):
        """True while side keeps its base (docs section 3)."""
        cells = self.cells
        nb = self.nb
        found = False
        for c in self._bases:
            if self.terr[c] & 1 != side:
                continue
            found = True
            for d in range(4):
                t = nb[c * 4 + d]
                if t == NONE or (cells[t] != ARMOUR and cells[t] != BASE):
                    return False
        return found

    def is_over(self):
        return self.turn > self.limit or not self.base_kept(S) or not self.base_kept(N)

    def scores(self):
        """Cells of territory, indexed by side: [S, N]."""
        n = 0
        for v in self.terr:
            n += v & 1
        return [self.n - n, n]

    def winners(self):
        """[] while the game goes on; else the side(s) that won (both: a draw)."""
        if not self.is_over():
            return []
        k0 = self.base_kept(S)
        k1 = self.base_kept(N)
        if k0 != k1:
            return [S] if k0 else [N]
        if not k0:
            return [S, N]
        sc = self.scores()
        if sc[0] != sc[1]:
            return [S] if sc[0] > sc[1] else [N]
        return [S, N]

    def _usable(self, rooms, side):
        terr = self.terr
        for r in rooms:
            if terr[r] != side:
                return False
        return True

    def _opening(self, group):
        """Index in the boundary of the opening of an intact building, or -1."""
        cells = self.cells
        bnd = group[2]
        found = -1
        for j in range(len(bnd)):
            t = bnd[j]
            if t == NONE:
                return -1
            v = cells[t]
            if v == BRICK or v == ARMOUR:
                continue
            if v != EMPTY and v < WORKER:
                return -1
            if found >= 0:
                return -1
            found = j
        if found < 0 or group[3][found] == NONE:
            return -1
        return found

    def buildings(self):
        """The intact buildings: a list of (kind, door room, opening, direction, front cell or
        255, owner) in door-room order; owner is the side whose land holds every room (captured
        this turn or not), -1 if the rooms straddle the border."""
        out = []
        terr = self.terr
        for g in self._groups:
            j = self._opening(g)
            if j >= 0:
                o = g[2][j]
                r = g[3][j]
                d = _direction(self.nb, r, o)
                owner = terr[r] & 1
                for x in g[1]:
                    if terr[x] & 1 != owner:
                        owner = -1
                out.append((g[0], r, o, d, self.nb[o * 4 + d], owner))
        out.sort(key=lambda b: b[1])
        return out

    def _building_at(self, door, d):
        """(group, opening, front) of the intact building whose door room is `door` with its
        opening toward d, else None."""
        for g in self._groups:
            j = self._opening(g)
            if j >= 0 and g[3][j] == door and self.nb[door * 4 + d] == g[2][j]:
                o = g[2][j]
                return g, o, self.nb[o * 4 + d]
        return None

    def line_target(self, o, d):
        """The first cube that is no filler on the line from o toward d (the rocket's target),
        or 255."""
        cells = self.cells
        nb = self.nb
        t = o
        while t != NONE:
            v = cells[t]
            if v != EMPTY and not INCOME <= v <= BASE:
                return t
            t = nb[t * 4 + d]
        return NONE

    def rocket_target(self, action):
        """The cell a rocket action destroys (docs 7.5), or -1 for other actions."""
        code = action & 255
        if action == END or code < BUY + 4 * IT_ROCKET or code >= BUY + 4 * IT_RECYCLE:
            return -1
        d = code & 3
        o = self.nb[(action >> 8) * 4 + d]
        t = self.line_target(o, d)
        return -1 if t == NONE else t

    def moved_cube(self, action):
        """(from, to) of the cube a step moves along, or None."""
        code = action & 255
        if action == END or code >= KILL or code % 5 == 0:
            return None
        u = action >> 8
        d = code // 5
        k = self.nb[u * 4 + code % 5 - 1]
        return k, self.nb[k * 4 + d]

    def action_cell(self, action):
        """Where the action's effect lands: a step's or purchase's destination (the unit's new
        cell, the front cell), a kill's victim, a rocket's target, a fill's door room; -1 for
        end."""
        if action == END:
            return -1
        c = action >> 8
        code = action & 255
        nb = self.nb
        if code < KILL:
            return nb[c * 4 + code // 5]
        if code < FILL:
            return nb[c * 4 + code - KILL]
        if code < BUY:
            return c
        t = self.rocket_target(action)
        if t >= 0:
            return t
        o = nb[c * 4 + (code & 3)]
        return nb[o * 4 + (code & 3)]

    # -- move generation ------------------------------------------------------------------------

    def legal_actions(self):
        """All legal actions in increasing number (cell, then code), `end` last (docs 10)."""
        if self.is_over():
            return []
        out = []
        side = self.to_move
        cells = self.cells
        pts = self.points
        for c in range(self.n):
            v = cells[c]
            if v >= WORKER and v & 1 == side and pts[c]:
                self._unit_actions(c, v, out)
        more = len(out)
        self._building_actions(out)
        self._fill_actions(out)
        if len(out) > more:
            out.sort()
        out.append(END)
        return out

    def is_legal(self, action):
        """action in legal_actions(), from the actions of its kind alone (a step or a kill: its
        unit's; a fill: fill_sites(); a purchase: purchases()): a replay (the board's log after
        a restart, a record on the PC) checks every action, and a step needs no fill search."""
        if action == END:
            return not self.is_over()
        c = action >> 8
        code = action & 255
        if action < 0 or c >= self.n:
            return False
        if code < FILL:
            return action in self.unit_actions(c)
        if code < BUY:
            return not self.is_over() and (c, code & 3) in self.fill_sites()
        return action in self.purchases()

    def unit_actions(self, c):
        """The legal steps and kills of the unit on c (the same as in legal_actions)."""
        out = []
        v = self.cells[c]
        if not self.is_over() and v >= WORKER and v & 1 == self.to_move and self.points[c]:
            self._unit_actions(c, v, out)
        return out

    def purchases(self):
        """The legal purchases (in legal_actions' order): without the fills, which need the
        search of fill_sites()."""
        out = []
        if not self.is_over():
            self._building_actions(out)
            out.sort()
        return out

    def _unit_actions(self, c, v, out):
        cells = self.cells
        terr = self.terr
        near = self.near_base
        nb = self.nb
        side = v & 1
        soldier = v & 2
        base = c * 4
        a0 = c << 8
        for d in range(4):
            t = nb[base + d]
            if t == NONE:
                continue
            enter = soldier or terr[t] & 1 == side
            free = enter and cells[t] == EMPTY
            if free:
                out.append(a0 + 5 * d)
            if not enter:
                continue
            for e in range(4):
                k = nb[base + e]
                if k == NONE:
                    continue
                kv = cells[k]
                if kv == EMPTY or kv > WASTE or near[k]:
                    continue
                if e == d:  # push: the unit takes the cube's cell
                    k2 = nb[k * 4 + d]
                    if k2 == NONE or cells[k2] != EMPTY:
                        continue
                elif e == (d + 2) & 3:  # pull: the cube takes the unit's cell
                    if not free:
                        continue
                else:  # carry beside
                    k2 = nb[k * 4 + d]
                    if not free or k2 == NONE or cells[k2] != EMPTY:
                        continue
                out.append(a0 + 5 * d + 1 + e)
        if soldier and terr[c] & 1 == side:
            for d in range(4):
                t = nb[base + d]
                if t != NONE and cells[t] >= WORKER and cells[t] & 1 != side \
                        and terr[t] & 1 != side:
                    out.append(a0 + KILL + d)

    def _building_actions(self, out):
        side = self.to_move
        money = self.treasury[side]
        cells = self.cells
        terr = self.terr
        nb = self.nb
        for g in self._groups:
            j = self._opening(g)
            if j < 0 or not self._usable(g[1], side):
                continue
            kind = g[0]
            o = g[2][j]
            r = g[3][j]
            d = _direction(nb, r, o)
            f = nb[o * 4 + d]
            a0 = (r << 8) + BUY + d
            place = f != NONE and cells[f] == EMPTY and terr[f] & 1 == side
            if kind == INDUSTRY:
                if place and money >= ITEM_COST[IT_BRICK]:
                    out.append(a0 + 4 * IT_BRICK)
                if place and money >= ITEM_COST[IT_ARMOUR]:
                    out.append(a0 + 4 * IT_ARMOUR)
            elif kind == INCOME:
                if place and money >= ITEM_COST[IT_WORKER]:
                    out.append(a0 + 4 * IT_WORKER)
            elif kind == MILITARY:
                if place and money >= ITEM_COST[IT_SOLDIER]:
                    out.append(a0 + 4 * IT_SOLDIER)
                if money >= ITEM_COST[IT_ROCKET]:
                    t = self.line_target(o, d)
                    if t != NONE:
                        tv = cells[t]
                        if tv == BRICK or tv >= WORKER:
                            out.append(a0 + 4 * IT_ROCKET)
                        if money >= ITEM_COST[IT_SUPER] and tv != WASTE:
                            out.append(a0 + 4 * IT_SUPER)
            elif kind == RECYCLING:
                if f != NONE and cells[f] == WASTE and terr[f] & 1 == side \
                        and money >= ITEM_COST[IT_RECYCLE]:
                    out.append(a0 + 4 * IT_RECYCLE)

    def _fill_actions(self, out):
        for r, d in self.fill_sites():
            a0 = (r << 8) + FILL + d
            for k in range(4):
                out.append(a0 + 4 * k)

    def fill_sites(self):
        """(door room, direction to the opening) of every place the side to move may fill
        (docs 7.3), by the opening's cell, then the direction from it to the door room.

        The rooms of a site are a piece of the grid's non-wall cells that the opening alone cuts
        off, every one fit for a room (empty, the side's land, off the edge), and the piece
        touches the opening through one cell (the door room). Fit cells are few (the empty
        inside of the side's land), the non-wall cells many: so the search runs on the fit cells
        only, one depth-first search (articulation points, Tarjan) of the regions they form. A
        non-wall cell next to a fit cell that is not fit itself is an exit of the region (a way
        out past something no room may be). A site is then either
        - a fit opening: a piece that removing it leaves of its region (the DFS subtree of one
          of its children that does not reach above it, or the rest of the region beyond its
          parent) without an exit; or
        - an opening that is not fit: a whole region whose one exit it is, next to one cell.
        The DFS counts the cells with an exit in each subtree as it counts their size."""
        n = self.n
        cols = self.cols
        cells = self.cells
        terr = self.terr
        nb = self.nb
        side = self.to_move
        none = NONE  # locals: a global is a dictionary look-up on the board
        empty = EMPTY
        brick = BRICK
        armour = ARMOUR
        # fit[c]: 0 not fit, else 1 + the exits next to c (counted by the DFS). The cells off the
        # edge only: the neighbours of a fit cell are cells (never NONE) from here on.
        fit = bytearray(n)
        fits = []  # the fit cells, in order: the loops below visit them alone
        for y in range(cols, n - cols, cols):
            for c in range(y + 1, y + cols - 1):
                if cells[c] == empty and terr[c] & 1 == side:
                    fit[c] = 1
                    fits.append(c)
        if not fits:
            return []
        disc = bytearray(n)   # DFS discovery number, 1-based; 0 = not fit
        low = bytearray(n)
        size = bytearray(n)   # subtree size
        sub = bytearray(n)    # cells with an exit in the subtree
        par = bytearray(n)    # DFS parent, NONE for a root
        comp = bytearray(n)   # the root of each fit cell's region
        t = 0
        stack = []  # the cells on the way down, each as cell << 3 | the next direction to try
        for root in fits:
            if disc[root]:
                continue
            c = root
            p = none
            new = True
            while True:
                if new:  # discover c, a child of p (NONE for the root)
                    t += 1
                    disc[c] = low[c] = t
                    comp[c] = root
                    par[c] = p
                    d = 0
                    new = False
                if d < 4:
                    w = nb[c * 4 + d]
                    d += 1
                    if not fit[w]:
                        if cells[w] != brick and cells[w] != armour:
                            fit[c] += 1  # an exit
                    elif not disc[w]:
                        stack.append(c << 3 | d)
                        p = c
                        c = w
                        new = True
                    elif w != par[c] and disc[w] < low[c]:
                        low[c] = disc[w]
                else:  # c done: back to its parent
                    size[c] = t - disc[c] + 1
                    if fit[c] > 1:
                        sub[c] += 1
                    q = par[c]
                    if q == none:
                        break
                    sub[q] += sub[c]
                    if low[c] < low[q]:
                        low[q] = low[c]
                    top = stack.pop()
                    c = top >> 3
                    d = top & 7
        found = []  # opening * 4 + the direction from it to the door room: the sites' order
        for c in fits:
            dc = disc[c]
            rex = sub[comp[c]]  # cells with an exit in c's region
            p = par[c]
            if p != none:
                # c's subtree, if its parent p cuts it off and p touches it through c alone
                if not sub[c] and low[c] >= disc[p]:
                    one = True
                    for i in range(p * 4, p * 4 + 4):
                        u = nb[i]
                        if u != c and fit[u] and dc <= disc[u] < dc + size[c]:
                            one = False
                    if one:
                        found.append(p * 4 + _direction(nb, p, c))
                # the rest of the region beyond c, if it has no exit and c touches it through
                # p alone: every other fit neighbour of c lies below it, in a subtree c cuts off
                if rex == sub[c]:
                    one = True
                    for i in range(c * 4, c * 4 + 4):
                        u = nb[i]
                        if fit[u] and u != p and (disc[u] < dc or par[u] == c and low[u] < dc):
                            one = False
                    if one:
                        found.append(c * 4 + _direction(nb, c, p))
            # the whole region, if its one exit is a neighbour x of c alone, and x may be an
            # opening (empty or a unit)
            if rex == 1 and fit[c] == 2:
                for d in range(4):
                    x = nb[c * 4 + d]
                    v = cells[x]
                    if not fit[x] and v != BRICK and v != ARMOUR and (v == EMPTY or v >= WORKER):
                        found.append(x * 4 + ((d + 2) & 3))
        if len(found) > 1:
            found.sort()
        sites = []
        for k in found:
            sites.append((nb[k], ((k & 3) + 2) & 3))
        return sites

    # -- make / unmake --------------------------------------------------------------------------

    def _deactivate(self, keep):
        """The active unit, unless it is `keep`, loses its remaining points (docs section 5).
        Returns the undo bytes (previous active cell, its points)."""
        a = self.active
        if a < 0:
            return NONE, 0
        p = self.points[a]
        if a != keep:
            self.points[a] = 0
            self.active = -1
        return a, p

    def _record(self, payload, action):
        """Append one undo record: payload bytes, then its length (2 bytes) and the action
        (2 bytes), so that pop() reads it from the end."""
        log = self._undo
        i = self._ulen
        m = len(payload)
        need = i + m + 4
        if len(log) < need:
            log.extend(bytearray(need - len(log) + 64))
        log[i:i + m] = payload
        i += m
        log[i] = m >> 8
        log[i + 1] = m & 255
        log[i + 2] = action >> 8
        log[i + 3] = action & 255
        self._ulen = i + 4
        self._ply += 1

    def push(self, action):
        """Apply an action (assumed legal; see push_checked)."""
        if action == END:
            self._push_end()
            return
        c = action >> 8
        code = action & 255
        cells = self.cells
        pts = self.points
        nb = self.nb
        side = self.to_move
        if code < FILL:
            pa, pp = self._deactivate(c)
            rec = bytearray((pa, pp))
            if code < KILL:
                d = code // 5
                m = code % 5
                v = cells[c]
                t = nb[c * 4 + d]
                k = nb[c * 4 + m - 1] if m else NONE
                self._shift(c, t, k, nb[k * 4 + d] if m else NONE)
                pts[t] -= 1
                if v & 2 and self.terr[c] & 1 == side and self.terr[t] & 1 != side:
                    self._capture(t, rec)
            else:
                t = nb[c * 4 + code - KILL]
                rec.append(cells[t])
                cells[t] = EMPTY
                pts[t] = MOVE_POINTS
                pts[c] -= 1
                t = c
            self.active = t if pts[t] else -1
            self._record(rec, action)
            return
        pa, pp = self._deactivate(-1)
        rec = bytearray((pa, pp))
        d = code & 3
        o = nb[c * 4 + d]
        if code < BUY:
            kind = FILL_KINDS[(code - FILL) >> 2]
            rooms = self.rooms_of(c, o)
            for r in rooms:
                cells[r] = kind
            self._groups.append(self._group(kind, rooms))
            self._record(rec, action)
            return
        item = (code - BUY) >> 2
        self.treasury[side] -= ITEM_COST[item]
        f = nb[o * 4 + d]
        if item == IT_ROCKET or item == IT_SUPER:
            t = self.line_target(o, d)
            rec.append(t)
            rec.append(cells[t])
            rec.append(pts[t])
            cells[t] = EMPTY if cells[t] == ARMOUR else WASTE
            pts[t] = MOVE_POINTS
        elif item == IT_RECYCLE:
            cells[f] = BRICK
        elif item == IT_WORKER or item == IT_SOLDIER:
            cells[f] = (WORKER if item == IT_WORKER else SOLDIER) + side
            pts[f] = 0
        else:
            cells[f] = BRICK if item == IT_BRICK else ARMOUR
        self._record(rec, action)

    def _capture(self, t, rec):
        """A soldier of the side to move captured cell t: t and every part of the enemy's land
        without a base cube change hands (docs 6.2); the changed cells go into rec."""
        side = self.to_move
        enemy = side ^ 1
        terr = self.terr
        nb = self.nb
        n = self.n
        terr[t] = side | FRESH
        rec.append(t)
        seen = bytearray(n)
        stack = []
        for b in self._bases:
            if terr[b] & 1 == enemy:
                seen[b] = 1
                stack.append(b)
        while stack:
            c = stack.pop()
            for d in range(4):
                u = nb[c * 4 + d]
                if u != NONE and not seen[u] and terr[u] & 1 == enemy:
                    seen[u] = 1
                    stack.append(u)
        for c in range(n):
            if terr[c] & 1 == enemy and not seen[c]:
                terr[c] = side | FRESH
                rec.append(c)

    def walk(self, u, limit=250):
        """Where the unit on u could walk by plain steps (no cube, no capture counted): (cells
        in the order reached, bytearray of 1 + steps to each cell, 0 unreachable), at most
        `limit` steps; a worker keeps to its side's land, as its steps must."""
        cells = self.cells
        nb = self.nb
        terr = self.terr
        v = cells[u]
        soldier = v & 2
        side = v & 1
        none = NONE  # locals: a global is a dictionary look-up on the board (a lift's reach)
        empty = EMPTY
        dist = bytearray(self.n)
        dist[u] = 1
        order = [u]
        for c in order:  # the queue of the breadth-first search: it grows while it is read
            step = dist[c] + 1
            if step > limit + 1:
                continue
            for i in range(c * 4, c * 4 + 4):
                t = nb[i]
                if t == none or dist[t] or cells[t] != empty:
                    continue
                if not soldier and terr[t] & 1 != side:
                    continue
                dist[t] = step
                order.append(t)
        return order, dist

    def _shift(self, u, t, k, k2):
        """Move the unit on u to t with its points, and the cube on k (NONE: none) to k2: both
        lifted first, then put down (either may land where the other stood)."""
        cells = self.cells
        pts = self.points
        v = cells[u]
        p = pts[u]
        kv = cells[k] if k != NONE else 0
        cells[u] = EMPTY
        pts[u] = MOVE_POINTS
        if k != NONE:
            cells[k] = EMPTY
            cells[k2] = kv
        cells[t] = v
        pts[t] = p

    def rooms_of(self, door, o):
        """The rooms of a fill: the cells reachable from the door room through non-wall cells,
        without passing the opening o."""
        cells = self.cells
        nb = self.nb
        seen = bytearray(self.n)
        seen[door] = 1
        seen[o] = 1
        rooms = [door]
        i = 0
        while i < len(rooms):
            r = rooms[i]
            i += 1
            for d in range(4):
                t = nb[r * 4 + d]
                if t != NONE and not seen[t] and cells[t] != BRICK and cells[t] != ARMOUR:
                    seen[t] = 1
                    rooms.append(t)
        return rooms

    def _push_end(self):
        side = self.to_move
        pa = self.active
        pp = self.points[pa] if pa >= 0 else 0
        self.active = -1
        cells = self.cells
        terr = self.terr
        pts = self.points
        rec = bytearray((NONE if pa < 0 else pa, pp, 0, 0))
        for c in range(self.n):
            if terr[c] & FRESH:
                terr[c] &= 1
                rec.append(c)
        rec.append(NONE)
        for c in range(self.n):
            if cells[c] >= WORKER and pts[c] != MOVE_POINTS:
                rec.append(c)
                rec.append(pts[c])
                pts[c] = MOVE_POINTS
        self.to_move = side ^ 1
        self.turn += 1
        income = self.income(side ^ 1)
        self.treasury[side ^ 1] += income
        rec[2] = income >> 8
        rec[3] = income & 255
        self._record(rec, END)

    def income(self, side):
        """What side earns when its turn begins: 1 per filler of each intact house it may use."""
        total = 0
        for g in self._groups:
            if g[0] == INCOME and self._usable(g[1], side) and self._opening(g) >= 0:
                total += len(g[1])
        return total

    def pop(self):
        """Undo the last pushed action and return it."""
        if not self._ply:
            raise RulesError("no action to take back")
        log = self._undo
        end = self._ulen
        action = (log[end - 2] << 8) | log[end - 1]
        m = (log[end - 4] << 8) | log[end - 3]
        start = end - 4 - m
        self._ulen = start
        self._ply -= 1
        pa = log[start]
        pp = log[start + 1]
        cells = self.cells
        pts = self.points
        nb = self.nb
        if action == END:
            side = self.to_move ^ 1
            income = (log[start + 2] << 8) | log[start + 3]
            self.treasury[side ^ 1] -= income
            self.turn -= 1
            self.to_move = side
            i = start + 4
            while log[i] != NONE:
                self.terr[log[i]] |= FRESH
                i += 1
            i += 1
            while i < end - 4:
                pts[log[i]] = log[i + 1]
                i += 2
        else:
            c = action >> 8
            code = action & 255
            side = self.to_move
            if code < KILL:
                d = code // 5
                e = code % 5
                t = nb[c * 4 + d]
                k = nb[c * 4 + e - 1] if e else NONE
                self._shift(t, c, nb[k * 4 + d] if e else NONE, k)
                pts[c] += 1
                for i in range(start + 2, end - 4):
                    self.terr[log[i]] = side ^ 1
            elif code < FILL:
                t = nb[c * 4 + code - KILL]
                cells[t] = log[start + 2]
                pts[t] = MOVE_POINTS
                pts[c] += 1
            elif code < BUY:
                g = self._groups.pop()
                for r in g[1]:
                    cells[r] = EMPTY
            else:
                d = code & 3
                item = (code - BUY) >> 2
                self.treasury[side] += ITEM_COST[item]
                o = nb[c * 4 + d]
                f = nb[o * 4 + d]
                if item == IT_ROCKET or item == IT_SUPER:
                    t = log[start + 2]
                    cells[t] = log[start + 3]
                    pts[t] = log[start + 4]
                elif item == IT_RECYCLE:
                    cells[f] = WASTE
                else:
                    cells[f] = EMPTY
                    pts[f] = MOVE_POINTS
        if pa != NONE:
            pts[pa] = pp
            self.active = pa if pp and pp < MOVE_POINTS else -1
        else:
            self.active = -1
        return action

    def push_checked(self, action):
        if not self.is_legal(action):
            raise RulesError("illegal action %s in %s" % (self._describe(action),
                                                          self.notation()))
        self.push(action)

    def history(self):
        """The actions pushed so far, oldest first."""
        out = []
        log = self._undo
        end = self._ulen
        while end:
            out.append((log[end - 2] << 8) | log[end - 1])
            end -= 4 + ((log[end - 4] << 8) | log[end - 3])
        out.reverse()
        return out

    def ply(self):
        """How many actions have been pushed."""
        return self._ply

    # -- action notation ------------------------------------------------------------------------

    def format_action(self, action):
        """The action's text (docs section 10)."""
        if action == END:
            return "end"
        c = action >> 8
        code = action & 255
        name = self.cell_name(c)
        if code < KILL:
            text = name + DIR_LETTERS[code // 5]
            if code % 5:
                text += "+" + self.cell_name(self.nb[c * 4 + code % 5 - 1])
            return text
        if code < FILL:
            return name + "x" + self.cell_name(self.nb[c * 4 + code - KILL])
        return "%s@%s/%s" % (item_letter(action), name, self.cell_name(self.nb[c * 4 +
                                                                              (code & 3)]))

    def _describe(self, action):
        try:
            return self.format_action(action)
        except Exception:
            return repr(action)

    def parse_action(self, text):
        """The legal action written as text; RulesError naming the problem if malformed or not
        legal here."""
        from shared_rules.kubitva import text as kt
        action = kt.action_number(self, text)
        if self.is_legal(action):
            return action
        raise RulesError("action %r: %s" % (text, kt.why_illegal(self, action)))



def _filled(n, v):
    """bytearray(n) holding v everywhere (MicroPython has no bytearray * int)."""
    b = bytearray(n)
    for i in range(n):
        b[i] = v
    return b


# ---------------------------------------------------------------------------------------------
# Binary action encoding for the board's log: the action number, 2 bytes big-endian.
# The same lines as Cephalopod's encoding but for the bound and the name, kept twice on purpose:
# a board loads one game's rules, and shared (a module of their own, or in grid.py) they
# cost it 416 B (288-304 B) of heap after `new` on the emulated Pico (measured at stop 35).


def encode_action(action):
    if action < 0 or action > END:
        raise RulesError("no KUBitva action: %r" % (action,))
    return bytes((action >> 8, action & 0xFF))


def decode_action(pos, buf, offset=0):
    """(action, next offset) of the encoded action at buf[offset:], legal in pos."""
    if offset + 2 > len(buf):
        raise RulesError("truncated action at byte %d" % offset)
    a = (buf[offset] << 8) | buf[offset + 1]
    if pos.is_legal(a):
        return a, offset + 2
    raise RulesError("encoded action %04x at byte %d is not legal in %s" % (a, offset,
                                                                             pos.notation()))


# ---------------------------------------------------------------------------------------------


def start_position(edition="board"):
    """The start of a map: 'board' (the 11x11 board edition) or 'full' (15x16)."""
    for name, text in MAPS:
        if name == edition:
            return Position.parse(text)
    raise RulesError("no KUBitva map %r (maps: %s)" % (edition, ", ".join(m[0] for m in MAPS)))


def named_position(word):
    """The start position for a map word ('board', 'full'), else None."""
    for name, text in MAPS:
        if name == word:
            return Position.parse(text)
    return None
