# КУБитва rules core: the codes and names that the rules (rules.py) and the notations (text.py)
# share: sides, directions, cube codes and letters, action codes, prices, and the one exception
# type. rules.py takes them all over, so `kb.BRICK`, `kb.RulesError` ... work on it.

S = 0
N = 1
SEAT_LETTERS = "SN"
DIR_LETTERS = "nesw"
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
MAX_CELLS = 255
NONE = 255  # "no cell" in the byte tables

# Cube codes.
EMPTY = 0
BRICK = 1      # building cube (wall)
ARMOUR = 2     # armour cube (wall)
WASTE = 3
INCOME = 4     # house
INDUSTRY = 5   # factory
MILITARY = 6   # barracks
RECYCLING = 7  # recycler
BASE = 8
WORKER = 16    # + side
SOLDIER = 18   # + side
CUBE_LETTERS = ".baxipmrq"  # codes 0..8
UNIT_LETTERS = "WwSs"       # codes 16..19

FRESH = 2
MOVE_POINTS = 10

# Action codes (cell * 256 + code).
KILL = 20
FILL = 24
BUY = 40
END = 0xFFFF
FILL_KINDS = (INCOME, INDUSTRY, MILITARY, RECYCLING)
FILL_LETTERS = "ipmr"
ITEM_LETTERS = "bawskKx"
ITEM_COST = (2, 5, 2, 5, 10, 20, 2)
ITEM_BUILDING = (INDUSTRY, INDUSTRY, INCOME, MILITARY, MILITARY, MILITARY, RECYCLING)
IT_BRICK = 0
IT_ARMOUR = 1
IT_WORKER = 2
IT_SOLDIER = 3
IT_ROCKET = 4
IT_SUPER = 5
IT_RECYCLE = 6


class RulesError(Exception):
    """Bad input to the rules: a malformed position, a malformed or illegal action."""


def direction(nb, a, b):
    """The direction from cell a to its neighbour b, or -1."""
    for d in range(4):
        if nb[a * 4 + d] == b:
            return d
    return -1
