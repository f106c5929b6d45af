# КУБитва move inference: from the stable occupancy of the 11x11 grid to committed actions.
#
# The sensors see only whether a cell holds a cube, never its kind or owner: the tracker knows
# them from the rules (shared_rules.kubitva.rules), starting from the checked set-up. It compares
# the occupancy it observes with the one the tracked position implies; the differing cells are
# the evidence, `minus` (no cube where the position has one) and `plus` (a cube where it has
# none). How each action shows (docs/board-kubitva.md):
#   - a unit's move of one or more steps, with the cube it carries: the unit lifted and put down
#     elsewhere (and the cube): read as the fewest steps that give the cells seen. If shortest
#     ways end differently (a soldier's way through enemy land captures other cells, or unit and
#     cube could stand either way round) the board asks;
#   - a kill: the victim taken off; a super rocket's armour target: the armour taken off;
#   - a fill: every room of an enclosure filled (the kind is not seen: the board asks);
#   - a purchase that puts a cube or a unit on a front cell: that cell filled;
#   - a tap (a cube lifted and put back): on a filler of an own building, a request for that
#     building's purchases (the board asks which); on the waste in front of an own recycler, on
#     a rocket's target: that recycling or rocket (confirm);
#   - `end` is its button.
# Rules of commitment: one reading that nothing else may still grow out of, and the board still
# for SETTLE_MS: committed without a button. One reading that may still grow (a building cube
# on a front cell may also be the first of a fill's fillers): READY, committed on `confirm` or
# after PATIENCE_MS of stillness. Several readings: ASKING (`next`, `confirm`). Taps always wait
# for `confirm`. A unit's move committed, then a cube moved next to it within AMEND_MS: the two
# are read again together as one carry (the hand put the unit down before the cube).
# Nothing fits: MISMATCH (the game lights the cells to put right). After `undo`, or a commit the
# hands must still carry out (a bought unit to put down, armour a rocket destroyed to take off),
# FIX: nothing is read until the board shows the position.

from shared_rules.kubitva import rules as kb
from firmware.hal import TICKS_MASK

IDLE = 0
MOVING = 1    # evidence of an action in progress
READY = 2     # one reading; committed when still (auto) or on confirm
ASKING = 3    # several readings: next / confirm
FIX = 4       # the board must be put right (after undo, or what a commit asks of the hands)
MISMATCH = 5  # nothing legal fits
OVER = 6

STATE_NAMES = ("idle", "moving", "ready", "asking", "fix", "mismatch", "over")

SETTLE_MS = 400
PATIENCE_MS = 2500
AMEND_MS = 3000
MAX_WAYS = 8  # shortest ways of a soldier compared for what they capture
# States (unit cell, cube cell) a move search may hold: beyond this the evidence is no move the
# board reads in one motion (the hands then move the unit cell by cell); it bounds the search's
# tables (one per step, _search).
MAX_STATES = 250

NONE = kb.NONE


def occupancy(pos, out):
    """Fill bytearray(16) out with the occupancy pos implies (bit c: cell c holds a cube)."""
    cells = pos.cells
    for i in range(16):
        out[i] = 0
    for c in range(pos.n):
        if cells[c]:
            out[c >> 3] |= 1 << (c & 7)


def bits(bitmap, c):
    return bitmap[c >> 3] >> (c & 7) & 1


def _diff(a, b):
    """Cells set in a and not in b."""
    out = []
    if a == b:
        return out  # compared in C: the board as expected (0.3 ms on the Pico for the loop)
    for i in range(16):
        x = a[i] & ~b[i] & 0xFF
        while x:
            low = x & -x
            j = 0
            while low >> j != 1:
                j += 1
            out.append(i * 8 + j)
            x ^= low
    return out


class _TooFar(Exception):
    """A move search outgrew MAX_STATES."""


def _far(c, ends, cols):
    """Grid steps from cell c to the nearest of ends ((column, row) pairs)."""
    x = c % cols
    y = c // cols
    best = 255
    for ex, ey in ends:
        d = (x - ex if x > ex else ex - x) + (y - ey if y > ey else ey - y)
        if d < best:
            best = d
    return best


def _steps_left(x, y, ends, cols, n):
    """A lower bound of the steps that bring the unit on x (and the cube on y; y == n: none)
    onto the cells of ends: each step moves the unit one cell, and the cube one cell only when
    the unit stands next to it."""
    h = _far(x, ends, cols)
    if y < n:
        hy = _far(y, ends, cols)
        if hy:
            dx = x % cols - y % cols
            dy = x // cols - y // cols
            hy += (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy) - 1
        if hy > h:
            h = hy
    return h


def outcome(pos, seq):
    """(ply, notation) of pos after the reading seq (an amendment's -n takes back n actions
    first); pos is left as it was."""
    undone = []
    k = 0
    if seq and seq[0] < 0:
        for _ in range(-seq[0]):
            undone.append(pos.pop())
        k = 1
    pushed = 0
    try:  # (pos is left as it was whatever happens: a MemoryError must not change it)
        for a in seq[k:]:
            pos.push(a)
            pushed += 1
        out = (pos.ply(), pos.notation())
    finally:
        for _ in range(pushed):
            pos.pop()
        while undone:
            pos.push(undone.pop())
    return out


class Tracker:
    def __init__(self, pos, settle_ms=SETTLE_MS):
        self.pos = pos
        self.settle_ms = settle_ms
        self.expected = bytearray(16)
        self.seen = bytearray(16)
        self.gone = bytearray(16)  # cells seen empty since the last commit
        self.taps = []  # cells lifted and put back since the last commit, oldest first
        self.minus = []
        self.plus = []
        self.state = IDLE
        self.auto = False  # READY: commit when still
        self.candidates = []  # READY/ASKING: readings, each a tuple of actions
        self.index = 0
        self.growing = False
        self.unit = -1  # MOVING: the lifted unit's cell (its reach is shown)
        self.cube = -1  # MOVING: the lifted cube's cell
        self.swap = []  # cells whose cube the hands must exchange (rocket target, recycling)
        # the actions of the last unit move, for amending; with END after them when `end` was
        # pressed between the unit and its cube (the end is taken back and taken again)
        self.gesture = ()
        self.gesture_at = 0
        self.now = 0
        self.still_since = 0
        self.settling = False
        # `end` pressed before the board was at rest (a piece in the hand, a reading not taken
        # yet, a question, a mistake, pieces to put right): the side that pressed it, -1 for
        # none. end_at_rest takes it (or drops it) once the board is at rest; undo drops it.
        self.end_by = -1
        self.log = []
        self._cache = {}  # fill sites and purchases of the position (until it changes)
        occupancy(pos, self.expected)
        self.seen[:] = self.expected
        self.state = OVER if pos.is_over() else IDLE

    # -- input ------------------------------------------------------------------------------------

    def observe(self, occ, now_ms=0):
        """The stable occupancy changed (occ: bytearray(16), copied)."""
        self.now = now_ms
        seen = self.seen
        exp = self.expected
        gone = self.gone
        for i in range(16):
            ch = occ[i] ^ seen[i]
            if not ch:
                continue
            for j in range(8):
                if not ch >> j & 1:
                    continue
                c = i * 8 + j
                if occ[i] >> j & 1:
                    if gone[i] >> j & 1:
                        gone[i] &= ~(1 << j) & 0xFF
                        if c in self.taps:
                            self.taps.remove(c)
                        self.taps.append(c)
                        if c in self.swap:
                            self.swap.remove(c)
                elif exp[i] >> j & 1:
                    gone[i] |= 1 << j
            seen[i] = occ[i]
        self.still_since = now_ms
        self._evaluate()

    def tick(self, now_ms):
        self.now = now_ms
        if self.state != READY or not self.settling:
            return
        wait = self.settle_ms if self.auto else PATIENCE_MS
        if (now_ms - self.still_since) & TICKS_MASK >= wait and self.candidates:
            self._commit(self.candidates[0], "auto")

    def press_confirm(self):
        if self.state in (READY, ASKING) and self.candidates:
            self._commit(self.candidates[self.index], "confirm")

    def press_next(self):
        if self.state == ASKING and self.candidates:
            self.index = (self.index + 1) % len(self.candidates)

    def press_end(self):
        """`end`: the turn passes (a reading still waiting for stillness is taken first). Not
        at rest yet, the end waits for the board to come to rest (end_at_rest): the player
        has said the turn is over, and the move under way is read as any other."""
        if self.state == READY and self.auto:
            self._commit(self.candidates[0], "auto")
        if self.state == IDLE:
            self._commit((kb.END,), "end")
        elif self.state != OVER:
            self.end_by = self.pos.to_move

    def end_at_rest(self):
        """The end that waits (end_by), once the board is at rest: the turn ends if it is still
        the turn of the side that pressed it, whether the move under way was taken or the
        piece went back where it came from (no move: the turn ends without it, as an `end`
        pressed before the lift would have); else (the game is over) it is dropped. Returns
        whether the turn ended. A tap's request (a cube lifted and put back, the board as the
        position says) is no move under way: the end goes before it (a filler knocked while
        reaching for the button asks nothing then)."""
        by = self.end_by
        state = self.state
        if state in (READY, ASKING) and not self.minus and not self.plus:
            state = IDLE
        if by < 0 or state not in (IDLE, OVER):
            return False
        self.end_by = -1
        if state == IDLE and by == self.pos.to_move:
            self._commit((kb.END,), "end")
            return True
        return False

    def press_undo(self):
        self.end_by = -1  # a take-back (or backing out of a question) is no end of the turn
        if self.state == READY and self.settling and self.auto and self.candidates:
            # a move made and waiting out settle_ms is the one taken back: taken now, then
            # undone (left to the tick, it was taken after the press, which had taken back
            # the move before it)
            self._commit(self.candidates[0], "auto")
        if self.state in (READY, ASKING) and not self.minus and not self.plus:
            self._reset_evidence()  # back out of a tap's question
            self._evaluate()
            return
        if not self.pos.ply():
            return
        a = self.pos.pop()
        self._cache = {}
        self.log.append(("undo", a, self.pos.notation()))
        self.gesture = ()
        self.swap = []
        self._refresh()

    def take_log(self):
        out = self.log
        self.log = []
        return out

    def shown(self):
        """The reading shown (READY, ASKING), or (); an amendment starts with -n (the last n
        actions are taken back first)."""
        if self.state in (READY, ASKING) and self.candidates:
            return self.candidates[self.index]
        return ()

    # -- reading the evidence ---------------------------------------------------------------------

    def _fill_sites(self):
        """pos.fill_sites(), kept while the position stays (the evidence changes far more
        often than the position)."""
        got = self._cache.get("fill")
        if got is None:
            got = self._cache["fill"] = self.pos.fill_sites()
        return got

    def _purchases(self):
        got = self._cache.get("buy")
        if got is None:
            got = self._cache["buy"] = self.pos.purchases()
        return got

    def _reset_evidence(self):
        self.taps = []
        for i in range(16):
            self.gone[i] = 0

    def _refresh(self):
        """The position changed: recompute what the board should show and read it again."""
        occupancy(self.pos, self.expected)
        self._reset_evidence()
        self._evaluate()
        if self.minus or self.plus:
            if self.state != OVER:
                self.state = FIX

    def _evaluate(self):
        self.minus = _diff(self.expected, self.seen)
        self.plus = _diff(self.seen, self.expected)
        self.candidates = []
        self.index = 0
        self.unit = -1
        self.cube = -1
        self.settling = False
        self.auto = False
        if self.pos.is_over():
            self.state = OVER
            return
        if self.state == FIX:
            if self.minus or self.plus:
                return
            self._reset_evidence()
            self.state = IDLE
            return
        if not self.minus and not self.plus:
            self.state = IDLE
            if self.taps:
                self._taps()
            return
        found, self.growing = self.readings()
        if self.gesture:
            if self._cube_alone():
                found = found + self._amendments()
            elif not found and not self.growing and self._cube_lifted_beside_unit():
                # the hand has the unit's cube, after an `end` pressed with the unit down (no
                # unit of the side to move is next to it): not a mistake while it may come
                # down as the carry; AMEND_MS counts from its lift
                self.growing = True
                self.gesture_at = self.now
        self._offer(found, self.growing)

    def _offer(self, found, growing):
        if not found:
            self.state = MOVING if growing else MISMATCH
            return
        self.candidates = found
        if len(found) > 1:
            self.state = ASKING
            return
        self.state = READY
        self.auto = not growing
        self.settling = True

    def _taps(self):
        """A cube lifted and put back: a request (docs/board-kubitva.md)."""
        pos = self.pos
        c = self.taps[-1]
        found = []
        v = pos.cells[c]
        for a in self._purchases():
            r = a >> 8
            d = a & 3
            o = pos.nb[r * 4 + d]
            if kb.INCOME <= v <= kb.RECYCLING and c in pos.rooms_of(r, o):
                found.append((a,))
            elif kb.item_letter(a) == "x" and pos.nb[o * 4 + d] == c:
                found.append((a,))
            elif kb.item_letter(a) in ("k", "K") and pos.rocket_target(a) == c:
                found.append((a,))
        if not found:
            self.taps = []
            return
        self.candidates = found
        self.state = ASKING if len(found) > 1 else READY
        self.auto = False
        self.settling = False  # a request waits for confirm

    def readings(self):
        """(complete readings, may still grow) of the evidence (minus, plus)."""
        pos = self.pos
        minus = self.minus
        plus = self.plus
        cells = pos.cells
        side = pos.to_move
        found = []
        growing = self._unit_moves(found)
        if len(minus) == 1 and not plus:
            t = minus[0]
            v = cells[t]
            if v >= kb.WORKER and v & 1 != side:
                # a kill: by a soldier next to the victim
                for d in range(4):
                    s = pos.nb[t * 4 + d]
                    if s != NONE and cells[s] == kb.SOLDIER + side:
                        for a in pos.unit_actions(s):
                            if (a & 255) >= kb.KILL and pos.action_cell(a) == t:
                                found.append((a,))
            elif v == kb.ARMOUR:
                for a in self._purchases():
                    if kb.item_letter(a) == "K" and pos.rocket_target(a) == t:
                        found.append((a,))
        if plus and not minus:
            for r, d in self._fill_sites():
                o = pos.nb[r * 4 + d]
                rooms = pos.rooms_of(r, o)
                inside = True
                for c in plus:
                    if c not in rooms:
                        inside = False
                        break
                if not inside:
                    continue
                if len(rooms) == len(plus):
                    for k in range(4):
                        found.append(((r << 8) + kb.FILL + 4 * k + d,))
                else:
                    growing = True
            if len(plus) == 1:
                f = plus[0]
                for a in self._purchases():
                    t = kb.item_letter(a)
                    if t in ("b", "a", "w", "s") and pos.action_cell(a) == f:
                        found.append((a,))
                        if not growing:
                            growing = self._may_grow_from_front(f)
        return found, growing

    def _may_grow_from_front(self, f):
        """A cube on a front cell may also be the first filler of a fill or a cube of a carry
        (if a unit could push it there): the purchase then waits for confirm or patience."""
        pos = self.pos
        for r, d in self._fill_sites():
            if f in pos.rooms_of(r, pos.nb[r * 4 + d]):
                return True
        return False

    def _unit_moves(self, found):
        """Readings that move one unit of the side to move (and maybe one cube with it); returns
        whether the evidence may be the start of such a move."""
        pos = self.pos
        cells = pos.cells
        side = pos.to_move
        nb = pos.nb
        minus = self.minus
        plus = self.plus
        growing = False
        units = []
        for c in minus:
            v = cells[c]
            if v >= kb.WORKER and v & 1 == side and pos.points[c]:
                units.append(c)
        for c in minus:  # a pulled cube takes its unit's cell: the unit's cell stays full
            if kb.BRICK <= cells[c] <= kb.WASTE:
                for d in range(4):
                    u = nb[c * 4 + d]
                    if u != NONE and u not in units and cells[u] >= kb.WORKER and \
                            cells[u] & 1 == side and pos.points[u]:
                        units.append(u)
        if not plus:
            for u in units:
                if u in minus:
                    growing = True
                    self.unit = u
            for c in minus:
                if kb.BRICK <= cells[c] <= kb.WASTE and not pos.near_base[c] and units:
                    growing = True
                    self.cube = c
            if len(minus) > 2:
                growing = False
            return growing
        if len(plus) == 1 and len(minus) == 2 and units:
            growing = True  # the unit put down, the cube it carries still in the hand
        for u in units:
            cubes = [-1]
            for c in minus:
                if c != u and kb.BRICK <= cells[c] <= kb.WASTE and not pos.near_base[c]:
                    cubes.append(c)
            for f in plus:
                for d in range(4):
                    k = nb[f * 4 + d]
                    if k != NONE and k != u and k not in cubes and \
                            kb.BRICK <= cells[k] <= kb.WASTE and not pos.near_base[k]:
                        cubes.append(k)
            for k in cubes:
                start = [u] if k < 0 else [u, k]
                ok = True
                for c in minus:
                    if c not in start:
                        ok = False
                if not ok:
                    continue
                end = [c for c in start if c not in minus] + plus
                if len(end) != len(start):
                    continue
                for seq in self._search(u, k, end):
                    if seq not in found:
                        found.append(seq)
        return growing

    def _search(self, u, k, end):
        """The readings of a move of the unit on u (and the cube on k, -1 for none) whose unit
        and cube end on the cells `end`: the step sequences of the fewest steps, one per
        distinct outcome (a soldier's shortest ways are compared for what they capture)."""
        pos = self.pos
        cells = pos.cells
        n = pos.n
        v = cells[u]
        kv = cells[k] if k >= 0 else 0
        limit = pos.points[u]
        cells[u] = 0
        if k >= 0:
            cells[k] = 0
        width = n + 1
        cols = pos.cols
        ends = [(e % cols, e // cols) for e in end]
        start = u * width + (k if k >= 0 else n)
        # the states reached, one table per step (state -> parent state * 32 + step code): no
        # table grows past ~150 slots (a 293-slot one, 4.7 KB on the unix port, is the block a
        # fragmented heap could not give), and a goal's steps are read back layer by layer
        layers = [{start: -1}]
        states = 1
        frontier = [start]
        goals = []
        out = []
        depth = 0
        try:
            while frontier and not goals and depth < limit:
                depth += 1
                nxt = []
                here = {}
                layers.append(here)
                for s in frontier:
                    x = s // width
                    y = s % width
                    cells[x] = v
                    if y < n:
                        cells[y] = kv
                    del out[:]
                    pos._unit_actions(x, v, out)
                    cells[x] = 0
                    if y < n:
                        cells[y] = 0
                    for a in out:
                        code = a & 255
                        if code >= kb.KILL:
                            continue
                        x2 = pos.nb[x * 4 + code // 5]
                        y2 = y
                        if code % 5:
                            cube = pos.nb[x * 4 + code % 5 - 1]
                            if cube != y:
                                continue
                            y2 = pos.nb[y * 4 + code // 5]
                        s2 = x2 * width + y2
                        seen = False
                        for layer in layers:
                            if s2 in layer:
                                seen = True
                                break
                        if seen or _steps_left(x2, y2, ends, cols, n) > limit - depth:
                            # a state from which the unit and its cube cannot reach the ends in
                            # the points left is on no way there: not kept (the same readings,
                            # from a search small enough for the board)
                            continue
                        if states >= MAX_STATES:
                            raise _TooFar
                        here[s2] = s * 32 + code
                        states += 1
                        nxt.append(s2)
                        if (x2 in end) and (k < 0 or (y2 in end and y2 != x2)):
                            goals.append(s2)
                frontier = nxt
        except _TooFar:
            goals = []
        finally:
            cells[u] = v
            if k >= 0:
                cells[k] = kv
        seqs = []
        for g in goals:  # all found at the last step
            seq = []
            s = g
            for d in range(len(layers) - 1, 0, -1):
                p = layers[d][s]
                seq.append((p // 32 // width << 8) + p % 32)
                s = p // 32
            seq.reverse()
            seqs.append(tuple(seq))
        if not seqs:
            return seqs
        if v & 2 and k < 0 and len(seqs) == 1:
            return self._soldier_ways(u, end[0], seqs[0])
        return seqs

    def _soldier_ways(self, u, dest, first):
        """A soldier's shortest ways from u to dest (at most MAX_WAYS, in direction order), one
        per distinct outcome: ways through enemy land capture different cells."""
        pos = self.pos
        nb = pos.nb
        cells = pos.cells
        steps = len(first)
        # distance to dest through empty cells (the soldier's own cell counts as empty)
        dist = bytearray(pos.n)
        dist[dest] = 1
        todo = [dest]
        i = 0
        while i < len(todo):
            c = todo[i]
            i += 1
            for d in range(4):
                t = nb[c * 4 + d]
                if t != NONE and not dist[t] and (cells[t] == kb.EMPTY or t == u):
                    dist[t] = dist[c] + 1
                    todo.append(t)
        ways = []
        path = []

        def walk(c):
            if len(ways) >= MAX_WAYS:
                return
            if c == dest:
                ways.append(tuple(path))
                return
            for d in range(4):
                t = nb[c * 4 + d]
                if t != NONE and dist[t] and dist[t] == dist[c] - 1 and cells[t] == kb.EMPTY:
                    path.append((c << 8) + 5 * d)
                    walk(t)
                    path.pop()

        walk(u)
        if len(ways) <= 1:
            return [first]
        out = []
        keys = []
        for w in ways:
            if len(w) != steps:
                continue
            pushed = 0
            try:  # (a MemoryError must not leave them pushed)
                for a in w:
                    pos.push(a)
                    pushed += 1
                key = bytes(pos.terr)
            finally:
                for _ in range(pushed):
                    pos.pop()
            if key not in keys:
                keys.append(key)
                out.append(w)
        return out

    def _cube_alone(self):
        """The evidence is one building cube, armour or waste moved and nothing else."""
        if len(self.minus) != 1 or len(self.plus) != 1:
            return False
        return kb.BRICK <= self.pos.cells[self.minus[0]] <= kb.WASTE

    def _cube_lifted_beside_unit(self):
        """The evidence is one building cube, armour or waste lifted, next to the cell the
        last unit move (self.gesture) began on, within AMEND_MS of that move."""
        if len(self.minus) != 1 or self.plus:
            return False
        k = self.minus[0]
        pos = self.pos
        if not kb.BRICK <= pos.cells[k] <= kb.WASTE:
            return False
        if (self.now - self.gesture_at) & TICKS_MASK > AMEND_MS:
            return False
        u = self.gesture[0] >> 8
        for d in range(4):
            if pos.nb[k * 4 + d] == u:
                return True
        return False

    def _amendments(self):
        """A cube moved by itself a moment after a unit's move: readings of the two together
        as one carry (the hand put the unit down before the cube). Each begins with -n: take
        back the last n actions (the unit's move, and an `end` pressed before the cube) first;
        an end taken back ends each reading again."""
        gesture = self.gesture
        if (self.now - self.gesture_at) & TICKS_MASK > AMEND_MS:
            self.gesture = ()
            return []
        pos = self.pos
        n = len(gesture)
        if pos.ply() < n or tuple(pos.history()[-n:]) != gesture:
            self.gesture = ()
            return []
        minus = self.minus
        plus = self.plus
        for _ in gesture:
            pos.pop()
        try:  # (the move is put back whatever happens: a MemoryError must not lose it)
            self._cache = {}
            occupancy(pos, self.expected)
            self.minus = _diff(self.expected, self.seen)
            self.plus = _diff(self.seen, self.expected)
            found, growing = self.readings()
        finally:
            for a in gesture:
                pos.push(a)
            self._cache = {}
            occupancy(pos, self.expected)
            self.minus = minus
            self.plus = plus
        u = gesture[0] >> 8
        ended = gesture[-1] == kb.END
        if ended:
            gesture = gesture[:-1]
        out = []
        for seq in found:
            # the same unit, now carrying the cube that moved
            if seq != gesture and (seq[0] & 255) < kb.KILL and seq[0] >> 8 == u:
                out.append((-n,) + seq + ((kb.END,) if ended else ()))
        return out

    # -- commit -------------------------------------------------------------------------------------

    def _commit(self, seq, how):
        pos = self.pos
        self._cache = {}
        if seq[0] < 0:
            # an amendment: the unit's move taken back, then read again with its cube
            for _ in range(-seq[0]):
                a = pos.pop()
                self.log.append(("undo", a, pos.notation()))
            seq = seq[1:]
        for a in seq:
            swap = -1
            letter = kb.item_letter(a)
            if letter in ("k", "K"):
                t = pos.rocket_target(a)
                if pos.cells[t] != kb.ARMOUR:
                    swap = t
            elif letter == "x":
                swap = pos.action_cell(a)
            pos.push(a)
            self.log.append((how if a != kb.END else "end", a, pos.notation()))
            if swap >= 0 and swap not in self.swap:
                self.swap.append(swap)
        code = seq[0] & 255 if seq[0] != kb.END else 255
        if code < kb.KILL:
            self.gesture = tuple(seq)
            self.gesture_at = self.now
        elif seq == (kb.END,) and self.gesture and self.gesture[-1] != kb.END:
            # `end` pressed with the unit down and its cube not moved yet: the cube may still
            # come (within AMEND_MS of the unit), and the end is then taken again after it
            self.gesture = self.gesture + seq
        else:
            self.gesture = ()
        occupancy(pos, self.expected)
        self._reset_evidence()
        self.minus = _diff(self.expected, self.seen)
        self.plus = _diff(self.seen, self.expected)
        self.candidates = []
        self.index = 0
        self.settling = False
        if pos.is_over():
            self.state = OVER
        elif self.minus or self.plus:
            # the board still differs: what the commit asks of the hands (a bought unit to
            # put down, a destroyed armour cube to take off)
            self.state = FIX
        else:
            self.state = IDLE

    # -- for the LEDs ------------------------------------------------------------------------------

    def cube_reach(self, k):
        """Cells a unit next to it may push, pull or carry the cube on k to in one step."""
        pos = self.pos
        nb = pos.nb
        cells = pos.cells
        out = []
        side = pos.to_move
        for e in range(4):
            u = nb[k * 4 + e]
            if u == NONE or cells[u] < kb.WORKER or cells[u] & 1 != side or not pos.points[u]:
                continue
            for d in range(4):
                t = nb[k * 4 + d]
                if t != NONE and (cells[t] == kb.EMPTY or t == u) and t not in out:
                    out.append(t)
        return out

    def culprits(self):
        """The differing cells to put right: all of them (the evidence is small)."""
        return self.minus + self.plus
