"""Self-checks of the reference rules (tests/cargocube/ruleref.py) against facts stated on the
rulings page /work/shared/rules/cargocube-rulings.md: the base game here, the expansions and
variants from the hand-built table tests/cargocube/cargocube_expansion_cases.py."""

import pytest

import cargocube_expansion_cases as X
import ruleref as r

POLYGON_2P = r.polygon_start("SN")


def cube_at(state, cell):
    item = state["stacks"][r.parse_cell(cell)][-1]
    assert item[0] == "C"
    return r.ORIENT_NAME[item[1]]


# ---------------------------------------------------------------- orientation


def test_start_orientation_faces():
    up, down, n, e, s, w = r.NAME_ORIENT["B1"]
    assert (up, down, n, e, s, w) == ("B", "O", "3", "4", "1", "2")


def test_24_orientations_and_impossible_names():
    assert len(r.ORIENTATIONS) == 24
    for bad in ("13", "31", "24", "42", "BO", "OB", "11"):
        assert bad not in r.NAME_ORIENT
        with pytest.raises(ValueError):
            r.parse("e5=%s SN S a" % bad)


def test_opposite_pairs_hold_in_every_orientation():
    for o in r.ORIENTATIONS:
        up, down, n, e, s, w = o
        assert r.OPPOSITE_FACE[up] == down
        assert r.OPPOSITE_FACE[n] == s
        assert r.OPPOSITE_FACE[e] == w


def test_chirality_b_up_clockwise_from_above():
    # With B on top the pips run 1,2,3,4 clockwise seen from above (S -> W -> N -> E is clockwise).
    for o in r.ORIENTATIONS:
        if o[0] == "B":
            ring = [o[4], o[5], o[2], o[3]]  # s, w, n, e: clockwise seen from above
            k = ring.index("1")
            assert ring[k:] + ring[:k] == ["1", "2", "3", "4"]


def test_roll_rule_and_four_rolls_restore():
    b1 = r.NAME_ORIENT["B1"]
    # roll north: face toward north (3) goes down, B faces north, O faces south, 1 comes up
    assert r.roll_orientation(b1, "n") == ("1", "3", "B", "4", "O", "2")
    for o in r.ORIENTATIONS:
        for d in "nesw":
            x = o
            for _ in range(4):
                x = r.roll_orientation(x, d)
            assert x == o


def test_activation_toward_face_2_gives_4():
    # B1: face 2 points west.  Rolling toward it puts 2 down and 4 up: 4 actions.
    s = r.parse("e5=B1,f1=KS,f11=KN SN S a")
    t = r.play(s, "e5w")
    assert cube_at(t, "d5")[0] == "4"
    assert t["stacks"][r.parse_cell("d5")][-1][1][1] == "2"  # 2 down
    assert t["actions"] == 4 and t["to_move"] == "S"
    # the cube is now a bridge (level 0, grey, no card, O not down): it cannot be rolled
    assert not any(a.startswith("d5") for a in r.legal(t))


# ---------------------------------------------------------------- Polygon start


def test_polygon_start():
    s = r.parse(POLYGON_2P)
    assert r.fmt(s) == POLYGON_2P
    cubes = {c: st for c, st in s["stacks"].items() if st[-1][0] == "C"}
    assert len(cubes) == 40
    for (x, y), st in cubes.items():
        assert max(abs(x - 5), abs(y - 5)) in (2, 3)
        assert st == (("C", r.NAME_ORIENT["B1"]),)
    assert s["stacks"][r.parse_cell("f1")] == (("K", "S"),)
    assert s["stacks"][r.parse_cell("f11")] == (("K", "N"),)
    assert s["to_move"] == "S" and s["actions"] is None and not s["booster"]
    assert r.scores(s) == {"S": 0, "N": 0}
    assert not r.is_over(s)


def test_perft_polygon_2p_hand_count():
    # Depth 1: S must activate.  Every cube is B1, level 0, grey, no card, O down -> resting, all
    # 40 activatable.  No cube is orthogonally adjacent to f6 (its neighbours are at Chebyshev
    # distance 1, the cubes at 2 and 3), no cube is next to a terminal (outer ring c3..i9, terminals
    # beyond b2..j10), every stack has height <= 1 <= 0 + 1: all 4 directions are legal.
    # 40 * 4 = 160.
    s = r.parse(POLYGON_2P)
    assert r.perft(s, 1) == 160
    # Depth 2: after the activation S has keeper steps f1->f2, e1, g1 (3) and `end` (1).  A cube
    # rolled onto an empty cell is a bridge (a side face is down); a cube rolled onto a neighbouring
    # cube is free at level 1 and may roll in all 4 directions (+4).  Directed orthogonal
    # adjacencies inside the 7x7 square minus the 3x3 hole: (84 - 24) * 2 = 120.
    # 160 * 4 + 120 * 4 = 1120.
    assert r.perft(s, 2) == 1120


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize("bad", [
    "e5=B1 SN S 2x", "e5=B1 SN S ax", "b1=*=S SN S a", "e5=*hS SN S a", "e5=*vS SN S a",
    "e5=B1.!S.B1 SN S a", "e5=KS.!N SN S a", "e5=B1.XS SN S a", "e5=KS.XS SN S a",
    "e5=T.T SN S a", "e5=T,e6=T SN S a", "f1=T SN S a", "e5=KN.T SN S a", "e5=T.B1 SN S a",
    "e5=*xS.B1 SN S a", "f1=*s1 12345678 1 a", "b1=*s1 12345678 1 a", "b1=K1 12345678 1 a",
    "e5=B1 SWNE1 S a", "e5=B1 12345678 S a",
    "a1=B1 SN S a", "a5=B1 SN S a", "e5=B1 SE S a", "e5=B1 SN W a",
    "e5=B1 SN S 0", "e5=B1 SN S 5", "e5=B1 SN S ab", "e5=B1.*sS SN S a", "f6=*wS SN S a",
    "b1=*sN SN S a", "e5=KS.KS SN S a", "e5=B1 SN S 4bx",
])
def test_parse_rejects(bad):
    with pytest.raises(ValueError):
        r.parse(bad)


def test_parse_any_order_and_canonical():
    s = r.parse("f11=KN,e4=B1,d4=B1,f1=KS SN S 2b")
    assert r.fmt(s) == "f1=KS,d4=B1,e4=B1,f11=KN SN S 2b"
    assert r.fmt(r.parse("- SN S a")) == "- SN S a"
    assert r.is_over(r.parse("- SN S a"))  # no activation possible


# ---------------------------------------------------------------- statuses, climb, portals


def test_frozen_on_foreign_keeper_free_on_own():
    s = r.parse("d5=KN.B1,e7=KS.B1 SN S 1")
    acts = r.legal(s)
    assert not any(a.startswith("d5") for a in acts)  # on N's keeper: frozen for S
    assert "e7n" in acts                                 # on own keeper: free
    # and activation of the d5 cube is not allowed either
    s2 = r.parse("d5=KN.B1,f1=KS,a6=KW SWN S a")
    assert r.legal(s2) == []
    assert r.is_over(s2)


def test_climb_limit_and_springboard():
    # free cube at level 0 on a springboard may climb onto a height-3 stack; without it, not.
    base = "e5=%sB2,f5=B1.B1.B1,f1=KS,f11=KN SN S 2"
    assert "e5e" in r.legal(r.parse(base % "*sS."))
    s = r.parse("e5=B1.B2,f5=B1.B1.B1,f1=KS,f11=KN SN S 2")
    assert "e5e" not in r.legal(s)  # level 1 -> height 3 > 2
    # a springboard still in a terminal gives nothing
    s = r.parse("b1=*sS.KS,b2=B1.B1,f11=KN SN S 2")
    assert "Kn" not in r.legal(s)


def test_teleport_to_own_exit_portal():
    s = r.parse("e6=B1.B1,f6=KN,f1=KS.3O,a6=KW SWN S 2")
    t = r.play(s, "e6e")
    assert cube_at(t, "f1") == r.ORIENT_NAME[r.roll_orientation(r.NAME_ORIENT["B1"], "e")]
    assert len(t["stacks"][r.parse_cell("f1")]) == 3
    assert t["stacks"][r.parse_cell("f6")] == (("K", "N"),)
    # activation may not end on f6
    s = r.parse("e6=B1,f1=KS,f11=KN SN S a")
    assert "e6e" not in r.legal(s)


def test_wind_rose_hops_and_activation_restrictions():
    # activation onto a wind rose on b2: targets in terminals are not offered during activation
    s = r.parse("b2=*wS,c2=B1,f1=KS,f11=KN SN S a")
    hops = sorted(a for a in r.legal(s) if a.startswith("c2w"))
    assert hops == ["c2w/b3", "c2w/c2", "c2w/c3"]
    # as an action roll the own terminal is allowed, W's terminal never, N's seat not in play
    s = r.parse("b2=*wS,c2=B1.B1,f1=KS,f11=KN SN S 2")
    hops = sorted(a for a in r.legal(s) if a.startswith("c2w"))
    assert hops == ["c2w/b1", "c2w/b3", "c2w/c1", "c2w/c2", "c2w/c3"]


def test_acceleration_slides_only_after_roll():
    s = r.parse("d5=*aS,c5=B1.B1,f1=KS,f11=KN SN S 2")
    t = r.play(s, "c5e")
    assert r.parse_cell("e5") in t["stacks"] and r.parse_cell("d5") not in t["stacks"]
    # slide blocked by the climb limit: stays on the acceleration
    s = r.parse("d5=*aS,c5=B1.B1,e5=B1.B1,f1=KS,f11=KN SN S 2")
    t = r.play(s, "c5e")
    assert len(t["stacks"][r.parse_cell("d5")]) == 1


def test_booster_use():
    s = r.parse("b1=*sS,c1=*wS.B1,e5=B1.B1,f1=KS,f11=KN SN S 2")
    acts = r.legal(s)
    boosters = [a for a in acts if "@" in a]
    assert all(a.startswith("b1@") for a in boosters)  # c1's card has a cube on it
    assert len(boosters) == 81 - 2                       # not f6, not e5
    t = r.play(s, "b1@d5")
    assert r.fmt(t).endswith("S 1b") and not any("@" in a for a in r.legal(t))
    assert r.fmt(r.parse(r.fmt(t))) == r.fmt(t)
    assert r.legal(r.parse("b1=*sS,e5=B1,f1=KS,f11=KN SN S a")) == ["e5n", "e5e", "e5s", "e5w"]


def test_turn_passing_and_scores_and_end_at_36():
    s = r.parse("e5=B1.B1,f1=KS,f11=KN SN S 1")
    t = r.play(s, "Kn")
    assert t["to_move"] == "N" and t["actions"] is None
    t = r.play(s, "end")
    assert t["to_move"] == "N" and t["actions"] is None
    # eight terminal cells with 4 up: 32
    cells = ",".join("%s1=4B" % c for c in "bcdeghij")
    s = r.parse(cells + ",f1=KS,f2=B1.B1,f11=KN,e6=B1 SN S 2")
    assert r.scores(s) == {"S": 32, "N": 0}
    # f2's top cube B1 rolled south onto KS at f1: 3 comes up -> 35, not over
    t = r.play(s, "f2s")
    assert r.scores(t)["S"] == 35 and not r.is_over(t)
    s = r.parse(cells + ",f1=4B,f11=KN,e6=B1 SN N a")
    assert r.scores(s)["S"] == 36 and r.is_over(s) and r.legal(s) == []
    assert r.perft(s, 0) == 1 and r.perft(s, 2) == 0


# ---------------------------------------------------------------- expansions and variants


@pytest.mark.parametrize("case", X.CASES, ids=[c["name"] for c in X.CASES])
def test_expansion_rulings(case):
    state = r.parse(case["pos"])
    acts = set(r.legal(state))
    if "legal" in case:
        assert acts == case["legal"]
    assert case.get("has", set()) <= acts
    assert not (case.get("lacks", set()) & acts)
    if "scores" in case:
        assert r.scores(state) == case["scores"]
    for action, after in case.get("play", ()):
        state = r.play(state, action)
        assert r.fmt(state) == after


@pytest.mark.parametrize("players,layout,teleport,depth,count", X.HAND_PERFT)
def test_expansion_starts_hand_counts(players, layout, teleport, depth, count):
    seats = {2: "SN", 4: "SWNE", 8: "12345678"}[players]
    state = r.parse(r.polygon_start(seats, layout=layout, teleport=teleport))
    assert r.perft(state, depth) == count


def test_default_layouts_of_the_rulings():
    # «Пирамида» b1 u, c1 s, d1 w, e1 s, g1 s, h1 a, i1 c, j1 p; «Бастион» the same with x on b1
    # and h, v on i1, j1; both: u c w p x a h v on b1..j1 without f1. Turned for W: b1 -> a10.
    text = r.polygon_start("SWNE", layout="both")
    s = r.parse(text)
    assert [s["cards"][(x, 0)][0] for x in (1, 2, 3, 4, 6, 7, 8, 9)] == list("ucwpxahv")
    assert s["cards"][(0, 9)] == ("u", "W") and s["cards"][(9, 10)] == ("u", "N")
    assert s["cards"][(10, 1)] == ("u", "E")
    pyr = r.parse(r.polygon_start("SN", layout="pyramid"))
    assert [pyr["cards"][(x, 0)][0] for x in (1, 2, 3, 4, 6, 7, 8, 9)] == list("uswssacp")
    bas = r.parse(r.polygon_start("SN", layout="bastion"))
    assert [bas["cards"][(x, 0)][0] for x in (1, 2, 3, 4, 6, 7, 8, 9)] == list("xswssahv")


def test_turning_keeps_chirality_and_four_turns_restore():
    for o in r.ORIENTATIONS:
        assert r.turn_orientation(o, True) in r.ORIENTATIONS
        assert r.turn_orientation(r.turn_orientation(o, True), False) == o
        x = o
        for _ in range(4):
            x = r.turn_orientation(x, True)
        assert x == o
    assert r.ORIENT_NAME[r.turn_orientation(r.NAME_ORIENT["B1"], True)] == "B4"


def test_eight_players_seats_and_halves():
    s = r.parse(r.polygon_start("12345678"))
    assert s["to_move"] == "1"
    halves = [c for seat in r.EIGHT for c in r.HALF[seat]]
    assert len(halves) == len(set(halves)) == 32
    terminal = [c for c in r._all_cells() if r.side_of(c) is not None]
    assert sorted(set(terminal) - set(halves)) == sorted(r.SIDE_EXIT.values())
    assert r.scores(s) == {seat: 0 for seat in r.EIGHT}
    t = r.play(r.play(s, "e3n"), "end")
    assert t["to_move"] == "2"
