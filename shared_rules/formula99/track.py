# «Формула 99»: the track as data (docs/rules/formula99.md §1).
#
# A track cell is a small int id = t * 2 + lane: t = 0..35 its coordinate along the race, lane
# 0 blue, 1 yellow; a red cell (t % 4 == 3) has lane 0 only, so ids t * 2 + 1 of red t are
# unused. Places off the track follow the 72 track ids. Everything here is arithmetic or a
# small table, the same on the board and the PC.

LAP = 36
N_IDS = 72
START = 72  # a ship in its civilisation's start zone
FINISH = 73  # on its civilisation's finish cell
CONTROL = 74  # in the control room
NOWHERE = 127  # "no cell" in packed actions and agenda items

BLUE = 0
YELLOW = 1
LANE_LETTERS = "by"


def is_track(c):
    return 0 <= c < N_IDS and not (c & 1 and (c >> 1) & 3 == 3)


def lane_of(c):
    """The ship's own lane on cell c: its lane, blue on a red cell."""
    return c & 1


def is_red(c):
    return (c >> 1) & 3 == 3


def sector(c):
    """Sector 0..8 (sector k + 1 in the notation); a red cell is in the sector it closes."""
    return c >> 3


def lanes_mask(c):
    """1 blue, 2 yellow, 3 a red cell (both lanes)."""
    return 3 if (c >> 1) & 3 == 3 else 1 << (c & 1)


def plus_cell(civ):
    """The plus (start) cell of civilisation civ (1..9): its home sector's first blue cell."""
    return (civ - 1) * 8


def is_plus(c):
    return c & 7 == 0


def progress(c, civ):
    """Progress 0..35 of a ship of civ on track cell c."""
    return ((c >> 1) - (civ - 1) * 4) % LAP


def fwd(c, lane):
    """The cell one step forward from c; leaving a red cell into the given lane."""
    t = c >> 1
    if t & 3 == 3:
        return ((t + 1) % LAP) * 2 + lane
    if t & 3 == 2:
        return (t + 1) * 2
    return c + 2


def back(c, lane):
    """The cell one step backward from c; leaving a red cell backward into the given lane."""
    t = c >> 1
    if t & 3 == 3:
        return (t - 1) * 2 + lane
    if t & 3 == 0:
        return ((t - 1) % LAP) * 2
    return c - 2


def dist(a, b):
    """Distance round the track between two cells (the smaller difference of t)."""
    d = ((a >> 1) - (b >> 1)) % LAP
    return d if d <= LAP - d else LAP - d


def ahead(a, b, m):
    """Is cell b ahead of cell a within m sectors (§1.1)?"""
    k = (sector(b) - sector(a)) % 9
    if k >= m:
        return False
    return k > 0 or (b >> 1) > (a >> 1)


def behind(a, b, m):
    k = (sector(a) - sector(b)) % 9
    if k >= m:
        return False
    return k > 0 or (b >> 1) < (a >> 1)


def name(c):
    """'3y2', '4r' for track cells; START/FINISH/CONTROL need a civilisation: see place_name."""
    t = c >> 1
    s = str(t // 4 + 1)
    if t & 3 == 3:
        return s + "r"
    return s + LANE_LETTERS[c & 1] + str((t & 3) + 1)


def place_name(place, civ):
    if place < N_IDS:
        return name(place)
    if place == START:
        return "s" + str(civ)
    if place == FINISH:
        return "f" + str(civ)
    return "c"


def parse(text):
    """Track cell id of '3y2' or '4r', else -1."""
    n = len(text)
    if n < 2 or n > 3 or text[0] < "1" or text[0] > "9":
        return -1
    base = (ord(text[0]) - 49) * 4
    if n == 2:
        return (base + 3) * 2 if text[1] == "r" else -1
    lane = LANE_LETTERS.find(text[1])
    if lane < 0 or text[2] < "1" or text[2] > "3":
        return -1
    return (base + ord(text[2]) - 49) * 2 + lane


def parse_place(text):
    """(place, civ) for a track cell (civ 0), 's3', 'f3' or 'c' (civ 0); (-1, 0) if neither."""
    c = parse(text)
    if c >= 0:
        return c, 0
    if text == "c":
        return CONTROL, 0
    if len(text) == 2 and text[0] in "sf" and "1" <= text[1] <= "9":
        return (START if text[0] == "s" else FINISH), ord(text[1]) - 48
    return -1, 0


# -- the default layout on the 11x11 board (docs/rules/formula99.md §1.2) -----------------------
# The cells' names are layout.py's, read once into grid_tables()'s tables.

CONTROL_GRID = 5 * 11 + 5  # f6

_tables = None


def grid_tables():
    """(cell, start, finish): bytearray(72) grid index of each track id (255 unused);
    bytes(18) the two start-zone cells of civ k at 2(k-1), 2(k-1)+1; bytes(9) finish cells.
    Made once: the board's plug-in and tracker share them (read only). (layout.py, the names
    they are made from, is imported for that: the board drops it after.)"""
    global _tables
    if _tables is None:
        from shared_rules.formula99 import layout
        _tables = layout.grid_tables(N_IDS)
    return _tables
