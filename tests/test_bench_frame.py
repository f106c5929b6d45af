"""firmware/bench_frame.py runs under the unix port (192k heap) and ends with the frame_us line."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_frame_paintall(micropython):
    out = micropython(ROOT / "firmware" / "bench_frame.py", args=["paintall", "200"])
    lines = out.strip().splitlines()
    assert re.fullmatch(r"frame_us max=\d+ p95=\d+ mean=\d+ min=\d+ n=200", lines[-1]), out
    assert "alloc_bytes_per_frame=0" in out


def test_bench_frame_cargocube_midgame():
    """bench/frame.py: the busy mid-game Cargocube position (modules precompiled as on the
    board), steady frames allocate nothing, lift figures printed. No timing assertions."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "frame.py"), "cargocube", "300"],
                          capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "game=cargocube " in out, out
    assert "alloc_bytes_per_frame=0" in out, out
    assert re.search(r"^lift_us max=\d+ p95=\d+ mean=\d+ min=\d+ n=32$", out, re.M), out
    assert "steady renders=0 " in out, out   # nothing changes: nothing is rendered again
    assert re.search(r"^frame_us max=\d+ p95=\d+ mean=\d+ min=\d+ n=300$", out, re.M), out
    assert "x target" in out.splitlines()[-1], out
