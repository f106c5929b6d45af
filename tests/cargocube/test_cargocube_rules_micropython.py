"""The rules core gives the same results under CPython and the MicroPython unix port (192 KiB heap).

Both interpreters run tests/cargocube/driver_random_games.py: the same seeded random games (a tiny LCG picks
the action, so no `random` module differences), one line per action with the whole legal list, the
chosen action, its binary encoding and the position after it; then the final scores and winners.
Perft counts on several positions are compared too. Outputs are compared game by game (by hash,
with the first differing line shown on a mismatch).
"""

import hashlib

import pytest

import mpy

DRIVER = mpy.REPO_ROOT / "tests" / "cargocube" / "driver_random_games.py"
CAP = 400


def run_cpython(args):
    return mpy.run_cpython(DRIVER, args)


def split_games(out):
    """{gid: [lines]} from the driver's `games` output."""
    games = {}
    current = None
    for line in out.splitlines():
        if line.startswith("G "):
            current = line.split()[1]
            games[current] = []
        assert current is not None, line
        games[current].append(line)
    return games


def digest(lines):
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


GAME_SETS = {
    # 2 and 4 players with cards (the brief), 3 players without cards as an extra.
    "2p-cards": ["g2c%d:%d:2:1" % (i, 1 + 7919 * i) for i in range(12)],
    "4p-cards": ["g4c%d:%d:4:1" % (i, 3 + 104729 * i) for i in range(12)],
    "3p-plain": ["g3p%d:%d:3:0" % (i, 5 + 31337 * i) for i in range(4)],
    # The expansions, each alone and both, with and without the walking teleport; 8 players.
    "expansions": ["gx%d:%d:%d:%s" % (i, 7 + 7727 * i, (2, 4, 8)[i % 3],
                                      ("pyramid", "bastion", "both")[i % 3] + ("+t" * (i % 2)))
                   for i in range(9)],
}


@pytest.mark.parametrize("name", list(GAME_SETS))
def test_same_random_games_on_cpython_and_micropython(micropython, name, record_property):
    specs = GAME_SETS[name]
    args = ["games", str(CAP), *specs]
    cp = split_games(run_cpython(args))
    mp = split_games(micropython(DRIVER, args=args, heapsize="192k", timeout=120))
    assert list(cp) == [s.split(":")[0] for s in specs]
    assert list(mp) == list(cp)
    natural = 0
    lengths = []
    for gid in cp:
        a, b = cp[gid], mp[gid]
        assert digest(a) == digest(b), "game %s differs at %s" % (gid, mpy.first_difference(a, b))
        end = a[-1].split()
        assert end[0] == "E" and end[1] == gid
        steps = int(end[2])
        assert len(a) == steps + 3  # G, start position, one S line per action, E
        lengths.append(steps)
        natural += end[3] == "natural"
        # The final scores and winners are in the compared E line; sanity-check them here.
        scores = [int(v) for v in end[4].split(",")]
        assert all(0 <= v <= 36 for v in scores)
        assert len(scores) == (8 if ":8:" in next(s for s in specs if s.startswith(gid + ":"))
                               else 4)
        if end[3] == "natural":
            assert len(end) == 6 and end[5]
    report = "%s: %d games, %d ended naturally, actions per game %d..%d" % (
        name, len(cp), natural, min(lengths), max(lengths))
    print(report)
    record_property("natural_ends", report)
    # Random play ends on its own long before the cap (no B-up cube left to activate).
    assert natural >= len(cp) * 3 // 4, report


PERFT_SPECS = [
    ("2", "polygon:2:1"),
    ("3", "polygon:4:0"),
    ("2", "polygon:3:1"),
    ("3", "d4=21.1O,e4=*wS,f4=*wN SN S 2"),
    ("3", "d4=21.21.1O,e4=*aS.21,f4=21.21 SN S 2"),
    ("3", "b2=*wS,c2=21.1O,c3=B1,f5=KS,d6=*aW.KW SWNE S 3"),
    ("3", "e6=21.1O,f6=KN,f1=41.41,e5=*sN.B1,f11=21 SN S 2"),
    ("2", "game:11:2:1:40"),
    ("2", "game:12:4:1:77"),
    ("3", "game:13:3:0:50"),
    ("2", "game:14:4:1:120"),
    ("2", "polygon:2:both+t"),
    ("2", "polygon:8:pyramid"),
    ("2", "game:15:2:both+t:60"),
    ("2", "game:16:4:bastion:90"),
    ("2", "game:17:8:both:70"),
]


def test_same_perft_counts_on_cpython_and_micropython(micropython):
    args = ["perft"]
    for depth, spec in PERFT_SPECS:
        args += [depth, spec]
    cp = run_cpython(args).splitlines()
    mp = micropython(DRIVER, args=args, heapsize="192k", timeout=120).splitlines()
    assert len(cp) == len(PERFT_SPECS)
    assert mp == cp
    counts = [int(line.split()[3]) for line in cp]
    assert all(n > 0 for n in counts[:7]), cp
    # Worked out by hand: test_cargocube_rules_rulings.py; tests/cargocube/cargocube_expansion_cases.py (HAND_PERFT)
    # explains the terms: the base 1,120, 6,520 per usable card, the sacrifice (160) and the
    # biohazard (3) of «Бастион», 640 teleport moves; with 8 players seat 1 may use 3 cards of
    # «Пирамида» (its springboard on g1 is under its keeper).
    assert counts[0] == 40240
    assert counts[11] == 1120 + 6 * 6520 + 160 + 3 + 640
    assert counts[12] == 1120 + 3 * 6520



RESERVE_MIDWAY = """
from shared_rules.cargocube import rules as cc
pos = cc.start_position(4, cards=True)
print(pos.notation())
seed = 12345
for i in range(60):
    if i == 30:
        pos.reserve(150)  # in mid-game: the record so far must be carried over
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    acts = pos.legal_actions()
    pos.push(acts[seed % len(acts)])
    if pos.is_over():
        pos.pop()
print(pos.ply())
print(pos.notation())
while pos.ply():
    pos.pop()
print(pos.notation())
"""


def test_reserve_in_mid_game_keeps_the_undo_record(micropython, tmp_path):
    """pos.reserve() moves the undo record to a larger buffer: the actions pushed before it
    still pop back to the start, on MicroPython as on CPython."""
    script = tmp_path / "reserve_midway.py"
    script.write_text(RESERVE_MIDWAY)
    mp = micropython(script, heapsize="192k").split("\n")
    cp = mpy.run_cpython(script).split("\n")
    assert int(mp[1]) > 30, mp
    assert mp[3] == mp[0], mp  # back at the start
    assert mp[:4] == cp[:4]


EIGHT_HOPS = """
from shared_rules.cargocube import rules as cc
pos = cc.Position.parse("g1=K1,c3=*s1.B1,c4=*w1,d4=*w2,e4=*w3,f4=*w4,g4=*w5,h4=*w6,i4=*w7,"
                        "j4=*w8 12345678 1 3")
a = pos.parse_action("c3n/d4/e4/f4/g4/h4/i4/j4/j5")
code = cc.encode_action(a)
print("".join(["%02x" % b for b in code]))
print(cc.decode_action(pos, code, 0) == (a, len(code)))
"""


def test_eight_hops_encode_alike_on_micropython(micropython, tmp_path):
    """The roll over 8 wind roses (8 hops, the count's high bits in bits 1-0 of the word)
    encodes and decodes on the board's interpreter as on CPython."""
    script = tmp_path / "eight_hops.py"
    script.write_text(EIGHT_HOPS)
    mp = micropython(script, heapsize="192k").split()
    assert mp == ["0c012425262728292a35", "True"]
    assert mpy.run_cpython(script).split() == mp
