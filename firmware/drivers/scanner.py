"""Debounce of the occupancy bitmap and of the buttons.

Scanner: a full scan arrives every frame (10 ms). A cell's change is accepted only once its raw
reading has differed from the accepted (stable) state without interruption for `stable_ms`
(default 30 ms): a bounce, a hovering hand or a cube slid across cells (each crossed cell reads
occupied for less than stable_ms) produces no accepted change. Per cell, independently.

The work per frame is 16 byte compares when nothing moves; only bytes with activity are looked
at bit by bit. No allocation per frame (small ints, preallocated bytearrays, a list of ints).

Ticks are 30-bit wrapping milliseconds (hal.ticks_diff); a pending change older than 2**29 ms
is not a concern at 10 ms per frame.
"""

from firmware.hal import BITMAP_BYTES, N_CELLS, TICKS_MASK, N_BUTTONS


class Scanner:
    def __init__(self, stable_ms=30):
        self.stable_ms = stable_ms
        self.stable = bytearray(BITMAP_BYTES)   # accepted occupancy
        self.changed = bytearray(BITMAP_BYTES)  # cells whose accepted state changed last update
        self._prev = bytearray(BITMAP_BYTES)    # raw of the previous frame
        self._since = [0] * N_CELLS             # ms when the raw reading of the cell last changed
        self._pending = 0                       # cells whose raw differs from stable
        self._first = True

    def reset(self, raw):
        """Accept `raw` as stable immediately (boot)."""
        for i in range(BITMAP_BYTES):
            self.stable[i] = raw[i]
            self._prev[i] = raw[i]
            self.changed[i] = 0
        self._pending = 0
        self._first = False

    def update(self, raw, now):
        """Feed one full scan taken at `now` (ms). Returns the number of cells whose accepted
        state changed (listed in self.changed)."""
        if self._first:
            self.reset(raw)
            return 0
        stable = self.stable
        prev = self._prev
        changed = self.changed
        since = self._since
        sms = self.stable_ms
        n = 0
        pending = 0
        for i in range(BITMAP_BYTES):
            r = raw[i]
            moved = r ^ prev[i]
            diff = r ^ stable[i]
            changed[i] = 0
            if moved | diff:
                base = i << 3
                m = moved | diff
                j = 0
                while m:
                    if m & 1:
                        bit = 1 << j
                        c = base + j
                        if moved & bit:
                            since[c] = now
                        if diff & bit:
                            if ((now - since[c]) & TICKS_MASK) >= sms:
                                stable[i] ^= bit
                                changed[i] |= bit
                                n += 1
                            else:
                                pending += 1
                    m >>= 1
                    j += 1
                prev[i] = r
        self._pending = pending
        return n

    def pending(self):
        """Number of cells whose raw reading differs from the accepted state (change in
        progress, not yet accepted)."""
        return self._pending


class Buttons:
    """Debounced, edge-detected buttons: update() returns the bitmask of new presses."""

    def __init__(self, stable_ms=30):
        self.stable_ms = stable_ms
        self.state = 0      # debounced state
        self._prev = 0
        self._since = [0] * N_BUTTONS

    def update(self, raw, now):
        moved = raw ^ self._prev
        diff = raw ^ self.state
        presses = 0
        if moved | diff:
            since = self._since
            for j in range(N_BUTTONS):
                bit = 1 << j
                if moved & bit:
                    since[j] = now
                if diff & bit:
                    if ((now - since[j]) & TICKS_MASK) >= self.stable_ms:
                        self.state ^= bit
                        if raw & bit:
                            presses |= bit
            self._prev = raw
        return presses
