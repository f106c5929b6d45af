"""The largest free block of the heap, for the serial `mem` command (docs/serial-protocol.md).
App.command loads this module for the command and drops it after: it costs the resident
firmware nothing, and its own few hundred bytes of code lie in the heap only while it runs
(figures: bench/heap.py)."""

import gc


def largest():
    """' max=M held=H': M the largest buffer that can still be allocated in one piece, found by
    trying (a bisection): a heap in pieces fails a few-KB allocation long before it is full."""
    gc.collect()
    lo, hi = 0, gc.mem_free()
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        try:
            bytearray(mid)
            lo = mid
        except MemoryError:
            hi = mid - 1
    gc.collect()
    # the blocks the boot holds against pinning (firmware/hal/heldblocks.py; the RP2040 only)
    from firmware.hal import HELD
    return " max=%d held=%d" % (lo, len(HELD))
