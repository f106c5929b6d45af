# Cephalopod rules core (Mark Steere, 2006): position, legal actions, push/pop, notation, perft.
#
# Runs unchanged on the board (MicroPython) and on the PC (CPython): one bytearray for the
# board, small ints for actions, one bytearray undo log, no CPython-only modules. The rules as
# implemented, the notations and the binary encoding are written out in docs/rules/cephalopod.md;
# the face is the one of shared_rules.cargocube.rules (docs/rules/api.md).
#
# Representation
# - Cell index c = y * cols + x: x = column a.. (west to east), y = row 1.. (south to north),
#   as on the Cargocube board. The position notation lists the rows from the top (north) down.
# - cells[c]: 0 empty, else a die: pips (1..6) + 8 * colour (WHITE 0, BLACK 1).
# - An action is a small int: c * 16 + mask, mask the set of captured neighbours
#   (bit 0 north, 1 east, 2 south, 3 west); mask 0 is a plain placement (the die shows 1).

from shared_rules import versions as _versions
from shared_rules.grid import neighbours as _neighbours
from shared_rules.perft import perft  # noqa: F401 (the same for every rules core)

# The rules' version, written into every game log; bumped in shared_rules/versions.py.
RULES_VERSION = _versions.version("cephalopod")

WHITE = 0
BLACK = 1
SEAT_LETTERS = "wb"  # seat 0 is white (moves first), seat 1 black

SIZES = ((5, 5), (3, 5), (5, 3), (3, 3))  # (rows, columns) the rules core accepts

DIR_LETTERS = "nesw"
MAX_SUM = 6

# Capture masks with at least two neighbours, in the order legal_actions() lists them.
CAPTURE_MASKS = (3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15)
_POP = b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"


class RulesError(Exception):
    """Bad input to the rules: a malformed position, a malformed or illegal action."""


def _check_size(rows, cols):
    if (rows, cols) not in SIZES:
        raise RulesError("board %dx%d: Cephalopod is played on 5x5, 3x5 (or 5x3) and 3x3"
                         % (rows, cols))


class Position:
    """A Cephalopod position: the dice on the board and the colour to move."""

    SEAT_LETTERS = SEAT_LETTERS
    seats = (WHITE, BLACK)

    def __init__(self, rows=5, cols=5):
        _check_size(rows, cols)
        self.rows = rows
        self.cols = cols
        self.cells = bytearray(rows * cols)
        self.to_move = WHITE
        self._nb = _neighbours(rows, cols)
        self._count = [0, 0]  # cells held by white, black
        self._empty = rows * cols
        self._undo = bytearray(32)  # undo records, see push(); used up to _ulen
        self._ulen = 0
        self._ply = 0

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        """Parse the one-line notation 'ROW/ROW/... SIDE'; raise RulesError naming the problem."""
        if not isinstance(text, str):
            raise RulesError("position must be text")
        fields = text.split()
        if len(fields) != 2:
            raise RulesError("position needs 2 fields '<rows> <side to move>' (rows top to "
                             "bottom, separated by '/'), got %d" % len(fields))
        rows_text, side = fields
        if side not in ("w", "b"):
            raise RulesError("side to move %r must be w or b" % side)
        lines = rows_text.split("/")
        parsed = []
        for i in range(len(lines)):
            parsed.append(_parse_row(lines[i], i + 1))
        cols = len(parsed[0])
        for i in range(len(parsed)):
            if len(parsed[i]) != cols:
                raise RulesError("row %d has %d cells, row 1 has %d (rows are counted from the "
                                 "top)" % (i + 1, len(parsed[i]), cols))
        pos = cls(len(parsed), cols)
        rows = pos.rows
        for i in range(rows):
            row = parsed[i]
            base = (rows - 1 - i) * cols
            for x in range(cols):
                v = row[x]
                if v:
                    pos.cells[base + x] = v
                    pos._count[v >> 3] += 1
                    pos._empty -= 1
        pos.to_move = WHITE if side == "w" else BLACK
        return pos

    def copy(self):
        p = Position(self.rows, self.cols)
        p.cells = bytearray(self.cells)
        p.to_move = self.to_move
        p._count[0] = self._count[0]
        p._count[1] = self._count[1]
        p._empty = self._empty
        return p

    def notation(self):
        cols = self.cols
        cells = self.cells
        parts = []
        for y in range(self.rows - 1, -1, -1):
            row = ""
            for x in range(cols):
                v = cells[y * cols + x]
                row += die_text(v) if v else "."
            parts.append(row)
        return "/".join(parts) + " " + SEAT_LETTERS[self.to_move]

    def __repr__(self):
        return "<cephalopod %s>" % self.notation()

    # -- queries --------------------------------------------------------------------------------

    def is_over(self):
        return self._empty == 0

    def scores(self):
        """Cells held, indexed by seat: [white, black]."""
        return [self._count[0], self._count[1]]

    def winners(self):
        """[seat] of the colour holding more cells once the board is full ([] before). Boards
        of the accepted sizes have an odd number of cells, so there is never a tie."""
        if self._empty:
            return []
        w = self._count[0]
        b = self._count[1]
        if w > b:
            return [WHITE]
        if b > w:
            return [BLACK]
        return [WHITE, BLACK]

    def pips(self, c):
        """Pips of the die on cell c (0 if empty)."""
        return self.cells[c] & 7

    def colour(self, c):
        """WHITE, BLACK, or -1 if cell c is empty."""
        v = self.cells[c]
        return (v >> 3) if v else -1

    def cell_name(self, c):
        return cell_name(c, self.cols)

    def parse_cell(self, text):
        """Index of the cell named text on this board, or -1."""
        return parse_cell(text, self.rows, self.cols)

    # -- move generation ------------------------------------------------------------------------

    def legal_actions(self):
        """All legal actions: cells in index order (a1, b1, ..., then row 2, ...); on a cell
        either the plain placement or its capture masks in CAPTURE_MASKS order."""
        out = []
        if not self._empty:
            return out
        cells = self.cells
        nb = self._nb
        for c in range(len(cells)):
            if cells[c]:
                continue
            _captures(cells, nb, c, out)
        return out

    def capture_masks(self, c):
        """The capture masks possible on empty cell c ([] if the placement captures nothing)."""
        out = []
        _captures(self.cells, self._nb, c, out)
        if len(out) == 1 and out[0] & 15 == 0:
            return []
        return [a & 15 for a in out]

    def captured_cells(self, action):
        """The cells the action captures, in direction order n, e, s, w."""
        c = action >> 4
        m = action & 15
        nb = self._nb
        out = []
        for d in range(4):
            if m >> d & 1:
                out.append(nb[c * 4 + d])
        return out

    # -- make / unmake --------------------------------------------------------------------------

    def push(self, action):
        """Apply an action (assumed legal; see push_checked)."""
        c = action >> 4
        m = action & 15
        cells = self.cells
        count = self._count
        log = self._undo
        i = self._ulen
        if len(log) < i + 6:
            log.extend(bytearray(32))
        if m:
            nb = self._nb
            total = 0
            for d in range(4):
                if m >> d & 1:
                    n = nb[c * 4 + d]
                    v = cells[n]
                    log[i] = v
                    i += 1
                    total += v & 7
                    cells[n] = 0
                    count[v >> 3] -= 1
            self._empty += _POP[m]
        else:
            total = 1
        # Undo record: the captured dice in direction order, then the cell and the mask.
        log[i] = c
        log[i + 1] = m
        self._ulen = i + 2
        side = self.to_move
        cells[c] = total | (side << 3)
        count[side] += 1
        self._empty -= 1
        self.to_move = side ^ 1
        self._ply += 1

    def pop(self):
        """Undo the last pushed action and return it."""
        if not self._ply:
            raise RulesError("no action to take back")
        log = self._undo
        i = self._ulen - 2
        c = log[i]
        m = log[i + 1]
        cells = self.cells
        count = self._count
        side = cells[c] >> 3
        cells[c] = 0
        count[side] -= 1
        self._empty += 1
        if m:
            nb = self._nb
            i -= _POP[m]
            j = i
            for d in range(4):
                if m >> d & 1:
                    v = log[j]
                    j += 1
                    cells[nb[c * 4 + d]] = v
                    count[v >> 3] += 1
            self._empty -= _POP[m]
        self._ulen = i
        self.to_move = side
        self._ply -= 1
        return c * 16 + m

    def push_checked(self, action):
        if action not in self.legal_actions():
            raise RulesError("illegal action %s in %s" % (self._describe(action),
                                                          self.notation()))
        self.push(action)

    def history(self):
        """The actions pushed so far, oldest first."""
        out = []
        log = self._undo
        end = self._ulen
        while end:
            m = log[end - 1]
            out.append(log[end - 2] * 16 + m)
            end -= 2 + _POP[m]
        out.reverse()
        return out

    def ply(self):
        """How many actions have been pushed."""
        return self._ply

    # -- action notation ------------------------------------------------------------------------

    def format_action(self, action):
        """`c3` for a placement, `c3:c4,d3` for a capture (captured cells in direction order
        n, e, s, w)."""
        c = action >> 4
        text = cell_name(c, self.cols)
        if action & 15:
            names = []
            for n in self.captured_cells(action):
                names.append(cell_name(n, self.cols))
            text += ":" + ",".join(names)
        return text

    def _describe(self, action):
        try:
            return self.format_action(action)
        except Exception:
            return repr(action)

    def parse_action(self, text):
        """The legal action written as text (captured cells in any order); RulesError naming
        the problem if malformed or not legal here."""
        if not isinstance(text, str) or not text:
            raise RulesError("empty action")
        colon = text.find(":")
        head = text if colon < 0 else text[:colon]
        c = self.parse_cell(head)
        if c < 0:
            raise RulesError("action %r: %r is no cell of the %dx%d board (columns a-%s, rows "
                             "1-%d)" % (text, head, self.rows, self.cols,
                                        "abcde"[self.cols - 1], self.rows))
        m = 0
        if colon >= 0:
            names = text[colon + 1:].split(",")
            for name in names:
                n = self.parse_cell(name)
                if n < 0:
                    raise RulesError("action %r: captured %r is no cell of the board"
                                     % (text, name))
                d = 0
                while d < 4 and self._nb[c * 4 + d] != n:
                    d += 1
                if d == 4:
                    raise RulesError("action %r: %s is not next to %s" % (text, name, head))
                if m >> d & 1:
                    raise RulesError("action %r: %s is listed twice" % (text, name))
                m |= 1 << d
        action = c * 16 + m
        if action in self.legal_actions():
            return action
        raise RulesError(self._why_illegal(text, c, m))

    def _why_illegal(self, text, c, m):
        if self.is_over():
            return "action %r: the game is over (the board is full)" % text
        cells = self.cells
        if cells[c]:
            return "action %r: %s is occupied" % (text, cell_name(c, self.cols))
        masks = self.capture_masks(c)
        if not m:
            a = c * 16 + masks[0]
            return ("action %r: a die placed on %s must capture (at least two neighbours "
                    "summing to %d or less), e.g. %s" % (text, cell_name(c, self.cols),
                                                         MAX_SUM, self.format_action(a)))
        if _POP[m] < 2:
            return "action %r: a capture takes at least two neighbours" % text
        total = 0
        for n in self.captured_cells(c * 16 + m):
            if not cells[n]:
                return "action %r: %s is empty" % (text, cell_name(n, self.cols))
            total += cells[n] & 7
        return "action %r: the captured dice sum to %d, more than %d" % (text, total, MAX_SUM)


def _captures(cells, nb, c, out):
    """Append the actions on empty cell c to out: its capture masks, else the placement."""
    base = c * 4
    occ = 0
    p0 = p1 = p2 = p3 = 0
    n = nb[base]
    if n != 255 and cells[n]:
        p0 = cells[n] & 7
        occ = 1
    n = nb[base + 1]
    if n != 255 and cells[n]:
        p1 = cells[n] & 7
        occ |= 2
    n = nb[base + 2]
    if n != 255 and cells[n]:
        p2 = cells[n] & 7
        occ |= 4
    n = nb[base + 3]
    if n != 255 and cells[n]:
        p3 = cells[n] & 7
        occ |= 8
    a = c << 4
    if _POP[occ] >= 2:
        found = False
        for m in CAPTURE_MASKS:
            if m & occ != m:
                continue
            s = 0
            if m & 1:
                s = p0
            if m & 2:
                s += p1
            if m & 4:
                s += p2
            if m & 8:
                s += p3
            if s <= MAX_SUM:
                out.append(a | m)
                found = True
        if found:
            return
    out.append(a)


def die_text(v):
    """'w1'..'w6', 'b1'..'b6' for a die code."""
    return SEAT_LETTERS[v >> 3] + str(v & 7)


def _parse_row(text, number):
    out = []
    i = 0
    n = len(text)
    if not n:
        raise RulesError("row %d is empty" % number)
    while i < n:
        ch = text[i]
        if ch == ".":
            out.append(0)
            i += 1
            continue
        if ch == "w" or ch == "b":
            if i + 1 < n and text[i + 1] in "123456":
                out.append(int(text[i + 1]) + (8 if ch == "b" else 0))
                i += 2
                continue
            raise RulesError("row %d: die %r needs pips 1-6 after its colour, e.g. %s3"
                             % (number, text[i:i + 2], ch))
        raise RulesError("row %d: %r is neither '.' nor a die such as w1 or b6" % (number, ch))
    return out


def cell_name(c, cols):
    return "abcde"[c % cols] + str(c // cols + 1)


def parse_cell(text, rows, cols):
    """Index of the cell named text (e.g. 'c3') on a rows x cols board, or -1."""
    if len(text) != 2:
        return -1
    x = "abcde".find(text[0])
    y = "12345".find(text[1])
    if x < 0 or x >= cols or y < 0 or y >= rows:
        return -1
    return y * cols + x


# ---------------------------------------------------------------------------------------------
# Binary action encoding for the board's log: two bytes, big-endian cell * 16 + mask (the action
# int itself, < 400). Decoding needs the position (the action must be legal there).
# The same lines as KUBitva's encoding but for the bound and the name, kept twice on purpose:
# a board loads one game's rules, and shared (a module of their own, or in grid.py) they
# cost it 416 B (288-304 B) of heap after `new` on the emulated Pico (measured at stop 35).


def encode_action(action):
    if action < 0 or action >= 400:
        raise RulesError("no Cephalopod action: %r" % (action,))
    return bytes((action >> 8, action & 0xFF))


def decode_action(pos, buf, offset=0):
    """(action, next offset) of the encoded action at buf[offset:], legal in pos."""
    if offset + 2 > len(buf):
        raise RulesError("truncated action at byte %d" % offset)
    a = (buf[offset] << 8) | buf[offset + 1]
    if a in pos.legal_actions():
        return a, offset + 2
    raise RulesError("encoded action %04x at byte %d is not legal in %s" % (a, offset,
                                                                             pos.notation()))


# ---------------------------------------------------------------------------------------------


def start_position(rows=5, cols=5):
    """The empty board, white to move."""
    return Position(rows, cols)


def named_position(word):
    """The start position for a size word ('5x5', '3x5', '5x3', '3x3'), else None. A size word
    of another size ('4x4') raises RulesError naming the sizes there are."""
    r, x, c = word.partition("x")
    if x and r.isdigit() and c.isdigit():
        try:
            rows, cols = int(r), int(c)
        except ValueError:  # CPython's isdigit takes '²', which int() does not
            return None
        return start_position(rows, cols)
    return None
