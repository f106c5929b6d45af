"""firmware/bench_frame.py runs under the unix port (192k heap) and ends with the frame_us line."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_frame_paintall(micropython):
    out = micropython(ROOT / "firmware" / "bench_frame.py", args=["paintall", "200"])
    lines = out.strip().splitlines()
    assert re.fullmatch(r"frame_us max=\d+ p95=\d+ mean=\d+ min=\d+ n=200", lines[-1]), out
    assert "alloc_bytes_per_frame=0" in out
