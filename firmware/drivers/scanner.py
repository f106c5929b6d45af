"""Debounce of the occupancy bitmap and of the buttons.

Scanner: a full scan arrives every frame (10 ms). A cell's change is accepted only once its raw
reading has differed from the accepted (stable) state without interruption for `stable_ms`
(default 30 ms): a bounce, a hovering hand or a cube slid across cells (each crossed cell reads
occupied for less than stable_ms) produces no accepted change. Per cell, independently.

The work per frame is one comparison of the 16 bytes (in C) when nothing moves or waits; else
the bytes are looked at one by one, and only those with activity bit by bit. No allocation per frame (small ints, preallocated bytearrays, a list of ints).

Ticks are 30-bit wrapping milliseconds (hal.ticks_diff); a pending change older than 2**29 ms
is not a concern at 10 ms per frame.
"""

from firmware.hal import BITMAP_BYTES, N_CELLS, TICKS_MASK, N_BUTTONS, FRAME_MS


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
        prev = self._prev
        changed = self.changed
        if not self._pending and raw == prev:
            # The usual frame: nothing waits and nothing moved (so stable == raw too), told by
            # two comparisons in C instead of a loop over the 16 bytes (0.34 ms a frame on the
            # Pico, bench/revb_scan.py). Only a changed bitmap left by the last update is
            # cleared. (A literal: a module-level name would stay in the heap for good.)
            if changed != b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0":
                for i in range(BITMAP_BYTES):
                    changed[i] = 0
            return 0
        stable = self.stable
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
    """Debounced, edge-detected buttons: update() returns the bitmask of new presses.

    A state is accepted once the samples that show it span `stable_ms` rounded up to whole
    frames, less half a frame: at 10 ms frames and 30 ms, 4 samples in a row (3 frames apart,
    30 ms nominal) whatever the frames' jitter, 3 never (20 ms). The samples are a frame apart
    only to about a millisecond (9.1-11.0 ms on the emulated Pico) and `now` is whole ms: a
    threshold of exactly 3 frames took or lost a press seen by 4 samples by microseconds (a 50
    ms press seen at 21700, 21709, 21719 and 21729 ms: 29, lost). After a late frame (the chip
    blind for a while: a flash erase of a log append, 45 ms; a long commit) a change first seen
    then is counted from the frame that was due, but accepted only if a second sample still
    shows it (one sample is no proof against a bounce); on time, from the sample that saw it.
    Without that credit a 50 ms press that began in a 30-45 ms frame was seen for too short and
    lost; a press the chip was blind to from start to end is lost either way."""

    def __init__(self, stable_ms=30):
        self.stable_ms = stable_ms
        self.state = 0      # debounced state
        self._prev = 0
        self._since = [0] * N_BUTTONS
        self._due = -1      # when the next sample is due (ms; -1 before the first)

    def update(self, raw, now):
        due = self._due
        self._due = (now + FRAME_MS) & TICKS_MASK
        # a late sample (more than half a frame): a change it sees may date from `due`
        if due < 0 or ((now - due) & TICKS_MASK) <= (FRAME_MS >> 1) \
                or ((now - due) & TICKS_MASK) >= 0x20000000:
            due = now
        moved = raw ^ self._prev
        diff = raw ^ self.state
        presses = 0
        if moved | diff:
            since = self._since
            # stable_ms in whole frames, less half a frame: between two counts of samples
            need = (self.stable_ms + FRAME_MS - 1) // FRAME_MS * FRAME_MS - (FRAME_MS >> 1)
            for j in range(N_BUTTONS):
                bit = 1 << j
                if moved & bit:
                    since[j] = due
                if diff & bit:
                    s = since[j]
                    if ((now - s) & TICKS_MASK) >= need and (s == now or not moved & bit):
                        self.state ^= bit
                        if raw & bit:
                            presses |= bit
            self._prev = raw
        return presses
