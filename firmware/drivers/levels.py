"""Revision B: every cell's field, debounced, against a baseline; the differences are the steps
the game's tracker reads (docs/board-cargocube.md, "Revision B").

The HAL gives the field of each cell every frame (0.01 mT, firmware/hal/hall.py); a value
is taken as the cell's level once it has held for `stable_ms` (a hand passing over, a piece
bounced, stay out, as in the occupancy Scanner). The baseline is the level the tracker last
accepted as explained: `rebase(cells)` after it commits an action there (or after it decided a
change was noise), `shift_base(changes)` after it takes an action back (the baseline becomes
what the board will read once the pieces are put back). A step is level - baseline; cells whose
step is at least `report` (0.04 mT: four times the ADC noise of a step) are listed in `cells`.

When nothing moves the HAL's fields do not change (its deadband), so a frame costs one array
comparison; when some do, only the cells the HAL converted are compared (its `changed` bitmap),
and the waiting cells are looked at only in a frame in which one may have held long enough
(bench/revb_scan.py: the frame in which a move changed 8 cells spent 1.6 ms here, a Python
loop over all 121); no allocation per frame.
"""

from array import array
from firmware.hal import const, N_CELLS, TICKS_MASK, BITMAP_BYTES

REPORT = 4
# _since[_OLDEST]: no waiting cell moved before then. (A private const: no name in the heap,
# where every new name stays for good; one more, an attribute, tipped the unix port at 240k
# into a MemoryError loading the hint engine, tests/cargocube/test_cargocube_revb_sim.py.)
_OLDEST = const(121)


class LevelScanner:
    def __init__(self, stable_ms=30, report=REPORT):
        self.stable_ms = stable_ms
        self.report = report
        self.level = array("h", bytes(2 * N_CELLS))   # debounced field per cell
        self.base = array("h", bytes(2 * N_CELLS))    # the tracker's baseline
        self.cells = []                           # cells with |step| >= report
        self.version = 0                          # bumped whenever a reported step changes
        self._prev = array("h", bytes(2 * N_CELLS))   # last frame's fields
        # when a cell's field last moved (ms); a waiting cell's (one in _pending) is kept as
        # ~ms, below 0: its sign says it waits, without a search of the list
        self._since = array("i", bytes(4 * N_CELLS + 4))
        self._pending = []                        # cells whose field differs from their level
        self._first = True
        self.rough = None                         # the HAL's cells next to an ADC DNL spike

    def reset(self, fields):
        """Take fields as level and baseline at once (boot, a new game)."""
        for c in range(N_CELLS):
            v = fields[c]
            self.level[c] = v
            self.base[c] = v
            self._prev[c] = v
        for c in self._pending:
            self._since[c] = 0
        self._pending = []
        self.cells = []
        self._first = False
        self.version += 1

    def update(self, fields, now, rough=None, changed=None):
        """Feed one frame's fields taken at now (ms); rough: the HAL's bitmap of cells reading
        next to an ADC DNL spike (their steps are rougher); changed: the HAL's bitmap of the
        cells it converted since the last call (HallReader.changed: no other cell's field can
        have moved), cleared here as it is read, so that only those cells are compared (None:
        all 121). Returns True when a reported step changed (then `version` was bumped)."""
        self.rough = rough
        if self._first:
            self.reset(fields)
            return False
        prev = self._prev
        since = self._since
        pending = self._pending
        if fields != prev:                        # compared in C: the usual frame stops here
            fresh = not pending
            # (the bitmap of every cell, when none is given)
            mask = b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01" \
                if changed is None else changed
            for i in range(BITMAP_BYTES):
                m = mask[i]
                if m:
                    if changed is not None:
                        changed[i] = 0
                    c = i << 3
                    while m:
                        if m & 1:
                            v = fields[c]
                            if v != prev[c]:
                                prev[c] = v
                                if since[c] >= 0:
                                    pending.append(c)
                                since[c] = ~now
                        m >>= 1
                        c += 1
            if fresh and pending:
                since[_OLDEST] = now
        if not pending:
            return False
        sms = self.stable_ms
        if ((now - since[_OLDEST]) & TICKS_MASK) < sms:
            # no cell has held for stable_ms yet: since[_OLDEST] is when the longest-waiting
            # one last moved, or earlier (a cell that moves again waits anew)
            return False
        moved = False
        level = self.level
        oldest = now                              # (of the cells left waiting)
        wait = 0
        kept = 0                                  # the cells left waiting, moved up in place
        n = len(pending)
        i = 0
        while i < n:
            c = pending[i]
            i += 1
            t = ~since[c]
            age = (now - t) & TICKS_MASK
            if age >= sms:
                since[c] = t
                if level[c] != prev[c]:
                    level[c] = prev[c]
                    if self._restep(c):
                        moved = True
            else:
                if age > wait:
                    wait = age
                    oldest = t
                pending[kept] = c
                kept += 1
        while n > kept:                           # (a slice would be allocated)
            pending.pop()
            n -= 1
        since[_OLDEST] = oldest
        if moved:
            self.version += 1
        return moved

    def _restep(self, c):
        """Update the listing of cell c; True if what is reported for it changed."""
        d = self.level[c] - self.base[c]
        big = d >= self.report or d <= -self.report
        listed = c in self.cells
        if big:
            if not listed:
                self.cells.append(c)
            return True
        if listed:
            self.cells.remove(c)
            return True
        return False

    def pending(self):
        """Number of cells whose field moved and has not held long enough yet."""
        return len(self._pending)

    def rebase(self, cells=None):
        """The levels of cells (all if None) become their baseline. All: the fields as they
        are now (a game's start), so a cell whose field is still moving takes its latest field
        as its level first: a cell next to an ADC spike reads a little different every few
        frames and may not hold for stable_ms for a while, and its level from before the
        pieces were put down must not become its baseline (a step of a whole cube that no
        move explains, found at a 4-player start with both expansions)."""
        if cells is None:
            for c in self._pending:
                self.level[c] = self._prev[c]
                self._since[c] = ~self._since[c]
            self._pending = []
        todo = range(N_CELLS) if cells is None else cells
        for c in todo:
            self.base[c] = self.level[c]
        self.cells = [c for c in self.cells if self.level[c] != self.base[c] and
                      abs(self.level[c] - self.base[c]) >= self.report]
        self.version += 1

    def explain(self, changes, cells, absorb, filled=()):
        """An action made changes ({cell: change}), a hand working on cells: the baseline moves
        by the changes; on the cells the action filled or emptied (filled), and on the hand's
        cells if absorb (the action alone explains what they show, a shifted cube included),
        it takes the level over."""
        base = self.base
        level = self.level
        for c in changes:
            base[c] += changes[c]
        for c in cells:
            if absorb or c in filled:
                base[c] = level[c]
        for c in filled:
            base[c] = level[c]
        for c in changes:
            self._restep(c)
        for c in cells:
            self._restep(c)
        for c in filled:
            self._restep(c)
        self.version += 1

    def shift_base(self, changes):
        """Move the baseline by -change for each (cell, change) in changes ({cell: change}):
        after a take-back, what the board will read once the pieces are put back."""
        for c in changes:
            self.base[c] -= changes[c]
            self._restep(c)
        self.version += 1
