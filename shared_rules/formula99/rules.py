# «Формула 99» rules core: position, legal actions, push/pop, perft (docs/rules/formula99.md).
#
# Runs unchanged on the board (MicroPython) and on the PC. The whole position is one bytearray
# (layout below); every change goes through _w, which logs (index, old byte) so that pop undoes
# any action exactly, however much it triggered. Actions are small ints (< 2^30, no allocation
# on the board). The notations live in notation.py (written) and reader.py (read), loaded only
# when text is needed.
#
# What remains to resolve within a turn (events, chance, other players' answers) is an agenda
# of 5-byte items in the same bytearray; the top item decides who acts and what is legal.

from shared_rules import versions as _versions
from shared_rules.formula99 import track as TK
from shared_rules.formula99 import cards as C
from shared_rules.formula99.const import *  # noqa: F401,F403 (the shared constants)
from shared_rules.formula99.legal import Legal
from shared_rules.perft import perft  # noqa: F401 (the same for every rules core; a chance
#   outcome is one legal action of the position, §11 of docs/rules/formula99.md)

RULES_VERSION = _versions.version("formula99")
LOG_CHUNK = 384  # bytes per chunk of the undo log (the board keeps two: keep_undo)


def event_of(level, card):
    """The event of a charge's card at a level (§6.1)."""
    if level == 3:
        if card > 52:
            return EV_JOKER
        r = C.rank(card)
        if r >= 4:
            return VALUE_EVENTS[r - 4]
    return EV_FWD6 if C.is_red(card) else EV_BACK5


class Position(Legal):
    """A «Формула 99» position, full or public (§2.4)."""

    # In a full position, the cards its lays are listed with: 0 every card of the hand (the
    # rules, §10); a card: only that one (if it is not in the hand, as LAY_FIRST); LAY_FIRST:
    # the lowest only, one lay per cell (so whether a lay is possible stays the same). The
    # board's tracker narrows them (set_lay_card): a charges phase lists a lay per cell and card,
    # hundreds of actions the board's heap cannot hold at its high point, and the card comes
    # from its holder anyway. Perft, the host and copies list every card.
    lay_card = 0

    def __init__(self, civs=(1, 5), level=1, full=False):
        from shared_rules.formula99 import setup
        setup.init(self, civs, level, full)

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

    # The seat whose turn it is, by the name the host's game-neutral code asks for.
    turn_seat = turn

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

    def seed(self):
        s = self.st
        return (s[O_SEED] << 24) | (s[O_SEED + 1] << 16) | (s[O_SEED + 2] << 8) | s[O_SEED + 3]

    def agenda(self):
        """The agenda items, bottom first, as 5-tuples."""
        s = self.st
        return [tuple(s[O_AG + 5 * i:O_AG + 5 * i + 5]) for i in range(s[O_SP])]

    # -- the board of pieces --------------------------------------------------------------------

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
                    v += TK.progress(p, s[O_CIV + i])
                elif p != TK.START:
                    v += 36
            out.append(v)
        return out

    def ply(self):
        return self._ply

    def history(self):
        """The actions pushed so far, oldest first."""
        return [self.action_at(i) for i in range(self._ply)]

    # -- the undo log ---------------------------------------------------------------------------
    # Fixed chunks of LOG_CHUNK bytes, so that a long game never asks the heap for one large
    # block: each change is 3 bytes (index, old byte), each action ends with a 6-byte trailer
    # (the action, the number of changes); no unit straddles two chunks. self._fill holds the
    # bytes used in each full chunk, self._n in the last one; self._starts, for each chunk after
    # the first, the actions begun when it was started. The actions' codes are kept apart too
    # (self._codes: 4 bytes each, in chunks of 64): the history.
    #
    # A board bounds the log (keep_undo): it grows by about 22 bytes an action, and a game of
    # 400 actions held 9 KB of the board's heap in pieces. Then only the last _keep chunks
    # stay; the actions begun in a chunk let go (the first _floor) are taken back by replaying
    # the game from its start (_st0).

    def _room(self, k):
        if self._n + k > LOG_CHUNK:
            ch = self._chunks
            self._fill.append(self._n)
            # (an action whose first change opens this chunk lost nothing with the one before)
            self._starts.append(self._ply + (1 if self._count else 0))
            if self._keep and len(ch) >= self._keep:
                self._fill.pop(0)
                self._floor = self._starts.pop(0)
                ch.append(ch.pop(0))  # (reused: the heap sees no new block)
            elif len(self._spare):
                ch.append(self._spare.pop())
            else:
                ch.append(bytearray(LOG_CHUNK))
            self._n = 0

    def keep_undo(self, chunks):
        """Bound the undo log to its last `chunks` chunks (2 at least). Older actions are then
        taken back by a replay from this position, which has no history yet."""
        if self._ply:
            raise RulesError("keep_undo: the position has a history")
        self._keep = chunks
        self._st0 = bytearray(self.st)

    def action_at(self, i):
        """The game's action i (0 the first): history()[i] without the list. After a take-back
        the actions taken back stay readable until others are pushed in their place."""
        b = self._codes[i >> 6]
        j = (i & 63) << 2
        return (b[j] << 24) | (b[j + 1] << 16) | (b[j + 2] << 8) | b[j + 3]

    def take_back_to(self, n):
        """Take back actions until n are left (below what a bounded log still holds: by one
        replay from the start, not one per action). The replay allocates nothing: the codes
        it pushes are the ones it writes again."""
        if n < self._floor:
            ch = self._chunks
            while len(ch) > 1:
                self._spare.append(ch.pop())
            del self._fill[:]
            del self._starts[:]
            self.st[:] = self._st0
            self._n = 0
            self._ply = 0
            self._floor = 0
            for i in range(n):
                self.push(self.action_at(i))
            self._legal = None
        while self._ply > n:
            self.pop()

    def _w(self, i, v):
        s = self.st
        old = s[i]
        if old == v:
            return
        if self._n + 3 > LOG_CHUNK:
            self._room(3)
        buf = self._chunks[-1]
        n = self._n
        buf[n] = i >> 8
        buf[n + 1] = i & 255
        buf[n + 2] = old
        self._n = n + 3
        self._count += 1
        s[i] = v

    def reserve(self, n):
        """Chunks for about n more actions, allocated now (while the heap is in one piece);
        nothing for a bounded log (keep_undo), which reuses its chunks."""
        if self._keep:
            return
        for _ in range(n * 24 // LOG_CHUNK + 1):
            self._spare.append(bytearray(LOG_CHUNK))

    def push(self, action):
        """Apply a legal action (see push_checked) and everything that resolves by itself."""
        self._legal = None
        outer = self._count
        self._count = 0
        self._apply(action)
        self._settle()
        count = self._count
        self._room(6)  # (while _count is this action's: _room reads it)
        self._count = outer
        buf = self._chunks[-1]
        n = self._n
        buf[n] = (action >> 24) & 255
        buf[n + 1] = (action >> 16) & 255
        buf[n + 2] = (action >> 8) & 255
        buf[n + 3] = action & 255
        buf[n + 4] = count >> 8
        buf[n + 5] = count & 255
        self._n = n + 6
        i = self._ply
        if i >> 6 == len(self._codes):
            self._codes.append(bytearray(256))
        b = self._codes[i >> 6]
        j = (i & 63) << 2
        b[j] = buf[n]
        b[j + 1] = buf[n + 1]
        b[j + 2] = buf[n + 2]
        b[j + 3] = buf[n + 3]
        self._ply += 1

    def pop(self):
        if not self._ply:
            raise RulesError("no action to take back")
        if self._ply == self._floor:  # its undo record is let go (keep_undo)
            a = self.action_at(self._ply - 1)
            self.take_back_to(self._ply - 1)
            return a
        s = self.st
        chunks = self._chunks
        buf = chunks[-1]
        n = self._n
        count = (buf[n - 2] << 8) | buf[n - 1]
        action = (buf[n - 6] << 24) | (buf[n - 5] << 16) | (buf[n - 4] << 8) | buf[n - 3]
        n -= 6
        while True:
            if n == 0 and len(chunks) > 1:
                self._spare.append(chunks.pop())
                self._starts.pop()
                buf = chunks[-1]
                n = self._fill.pop()
            if not count:
                break
            n -= 3
            s[(buf[n] << 8) | buf[n + 1]] = buf[n + 2]
            count -= 1
        self._n = n
        self._ply -= 1
        self._legal = None
        return action

    def push_checked(self, action):
        if not self.is_legal(action):
            raise RulesError("illegal action %s in %s" % (self._describe(action), self.notation()))
        self.push(action)

    def copy(self):
        """The position without its history."""
        p = object.__new__(Position)  # (MicroPython: a class has no __new__ of its own)
        p.st = bytearray(self.st)
        p._new_log()
        return p

    def _new_log(self):
        self._chunks = [bytearray(LOG_CHUNK)]
        self._fill = []
        self._starts = []
        self._floor = 0
        self._keep = 0
        self._codes = []
        self._spare = []
        self._n = 0
        self._count = 0
        self._ply = 0
        self._legal = None

    # -- agenda ---------------------------------------------------------------------------------

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
        """All legal actions, ascending as ints (the same order on the board and the PC, and
        whatever order the two ships or tokens of a civilisation happen to be stored in)."""
        if self._legal is None:
            self._legal = self._generate()
            self._legal.sort()
        return list(self._legal)

    def set_lay_card(self, card):
        """Narrow (or widen, 0) the cards a full position's lays are listed with."""
        if card != self.lay_card:
            self.lay_card = card
            self._legal = None

    def is_legal(self, action):
        """Whether action is legal here (no copy of the list: the board checks a logged or
        entered action at its heap's high point, and a full position's charges phase lists a
        lay per cell and card)."""
        if self._legal is None:
            self.legal_actions()
        return action in self._legal

    # -- paths ----------------------------------------------------------------------------------

    # -- the start and move phases: cards from the hand ----------------------------------------

    # -- the charges phase ----------------------------------------------------------------------

    # -- events: generation ---------------------------------------------------------------------

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
        if place == TK.FINISH and s[O_SHIP + (q ^ 1)] == TK.FINISH:
            place = TK.CONTROL
        self._w(O_SHIP + q, place)
        if place == TK.CONTROL:
            self._w(O_WINNER, q >> 1)

    def _forward_place(self, q, dest):
        """FINISH instead of dest if moving slot q forward onto dest reaches its lap end."""
        s = self.st
        x = s[O_SHIP + q]
        d = ((dest >> 1) - (x >> 1)) % TK.LAP
        if TK.progress(x, s[O_CIV + (q >> 1)]) + d >= TK.LAP:
            return TK.FINISH
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
                if trig != TK.NOWHERE:
                    self._push_item(A_TRIG, q, trig)
            elif item == A_TOW:
                q = s[i + 1]
                kind = s[i + 2]
                self._pop_item()
                p = a & 127
                t = self.ship_at(p)
                if kind == 7:
                    dest = TK.back(p, TK.lane_of(p))
                    self._move_ship(q, self._forward_place(q, dest))
                else:
                    x = s[O_SHIP + q]
                    dest = TK.back(x, TK.lane_of(x))
                    self._move_ship(t, self._forward_place(t, dest))
            elif item == A_BEAM:
                self._pop_item()
                self._move_ship(self.ship_at((a >> 7) & 127), a & 127)
            elif item == A_LASER:
                self._pop_item()
                f = (a >> 7) & 127
                b = a & 127
                fq = self.ship_at(f) if f != TK.NOWHERE else -1
                bq = self.ship_at(b) if b != TK.NOWHERE else -1
                if fq >= 0:
                    self._move_ship(fq, TK.START)
                if bq >= 0:
                    self._move_ship(bq, TK.START)
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
                    self._move_ship(x, TK.START)
                else:
                    yc = s[O_SHIP + y]
                    self._move_ship(y, TK.START)
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
                self._move_ship(x, TK.START)
                self._move_ship(y, TK.START)
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
                if s[O_SHIP + t] != TK.FINISH:
                    t += 1
            else:
                t = self.ship_at(p2)
            self._move_ship(t, TK.START)
        elif use == U_BLAST:
            for q in range(2 * s[O_NSEATS]):
                if s[O_SHIP + q] < 72:
                    self._move_ship(q, TK.START)
        elif use == U_PULL:
            x = p1
            k = self.charge_at(p2)
            w(O_CHG + k, TK.back(x, TK.lane_of(x)))
        elif use == U_CLEAR:
            self._push_item(A_CLEAR, p2)

    def _ahead_key(self, q):
        """Order of the ♠ Q's jumps: larger progress first, then the blue lane; -1 off track."""
        s = self.st
        p = s[O_SHIP + q]
        if p >= 72:
            return -1
        return TK.progress(p, s[O_CIV + (q >> 1)]) * 2 + 1 - (p & 1)

    def _jump(self, q, n):
        s = self.st
        x = s[O_SHIP + q]
        if TK.progress(x, s[O_CIV + (q >> 1)]) + n >= TK.LAP:
            self._move_ship(q, TK.FINISH)
            return
        lane = TK.lane_of(x)
        c = x
        for _ in range(n):
            c = TK.fwd(c, lane)
        ships, chg = self._boards()
        while c != x and (ships[c] or chg[c]):
            c = TK.back(c, lane)
        if c != x:
            self._move_ship(q, c)

    def _back(self, q, n):
        s = self.st
        x = s[O_SHIP + q]
        if x >= 72:
            return
        p = TK.progress(x, s[O_CIV + (q >> 1)])
        if n > p:
            n = p
        lane = TK.lane_of(x)
        blocked = self._blockades()
        c = x
        for _ in range(n):
            nxt = TK.back(c, lane)
            if blocked[nxt]:
                break
            c = nxt
        ships, chg = self._boards()
        while c != x and (ships[c] or chg[c]):
            c = TK.fwd(c, lane)
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
                self._move_ship(q, TK.START)
        elif ev == EV_BLAST:
            sec = TK.sector(cell)
            for k in range(2 * s[O_NSEATS]):
                p = s[O_SHIP + k]
                if p < 72 and TK.sector(p) == sec:
                    self._move_ship(k, TK.START)
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
                acts.sort()
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
            acts.sort()
            self._legal = acts
            return

    # -- text (notation.py writes it, reader.py reads it) ----------------------------------------

    @classmethod
    def parse(cls, text):
        from shared_rules.formula99 import reader
        return reader.parse_position(text, cls)

    def notation(self):
        from shared_rules.formula99 import notation
        return notation.format_position(self)

    def format_action(self, action):
        from shared_rules.formula99 import notation
        return notation.format_action(self, action)

    def parse_action(self, text):
        from shared_rules.formula99 import reader
        return reader.parse_action(self, text)

    def _describe(self, action):
        try:
            return self.format_action(action)
        except Exception:
            return repr(action)

    def __repr__(self):
        return "<formula99 %s>" % self.notation()

    def public(self):
        """The public view of this position (hands as counts, charges and deck hidden)."""
        from shared_rules.formula99 import setup
        return setup.public(self)


def public_action(action):
    """The action as the public view plays it (a laid charge's card hidden)."""
    if action >> 24 == K_LAY:
        return action & ~63
    return action


def start_position(players=2, level=1, seed=None, civs=None):
    """The start (§2): every ship in its start zone, seat 0 to move. Public unless seed is
    given, then full: the seeded deck dealt 3 cards to each seat (§2.4)."""
    from shared_rules.formula99 import setup
    return setup.start_position(Position, players, level, seed, civs)


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
    if pos.is_legal(a):
        return a, offset + 4
    raise RulesError("encoded action %08x at byte %d is not legal in %s" % (a, offset,
                                                                             pos.notation()))
