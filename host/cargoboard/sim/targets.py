"""The virtual board's targets by name: the runner that starts the firmware on each. Apart
from runner.py (the base and the unix port) because the Pico's runner builds on that base."""

from cargoboard.sim.pico.runner import PicoRunner
from cargoboard.sim.runner import FirmwareError, Runner, UnixRunner

TARGETS = ("unix", "pico")


def make_runner(target="unix", **kwargs) -> Runner:
    """A runner for a target: "unix" (the MicroPython unix port) or "pico" (the emulated
    RP2040 with the stock MicroPython image)."""
    if target == "pico":
        return PicoRunner(**kwargs)
    if target != "unix":
        raise FirmwareError(f"unknown target '{target}' (unix or pico)")
    return UnixRunner(**kwargs)
