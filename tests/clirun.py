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
