"""A model of a player's hand moving real pieces, for the virtual board and the benchmarks.

Given a rules action, `physical_steps()` produces what a hand does on the board: lift the piece,
put it down where the roll lands, move it on for a slide, a wind-rose hop or a teleport. `Hand`
turns those steps into timed raw sensor readings, with the habits of people: lifting first or
tipping the cube onto its new cell before it leaves the old one, dragging a piece across other
cells, hesitating with a piece in the air, hovering over a cell, contacts bouncing as a piece
lands. Everything is seeded, so a run can be repeated exactly.
"""

import random

from shared_rules.cargocube import rules as cc
from shared_rules import geometry as g


def physical_steps(pos, action):
    """The hand's moves for action in pos (before it is pushed): a list of ("move", a, b),
    meaning take the top item of a and put it on b, or [("press", "end")] for `end`."""
    if action[0] == cc.END:
        return [("press", "end")]
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


class Hand:
    """Turns physical steps into (raw bitmap, duration ms) segments with human habits."""

    def __init__(self, seed=0, tip=0.3, drag=0.2, hesitate=0.15, hover=0.1, bounce=0.3):
        self.rng = random.Random(seed)
        self.tip = tip  # put the cube on its new cell before it leaves the old one
        self.drag = drag  # drag the piece across the cells between
        self.hesitate = hesitate  # hold the piece in the air for a while
        self.hover = hover  # pass over another cell on the way
        self.bounce = bounce  # contacts bounce as the piece lands

    def segments(self, pos, steps):
        """Raw sensor readings over time for steps, starting from pos's occupancy."""
        rng = self.rng
        lids = pos.lids or bytes(g.N_CELLS)  # a biohazard is a card lying on a cube
        count = [len(pos.stacks[c]) + (1 if pos.cards[c] else 0) + (1 if lids[c] else 0)
                 for c in range(g.N_CELLS)]
        out = []

        def bitmap(extra=()):
            b = bytearray(16)
            for c in range(g.N_CELLS):
                if count[c] > 0 or c in extra:
                    b[c >> 3] |= 1 << (c & 7)
            return b

        for step in steps:
            if step[0] != "move":
                continue
            _, a, b = step
            if a == b:
                continue
            out.append((bitmap(), rng.randint(80, 300)))
            adjacent = b in [g.NEIGHBOUR[a * 4 + d] for d in range(4)]
            if adjacent and rng.random() < self.tip:
                out.append((bitmap((b,)), rng.randint(40, 120)))  # tipped: both cells read
            count[a] -= 1
            if rng.random() < self.hesitate:
                out.append((bitmap(), rng.randint(400, 2500)))
            else:
                out.append((bitmap(), rng.randint(40, 200)))
            if rng.random() < self.drag:
                for c in _path_cells(a, b):
                    out.append((bitmap((c,)), rng.randint(5, 20)))
                    out.append((bitmap(), rng.randint(5, 15)))
            if rng.random() < self.hover:
                around = g.around(b)
                c = around[rng.randrange(len(around))]
                out.append((bitmap((c,)), rng.randint(5, 20)))
                out.append((bitmap(), rng.randint(10, 60)))
            if rng.random() < self.bounce and count[b] == 0:
                for _ in range(rng.randint(1, 3)):
                    out.append((bitmap((b,)), rng.randint(2, 8)))
                    out.append((bitmap(), rng.randint(2, 8)))
            count[b] += 1
            out.append((bitmap(), rng.randint(60, 200)))
        return out
