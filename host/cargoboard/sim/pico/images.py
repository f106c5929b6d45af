"""The third-party inputs of the emulated Pico: the RP2040 boot ROM and the stock MicroPython
image. They are not part of the project; it finds them at

    $CARGOBOARD_PICO_BOOTROM and $CARGOBOARD_PICO_UF2    (each file by itself), else
    $CARGOBOARD_PICO_DIR/<name>                          (a folder holding both), else
    <checkout>/../shared/pico/<name>                     (the default)

with the names below. `find_images()` raises PicoUnavailable (one line: where the official
files come from) when either is missing."""

from __future__ import annotations

import os
from pathlib import Path

from cargoboard.build import REPO_ROOT

BOOTROM_NAME = "rp2040-bootrom-b1.bin"
UF2_NAME = "RPI_PICO-20250911-v1.26.1.uf2"
DEFAULT_DIR = REPO_ROOT.parent / "shared" / "pico"
# Where the official files come from, and what they hash to.
SOURCES = {
    UF2_NAME: ("https://micropython.org/download/RPI_PICO/ (v1.26.1, 2025-09-11)",
               "fc2a8096e0d999d3caca11b34381854599d68aee3e905d3cccbd5247ca78d07c"),
    BOOTROM_NAME: ("https://github.com/raspberrypi/pico-bootrom (B1, built at 00a4a191; "
                   "rp2040js ships it as demo/bootrom.ts)",
                   "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"),
}


class PicoUnavailable(RuntimeError):
    """The boot ROM or the MicroPython image is not there (the message says where to get it)."""


def _where(name: str, env: str) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env])
    folder = os.environ.get("CARGOBOARD_PICO_DIR")
    return (Path(folder) if folder else DEFAULT_DIR) / name


def find_images() -> tuple[Path, Path]:
    """(boot ROM, UF2) paths; PicoUnavailable if either file is missing."""
    rom = _where(BOOTROM_NAME, "CARGOBOARD_PICO_BOOTROM")
    uf2 = _where(UF2_NAME, "CARGOBOARD_PICO_UF2")
    for path, name, env in ((rom, BOOTROM_NAME, "CARGOBOARD_PICO_BOOTROM"),
                            (uf2, UF2_NAME, "CARGOBOARD_PICO_UF2")):
        if not path.is_file():
            url, sha = SOURCES[name]
            # where to put it: the folder it was looked for in (the one the user chose, or the
            # default), and the other ways only when no variable chose it
            chosen = os.environ.get(env) or os.environ.get("CARGOBOARD_PICO_DIR")
            where = (f"put it at {path}" if chosen else
                     f"put it in {DEFAULT_DIR}, or set {env} or CARGOBOARD_PICO_DIR")
            raise PicoUnavailable(
                f"no {path} for the emulated Pico: get {name} from {url} (sha256 {sha}) and "
                f"{where}")
    return rom, uf2
