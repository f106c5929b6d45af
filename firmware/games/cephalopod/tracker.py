# Cephalopod move inference: from the occupancy of the game's cells to committed actions.
#
# The sensors see only whether a cell holds a die (never its colour or pips), so the tracker
# compares the occupancy it observes with the occupancy the tracked position implies. The cells
# that differ are the evidence: `plus` (a die where the position has none) and `minus` (no die
# where the position has one). An action (cell c, captured set S) toggles exactly c (+) and S
# (-). Rules of inference (docs/board-cephalopod.md):
#   - one action explains the evidence exactly (plus = {c}, minus = S): complete. Only one
#     action can: the cell and the captured set are the evidence itself. A plain placement is
#     committed once the board has been still for settle_ms; a capture is READY and waits for the
#     player's `confirm` or for the next action to start (issue 7): more dice may still be taken;
#   - a capture shown READY since the last commit, and the next action begun after it: a die is
#     down on a cell the capture emptied (whoever's it is: that counts as the next placement),
#     or the capture was left as it was (its die lifted, another die taken) and one action
#     after it explains the board. The capture is committed; if several READY captures (two
#     dice taken, then a third) fit that way, the board asks;
#   - the evidence is the start of some actions (a die placed where it must capture, a die
#     taken before the new one is put down, some of the dice taken): MOVING, the LEDs show how
#     it may go on;
#   - no one action fits, but an action followed by the start (or the whole) of the next one
#     does (the first action's die is the first of the new dice to appear): if every such
#     explanation begins with the same action, it is committed at once; if they begin
#     differently, the board asks once still (or when the player presses confirm);
#   - nothing fits: MISMATCH; the game shows the cells to put right.
# Nothing is guessed: an action is committed only when it is the one explanation, or when the
# player picks it.
#
# Occupancy is an int bitmask over the game's cells (bit c = cell c of the rules core; at most
# 25 bits, a small int on the board: no allocation to compare two boards).

from shared_rules import grid
from firmware.hal import TICKS_MASK

IDLE = 0  # the board equals the tracked position
MOVING = 1  # evidence of an action in progress
READY = 2  # one action fits exactly: a capture waits for confirm / the next action, a plain
# placement for the board to be still
ASKING = 3  # several actions fit: the player picks with next/confirm
MISMATCH = 4  # nothing legal fits the board
OVER = 5  # the board is full

STATE_NAMES = ("idle", "moving", "ready", "asking", "mismatch", "over")

SETTLE_MS = 400  # a plain placement is committed once the board has been still this long


def occupancy(pos):
    """The occupancy pos implies, as a bitmask over its cells."""
    m = 0
    cells = pos.cells
    for c in range(len(cells)):
        if cells[c]:
            m |= 1 << c
    return m


def captured_bits(nb, action):
    """Bitmask of the cells the action captures (nb: the rules core's neighbour table)."""
    c = action >> 4
    m = action & 15
    s = 0
    for d in range(4):
        if m >> d & 1:
            s |= 1 << nb[c * 4 + d]
    return s


def bit_list(mask):
    """The set bits of mask, lowest first."""
    out = []
    c = 0
    while mask:
        if mask & 1:
            out.append(c)
        mask >>= 1
        c += 1
    return out


def _one_bit(x):
    return x and not x & (x - 1)


class Tracker:
    def __init__(self, pos, settle_ms=SETTLE_MS):
        self.pos = pos
        self.settle_ms = settle_ms  # stillness before a plain placement is taken (0: at once)
        self.nb = grid.neighbours(pos.rows, pos.cols)
        self.settling = False
        self.changed_at = 0
        self.expected = 0
        self.occ = 0
        self.state = IDLE
        self.plus = 0  # cells holding a die the position does not have
        self.minus = 0  # cells without the die the position has
        self.ready = None  # READY: the action that fits exactly
        self.readies = []  # the captures shown READY since the last commit
        self.moves = []  # MOVING/READY: the actions the evidence may still grow into
        self.pairs = []  # (first, second, second complete) when two actions explain it
        self.candidates = []  # ASKING: the actions offered
        self.fitting = 0
        self.index = 0
        self.undone = []  # actions taken back, newest last (until the board is put right)
        self.barred = []  # taken back: not read again from the board until it is put right
        self.log = []  # (event, action, position after) since the last take_log()
        self.order = []  # the plus cells in the order their dice appeared
        # the minus cells whose dice came off before the first plus die went down: the next
        # action cannot have taken them (it begins after this one's die is down)
        self.early = 0
        self.last = 0  # the cells that changed in the latest observation
        self._legal = None
        self._pbits = None
        self._sbits = None
        self._refresh()
        self.occ = self.expected
        if not self.legal():  # set up (or resumed) with the board full: no change will come
            self.state = OVER

    # -- cached per position --------------------------------------------------------------------

    def _refresh(self):
        self.expected = occupancy(self.pos)
        self._legal = None

    def legal(self):
        """The legal actions of the tracked position (cached), with their placed-cell and
        captured-cells bitmasks in self._pbits / self._sbits."""
        if self._legal is None:
            legal = self.pos.legal_actions()
            nb = self.nb
            pb = []
            sb = []
            for a in legal:
                pb.append(1 << (a >> 4))
                sb.append(captured_bits(nb, a) if a & 15 else 0)
            self._legal = legal
            self._pbits = pb
            self._sbits = sb
        return self._legal

    # -- inputs ---------------------------------------------------------------------------------

    def observe(self, occ, now_ms=0):
        """A new stable occupancy (bitmask of the game's cells) at now_ms; returns the number of
        actions committed."""
        self.changed_at = now_ms
        self.last = self.occ ^ occ
        self.occ = occ
        return self._infer(self.settle_ms == 0)

    def tick(self, now_ms):
        """Time passes: commit a plain placement once the board has been still long enough."""
        if self.settling and (now_ms - self.changed_at) & TICKS_MASK >= self.settle_ms:
            self.settling = False
            return self._infer(True)
        return 0

    # -- explanations ---------------------------------------------------------------------------

    def singles(self, plus, minus):
        """(complete, partial): the one legal action whose toggles equal the evidence (None if
        none, or if it was taken back), and the actions the evidence is the start of."""
        legal = self.legal()
        pb = self._pbits
        sb = self._sbits
        complete = None
        partial = []
        for i in range(len(legal)):
            p = pb[i]
            s = sb[i]
            if plus & ~p or minus & ~s:
                continue
            if plus == p and minus == s:
                if legal[i] not in self.barred:
                    complete = legal[i]
            else:
                partial.append(legal[i])
        return complete, partial

    def explain_pairs(self, plus, minus):
        """[(a1, a2, complete)]: an action a1 done in full, then a2 begun (or done: complete
        True). a1's die is the first of the plus cells to have appeared and the dice a2 takes
        came off after it (the second action cannot start before the first one's die is down);
        its captured cells were taken, but one of them may hold the next die again."""
        out = []
        if not plus:
            return out
        first = plus & -plus  # the lowest, if the order is not known
        for c in self.order:
            if plus >> c & 1:
                first = 1 << c
                break
        legal = self.legal()
        pb = self._pbits
        sb = self._sbits
        occ = self.occ
        pos = self.pos
        nb = self.nb
        for i in range(len(legal)):
            a1 = legal[i]
            p = pb[i]
            if not first & p or a1 in self.barred:
                continue
            s = sb[i]
            extra = s & ~minus
            if extra and (not _one_bit(extra) or not occ & extra):
                continue
            e1 = (self.expected | p) & ~s
            r = occ ^ e1
            if not r:
                continue  # a1 alone: a single, not a pair
            plus1 = r & occ
            minus1 = r & e1
            if plus1 & (plus1 - 1):
                continue  # a second action places one die only
            if minus1 & self.early:
                continue  # a die the second action takes came off before a1's went down
            pos.push(a1)
            try:  # (taken back whatever happens: a MemoryError must not leave it pushed)
                for a2 in pos.legal_actions():
                    p2 = 1 << (a2 >> 4)
                    if plus1 & ~p2:
                        continue
                    s2 = captured_bits(nb, a2) if a2 & 15 else 0
                    if minus1 & ~s2:
                        continue
                    out.append((a1, a2, plus1 == p2 and minus1 == s2))
            finally:
                pos.pop()
        return out

    def _taken_by_next(self, complete, partial):
        """The captures shown ready since the last commit after which the next action has begun:
        a die is down on a cell the capture emptied (a placement, even if the player meant to
        put a taken die back: that player takes the capture back with undo), or, when no one
        action fits, the capture is left as it was (its die lifted, another die taken) and the
        board follows from it."""
        out = []
        occ = self.occ
        nb = self.nb
        for i in range(len(self.readies) - 1, -1, -1):
            r = self.readies[i]
            if occ & captured_bits(nb, r) or (complete is None and
                                               not self._continues(r, partial)):
                if self._explained_after(r):
                    out.append(r)
        return out

    def _continues(self, pending, partial):
        """Whether the evidence is the capture pending with more dice taken, on the way to a
        bigger capture from the same cell."""
        c = pending >> 4
        taken = captured_bits(self.nb, pending)
        if not self.plus >> c & 1 or self.minus & taken != taken:
            return False
        for a in partial:
            if a >> 4 == c and captured_bits(self.nb, a) & taken == taken:
                return True
        return False

    def _explained_after(self, action):
        """Whether the evidence is explained once action is done by one action after it,
        complete or begun."""
        pos = self.pos
        order = self.order
        early = self.early
        self.order = list(order)
        pos.push(action)
        try:  # (taken back whatever happens: a MemoryError must not leave it pushed)
            self._refresh()
            self._evidence()
            complete, partial = self.singles(self.plus, self.minus)
            found = complete is not None or partial
        finally:
            pos.pop()
            self._refresh()
            self.order = order
            self.early = early
            self._evidence()
        return bool(found)

    def _infer(self, may_commit=True):
        committed = 0
        self.settling = False
        while True:
            self.pairs = []
            self.moves = []
            self.ready = None
            if not self.legal():  # the board is full
                self.state = OVER
                self._evidence()
                self.candidates = []
                return committed
            if not self._evidence():
                self.state = IDLE
                self.candidates = []
                self.readies = []
                self.undone = []  # put back as the LEDs asked
                self.barred = []
                return committed
            plus = self.plus
            minus = self.minus
            complete, partial = self.singles(plus, minus)
            nexts = self._taken_by_next(complete, partial)
            if nexts:
                if len(nexts) == 1:
                    # A capture shown ready is left as it was, and the board shows the next
                    # action begun after it: the capture is taken (issue 7).
                    self._commit(nexts[0], "auto")
                    committed += 1
                    continue
                # more than one capture was shown ready on the way: which one was made?
                if may_commit:
                    self._ask(nexts)
                    return committed
                self.state = MOVING
                self.candidates = []
                self.settling = True
                return committed
            if complete is not None:
                self.candidates = []
                self.moves = partial
                self.ready = complete
                self.state = READY
                if complete & 15:
                    if complete not in self.readies:
                        self.readies.append(complete)
                    return committed  # a capture: confirm, or the next action, commits it
                if may_commit:
                    self._commit(complete, "auto")
                    committed += 1
                    continue
                self.settling = True
                return committed
            if partial:
                self.candidates = []
                self.moves = partial
                self.state = MOVING
                return committed
            pairs = self.explain_pairs(plus, minus)
            self.pairs = pairs
            firsts = _firsts(pairs, False)
            if len(firsts) == 1:
                # The next action has begun and only one action before it fits: taken.
                self._commit(firsts[0], "auto")
                committed += 1
                continue
            if not pairs:
                self.state = MISMATCH
                self.candidates = []
                return committed
            # Two explanations begin differently (the same die, other dice taken): the board
            # cannot tell; it asks once the hands are still and nothing is half done.
            done = _firsts(pairs, True)
            halfway = False
            for a1, a2, whole in pairs:
                if not whole:
                    halfway = True
            if done and not halfway:
                if may_commit:
                    self._ask(done)
                    return committed
                self.settling = True
            self.state = MOVING
            self.candidates = []
            return committed

    def _evidence(self):
        """Recompute plus/minus from occ and expected; returns whether they differ."""
        d = self.occ ^ self.expected
        plus = d & self.occ
        self.plus = plus
        self.minus = d & self.expected
        order = self.order
        i = 0
        while i < len(order):
            if plus >> order[i] & 1:
                i += 1
            else:
                order.pop(i)
        if not order:
            # (cells that changed in the same observation as the first die: order unknown)
            self.early = self.minus & ~self.last if plus else 0
        self.early &= self.minus
        if plus:
            for c in bit_list(plus):
                if c not in order:
                    order.append(c)
        return d != 0

    def _ask(self, actions):
        self.state = ASKING
        self.candidates = list(actions)
        self.fitting = len(actions)
        self.index = 0

    def _commit(self, action, how):
        self.readies = []
        self.pos.push(action)
        self.log.append((how, action, self.pos.notation()))
        self.undone = []
        # (barred stays until the board is put right, _infer: a move read from the board
        # after an `undo` in the middle of a capture left the taken-back die standing, and it
        # was then read as the other player's placement, the colours of two dice swapped)
        self.candidates = []
        self._refresh()

    # -- buttons --------------------------------------------------------------------------------

    def press_confirm(self):
        """READY: commit the action that fits; ASKING: commit the one shown; MOVING: ask which
        action came before the one begun (when two actions explain the board)."""
        st = self.state
        if st == READY and self.ready is not None:
            self._commit(self.ready, "confirm")
            self._infer()
            return True
        if st == ASKING and self.candidates:
            self._commit(self.candidates[self.index], "confirm")
            self._infer()
            return True
        if st == MOVING:
            pairs = self.pairs or self.explain_pairs(self.plus, self.minus)
            done = _firsts(pairs, True)
            if done:
                self._ask(done)
                return True
        return False

    def press_next(self):
        if self.state == ASKING and self.candidates:
            self.index = (self.index + 1) % len(self.candidates)
            return True
        return False

    def press_undo(self):
        """ASKING: back out of the question. Else take back the last committed action: the
        board then shows what to put back (its evidence is not read as that action again until
        the board is put right). A placement waiting out settle_ms is the one taken back: it
        is read first (left to the tick, it was taken after the press, which took back the
        action before it: the other player's, so the die placed was read as its colour), and
        so is a capture shown ready."""
        if self.settling:
            self._infer(True)
        elif self.state == READY and self.ready is not None:
            # a capture made and shown ready (it waits for `confirm` or the next action) is
            # the one taken back, likewise: the press took back the action before it, and the
            # capture was then read as the other player's (the probe of stop 39, p1)
            self._commit(self.ready, "auto")
        if self.state == ASKING:
            self.candidates = []
            self.state = MOVING if self.pairs else MISMATCH
            return True
        if not self.pos.ply():
            return False
        action = self.pos.pop()
        self.readies = []
        self.undone.append(action)
        self.barred.append(action)
        self.log.append(("undo", action, self.pos.notation()))
        self.candidates = []
        self._refresh()
        self._infer()
        return True

    def culprits(self):
        """The differing cells each of which, put right alone, leaves a board that legal play
        explains (the mistake to undo), those that changed last if some did; all differing
        cells if there is none such."""
        d = self.plus | self.minus
        out = []
        for c in bit_list(d):
            b = 1 << c
            p = self.plus & ~b
            m = self.minus & ~b
            if not p | m:
                out.append(c)
                continue
            complete, partial = self.singles(p, m)
            if complete is not None or partial:
                out.append(c)
                continue
            saved = self.occ
            self.occ = saved ^ b
            found = self.explain_pairs(p, m)
            self.occ = saved
            if found:
                out.append(c)
        latest = [c for c in out if self.last >> c & 1]
        return latest or out or bit_list(d)

    def shown(self):
        """The action the board shows as the one to commit (READY or ASKING), else None."""
        if self.state == ASKING and self.candidates:
            return self.candidates[self.index]
        if self.state == READY:
            return self.ready
        return None

    def take_log(self):
        out = self.log
        self.log = []
        return out


def _firsts(pairs, complete_only):
    out = []
    for a1, a2, done in pairs:
        if (done or not complete_only) and a1 not in out:
            out.append(a1)
    return out
