"""Revision B's part of the boot (firmware/system/boot.py, when main.py has --rev B or the
board's /board_rev says B): its HAL, which reads every cell's field (firmware/hal/sim_revb.py
in the simulator, firmware/hal/rp2040_revb.py on the board), and its App, which keeps a level
scanner over those fields (firmware/system/app_revb.py); then every cell's zero from the flash
(`load_zeros`; the console's `calibrate` writes it, firmware/system/calib.py). Dropped with the
boot: its few lines load the zeros, so that no other module (and its names, which the
MicroPython port keeps for good) is loaded at boot for them.
"""


def start(sim):
    """(the HAL, the App class) of a revision-B board; sim: the simulator's HAL."""
    if sim:
        from firmware.hal.sim_revb import SimHallHal
        hal = SimHallHal()
    else:
        from firmware.hal.rp2040_revb import Rp2040HallHal
        hal = Rp2040HallHal()
    from firmware.system.app_revb import HallApp
    return hal, HallApp


def load_zeros(app):
    """Every cell's zero from the flash (firmware/hal/hall.py: ZERO_FILE, its format) into the
    HAL's reader. None, or a file of the wrong
    size or version (left as it is): the zeros stay 0 and `evt not calibrated: ...` says so."""
    import os
    from firmware.hal.hall import ZERO_FILE, ZERO_SIZE, ZERO_VERSION
    zero = app.hal.reader.zero
    root = app.hal.flash_root()
    why = "no flash"
    if root is not None:
        path = root.rstrip("/") + "/" + ZERO_FILE
        try:
            # looked up before it is opened: a failed open leaves the Pico's heap fuller for
            # good (firmware/system/boot.py, /board_rev)
            n = os.stat(path)[6]
        except OSError:
            n = -1
        why = "no zeros on the flash"
        if n >= 0:
            buf = bytearray(ZERO_SIZE)
            try:
                if n:
                    with open(path, "rb") as f:
                        f.readinto(buf)  # (a longer file: its first ZERO_SIZE bytes)
                if n == ZERO_SIZE and buf[0] == ZERO_VERSION:
                    for c in range(len(zero)):
                        v = buf[1 + 2 * c] | (buf[2 + 2 * c] << 8)
                        zero[c] = v - 65536 if v >= 32768 else v
                    return
                why = "%s is damaged (%d bytes, version %d; kept)" % (ZERO_FILE, n, buf[0])
            except OSError as e:
                why = "%s unreadable (%s; kept)" % (ZERO_FILE, e)
    app.emit("not calibrated: %s (every zero 0; `calibrate` on an empty board)" % why)
