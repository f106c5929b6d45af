"""The physical model of the board for the simulator.

Each cell holds a stack of physical items, bottom to top: a booster card lies flat at the
bottom, cargo cubes and keepers on top of it; a biohazard or a sacrifice card lies on the piece
it was put on. Items are the rules core's small ints (0..23 a cargo cube's orientation, KEEPER +
seat a keeper, DEAD + seat a dead keeper, TELEPORT the walking teleport) and CARD_BASE + card
code for a card. The hand
holds what was lifted (a stack too: `place` puts down the item lifted last). A cell's sensor
reads occupied when its stack is non-empty (every piece carries a magnet). Games whose pieces
come from a supply and go back to it (Cephalopod's dice) use `drop` and `take`.
"""

from __future__ import annotations

from shared_rules import geometry as g

CARD_BASE = 100
TOKEN = 0          # generic piece for games without a physical model here (item 0)
DIE = 200          # a die from the supply (Cephalopod: the board never sees colour or pips)
N_CELLS = 121


class WorldError(ValueError):
    """A physically impossible hand move (message says why)."""


def parse_cell(text: str) -> int:
    c = g.parse_cell(text.strip().lower())
    if c < 0:
        raise WorldError(f"'{text}' is not a cell (a1..k11)")
    return c


def item_name(item: int, letters: str = g.SEAT_LETTERS) -> str:
    """A piece's name; letters name the seats (`12345678` with 8 players)."""
    if item == DIE:
        return "die"
    if item >= CARD_BASE:
        code = item - CARD_BASE
        try:
            from shared_rules.cargocube import rules as cc
            return "card:%s%s" % (cc.card_kind(code), letters[cc.card_owner(code)])
        except Exception:
            return f"card:{code}"
    if item >= 40:
        return "T"
    if item >= 32:
        return "X" + letters[item - 32]
    if item >= 24:
        return "K" + letters[item - 24]
    try:
        from shared_rules.cargocube import orient
        return orient.NAMES[item]
    except Exception:
        return str(item)


class World:
    def __init__(self):
        self.stacks: list[list[int]] = [[] for _ in range(N_CELLS)]
        self.hand: list[int] = []
        self.letters = g.SEAT_LETTERS  # how seats are named (set by the game's layout)

    def clear(self):
        for s in self.stacks:
            s.clear()
        self.hand.clear()

    @staticmethod
    def is_corner(cell: int) -> bool:
        return g.CELL_KIND[cell] == g.CORNER

    def lift(self, cell: int) -> int:
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: nothing can be there")
        st = self.stacks[cell]
        if not st:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to lift")
        item = st.pop()
        self.hand.append(item)
        return item

    def place(self, cell: int) -> int:
        if not self.hand:
            raise WorldError("the hand is empty: lift something first")
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: pieces cannot go there")
        item = self.hand.pop()
        st = self.stacks[cell]
        if item >= CARD_BASE and st and st[-1] >= CARD_BASE:
            self.hand.append(item)
            raise WorldError(f"{g.cell_name(cell)} has a card on top: one card cannot lie on "
                             "another")
        # A card put on an empty cell lies flat at the bottom; a biohazard or a sacrifice goes
        # on top of the piece it is put on.
        st.append(item)
        return item

    def drop(self, cell: int, item: int = DIE) -> int:
        """Put a new piece from the supply on cell (not from the hand)."""
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: pieces cannot go there")
        if self.stacks[cell]:
            raise WorldError(f"{g.cell_name(cell)} is occupied: a die goes on an empty cell")
        self.stacks[cell].append(item)
        return item

    def take(self, cell: int) -> int:
        """Take the top piece of cell off the board, back to the supply (not into the hand)."""
        st = self.stacks[cell]
        if not st:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to take")
        return st.pop()

    def occupied(self, cell: int) -> bool:
        return bool(self.stacks[cell])

    def sensors(self) -> bytearray:
        buf = bytearray(16)
        for c, st in enumerate(self.stacks):
            if st:
                buf[c >> 3] |= 1 << (c & 7)
        return buf

    # --- layouts ------------------------------------------------------------------------------
    def setup_cargocube(self, layout: str, seats: str, cards=False, teleport: bool = False):
        """Stacks of shared_rules.cargocube.rules.start_position (cubes, keepers, the walking
        teleport if asked; cards: False, or a card layout: True or "base", "pyramid", "bastion",
        "both")."""
        from shared_rules.cargocube import rules as cc
        seats = seats.upper()
        try:
            pos = cc.start_position(players=len(seats), layout=layout, cards=cards,
                                    teleport=teleport)
        except cc.RulesError as e:
            raise WorldError(f"cannot set up cargocube {layout} {seats}: {e}") from None
        got = "".join(pos.SEAT_LETTERS[s] for s in pos.seats)
        if got != seats:
            raise WorldError(f"seats '{seats}' not supported for {len(seats)} players (use '{got}')")
        self.clear()
        self.letters = pos.SEAT_LETTERS
        for c in range(N_CELLS):
            st = self.stacks[c]
            if pos.cards[c]:
                st.append(CARD_BASE + pos.cards[c])
            st.extend(pos.stacks[c])
        return pos

    def setup_mask(self, mask: bytes):
        """One generic token on every cell of an occupancy bitmap (games without a model)."""
        self.clear()
        for c in range(N_CELLS):
            if mask[c >> 3] >> (c & 7) & 1:
                self.stacks[c].append(TOKEN)

    def describe(self, cell: int) -> str:
        return " ".join(item_name(i, self.letters) for i in self.stacks[cell])
