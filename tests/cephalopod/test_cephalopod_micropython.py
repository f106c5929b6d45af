"""The Cephalopod rules core and engine give the same results under CPython and the MicroPython
unix port with a 192 KiB heap (the Pico budget): seeded whole games on every board size (every
legal list, the chosen action, its encoding and the position after it, the scores and winner),
games where white follows the engine, and perft counts."""

import mpy

DRIVER = mpy.REPO_ROOT / "tests" / "cephalopod" / "driver_cephalopod.py"
KIT = [mpy.TESTS_DIR]  # where the driver finds driverkit.py


def run_cpython(args):
    return mpy.run_cpython(DRIVER, args, path=KIT)


GAMES = (["r%d:%d:5:5:0" % (i, 11 + 7919 * i) for i in range(8)]
         + ["s%d:%d:3:5:0" % (i, 13 + 104729 * i) for i in range(4)]
         + ["t%d:%d:5:3:0" % (i, 17 + 31 * i) for i in range(2)]
         + ["q%d:%d:3:3:0" % (i, 19 + 131 * i) for i in range(4)]
         + ["e1:%d:5:5:1" % 23, "e2:%d:5:5:2" % 29, "e3:%d:3:5:2" % 31])


def test_same_games_on_cpython_and_micropython(micropython):
    args = ["games", *GAMES]
    cp = run_cpython(args).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=120, path=KIT).splitlines()
    assert cp == mp, mpy.first_difference(cp, mp)
    ends = [line.split() for line in cp if line.startswith("E ")]
    assert [e[1] for e in ends] == [g.split(":")[0] for g in GAMES]
    for e in ends:
        w, b = (int(v) for v in e[3].split(","))
        assert e[4] == ("w" if w > b else "b")
    # The engine (white in e1..e3) beats the LCG player in these games.
    assert all(e[4] == "w" for e in ends if e[1].startswith("e"))


PERFT = [
    ("5", ".../.../... w"),
    ("4", "...../...../..... w"),
    ("3", "...../...../...../...../..... w"),
    ("3", ".w1./b1.b1/.w1. w"),
    ("3", "w1..b2./.b1.w1./w2...b3/b1..w1./..w1.. b"),
]


def test_same_perft_on_cpython_and_micropython(micropython):
    args = ["perft"]
    for depth, text in PERFT:
        args += [depth, text]
    cp = run_cpython(args).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=120, path=KIT).splitlines()
    assert mp == cp
    counts = [int(line.split()[3]) for line in cp]
    assert counts[:3] == [21096, 33304, 13800]  # the start perfts of test_cephalopod_rulings
