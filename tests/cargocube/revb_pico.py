"""Revision B's device code replaying a recorded game on the emulated RP2040 (host side): the
flash holds what `cargoboard deploy --rev b` builds, the host's Table (cargoboard/sim/table.py),
tests/cargocube/driver_replay.py as `revb_replay`, the trace as `trace.txt` and a main.py. Used by
tests/cargocube/test_cargocube_revb.py and bench/cargocube/revb_pico.py (and reva_pico.py: a
revision-A game, its plug-in made by the replay; the flash holds revision B's build, which has
every module the host's Table imports)."""

import tempfile
from pathlib import Path

from cargoboard.build import stage
from cargoboard.sim.pico import fsimage
from cargoboard.sim.pico.runner import PicoRunner
from cargoboard.sim.table import write_trace

ROOT = Path(__file__).resolve().parents[2]

# main.py that plays the trace again and prints the driver's report
REPORT = b"""import revb_replay as R
R.report(*R.replay("trace.txt", %r, %r))
print("done")
"""


def run(trace, main, max_s=300):
    """Play trace (a Table's recorded input) on the emulated Pico with main.py `main` (bytes)
    until it prints "done" or an Error, or max_s emulated seconds pass: (serial output, emulated
    seconds)."""
    with tempfile.TemporaryDirectory(prefix="revb-pico-") as tmp:
        path = Path(tmp) / "trace.txt"
        write_trace(trace, path)
        files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(Path(tmp) / "stage", rev="B")
                 if bp != "main.py"]
        host = ROOT / "host" / "cargoboard"
        files += [("cargoboard/__init__.py", (host / "__init__.py").read_bytes()),
                  ("cargoboard/sim/__init__.py", b""),  # (the host's registers a CLI)
                  ("cargoboard/sim/table.py", (host / "sim" / "table.py").read_bytes()),
                  ("revb_replay.py",
                   (ROOT / "tests" / "cargocube" / "driver_replay.py").read_bytes()),
                  ("trace.txt", path.read_bytes()),
                  ("main.py", main)]
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, files)
        text = ""
        with PicoRunner(flash=image, boot_from_flash=True, revision="B") as runner:
            for _ in range(max_s * 100):
                runner.step(10)
                text = bytes(runner.serial_log).decode(errors="replace")
                if "done" in text or "Error" in text:
                    break
            return text, runner.emu_ns / 1e9
