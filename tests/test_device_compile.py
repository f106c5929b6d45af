"""Every device-side module must compile with mpy-cross; shared_rules must import on MicroPython."""

from pathlib import Path

import pytest

from cargoboard.build import RP2040_ONLY
from mpy import REPO_ROOT

DEVICE_DIRS = ("shared_rules", "firmware")


def _py_files(*dirs):
    files = []
    for d in dirs:
        for p in sorted((REPO_ROOT / d).rglob("*.py")):
            if "__pycache__" not in p.parts:
                files.append(p)
    return files


def _module_name(p: Path) -> str:
    parts = list(p.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


DEVICE_FILES = _py_files(*DEVICE_DIRS)
SHARED_MODULES = [_module_name(p) for p in _py_files("shared_rules")]


@pytest.mark.parametrize(
    "path", DEVICE_FILES, ids=[str(p.relative_to(REPO_ROOT)) for p in DEVICE_FILES]
)
def test_mpy_cross_compiles(mpy_cross, path):
    # the RP2040's own modules hold viper code, compiled for its Cortex-M0+ as the build does
    assert mpy_cross(path, extra_args=RP2040_ONLY.get(path.relative_to(REPO_ROOT).as_posix(), ()))


@pytest.mark.parametrize("module", SHARED_MODULES)
def test_shared_rules_imports_on_micropython(micropython, module):
    out = micropython(f"import {module}\nprint('imported', {module!r})\n", heapsize="192k")
    assert out.strip().endswith(f"imported {module}")
