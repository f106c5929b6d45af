"""Revision B's part of the boot (firmware/system/boot.py, when main.py has --rev B or the
board's /board_rev says B): its HAL, which reads every cell's field (firmware/hal/sim_revb.py
in the simulator, firmware/hal/rp2040_revb.py on the board), and its App, which keeps a level
scanner over those fields (firmware/system/app_revb.py); then every cell's zero from the flash
(`load_zeros`, firmware/system/hallzero.py; the console's `calibrate` writes it). Dropped with the
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
    """Every cell's zero from the flash (firmware/system/hallzero.py) into the HAL's reader.
    None, or a file of the wrong size or version (left as it is): the zeros stay 0 and
    `evt not calibrated: ...` says so."""
    root = app.hal.flash_root()
    why = "no flash"
    if root is not None:
        from firmware.system import hallzero
        why = hallzero.load(root, app.hal.reader.zero)
        hallzero = None
        from firmware.hal import unload
        unload("firmware.system.hallzero")
        if why is None:
            return
    app.emit("not calibrated: %s (every zero 0; `calibrate` on an empty board)" % why)
