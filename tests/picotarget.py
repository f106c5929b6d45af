"""The emulated Pico target in tests: `require_pico()` skips (with the reason printed) where the
boot ROM and the MicroPython image are not there (CI has ../shared/pico). Node.js and rp2040js
are installed by `make`, so a test that finds them missing fails instead. `SimProcess`: either
target's `cargoboard sim --pty` in its own process, `console` a line typed at its text
console, `one_game` a game begun and dropped there; `run_on_chip` a script run on the emulated
RP2040 beside the board's build."""

import signal
import subprocess
import time
from pathlib import Path

import pytest

from cargoboard.sim.pico.images import PicoUnavailable, find_images

TARGETS = ("unix", "pico")


def require_pico():
    try:
        find_images()
    except PicoUnavailable as e:
        pytest.skip("emulated Pico: %s" % e)


def require(target):
    if target == "pico":
        require_pico()


ROOT = Path(__file__).resolve().parent.parent


def scanning(session, most_ms=3000):
    """A Session's board once its frame loop scans the sensors (`evt state idle`): at once on
    the unix port; the emulated Pico's boot sets up its boot game first (~0.6 s of emulated
    time after its console is up). Returns the session."""
    for _ in range(most_ms // 10):
        if "evt state idle" in session.events:
            break
        session.step(1)
    return session


def run_on_chip(tmp, main, files=(), revision="A", most_ms=60000):
    """main (bytes) run as main.py on the emulated RP2040, with the board's own build for
    revision beside it (its main.py left out) and files ((board path, bytes)) on its flash;
    what it printed on the serial line once it says "done" or an Error, or most_ms of emulated
    time have passed. tmp: a folder for the build and the flash image."""
    from cargoboard.build import stage
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PicoRunner
    require_pico()
    built = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(Path(tmp) / "build", "rp2",
                                                                  revision) if bp != "main.py"]
    image = Path(tmp) / "flash.img"
    fsimage.write_files(image, built + list(files) + [("main.py", main)])
    text = ""
    with PicoRunner(flash=image, boot_from_flash=True, revision=revision) as runner:
        for _ in range(most_ms // 10):
            text = bytes(runner.serial_log).decode(errors="replace")
            if "done" in text or "Error" in text:
                break
            runner.step(10)
    return text


class SimProcess:
    """`cargoboard sim --target TARGET --pty PATH [--flash DIR] [--script FILE]` in its own
    process, as a user starts it, until stopped (the emulated Pico by default)."""

    def __init__(self, pty, flash=None, target="pico", script=None):
        from clirun import cargoboard_exe
        self.path = pty
        argv = [cargoboard_exe(), "sim", "--target", target, "--pty", str(pty)]
        if flash:
            argv += ["--flash", str(flash)]
        if script:
            argv += ["--script", str(script)]
        self.proc = subprocess.Popen(argv, cwd=str(ROOT), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        while line and not line.startswith("serving the virtual board on"):
            line = self.proc.stdout.readline()
        assert line.startswith("serving the virtual board on %s" % pty), (
            line, self.proc.stderr.read() if self.proc.poll() is not None else "")

    def stop(self, sig=signal.SIGTERM):
        """Send sig if it still runs and wait for its end; stopped by SIGTERM (a user's stop)
        it must exit 0 with nothing on stderr. Once stopped, nothing more."""
        if self.proc.stdout.closed:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(60)
        err = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        if sig == signal.SIGTERM:
            assert self.proc.returncode == 0 and err == "", (self.proc.returncode, err)


def console(port, line, timeout=60.0):
    """One line typed at the board's text console over its pty (no frame, so no HELLO): its
    final `ok`/`err` line."""
    import serial
    with serial.Serial(str(port), 115200, timeout=0.1) as ser:
        ser.write(line.encode() + b"\n")
        ser.flush()
        got = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got += ser.read(4096)
            for reply in got.split(b"\n"):
                reply = reply.strip().decode(errors="replace")
                if reply.startswith(("ok", "err")):
                    return reply
    raise AssertionError("no reply to %r: %r" % (line, got))


def one_game(port):
    """A Cephalopod game begun and dropped at the console: its log (begun at once on the empty
    board) is closed, for a sync to store."""
    assert console(port, "new cephalopod 3x3") == "ok started"
    assert console(port, "abort") == "ok"
