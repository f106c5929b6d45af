# КУБитва rules core, its text: the position notation read into a Position, and an action's
# text read into its number with the reason when it is not legal (docs/rules/kubitva.md sections
# 9 and 10). Apart from shared_rules/kubitva/rules.py so that the board loads it only when it
# reads text (a new game, a position loaded from the host), and so that the rules module itself
# compiles in the Pico's heap from source.

from shared_rules.kubitva.codes import (
    ARMOUR, BRICK, BUY, COLUMNS, CUBE_LETTERS, DIR_LETTERS, EMPTY, END, FILL, FILL_LETTERS,
    FRESH, INCOME, ITEM_BUILDING, ITEM_COST, ITEM_LETTERS, IT_ROCKET, IT_SUPER, KILL,
    MOVE_POINTS, NONE, RulesError, SEAT_LETTERS, UNIT_LETTERS, WASTE, WORKER)
from shared_rules.kubitva.codes import direction as _direction


def parse_position(cls, text):
    """Parse the one-line notation (docs section 9); RulesError naming the problem."""
    if not isinstance(text, str):
        raise RulesError("position must be text")
    fields = text.split()
    if len(fields) != 5:
        raise RulesError("position needs 5 fields '<cells> <territory> <side> <treasuries> "
                         "<turn>/<limit>', got %d" % len(fields))
    cells_text, terr_text, side, money, turn = fields
    lines = cells_text.split("/")
    parsed = []
    for i in range(len(lines)):
        parsed.append(_parse_row(lines[i], i + 1))
    cols = len(parsed[0][0])
    for i in range(len(parsed)):
        if len(parsed[i][0]) != cols:
            raise RulesError("row %d has %d cells, row 1 has %d (rows are counted from the "
                             "top)" % (i + 1, len(parsed[i][0]), cols))
    rows = len(parsed)
    pos = cls(rows, cols)
    if side not in ("S", "N"):
        raise RulesError("side to move %r must be S or N" % side)
    pos.to_move = 0 if side == "S" else 1
    for i in range(rows):
        codes, pts = parsed[i]
        base = (rows - 1 - i) * cols
        for x in range(cols):
            v = codes[x]
            pos.cells[base + x] = v
            if pts[x] != MOVE_POINTS:
                if v & 1 != pos.to_move:
                    raise RulesError("%s: only the side to move's units show move points "
                                     "(the others have 10)" % pos.cell_name(base + x))
                pos.points[base + x] = pts[x]
    _territory(pos, terr_text)
    _money(pos, money)
    _turn(pos, turn)
    for c in range(pos.n):
        if pos.cells[c] >= WORKER and pos.cells[c] & 1 == pos.to_move \
                and 0 < pos.points[c] < MOVE_POINTS:
            if pos.active >= 0:
                raise RulesError("%s and %s both have 1-9 move points: only one unit (the "
                                 "one moving) may" % (pos.cell_name(pos.active),
                                                      pos.cell_name(c)))
            pos.active = c
    pos._index()
    return pos

def _territory(pos, text):
    lines = text.split("/")
    if len(lines) != pos.rows:
        raise RulesError("territory has %d rows, the grid %d" % (len(lines), pos.rows))
    cols = pos.cols
    for i in range(pos.rows):
        line = lines[i]
        base = (pos.rows - 1 - i) * cols
        x = 0
        j = 0
        while j < len(line):
            k = j
            while k < len(line) and "0" <= line[k] <= "9":
                k += 1
            if k == len(line):
                raise RulesError("territory row %d: %r ends without a side letter"
                                 % (i + 1, line))
            count = int(line[j:k]) if k > j else 1
            ch = line[k]
            v = "SNsn".find(ch)
            if v < 0:
                raise RulesError("territory row %d: %r is not S, N, s or n" % (i + 1, ch))
            if count < 1 or x + count > cols:
                raise RulesError("territory row %d: %r does not give the %d cells of the row"
                                 % (i + 1, line, cols))
            if v >= 2 and v - 2 != pos.to_move:
                raise RulesError("territory row %d: cells captured this turn (%s) must be "
                                 "the side to move's" % (i + 1, ch))
            for c in range(base + x, base + x + count):
                pos.terr[c] = (v & 1) | (FRESH if v >= 2 else 0)
            x += count
            j = k + 1
        if x != cols:
            raise RulesError("territory row %d: %r gives %d cells, the row has %d"
                             % (i + 1, line, x, cols))

def _money(pos, text):
    parts = text.split(",")
    try:  # (CPython's isdigit takes '²', which int() does not)
        if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
            raise ValueError
        pos.treasury = [int(parts[0]), int(parts[1])]
    except ValueError:
        raise RulesError("treasuries %r must be two non-negative integers 'S,N'" % text)

def _turn(pos, text):
    parts = text.split("/")
    try:  # (CPython's isdigit takes '²', which int() does not)
        if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
            raise ValueError
        pos.turn = int(parts[0])
        pos.limit = int(parts[1])
    except ValueError:
        raise RulesError("turn %r must be '<turn>/<limit>', e.g. 1/60" % text)
    if pos.turn < 1 or pos.limit < 1 or pos.turn > pos.limit + 1:
        raise RulesError("turn %r: turn and limit are 1 or more, the turn at most limit + 1"
                         % text)


def _cell_of_text(pos, text, whole, what):
    c = pos.parse_cell(text)
    if c < 0:
        raise RulesError("action %r: %s %r is no cell of the %dx%d grid (columns a-%s, "
                         "rows 1-%d)" % (whole, what, text, pos.cols, pos.rows,
                                         COLUMNS[pos.cols - 1], pos.rows))
    return c

def action_number(pos, text):
    """The action number the text names (not checked for legality)."""
    if not isinstance(text, str) or not text:
        raise RulesError("empty action")
    if text == "end":
        return END
    nb = pos.nb
    at = text.find("@")
    if at >= 0:
        letter = text[:at]
        slash = text.find("/", at)
        if len(letter) != 1 or (letter not in FILL_LETTERS and letter not in ITEM_LETTERS) \
                or slash < 0:
            raise RulesError("action %r: a fill or purchase is written LETTER@ROOM/OPENING "
                             "with LETTER one of %s (fill) or %s (buy)"
                             % (text, FILL_LETTERS, ITEM_LETTERS))
        r = _cell_of_text(pos, text[at + 1:slash], text, "room")
        o = _cell_of_text(pos, text[slash + 1:], text, "opening")
        r = _door_of(pos, r, o, text)
        d = _direction(nb, r, o)
        if d < 0:
            raise RulesError("action %r: the opening %s is not next to the room %s"
                             % (text, pos.cell_name(o), pos.cell_name(r)))
        if letter in FILL_LETTERS:
            return (r << 8) + FILL + 4 * FILL_LETTERS.find(letter) + d
        return (r << 8) + BUY + 4 * ITEM_LETTERS.find(letter) + d
    kill = text.find("x", 2) if text.find("+") < 0 else -1
    if kill >= 0:
        u = _cell_of_text(pos, text[:kill], text, "soldier")
        t = _cell_of_text(pos, text[kill + 1:], text, "victim")
        d = _direction(nb, u, t)
        if d < 0:
            raise RulesError("action %r: %s is not next to %s" % (text, text[kill + 1:],
                                                                   text[:kill]))
        return (u << 8) + KILL + d
    plus = text.find("+")
    head = text if plus < 0 else text[:plus]
    if len(head) < 3 or head[-1] not in DIR_LETTERS:
        raise RulesError("action %r: not an action (a step is e4n or e4n+e5, a kill e4xe5, "
                         "a fill i@c3/c4, a purchase b@c3/c4, or end)" % text)
    u = _cell_of_text(pos, head[:-1], text, "unit")
    d = DIR_LETTERS.find(head[-1])
    m = 0
    if plus >= 0:
        k = _cell_of_text(pos, text[plus + 1:], text, "cube")
        e = _direction(nb, u, k)
        if e < 0:
            raise RulesError("action %r: the cube %s is not next to the unit %s"
                             % (text, text[plus + 1:], head[:-1]))
        m = 1 + e
    return (u << 8) + 5 * d + m

def _door_of(pos, r, o, text):
    """The door room of the rooms reached from r without passing o (parse accepts any room
    of the building to be filled, or bought at)."""
    if _direction(pos.nb, r, o) >= 0:
        return r
    cells = pos.cells
    if cells[r] == BRICK or cells[r] == ARMOUR or cells[o] == BRICK or cells[o] == ARMOUR:
        return r
    rooms = pos.rooms_of(r, o)
    doors = [x for x in rooms if _direction(pos.nb, x, o) >= 0]
    if len(doors) == 1:
        return doors[0]
    raise RulesError("action %r: the rooms of %s touch the opening %s %s" % (
        text, pos.cell_name(r), pos.cell_name(o), "nowhere" if not doors else
        "through several cells"))

def why_illegal(pos, a):
    if pos.is_over():
        return "the game is over"
    if a == END:
        return "not legal here"
    c = a >> 8
    code = a & 255
    cells = pos.cells
    side = pos.to_move
    nb = pos.nb
    if code < FILL:
        v = cells[c]
        if v < WORKER or v & 1 != side:
            return "%s holds no unit of %s" % (pos.cell_name(c), SEAT_LETTERS[side])
        if not pos.points[c]:
            return "the unit on %s has no move points left (used this turn)" % \
                pos.cell_name(c)
        if code >= KILL:
            t = nb[c * 4 + code - KILL]
            if not v & 2:
                return "only soldiers kill"
            if cells[t] < WORKER or cells[t] & 1 == side:
                return "%s holds no enemy unit" % pos.cell_name(t)
            return "the border must run between the soldier and its victim"
        d = code // 5
        t = nb[c * 4 + d]
        if t == NONE:
            return "the step leaves the grid"
        if not v & 2 and pos.terr[t] & 1 != side:
            return "workers cannot cross the border"
        if code % 5:
            k = nb[c * 4 + code % 5 - 1]
            if cells[k] == EMPTY or cells[k] > WASTE:
                return "%s holds no building cube, armour or waste" % pos.cell_name(k)
            if pos.near_base[k]:
                return "a cube next to a base cube cannot be moved"
        return "the way is not free (a cube cannot enter or pass another)"
    d = code & 3
    if code < BUY:
        return "%s is no room that opening %s encloses for %s (walls all round, one opening " \
            "touching one room, every room empty, own land, off the edge)" % (
                pos.cell_name(c), pos.cell_name(nb[c * 4 + d]), SEAT_LETTERS[side])
    item = (code - BUY) >> 2
    b = pos._building_at(c, d)
    if b is None:
        return "no intact building has its door room on %s and its opening on %s" % (
            pos.cell_name(c), pos.cell_name(nb[c * 4 + d]))
    if b[0][0] != ITEM_BUILDING[item]:
        return "%s is sold by a %s" % (ITEM_LETTERS[item], BUILDING_NAMES[
            ITEM_BUILDING[item] - INCOME])
    if not pos._usable(b[0][1], side):
        return "the building is not %s's to use this turn" % SEAT_LETTERS[side]
    if pos.treasury[side] < ITEM_COST[item]:
        return "it costs %d, %s has %d" % (ITEM_COST[item], SEAT_LETTERS[side],
                                            pos.treasury[side])
    if item == IT_ROCKET or item == IT_SUPER:
        return "the rocket has no target it can destroy"
    return "the front cell is blocked, off the grid or across the border"


BUILDING_NAMES = ("house", "factory", "barracks", "recycler")


def _parse_row(text, number):
    """(codes, points) of one row of the cells field."""
    codes = []
    pts = []
    i = 0
    n = len(text)
    if not n:
        raise RulesError("row %d is empty" % number)
    while i < n:
        ch = text[i]
        k = CUBE_LETTERS.find(ch)
        if k >= 0:
            codes.append(k)
            pts.append(MOVE_POINTS)
            i += 1
            if i < n and "0" <= text[i] <= "9":
                raise RulesError("row %d: %r: only units (W w S s) carry move points"
                                 % (number, text[i - 1:i + 1]))
            continue
        k = UNIT_LETTERS.find(ch)
        if k < 0:
            raise RulesError("row %d: %r is no cube (%s, units %s)" % (number, ch, CUBE_LETTERS,
                                                                     UNIT_LETTERS))
        codes.append(WORKER + k)
        i += 1
        if i < n and "0" <= text[i] <= "9":
            pts.append(int(text[i]))
            i += 1
        else:
            pts.append(MOVE_POINTS)
    return codes, pts
