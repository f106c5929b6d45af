"""The `cargoboard` console script as the tests of every game run it: from the venv's bin/, in
the repo root, its exit status checked."""

import os
import subprocess
import sys
from pathlib import Path

import mpy


def cargoboard_exe():
    exe = Path(sys.executable).parent / "cargoboard"
    assert exe.is_file() and os.access(exe, os.X_OK), (
        "console script %s missing: install the project (`make venv`)" % exe)
    return str(exe)


def run(*args, check_rc=0):
    proc = subprocess.run([cargoboard_exe(), *args], cwd=str(mpy.REPO_ROOT),
                          capture_output=True, text=True, timeout=120)
    if check_rc is not None:
        assert proc.returncode == check_rc, (proc.returncode, proc.stdout, proc.stderr)
    return proc


def serving_sim(pty, *args):
    """`cargoboard sim --pty PTY ARGS` started and serving (its link made): the Popen, its
    stdout and stderr piped. The firmware's build is made in the cache first, as the sim's:
    the wait for the link is for the sim, not for a build (a cold cache's took longer)."""
    import time
    from cargoboard.build import cached_build
    cached_build()
    sim = subprocess.Popen([cargoboard_exe(), "sim", *args, "--pty", str(pty)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(300):
        if Path(pty).is_symlink() or sim.poll() is not None:
            break
        time.sleep(0.05)
    if not Path(pty).is_symlink():
        sim.kill()
        raise AssertionError(("the sim never served", sim.communicate(timeout=5)))
    return sim
