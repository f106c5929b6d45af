# Cargocube rules core: position, legal actions, push/pop, notation, scoring, perft.
#
# Runs unchanged on the board (MicroPython) and on the PC (CPython): plain classes, tuples, lists
# and bytearrays, no CPython-only modules. The rules implemented here are written out in
# docs/rules/cargocube.md; the API in docs/rules/api.md.
#
# Representation
# - stacks[c]: list of items bottom to top; an item is a small int: 0..23 a cargo cube's
#   orientation (shared_rules.cargocube.orient), KEEPER + seat a keeper, DEAD + seat a dead keeper,
#   TELEPORT the walking teleport.
# - cards[c]: 0 or a card code 1 + kind * 8 + owner. A card in its owner's terminal is unused and
#   has no effect; a card on a grey cell has been used (placed) and acts.
# - to_move, actions_left (0: activation due), booster_used, extra_turn; seats in turn order.
# - _view[seat][c]: what a cell is to that seat's pieces (V_GREY .. V_CLOSED). The base game's
#   views never change and are shared; the expansions (portals that move or appear, biohazards)
#   give a position its own.
# Everything that only the expansions and the walking teleport need lives in
# shared_rules/cargocube/expansions.py, imported the first time a position holds one of their
# items (the board's heap pays for it only in such games); the 8-player variant's tables in
# shared_rules/cargocube/eight.py, imported for an 8-player position. Reading the notation and
# laying out a start live in shared_rules/cargocube/reader.py, imported the first time text is
# read (the board drops it while a game is played).
# An action is a tuple (kind, src, dir, dst, code, hops): see docs/rules/api.md.

from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o
from shared_rules import versions as _versions
from shared_rules.perft import perft  # noqa: F401 (the same for every rules core)

KEEPER = 24  # item code of seat s's keeper is KEEPER + s (seats 0..7)
DEAD = 32  # a dead keeper (sacrifice): DEAD + seat
TELEPORT = 40  # the walking teleport

# Action kinds.
ACTIVATE = 0
ROLL = 1
STEP = 2
BOOST = 3
END = 4
RIDE = 5  # umbrella ride
TMOVE = 6  # walking-teleport move
TURN = 7  # spiral turn (dir 0 clockwise, 1 anticlockwise)
HAZARD = 8  # biohazard lifted (code 0) or moved (code 1)

END_ACTION = (END, 0, 0, 0, 0, ())

# A hop entry >= THROW in an action's hops: a catapult throw onto cell entry - THROW (always last).
THROW = 128
# The most hop bytes an encoded cube move may carry: a log record's payload holds 12 bytes
# (firmware/system/logwrite.py MAX_PAYLOAD), the word takes 2.
MAX_HOP_BYTES = 10

MAX_SCORE = 36  # 16 with 8 players: pos.max_score

# The rules' version, written into every game log; bumped in shared_rules/versions.py.
RULES_VERSION = _versions.version("cargocube")

# What a cell is to the pieces of one seat (its view).
V_GREY = 0  # a grey cell
V_OWN = 1  # a cell of the seat's own terminal
V_PORTAL = 2  # an entry portal (grey): a cube arriving is sent to the seat's exit portal
V_BLOCKED = 3  # nothing of the seat may enter (corner, another terminal, a biohazard)
V_CLOSED = 4  # a portal closed to the seat's cubes (biohazard on its exit portal); keepers enter

# How a cube arrived on a cell (cards react differently).
_ROLLED = 0
_SLID = 1
_HOPPED = 2


class RulesError(Exception):
    """Bad input to the rules: a malformed or impossible position, a malformed or illegal action."""


# ---------------------------------------------------------------------------------------------
# Cards. A card kind is a row in these tables; the core calls the kind's arrival hook when a cargo
# cube arrives on a placed card, so a new kind is added here without touching the move generator.

CARD_LETTERS = "swaucpxhv="  # base: springboard, wind rose, acceleration; the expansions' 7 more
BASE_CARDS = 3  # kinds below this need no expansion code (the others: expansions.py)
# Items leaving a placed card of this kind ignore the climb limit.
CARD_SPRINGBOARD = (True, True, False, False, True, False, True, False, False, False)


def card_kind(code):
    return CARD_LETTERS[(code - 1) >> 3]


def card_owner(code):
    return (code - 1) & 7


def _arrive_wind_rose(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Hop at once to one of the 8 neighbours chosen by the mover, ignoring the climb limit.
    view = pos._view[pos.to_move]
    used = used + (cell,)
    hopped = False
    ring = g.AROUND
    base = cell * 8
    for k in range(8):
        t = ring[base + k]
        if t == 255:
            break
        tk = view[t]
        if kind == ACTIVATE:
            if tk != V_GREY:
                continue  # an activation ends on a grey cell that is no portal
        elif tk > V_PORTAL:
            continue
        hopped = True
        pos._arrive(out, kind, src, d, t, -1, item, hops + (t,), used, _HOPPED)
    return hopped


def _arrive_acceleration(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Only a roll onto the card triggers it: slide one cell further in the roll's direction.
    if how != _ROLLED:
        return False
    n = g.NEIGHBOUR[cell * 4 + d]
    if n < 0 or not pos._may_enter(n, kind):
        return False
    s = len(pos.stacks[n])
    if s > level + 1:
        return False
    pos._arrive(out, kind, src, d, n, s, item, hops, used + (cell,), _SLID)
    return True


def _arrive_catapult(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Through the position's own expansions module (a catapult is theirs, so it has one): the
    # core keeps no reference to that module, so a board can drop it for the next game that
    # does not use it (firmware/games/cargocube/plugin.py) once no position holds it.
    return pos._x.arrive_catapult(pos, out, kind, src, d, cell, level, item, hops, used, how)


# By card kind (the expansions' CATAPULT is 4).
_CARD_ARRIVE = (None, _arrive_wind_rose, _arrive_acceleration, None, _arrive_catapult, None,
                None, None, None, None)


def _bound(module):
    """module, a part of this core kept in a module of its own (loaded when first needed),
    handed this core once: it imports nothing of the core (the core loads it, so a static
    import back would be a circle)."""
    if module.cc is None:
        import sys
        module.bind(sys.modules[__name__])
    return module


def _expansions():
    """The expansions (shared_rules/cargocube/expansions.py)."""
    from shared_rules.cargocube import expansions
    return _bound(expansions)


def _reader():
    """The notation's reader and the start positions (shared_rules/cargocube/reader.py): a game
    reads text when it begins, is resumed or loaded, not while it is played."""
    from shared_rules.cargocube import reader
    return _bound(reader)


# The views of the four seats with up to 4 players, never changing in a base game: the seat's own
# terminal, the grey cells and the centre portal; everything else blocked.
def _base_views():
    out = []
    for seat in range(4):
        v = bytearray(g.N_CELLS)
        for c in range(g.N_CELLS):
            k = g.CELL_KIND[c]
            if k == g.GREY:
                v[c] = V_PORTAL if c == g.ENTRY_PORTAL else V_GREY
            elif k == g.TERMINAL + seat:
                v[c] = V_OWN
            else:
                v[c] = V_BLOCKED
        out.append(bytes(v))
    return tuple(out)


VIEWS = _base_views()
del _base_views
# The seat whose score a cell counts for (255: none).
OWNER = bytes([g.CELL_KIND[c] - g.TERMINAL if g.CELL_KIND[c] >= g.TERMINAL else 255
               for c in range(g.N_CELLS)])


# ---------------------------------------------------------------------------------------------


class Position:
    """A Cargocube position: the board, whose turn it is and the phase of the turn."""

    SEAT_LETTERS = g.SEAT_LETTERS  # seat int -> letter, as every rules module's Position has

    def __init__(self, seats=(g.S, g.N)):
        self.stacks = [[] for _ in range(g.N_CELLS)]
        self.cards = bytearray(g.N_CELLS)
        self.seats = tuple(seats)
        self.to_move = self.seats[0]
        self.actions_left = 0
        self.booster_used = False
        self.extra_turn = False  # an extra turn (sacrifice) is owed to the player to move
        self.max_score = MAX_SCORE
        self._keeper = [-1, -1, -1, -1]
        self._score = [0, 0, 0, 0]
        self._view = VIEWS
        self._cells = g.TERMINAL_CELLS  # per seat: the cells it scores and lays its cards on
        self._owner = OWNER
        self._exit = g.EXIT_PORTAL  # per seat
        self._x = None  # the expansions module, once the position holds any of their items
        self.lids = None  # bytearray: 1 + the controlling seat of a biohazard on c's top cube
        self._teleport = -1  # the walking teleport's cell
        self._undo = bytearray(64)  # undo records, see push(); used up to _ulen
        self._ulen = 0
        self._count = 0
        if len(self.seats) == 8:
            from shared_rules.cargocube import eight
            eight.setup(self, VIEWS[0], V_OWN, V_BLOCKED)

    def uses_expansions(self):
        """Whether the position has loaded the expansions' code (it holds, or held, one of
        their items: a card of «Пирамида» or «Бастион», the walking teleport)."""
        return self._x is not None

    def _expand(self):
        """The expansions module, loaded into this position (its first expansion item)."""
        if self._x is None:
            self._x = _expansions()
            self.lids = bytearray(g.N_CELLS)
        return self._x

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        """Parse the one-line position notation; raise RulesError naming what is wrong."""
        return _reader().parse(cls, text)

    def copy(self):
        p = Position(self.seats)
        p.stacks = [list(s) for s in self.stacks]
        p.cards = bytearray(self.cards)
        p.to_move = self.to_move
        p.actions_left = self.actions_left
        p.booster_used = self.booster_used
        p.extra_turn = self.extra_turn
        p._keeper = list(self._keeper)
        p._score = list(self._score)
        if self._x is not None:
            self._x.copy_into(self, p)
        return p

    # -- notation -------------------------------------------------------------------------------

    def notation(self, out=None):
        """The canonical one-line notation: cells by row (row 1 first), then by column. Written
        byte by byte into one buffer: a list of small strings for a 4-player game with cards
        would cost the board ~30 KB of heap for a moment (the log header, every commit event).
        With `out` (anything with write(bytes)) it is written there in pieces of ~64 bytes
        instead, and None returned: the game log's header streams it, as the board's heap
        may hold no one block for the whole (~0.6 KB with 8 players and both expansions)."""
        letters = self.SEAT_LETTERS.encode()
        lids = self.lids
        buf = bytearray()
        put = buf.append
        cells = 0
        for c in range(g.N_CELLS):
            st = self.stacks[c]
            cd = self.cards[c]
            if not st and not cd:
                continue
            if cells:
                put(44)  # ,
                if out is not None and len(buf) > 64:
                    out.write(buf)
                    buf = bytearray()
                    put = buf.append
            cells += 1
            y = c // g.SIZE + 1
            put(_COLUMN_BYTES[c % g.SIZE])
            if y > 9:
                put(49)  # the 1 of 10, 11
            put(48 + y % 10)
            put(61)  # =
            if cd:
                put(42)  # *
                put(_CARD_BYTES[(cd - 1) >> 3])
                put(letters[(cd - 1) & 7])
            for it in st:
                if buf[-1] != 61:
                    put(46)  # .
                if it < KEEPER:
                    put(_ORIENT_BYTES[2 * it])
                    put(_ORIENT_BYTES[2 * it + 1])
                elif it < TELEPORT:
                    put(75 if it < DEAD else 88)  # K, X
                    put(letters[(it - KEEPER) & 7])
                else:
                    put(84)  # T
            if lids is not None and lids[c]:
                put(46)
                put(33)  # !
                put(letters[lids[c] - 1])
        if not cells:
            put(45)  # -
        put(32)
        for s in self.seats:
            put(letters[s])
        put(32)
        put(letters[self.to_move])
        put(32)
        if self.actions_left == 0:
            put(97)  # a
        else:
            put(48 + self.actions_left)
            if self.booster_used:
                put(98)  # b
            if self.extra_turn:
                put(120)  # x
        if out is None:
            return buf.decode()
        out.write(buf)

    def __str__(self):
        return self.notation()

    def __eq__(self, other):
        return isinstance(other, Position) and self.notation() == other.notation()

    # -- queries ----------------------------------------------------------------------------------

    def keeper_cell(self, seat):
        """The cell of seat's (live) keeper, -1 if it has none."""
        return max(self._keeper[seat], -1)  # -2 internally: dead

    def height(self, c):
        return len(self.stacks[c])

    def terminal_cells(self, seat):
        """The cells whose cubes count for seat's score (9; 4 with 8 players)."""
        return self._cells[seat]

    def _terminal_score(self, seat):
        total = 0
        value = o.VALUE
        for c in self._cells[seat]:
            st = self.stacks[c]
            if st and st[-1] < KEEPER:
                total += value[st[-1]]
        return total

    def scores(self):
        """Scores indexed by seat (S, W, N, E; seats 1-8 with 8 players); 0 for seats not in
        play."""
        return list(self._score)

    def _max_reached(self):
        return max(self._score) >= self.max_score

    def is_over(self):
        if self._max_reached():
            return True
        if self.actions_left == 0:
            out = []
            self._gen_cube_moves(out, ACTIVATE)
            return not out
        return False

    def winners(self):
        """The seats with the highest score once the game is over; [] while it goes on."""
        if not self.is_over():
            return []
        best = max(self._score[s] for s in self.seats)
        return [s for s in self.seats if self._score[s] == best]

    def cube_status(self, c, seat):
        """'resting', 'bridge', 'free', 'frozen' or 'covered' (under a biohazard) for the cargo
        cube on top of cell c as seen by seat; None if the top item is no cargo cube."""
        st = self.stacks[c]
        if not st or st[-1] >= KEEPER:
            return None
        if self.lids is not None and self.lids[c]:
            return "covered"
        h = len(st) - 1
        if g.CELL_KIND[c] >= g.TERMINAL:
            if self._view[seat][c] != V_OWN:
                return "frozen"
        elif h == 0 and not self.cards[c]:
            return "resting" if o.DOWN[st[0]] == o.FACE_O else "bridge"
        if h > 0 and KEEPER <= st[h - 1] < DEAD and st[h - 1] != KEEPER + seat:
            return "frozen"
        return "free"

    # -- move generation ------------------------------------------------------------------------

    def legal_actions(self, boosts=True, out=None):
        """All legal actions of the player to move, in a fixed order; [] once the game is over.
        boosts=False leaves out the booster uses (up to 8 cards x every empty grey cell): the
        board's tracker handles them apart, from boost_sources(), to save memory. out: an empty
        list to append them to and return (the board's tracker keeps one, emptied with
        `del out[:]`, which keeps its room: a new list grown by appends needs its old and new
        block at once, a 1-2 KB hole the Pico's heap may not have)."""
        if out is None:
            out = []
        if self._max_reached():
            return out
        if self.actions_left == 0:
            self._gen_cube_moves(out, ACTIVATE)
            return out
        self._gen_cube_moves(out, ROLL)
        self._gen_steps(out)
        if self._x is not None:
            self._x.gen_plain(self, out)
        if boosts and not self.booster_used:
            self._gen_boosts(out)
        out.append(END_ACTION)
        return out

    def legal_actions_from(self, c):
        """legal_actions(False) but `end`, only the actions of the piece on cell c, in its
        order, without generating the others' (the board's tracker tries positions out)."""
        out = []
        if self._max_reached():
            return out
        self._gen_cube_moves(out, ROLL if self.actions_left else ACTIVATE, c)
        if self.actions_left:
            if self._keeper[self.to_move] == c:
                self._gen_steps(out)
            if self._x is not None and (self.cards[c] or self.lids[c] or c == self._teleport or
                                        self._keeper[self.to_move] == c):
                self._x.gen_plain(self, out, c)  # (a cube with nothing under it has none)
        return out

    def boost_sources(self):
        """The cells of the cards the player to move may use now (booster use allowed, own card
        in the own terminal, nothing on it); [] otherwise."""
        if self.actions_left == 0 or self.booster_used or self._max_reached():
            return []
        out = []
        cards = self.cards
        stacks = self.stacks
        for src in self._cells[self.to_move]:
            if cards[src] and not stacks[src]:
                out.append(src)
        return out

    def is_boost_target(self, c, src=-1):
        """Whether the card on src (any card that goes to an empty cell if src is -1) may be
        put on cell c: an empty grey cell, no card, not f6; see card_targets() for the cards
        that go onto a piece."""
        if src >= 0:
            on_pieces = self.card_targets(src)
            if on_pieces is not None:
                return c in on_pieces
        return (g.CELL_KIND[c] == g.GREY and not self.stacks[c] and not self.cards[c]
                and c != g.ENTRY_PORTAL)

    def card_targets(self, src):
        """For the own card on src that is used on a piece, the cells it may go to now (a
        biohazard: the top cubes on and around the keeper's cell; a sacrifice: the keeper's
        cell, if it may die); None for a card that goes to an empty grey cell."""
        cd = self.cards[src]
        if self._x is None or (cd - 1) >> 3 < BASE_CARDS:
            return None
        return self._x.card_targets(self, src, cd)

    def _may_enter(self, n, kind):
        """Entry rule for a cargo cube moving onto cell n (not the climb limit)."""
        nk = self._view[self.to_move][n]
        if kind == ACTIVATE:
            return nk == V_GREY
        return nk <= V_PORTAL

    def _leaves_freely(self, c):
        """True if items leaving c ignore the climb limit (a placed springboard-like card)."""
        cd = self.cards[c]
        return cd != 0 and g.CELL_KIND[c] == g.GREY and CARD_SPRINGBOARD[(cd - 1) >> 3]

    def _gen_cube_moves(self, out, kind, only=-1):
        """The activations or rolls (as kind says), of the cube on cell only if it is >= 0."""
        m = self.to_move
        own_keeper = KEEPER + m
        view = self._view[m]
        stacks = self.stacks
        cards = self.cards
        neighbour = g.NEIGHBOUR
        roll = o.ROLL
        top_face = o.TOP
        activating = kind == ACTIVATE
        for c in range(g.N_CELLS) if only < 0 else (only,):
            st = stacks[c]
            if not st:
                continue
            item = st[-1]
            if item >= KEEPER:
                continue
            ck = view[c]
            if ck > V_OWN:
                continue  # frozen in another terminal, or under a biohazard
            h = len(st) - 1
            if h > 0:
                below = st[h - 1]
                if below >= KEEPER and below != own_keeper and below < DEAD:
                    continue  # frozen on another seat's keeper
            if activating:
                if top_face[item] != o.FACE_B:
                    continue
            elif ck == V_GREY and h == 0 and not cards[c]:
                continue  # resting or bridge
            free_leave = self._leaves_freely(c) if cards[c] else False
            base = c * 4
            for d in range(4):
                n = neighbour[base + d]
                if n < 0:
                    continue
                nk = view[n]
                if activating:
                    if nk:
                        continue  # an activation ends on a grey cell that is no portal
                elif nk > V_PORTAL:
                    continue
                s = len(stacks[n])
                if s > h + 1 and not free_leave:
                    continue
                new_item = roll[item * 4 + d]
                if nk == V_PORTAL or cards[n]:
                    self._arrive(out, kind, c, d, n, s, new_item, (), (), _ROLLED)
                else:
                    out.append((kind, c, d, n, new_item, ()))

    def _arrive(self, out, kind, src, d, cell, level, item, hops, used, how):
        """A cargo cube arrives on cell at level: portals and cards act; actions go to out."""
        m = self.to_move
        if self._view[m][cell] == V_PORTAL:
            # Activations never get here (such moves are not offered).
            out.append((kind, src, d, self._exit[m], item, hops))
            return
        cd = self.cards[cell]
        if cd and g.CELL_KIND[cell] == g.GREY and cell not in used:
            hook = _CARD_ARRIVE[(cd - 1) >> 3]
            if hook is not None and hook(self, out, kind, src, d, cell, level, item, hops, used, how):
                return
        out.append((kind, src, d, cell, item, hops))

    def _gen_steps(self, out):
        m = self.to_move
        kc = self._keeper[m]
        if kc < 0:
            return
        st = self.stacks[kc]
        if st[-1] != KEEPER + m:
            return  # something stands on the keeper
        if self.lids is not None and self.lids.find(bytes((m + 1,))) >= 0:
            return  # a keeper controlling a biohazard may not step
        h = len(st) - 1
        free_leave = self._leaves_freely(kc)
        view = self._view[m]
        for d in range(4):
            n = g.NEIGHBOUR[kc * 4 + d]
            if n < 0 or view[n] == V_BLOCKED:
                continue
            if len(self.stacks[n]) > h + 1 and not free_leave:
                continue
            out.append((STEP, kc, d, n, KEEPER + m, ()))

    def _gen_boosts(self, out):
        stacks = self.stacks
        cards = self.cards
        for src in self._cells[self.to_move]:
            cd = cards[src]
            if not cd or stacks[src]:
                continue
            if (cd - 1) >> 3 >= BASE_CARDS:
                on_pieces = self._x.card_targets(self, src, cd)
                if on_pieces is not None:
                    for dst in on_pieces:
                        out.append((BOOST, src, 0, dst, cd, ()))
                    continue
            for dst in _GREY_CELLS:
                if not stacks[dst] and not cards[dst] and dst != g.ENTRY_PORTAL:
                    out.append((BOOST, src, 0, dst, cd, ()))

    # -- make / unmake --------------------------------------------------------------------------

    def push(self, action):
        """Apply an action (assumed legal; see push_checked)."""
        kind, src, d, dst, code, hops = action
        m = self.to_move
        old_item = -1
        extra = ()
        flags = (1 if self.booster_used else 0) | (2 if self.extra_turn else 0)
        if kind == BOOST and (code - 1) >> 3 < BASE_CARDS:
            self.cards[dst] = self.cards[src]
            self.cards[src] = 0
        elif kind == BOOST or kind > END:
            extra = self._x.do(self, action, (), False)
        elif kind != END:
            if kind == STEP and self.lids is not None or hops and hops[-1] >= THROW:
                extra = self._x.do(self, action, (), False)  # biohazards' control, a catapult
            old_item = self.stacks[src].pop()
            self.stacks[dst].append(code)
            if kind == STEP:
                self._keeper[m] = dst
            self._rescore(src, dst)
        # Undo record, 10 bytes after the extra cells and the hop cells (a game of hundreds of
        # actions must fit the board's heap): kind, src, dir, dst, code, old item, actions left,
        # flags (booster used, extra turn owed, number of extra cells), mover, number of hops.
        log = self._undo
        i = self._ulen
        n = len(hops)
        ne = len(extra)
        if len(log) < i + ne + n + 10:
            log.extend(bytearray(ne + n + 10 + 64))
        for c in extra:
            log[i] = c
            i += 1
        for h in hops:
            log[i] = h
            i += 1
        log[i] = kind
        log[i + 1] = src
        log[i + 2] = d
        log[i + 3] = dst
        log[i + 4] = code
        log[i + 5] = old_item & 0xFF
        log[i + 6] = self.actions_left
        log[i + 7] = flags | (ne << 2)
        log[i + 8] = m
        log[i + 9] = n
        self._ulen = i + 10
        self._count += 1
        if kind == ACTIVATE:
            self.actions_left = o.VALUE[code]
            return
        if kind == BOOST:
            self.booster_used = True
        if kind == END:
            self.actions_left = 0
        else:
            self.actions_left -= 1
        if self.actions_left == 0:
            self._pass_turn()

    def _pass_turn(self):
        self.actions_left = 0
        self.booster_used = False
        if self.extra_turn:
            self.extra_turn = False  # the sacrifice's extra turn: the same player again
            return
        seats = self.seats
        i = 0
        while seats[i] != self.to_move:
            i += 1
        self.to_move = seats[(i + 1) % len(seats)]

    def _rescore(self, src, dst):
        owner = self._owner
        k = owner[src]
        if k != 255:
            self._score[k] = self._terminal_score(k)
        k2 = owner[dst]
        if k2 != 255 and k2 != k:
            self._score[k2] = self._terminal_score(k2)

    def _record(self, end):
        """(action, old item, actions left, flags, mover, start, extra cells) of the undo record
        that ends at byte end of the undo log."""
        log = self._undo
        r = end - 10
        n = log[r + 9]
        flags = log[r + 7]
        ne = flags >> 2
        start = r - n - ne
        action = (log[r], log[r + 1], log[r + 2], log[r + 3], log[r + 4],
                  tuple(log[r - n:r]) if n else ())
        old_item = log[r + 5]
        if old_item == 0xFF:
            old_item = -1
        extra = bytes(log[start:start + ne]) if ne else b""
        return action, old_item, log[r + 6], flags, log[r + 8], start, extra

    def pop(self):
        """Undo the last pushed action and return it."""
        if not self._count:
            raise RulesError("no action to take back")
        action, old_item, actions_left, flags, to_move, start, extra = self._record(self._ulen)
        self._ulen = start
        self._count -= 1
        self.actions_left = actions_left
        self.booster_used = flags & 1 == 1
        self.extra_turn = flags & 2 == 2
        self.to_move = to_move
        kind, src, d, dst, code, hops = action
        if kind == BOOST and (code - 1) >> 3 < BASE_CARDS:
            self.cards[src] = self.cards[dst]
            self.cards[dst] = 0
        elif kind == BOOST or kind > END:
            self._x.do(self, action, extra, True)
        elif kind != END:
            self.stacks[dst].pop()
            self.stacks[src].append(old_item)
            if kind == STEP:
                self._keeper[to_move] = src
            if extra:
                self._x.do(self, action, extra, True)
            self._rescore(src, dst)
        return action

    def reserve(self, n):
        """Make room for n more actions in the undo record in one allocation (before replaying
        a long game: growing it action by action among the replay's other allocations
        fragments a small heap until a large enough block cannot be found)."""
        need = self._ulen + 12 * n + 64  # 10 bytes an action, hops and slack
        old = self._undo
        if len(old) < need:
            # One block of the final size, the used part copied in through a view: extend()
            # would first build the zeros as a second block of that size, and need both at once.
            log = bytearray(need)
            log[:self._ulen] = memoryview(old)[:self._ulen]
            self._undo = log

    def push_checked(self, action):
        if action not in self.legal_actions():
            raise RulesError("illegal action %s in %s" % (self._describe(action), self.notation()))
        self.push(action)

    def history(self):
        """The actions pushed so far, oldest first."""
        out = []
        end = self._ulen
        while end:
            rec = self._record(end)
            out.append(rec[0])
            end = rec[5]
        out.reverse()
        return out

    def ply(self):
        """How many actions have been pushed."""
        return self._count

    def _describe(self, action):
        try:
            return format_action(action)
        except Exception:
            return repr(action)

    # -- action notation ------------------------------------------------------------------------

    def format_action(self, action):
        return format_action(action)

    def parse_action(self, text):
        """The legal action written as text; RulesError if malformed or not legal here."""
        return _reader().parse_action(self, text)


def action_path(pos, action):
    """The cells the moving piece stands on in turn during action in pos (before it is
    pushed), its source excluded: for a cube the cell it rolls onto, then the cell an
    acceleration slides it to, the wind-rose hop targets, the exit portal after an entry portal
    and a catapult's target; for a keeper step or ride, a teleport move or a card its
    destination; () for `end` and a spiral turn. A hand moving real pieces follows this path;
    the board's tracker reads a cube waiting on the portal by it."""
    kind, src, d, dst, code, hops = action
    if kind == END or kind == TURN:
        return ()
    if kind != ACTIVATE and kind != ROLL:
        return (dst,)
    first = g.NEIGHBOUR[src * 4 + d]
    path = [first]
    cd = pos.cards[first]
    if cd and g.CELL_KIND[first] == g.GREY and (cd - 1) >> 3 == 2 and \
            (hops or dst != first) and pos._view[pos.to_move][first] != V_PORTAL:
        # Rolled onto an acceleration and went on: it slid one cell further (onto the wind
        # rose the hops start from, onto the portal, a catapult, or simply to the next cell).
        path.append(g.NEIGHBOUR[first * 4 + d])
    for h in hops:
        path.append(h & 127)
    last = path[-1]
    if not (hops and hops[-1] >= THROW) and pos._view[pos.to_move][last] == V_PORTAL:
        path.append(dst)
    return tuple(path)


_GREY_CELLS = bytes([c for c in range(g.N_CELLS) if g.CELL_KIND[c] == g.GREY])
# What notation() writes, as bytes: column letters, card kinds, orientations (2 bytes each).
_COLUMN_BYTES = g.COLUMNS.encode()
_CARD_BYTES = CARD_LETTERS.encode()
_ORIENT_BYTES = o.NAME_CHARS.encode()

def format_action(action):
    kind, src, d, dst, code, hops = action
    if kind == END:
        return "end"
    if kind == STEP:
        return "K" + g.DIR_LETTERS[d]
    if kind == BOOST:
        return g.cell_name(src) + "@" + g.cell_name(dst)
    if kind > END or hops and hops[-1] >= THROW:
        return _expansions().format_action(action)
    text = g.cell_name(src) + g.DIR_LETTERS[d]
    for h in hops:
        text += "/" + g.cell_name(h)
    return text


# ---------------------------------------------------------------------------------------------
# Binary action encoding for the board's log. A 16-bit big-endian word, then for a cube move one
# byte per hop (and a catapult throw, THROW + cell):
#   bits 15-14 = 0: cube move (activation or roll, as the phase says):
#                   bits 13-7 source cell, bits 6-5 direction, bits 4-2 and 1-0 the number of
#                   bytes after (its low 3 bits, its high bits; docs/rules/cargocube.md §13).
#   bits 15-14 = 1: 0x4000 + dir keeper step; 0x6000 end (the expansions: 0x5000, 0x7000).
#   bits 15-14 = 2: booster use: bits 13-7 card cell, bits 6-0 target cell.
#   bits 15-14 = 3: the expansions (shared_rules/cargocube/expansions.py).
# Decoding needs the position (it picks the legal action).


def encode_action(action):
    kind, src, d, dst, code, hops = action
    if kind == ACTIVATE or kind == ROLL:
        n = len(hops)
        if n > MAX_HOP_BYTES:
            raise RulesError("too many hops to encode")
        # the count's low 3 bits in bits 4-2, its high bits in bits 1-0 (a loaded position may
        # hold 8 wind roses: 8 hops and a throw; logs written before have them zero)
        w = (src << 7) | (d << 5) | ((n & 7) << 2) | (n >> 3)
        return bytes((w >> 8, w & 0xFF)) + bytes(hops)
    if kind == STEP:
        return bytes((0x40, d))
    if kind == END:
        return bytes((0x60, 0))
    if kind == BOOST:
        w = 0x8000 | (src << 7) | dst
        return bytes((w >> 8, w & 0xFF))
    if kind > END:
        return _expansions().encode_action(action)
    raise RulesError("unknown action kind %r" % kind)


def decode_action(pos, buf, offset=0):
    """(action, next offset) of the encoded action at buf[offset:], legal in pos."""
    if offset + 2 > len(buf):
        raise RulesError("truncated action at byte %d" % offset)
    w = (buf[offset] << 8) | buf[offset + 1]
    top = w >> 14
    nxt = offset + 2
    if top == 2:
        # A booster use is checked as legal_actions() would list it, without listing them all
        # (up to 8 cards x every empty grey cell: a large list on the board's heap).
        src = (w >> 7) & 0x7F
        dst = w & 0x7F
        if src in pos.boost_sources() and dst < g.N_CELLS and pos.is_boost_target(dst, src):
            return (BOOST, src, 0, dst, pos.cards[src], ()), nxt
        raise RulesError("encoded action %04x at byte %d is not legal in %s" % (
            w, offset, pos.notation()))
    # Only the actions of the kind the word names are listed: a replay on the board decodes
    # hundreds of them, and every action legal there would be ~12 KB of heap each time.
    legal = []
    acting = pos.actions_left > 0 and not pos._max_reached()
    if top == 0:
        src = (w >> 7) & 0x7F
        d = (w >> 5) & 3
        n = ((w >> 2) & 7) | ((w & 3) << 3)
        if nxt + n > len(buf):
            raise RulesError("truncated hops at byte %d" % nxt)
        hops = tuple(buf[nxt:nxt + n])
        nxt += n
        if src < g.N_CELLS and not pos._max_reached():
            pos._gen_cube_moves(legal, ROLL if pos.actions_left else ACTIVATE, src)
        for a in legal:
            if a[2] == d and a[5] == hops:
                return a, nxt
    elif w == 0x6000:
        if acting:
            return END_ACTION, nxt
    elif w & 0xF000 == 0x4000:
        if acting:
            pos._gen_steps(legal)
        for a in legal:
            if a[2] == (w & 3):
                return a, nxt
    elif pos._x is not None and acting:
        pos._x.gen_plain(pos, legal)
        a = pos._x.decode_action(legal, w)
        if a is not None:
            return a, nxt
    raise RulesError("encoded action %04x at byte %d is not legal in %s" % (w, offset,
                                                                             pos.notation()))


# ---------------------------------------------------------------------------------------------


def start_position(players=2, layout="polygon", cards=False, teleport=False):
    """The start of a game: layout (a name in layouts.LAYOUTS or a <cells> text of cargo cubes),
    each keeper on its start cell, optionally the cards in their default places (cards: False,
    True or "base", "pyramid", "bastion", "both") and the walking teleport on the centre."""
    return _reader().start_position(players, layout, cards, teleport)
