"""Revision B's part of the boot (firmware/system/boot.py, when main.py has --rev B or the
board's /board_rev says B): its HAL, which reads every cell's field (firmware/hal/sim_revb.py
in the simulator, firmware/hal/rp2040_revb.py on the board), and its App, which keeps a level
scanner over those fields (firmware/system/app_revb.py). Dropped with the boot."""


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
