# Move inference with booster cards, driven in one process: the firmware's scanner and Cargocube
# plug-in (firmware.games.cargocube.plugin.Game, which owns the tracker) fed with raw sensor bitmaps of a
# hand doing the physical steps of an action (cargoboard.games.cargocube.hand.physical_steps). Runs under CPython
# and under the MicroPython unix port (tests/cargocube/test_cargocube_tracker_cards.py runs it both ways): only the
# MicroPython subset, no `random` (a tiny LCG where a choice is needed).
#
# Usage:
#   driver_tracker_cards.py cases            the card scenarios (booster, wind rose, acceleration,
#                                            teleports), each with a lifting and a tipping hand
#   driver_tracker_cards.py game SEED CAP    a seeded 2-player game with cards, up to CAP actions
# Output: one line per scenario/game, `ok NAME ...` or `FAIL NAME: why`; last line `done N fails`.

import gc
import sys

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from firmware import hal as H
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.plugin import Game
from cargoboard.games.cargocube.hand import physical_steps
from cargoboard.sim.table import Table

SETTLE_MS = 600  # the hand is still this long after a move (> the tracker's settle time)


def edit(notation, changes, to_move="S", phase="2"):
    """A position made from notation's cells with some cells replaced (None: emptied)."""
    fields = notation.split()
    cells = {}
    order = []
    for entry in fields[0].split(","):
        k, v = entry.split("=")
        cells[k] = v
        order.append(k)
    for k in changes:
        if k not in cells:
            order.append(k)
        cells[k] = changes[k]
    parts = []
    for k in order:
        if cells[k] is not None:
            parts.append(k + "=" + cells[k])
    return cc.Position.parse("%s %s %s %s" % (",".join(parts), fields[1], to_move, phase)).notation()


START = cc.start_position(2, "polygon", True).notation()


def _after(notation, text):
    pos = cc.Position.parse(notation)
    pos.push(pos.parse_action(text))
    return pos.notation()


# name, position, action, cells the board must offer as targets while the piece is in the air
CASES = (
    # S uses a springboard: the card leaves b1 (its magnet) and lands on the empty grey d2
    ("booster", _after(START, "c3s"), "b1@d2", ("d2", "e2", "b2")),
    # a cube in S's terminal (i1) rolls onto a placed wind rose (i2) and hops to j2; the rose's
    # other neighbours are cleared (with a stack next to it, "onto the stack, then from the
    # stack over the rose to j2" would explain the same evidence and the board would ask)
    ("rose", edit(START, {"d1": None, "h1": None, "i3": None, "h3": None, "i2": "*wS",
                          "i1": "3B"}), "i1n/j2",
     ("i3", "j3", "j2", "j1", "h1", "h2", "h3")),
    # a cube (j1) rolls onto a placed acceleration (j2) and slides on to j3
    ("acceleration", edit(START, {"h1": None, "j2": "*aS", "j1": "3B"}), "j1n", ("j3",)),
    # the top cube of a stack next to f6 rolls onto it and goes to f1 (the keeper is away)
    ("teleport", edit(START, {"f1": None, "g2": "KS", "f5": "B1.1O"}), "f5n", ("f1",)),
    # a cube rolls onto a wind rose next to f6 and hops onto f6: it goes to f1
    ("rose-teleport", edit(START, {"d1": None, "f5": "*wS", "f1": None, "g2": "KS",
                                   "f4": "B1.1O"}), "f4n/f6", ()),
)


class Board(Table):
    """The in-process board of cargoboard.sim.table, recording (state, targets) after every
    held reading."""

    def __init__(self, notation):
        self.events = []
        seats = notation.split()[1]
        # the board that asks at once (wait=0): the game here answers its questions as they come
        Table.__init__(self, Game({"position": notation, "seats": seats,
                                   "emit": self._emit, "wait": "0"}))
        self.tracker = self.game.tracker
        self.presses = 0
        self.record = True  # keep (state, targets) after every held reading in self.seen
        self.seen = []

    def _emit(self, text):
        # The board sends its events and forgets them; the `state` ones (two per move) are
        # not kept here either, or a 150-action game's list would fill the 256k heap.
        if not text.startswith("state "):
            self.events.append(text)

    def feed(self, raw, ms):
        Table.feed(self, raw, ms)
        if self.record:
            self.seen.append((self.tracker.state, list(self.tracker.targets)))

    def press(self, bit):
        self.presses += 1
        self.game.on_button(bit, self.now)
        self.feed(self.raw, 40)


def bitmap(count):
    b = bytearray(16)
    for c in range(g.N_CELLS):
        if count[c] > 0:
            b[c >> 3] |= 1 << (c & 7)
    return b


def perform(board, pos, action, tip=False):
    """The hand does action (pos: before it): lift, hold, place; with tip=True a piece going to
    an orthogonal neighbour reads on its new cell before it leaves the old one."""
    count = []
    for c in range(g.N_CELLS):
        count.append(len(pos.stacks[c]) + (1 if pos.cards[c] else 0))
    for step in physical_steps(pos, action):
        if step[0] == "press":
            board.press(H.END)
            continue
        a = step[1]
        b = step[2]
        adjacent = False
        for d in range(4):
            if g.NEIGHBOUR[a * 4 + d] == b:
                adjacent = True
        if tip and adjacent:
            count[b] += 1
            board.feed(bitmap(count), 100)
            count[a] -= 1
            board.feed(bitmap(count), 150)
        else:
            count[a] -= 1
            board.feed(bitmap(count), 150)
            count[b] += 1
            board.feed(bitmap(count), 150)
    board.feed(board.raw, SETTLE_MS)


def run_case(name, notation, text, targets, tip):
    label = "%s/%s" % (name, "tip" if tip else "lift")
    truth = cc.Position.parse(notation)
    board = Board(notation)
    action = truth.parse_action(text)
    perform(board, truth, action, tip)
    truth.push(action)
    t = board.tracker
    if t.pos.notation() != truth.notation():
        return "FAIL %s: the board has %s (state %s), the hand did %s" % (
            label, " ".join([cc.format_action(a) for a in t.pos.history()]) or "nothing",
            T.STATE_NAMES[t.state], text)
    if board.presses or t.state != T.IDLE:
        return "FAIL %s: presses %d, state %s" % (label, board.presses, T.STATE_NAMES[t.state])
    if ("auto %s -> %s" % (text, truth.notation())) not in board.events:
        return "FAIL %s: no auto event in %s" % (label, board.events)
    want = [g.parse_cell(c) for c in targets]
    shown = []
    for state, cells in board.seen:
        if state == T.MOVING:
            for c in cells:
                if c not in shown:
                    shown.append(c)
    for c in want:
        if c not in shown:
            return "FAIL %s: %s never shown as a target (shown: %s)" % (
                label, g.cell_name(c), ",".join([g.cell_name(x) for x in shown]))
    return "ok %s %s" % (label, text)


def free():
    """Free heap after a collection (MicroPython), else 0."""
    gc.collect()
    if hasattr(gc, "mem_free"):
        return gc.mem_free()
    return 0


def lcg(x):
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


def answer(board, truth, true):
    """Buttons until the board has every action of the truth (`true`: its actions in order),
    what a player does when the LEDs show candidates or no move at all. Returns an error text
    or None. (No history lists are built: the heap is the board's.)"""
    t = board.tracker
    for _ in range(40):
        done = t.pos.ply()
        if done >= len(true):
            if done == len(true) and t.pos.notation() == truth.notation():
                return None
            return "the board has %s after %d actions (state %s)" % (
                t.pos.notation(), done, T.STATE_NAMES[t.state])
        target = true[done]
        if t.state != T.ASKING:
            board.press(H.CONFIRM)  # "I made a move you did not see"
            if t.state != T.ASKING and t.pos.ply() == done:
                return "confirm offers nothing (state %s)" % T.STATE_NAMES[t.state]
            continue
        n = 0
        while t.shown() != target and n < len(t.candidates):
            board.press(H.NEXT)
            n += 1
        if t.shown() != target:
            return "%s is not among the candidates" % cc.format_action(target)
        board.press(H.CONFIRM)
    return "no progress"


def play(seed, cap):
    truth = cc.start_position(2, "polygon", True)
    board = Board(truth.notation())
    board.record = False
    x = seed & 0x7FFFFFFF
    n = 0
    true = []
    first = low = free()
    while n < cap:
        actions = truth.legal_actions()
        if not actions:
            break
        x = lcg(x)
        a = actions[(x >> 8) % len(actions)]
        actions = None
        if a[0] == cc.END:
            err = answer(board, truth, true)  # the turn's last move first, then `end`
            if err:
                return "FAIL game %d: before end at %d: %s" % (seed, n, err)
        perform(board, truth, a, (x >> 4) & 1 == 1)
        truth.push(a)
        true.append(a)
        err = answer(board, truth, true)
        m = free()
        if m < low:
            low = m
        if err:
            return "FAIL game %d: action %d %s: %s" % (seed, n, cc.format_action(a), err)
        n += 1
    if board.tracker.pos.notation() != truth.notation():
        return "FAIL game %d: final position differs" % seed
    return "ok game %d actions=%d presses=%d over=%d" % (seed, n, board.presses,
                                                       1 if truth.is_over() else 0), first, low



def main(argv):
    out = []
    if argv and argv[0] == "cases":
        fails = 0
        for name, notation, text, targets in CASES:
            for tip in (False, True):
                # printed and counted, not kept: 70 result strings left between the cases'
                # freed blocks split the 192 KiB heap until a legal-action list found no hole
                line = run_case(name, notation, text, targets, tip)
                print(line)
                fails += not line.startswith("ok")
                line = None
                gc.collect()
        print("done %d fails" % fails)
        return
    elif len(argv) == 3 and argv[0] == "game":
        result = play(int(argv[1]), int(argv[2]))
        if isinstance(result, tuple):
            out.append(result[0])
            print("%s free-at-start=%d lowest-free=%d" % result)
        else:
            out.append(result)
            print(result)
    else:
        print("usage: driver_tracker_cards.py cases | game SEED CAP")
        sys.exit(2)
    fails = 0
    for line in out:
        if not line.startswith("ok"):
            fails += 1
    print("done %d fails" % fails)


if __name__ == "__main__":
    main(sys.argv[1:])
