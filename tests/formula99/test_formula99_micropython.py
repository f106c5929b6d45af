"""The «Формула 99» rules core gives the same results under CPython and the MicroPython unix
port with a 192 KiB heap (the Pico budget), with the modules precompiled by mpy-cross as on the
board: seeded whole games in both views and at every level (every legal list, the chosen
action, its 4-byte encoding and the position after it, the scores and winner), and perft
counts. The games' chooser favours cards and charges so that short games reach every event."""

import tempfile
from pathlib import Path

import pytest

import mpy
from cargoboard import build

DRIVER = mpy.REPO_ROOT / "tests" / "formula99" / "driver_formula99.py"
KIT = [mpy.TESTS_DIR]  # where the driver finds driverkit.py

GAMES = (["p%d:%d:%d:%d:p:160" % (i, 11 + 7919 * i, 2 + i % 8, 1 + i % 3) for i in range(6)]
         + ["f%d:%d:%d:%d:f:160" % (i, 13 + 104729 * i, 2 + (i * 3) % 8, 1 + i % 3)
            for i in range(6)])


@pytest.fixture(scope="module")
def compiled():
    """shared_rules compiled by mpy-cross (subpackages included), as the board loads it."""
    with tempfile.TemporaryDirectory(prefix="f99-mpy-") as tmp:
        sources = sorted(p.relative_to(mpy.REPO_ROOT).as_posix()
                         for p in (mpy.REPO_ROOT / "shared_rules").rglob("*.py")
                         if "__pycache__" not in p.parts)
        build.build(tmp, sources=sources)
        yield tmp


def test_same_games_on_cpython_and_micropython(micropython, compiled):
    args = ["games", *GAMES]
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=300,
                     path=[compiled, *KIT]).splitlines()
    assert cp == mp, mpy.first_difference(cp, mp)
    ends = [line.split() for line in cp if line.startswith("E ")]
    assert [e[1] for e in ends] == [g.split(":")[0] for g in GAMES]
    # the games reach the cards' uses and events (the chooser favours them)
    played = " ".join(line.split(" | ")[2] for line in cp if line.startswith("S "))
    for word in (":brake", ":dash", ":ram:", ":sac:", "lay:", "block:", "lift:", "go:", "="):
        assert word in played, word


PERFT = [
    ("4", "start 2 1"),
    ("3", "start 4 2"),
    ("3", "start 3 3 seed"),
]


def test_same_perft_on_cpython_and_micropython(micropython, compiled):
    from shared_rules.formula99 import rules as R
    args = ["perft"]
    for depth, spec in PERFT:
        words = spec.split()
        seed = 7 if words[-1] == "seed" else None
        args += [depth, R.start_position(int(words[1]), int(words[2]), seed).notation()]
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=300,
                     path=[compiled, *KIT]).splitlines()
    assert mp == cp
    counts = [int(line.split()[3]) for line in cp]
    assert counts[:2] == [1644, 37760]  # the start perfts of docs/rules/formula99.md §11.1
