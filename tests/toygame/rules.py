# Toy: the smallest game with the rules core's face (docs/rules/api.md), for the test that a
# game plugs into every layer from its own folders (tests/test_toygame_layers.py). Runs under
# CPython and MicroPython.
#
# Two tokens on the 11x11 grid: S starts on e2, N on g10. The side to move steps its token one
# cell north, east, south or west, onto an empty cell that is not a corner. S wins on reaching
# row 4 or beyond, N on reaching row 8 or below; the winner scores 1.
#
# Position notation: "<S cell> <N cell> <side to move>", e.g. "e2 g10 S"; "start" names the
# start. An action is the destination cell index; its notation the cell name ("e3"); its
# binary encoding one byte.

from shared_rules import geometry as g

RULES_VERSION = 1
SEAT_LETTERS = "SN"
START = "e2 g10 S"
CORNERS = (0, 10, 110, 120)
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class RulesError(ValueError):
    pass


def named_position(word):
    return Position.parse(START) if word == "start" else None


def start_position():
    return Position.parse(START)


def _cell(text):
    c = g.parse_cell(text)
    if c < 0:
        raise RulesError("bad cell '%s'" % text)
    return c


class Position:
    def __init__(self, tokens, to_move):
        self.tokens = list(tokens)  # cell of seat 0 (S), seat 1 (N)
        self.to_move = to_move
        self.seats = (0, 1)
        self.SEAT_LETTERS = SEAT_LETTERS
        self._history = []

    @classmethod
    def parse(cls, text):
        words = text.split()
        if len(words) != 3 or words[2] not in ("S", "N"):
            raise RulesError("want '<S cell> <N cell> S|N', got '%s'" % text)
        tokens = [_cell(words[0]), _cell(words[1])]
        if tokens[0] == tokens[1] or tokens[0] in CORNERS or tokens[1] in CORNERS:
            raise RulesError("tokens on the same cell or on a corner: '%s'" % text)
        return cls(tokens, "SN".index(words[2]))

    def notation(self):
        return "%s %s %s" % (g.cell_name(self.tokens[0]), g.cell_name(self.tokens[1]),
                             SEAT_LETTERS[self.to_move])

    def copy(self):
        p = Position(self.tokens, self.to_move)
        p._history = list(self._history)
        return p

    def ply(self):
        return len(self._history)

    def history(self):
        return [h[0] for h in self._history]

    def cell_name(self, c):
        return g.cell_name(c)

    def winner(self):
        if self.tokens[0] // 11 >= 3:
            return 0
        if self.tokens[1] // 11 <= 7:
            return 1
        return -1

    def is_over(self):
        return self.winner() >= 0

    def winners(self):
        w = self.winner()
        return [w] if w >= 0 else []

    def scores(self):
        w = self.winner()
        return [1 if s == w else 0 for s in self.seats]

    def legal_actions(self):
        if self.is_over():
            return []
        c = self.tokens[self.to_move]
        x = c % 11
        y = c // 11
        out = []
        for dx, dy in _STEPS:
            nx = x + dx
            ny = y + dy
            if 0 <= nx < 11 and 0 <= ny < 11:
                d = ny * 11 + nx
                if d not in CORNERS and d not in self.tokens:
                    out.append(d)
        return out

    def push(self, a):
        if a not in self.legal_actions():
            raise RulesError("illegal action %s in %s" % (format_action(a), self.notation()))
        self._history.append((a, self.tokens[self.to_move]))
        self.tokens[self.to_move] = a
        self.to_move ^= 1

    def pop(self):
        if not self._history:
            raise RulesError("no action to take back")
        a, src = self._history.pop()
        self.to_move ^= 1
        self.tokens[self.to_move] = src
        return a

    def parse_action(self, text):
        a = _cell(text.strip())
        if a not in self.legal_actions():
            raise RulesError("illegal action '%s' in %s" % (text, self.notation()))
        return a

    def format_action(self, a):
        return format_action(a)


def format_action(a):
    return g.cell_name(a)


def encode_action(a):
    return bytes((a,))


def decode_action(pos, buf, offset):
    if offset >= len(buf):
        raise RulesError("no action byte")
    a = buf[offset]
    if a not in pos.legal_actions():
        raise RulesError("action %d is not legal in %s" % (a, pos.notation()))
    return a, offset + 1


def perft(pos, depth):
    if depth == 0:
        return 1
    n = 0
    for a in pos.legal_actions():
        pos.push(a)
        n += perft(pos, depth - 1)
        pos.pop()
    return n
