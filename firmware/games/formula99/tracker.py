# «Формула 99» move inference: from the occupancy of the sensed cells to committed actions
# (docs/board-formula99.md).
#
# The sensors see whether a piece stands on a cell: a ship or a charge token on a track cell (a
# blockade is a ship on its token: one piece to the sensor), ships in the start zones (two cells
# per civilisation: the number of ships there counts, not which cell), on the finish cells and
# in the control room. The tracker keeps the public position (cards are real cards; a card
# enters the game only when it is shown) and compares what it sees with what the position
# implies, as a **sense vector**: 72 track ids, then per civilisation its start-zone count, its
# finish cell, then the control room (91 entries).
#
# An action's **effect** is how it changes the sense vector (a sparse list of idx * 8 + delta +
# 4), computed from its encoding for moves, lays and lifts and by push/pop otherwise. The
# evidence (observed - expected) is explained by:
#   - one physical action of the decision now whose effect equals it: READY, committed once
#     the board has been still SETTLE_MS, on `confirm`, or as soon as a longer action is ruled
#     out (several actions with that effect but different results: the player picks, ASKING);
#   - the start of some action (the evidence lies within its effect): MOVING;
#   - an action followed by the start of the next decision (a move, then the crossed token
#     taken off before its card is entered; the end of a turn, then the next player's move):
#     the first is committed at once if it is the only such explanation;
#   - else MISMATCH.
# Actions the sensors cannot see (a card shown, a draw, `end`, a card played without moving a
# piece, a blockade laid under its ship, a joker's value, a ram's answer) come as input: the
# card picker, the option picker, or the console's `act`. After a commit whose consequences are
# not on the board yet (an event moved a ship, a ship went home) the board is CATCHUP: nothing is
# read until the board matches the position again; the LEDs show what to move.
#
# Digital cards: a full position (the board holds the seeded deal, for a host that shows each
# seat its own hand, docs/board-formula99.md) plays the same way, except that a chance node has
# one outcome, committed at once, and a charge laid names its card: the card entered (`card`)
# picks it; a token laid before waits for it. The position lists its lays with the card entered
# only (Position.set_lay_card; one per cell, with the lowest card, until one is entered).

from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as TK

IDLE = 0  # the board equals the position; the actor decides
MOVING = 1  # evidence of an action in progress
READY = 2  # one action explains the board
ASKING = 3  # several actions explain it: next / confirm
MISMATCH = 4  # nothing legal explains it
CATCHUP = 5  # the position is ahead of the board: put the pieces where it says
OVER = 6

STATE_NAMES = ("idle", "moving", "ready", "asking", "mismatch", "catchup", "over")

SETTLE_MS = 600
N_SENSE = 91
ZONE = 72  # + civ - 1: ships in the start zone
FIN = 81  # + civ - 1: ship on the finish cell
CTRL = 90


def expected(pos):
    """The sense vector the position implies (bytearray(91))."""
    s = pos.st
    v = bytearray(N_SENSE)
    for q in range(2 * s[R.O_NSEATS]):
        p = s[R.O_SHIP + q]
        civ = s[R.O_CIV + (q >> 1)]
        if p < 72:
            v[p] = 1
        elif p == TK.START:
            v[ZONE + civ - 1] += 1
        elif p == TK.FINISH:
            v[FIN + civ - 1] = 1
        else:
            v[CTRL] = 1
        c = s[R.O_CHG + q]
        if c != R.HOME:
            v[c] = 1
    return v


def diff(after, before):
    """Sparse list of the entries that differ: idx * 8 + (after - before) + 4, ascending."""
    out = []
    for i in range(N_SENSE):
        d = after[i] - before[i]
        if d:
            out.append(i * 8 + d + 4)
    return out


def pieces(effect):
    """(leaving, arriving): the sense indices pieces leave and arrive at in an effect, one entry
    per piece (a start zone may lose or gain two)."""
    leave = []
    arrive = []
    for x in effect:
        d = (x & 7) - 4
        for _ in range(d if d > 0 else -d):
            (arrive if d > 0 else leave).append(x >> 3)
    return leave, arrive


def within(ev, eff):
    """Is the evidence ev the start of the effect eff (every entry of ev in eff, in its direction
    and no further)?"""
    j = 0
    n = len(eff)
    for x in ev:
        i = x >> 3
        while j < n and (eff[j] >> 3) < i:
            j += 1
        if j == n or (eff[j] >> 3) != i:
            return False
        d = (x & 7) - 4
        e = (eff[j] & 7) - 4
        if d * e <= 0 or (d > e if e > 0 else d < e):
            return False
    return True


def gone(ev):
    """Whether the evidence ev has a piece gone from a cell (or a start zone)."""
    for x in ev:
        if (x & 7) < 4:
            return True
    return False


def minus(ev, eff):
    """ev - eff if eff lies within ev (each entry in ev's direction, no further), else None."""
    if not within(eff, ev):
        return None
    out = []
    j = 0
    n = len(eff)
    for x in ev:
        i = x >> 3
        while j < n and (eff[j] >> 3) < i:
            j += 1
        d = (x & 7) - 4
        if j < n and (eff[j] >> 3) == i:
            d -= (eff[j] & 7) - 4
        if d:
            out.append(i * 8 + d + 4)
    return out


class Tracker:
    def __init__(self, pos, settle_ms=SETTLE_MS):
        self.pos = pos
        self.settle_ms = settle_ms
        self.grid, self.start_cells, self.finish_cells = TK.grid_tables()
        self.observed = expected(pos)
        self._occ = None  # the occupancy observed last (observe() then reads only changes)
        # the sense index of each grid cell (255: not sensed)
        self._sense_of = sense_of = bytearray(b"\xff" * 128)  # the bitmap's 128 bits
        for i in range(72):
            if self.grid[i] != 255:
                sense_of[self.grid[i]] = i
        for k in range(18):
            sense_of[self.start_cells[k]] = ZONE + (k >> 1)
        for k in range(9):
            sense_of[self.finish_cells[k]] = FIN + k
        sense_of[TK.CONTROL_GRID] = CTRL
        self.state = OVER if pos.is_over() else IDLE  # (set up or resumed at the race's end)
        self.ev = []  # the evidence: observed - expected
        self.ready = None
        self.moves = []  # MOVING: the actions the evidence may grow into
        self.candidates = []  # ASKING
        self.index = 0
        self.card = 0  # a card entered to play from the hand (0: none)
        if pos.full:
            pos.set_lay_card(R.LAY_FIRST)
        self.log = []  # (how, action) since take_log()
        self.still_since = 0
        self.settling = False
        self.undone = []
        self.owed_idx = []  # CATCHUP: the sense indices the last commit changed and the board owes
        self._eff = None  # cached effects of the decision now: [(action, effect)]
        self._exp = None

    # -- the position's side ----------------------------------------------------------------

    def _expected(self):
        if self._exp is None:
            self._exp = expected(self.pos)
        return self._exp

    def _changed(self):
        self._eff = None
        self._exp = None

    def effect(self, a):
        """How action a changes the sense vector."""
        pos = self.pos
        k = a >> 24
        if k == R.K_LAY:
            return [((a >> 6) & 127) * 8 + 5]
        if k == R.K_LIFT:
            c = a & 127
            q = pos.charge_at(c)
            if q >= 0 and pos.st[R.O_CCARD + q] == R.BLOCKADE:
                return []  # its ship still stands on the cell
            return [c * 8 + 3]
        if k in (R.K_BLOCK, R.K_END, R.K_PASS, R.K_DRAW):
            return []
        if k == R.K_MOVE or k == R.K_GO:
            return self._path_effect(a, k)
        return self._pushed(a)

    def _path_effect(self, a, k):
        """A standard move's or an event's forward move's effect, from its path (no push): its
        ship leaves its place and arrives where the path ends (a cell holding a charge token
        feels no change: the token is taken off when its card is shown)."""
        pos = self.pos
        s = pos.st
        q, cells = pos.move_path(a) if k == R.K_MOVE else pos.go_path(a)
        if not cells:
            return []
        src = s[R.O_SHIP + q]
        civ = s[R.O_CIV + (q >> 1)]
        out = []
        if src < 72:
            if pos.charge_at(src) < 0:  # else a blockade's token stays until taken off
                out.append(src * 8 + 3)
            else:
                return self._pushed(a)
        else:
            out.append((ZONE + civ - 1) * 8 + 3)
        dest = cells[-1]
        if dest == TK.FINISH:
            other = s[R.O_SHIP + (q ^ 1)]
            out.append(((CTRL if other == TK.FINISH else FIN + civ - 1)) * 8 + 5)
        elif pos.charge_at(dest) < 0:
            out.append(dest * 8 + 5)
        out.sort()
        return out

    def _pushed(self, a):
        pos = self.pos
        before = self._expected()
        pos.push(a)
        try:  # (a MemoryError must not leave it pushed)
            after = expected(pos)
        finally:
            pos.pop()
        return diff(after, before)

    def shown_effect(self):
        """What the sensors can show of a card being shown: the token of the charge that
        triggers (or is cleared) leaving its cell, if no ship stands on it. The card's event
        comes after, once the card is known."""
        pos = self.pos
        c = pos.charge_to_show()
        if c >= 0 and pos.ship_at(c) < 0:
            return [c * 8 + 3]
        return []

    def effect_of(self, a):
        """The effect of a, from the cache of the decision now when it is there."""
        for b, eff in self.effects():
            if b == a:
                return eff
        return self.effect(a)

    def effects(self):
        """[(action, effect as a tuple)] of the decision now that the sensors may show: moves
        and events, lays and lifts, and the plays of a card entered; a card shown comes as
        input."""
        if self._eff is None:
            out = []
            chance_eff = None
            for a in self.pos.legal_actions():
                k = a >> 24
                if k == R.K_PLAY and ((a >> 18) & 63) != self.card:
                    continue
                if k == R.K_SHOW:
                    if chance_eff is None:
                        chance_eff = tuple(self.shown_effect())
                    out.append((a, chance_eff))
                    continue
                # kept as a tuple: 16 bytes of the board's heap for one or two entries against a
                # list's 32, for each of up to ~40 actions, while the cache lasts
                out.append((a, tuple(self.effect(a))))
            self._eff = out
        return self._eff

    # -- observations -------------------------------------------------------------------------

    def sense(self, occ):
        """The sense vector of a grid occupancy bitmap (the scanner's bytearray)."""
        v = bytearray(N_SENSE)
        grid = self.grid
        for i in range(72):
            g = grid[i]
            if g != 255 and occ[g >> 3] >> (g & 7) & 1:
                v[i] = 1
        st = self.start_cells
        for k in range(9):
            for g in (st[2 * k], st[2 * k + 1]):
                if occ[g >> 3] >> (g & 7) & 1:
                    v[ZONE + k] += 1
            g = self.finish_cells[k]
            if occ[g >> 3] >> (g & 7) & 1:
                v[FIN + k] = 1
        g = TK.CONTROL_GRID
        v[CTRL] = occ[g >> 3] >> (g & 7) & 1
        return v

    def observe(self, occ, now_ms=0):
        """A new stable occupancy at now_ms. After the first, only the cells that changed are
        read (a lift's frame: the whole sense vector cost ~1 ms on the Pico)."""
        last = self._occ
        if last is None:
            self.observed = self.sense(occ)
            self._occ = bytearray(occ)
        else:
            v = self.observed
            sense_of = self._sense_of
            for i in range(16):
                ch = occ[i] ^ last[i]
                if not ch:
                    continue
                now = occ[i]
                for j in range(8):
                    if ch >> j & 1:
                        k = sense_of[i * 8 + j]
                        if k != 255:
                            v[k] += 1 if now >> j & 1 else -1  # a start zone counts its ships
                last[i] = now
        self.still_since = now_ms
        self._infer()

    def tick(self, now_ms, now=False):
        """Commit a READY action once the board has been still long enough (now: at once, as
        when `end` says the move is done)."""
        if self.state == READY and self.settling and (
                now or ((now_ms - self.still_since) & 0x3FFFFFFF) >= self.settle_ms):
            self.settling = False
            self._commit(self.ready, "auto")
            self._infer()

    # -- inference ------------------------------------------------------------------------------

    def _evidence(self):
        return diff(self.observed, self._expected())

    def _infer(self):
        pos = self.pos
        self.settling = False
        for _ in range(12):  # commits in a row (each one a prefix of the evidence)
            ev = self._evidence()
            self.ev = ev
            self.ready = None
            self.moves = []
            if pos.is_over():
                self.state = OVER if not ev else CATCHUP
                return
            if pos.full and pos.is_chance():  # the deal decides: the card is known
                self._commit(pos.legal_actions()[0], "auto")
                continue
            if self.state == CATCHUP:
                if self.owed_idx:
                    left = False
                    for x in ev:
                        if (x >> 3) in self.owed_idx:
                            left = True
                            break
                    if left:
                        return
                elif ev:
                    return
                self.owed_idx = []
                self.state = IDLE
            if not ev:
                self.state = IDLE
                return
            exact = []
            partial = []
            evt = tuple(ev)
            for a, eff in self.effects():
                if eff == evt:
                    exact.append(a)
                elif within(ev, eff):
                    partial.append(a)
            if exact:
                chance = [a for a in exact if a >> 24 == R.K_SHOW]
                if chance:  # the card must be entered: the board already shows its effect
                    self.state = MOVING
                    self.moves = chance
                    return
                if pos.full and not self.card and [a for a in exact if a >> 24 == R.K_LAY]:
                    self.state = MOVING  # a token laid: its card comes from its holder
                    self.moves = exact
                    return
                groups = self._by_result(exact)
                if len(groups) == 1:
                    self.state = READY
                    self.ready = groups[0]
                    self.moves = partial
                    self.settling = not partial
                    return
                self._ask(groups)
                return
            if partial:
                self.state = MOVING
                self.moves = partial
                return
            first = self._prefixes(ev)
            if len(first) == 1:
                self._commit(first[0], "auto")
                continue
            if first:
                self._ask(first)
                return
            self.state = MISMATCH
            return

    def _by_result(self, actions):
        """One action per distinct resulting position (the lowest of each)."""
        pos = self.pos
        seen = []
        out = []
        for a in actions:
            pos.push(a)
            try:  # (a MemoryError must not leave it pushed)
                key = bytes(pos.st)
            finally:
                pos.pop()
            if key not in seen:
                seen.append(key)
                out.append(a)
        return out

    def _prefixes(self, ev):
        """The actions that explain the start of the evidence, the rest being the start (or the
        whole) of the next decision's action; one per distinct result."""
        pos = self.pos
        found = []
        for a, eff in self.effects():
            # (`end`: the one action with no effect that may begin an explanation)
            if a >> 24 == R.K_SHOW or (not eff and a != R.END):
                continue
            if a >> 24 == R.K_LAY and pos.full and not self.card:
                continue  # its card is not known yet
            rest = minus(ev, eff)
            if rest is None or not rest:
                continue
            # The rest must be the next action whole, or its start: a piece gone from where it
            # stood (a ship lifted, a token taken off). A piece only arriving is no start (a
            # token put where no charge may go is not a ship yet to leave its cell).
            begun = gone(rest)
            pos.push(a)
            pushed = 1
            saved = self._eff
            try:  # (taken back whatever happens: a MemoryError must not leave it pushed)
                self._changed()
                ok = self._next_fits(rest, begun)
                if not ok and pos.full:
                    # Digital cards: the deal shows a card a ship lands on at once (as _infer
                    # takes it), so the board may already show its event (the ship sent back):
                    # then the rest is read against the position after it.
                    while pos.is_chance() and not pos.is_over():
                        pos.push(pos.legal_actions()[0])
                        pushed += 1
                    if pushed > 1:
                        self._changed()
                        rest = diff(self.observed, self._expected())
                        ok = not rest or self._next_fits(rest, gone(rest))
            finally:
                for _ in range(pushed):
                    pos.pop()
                self._changed()
                self._eff = saved
            if ok:
                found.append(a)
        return self._by_result(found)

    def _next_fits(self, rest, begun):
        """Whether rest is an action of the decision now whole, or (begun) its start."""
        rest_t = tuple(rest)  # (the cached effects are tuples: a list never equals one)
        for b, eff2 in self.effects():
            if eff2 == rest_t or begun and within(rest, eff2):
                return True
        return False

    def _ask(self, actions):
        self.state = ASKING
        self.candidates = actions
        self.index = 0

    def _commit(self, a, how):
        before = self._expected()
        self.pos.push(a)
        self._set_card(0)
        self.undone = []
        self._changed()
        self.log.append((how, a))
        # What the action changed that the board does not show yet (a triggered charge's token
        # still on its cell, a ship an event moved) is owed: nothing on those cells is read as
        # a new action until the board shows it (the token would look like a charge laid).
        owed = []
        ev = self._evidence()
        changed = diff(self._expected(), before)
        for x in ev:
            for y in changed:
                if x >> 3 == y >> 3:
                    owed.append(x >> 3)
        self.owed_idx = owed
        if owed or (ev and not self._explainable(ev)):
            self.state = CATCHUP
        elif self.state in (CATCHUP, ASKING, READY):
            self.state = IDLE

    def _explainable(self, ev):
        for a, eff in self.effects():
            if within(ev, eff):
                return True
        return False

    # -- input ----------------------------------------------------------------------------------

    def act(self, a, how="act"):
        """An action given as input (picker, console): committed if legal now; False if not."""
        if not self.pos.is_legal(a):
            return False
        self._commit(a, how)
        self._infer()
        return True

    def enter_card(self, card):
        """A card entered: at a chance node the card shown; otherwise the card the player plays
        from the hand (its plays become the candidates). False if it fits nothing now."""
        pos = self.pos
        shown = (R.K_SHOW << 24) | card
        if pos.is_chance():
            return self.act(shown, "card")
        plays = [a for a in pos.legal_actions() if a >> 24 == R.K_PLAY and
                 ((a >> 18) & 63) == card]
        if not plays:
            if pos.full and card in pos.hand(pos.to_move):
                self._set_card(card)  # the card the next charge laid takes
                if self._lays_card(card):
                    self._changed()
                    self._infer()
                    return True
                self._set_card(0)
            return False
        self._set_card(card)
        self._changed()
        if len(plays) == 1 and not self.effect(plays[0]):
            return self.act(plays[0], "card")
        self._infer()
        return True

    def _set_card(self, card):
        self.card = card
        if self.pos.full:
            self.pos.set_lay_card(card or R.LAY_FIRST)

    def _lays_card(self, card):
        for a in self.pos.legal_actions():
            if a >> 24 == R.K_LAY and (a & 63) == card:
                return True
        return False

    def press_confirm(self):
        if self.state == READY and self.ready is not None:
            self.settling = False
            self._commit(self.ready, "confirm")
        elif self.state == ASKING and self.candidates:
            self._commit(self.candidates[self.index], "confirm")
        else:
            return False
        self._infer()
        return True

    def press_next(self):
        if self.state == ASKING and self.candidates:
            self.index = (self.index + 1) % len(self.candidates)
            return True
        return False

    def press_undo(self):
        """Back out of a question or a card entered, else take back the last action: a move
        made and waiting out settle_ms is that action (taken now, then undone; left to the
        tick, it was taken after the press, which had taken back the action before it)."""
        self.tick(0, True)
        if self.state == ASKING:
            self.state = MISMATCH
            self.candidates = []
            return True
        if self.card:
            self._set_card(0)
            self._changed()
            self._infer()
            return True
        if not self.pos.ply():
            return False
        a = self.pos.pop()
        self.undone.append(a)
        self.log.append(("undo", a))
        while self.pos.full and self.pos.is_chance() and self.pos.ply():
            # a known card shown is taken back with the action that showed it
            a = self.pos.pop()
            self.undone.append(a)
            self.log.append(("undo", a))
        self._changed()
        self.owed_idx = []  # after a take-back the whole board is owed
        self.state = CATCHUP if self._evidence() else IDLE
        if self.state == IDLE:
            self._infer()
        return True

    def take_log(self):
        out = self.log
        self.log = []
        return out

    # -- what the LEDs show ---------------------------------------------------------------------

    def shown(self):
        """The action the board would commit on confirm (READY, ASKING), or None."""
        if self.state == ASKING and self.candidates:
            return self.candidates[self.index]
        if self.state == READY:
            return self.ready
        return None

    def owed(self):
        """(to fill, to clear): sense indices where a piece must be put / taken away to match
        the position (CATCHUP, MISMATCH)."""
        fill = []
        clear = []
        for x in self._evidence():
            if (x & 7) < 4:
                fill.append(x >> 3)
            else:
                clear.append(x >> 3)
        return fill, clear
