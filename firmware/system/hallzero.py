"""Revision B's zero file: every cell's zero (firmware/hal/hall.py, `HallReader.zero`, in
0.01 mT) kept on the flash. The console's `calibrate` writes it (firmware/system/calib.py), the
boot reads it (firmware/system/boot_revb.py); each loads this module for that and drops it, so
a board that plays keeps none of it.

The file: FILE in the flash root, a version byte (VERSION), then every cell's zero as a signed
16-bit little-endian number, cell 0 (a1) first.
"""

FILE = "hall_zero"
VERSION = 1


def path(root):
    return root.rstrip("/") + "/" + FILE


def pack(zero):
    """The file's bytes for the zeros `zero` (a sequence of ints)."""
    data = bytearray(1 + 2 * len(zero))
    data[0] = VERSION
    for c in range(len(zero)):
        v = zero[c] & 0xFFFF
        data[1 + 2 * c] = v & 0xFF
        data[2 + 2 * c] = v >> 8
    return data


def load(root, zero):
    """Every cell's zero from the file in `root` into `zero` (an array, changed only when the
    whole file is good): None, or why not. A file of the wrong size or version is left as
    it is."""
    import os
    p = path(root)
    try:
        # looked up before it is opened: a failed open leaves the Pico's heap fuller for good
        # (firmware/system/boot.py, /board_rev)
        n = os.stat(p)[6]
    except OSError:
        return "no zeros on the flash"
    size = 1 + 2 * len(zero)
    buf = bytearray(size)
    try:
        if n:
            with open(p, "rb") as f:
                f.readinto(buf)  # (a longer file: its first `size` bytes)
    except OSError as e:
        return "%s unreadable (%s; kept)" % (FILE, e)
    if n != size or buf[0] != VERSION:
        return "%s is damaged (%d bytes, version %d; kept)" % (FILE, n, buf[0])
    for c in range(len(zero)):
        v = buf[1 + 2 * c] | (buf[2 + 2 * c] << 8)
        zero[c] = v - 65536 if v >= 32768 else v
    return None
