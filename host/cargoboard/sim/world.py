"""The physical model of the board for the simulator.

Each cell holds a stack of physical items, bottom to top: a booster card lies flat at the
bottom, cargo cubes and keepers on top of it; a biohazard or a sacrifice card lies on the piece
it was put on. Items are the rules core's small ints (0..23 a cargo cube's orientation, KEEPER +
seat a keeper, DEAD + seat a dead keeper, TELEPORT the walking teleport) and CARD_BASE + card
code for a card. The hand
holds what was lifted (a stack too: `place` puts down the item lifted last). A cell's sensor
reads occupied when its stack is non-empty (every piece carries a magnet). Games whose pieces
come from a supply and go back to it (Cephalopod's dice) use `drop` and `take`.

Cargo cubes move as a hand moves them (docs/rules/cargocube.md): a cube put down on an
orthogonal neighbour of the cell it was lifted from was tipped over that edge, so it rolls
(its orientation changes as the rules' roll table says). Moving on from where it has just
landed it does not roll again: from a wind rose it hops, from a catapult it is thrown, from an
acceleration it slides on in the same direction, from the entry portal (a portal card, the
walking teleport) it is carried to the exit portal; every other carry (not to a neighbour)
keeps the faces as they are. (A spiral's turn, a sacrifice's death: the expansions' changes
made in place are not modelled here.) So the world's faces are the true
ones the firmware tracks without seeing them. (The one case a hand cannot tell apart: a cube
that stays on a wind rose because it can hop nowhere, then is rolled off it orthogonally at
once; the session ends the motion when the board commits a move, which covers it as soon as
the board has taken the move in.)
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
        return orient.name(item)
    except Exception:
        return str(item)


ROLLED, SLID, HOPPED = 1, 2, 3  # how a moving cube reached the cell it stands on


class World:
    def __init__(self):
        self.stacks: list[list[int]] = [[] for _ in range(N_CELLS)]
        self.hand: list[int] = []
        self.letters = g.SEAT_LETTERS  # how seats are named (set by the game's layout)
        self._lifted_from: list[int] = []  # the cell of each item in the hand
        self.cubes_roll = False  # the items are Cargocube's (setup_cargocube): cubes roll
        # the cube moving now: (the cell it landed on, direction, ROLLED|SLID|HOPPED, the card
        # cells it has used in this move), or None when no cube is on its way
        self._motion = None
        # the corners are out of play (Cargocube's board; a game whose hand model says
        # CORNERS_IN_PLAY, such as КУБитва's board edition, opens them)
        self.corners_open = False

    def clear(self):
        for s in self.stacks:
            s.clear()
        self.hand.clear()
        self._lifted_from.clear()
        self._motion = None
        self.cubes_roll = False

    def rest(self):
        """The move is over (the board committed it): the next lift starts a new one."""
        self._motion = None

    def is_corner(self, cell: int) -> bool:
        """Whether cell is a corner out of play (no piece can be there)."""
        return not self.corners_open and g.CELL_KIND[cell] == g.CORNER

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
        # A card put on an empty cell lies flat at the bottom; a biohazard or a sacrifice goes
        # on top of the piece it is put on.
        if self.cubes_roll and item < 24:
            item = self._moved_cube(item, source, cell)
        else:
            self._motion = None
        st.append(item)
        return item

    def _moved_cube(self, item, a, b):
        """The cube item lifted from a and put down on b, as it lands (see the module doc)."""
        from shared_rules.cargocube import orient, rules as cc
        m = self._motion if self._motion and self._motion[0] == a else None
        self._motion = None
        if m is not None:
            _, d, how, used = m
            card = next((i - CARD_BASE for i in self.stacks[a] if i >= CARD_BASE), 0)
            kind = cc.card_kind(card) if card and g.CELL_KIND[a] == g.GREY and a not in used \
                else ""
            if a == g.ENTRY_PORTAL or kind == "x" or cc.TELEPORT in self.stacks[a]:
                return item  # carried on to the exit portal (a portal card, the teleport)
            if kind in ("w", "c"):  # a wind rose's hop, a catapult's throw
                self._motion = (b, -1, HOPPED, used + (a,))
                return item
            if kind == "a" and how == ROLLED and b == g.NEIGHBOUR[a * 4 + d]:
                self._motion = (b, d, SLID, used + (a,))
                return item
        for d in range(4):
            if g.NEIGHBOUR[a * 4 + d] == b:
                self._motion = (b, d, ROLLED, ())
                return orient.ROLL[item * 4 + d]
        return item  # carried elsewhere: the faces stay

    def drop(self, cell: int, item: int = DIE) -> int:
        """Put a new piece from the supply on cell (not from the hand)."""
        if self.is_corner(cell):
            raise WorldError(f"{g.cell_name(cell)} is a corner: pieces cannot go there")
        if self.stacks[cell]:
            raise WorldError(f"{g.cell_name(cell)} is occupied: a die goes on an empty cell")
        self.stacks[cell].append(item)
        self._motion = None
        return item

    def take(self, cell: int) -> int:
        """Take the top piece of cell off the board, back to the supply (not into the hand)."""
        st = self.stacks[cell]
        if not st:
            raise WorldError(f"{g.cell_name(cell)} is empty: nothing to take")
        self._motion = None
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
        self.cubes_roll = True
        self.letters = pos.SEAT_LETTERS
        self.corners_open = False
        for c in range(N_CELLS):
            st = self.stacks[c]
            if pos.cards[c]:
                st.append(CARD_BASE + pos.cards[c])
            st.extend(pos.stacks[c])
        return pos

    def setup_mask(self, mask: bytes, corners_open: bool = False):
        """One generic token on every cell of an occupancy bitmap (games without a model);
        corners_open: the game plays on the corners too."""
        self.clear()
        self.corners_open = corners_open
        for c in range(N_CELLS):
            if mask[c >> 3] >> (c & 7) & 1:
                self.stacks[c].append(TOKEN)

    def describe(self, cell: int) -> str:
        return " ".join(item_name(i, self.letters) for i in self.stacks[cell])
