"""The virtual board's second target: the stock MicroPython image on an emulated RP2040.

`PicoRunner` starts `node host/cargoboard/sim/pico/board.mjs` (rp2040js from the project's
package.json, with the board's parts modelled around the chip) and drives it with the same
channel as the unix target (docs/sim-protocol.md): each `F` message sets the 74HC165 chain's
inputs (sensors and buttons), hands the serial bytes to the USB CDC, and runs the chip until
the next 10 ms frame boundary of emulated time; LED frames come back decoded from the WS2812
line, serial output from USB. The firmware runs from the board's flash: a littlefs image
(`flash`, kept across runs; else a temporary one) that gets this checkout's deploy build
(`cargoboard deploy`'s files, mpy-cross -march=armv6m) unless `boot_from_flash`.

Beyond the common Runner: `emu_ns` (emulated time), `cycles` (core cycles run), `status_led`,
`flash_ops` (every program/erase: (kind, index, address, length, start ns)), `led_frames`
(every frame the LED chain latched: (start ns, duration ns, LEDs)), `chain_loads` (the
emulated ns of every scan: the 74HC165 chain latching its inputs, once a firmware frame), and
power cuts at
a chosen moment: `cut_at(ns)` or `cut_during_flash_op(n, fraction)`; the frame in which it
happens raises PowerCut (the image keeps what the flash had at that instant).

The flash chip's unique id (machine.unique_id(), the board id) is `unique_id` (8 bytes), by
default flash.mjs's one fixed id: its digits change the firmware's timing by microseconds, so
every run that is compared with another keeps it. `cargoboard sim --target pico --flash DIR`
gives the board its own, kept in the folder beside the image (`folder_unique_id`).
"""

from __future__ import annotations

import os
import shutil
import struct
import tempfile
from pathlib import Path

from cargoboard.build import BOARD_REV, REPO_ROOT
from cargoboard.clikit import read_at_most
from cargoboard.sim.runner import FRAME_MS, FirmwareError, PowerCut, Runner, WallPace
from cargoboard.sim.pico import fsimage
from cargoboard.sim.pico.images import PicoUnavailable, find_images

HERE = Path(__file__).resolve().parent
BOARD_JS = HERE / "board.mjs"
PINS = REPO_ROOT / "hardware" / "pins.json"
PINS_REVB = REPO_ROOT / "hardware" / "pins_revb.json"  # buttons on GPIOs, Hall sensors on ADC0
NODE_MODULES = REPO_ROOT / "node_modules"


def find_node() -> str:
    exe = os.environ.get("CARGOBOARD_NODE") or shutil.which("node")
    if not exe:
        raise FirmwareError("node (Node.js >= 18) is not installed; `make` installs it "
                            "(Debian: apt-get install nodejs npm)")
    return exe


def check_rp2040js():
    if not (NODE_MODULES / "rp2040js" / "package.json").is_file():
        raise FirmwareError(f"rp2040js is not installed in {NODE_MODULES}; run `make venv` "
                            "(npm ci, from package.json)")


UNIQUE_ID_FILE = "unique_id"
# What is read of it: 16 hex digits and a newline, with room for blanks an editor added; more
# is no board id.
UNIQUE_ID_MAX_BYTES = 64


def folder_unique_id(flash_dir) -> bytes:
    """The flash chip's unique id of the emulated Pico whose flash is kept in the folder
    `flash_dir` (`cargoboard sim --target pico --flash DIR`): the 16 hex digits in
    DIR/unique_id, made (at random) the first time the folder is a Pico's. It is the chip's,
    not the image's: removing DIR/flash.img (an erased flash) keeps it, as moving or renaming
    the folder does, while another folder is another board. FirmwareError (one line) for a
    file that holds no such id or cannot be read or made."""
    path = Path(flash_dir) / UNIQUE_ID_FILE
    if not path.exists():
        tmp = path.with_name(f".{UNIQUE_ID_FILE}.{os.getpid()}")
        try:
            tmp.write_text(os.urandom(8).hex() + "\n")
            try:
                os.link(tmp, path)  # only where there is none: a sim started beside keeps its own
            except FileExistsError:
                pass
        except OSError as e:
            raise FirmwareError(f"cannot write the board's id {path}: "
                                f"{e.strerror or e}") from None
        finally:
            try:
                tmp.unlink()
            except OSError:
                pass
    try:
        with open(path, "rb") as f:  # (a link to /dev/zero must not be read for ever)
            data = read_at_most(f, UNIQUE_ID_MAX_BYTES)
        text = (data or b"").decode("ascii").strip()
        if len(text) != 16:
            raise ValueError
        return bytes.fromhex(text)
    except OSError as e:
        raise FirmwareError(f"cannot read the board's id {path}: {e.strerror or e}") from None
    except ValueError:
        raise FirmwareError(f"{path} holds no board id (16 hex digits, the flash chip's unique "
                            f"id); remove it to make the folder's board a new one") from None


def firmware_files(rev="A") -> list:
    """What `cargoboard deploy [--rev b]` puts on the board: [(path on the board, bytes)]."""
    from cargoboard.build import BuildError, stage
    with tempfile.TemporaryDirectory(prefix="cargoboard-pico-") as tmp:
        try:
            staged = stage(tmp, "rp2", rev)
        except BuildError as e:
            raise FirmwareError(str(e)) from None
        return [(bp, Path(lp).read_bytes()) for bp, lp, _ in staged]


class PicoRunner(Runner):
    target = "pico"
    HELLO = b"cargoboard-pico "
    reply_ms = 5000
    BOOT_QUIET_MS = 300
    SERVE_BUSY_MS = 20
    BOOT_MAX_MS = 15000

    def __init__(self, game="none", flash=None, boot_from_flash=False, plugins=(),
                 heapsize=None, bootrom=None, uf2=None, pins=None, unique_id=None,
                 revision="A"):
        super().__init__(game=game, flash=flash, boot_from_flash=boot_from_flash)
        self.revision = revision.upper()
        if self.revision not in ("A", "B"):
            raise FirmwareError(f"unknown board revision '{revision}' (A or B)")
        if unique_id is not None and len(unique_id) != 8:
            raise FirmwareError(f"a flash chip's unique id is 8 bytes, not {len(unique_id)}")
        self.unique_id = unique_id  # None: flash.mjs's DEFAULT_UNIQUE_ID
        if plugins:
            raise FirmwareError("--plugin is for the unix target: the emulated Pico runs the "
                                "firmware from its flash")
        if heapsize not in (None, "192k"):
            raise FirmwareError("--heapsize is for the unix target: the emulated Pico has "
                                "MicroPython's own heap")
        self.bootrom = bootrom
        self.uf2 = uf2
        # the pin map the board is wired by: revision B's brings its analog front end (the
        # emulator's HallFrontEnd, fed the world's sums in G frames) instead of the 74HC165s
        self.pins = Path(pins or (PINS_REVB if self.revision == "B" else PINS))
        self._tmpdir = None
        self.image = None
        self.emu_ns = 0.0
        self.cycles = 0
        self.status_led = 0
        self.flash_ops: list = []
        self.led_frames: list = []        # every WS2812 frame latched: (start ns, ns, LEDs)
        self.chain_loads: list = []       # ns of every scan: the 74HC165 chain's PL edge
        self.cut_report = None

    # --- process -------------------------------------------------------------------------------
    def _spawn(self):
        try:
            rom, uf2 = find_images()
        except PicoUnavailable as e:
            raise FirmwareError(str(e)) from None
        rom = Path(self.bootrom or rom)
        uf2 = Path(self.uf2 or uf2)
        node = find_node()
        check_rp2040js()
        if self.flash:
            self.image = Path(self.flash)
        else:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="cargoboard-pico-")
            self.image = Path(self._tmpdir.name) / "flash.img"
        try:
            if not self.boot_from_flash:
                fsimage.write_files(self.image, firmware_files(self.revision))
            else:
                self._check_board_rev()
        except fsimage.ImageError as e:
            raise FirmwareError(str(e)) from None
        cmd = [node, str(BOARD_JS), "--bootrom", str(rom), "--uf2", str(uf2),
               "--flash", str(self.image), "--pins", str(self.pins)]
        if self.unique_id is not None:
            cmd += ["--unique-id", bytes(self.unique_id).hex()]
        return cmd, dict(os.environ), str(REPO_ROOT)

    def _check_board_rev(self):
        """A flash booted as it is must hold a build of the revision the chip is wired as: its
        /board_rev (`cargoboard deploy --rev`; none is revision A, as the boot reads it). A
        revision-A build on revision B's wiring would scan a 74HC165 chain that is not there."""
        rev = "A"
        if BOARD_REV in fsimage.listdir(self.image):
            text = fsimage.read_file(self.image, BOARD_REV)[:16]
            rev = text.decode("ascii", "replace").strip().upper() or "A"
        if rev != self.revision:
            raise FirmwareError(f"the flash {self.image} holds a revision-{rev} build (its "
                                f"/{BOARD_REV}), not one for the revision-{self.revision} board "
                                f"it was asked to boot: run it with --rev {rev.lower()}, or "
                                f"deploy --rev {self.revision.lower()} onto it")

    def start(self):
        """Power on, and run the chip until the firmware has booted: its first console output,
        then BOOT_QUIET_MS without any (imports, resuming a game: about a second of emulated
        time, where the unix target is ready at once), at most BOOT_MAX_MS."""
        super().start()
        quiet = 0
        for _ in range(self.BOOT_MAX_MS // FRAME_MS):
            before = len(self.serial_log)
            self.step()
            if len(self.serial_log) != before or not self.serial_log:
                quiet = 0
            else:
                quiet += FRAME_MS
                if quiet >= self.BOOT_QUIET_MS:
                    break
        return self

    def _read_msg(self):
        try:
            return super()._read_msg()
        except FirmwareError as e:
            # The emulator's own complaint (a bad input file) is one line on its stderr.
            if self._stderr_thread is not None:
                self._stderr_thread.join(5)
            err = self.stderr_text().strip()
            if err.startswith("pico: ") and "\n" not in err:
                raise FirmwareError(err[6:]) from None
            raise e

    def stop(self):
        super().stop()
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    # --- messages beyond the unix target's ----------------------------------------------------
    def _message(self, typ, data):
        if typ == ord("D") and len(data) >= 21:
            self.status_led = data[4]
            self.emu_ns, cycles = struct.unpack_from("<dd", data, 5)
            self.cycles = int(cycles)
        elif typ == ord("K"):
            self.chain_loads.append(struct.unpack_from("<d", data, 0)[0])
        elif typ == ord("W"):
            start, duration = struct.unpack_from("<dd", data, 0)
            self.led_frames.append((start, duration, data[16] | data[17] << 8))
        elif typ == ord("P"):
            kind = "program" if data[0] == 0x50 else "erase"
            index, addr, length = struct.unpack_from("<III", data, 1)
            start, = struct.unpack_from("<d", data, 13)
            self.flash_ops.append((kind, index, addr, length, start))
        elif typ == ord("X"):
            at, = struct.unpack_from("<d", data, 0)
            self.cut_report = data[8:].decode(errors="replace")
            self.emu_ns = at
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
            raise PowerCut(f"power cut at {at / 1e6:.3f} ms of emulated time: {self.cut_report}")

    def read_memory(self, address: int, n: int) -> bytes:
        """`n` bytes of the chip's memory from `address` (its SRAM: what lies in the heap), read
        between frames without running the chip."""
        out = bytearray()
        while len(out) < n:
            k = min(n - len(out), 0x8000)
            self._send(ord("R"), struct.pack("<IH", address + len(out), k))
            typ, data = self._read_msg()  # answered at once: nothing else is on its way
            if typ != ord("R") or len(data) != k:
                raise FirmwareError(f"expected {k} bytes of memory, got message {typ:#x}")
            out += data
        return bytes(out)

    # --- serving host tools ---------------------------------------------------------------------
    def advance(self, ms=1):
        """Run the chip `ms` milliseconds (not a whole frame): the inputs as in step()."""
        self._exchange(ord("A"), struct.pack("<I", ms * 1000))
        self.t += ms

    def serve(self, stop=None, idle_s=FRAME_MS / 1000):
        """As Runner.serve, but while serial bytes flow (and for SERVE_BUSY_MS after) the chip
        runs in 1 ms steps instead of 10 ms frames, none waited for: a host tool's request and
        the board's answer then take a millisecond or two of emulated time each, as on a real
        USB link, not a frame (mpremote's raw REPL makes thousands of such round trips for a
        deploy). The frames between keep the wall clock's pace (WallPace): a board that runs
        slower than real time (its CPU busy, or a loaded machine) is never made to wait."""
        pace = WallPace(idle_s)
        busy = 0
        while stop is None or not stop.is_set():
            ready = self._serial_input_within(0 if busy else pace.wait_s())
            if ready or busy:
                before = len(self.serial_log)
                self.advance(1)
                if ready or len(self.serial_log) != before:
                    busy = self.SERVE_BUSY_MS
                else:
                    busy -= 1
                    if not busy:  # the idle frames' pace starts again from here
                        pace = WallPace(idle_s)
            else:
                self.step()
                pace.tick()

    # --- power cuts ------------------------------------------------------------------------------
    def cut_at(self, ns: float):
        """Cut the power when emulated time reaches `ns` (nanoseconds since the emulator
        started; one core cycle is 8 ns)."""
        self._send(ord("C"), struct.pack("<Bd", 0, float(ns)))

    def cut_during_flash_op(self, n: int = 1, fraction: float = 0.5):
        """Cut the power `fraction` of the way through the n-th flash program or erase from
        now (a page program then keeps a prefix of its bytes, an erase a prefix of its range)."""
        self._send(ord("C"), struct.pack("<BId", 1, n, float(fraction)))
