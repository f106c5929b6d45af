"""A model of a player's hand moving real pieces, for the virtual board and the benchmarks.

Given a rules action, `physical_steps()` produces what a hand does on the board: lift the piece,
put it down where the roll lands, move it on for a slide, a wind-rose hop or a teleport; turn
the stack on a spiral card where it stands. `Hand`
turns those steps into timed raw sensor readings, with the habits of people: lifting first or
tipping the cube onto its new cell before it leaves the old one, dragging a piece across other
cells, hesitating with a piece in the air, hovering over a cell, contacts bouncing as a piece
lands. Everything is seeded, so a run can be repeated exactly. What the sensors read of it is
the board's: revision A's occupancy (`OccupancyBoard`), or revision B's fields
(hallfield.HallBoard, beside this module: the same habits, with the physics of the magnets).
"""

import random

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g


def physical_steps(pos, action):
    """The hand's moves for action in pos (before it is pushed): a list of ("move", a, b),
    meaning take the top item of a and put it on b, or [("press", "end")] for `end`, or
    [("turn", c, d)] for a spiral turn: the hand turns the stack on c a quarter turn where it
    stands (d as the rules' TURN: 0 clockwise, 1 anticlockwise); no piece changes cells."""
    if action[0] == cc.END:
        return [("press", "end")]
    if action[0] == cc.TURN:
        return [("turn", action[1], action[2])]
    steps = []
    at = action[1]
    for w in cc.action_path(pos, action):
        steps.append(("move", at, w))
        at = w
    return steps


def _path_cells(a, b):
    """Cells a hand drags a piece across between a and b (excluding both), straight line."""
    ax, ay = a % 11, a // 11
    bx, by = b % 11, b // 11
    n = max(abs(bx - ax), abs(by - ay))
    out = []
    for i in range(1, n):
        x = ax + (bx - ax) * i // n
        y = ay + (by - ay) * i // n
        c = y * 11 + x
        if c not in out and c != a and c != b:
            out.append(c)
    return out


class OccupancyBoard:
    """What the hand works on, as revision A's sensors see it: how many pieces each cell holds
    (from pos), read as the occupancy bitmap. A revision-B board
    (hallfield.HallBoard) has the same four methods and reads fields."""

    def __init__(self, pos):
        lids = pos.lids or bytes(g.N_CELLS)  # a biohazard is a card lying on a cube
        self.count = [len(pos.stacks[c]) + (1 if pos.cards[c] else 0) + (1 if lids[c] else 0)
                      for c in range(g.N_CELLS)]

    def read(self, extra=(), source=None):
        """The raw sensor reading now; extra: cells the carried piece is just over (source: the
        cell it is being tipped from)."""
        b = bytearray(16)
        count = self.count
        for c in range(g.N_CELLS):
            if count[c] > 0 or c in extra:
                b[c >> 3] |= 1 << (c & 7)
        return b

    def lift(self, a):
        self.count[a] -= 1

    def place(self, b):
        self.count[b] += 1

    def empty(self, b):
        return self.count[b] == 0

    def turn(self, c, d):
        pass  # the stack turns where it stands: every cell holds what it held


class Hand:
    """Turns physical steps into (raw reading, duration ms) segments with human habits."""

    def __init__(self, seed=0, tip=0.3, drag=0.2, hesitate=0.15, hover=0.1, bounce=0.3):
        self.rng = random.Random(seed)
        self.tip = tip  # put the cube on its new cell before it leaves the old one
        self.drag = drag  # drag the piece across the cells between
        self.hesitate = hesitate  # hold the piece in the air for a while
        self.hover = hover  # pass over another cell on the way
        self.bounce = bounce  # contacts bounce as the piece lands

    def segments(self, pos, steps, board=None):
        """Raw sensor readings over time for steps, starting from pos. board: what the hand
        works on and how it reads (default: revision A's occupancy of pos)."""
        rng = self.rng
        board = board if board is not None else OccupancyBoard(pos)
        out = []
        read = board.read
        for step in steps:
            if step[0] == "turn":
                # The hand takes the stack and turns it where it stands (a spiral turn): no
                # cell empties; its pieces may shift in their recess, as under any hand.
                out.append((read(), rng.randint(80, 300)))
                board.turn(step[1], step[2])
                out.append((read(), rng.randint(60, 200)))
                continue
            if step[0] != "move":
                continue
            _, a, b = step
            if a == b:
                continue
            out.append((read(), rng.randint(80, 300)))
            adjacent = b in [g.NEIGHBOUR[a * 4 + d] for d in range(4)]
            if adjacent and rng.random() < self.tip:
                out.append((read((b,), a), rng.randint(40, 120)))  # tipped: both cells read
            board.lift(a)
            if rng.random() < self.hesitate:
                out.append((read(), rng.randint(400, 2500)))
            else:
                out.append((read(), rng.randint(40, 200)))
            if rng.random() < self.drag:
                for c in _path_cells(a, b):
                    out.append((read((c,)), rng.randint(5, 20)))
                    out.append((read(), rng.randint(5, 15)))
            if rng.random() < self.hover:
                around = g.around(b)
                c = around[rng.randrange(len(around))]
                out.append((read((c,)), rng.randint(5, 20)))
                out.append((read(), rng.randint(10, 60)))
            if rng.random() < self.bounce and board.empty(b):
                for _ in range(rng.randint(1, 3)):
                    out.append((read((b,)), rng.randint(2, 8)))
                    out.append((read(), rng.randint(2, 8)))
            board.place(b)
            out.append((read(), rng.randint(60, 200)))
        return out
