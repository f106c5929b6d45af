"""The physical model of the board for the simulator.

Each cell holds a stack of physical items, bottom to top; the hand holds what was lifted (a
stack too: `place` puts down the item lifted last). A cell's sensor reads occupied when its
stack is non-empty (every piece carries a magnet). Items are small ints; an item from
CARD_BASE up is a card, which lies flat (one card cannot lie on another). Games whose pieces
come from a supply and go back to it (Cephalopod's dice) use `drop` and `take`.

What the items are and how a piece lands where a hand puts it is the game's: a game with a
physical model has a host part `world.py` (cargoboard/games/<game>/world.py: `setup(world,
layout, seats, cards, teleport)` lays out its start and gives the world its `physics`, which
names the pieces and turns an item as it lands — Cargocube's cubes roll). Other games are laid
out from the board's own occupancy mask, one generic token a cell (`setup_mask`).

Revision B's board reads fields, not occupancy: its world (`HallWorld`, a World with the
magnets' physics) is the host part `hallfield.py` of the one game that board is built for,
found through the game registry by `revb_physics()`.
"""

from __future__ import annotations

from cargoboard.clikit import InputError
from shared_rules import geometry as g

CARD_BASE = 100
TOKEN = 0          # generic piece for games without a physical model here (item 0)
DIE = 200          # a die from the supply (Cephalopod: the board never sees colour or pips)
N_CELLS = 121


def revb_physics():
    """The module of revision B's physics (HallWorld, HallBoard, Noise): the `hallfield` part of
    the one game that has one (Cargocube's cubes and their orientations)."""
    from cargoboard import games
    return games.sole_part("hallfield")


class WorldError(InputError):
    """A physically impossible hand move (message says why)."""


def parse_cell(text: str) -> int:
    c = g.parse_cell(text.strip().lower())
    if c < 0:
        raise WorldError(f"'{text}' is not a cell (a1..k11)")
    return c


class World:
    def __init__(self):
        self.stacks: list[list[int]] = [[] for _ in range(N_CELLS)]
        self.hand: list[int] = []
        self.letters = g.SEAT_LETTERS  # how seats are named (set by the game's layout)
        self._lifted_from: list[int] = []  # the cell of each item in the hand
        # the game's physics (cargoboard/games/<game>/world.py): names its pieces, turns a
        # piece as it lands; None: pieces stay as they are and are named by number
        self.physics = None
        # the corners are out of play (Cargocube's board; a game whose hand model says
        # CORNERS_IN_PLAY, such as КУБитва's board edition, opens them)
        self.corners_open = False

    def clear(self):
        for s in self.stacks:
            s.clear()
        self.hand.clear()
        self._lifted_from.clear()
        self.physics = None

    def rest(self):
        """The move is over (the board committed it): the next lift starts a new one."""
        if self.physics is not None:
            self.physics.rest()

    def is_corner(self, cell: int) -> bool:
        """Whether cell is a corner out of play (no piece can be there)."""
        x = cell % g.SIZE
        y = cell // g.SIZE
        return not self.corners_open and x in (0, g.SIZE - 1) and y in (0, g.SIZE - 1)

    def lift(self, cell: int) -> int:
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: nothing can be there")
        st = self.stacks[cell]
        if not st:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to lift")
        item = st.pop()
        self.hand.append(item)
        self._lifted_from.append(cell)
        return item

    def place(self, cell: int) -> int:
        if not self.hand:
            raise WorldError("the hand is empty: lift something first")
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: pieces cannot go there")
        item = self.hand.pop()
        source = self._lifted_from.pop()
        st = self.stacks[cell]
        if item >= CARD_BASE and st and st[-1] >= CARD_BASE:
            self.hand.append(item)
            self._lifted_from.append(source)
            raise WorldError(f"{g.cell_name(cell)} has a card on top: one card cannot lie on "
                             "another")
        if self.physics is not None:
            item = self.physics.land(self, item, source, cell)
        st.append(item)
        return item

    def drop(self, cell: int, item: int = DIE) -> int:
        """Put a new piece from the supply on cell (not from the hand)."""
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: pieces cannot go there")
        if self.stacks[cell]:
            raise WorldError(f"{g.cell_name(cell)} is occupied: a new piece goes on an empty cell")
        self.stacks[cell].append(item)
        self.rest()
        return item

    def take(self, cell: int) -> int:
        """Take the top piece of cell off the board, back to the supply (not into the hand)."""
        st = self.stacks[cell]
        if not st:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to take")
        self.rest()
        return st.pop()

    def turn(self, cell: int, d: int):
        """The hand turns the stack on cell a quarter turn where it stands (d 0 clockwise, 1
        anticlockwise, as seen from above: a Cargocube spiral turn). Nothing is lifted, so no
        sensor of an occupancy board changes; the game's physics turns the pieces' faces."""
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: nothing can be there")
        if not self.stacks[cell]:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to turn")
        turn = getattr(self.physics, "turn", None)
        if turn is None:
            raise WorldError("this game's pieces are not turned in place (turn is Cargocube's "
                             "spiral turn)")
        turn(self, cell, d)

    def occupied(self, cell: int) -> bool:
        return bool(self.stacks[cell])

    def sensors(self) -> bytearray:
        buf = bytearray(16)
        for c, st in enumerate(self.stacks):
            if st:
                buf[c >> 3] |= 1 << (c & 7)
        return buf

    # --- layouts ------------------------------------------------------------------------------
    def setup_mask(self, mask: bytes, corners_open: bool = False):
        """One generic token on every cell of an occupancy bitmap (games without a model);
        corners_open: the game plays on the corners too."""
        self.clear()
        self.corners_open = corners_open
        for c in range(N_CELLS):
            if mask[c >> 3] >> (c & 7) & 1:
                self.stacks[c].append(TOKEN)

    def item_name(self, item: int) -> str:
        """A piece's name, as its game calls it (a die, a generic token, else its number)."""
        if item == DIE:
            return "die"
        if self.physics is not None:
            return self.physics.name(item, self.letters)
        return "o" if item == TOKEN else str(item)
