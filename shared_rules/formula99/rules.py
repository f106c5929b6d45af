# «Формула 99» rules core: position, legal actions, push/pop, perft (docs/rules/formula99.md).
#
# Runs unchanged on the board (MicroPython) and on the PC. The whole position is one bytearray
# (layout below); every change goes through _w, which logs (index, old byte) so that pop undoes
# any action exactly, however much it triggered. Actions are small ints (< 2^30, no allocation
# on the board). The notations live in notation.py, loaded only when text is needed.
#
# What remains to resolve within a turn (events, chance, other players' answers) is an agenda
# of 5-byte items in the same bytearray; the top item decides who acts and what is legal.

from shared_rules import versions as _versions
from shared_rules.formula99 import track as T
from shared_rules.formula99 import cards as C

RULES_VERSION = _versions.version("formula99")


class RulesError(Exception):
    """Bad input to the rules: a malformed position, a malformed or illegal action."""


# -- the position bytearray ----------------------------------------------------------------------
O_LEVEL = 0
O_NSEATS = 1
O_FULL = 2
O_TURN = 3
O_PHASE = 4
O_FLAGS = 5
O_WINNER = 6  # seat, 255 none
O_RESH = 7  # reshuffles so far
O_SP = 8  # agenda items
O_DECKN = 9  # full view: cards in the deck
O_CIV = 10  # 9: civilisation (1..9) of each seat
O_SHIP = 19  # 18: place of ship slot seat * 2 + j
O_CHG = 37  # 18: cell of charge slot seat * 2 + j, 255 at home
O_CCARD = 55  # 18: its card: code, UNKNOWN (public), BLOCKADE
O_HANDN = 73  # 9: cards in each hand
O_LOC = 82  # 54: where card code c is, at O_LOC + c - 1
O_DECK = 136  # 54: full view: the deck, top card last
O_SEED = 190  # 4: full view: seed, big-endian
O_AG = 194  # agenda: MAX_AG items of 5 bytes
MAX_AG = 40
SIZE = O_AG + 5 * MAX_AG

HOME = 255
UNKNOWN = 254
BLOCKADE = 255
NONE = 255

L_DECK = 0  # full: in the deck; public: not known (deck, a hand or a charge)
L_DISCARD = 1
L_HAND = 2  # + seat
L_CHARGE = 20  # + charge slot

PH_START = 0
PH_MOVE = 1
PH_CHARGES = 2
PHASE_LETTERS = "amc"
F_DREW = 1
F_PLAYED = 2
F_LAID = 4
F_LIFTED = 8
FLAG_LETTERS = "dplr"

# Agenda item kinds: (kind, a, b, c, d)
A_MOVE = 1  # a seat, b moves left, c limit, d ship slot + 1 (0 any)
A_TRIG = 2  # a crosser slot, b the cell of a charge it crossed, to trigger
A_SHOW = 3  # chance: a crosser slot, b charge cell
A_FWD = 4  # a crosser slot, b steps
A_TOW = 5  # a crosser slot, b 7 or 8
A_BEAM = 6  # a owner seat, b beam ship slot
A_LASER = 7  # a owner seat, b beam ship slot
A_JOKER = 8  # a crosser slot, b owner seat, c charge cell
A_DASH = 9  # chance: the dash card
A_RAMDRAW = 10  # chance: a rammer slot, b target slot
A_ANSWER = 11  # a rammer slot, b target slot, c value drawn
A_CLEAR = 12  # chance: a cell of the cleared charge
CHANCE_ITEMS = (A_SHOW, A_DASH, A_RAMDRAW, A_CLEAR)

# -- actions: kind << 24 | fields ----------------------------------------------------------------
K_MOVE = 1  # src place << 7 | length << 3 | lane bits
K_PASS = 2
K_END = 3
K_DRAW = 4  # n
K_PLAY = 5  # card << 18 | use << 14 | p1 << 7 | p2
K_LAY = 6  # cell << 6 | card (0 in a public position)
K_BLOCK = 7  # cell
K_LIFT = 8  # cell
K_SHOW = 9  # card
K_GO = 10  # landing << 10 | lane bits << 7 | triggered cell (NOWHERE none)
K_JOKER = 11  # value 4..14
K_TOW = 12  # ship place
K_BEAM = 13  # ship place << 7 | cell
K_LASER = 14  # front place << 7 | back place (NOWHERE none)
K_DEF = 15
K_NODEF = 16

PASS = K_PASS << 24
END = K_END << 24
DEF = K_DEF << 24
NODEF = K_NODEF << 24

U_BRAKE = 1
U_DASH = 2
U_RAM = 3
U_SAC = 4
U_MAGNET = 5
U_JUMP4 = 6
U_JUMP3 = 7
U_KICK = 8
U_BLAST = 9
U_PULL = 10
U_CLEAR = 11
USE_NAMES = ("", "brake", "dash", "ram", "sac", "magnet", "jump", "jump", "kick", "blast", "pull",
             "clear")
MOVE_CARDS = (U_BRAKE, U_DASH, U_RAM, U_SAC, U_JUMP4, U_JUMP3)
FINISHED_BASE = 100  # a ship on the finish cell of civ k, as a target place: 100 + k

# Events of charges (§6.1)
EV_FWD6 = 1
EV_BACK5 = 2
EV_FWD10 = 3
EV_JUMP8 = 4
EV_TWO = 5
EV_TOW7 = 6
EV_TOW8 = 7
EV_BEAM = 8
EV_FREEZE = 9
EV_BACK9 = 10
EV_HOME = 11
EV_LASER = 12
EV_BLAST = 13
EV_JOKER = 14
VALUE_EVENTS = (EV_FWD10, EV_JUMP8, EV_TWO, EV_TOW7, EV_TOW8, EV_BEAM, EV_FREEZE, EV_BACK9,
                EV_HOME, EV_LASER, EV_BLAST)  # values 4..A


def event_of(level, card):
    """The event of a charge's card at a level (§6.1)."""
    if level == 3:
        if card > 52:
            return EV_JOKER
        r = C.rank(card)
        if r >= 4:
            return VALUE_EVENTS[r - 4]
    return EV_FWD6 if C.is_red(card) else EV_BACK5


def default_civs(n):
    """Seat i plays civilisation 1 + 9i // n (§2.1)."""
    return [1 + 9 * i // n for i in range(n)]


class Position:
    """A «Формула 99» position, full or public (§2.4)."""

    def __init__(self, civs=(1, 5), level=1, full=False):
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
            s[O_SHIP + q] = T.START
            s[O_CHG + q] = HOME
        self.st = s
        self._log = bytearray(64)
        self._ll = 0
        self._marks = []
        self._hist = []
        self._legal = None

    # -- seats ------------------------------------------------------------------------------------

    @property
    def seats(self):
        return tuple(range(self.st[O_NSEATS]))

    @property
    def SEAT_LETTERS(self):
        """Seat i is named by its civilisation's digit."""
        s = self.st
        return "".join([str(s[O_CIV + i]) for i in range(s[O_NSEATS])])

    @property
    def level(self):
        return self.st[O_LEVEL]

    @property
    def full(self):
        return self.st[O_FULL] == 1

    @property
    def turn(self):
        return self.st[O_TURN]

    def civ(self, seat):
        return self.st[O_CIV + seat]

    def seat_of_civ(self, civ):
        s = self.st
        for i in range(s[O_NSEATS]):
            if s[O_CIV + i] == civ:
                return i
        return -1

    @property
    def to_move(self):
        """The seat that acts now, -1 at a chance node (a card is shown), or -1 when over."""
        s = self.st
        if s[O_WINNER] != NONE:
            return -1
        sp = s[O_SP]
        if not sp:
            return s[O_TURN]
        i = O_AG + 5 * (sp - 1)
        k = s[i]
        if k in CHANCE_ITEMS:
            return -1
        if k == A_MOVE or k == A_BEAM or k == A_LASER:
            return s[i + 1]
        if k == A_ANSWER:
            return s[i + 2] >> 1
        return s[i + 1] >> 1  # A_FWD, A_TOW, A_JOKER: the crossing ship's pilot

    def is_chance(self):
        s = self.st
        sp = s[O_SP]
        return s[O_WINNER] == NONE and sp > 0 and s[O_AG + 5 * (sp - 1)] in CHANCE_ITEMS

    def ship_places(self, seat):
        s = self.st
        return s[O_SHIP + 2 * seat], s[O_SHIP + 2 * seat + 1]

    def charges(self, seat):
        """[(cell, card)] of the seat's charges on the track; card UNKNOWN or BLOCKADE or a code."""
        s = self.st
        out = []
        for q in (2 * seat, 2 * seat + 1):
            if s[O_CHG + q] != HOME:
                out.append((s[O_CHG + q], s[O_CCARD + q]))
        return out

    def hand(self, seat):
        """Cards of a hand in a full position (ascending); None in a public one."""
        s = self.st
        if not s[O_FULL]:
            return None
        return [c for c in range(1, 55) if s[O_LOC + c - 1] == L_HAND + seat]

    def hand_size(self, seat):
        return self.st[O_HANDN + seat]

    def discard(self):
        s = self.st
        return [c for c in range(1, 55) if s[O_LOC + c - 1] == L_DISCARD]

    def deck(self):
        """Full view: the deck, top card first. Public: None."""
        s = self.st
        if not s[O_FULL]:
            return None
        return [s[O_DECK + i] for i in range(s[O_DECKN] - 1, -1, -1)]

    def deck_size(self):
        s = self.st
        if s[O_FULL]:
            return s[O_DECKN]
        n = 54
        for i in range(s[O_NSEATS]):
            n -= s[O_HANDN + i]
        for q in range(18):
            if s[O_CHG + q] != HOME and s[O_CCARD + q] != BLOCKADE:
                n -= 1
        for c in range(54):
            if s[O_LOC + c] == L_DISCARD:
                n -= 1
        return n

    def seed(self):
        s = self.st
        return (s[O_SEED] << 24) | (s[O_SEED + 1] << 16) | (s[O_SEED + 2] << 8) | s[O_SEED + 3]

    def agenda(self):
        """The agenda items, bottom first, as 5-tuples."""
        s = self.st
        return [tuple(s[O_AG + 5 * i:O_AG + 5 * i + 5]) for i in range(s[O_SP])]

    # -- the board of pieces --------------------------------------------------------------------

    def _boards(self):
        """(ships, charges): bytearray(72) of slot + 1 standing on each track cell."""
        s = self.st
        ships = bytearray(72)
        chg = bytearray(72)
        for q in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + q]
            if p < 72:
                ships[p] = q + 1
            c = s[O_CHG + q]
            if c != HOME:
                chg[c] = q + 1
        return ships, chg

    def ship_at(self, cell):
        """Slot of the ship on a track cell, -1 if none."""
        s = self.st
        for q in range(2 * s[O_NSEATS]):
            if s[O_SHIP + q] == cell:
                return q
        return -1

    def charge_at(self, cell):
        s = self.st
        for q in range(2 * s[O_NSEATS]):
            if s[O_CHG + q] == cell:
                return q
        return -1

    # -- queries --------------------------------------------------------------------------------

    def is_over(self):
        return self.st[O_WINNER] != NONE

    def winners(self):
        w = self.st[O_WINNER]
        return [] if w == NONE else [w]

    def scores(self):
        """Race progress of each seat (§8)."""
        s = self.st
        out = []
        for i in range(s[O_NSEATS]):
            v = 0
            for q in (2 * i, 2 * i + 1):
                p = s[O_SHIP + q]
                if p < 72:
                    v += T.progress(p, s[O_CIV + i])
                elif p != T.START:
                    v += 36
            out.append(v)
        return out

    def ply(self):
        return len(self._hist)

    def history(self):
        return list(self._hist)

    # -- the write log --------------------------------------------------------------------------

    def _w(self, i, v):
        s = self.st
        old = s[i]
        if old == v:
            return
        log = self._log
        n = self._ll
        if n + 3 > len(log):
            log.extend(bytearray(len(log)))
        log[n] = i >> 8
        log[n + 1] = i & 255
        log[n + 2] = old
        self._ll = n + 3
        s[i] = v

    def reserve(self, n):
        """Room for about n more actions in the write log."""
        need = self._ll + 30 * n
        if need > len(self._log):
            self._log.extend(bytearray(need - len(self._log)))

    def push(self, action):
        """Apply a legal action (see push_checked) and everything that resolves by itself."""
        self._marks.append(self._ll)
        self._hist.append(action)
        self._legal = None
        self._apply(action)
        self._settle()

    def pop(self):
        if not self._hist:
            raise RulesError("no action to take back")
        start = self._marks.pop()
        log = self._log
        s = self.st
        n = self._ll
        while n > start:
            n -= 3
            s[(log[n] << 8) | log[n + 1]] = log[n + 2]
        self._ll = start
        self._legal = None
        return self._hist.pop()

    def push_checked(self, action):
        if action not in self.legal_actions():
            raise RulesError("illegal action %s in %s" % (self._describe(action), self.notation()))
        self.push(action)

    def copy(self):
        """The position without its history."""
        p = Position.__new__(Position)
        p.st = bytearray(self.st)
        p._log = bytearray(64)
        p._ll = 0
        p._marks = []
        p._hist = []
        p._legal = None
        return p

    # -- agenda ---------------------------------------------------------------------------------

    def _top(self):
        s = self.st
        sp = s[O_SP]
        return O_AG + 5 * (sp - 1) if sp else -1

    def _push_item(self, k, a=0, b=0, c=0, d=0):
        s = self.st
        sp = s[O_SP]
        if sp >= MAX_AG:
            raise RulesError("agenda overflow")
        i = O_AG + 5 * sp
        w = self._w
        w(i, k)
        w(i + 1, a)
        w(i + 2, b)
        w(i + 3, c)
        w(i + 4, d)
        w(O_SP, sp + 1)

    def _pop_item(self):
        s = self.st
        sp = s[O_SP] - 1
        i = O_AG + 5 * sp
        w = self._w
        for j in range(5):
            w(i + j, 0)
        w(O_SP, sp)

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self):
        """All legal actions, in a deterministic order (the same on the board and the PC)."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self):
        s = self.st
        out = []
        if s[O_WINNER] != NONE:
            return out
        i = self._top()
        if i >= 0:
            k = s[i]
            if k == A_MOVE:
                self._gen_moves(s[i + 1], s[i + 3], s[i + 4] - 1, out)
            elif k == A_SHOW:
                q = self.charge_at(s[i + 2])
                self._gen_shown(s[O_CCARD + q] if q >= 0 else 0, out)
            elif k == A_CLEAR:
                q = self.charge_at(s[i + 1])
                self._gen_shown(s[O_CCARD + q] if q >= 0 else 0, out)
            elif k == A_DASH or k == A_RAMDRAW:
                self._gen_drawn(out)
            elif k == A_FWD:
                self._gen_fwd(s[i + 1], s[i + 2], out)
            elif k == A_TOW:
                self._gen_tow(s[i + 1], s[i + 2], out)
            elif k == A_BEAM:
                self._gen_beam(s[i + 2], out)
            elif k == A_LASER:
                self._gen_laser(s[i + 1], s[i + 2], out)
            elif k == A_JOKER:
                for v in range(4, 15):
                    out.append((K_JOKER << 24) | v)
            elif k == A_ANSWER:
                self._gen_answer(s[i + 2] >> 1, s[i + 3], out)
            return out
        seat = s[O_TURN]
        ph = s[O_PHASE]
        fl = s[O_FLAGS]
        if ph == PH_CHARGES:
            self._gen_charges(seat, fl, out)
            out.append(END)
            return out
        if ph == PH_START:
            if not fl:
                hn = s[O_HANDN + seat]
                have = self._drawable()
                for n in (1, 2):
                    if hn + n <= 3 and have >= n:
                        out.append((K_DRAW << 24) | n)
            if s[O_LEVEL] >= 2 and not fl & F_PLAYED:
                self._gen_plays(seat, out)
        n = len(out)
        self._gen_moves(seat, 5, -1, out)
        if ph == PH_START and len(out) == n:
            out.append(PASS)
        return out

    def _drawable(self):
        s = self.st
        n = self.deck_size()
        for c in range(54):
            if s[O_LOC + c] == L_DISCARD:
                n += 1
        return n

    def _pool(self, out, above=0):
        """Public view: the cards not in the discard pile (of value > above)."""
        s = self.st
        for c in range(1, 55):
            if s[O_LOC + c - 1] != L_DISCARD and C.value(c) > above:
                out.append((K_SHOW << 24) | c)

    def _gen_shown(self, card, out):
        if self.st[O_FULL]:
            out.append((K_SHOW << 24) | card)
        else:
            self._pool(out)

    def _gen_drawn(self, out):
        s = self.st
        if not s[O_FULL]:
            if self.deck_size() == 0:  # the discard pile is about to become the deck
                for c in range(1, 55):
                    out.append((K_SHOW << 24) | c)
            else:
                self._pool(out)
            return
        if s[O_DECKN]:
            out.append((K_SHOW << 24) | s[O_DECK + s[O_DECKN] - 1])
        else:
            out.append((K_SHOW << 24) | self._reshuffled()[0])

    def _reshuffled(self):
        """Full view: the discard pile shuffled as the next deck (top first)."""
        return C.shuffle(self.discard(), C.reshuffle_seed(self.seed(), self.st[O_RESH] + 1))

    def _gen_answer(self, seat, v, out):
        s = self.st
        if s[O_FULL]:
            for c in range(1, 55):
                if s[O_LOC + c - 1] == L_HAND + seat and C.value(c) > v:
                    out.append(DEF)
                    return
            out.append(NODEF)
            return
        if s[O_HANDN + seat]:
            for c in range(1, 55):
                if s[O_LOC + c - 1] != L_DISCARD and C.value(c) > v:
                    out.append(DEF)
                    break
        out.append(NODEF)

    # -- paths ----------------------------------------------------------------------------------

    def _walk(self, q, limit, visit):
        """Depth-first over the standard-move paths of ship slot q (1..limit steps, not past
        its lap end, never onto a blockade): visit(dest, length, lane_bits, cells) for every
        path, dest FINISH when the path reaches the lap end (dest may hold a ship)."""
        s = self.st
        cell = s[O_SHIP + q]
        civ = s[O_CIV + (q >> 1)]
        room = T.LAP - T.progress(cell, civ)
        if limit > room:
            limit = room
        blocked = self._blockades()
        stack = [(cell, 0, 0, 0)]
        cells = []
        while stack:
            c, n, bits, ent = stack.pop()
            if n:
                del cells[n - 1:]
                cells.append(c)
                visit(c, n, bits, cells)
                if c == T.FINISH or n == limit:
                    continue
            if n + 1 == room:
                stack.append((T.FINISH, n + 1, bits, ent))
                continue
            if T.is_red(c):
                for lane in (1, 0):
                    nxt = T.fwd(c, lane)
                    if not blocked[nxt]:
                        stack.append((nxt, n + 1, bits | (lane << ent), ent + 1))
            else:
                nxt = T.fwd(c, 0)
                if not blocked[nxt]:
                    stack.append((nxt, n + 1, bits, ent))

    def _blockades(self):
        s = self.st
        b = bytearray(72)
        for q in range(2 * s[O_NSEATS]):
            if s[O_CHG + q] != HOME and s[O_CCARD + q] == BLOCKADE:
                b[s[O_CHG + q]] = 1
        return b

    def _gen_moves(self, seat, limit, only, out):
        """Standard moves of seat's ships (only: one slot, -1 either), up to limit steps."""
        s = self.st
        civ = s[O_CIV + seat]
        ships, _ = self._boards()
        for j in (0, 1):
            q = 2 * seat + j
            if only >= 0 and q != only:
                continue
            p = s[O_SHIP + q]
            if j and only < 0 and p == s[O_SHIP + q - 1]:
                continue  # both in the start zone: one move
            if p == T.START:
                if not ships[T.plus_cell(civ)]:
                    out.append((K_MOVE << 24) | (T.START << 7) | (1 << 3))
            elif p < 72:
                base = (K_MOVE << 24) | (p << 7)
                found = []

                def visit(dest, n, bits, cells):
                    if dest == T.FINISH or not ships[dest]:
                        found.append(base | (n << 3) | bits)
                self._walk(q, limit, visit)
                found.sort()
                out.extend(found)

    def move_path(self, action):
        """(ship slot, cells stepped onto in order) of a standard move of the player acting;
        the last cell is FINISH for a finish."""
        s = self.st
        src = (action >> 7) & 127
        n = (action >> 3) & 15
        bits = action & 7
        seat = self.to_move
        q = 2 * seat
        if s[O_SHIP + q] != src:
            q += 1
        if src == T.START:
            return q, [T.plus_cell(s[O_CIV + seat])]
        room = T.LAP - T.progress(src, s[O_CIV + seat])
        cells = []
        c = src
        for i in range(n):
            if i + 1 == room:
                cells.append(T.FINISH)
                break
            if T.is_red(c):
                c = T.fwd(c, bits & 1)
                bits >>= 1
            else:
                c = T.fwd(c, 0)
            cells.append(c)
        return q, cells

    # -- the start and move phases: cards from the hand ----------------------------------------

    def _hand_cards(self, seat):
        s = self.st
        if s[O_FULL]:
            return [c for c in range(1, 55) if s[O_LOC + c - 1] == L_HAND + seat]
        if not s[O_HANDN + seat]:
            return []
        return [c for c in range(1, 55) if s[O_LOC + c - 1] != L_DISCARD]

    def _gen_plays(self, seat, out):
        s = self.st
        cards = self._hand_cards(seat)
        if not cards:
            return
        level = s[O_LEVEL]
        ships, chg = self._boards()
        own = [s[O_SHIP + 2 * seat], s[O_SHIP + 2 * seat + 1]]
        on_track = [p for p in own if p < 72]
        if own[0] == own[1]:
            own = own[:1]
        drawable = self._drawable()
        rams = None
        magnets = None
        pulls = None
        clears = None
        for card in cards:
            base = (K_PLAY << 24) | (card << 18)
            su = C.suit(card)
            r = C.rank(card)
            if su == C.HEARTS:
                out.append(base | (U_BRAKE << 14))
            elif su == C.DIAMONDS:
                if drawable:
                    out.append(base | (U_DASH << 14))
            elif su == C.CLUBS:
                if rams is None:
                    rams = []
                    for x in own:
                        for y in self._ram_targets(seat, x, ships):
                            rams.append((x << 7) | y)
                for xy in rams:
                    if drawable:
                        out.append(base | (U_RAM << 14) | xy)
                    out.append(base | (U_SAC << 14) | xy)
            elif su == C.SPADES:
                if r <= 10:
                    if magnets is None:
                        magnets = self._magnet_options(seat, ships, chg)
                    for bq in magnets:
                        out.append(base | (U_MAGNET << 14) | bq)
                elif r == 11:
                    for x in on_track:
                        out.append(base | (U_JUMP4 << 14) | (x << 7))
                elif r == 12:
                    if on_track:
                        out.append(base | (U_JUMP3 << 14))
                elif r == 13:
                    for q in range(2 * s[O_NSEATS]):
                        p = s[O_SHIP + q]
                        if p < 72:
                            out.append(base | (U_KICK << 14) | p)
                        elif p == T.FINISH:
                            out.append(base | (U_KICK << 14) | (FINISHED_BASE + s[O_CIV + (q >> 1)]))
                else:
                    for q in range(2 * s[O_NSEATS]):
                        if s[O_SHIP + q] < 72:
                            out.append(base | (U_BLAST << 14))
                            break
            if level == 3 and r == 2:
                if pulls is None:
                    pulls = self._pull_options(seat, on_track, ships, chg)
                for xq in pulls:
                    out.append(base | (U_PULL << 14) | xq)
            elif level == 3 and r == 3:
                if clears is None:
                    clears = []
                    for c in range(72):
                        q = chg[c] - 1
                        if q < 0 or s[O_CCARD + q] == BLOCKADE:
                            continue
                        for x in on_track:
                            if T.sector(x) == T.sector(c) and (c >> 1) > (x >> 1):
                                clears.append(c)
                                break
                for c in clears:
                    out.append(base | (U_CLEAR << 14) | c)

    def _reach(self, q):
        """Cells a standard move of slot q of 1..5 steps could end on, ignoring ships, with
        a blockade cell allowed as the last cell (the ram's and the pull's "ahead within 5")."""
        s = self.st
        cell = s[O_SHIP + q]
        room = T.LAP - T.progress(cell, s[O_CIV + (q >> 1)])
        limit = 5 if room > 5 else room
        blocked = self._blockades()
        seen = []
        frontier = [cell]
        for n in range(1, limit + 1):
            if n == room:
                break
            nxt = []
            for c in frontier:
                if T.is_red(c):
                    steps = (T.fwd(c, 0), T.fwd(c, 1))
                else:
                    steps = (T.fwd(c, 0),)
                for d in steps:
                    if d not in seen:
                        seen.append(d)
                    if not blocked[d]:
                        nxt.append(d)
            frontier = nxt
        return seen

    def _ram_targets(self, seat, x, ships):
        s = self.st
        civ = s[O_CIV + seat]
        out = []
        if x == T.START:
            y = ships[T.plus_cell(civ)] - 1
            if y >= 0 and (y >> 1) != seat:
                out.append(T.plus_cell(civ))
            return out
        if x >= 72:
            return out
        q = 2 * seat if s[O_SHIP + 2 * seat] == x else 2 * seat + 1
        for c in self._reach(q):
            y = ships[c] - 1
            if y >= 0 and (y >> 1) != seat:
                out.append(c)
        out.sort()
        return out

    def _magnet_options(self, seat, ships, chg):
        s = self.st
        out = []
        own = (s[O_SHIP + 2 * seat], s[O_SHIP + 2 * seat + 1])
        for qc in range(72):
            k = chg[qc] - 1
            if k < 0 or s[O_CCARD + k] == BLOCKADE:
                continue
            sec = T.sector(qc)
            for b in range(72):
                if not ships[b] or T.sector(b) != sec:
                    continue
                for x in own:
                    if x < 72 and x != b and T.sector(x) == sec:
                        out.append((b << 7) | qc)
                        break
        return out

    def _pull_options(self, seat, on_track, ships, chg):
        s = self.st
        out = []
        for x in on_track:
            dest = T.back(x, T.lane_of(x))
            if ships[dest] or chg[dest] or T.is_plus(dest):
                continue
            q = 2 * seat if s[O_SHIP + 2 * seat] == x else 2 * seat + 1
            for c in self._reach(q):
                k = chg[c] - 1
                if k >= 0 and s[O_CCARD + k] != BLOCKADE and self.spaced(dest, c):
                    out.append((x << 7) | c)
        out.sort()
        return out

    # -- the charges phase ----------------------------------------------------------------------

    def _gen_charges(self, seat, fl, out):
        s = self.st
        free = -1
        for q in (2 * seat, 2 * seat + 1):
            if s[O_CHG + q] == HOME:
                free = q
        if not fl & (F_DREW | F_LIFTED) and free >= 0:
            if s[O_HANDN + seat]:
                cells = self.lay_cells(seat)
                if s[O_FULL]:
                    cards = self._hand_cards(seat)
                    for c in cells:
                        for card in cards:
                            out.append((K_LAY << 24) | (c << 6) | card)
                else:
                    for c in cells:
                        out.append((K_LAY << 24) | (c << 6))
            _, chg = self._boards()
            for j in (0, 1):
                p = s[O_SHIP + 2 * seat + j]
                if p < 72 and T.is_red(p) and not chg[p] and self.spaced(p, -1):
                    out.append((K_BLOCK << 24) | p)
        if not fl & F_LAID:
            for q in (2 * seat, 2 * seat + 1):
                c = s[O_CHG + q]
                if c != HOME:
                    out.append((K_LIFT << 24) | c)

    def spaced(self, cell, moving):
        """Is cell at least 3 from every charge on a cell sharing a lane with it (but the
        charge on `moving`, a cell or -1)?"""
        s = self.st
        m = T.lanes_mask(cell)
        for q in range(2 * s[O_NSEATS]):
            o = s[O_CHG + q]
            if o != HOME and o != moving and T.lanes_mask(o) & m and T.dist(o, cell) < 3:
                return False
        return True

    def lay_cells(self, seat):
        """The cells where the seat may lay a charge with a card now (§5.1), ascending."""
        s = self.st
        ships, chg = self._boards()
        nq = 2 * s[O_NSEATS]
        banned = 0
        for j in (0, 1):
            p = s[O_SHIP + 2 * seat + j]
            if p < 72:
                sec = T.sector(p)
                banned |= (1 << sec) | (1 << ((sec + 1) % 9))
        out = []
        for c in range(72):
            if not T.is_track(c) or T.is_plus(c) or ships[c] or chg[c]:
                continue
            if banned >> T.sector(c) & 1:
                continue
            m = T.lanes_mask(c)
            tc = c >> 1
            ok = True
            for q in range(nq):
                o = s[O_CHG + q]
                if o != HOME and T.lanes_mask(o) & m and T.dist(o, c) < 3:
                    ok = False
                    break
                o = s[O_SHIP + q]
                if o < 72 and T.lanes_mask(o) & m and 1 <= (tc - (o >> 1)) % T.LAP <= 4:
                    ok = False
                    break
            if ok:
                out.append(c)
        return out

    # -- events: generation ---------------------------------------------------------------------

    def _gen_fwd(self, q, steps, out):
        s = self.st
        x = s[O_SHIP + q]
        civ = s[O_CIV + (q >> 1)]
        room = T.LAP - T.progress(x, civ)
        ships, chg = self._boards()
        blocked = self._blockades()
        found = []
        # every lane choice: at most 3 sector entries in 10 steps
        for bits in range(8):
            cells = []
            c = x
            b = bits
            ent = 0
            for i in range(steps):
                if i + 1 == room:
                    cells.append(T.FINISH)
                    break
                if T.is_red(c):
                    nxt = T.fwd(c, b & 1)
                    b >>= 1
                    ent += 1
                else:
                    nxt = T.fwd(c, 0)
                if blocked[nxt]:
                    break
                cells.append(nxt)
                c = nxt
            if ent < 3 and bits >> ent:
                continue  # choices beyond the entries made: the same path as bits below
            land = len(cells) - 1
            if land >= 0 and cells[land] != T.FINISH:
                while land >= 0 and (ships[cells[land]] or chg[cells[land]]):
                    land -= 1
            if land < 0:
                a = (K_GO << 24) | (x << 10) | T.NOWHERE
                if a not in found:
                    found.append(a)
                continue
            # the lane bits of the entries up to the landing cell
            used = 0
            c = x
            for i in range(land + 1):
                if T.is_red(c) and cells[i] != T.FINISH:
                    used += 1
                c = cells[i]
            lb = bits & ((1 << used) - 1)
            dest = cells[land]
            base = (K_GO << 24) | (dest << 10) | (lb << 7)
            any_charge = False
            for i in range(land):
                k = chg[cells[i]] - 1
                if k >= 0 and s[O_CCARD + k] != BLOCKADE:
                    any_charge = True
                    a = base | cells[i]
                    if a not in found:
                        found.append(a)
            if not any_charge:
                a = base | T.NOWHERE
                if a not in found:
                    found.append(a)
        found.sort()
        out.extend(found)

    def go_path(self, action):
        """(crosser slot, cells up to the landing) of a forward move of an event."""
        s = self.st
        i = self._top()
        q = s[i + 1]
        x = s[O_SHIP + q]
        dest = (action >> 10) & 127
        bits = (action >> 7) & 7
        cells = []
        if dest == x:
            return q, cells
        room = T.LAP - T.progress(x, s[O_CIV + (q >> 1)])
        c = x
        for i in range(36):
            if i + 1 == room:
                cells.append(T.FINISH)
                break
            if T.is_red(c):
                c = T.fwd(c, bits & 1)
                bits >>= 1
            else:
                c = T.fwd(c, 0)
            cells.append(c)
            if c == dest:
                break
        return q, cells

    def _gen_tow(self, q, kind, out):
        s = self.st
        x = s[O_SHIP + q]
        if x >= 72:
            return
        ships, chg = self._boards()
        found = []
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if k == q or p >= 72:
                continue
            if kind == 7:
                if not T.ahead(x, p, 3):
                    continue
                dest = T.back(p, T.lane_of(p))
            else:
                if not T.behind(x, p, 3):
                    continue
                dest = T.back(x, T.lane_of(x))
            if ships[dest] or chg[dest]:
                continue
            found.append((K_TOW << 24) | p)
        found.sort()
        out.extend(found)

    def beam_ship(self, owner, x_slot, cell):
        """The owner's ship that uses a beam or laser charge triggered at cell (§7), or -1."""
        s = self.st
        if (x_slot >> 1) == owner and s[O_SHIP + x_slot] < 72:
            return x_slot
        best = -1
        key = 0
        for q in (2 * owner, 2 * owner + 1):
            p = s[O_SHIP + q]
            if p >= 72:
                continue
            d = ((cell >> 1) - (p >> 1)) % T.LAP
            k = (min(d, T.LAP - d) << 3) | ((0 if d <= T.LAP - d else 1) << 1) | (p & 1)
            if best < 0 or k < key:
                best = q
                key = k
        return best

    def _gen_beam(self, z, out):
        s = self.st
        zc = s[O_SHIP + z]
        if zc >= 72:
            return
        sec = T.sector(zc)
        ships, chg = self._boards()
        land = []
        prev = (sec + 8) % 9
        for c in range(prev * 8, prev * 8 + 8):
            if T.is_track(c) and not ships[c] and not chg[c]:
                land.append(c)
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if k == z or p >= 72:
                continue
            d = (T.sector(p) - sec) % 9
            if d != 1 and d != 2:
                continue
            pt = T.progress(p, s[O_CIV + (k >> 1)])
            for c in land:
                if pt - ((p >> 1) - (c >> 1)) % T.LAP >= 0:
                    out.append((K_BEAM << 24) | (p << 7) | c)
        out.sort()

    def _gen_laser(self, owner, z, out):
        s = self.st
        zc = s[O_SHIP + z]
        if zc >= 72:
            return
        front = []
        backs = []
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if (k >> 1) == owner or p >= 72:
                continue
            if T.ahead(zc, p, 2):
                front.append(k)
            elif T.behind(zc, p, 2):
                backs.append(k)
        found = []
        for f in front:
            found.append((K_LASER << 24) | (s[O_SHIP + f] << 7) | T.NOWHERE)
            for b in backs:
                if (b >> 1) != (f >> 1):
                    found.append((K_LASER << 24) | (s[O_SHIP + f] << 7) | s[O_SHIP + b])
        for b in backs:
            found.append((K_LASER << 24) | (T.NOWHERE << 7) | s[O_SHIP + b])
        found.sort()
        out.extend(found)

    # -- applying actions -----------------------------------------------------------------------

    def _move_ship(self, q, place):
        """Put ship slot q on place (a track cell, START, or the finish: pass FINISH and the
        finish target is chosen here). A blockade left behind goes home; the control room wins."""
        s = self.st
        old = s[O_SHIP + q]
        if old < 72:
            for k in range(2 * s[O_NSEATS]):
                if s[O_CHG + k] == old and s[O_CCARD + k] == BLOCKADE:
                    self._w(O_CHG + k, HOME)
                    self._w(O_CCARD + k, 0)
        if place == T.FINISH and s[O_SHIP + (q ^ 1)] == T.FINISH:
            place = T.CONTROL
        self._w(O_SHIP + q, place)
        if place == T.CONTROL:
            self._w(O_WINNER, q >> 1)

    def _forward_place(self, q, dest):
        """FINISH instead of dest if moving slot q forward onto dest reaches its lap end."""
        s = self.st
        x = s[O_SHIP + q]
        d = ((dest >> 1) - (x >> 1)) % T.LAP
        if T.progress(x, s[O_CIV + (q >> 1)]) + d >= T.LAP:
            return T.FINISH
        return dest

    def _to_discard(self, card):
        self._w(O_LOC + card - 1, L_DISCARD)

    def _remove_charge(self, q):
        self._w(O_CHG + q, HOME)
        self._w(O_CCARD + q, 0)

    def _draw_top(self):
        """Full view: take the deck's top card (reshuffling the discard pile first if needed)."""
        s = self.st
        if not s[O_DECKN]:
            self._reshuffle()
        n = s[O_DECKN] - 1
        card = s[O_DECK + n]
        self._w(O_DECK + n, 0)
        self._w(O_DECKN, n)
        return card

    def _reshuffle(self):
        s = self.st
        r = s[O_RESH] + 1
        if s[O_FULL]:
            cards = self._reshuffled()
            n = len(cards)
            for i in range(n):
                self._w(O_DECK + n - 1 - i, cards[i])
                self._w(O_LOC + cards[i] - 1, L_DECK)
            self._w(O_DECKN, n)
        else:
            for c in range(54):
                if s[O_LOC + c] == L_DISCARD:
                    self._w(O_LOC + c, L_DECK)
        self._w(O_RESH, r)

    def _apply(self, a):
        s = self.st
        k = a >> 24
        w = self._w
        seat = s[O_TURN]
        i = self._top()
        if k == K_SHOW:
            self._apply_shown(a & 255)
            return
        if i >= 0:
            item = s[i]
            if item == A_MOVE:
                q, cells = self.move_path(a)
                left = s[i + 2] - 1
                if left:
                    w(i + 2, left)
                else:
                    self._pop_item()
                self._standard_move(q, cells)
            elif item == A_FWD:
                q, cells = self.go_path(a)
                self._pop_item()
                trig = a & 127
                if cells:
                    dest = cells[-1]
                    self._move_ship(q, dest)
                if trig != T.NOWHERE:
                    self._push_item(A_TRIG, q, trig)
            elif item == A_TOW:
                q = s[i + 1]
                kind = s[i + 2]
                self._pop_item()
                p = a & 127
                t = self.ship_at(p)
                if kind == 7:
                    dest = T.back(p, T.lane_of(p))
                    self._move_ship(q, self._forward_place(q, dest))
                else:
                    x = s[O_SHIP + q]
                    dest = T.back(x, T.lane_of(x))
                    self._move_ship(t, self._forward_place(t, dest))
            elif item == A_BEAM:
                self._pop_item()
                self._move_ship(self.ship_at((a >> 7) & 127), a & 127)
            elif item == A_LASER:
                self._pop_item()
                f = (a >> 7) & 127
                b = a & 127
                fq = self.ship_at(f) if f != T.NOWHERE else -1
                bq = self.ship_at(b) if b != T.NOWHERE else -1
                if fq >= 0:
                    self._move_ship(fq, T.START)
                if bq >= 0:
                    self._move_ship(bq, T.START)
            elif item == A_JOKER:
                q = s[i + 1]
                owner = s[i + 2]
                cell = s[i + 3]
                self._pop_item()
                self._event(VALUE_EVENTS[(a & 255) - 4], q, owner, cell)
            elif item == A_ANSWER:
                x = s[i + 1]
                y = s[i + 2]
                self._pop_item()
                if k == K_DEF:
                    self._move_ship(x, T.START)
                else:
                    yc = s[O_SHIP + y]
                    self._move_ship(y, T.START)
                    self._move_ship(x, yc)
            return
        if k == K_MOVE:
            q, cells = self.move_path(a)
            w(O_PHASE, PH_CHARGES)
            self._standard_move(q, cells)
        elif k == K_PASS:
            w(O_PHASE, PH_CHARGES)
        elif k == K_DRAW:
            self._draw_into(seat, a & 3)
            w(O_FLAGS, s[O_FLAGS] | F_DREW)
        elif k == K_PLAY:
            self._play(seat, a)
        elif k == K_LAY:
            self._lay(seat, (a >> 6) & 127, a & 63)
            w(O_FLAGS, s[O_FLAGS] | F_LAID)
        elif k == K_BLOCK:
            q = 2 * seat if s[O_CHG + 2 * seat] == HOME else 2 * seat + 1
            w(O_CHG + q, a & 127)
            w(O_CCARD + q, BLOCKADE)
            w(O_FLAGS, s[O_FLAGS] | F_LAID)
        elif k == K_LIFT:
            q = self.charge_at(a & 127)
            card = s[O_CCARD + q]
            if card != BLOCKADE:
                if s[O_FULL]:
                    w(O_LOC + card - 1, L_HAND + seat)
                w(O_HANDN + seat, s[O_HANDN + seat] + 1)
            self._remove_charge(q)
            w(O_FLAGS, s[O_FLAGS] | F_LIFTED)
        elif k == K_END:
            self._next_turn()

    def _next_turn(self):
        s = self.st
        self._w(O_TURN, (s[O_TURN] + 1) % s[O_NSEATS])
        self._w(O_PHASE, PH_START)
        self._w(O_FLAGS, 0)

    def _draw_into(self, seat, n):
        s = self.st
        for _ in range(n):
            if s[O_FULL]:
                card = self._draw_top()
                self._w(O_LOC + card - 1, L_HAND + seat)
            elif self.deck_size() == 0:
                self._reshuffle()
            self._w(O_HANDN + seat, s[O_HANDN + seat] + 1)

    def _lay(self, seat, cell, card):
        s = self.st
        q = 2 * seat if s[O_CHG + 2 * seat] == HOME else 2 * seat + 1
        self._w(O_CHG + q, cell)
        if s[O_FULL]:
            self._w(O_CCARD + q, card)
            self._w(O_LOC + card - 1, L_CHARGE + q)
        else:
            self._w(O_CCARD + q, UNKNOWN)
        self._w(O_HANDN + seat, s[O_HANDN + seat] - 1)

    def _standard_move(self, q, cells):
        """Ship slot q steps onto cells (the last FINISH for a finish); the card charges on
        them will trigger in path order (pushed last first, so the first is on top)."""
        _, chg = self._boards()
        self._move_ship(q, cells[-1])
        s = self.st
        for j in range(len(cells) - 1, -1, -1):
            c = cells[j]
            if c < 72:
                k = chg[c] - 1
                if k >= 0 and s[O_CCARD + k] != BLOCKADE:
                    self._push_item(A_TRIG, q, c)

    def _play(self, seat, a):
        s = self.st
        w = self._w
        card = (a >> 18) & 63
        use = (a >> 14) & 15
        p1 = (a >> 7) & 127
        p2 = a & 127
        w(O_LOC + card - 1, L_DISCARD)
        w(O_HANDN + seat, s[O_HANDN + seat] - 1)
        w(O_FLAGS, s[O_FLAGS] | F_PLAYED)
        w(O_PHASE, PH_CHARGES if use in MOVE_CARDS else PH_MOVE)
        own = 2 * seat
        if use == U_DASH:
            self._push_item(A_DASH)
        elif use == U_RAM or use == U_SAC:
            x = own if s[O_SHIP + own] == p1 else own + 1
            y = self.ship_at(p2)
            if use == U_SAC:
                self._move_ship(x, T.START)
                self._move_ship(y, T.START)
            else:
                self._push_item(A_RAMDRAW, x, y)
        elif use == U_MAGNET:
            self._push_item(A_TRIG, self.ship_at(p1), p2)
        elif use == U_JUMP4:
            self._jump(own if s[O_SHIP + own] == p1 else own + 1, 16)
        elif use == U_JUMP3:
            order = [own, own + 1]
            if self._ahead_key(own + 1) > self._ahead_key(own):
                order = [own + 1, own]
            for q in order:
                if s[O_SHIP + q] < 72 and s[O_WINNER] == NONE:
                    self._jump(q, 12)
        elif use == U_KICK:
            if p2 >= FINISHED_BASE:
                t = self.seat_of_civ(p2 - FINISHED_BASE) * 2
                if s[O_SHIP + t] != T.FINISH:
                    t += 1
            else:
                t = self.ship_at(p2)
            self._move_ship(t, T.START)
        elif use == U_BLAST:
            for q in range(2 * s[O_NSEATS]):
                if s[O_SHIP + q] < 72:
                    self._move_ship(q, T.START)
        elif use == U_PULL:
            x = p1
            k = self.charge_at(p2)
            w(O_CHG + k, T.back(x, T.lane_of(x)))
        elif use == U_CLEAR:
            self._push_item(A_CLEAR, p2)

    def _ahead_key(self, q):
        """Order of the ♠ Q's jumps: larger progress first, then the blue lane; -1 off track."""
        s = self.st
        p = s[O_SHIP + q]
        if p >= 72:
            return -1
        return T.progress(p, s[O_CIV + (q >> 1)]) * 2 + 1 - (p & 1)

    def _jump(self, q, n):
        s = self.st
        x = s[O_SHIP + q]
        if T.progress(x, s[O_CIV + (q >> 1)]) + n >= T.LAP:
            self._move_ship(q, T.FINISH)
            return
        lane = T.lane_of(x)
        c = x
        for _ in range(n):
            c = T.fwd(c, lane)
        ships, chg = self._boards()
        while c != x and (ships[c] or chg[c]):
            c = T.back(c, lane)
        if c != x:
            self._move_ship(q, c)

    def _back(self, q, n):
        s = self.st
        x = s[O_SHIP + q]
        if x >= 72:
            return
        p = T.progress(x, s[O_CIV + (q >> 1)])
        if n > p:
            n = p
        lane = T.lane_of(x)
        blocked = self._blockades()
        c = x
        for _ in range(n):
            nxt = T.back(c, lane)
            if blocked[nxt]:
                break
            c = nxt
        ships, chg = self._boards()
        while c != x and (ships[c] or chg[c]):
            c = T.fwd(c, lane)
        if c != x:
            self._move_ship(q, c)

    def _apply_shown(self, card):
        s = self.st
        i = self._top()
        item = s[i]
        if item == A_SHOW:
            q = s[i + 1]
            cell = s[i + 2]
            k = self.charge_at(cell)
            owner = k >> 1
            self._pop_item()
            self._remove_charge(k)
            self._to_discard(card)
            self._event(event_of(s[O_LEVEL], card), q, owner, cell)
        elif item == A_CLEAR:
            k = self.charge_at(s[i + 1])
            self._pop_item()
            self._remove_charge(k)
            self._to_discard(card)
        else:
            if s[O_FULL]:
                self._draw_top()
            elif self.deck_size() == 0:
                self._reshuffle()
            self._to_discard(card)
            if item == A_DASH:
                self._pop_item()
                self._push_item(A_MOVE, s[O_TURN], 1, 7 if C.is_red(card) else 3, 0)
            else:
                x = s[i + 1]
                y = s[i + 2]
                self._pop_item()
                self._push_item(A_ANSWER, x, y, C.value(card))

    def _event(self, ev, q, owner, cell):
        """Resolve the event of a charge of owner at cell, crossed by ship slot q (§7)."""
        s = self.st
        on_track = s[O_SHIP + q] < 72
        mine = (q >> 1) == owner
        if ev == EV_FWD6 or ev == EV_FWD10:
            if on_track:
                self._push_item(A_FWD, q, 6 if ev == EV_FWD6 else 10)
        elif ev == EV_BACK5:
            self._back(q, 5)
        elif ev == EV_BACK9:
            if not mine:
                self._back(q, 9)
        elif ev == EV_JUMP8:
            if on_track:
                self._jump(q, 8)
        elif ev == EV_TWO:
            self._push_item(A_MOVE, q >> 1, 1, 5, (q ^ 1) + 1)
        elif ev == EV_TOW7 or ev == EV_TOW8:
            if on_track:
                self._push_item(A_TOW, q, 7 if ev == EV_TOW7 else 8)
        elif ev == EV_BEAM or ev == EV_LASER:
            z = self.beam_ship(owner, q, cell)
            if z >= 0:
                self._push_item(A_BEAM if ev == EV_BEAM else A_LASER, owner, z)
        elif ev == EV_FREEZE:
            self._push_item(A_MOVE, owner, 2, 5, 0)
        elif ev == EV_HOME:
            if not mine and on_track:
                self._move_ship(q, T.START)
        elif ev == EV_BLAST:
            sec = T.sector(cell)
            for k in range(2 * s[O_NSEATS]):
                p = s[O_SHIP + k]
                if p < 72 and T.sector(p) == sec:
                    self._move_ship(k, T.START)
        elif ev == EV_JOKER:
            self._push_item(A_JOKER, q, owner, cell)

    def _settle(self):
        """Resolve what needs no choice; end the move phase or the turn when nothing is left."""
        s = self.st
        while True:
            if s[O_WINNER] != NONE:
                while s[O_SP]:
                    self._pop_item()
                self._legal = []
                return
            i = self._top()
            if i >= 0:
                if s[i] == A_TRIG:
                    q = s[i + 1]
                    cell = s[i + 2]
                    self._pop_item()
                    k = self.charge_at(cell)
                    if k >= 0 and s[O_CCARD + k] != BLOCKADE:
                        self._push_item(A_SHOW, q, cell)
                    continue
                acts = self._generate()
                if not acts:
                    self._pop_item()
                    continue
                self._legal = acts
                return
            acts = self._generate()
            ph = s[O_PHASE]
            if ph == PH_MOVE and not acts:
                self._w(O_PHASE, PH_CHARGES)
                continue
            if ph == PH_CHARGES and len(acts) == 1:
                self._next_turn()
                continue
            self._legal = acts
            return

    # -- text (notation.py) ---------------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        from shared_rules.formula99 import notation
        return notation.parse_position(text)

    def notation(self):
        from shared_rules.formula99 import notation
        return notation.format_position(self)

    def format_action(self, action):
        from shared_rules.formula99 import notation
        return notation.format_action(self, action)

    def parse_action(self, text):
        from shared_rules.formula99 import notation
        return notation.parse_action(self, text)

    def _describe(self, action):
        try:
            return self.format_action(action)
        except Exception:
            return repr(action)

    def __repr__(self):
        return "<formula99 %s>" % self.notation()

    def public(self):
        """The public view of this position (hands as counts, charges and deck hidden)."""
        p = self.copy()
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


def public_action(action):
    """The action as the public view plays it (a laid charge's card hidden)."""
    if action >> 24 == K_LAY:
        return action & ~63
    return action


def start_position(players=2, level=1, seed=None, civs=None):
    """The start (§2): every ship in its start zone, seat 0 to move. Public unless seed is
    given, then full: the seeded deck dealt 3 cards to each seat (§2.4)."""
    if civs is None:
        civs = default_civs(players)
    pos = Position(civs, level, full=seed is not None)
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


def named_position(word, players=2, level=1, seed=None):
    """The start for the word 'start', else None."""
    if word == "start":
        return start_position(players, level, seed)
    return None


def encode_action(action):
    if action < 0 or action >= 1 << 30:
        raise RulesError("no «Формула 99» action: %r" % (action,))
    return bytes(((action >> 24) & 255, (action >> 16) & 255, (action >> 8) & 255, action & 255))


def decode_action(pos, buf, offset=0):
    if offset + 4 > len(buf):
        raise RulesError("truncated action at byte %d" % offset)
    a = (buf[offset] << 24) | (buf[offset + 1] << 16) | (buf[offset + 2] << 8) | buf[offset + 3]
    if a in pos.legal_actions():
        return a, offset + 4
    raise RulesError("encoded action %08x at byte %d is not legal in %s" % (a, offset,
                                                                             pos.notation()))


def perft(pos, depth):
    """Number of sequences of depth legal actions from pos (chance outcomes included, §11)."""
    if depth <= 0:
        return 1
    actions = pos.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        pos.push(a)
        total += perft(pos, depth - 1)
        pos.pop()
    return total
