# «Формула 99» rules core: making positions (docs/rules/formula99.md §2): a new position's
# state (Position.__init__), the start, the public view of a full position. rules.py's
# functions of the same names import this module when they are called: the board makes a
# position once a game (and a public view never), and keeps this code out of its heap while
# it plays (firmware/games/formula99/plugin.py drops the module after). It does not import
# rules.py (the class comes in as an argument).

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import track as TK
from shared_rules.formula99.const import *  # noqa: F401,F403 (the shared constants)


def init(pos, civs, level, full):
    """Position.__init__: a position with no piece moved yet, nothing dealt."""
    n = len(civs)
    if n < 2 or n > 9:
        raise RulesError("%d players: «Формула 99» is played by 2 to 9" % n)
    if level not in (1, 2, 3):
        raise RulesError("level %r: the levels are 1, 2 and 3" % (level,))
    last = 0
    for civ in civs:
        if not (1 <= civ <= 9) or civ <= last:
            raise RulesError("civilisations %s: distinct, 1 to 9, in ascending (turn) order"
                             % ",".join([str(x) for x in civs]))
        last = civ
    s = bytearray(SIZE)
    s[O_LEVEL] = level
    s[O_NSEATS] = n
    s[O_FULL] = 1 if full else 0
    s[O_WINNER] = NONE
    for i in range(n):
        s[O_CIV + i] = civs[i]
    for q in range(18):
        s[O_SHIP + q] = TK.START
        s[O_CHG + q] = HOME
    pos.st = s
    pos._new_log()


def default_civs(n):
    """Seat i plays civilisation 1 + 9i // n (§2.1)."""
    return [1 + 9 * i // n for i in range(n)]


def start_position(cls, players, level, seed, civs):
    """rules.start_position, the position of class cls (rules.Position: passed in, as the
    notation's reader gets it, so that no import goes round)."""
    if civs is None:
        civs = default_civs(players)
    pos = cls(civs, level, full=seed is not None)
    s = pos.st
    n = len(civs)
    for i in range(n):
        s[O_HANDN + i] = 3
    if seed is not None:
        seed &= 0x7FFFFFFF
        deck = C.shuffle(list(range(1, 55)), seed)
        for j in range(3 * n):
            s[O_LOC + deck[j] - 1] = L_HAND + j % n
        rest = deck[3 * n:]
        m = len(rest)
        for i in range(m):
            s[O_DECK + m - 1 - i] = rest[i]
        s[O_DECKN] = m
        for i in range(4):
            s[O_SEED + i] = (seed >> (24 - 8 * i)) & 255
    pos._settle()
    return pos


def public(pos):
    """The public view of this position (hands as counts, charges and deck hidden)."""
    p = pos.copy()
    s = p.st
    if s[O_FULL]:
        s[O_FULL] = 0
        for c in range(54):
            if s[O_LOC + c] != L_DISCARD:
                s[O_LOC + c] = L_DECK
        for q in range(18):
            if s[O_CHG + q] != HOME and s[O_CCARD + q] != BLOCKADE:
                s[O_CCARD + q] = UNKNOWN
        for i in range(54):
            s[O_DECK + i] = 0
        s[O_DECKN] = 0
        for i in range(4):
            s[O_SEED + i] = 0
    return p
