"""Revision B's device code on the MicroPython unix port (192 KiB heap) and on CPython, fed the
same inputs (tests/driver_revb.py): the HAL's logic from ADC sums to fields and occupancy, the
level scanner's baseline and steps, and the Cargocube step predictions must agree exactly, and
say what they should."""

import re

import pytest

import mpy
from shared_rules.cargocube import rules as cc

DRIVER = mpy.REPO_ROOT / "tests" / "driver_revb.py"


@pytest.mark.parametrize("what", ["hall", "levels", "predict"])
def test_same_on_cpython_and_micropython(micropython, what):
    cp = mpy.run_cpython(DRIVER, [what])
    mp = micropython(DRIVER, args=[what], heapsize="192k", timeout=120)
    assert cp == mp, mpy.first_difference(cp, mp)
    assert len(cp.splitlines()) >= 5


def test_hall_logic_deadband_hysteresis_and_reference():
    out = mpy.run_cpython(DRIVER, ["hall"]).splitlines()
    frames = [dict(kv.split("=") for kv in line.split()[2:]) for line in out if line.startswith("F ")]
    # ADC jitter within the deadband converts nothing after the first scan
    assert frames[0]["converted"] == "121" and all(f["converted"] == "0" for f in frames[1:6])
    occ = [bytes.fromhex(f["occ"]) for f in frames]
    bit = lambda b, c: (b[c >> 3] >> (c & 7)) & 1
    assert bit(occ[6], 5) == 1 and int(frames[6]["l5"]) == 322      # 3.22 mT: occupied
    assert bit(occ[6], 6) == 0 and int(frames[6]["l6"]) == 269      # 2.69 mT: empty
    assert bit(occ[9], 5) == 0 and int(frames[9]["l5"]) == 278      # released under 2.80 mT
    # the mid-supply reference moved: every cell is converted again, the fields follow it
    assert frames[9]["converted"] == "121" and int(frames[11]["l0"]) < int(frames[8]["l0"])


def test_level_scanner_reports_held_steps_only():
    out = mpy.run_cpython(DRIVER, ["levels"])
    assert "t=40 version=2 steps=[(3, 43)]" in out       # held for 30 ms: a step of 0.43 mT
    assert "(7," not in out.split("cells")[0]            # a 20 ms dip is no step
    assert "cells [3] pending 0 step3 43 step9 3" in out  # 0.03 mT is not reported
    assert "explained [4] 743 692 8" in out              # explained: moved by the change
    assert "shifted [3, 4] 43" in out                    # a take-back: back to the old level
    assert "rebased [] 0 0" in out


def test_predictions_are_plain_data_of_every_action():
    out = mpy.run_cpython(DRIVER, ["predict"]).splitlines()
    assert out[0].startswith("diag ") and len(out[0]) == 5 + cc.TELEPORT + 1
    rows = out[1:]
    assert len(rows) > 120
    # a keeper step onto a card cell: a card's field under it is no step, the keeper's is
    assert any(re.search(r" K[nesw] .*\(\d+, 5\d\d\)", r) for r in rows)
