"""The level scanner (firmware/drivers/levels.py) beside the plain loops it had until stop 45
(PlainLevelScanner below, as it was at ff6e313: every cell compared in each frame in which a
field changed, the waiting cells looked at in every frame, lists searched), fed the same random
frames through a HallReader: fields that move a little or by a cube's step, back and forth
before they hold, a few cells or every cell at once, late frames, the ms ticks wrapping, the
tracker's rebase/explain/shift_base/reset between frames, the HAL's `changed` bitmap given or
not. After each frame both must agree on what update returned, the version, every level and
baseline, the reported cells in their order and the cells waiting. Runs the same under CPython
and the MicroPython unix port, and on the emulated RP2040 with the HAL's own reader (its viper
conversion marks `changed` there): tests/test_revb_levels.py.

    python tests/driver_levels.py [FRAMES [SEED]]
"""

import sys
from array import array

from firmware.hal import N_CELLS, TICKS_MASK
from firmware.hal import hall as HL
from firmware.drivers.levels import LevelScanner
from driver_revb import Lcg


class PlainLevelScanner(LevelScanner):
    """The level scanner with the loops it had until stop 45 (update and rebase as at ff6e313);
    what did not change (reset, explain, shift_base, _restep, pending) is the scanner's own. Its
    `_since` holds plain times: the reset's and rebase's sign flips of waiting cells' times
    find no waiting cell here, which the plain rebase empties first."""

    def update(self, fields, now, rough=None):
        self.rough = rough
        if self._first:
            self.reset(fields)
            return False
        prev = self._prev
        pending = self._pending
        if fields != prev:
            since = self._since
            for c in range(N_CELLS):
                v = fields[c]
                if v != prev[c]:
                    prev[c] = v
                    since[c] = now
                    if c not in pending:
                        pending.append(c)
        if not pending:
            return False
        changed = False
        sms = self.stable_ms
        i = 0
        while i < len(pending):
            c = pending[i]
            if ((now - self._since[c]) & TICKS_MASK) >= sms:
                pending.pop(i)
                if self.level[c] != prev[c]:
                    self.level[c] = prev[c]
                    if self._restep(c):
                        changed = True
            else:
                i += 1
        if changed:
            self.version += 1
        return changed

    def rebase(self, cells=None):
        if cells is None:
            for c in self._pending:
                self.level[c] = self._prev[c]
            self._pending = []
        LevelScanner.rebase(self, cells)


def _differs(a, b):
    """What differs between the two scanners' state ('' if nothing)."""
    for name in ("version", "level", "base", "cells"):
        if getattr(a, name) != getattr(b, name):
            return name
    if a.pending() != b.pending():
        return "pending"
    return ""


def _board(rng, sums):
    """Sums of a board: most cells empty, some with a cube or a stack either way up."""
    mid = HL.MID
    sums[mid] = 8 * 2048
    for c in range(N_CELLS):
        k = rng.next(6)
        field = (0, 0, 0, 220, -220, 300)[k] + rng.next(9) - 4   # ADC codes off mid
        sums[c] = sums[mid] + 8 * field
    sums[HL.ZERO] = 0


def _move(rng, sums, frame):
    """One frame's change of the sums: none, a few cells (a cube's step, a small one, a cell
    back where it was), every cell a little (a hand over the board), or the mid reference."""
    k = rng.next(16)
    if k < 8:
        return
    if k == 8:
        for c in range(N_CELLS):
            sums[c] += rng.next(41) - 20
        return
    if k == 9:
        sums[HL.MID] += (rng.next(2) * 2 - 1) * (80 + rng.next(40))
        return
    first = rng.next(N_CELLS)
    for j in range(1 + rng.next(9)):
        c = (first + j * (1 + rng.next(12))) % N_CELLS
        step = (8 * 13, 8 * 2, 8 * 40, 12, 3)[rng.next(5)]
        sums[c] += step if rng.next(2) else -step


def _tracker(rng, scanners, fields):
    """What the tracker may do between frames, to both scanners alike."""
    k = rng.next(30)
    cells = [rng.next(N_CELLS) for _ in range(rng.next(4))]
    if k == 0:
        for s in scanners:
            s.rebase()
    elif k == 1:
        for s in scanners:
            s.rebase(cells)
    elif k == 2 or k == 3:
        changes = {}
        for c in cells:
            changes[c] = rng.next(201) - 100
        absorb = rng.next(2) == 1
        filled = tuple(cells[:1])
        for s in scanners:
            s.explain(changes, cells, absorb, filled)
    elif k == 4:
        changes = {}
        for c in cells:
            changes[c] = rng.next(201) - 100
        for s in scanners:
            s.shift_base(changes)
    elif k == 5 and rng.next(10) == 0:
        for s in scanners:
            s.reset(fields)


def run(frames=600, seed=1, reader=None):
    """Returns the number of frames after which the two scanners differed."""
    rng = Lcg(seed)
    if reader is None:
        reader = HL.HallReader(8, 30000, 3300, 320, 280)
    new = LevelScanner(30)
    old = PlainLevelScanner(30)
    sums = array("H", bytes(2 * HL.N_SUMS))
    _board(rng, sums)
    occ = bytearray(16)
    now = TICKS_MASK - 1500        # the ms ticks wrap 1.5 s into the run
    bad = 0
    reported = 0
    waited = 0
    for frame in range(frames):
        if frame:
            _move(rng, sums, frame)
        reader.update(sums, occ)
        k = rng.next(20)
        now = (now + (45 if k == 0 else 9 + rng.next(3))) & TICKS_MASK   # a late frame
        changed = None if rng.next(8) == 0 else reader.changed   # (left set: read later)
        a = new.update(reader.levels, now, reader.rough, changed)
        b = old.update(reader.levels, now, reader.rough)
        if a:
            reported += 1
        if new.pending():
            waited += 1
        what = "returned" if a != b else _differs(new, old)
        if not what:
            _tracker(rng, (new, old), reader.levels)
            what = _differs(new, old)
        if what:
            bad += 1
            if bad <= 3:
                print("frame %d: %s differs" % (frame, what))
    print("compared %d frames, %d differ (steps changed in %d, cells waiting in %d)" % (
        frames, bad, reported, waited))
    return bad


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    run(n, seed)
